//! Building chart specs: themes, styles, kinds, layouts.
//!
//! A spec is fully resolved data: the renderer never guesses. Themes are TOML
//! files under `templates/themes/` deserializing into [`Style`]; any style
//! field can be overridden by name with [`set_style`].

pub mod annotation;
pub mod dates;
pub mod dual_axis;
pub mod error_bar;
pub mod format;
pub mod log_axis;
pub mod multiples;
pub mod related;
pub mod shape;
pub mod stat;
mod themes;
pub mod waterfall;

use serde_json::Value;

use crate::ir::decimal::Decimal;
use crate::ir::{
    ChartKind, ChartSpec, ColumnType, DashboardPanel, KpiTile, Layout, PanelSpec, Style, Table,
};

#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    #[error("unknown theme {name:?} (known: {known})")]
    UnknownTheme { name: String, known: String },
    #[error("theme {name:?}: {message}")]
    BadTheme { name: String, message: String },
    #[error("unknown style key {key:?} (known: {known})")]
    UnknownKey { key: String, known: String },
    #[error("style key {key:?}: bad value {value:?}: {message}")]
    BadValue {
        key: String,
        value: String,
        message: String,
    },
    #[error("table {table:?}: {message}")]
    Table { table: String, message: String },
    #[error("table {table:?} cannot be drawn as {kind}: {reason}")]
    Unsuitable {
        table: String,
        kind: &'static str,
        reason: String,
    },
    #[error("layout: {0}")]
    Layout(String),
}

/// All built-in themes, in a fixed order (classic first).
pub fn builtin_themes() -> Vec<Style> {
    themes::THEMES
        .iter()
        .filter_map(|(name, text)| parse_theme(name, text).ok())
        .collect()
}

/// Names of the built-in themes, in order.
pub fn theme_names() -> Vec<&'static str> {
    themes::THEMES.iter().map(|(n, _)| *n).collect()
}

fn parse_theme(name: &str, text: &str) -> Result<Style, SpecError> {
    let style: Style = toml::from_str(text).map_err(|e| SpecError::BadTheme {
        name: name.into(),
        message: e.to_string(),
    })?;
    validate_style(&style).map_err(|e| SpecError::BadTheme {
        name: name.into(),
        message: e.to_string(),
    })?;
    Ok(style)
}

pub fn theme(name: &str) -> Result<Style, SpecError> {
    let wanted = name.trim().to_ascii_lowercase();
    match themes::THEMES.iter().find(|(n, _)| *n == wanted) {
        Some((n, text)) => parse_theme(n, text),
        None => Err(SpecError::UnknownTheme {
            name: name.into(),
            known: theme_names().join(", "),
        }),
    }
}

/// Override one style field by its name. The value is parsed as JSON when it
/// parses (numbers, booleans, arrays), otherwise taken as a string, so every
/// field — including ones added later — can be set without code here.
pub fn set_style(style: &mut Style, key: &str, value: &str) -> Result<(), SpecError> {
    let Value::Object(mut map) =
        serde_json::to_value(&*style).map_err(|e| SpecError::BadValue {
            key: key.into(),
            value: value.into(),
            message: e.to_string(),
        })?
    else {
        unreachable!("Style serializes to an object")
    };
    let key = key.trim();
    // Keys left out of the JSON at their default are still keys.
    map.entry("date_style")
        .or_insert_with(|| Value::String("iso".into()));
    map.entry("colormap")
        .or_insert_with(|| Value::String("auto".into()));
    if !map.contains_key(key) {
        return Err(SpecError::UnknownKey {
            key: key.into(),
            known: map.keys().cloned().collect::<Vec<_>>().join(", "),
        });
    }
    let bad = |message: String| SpecError::BadValue {
        key: key.into(),
        value: value.into(),
        message,
    };
    let candidates: Vec<Value> = match serde_json::from_str::<Value>(value) {
        Ok(v) => vec![v, Value::String(value.into())],
        Err(_) => vec![Value::String(value.into())],
    };
    let mut last_err = String::new();
    for candidate in candidates {
        map.insert(key.into(), candidate);
        match serde_json::from_value::<Style>(Value::Object(map.clone())) {
            Ok(new) => {
                validate_style(&new).map_err(|e| match e {
                    SpecError::BadValue { message, .. } => bad(message),
                    other => other,
                })?;
                *style = new;
                return Ok(());
            }
            Err(e) => last_err = e.to_string(),
        }
    }
    Err(bad(last_err))
}

fn is_hex(s: &str) -> bool {
    s.len() == 7 && s.starts_with('#') && s[1..].chars().all(|c| c.is_ascii_hexdigit())
}

/// Check the values a renderer relies on; errors name the offending key.
pub fn validate_style(style: &Style) -> Result<(), SpecError> {
    let bad = |key: &str, value: String, message: &str| {
        Err(SpecError::BadValue {
            key: key.into(),
            value,
            message: message.into(),
        })
    };
    for (key, v) in [
        ("background", &style.background),
        ("plot_background", &style.plot_background),
        ("text_color", &style.text_color),
        ("axis_color", &style.axis_color),
        ("grid_color", &style.grid_color),
    ] {
        if !is_hex(v) {
            return bad(key, v.clone(), "expected a colour like #1f77b4");
        }
    }
    if style.palette.is_empty() {
        return bad(
            "palette",
            "[]".into(),
            "the palette needs at least one colour",
        );
    }
    for c in &style.palette {
        if !is_hex(&c.hex) {
            return bad("palette", c.hex.clone(), "expected colours like #1f77b4");
        }
        if c.name.trim().is_empty() {
            return bad("palette", c.hex.clone(), "every colour needs a name");
        }
    }
    for (key, v) in [
        ("title_size", style.title_size),
        ("label_size", style.label_size),
        ("tick_size", style.tick_size),
        ("legend_size", style.legend_size),
        ("value_label_size", style.value_label_size),
    ] {
        if !(4.0..=96.0).contains(&v) {
            return bad(key, v.to_string(), "font sizes must be between 4 and 96 px");
        }
    }
    if !(0.05..=1.0).contains(&style.bar_width) {
        return bad(
            "bar_width",
            style.bar_width.to_string(),
            "must be in 0.05..=1",
        );
    }
    if !(0.0..=0.9).contains(&style.donut_hole) {
        return bad(
            "donut_hole",
            style.donut_hole.to_string(),
            "must be in 0..=0.9",
        );
    }
    if !(0.0..=20.0).contains(&style.line_width) {
        return bad(
            "line_width",
            style.line_width.to_string(),
            "must be in 0..=20",
        );
    }
    if !(0.0..=30.0).contains(&style.marker_size) {
        return bad(
            "marker_size",
            style.marker_size.to_string(),
            "must be in 0..=30",
        );
    }
    if !(0.0..=10.0).contains(&style.axis_line_width) {
        return bad(
            "axis_line_width",
            style.axis_line_width.to_string(),
            "must be in 0..=10",
        );
    }
    if !(2..=20).contains(&style.tick_count) {
        return bad(
            "tick_count",
            style.tick_count.to_string(),
            "must be in 2..=20",
        );
    }
    if style.margin > 200 {
        return bad("margin", style.margin.to_string(), "must be at most 200");
    }
    Ok(())
}

/// Series columns that hold at least one number, in table order.
pub fn numeric_series(table: &Table) -> Vec<&str> {
    table
        .series
        .iter()
        .filter(|c| c.cells.iter().any(|cell| cell.as_f64().is_some()))
        .map(|c| c.name.as_str())
        .collect()
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// Whether the index is an ordered axis (years, dates, months, quarters).
pub fn is_ordered_index(table: &Table) -> bool {
    match table.index.ctype {
        ColumnType::Year | ColumnType::Date => true,
        ColumnType::Number => true,
        _ => {
            let labels = table.category_labels();
            !labels.is_empty()
                && labels.iter().all(|l| {
                    let l = l.trim().to_ascii_lowercase();
                    MONTHS.iter().any(|m| l.starts_with(m))
                        || (l.len() <= 8
                            && (l.starts_with('q') || l.contains(" q") || l.contains("-q"))
                            && l.chars().any(|c| c.is_ascii_digit()))
                })
        }
    }
}

fn all_values<'a>(table: &'a Table, series: &'a [&str]) -> impl Iterator<Item = f64> + 'a {
    series
        .iter()
        .filter_map(|s| table.series(s))
        .flat_map(|c| c.cells.iter().filter_map(|cell| cell.as_f64()))
}

/// Whether a single series are shares of a whole (non-negative, summing to ~100 or ~1).
pub fn is_shares(table: &Table) -> bool {
    let series = numeric_series(table);
    if series.len() != 1 || table.n_rows() < 2 || table.n_rows() > 12 {
        return false;
    }
    let col = &table.series[table
        .series
        .iter()
        .position(|c| c.name == series[0])
        .unwrap_or(0)];
    if col.cells.iter().any(|c| c.as_f64().is_none()) {
        return false;
    }
    let values: Vec<f64> = col.cells.iter().filter_map(|c| c.as_f64()).collect();
    let sum: f64 = values.iter().sum();
    values.iter().all(|v| *v >= 0.0) && ((sum - 100.0).abs() <= 1.5 || (sum - 1.0).abs() <= 0.015)
}

/// Largest ratio between the median magnitudes of two series.
pub(crate) fn magnitude_ratio(table: &Table, series: &[&str]) -> f64 {
    let medians: Vec<f64> = series
        .iter()
        .filter_map(|s| table.series(s))
        .filter_map(|c| {
            let mut v: Vec<f64> = c
                .cells
                .iter()
                .filter_map(|x| x.as_f64())
                .map(f64::abs)
                .collect();
            v.sort_by(f64::total_cmp);
            v.get(v.len() / 2).copied()
        })
        .filter(|m| *m > 0.0)
        .collect();
    let max = medians.iter().copied().fold(0.0, f64::max);
    let min = medians.iter().copied().fold(f64::INFINITY, f64::min);
    if min.is_finite() && min > 0.0 {
        max / min
    } else {
        1.0
    }
}

/// The unit a series name gives in trailing parentheses, e.g. "US$ per month".
fn name_unit(name: &str) -> Option<String> {
    let name = name.trim();
    let open = name.rfind('(')?;
    name.ends_with(')')
        .then(|| name[open + 1..name.len() - 1].trim().to_lowercase())
        .filter(|u| !u.is_empty())
}

/// `name (unit)`, unless the name already states the unit ("Yield (t/ha)"
/// stays as it is).
pub(crate) fn with_unit(name: &str, unit: &str) -> String {
    let unit = unit.trim();
    if unit.is_empty() || name.to_lowercase().contains(&unit.to_lowercase()) {
        name.to_string()
    } else {
        format!("{name} ({unit})")
    }
}

/// Whether all series are in one unit: same printed prefix/suffix, the same
/// unit named in their headers and the same unit given by the sidecar.
pub(crate) fn same_unit(table: &Table, series: &[&str]) -> bool {
    type Units = (
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
    );
    let units: Vec<Units> = series
        .iter()
        .filter_map(|s| table.series(s))
        .map(|c| {
            (
                c.format.prefix.clone(),
                c.format.suffix.clone(),
                name_unit(&c.name),
                table.meta.unit_of(&c.name).map(|u| u.trim().to_lowercase()),
            )
        })
        .collect();
    units.windows(2).all(|w| w[0] == w[1])
}

/// Whether anything says the series measure one thing in one unit: a unit
/// for the table or each series, one measure (a long table's value column),
/// or the same printed or named unit on every series. Columns without any of
/// these (ozone in ppb beside wind in mph) never share an axis.
fn unit_is_stated(table: &Table, series: &[&str]) -> bool {
    let mut distinct: Vec<&str> = series.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() < 2 || table.meta.measure.is_some() {
        return true;
    }
    let cols: Vec<_> = series.iter().filter_map(|s| table.series(s)).collect();
    let every = |f: &dyn Fn(&crate::ir::Column) -> bool| cols.iter().all(|c| f(c));
    every(&|c| table.meta.unit_of(&c.name).is_some())
        || every(&|c| c.format.prefix.is_some() || c.format.suffix.is_some())
        || every(&|c| name_unit(&c.name).is_some())
}

/// Words naming quantities that do not add up across series: rates, indices,
/// averages, prices, anomalies and the like.
const NON_ADDITIVE_WORDS: [&str; 26] = [
    "wage",
    "wages",
    "salary",
    "concentration",
    "ppm",
    "ppb",
    "fertility",
    "percentile",
    "rate",
    "index",
    "average",
    "mean",
    "median",
    "price",
    "anomaly",
    "expectancy",
    "per capita",
    "growth",
    "ratio",
    "temperature",
    "°",
    "exchange",
    "yield",
    "score",
    // A turnout or an occupancy is a share of those who could.
    "turnout",
    "occupancy",
];

/// "per 1,000 population", "per woman": a quantity relative to a population.
static PER_POPULATION: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"\bper (capita|person|people|woman|women|head|household|inhabitant|resident|\d[\d,.]*)\b",
    )
    .expect("per-population regex")
});

pub(crate) fn mentions_non_additive(text: &str) -> bool {
    let text = text.to_lowercase();
    if PER_POPULATION.is_match(&text) {
        return true;
    }
    NON_ADDITIVE_WORDS.iter().any(|w| {
        text.match_indices(w).any(|(i, _)| {
            // Whole words only ("rate" must not match "generation", "corporate").
            let before = text[..i].chars().next_back();
            let after = text[i + w.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric)
                && (!after.is_some_and(char::is_alphanumeric)
                    || after == Some('s')
                        && !text[i + w.len() + 1..].starts_with(char::is_alphanumeric))
        })
    })
}

/// Series named by years or dates ("1940", "1945"; "2006", "2007") are one
/// measure at several times, not parts of one whole: a stack of them adds
/// one year to the next.
fn series_are_times(series: &[&str]) -> bool {
    series.len() >= 2
        && series.iter().all(|s| {
            let s = s.trim();
            crate::table::infer::parse_year(s).is_some()
                || crate::table::infer::parse_date(s).is_some()
        })
}

/// Quantities that belong to a place or a thing, not to a population of
/// parts: two cities' rainfall or two species' body mass add up to nothing.
const INTENSIVE_WORDS: [&str; 8] = [
    "precipitation",
    "rainfall",
    "snowfall",
    "sunshine",
    "humidity",
    "density",
    "speed",
    "body mass",
];

fn is_intensive(text: &str) -> bool {
    has_phrase(text, &INTENSIVE_WORDS)
}

/// Whether a text names a quantity that adds up to no whole: a rate, an
/// average, a price, or one that belongs to a place or a thing.
fn says_not_additive(text: &str) -> bool {
    mentions_non_additive(text) || is_intensive(text)
}

/// The table's own words about what its numbers are: unit, measure, title
/// and value-axis title.
fn described_as(meta: &crate::ir::TableMeta) -> impl Iterator<Item = &str> {
    [
        meta.unit.as_deref(),
        meta.measure.as_deref(),
        meta.title.as_deref(),
        meta.y_label.as_deref(),
    ]
    .into_iter()
    .flatten()
}

/// Whether a series is a level rather than an amount (a temperature, a
/// rate, an index, a price): its name, its unit or the table's words say so.
fn is_level(table: &Table, series: &str) -> bool {
    let meta = &table.meta;
    std::iter::once(series)
        .chain(meta.units.get(series).map(String::as_str))
        .chain(described_as(meta))
        .any(says_not_additive)
}

/// Whether `text` holds one of `phrases` as whole words, in any case.
pub(crate) fn has_phrase(text: &str, phrases: &[&str]) -> bool {
    let text = text.to_lowercase();
    phrases.iter().any(|p| {
        text.match_indices(p).any(|(i, _)| {
            let before = text[..i].chars().next_back();
            let after = text[i + p.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
    })
}

/// Whether per-row sums of the series are ~100 (or ~1): parts of a whole in percent.
fn rows_sum_to_whole(table: &Table, series: &[&str]) -> bool {
    let cols: Vec<_> = series.iter().filter_map(|s| table.series(s)).collect();
    (0..table.n_rows()).all(|r| {
        let sum: f64 = cols.iter().filter_map(|c| c.cells.get(r)?.as_f64()).sum();
        (sum - 100.0).abs() <= 1.5 || (sum - 1.0).abs() <= 0.015
    })
}

/// Whether the series have one unit and magnitudes within about two orders,
/// so they can share a value axis (grouped bars, several lines).
pub fn is_commensurable(table: &Table, series: &[&str]) -> bool {
    same_unit(table, series)
        && unit_is_stated(table, series)
        && magnitude_ratio(table, series) <= 100.0
}

/// Whether a table is about the relation of unlike series on labelled rows
/// (income vs rent per city): at least two numeric series in different units
/// or magnitudes, or a sidecar naming the first series as the x axis.
pub fn is_scatter_style(table: &Table) -> bool {
    let series = numeric_series(table);
    if series.len() < 2 || is_ordered_index(table) {
        return false;
    }
    let x_names_series = table
        .meta
        .x_label
        .as_deref()
        .is_some_and(|l| series.iter().any(|s| l.trim().eq_ignore_ascii_case(s)));
    x_names_series
        || !same_unit(table, &series)
        || (table.meta.unit.is_none() && magnitude_ratio(table, &series) > 8.0)
}

/// Whether the series may be stacked: non-negative parts of a whole, or
/// counts/amounts in one unit, never rates, indices, averages or prices.
pub fn is_stackable(table: &Table, series: &[&str]) -> bool {
    if series.len() < 2 || is_scatter_style(table) || !is_commensurable(table, series) {
        return false;
    }
    // A missing part would be drawn as zero inside the stack.
    let complete = series
        .iter()
        .filter_map(|s| table.series(s))
        .all(|c| c.cells.iter().all(|x| x.as_f64().is_some()));
    if !complete || table.meta.additive == Some(false) {
        return false;
    }
    if table.meta.additive == Some(true) {
        return all_values(table, series).all(|v| v >= 0.0);
    }
    if !all_values(table, series).all(|v| v >= 0.0) {
        return false;
    }
    let meta = &table.meta;
    if series_are_times(series)
        || series
            .iter()
            .copied()
            .chain(meta.units.values().map(String::as_str))
            .chain(described_as(meta))
            .any(says_not_additive)
    {
        return false;
    }
    let percent = series.iter().filter_map(|s| table.series(s)).any(|c| {
        c.format.suffix.as_deref() == Some("%") || name_unit(&c.name).as_deref() == Some("%")
    }) || meta.unit.as_deref().is_some_and(|u| u.trim() == "%");
    !percent || rows_sum_to_whole(table, series)
}

/// The chart kinds that suit a table, best first.
pub fn suitable_kinds(table: &Table) -> Vec<ChartKind> {
    use ChartKind::*;
    // Raw observations are distributions: bars of numbered rows say nothing.
    if stat::is_samples(table) {
        return stat::suitable(table);
    }
    // A value with its interval: the interval is drawn only as error bars;
    // every other kind draws the value alone.
    if let Some(plain) = error_bar::without_intervals(table) {
        let mut kinds = suitable_kinds(&plain);
        if error_bar::groups_fit(table) {
            kinds.push(ChartKind::ErrorBar);
        }
        return kinds;
    }
    let series = numeric_series(table);
    if series.is_empty() || table.n_rows() == 0 {
        return Vec::new();
    }
    let labels = table.category_labels();
    let long_labels = labels.iter().any(|l| l.chars().count() > 14) || labels.len() > 12;
    let mut kinds = Vec::new();
    if is_shares(table) {
        kinds.extend([Pie, Donut, Bar, HorizontalBar, Lollipop]);
        return kinds;
    }
    let multi = series.len() >= 2;
    let shared_axis = multi && is_commensurable(table, &series);
    let stackable = is_stackable(table, &series);
    // Bars side by side need room: six countries over fifty years is three
    // hundred slivers, which no one draws (a line chart shows them).
    let bars_fit = grouped_bars_fit(table, series.len());
    if is_ordered_index(table) {
        if !multi || shared_axis {
            kinds.push(Line);
        }
        if multi {
            if shared_axis && bars_fit {
                kinds.push(GroupedBar);
            }
            if stackable {
                kinds.push(StackedArea);
                kinds.push(StackedBar);
            }
        }
        if !multi || !shared_axis {
            // Unlike series cannot share an axis: the line shows the series
            // commensurable with the first, bars and areas the first alone.
            kinds.extend([Line, Bar]);
            kinds.dedup();
            // A filled area joins its points: over a gap it would hide the
            // lone years on either side. It fills from zero, so it shows an
            // amount, never a level such as a temperature, a rate or a price.
            if shape::complete(table, series[0]).is_some() && !is_level(table, series[0]) {
                kinds.push(Area);
            }
        }
    } else if is_scatter_style(table) {
        let bubble = series.len() >= 3
            && table
                .series(series[2])
                .is_some_and(|c| c.cells.iter().filter_map(|x| x.as_f64()).all(|v| v >= 0.0));
        // A handful of points is no cloud: three species' means read better
        // as bars.
        if table.n_rows() >= SCATTER_MIN_POINTS {
            if bubble {
                kinds.push(Bubble);
            }
            kinds.push(Scatter);
        }
        // Bars show one chosen series (the first), never all unlike series at once.
        if long_labels {
            kinds.extend([HorizontalBar, Bar]);
        } else {
            kinds.extend([Bar, HorizontalBar]);
        }
    } else if multi {
        if bars_fit {
            kinds.push(GroupedBar);
        }
        // Fifty states under stacked columns lose half their names; a
        // named category must be readable where its bar stands.
        if stackable && table.n_rows() <= LOLLIPOP_MAX {
            kinds.push(StackedBar);
        }
        if bars_fit {
            kinds.push(HorizontalBar);
        }
        // Two series read against each other (2008 against 2009; poverty
        // against schooling by state); the first two of ten income brackets,
        // parts of one whole, are an arbitrary pair.
        if table.index.ctype == ColumnType::Text
            && table.n_rows() >= SCATTER_MIN_POINTS
            && (series.len() == 2 || !stackable)
        {
            kinds.push(Scatter);
        }
        if kinds.is_empty() {
            kinds.push(HorizontalBar);
        }
    } else if long_labels {
        // Dozens of names under vertical bars cannot all be printed.
        kinds.push(HorizontalBar);
        if table.n_rows() <= LOLLIPOP_MAX {
            kinds.push(Bar);
        }
    } else {
        kinds.extend([Bar, HorizontalBar]);
    }
    // Last, so tables keep their best kinds first: a grid of several
    // like series over several categories reads as a heatmap too.
    if suits_heatmap(table, &series) {
        kinds.push(Heatmap);
    }
    // The newer kinds go last, so the kinds listed first (the ones picked
    // when nothing else decides) stay as they were.
    if kinds.contains(&StackedBar) && shares_table(table, &series).is_some() {
        kinds.push(PercentStackedBar);
    }
    // A lollipop compares a few categories; dozens of stems over a time
    // run are a line's job.
    if kinds.contains(&Bar) && table.n_rows() <= LOLLIPOP_MAX {
        kinds.push(Lollipop);
    }
    if waterfall::suits_waterfall(table) {
        kinds.push(Waterfall);
    }
    if error_bar::suits_error_bar(table) {
        kinds.push(ErrorBar);
    }
    // A five-number summary per group also draws as box plots.
    kinds.extend(stat::suitable(table));
    kinds.extend(shape::suitable(table));
    if dual_axis::suits_dual_axis(table) {
        kinds.push(DualAxis);
    }
    kinds
}

/// Fewest categories a scatter of two like series draws: three species'
/// means are a dumbbell's or grouped bars' job, not a cloud's.
pub const SCATTER_MIN_POINTS: usize = 8;

/// Most bars a grouped bar chart draws (categories × series).
pub const GROUPED_BARS_MAX: usize = 72;

/// Whether `n_series` series side by side over the table's rows stay
/// within [`GROUPED_BARS_MAX`] bars.
fn grouped_bars_fit(table: &Table, n_series: usize) -> bool {
    table.n_rows() * n_series.min(12) <= GROUPED_BARS_MAX
}

/// Most named categories a lollipop chart, or columns of long names or
/// stacks of named categories, draw: past this their labels are thinned.
pub const LOLLIPOP_MAX: usize = 24;

/// Most rows or columns a heatmap draws: past this its cells are too small
/// to print their values.
pub const HEATMAP_MAX_SIDE: usize = 24;

/// At least two like series (one colour scale) over two to
/// [`HEATMAP_MAX_SIDE`] categories, every series with a value.
fn suits_heatmap(table: &Table, series: &[&str]) -> bool {
    let like: Vec<&str> = series
        .iter()
        .copied()
        .filter(|s| is_commensurable(table, &[series[0], s]))
        .collect();
    like.len() >= 2
        && (2..=HEATMAP_MAX_SIDE).contains(&table.n_rows())
        && !is_scatter_style(table)
        && all_values(table, &like).any(|v| v.is_finite())
}

/// Whether a heatmap of `table` puts its series on rows and its categories
/// on columns: a few times run left to right, as calendar heatmaps draw
/// them; other categories (and long time runs, whose columns would be too
/// narrow for their values) are rows, their names read at the left.
pub fn heatmap_series_on_rows(table: &Table) -> bool {
    is_ordered_index(table) && table.n_rows() <= 12
}
/// Decimals of the shares a percent-stacked chart draws and prints.
pub const SHARE_DECIMALS: u8 = 1;

/// `table` with each of `series` replaced by its share (%) of its row's
/// total over `series`: what a percent-stacked chart draws. Shares are
/// rounded to [`SHARE_DECIMALS`] by largest remainder so that every row adds
/// up to exactly 100. None when a value is missing or negative or a row's
/// total is zero: such a row has no shares to draw.
pub fn shares_table(table: &Table, series: &[&str]) -> Option<Table> {
    if series.len() < 2 {
        return None;
    }
    let cols: Vec<&crate::ir::Column> = series
        .iter()
        .map(|s| table.series(s))
        .collect::<Option<_>>()?;
    let scale = 10f64.powi(i32::from(SHARE_DECIMALS));
    let whole = (100.0 * scale) as i64;
    let mut shares: Vec<Vec<f64>> = vec![Vec::with_capacity(table.n_rows()); cols.len()];
    for r in 0..table.n_rows() {
        let values: Vec<f64> = cols
            .iter()
            .map(|c| c.cells.get(r).and_then(|x| x.as_f64()))
            .collect::<Option<_>>()?;
        if values.iter().any(|v| !v.is_finite() || *v < 0.0) {
            return None;
        }
        let total: f64 = values.iter().sum();
        if total <= 0.0 {
            return None;
        }
        // Largest remainder: floor every exact share (in tenths), then give
        // the missing tenths to the largest remainders, first column first on ties.
        let exact: Vec<f64> = values.iter().map(|v| v / total * 100.0 * scale).collect();
        let mut units: Vec<i64> = exact.iter().map(|x| x.floor() as i64).collect();
        let mut order: Vec<usize> = (0..exact.len()).collect();
        order.sort_by(|&a, &b| {
            (exact[b] - exact[b].floor())
                .total_cmp(&(exact[a] - exact[a].floor()))
                .then(a.cmp(&b))
        });
        let missing = (whole - units.iter().sum::<i64>()).max(0) as usize;
        for &i in order.iter().cycle().take(missing) {
            units[i] += 1;
        }
        for (i, u) in units.iter().enumerate() {
            shares[i].push(*u as f64 / scale);
        }
    }
    let mut out = table.clone();
    out.series = cols
        .iter()
        .zip(shares)
        .map(|(c, values)| crate::ir::Column {
            name: c.name.clone(),
            ctype: ColumnType::Number,
            format: crate::ir::NumberFormat {
                decimals: SHARE_DECIMALS,
                prefix: None,
                suffix: Some("%".into()),
                thousands: false,
            },
            cells: values.into_iter().map(crate::ir::Cell::Number).collect(),
        })
        .collect();
    let meta = &mut out.meta;
    // A subtitle stating the input's unit ("Figures in respondents") would
    // contradict the shares drawn under it.
    meta.subtitle = None;
    meta.unit = Some("%".into());
    meta.units.clear();
    meta.additive = Some(true);
    meta.y_label = Some(SHARE_AXIS_LABEL.into());
    Some(out)
}

/// The value axis title of a percent-stacked chart.
pub const SHARE_AXIS_LABEL: &str = "Share of total (%)";

/// One panel drawing `table` as `kind`, with the columns that kind uses.
pub fn panel(table: &Table, kind: ChartKind, style: &Style) -> Result<PanelSpec, SpecError> {
    if kind.is_statistical() {
        return stat::panel(table, kind, style);
    }
    validate_style(style)?;
    if kind != ChartKind::ErrorBar
        && let Some(plain) = error_bar::without_intervals(table)
    {
        return panel(&plain, kind, style);
    }
    let err = |message: &str| SpecError::Table {
        table: table.id.clone(),
        message: message.into(),
    };
    if table.n_rows() == 0 {
        return Err(err("has no rows"));
    }
    let numeric = numeric_series(table);
    if numeric.is_empty() {
        return Err(err("has no numeric series"));
    }
    let unsuitable = |reason: String| SpecError::Unsuitable {
        table: table.id.clone(),
        kind: kind.name(),
        reason,
    };
    let take =
        |n: usize| -> Vec<String> { numeric.iter().take(n).map(|s| s.to_string()).collect() };
    let series = match kind {
        ChartKind::Bar | ChartKind::Area | ChartKind::Lollipop => take(1),
        // Unlike series get one chosen series (the first); commensurable ones
        // are drawn as grouped horizontal bars where they fit (ten income
        // brackets over fifty states are five hundred slivers: the first
        // bracket alone is drawn).
        ChartKind::HorizontalBar
            if is_scatter_style(table) || !grouped_bars_fit(table, numeric.len()) =>
        {
            take(1)
        }
        ChartKind::Pie | ChartKind::Donut => {
            let s = take(1);
            let col = table.series(&s[0]).ok_or_else(|| err("series vanished"))?;
            let values: Vec<f64> = col.cells.iter().filter_map(|c| c.as_f64()).collect();
            if values.iter().any(|v| *v < 0.0) {
                return Err(unsuitable("a pie cannot show negative values".into()));
            }
            if !values.iter().any(|v| *v > 0.0) {
                return Err(unsuitable("all values are zero or missing".into()));
            }
            s
        }
        ChartKind::Scatter | ChartKind::Bubble => {
            let need = if kind == ChartKind::Bubble { 3 } else { 2 };
            if numeric.len() < need {
                return Err(unsuitable(format!("needs {need} numeric series")));
            }
            if kind == ChartKind::Bubble
                && table
                    .series(numeric[2])
                    .is_some_and(|c| c.cells.iter().filter_map(|x| x.as_f64()).any(|v| v < 0.0))
            {
                return Err(unsuitable("bubble sizes cannot be negative".into()));
            }
            take(need)
        }
        ChartKind::StackedBar | ChartKind::StackedArea => {
            let s = take(style.palette.len().clamp(1, 12));
            if all_values(table, &numeric).any(|v| v < 0.0) && kind == ChartKind::StackedArea {
                return Err(unsuitable("stacked areas need non-negative values".into()));
            }
            s
        }
        ChartKind::Heatmap => {
            let like: Vec<String> = numeric
                .iter()
                .filter(|s| is_commensurable(table, &[numeric[0], s]))
                .take(HEATMAP_MAX_SIDE)
                .map(|s| s.to_string())
                .collect();
            if like.len() < 2 || table.n_rows() < 2 {
                return Err(unsuitable(
                    "a heatmap needs two like series over two categories".into(),
                ));
            }
            if table.n_rows() > HEATMAP_MAX_SIDE {
                return Err(unsuitable(format!(
                    "more than {HEATMAP_MAX_SIDE} categories leave no room for values"
                )));
            }
            like
        }
        ChartKind::PercentStackedBar => {
            let s = take(style.palette.len().clamp(2, 12));
            let names: Vec<&str> = s.iter().map(String::as_str).collect();
            if shares_table(table, &names).is_none() {
                return Err(unsuitable(
                    "shares need at least two complete, non-negative series with a positive total per category".into(),
                ));
            }
            s
        }
        ChartKind::Waterfall => {
            if !waterfall::suits_waterfall(table) {
                return Err(unsuitable(format!(
                    "a waterfall needs one complete, additive series of {}-{} steps that rises and falls",
                    waterfall::MIN_STEPS,
                    waterfall::MAX_STEPS
                )));
            }
            vec![take(1).remove(0), waterfall::RUNNING_TOTAL.to_string()]
        }
        ChartKind::ErrorBar => {
            let iv = error_bar::intervals(table).ok_or_else(|| {
                unsuitable(format!(
                    "error bars need a value with lower/upper or error columns over 2-{} groups, every interval around its value",
                    error_bar::MAX_GROUPS
                ))
            })?;
            vec![
                iv.value,
                error_bar::LOWER.to_string(),
                error_bar::UPPER.to_string(),
                error_bar::WIDTH.to_string(),
            ]
        }
        ChartKind::Histogram | ChartKind::BoxPlot | ChartKind::Violin => {
            unreachable!("statistical panels are built by spec::stat")
        }
        ChartKind::DivergingBar | ChartKind::Dumbbell | ChartKind::Slope | ChartKind::Radar => {
            shape::series_for(table, kind).map_err(unsuitable)?
        }
        ChartKind::DualAxis => {
            let (left, right) = dual_axis::dual_series(table).ok_or_else(|| {
                unsuitable(format!(
                    "a dual-axis chart needs exactly two complete numeric series over {}-{} categories, in different units or scales {}x apart",
                    dual_axis::MIN_ROWS,
                    dual_axis::MAX_ROWS,
                    dual_axis::MIN_RATIO
                ))
            })?;
            vec![left, right]
        }
        ChartKind::GroupedBar | ChartKind::Line | ChartKind::HorizontalBar => {
            // One value axis: only series commensurable with the first share it.
            numeric
                .iter()
                .filter(|s| is_commensurable(table, &[numeric[0], s]))
                .take(12)
                .map(|s| s.to_string())
                .collect()
        }
    };
    let meta = &table.meta;
    let (x_label, y_label) = match kind {
        // Spokes are named around the circle; rings print the values.
        ChartKind::Pie | ChartKind::Donut | ChartKind::Radar => (None, None),
        // The index names its axis; the series are named cell by cell.
        ChartKind::Heatmap => {
            let index = meta
                .x_label
                .clone()
                .filter(|l| !numeric.iter().any(|s| s.eq_ignore_ascii_case(l.trim())))
                .or_else(|| Some(table.index.name.clone()))
                .filter(|n| !n.trim().is_empty());
            if heatmap_series_on_rows(table) {
                (index, None)
            } else {
                (None, index)
            }
        }
        ChartKind::Scatter | ChartKind::Bubble => {
            (Some(series[0].clone()), Some(series[1].clone()))
        }
        _ => {
            // Sidecar labels that name a series describe a scatter's axes, not a category axis.
            let names_series =
                |l: &String| numeric.iter().any(|s| s.eq_ignore_ascii_case(l.trim()));
            // Sidecars written for a horizontal chart name the index as the y label.
            let index_name = table.index.name.trim();
            let (meta_cat, meta_val) = match (&meta.x_label, &meta.y_label) {
                (x, Some(y))
                    if !index_name.is_empty() && y.trim().eq_ignore_ascii_case(index_name) =>
                {
                    (Some(y.clone()), x.clone())
                }
                (x, y) => (x.clone(), y.clone()),
            };
            let x = meta_cat
                .clone()
                .filter(|l| !names_series(l))
                .or_else(|| Some(table.index.name.clone()).filter(|n| !n.trim().is_empty()));
            // One series picked out of several: the axis names that series.
            let picked = series.len() == 1 && numeric.len() > 1;
            let y = if picked {
                Some(match &meta.unit {
                    Some(u) => with_unit(&series[0], u),
                    None => series[0].clone(),
                })
            } else {
                meta_val
            };
            let y = y
                .filter(|l| series.len() == 1 || !names_series(l))
                .or_else(|| {
                    if series.len() == 1 {
                        Some(series[0].clone())
                    } else {
                        // Places or firms as series: the axis names what
                        // they measure (a long table's value column).
                        meta.unit
                            .clone()
                            .or_else(|| meta.named_measure().map(str::to_string))
                    }
                });
            match kind {
                ChartKind::HorizontalBar | ChartKind::DivergingBar | ChartKind::Dumbbell => (y, x),
                // The two axes are headed by the series' names; the
                // categories are named at the line ends.
                ChartKind::Slope => (None, y),
                _ => (x, y),
            }
        }
    };
    // A percent-stacked chart draws shares: its table is the shares, so every
    // question on it asks (and every answer gives) a share.
    let shown = match kind {
        ChartKind::PercentStackedBar => {
            let names: Vec<&str> = series.iter().map(String::as_str).collect();
            shares_table(table, &names).ok_or_else(|| err("shares vanished"))?
        }
        // The running total is part of what a waterfall shows: questions
        // about it are answered from the same table as the steps.
        ChartKind::Waterfall => {
            waterfall::waterfall_table(table).ok_or_else(|| err("steps vanished"))?
        }
        // The bounds and widths are what an error-bar chart shows.
        ChartKind::ErrorBar => {
            error_bar::error_bar_table(table).ok_or_else(|| err("intervals vanished"))?
        }
        _ => table.clone(),
    };
    let y_label = match kind {
        ChartKind::PercentStackedBar => Some(SHARE_AXIS_LABEL.to_string()),
        // The steps and their running total share the value axis: it is
        // named after the steps' measure.
        ChartKind::Waterfall => y_label.or_else(|| Some(series[0].clone())),
        // Each axis is titled after the series it reads (the right one by
        // the renderer): a shared title would name neither.
        ChartKind::DualAxis => Some(series[0].clone()),
        ChartKind::ErrorBar => meta
            .y_label
            .clone()
            .filter(|l| !l.trim().is_empty())
            .or_else(|| Some(series[0].clone())),
        _ => y_label,
    };
    // Grouped or stacked bars of one series are plain bars: the kind
    // recorded is the one drawn, so per-kind figures count what is seen.
    let kind = match kind {
        ChartKind::GroupedBar | ChartKind::StackedBar if series.len() == 1 => ChartKind::Bar,
        k => k,
    };
    Ok(PanelSpec {
        kind,
        table: shown,
        series,
        title: meta.title.clone().filter(|t| !t.trim().is_empty()),
        x_label,
        y_label,
        style: style.clone(),
        annotation: None,
        subtitle: None,
        samples: None,
        pinned: None,
    })
}

/// Height per category row of a horizontal bar chart, in pixels: room for
/// a tick label at the usual sizes.
const ROW_HEIGHT: u32 = 17;
/// Height of a chart's title, axes and margins around the rows.
const CHROME_HEIGHT: u32 = 170;

/// A single chart, 800×600, or taller where horizontal bars need room for
/// every name: an analyst draws fifty states as a tall chart, not as a
/// short one with every second state unnamed.
pub fn single(table: &Table, kind: ChartKind, style: &Style) -> Result<ChartSpec, SpecError> {
    let mut panel = panel(table, kind, style)?;
    let mut style = style.clone();
    if log_axis::needs_log_axis(&panel) {
        panel.style.log_scale = true;
        style.log_scale = true;
    }
    let height = if panel.kind == ChartKind::HorizontalBar {
        (CHROME_HEIGHT + ROW_HEIGHT * panel.table.n_rows() as u32).max(600)
    } else {
        600
    };
    Ok(ChartSpec {
        source_line: None,
        width: 800,
        height,
        title: None,
        style,
        layout: Layout::Single { panel },
    })
}

/// An n×m grid of panels, row-major, with an optional suptitle.
pub fn grid(
    rows: u32,
    cols: u32,
    panels: Vec<PanelSpec>,
    style: &Style,
    title: Option<String>,
) -> Result<ChartSpec, SpecError> {
    validate_style(style)?;
    if rows == 0 || cols == 0 || rows > 6 || cols > 6 {
        return Err(SpecError::Layout(format!(
            "grid {rows}x{cols}: rows and cols must be 1..=6"
        )));
    }
    if panels.is_empty() || panels.len() > (rows * cols) as usize {
        return Err(SpecError::Layout(format!(
            "grid {rows}x{cols} holds 1..={} panels, got {}",
            rows * cols,
            panels.len()
        )));
    }
    let title_h = if title.is_some() { 50 } else { 0 };
    Ok(ChartSpec {
        source_line: None,
        width: (cols * 440).max(800),
        height: (rows * 340 + title_h).max(600),
        title: title.filter(|t| !t.trim().is_empty()),
        style: style.clone(),
        layout: Layout::Grid {
            rows,
            cols,
            panels,
            shared_x: false,
            shared_y: false,
        },
    })
}

/// A dashboard: banner, KPI tiles, 1–4 charts on an uneven grid, optional paragraph.
pub fn dashboard(
    panels: Vec<PanelSpec>,
    kpis: Vec<KpiTile>,
    banner: Option<String>,
    paragraph: Option<String>,
    style: &Style,
) -> Result<ChartSpec, SpecError> {
    validate_style(style)?;
    if panels.is_empty() || panels.len() > 4 {
        return Err(SpecError::Layout(format!(
            "a dashboard holds 1..=4 charts, got {}",
            panels.len()
        )));
    }
    if kpis.len() > 6 {
        return Err(SpecError::Layout(format!(
            "a dashboard holds at most 6 KPI tiles, got {}",
            kpis.len()
        )));
    }
    // (row, col, row_span, col_span) on a grid of (rows, cols): uneven on purpose.
    type Place = (u32, u32, u32, u32);
    let (grid_rows, grid_cols, places): (u32, u32, &[Place]) = match panels.len() {
        1 => (1, 1, &[(0, 0, 1, 1)]),
        2 => (1, 3, &[(0, 0, 1, 2), (0, 2, 1, 1)]),
        3 => (2, 3, &[(0, 0, 1, 2), (0, 2, 1, 1), (1, 0, 1, 3)]),
        _ => (
            2,
            3,
            &[(0, 0, 1, 2), (0, 2, 1, 1), (1, 0, 1, 1), (1, 1, 1, 2)],
        ),
    };
    let panels = panels
        .into_iter()
        .zip(places)
        .map(|(panel, &(row, col, row_span, col_span))| DashboardPanel {
            panel,
            row,
            col,
            row_span,
            col_span,
        })
        .collect();
    Ok(ChartSpec {
        source_line: None,
        width: 1200,
        height: 900,
        title: None,
        style: style.clone(),
        layout: Layout::Dashboard {
            banner: banner.filter(|b| !b.trim().is_empty()),
            kpis,
            grid_rows,
            grid_cols,
            panels,
            paragraph: paragraph.filter(|p| !p.trim().is_empty()),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_themes_parse_and_are_distinct() {
        let themes = builtin_themes();
        assert_eq!(themes.len(), themes::THEMES.len());
        assert!(themes.len() >= 10);
        for (t, (name, _)) in themes.iter().zip(themes::THEMES) {
            assert_eq!(t.theme, *name);
            let mut names: Vec<&str> = t.palette.iter().map(|c| c.name.as_str()).collect();
            names.sort();
            names.dedup();
            assert_eq!(
                names.len(),
                t.palette.len(),
                "{name}: colour names must be distinct"
            );
        }
        for (i, a) in themes.iter().enumerate() {
            for b in &themes[i + 1..] {
                assert!(a.palette != b.palette || a.background != b.background);
            }
        }
    }

    #[test]
    fn set_style_by_name() {
        let mut s = theme("classic").unwrap();
        set_style(&mut s, "data_labels", "true").unwrap();
        assert!(s.data_labels);
        set_style(&mut s, "number_style", "short").unwrap();
        assert_eq!(s.number_style, crate::ir::NumberStyle::Short);
        set_style(&mut s, "date_style", "short_year").unwrap();
        assert_eq!(s.date_style, crate::ir::DateStyle::ShortYear);
        set_style(&mut s, "title_size", "24").unwrap();
        assert_eq!(s.title_size, 24.0);
        set_style(&mut s, "background", "#000000").unwrap();
        assert_eq!(s.background, "#000000");
        set_style(&mut s, "font_family", "DejaVu Serif").unwrap();
        set_style(
            &mut s,
            "palette",
            r##"[{"name": "red", "hex": "#ff0000"}]"##,
        )
        .unwrap();
        assert_eq!(s.palette.len(), 1);
        set_style(&mut s, "theme", "123").unwrap();
        assert_eq!(
            s.theme, "123",
            "JSON that does not fit a string field is taken as text"
        );
        let e = set_style(&mut s, "no_such_key", "1")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no_such_key"), "{e}");
        let e = set_style(&mut s, "bar_width", "wide")
            .unwrap_err()
            .to_string();
        assert!(e.contains("bar_width"), "{e}");
        let e = set_style(&mut s, "background", "blue")
            .unwrap_err()
            .to_string();
        assert!(e.contains("background"), "{e}");
        let e = set_style(&mut s, "legend", "sideways")
            .unwrap_err()
            .to_string();
        assert!(e.contains("legend"), "{e}");
        assert!(theme("nope").is_err());
    }
}

/// One table per numeric series (same index and metadata; the title names the
/// series), for grids that put each series in its own panel.
pub fn split_series(table: &Table) -> Vec<Table> {
    numeric_series(table)
        .into_iter()
        .filter_map(|name| {
            let col = table.series(name)?.clone();
            let mut t = table.clone();
            t.id = format!("{}__{}", table.id, slug(name));
            t.meta.title = Some(name.to_string());
            if t.meta.y_label.is_none() {
                t.meta.y_label = table.meta.unit.clone();
            }
            t.series = vec![col];
            Some(t)
        })
        .collect()
}

fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_matches('_').to_string()
}

/// KPI tiles summarising a table: for an ordered index the latest value of
/// each series with its change from the previous row, otherwise each
/// series' total. At most `max` tiles.
pub fn kpis_for(table: &Table, style: &Style, max: usize) -> Vec<KpiTile> {
    use format::format_number;
    let ordered = is_ordered_index(table);
    // Periods as the dashboard's charts print them.
    let labels = dates::IndexDates::of(table, style.date_style).labels(table);
    numeric_series(table)
        .into_iter()
        .take(max)
        .filter_map(|name| {
            let col = table.series(name)?;
            let decimals = usize::from(crate::ir::decimal::shown_decimals(
                col.format.decimals,
                col.values().into_iter().flatten(),
            ));
            if ordered {
                let present: Vec<(usize, f64)> = col
                    .cells
                    .iter()
                    .enumerate()
                    .filter_map(|(i, c)| c.as_f64().map(|v| (i, v)))
                    .collect();
                let &(last_i, last) = present.last()?;
                let delta =
                    present
                        .len()
                        .checked_sub(2)
                        .map(|k| present[k])
                        .and_then(|(pi, prev)| {
                            let pct = percent_change(prev, last)?;
                            Some(format!(
                                "{}{}% vs {}",
                                if pct.starts_with('-') { "-" } else { "+" },
                                pct.trim_start_matches('-'),
                                labels[pi]
                            ))
                        });
                Some(KpiTile {
                    label: format!("{name} ({})", labels[last_i]),
                    value: format_number(last, style.number_style, decimals, &col.format),
                    delta,
                })
            } else {
                // Summed in decimal: the total a reader adds up from the table.
                let total = col
                    .cells
                    .iter()
                    .filter_map(|c| c.as_f64())
                    .fold(Decimal::ZERO, |s, v| s.plus(Decimal::from_f64(v)))
                    .to_f64();
                Some(KpiTile {
                    label: format!("Total {name}"),
                    value: format_number(total, style.number_style, decimals, &col.format),
                    delta: None,
                })
            }
        })
        .collect()
}

/// The change from `prev` to `last` in percent of |prev|, computed in decimal
/// and printed with one decimal ("12.5", "-3.0"); None from a zero base.
pub fn percent_change(prev: f64, last: f64) -> Option<String> {
    let base = Decimal::from_f64(prev);
    if base.is_zero() {
        return None;
    }
    let pct = Decimal::from_f64(last)
        .minus(base)
        .times(Decimal::from_int(100))
        .over(base.abs())?;
    Some(pct.format(1))
}

/// The layout asked for on the command line: `single`, `grid:RxC`,
/// `dashboard`, `figure` (a lettered figure of small multiples).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayoutRequest {
    Single,
    Grid { rows: u32, cols: u32 },
    Dashboard,
    Figure,
}

impl std::str::FromStr for LayoutRequest {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, SpecError> {
        let s = s.trim().to_ascii_lowercase();
        if s == "single" {
            return Ok(LayoutRequest::Single);
        }
        if s == "dashboard" {
            return Ok(LayoutRequest::Dashboard);
        }
        if s == "figure" {
            return Ok(LayoutRequest::Figure);
        }
        let bad = || {
            SpecError::Layout(format!(
                "unknown layout {s:?} (expected single, grid:RxC, dashboard or figure)"
            ))
        };
        let dims = s.strip_prefix("grid:").ok_or_else(bad)?;
        let (r, c) = dims.split_once('x').ok_or_else(bad)?;
        let rows = r.trim().parse().map_err(|_| bad())?;
        let cols = c.trim().parse().map_err(|_| bad())?;
        Ok(LayoutRequest::Grid { rows, cols })
    }
}

fn smaller_titles(style: &Style) -> Style {
    let mut s = style.clone();
    s.title_size = (style.title_size * 0.8).max(10.0);
    s
}

/// Panels of other suitable kinds for `table`, skipping `except`. Lollipops
/// repeat a bar panel's picture and percent stacks draw shares rather than
/// the table's values, so neither is a second view of the same numbers; the
/// other opt-in kinds stay out so that grids drawn before them are unchanged.
fn other_kind_panels(
    table: &Table,
    style: &Style,
    except: &[ChartKind],
    max: usize,
) -> Vec<PanelSpec> {
    suitable_kinds(table)
        .into_iter()
        .filter(|k| !except.contains(k))
        // Raw observations draw only as statistical kinds, which no
        // earlier table could get, so those stay in.
        .filter(|k| !k.is_opt_in() || k.is_statistical())
        .filter_map(|k| panel(table, k, style).ok())
        .take(max)
        .collect()
}

/// A whole figure for one table. Grids put each numeric series in its own
/// panel (or, for a single series, show the table in several suitable kinds);
/// dashboards show the table in up to three kinds with KPI tiles from the
/// data, the table title as banner and its paragraph. `kind` forces the kind
/// of the first (or every split) panel.
pub fn figure(
    table: &Table,
    layout: LayoutRequest,
    kind: Option<ChartKind>,
    style: &Style,
) -> Result<ChartSpec, SpecError> {
    let best = |t: &Table| -> Result<ChartKind, SpecError> {
        match kind {
            Some(k) => Ok(k),
            None => suitable_kinds(t)
                .first()
                .copied()
                .ok_or_else(|| SpecError::Table {
                    table: t.id.clone(),
                    message: "has no numeric series to chart".into(),
                }),
        }
    };
    match layout {
        LayoutRequest::Single => single(table, best(table)?, style),
        LayoutRequest::Figure => {
            // The series the table's chart would draw, each in its own panel.
            let kind = best(table)?;
            let drawn = panel(table, kind, style)?;
            multiples::small_multiples(table, kind, &drawn.series, style, drawn.title)
        }
        LayoutRequest::Grid { rows, cols } => {
            let cells = (rows.max(1) * cols.max(1)) as usize;
            let small = smaller_titles(style);
            let parts = split_series(table);
            let panels: Vec<PanelSpec> = if parts.len() >= 2 {
                parts
                    .iter()
                    .take(cells)
                    .map(|t| panel(t, best(t)?, &small))
                    .collect::<Result<_, _>>()?
            } else {
                let first = panel(table, best(table)?, &small)?;
                let mut ps = vec![first.clone()];
                ps.extend(other_kind_panels(table, &small, &[first.kind], cells - 1));
                for p in ps.iter_mut().skip(1) {
                    p.title = Some(kind_title(p.kind).to_string());
                }
                ps
            };
            let split = parts.len() >= 2;
            let same_kind = panels.windows(2).all(|w| w[0].kind == w[1].kind);
            let mut chart = grid(rows, cols, panels, style, table.meta.title.clone())?;
            // Split series share the categories: label the x axis once per column.
            if let Layout::Grid { shared_x, .. } = &mut chart.layout {
                *shared_x = split && same_kind;
            }
            Ok(chart)
        }
        LayoutRequest::Dashboard => {
            let small = smaller_titles(style);
            let first = panel(table, best(table)?, &small)?;
            let mut panels = vec![first.clone()];
            panels.extend(other_kind_panels(table, &small, &[first.kind], 2));
            if panels.len() < 2 {
                panels.extend(
                    split_series(table)
                        .iter()
                        .filter_map(|t| panel(t, best(t).ok()?, &small).ok())
                        .take(3 - panels.len()),
                );
            }
            for p in panels.iter_mut().skip(1) {
                if p.table.id == table.id {
                    p.title = Some(kind_title(p.kind).to_string());
                }
            }
            let banner = table.meta.title.clone().or_else(|| Some(table.id.clone()));
            dashboard(
                panels,
                kpis_for(table, style, 3),
                banner,
                table.meta.paragraph.clone(),
                style,
            )
        }
    }
}

/// A panel title naming the view when several panels show one table.
fn kind_title(kind: ChartKind) -> &'static str {
    match kind {
        ChartKind::Bar | ChartKind::HorizontalBar => "By category",
        ChartKind::GroupedBar => "Side by side",
        ChartKind::StackedBar | ChartKind::StackedArea => "Stacked totals",
        ChartKind::PercentStackedBar => "Shares of each total",
        ChartKind::Lollipop => "By category (dots)",
        ChartKind::Waterfall => "Step by step",
        ChartKind::ErrorBar => "With intervals",
        ChartKind::DualAxis => "Two axes",
        ChartKind::Line => "Trend",
        ChartKind::Area => "Trend (area)",
        ChartKind::Pie | ChartKind::Donut => "Shares",
        ChartKind::Scatter => "Relationship",
        ChartKind::Bubble => "Relationship and size",
        ChartKind::Heatmap => "Grid of values",
        ChartKind::Histogram => "Distribution",
        ChartKind::BoxPlot | ChartKind::Violin => "Distributions by group",
        ChartKind::DivergingBar => "Above and below zero",
        ChartKind::Dumbbell => "Two values per category",
        ChartKind::Slope => "From one to the other",
        ChartKind::Radar => "Profile",
    }
}

#[cfg(test)]
mod kind_tests {
    use super::*;
    use ChartKind::*;

    fn fixture(name: &str) -> Table {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(name);
        crate::table::load_table(&path).unwrap()
    }

    fn kinds(name: &str) -> Vec<ChartKind> {
        suitable_kinds(&fixture(name))
    }

    const STACKED_OR_GROUPED: [ChartKind; 3] = [StackedBar, StackedArea, GroupedBar];

    #[test]
    fn scatter_style_tables_get_scatter_and_one_series_bars() {
        assert_eq!(
            kinds("city_income_rent_scatter.csv"),
            [Scatter, Bar, HorizontalBar, Lollipop]
        );
        assert_eq!(
            kinds("country_bubble.csv"),
            [Bubble, Scatter, Bar, HorizontalBar, Lollipop]
        );
        let style = theme("classic").unwrap();
        for name in ["city_income_rent_scatter.csv", "country_bubble.csv"] {
            let t = fixture(name);
            assert!(is_scatter_style(&t), "{name}");
            for k in [Bar, HorizontalBar, Lollipop] {
                let p = panel(&t, k, &style).unwrap();
                assert_eq!(p.series, [numeric_series(&t)[0]], "{name} {k:?}");
            }
        }
    }

    #[test]
    fn rates_anomalies_and_means_are_not_stacked() {
        for name in [
            "exchange_rates_decimals.csv",
            "temperature_anomaly.csv",
            "air_quality_columns.json",
            "social_media_long.csv",
            "gdp_growth_g7.csv",
        ] {
            let k = kinds(name);
            assert!(
                !k.contains(&StackedBar) && !k.contains(&StackedArea),
                "{name}: {k:?}"
            );
        }
        // Each rate has its own unit (US$ per euro, US$ per pound, yen per
        // US$): no two share an axis, whatever their magnitudes.
        let mut t = fixture("exchange_rates_decimals.csv");
        assert!(!kinds("exchange_rates_decimals.csv").contains(&GroupedBar));
        let line = panel(&t, Line, &theme("classic").unwrap()).unwrap();
        assert_eq!(line.series, ["EUR/USD"]);
        // Stated as one unit, the euro and pound rates share the axis and
        // the yen rate, two orders of magnitude above, still does not.
        t.meta.units.clear();
        t.meta.unit = Some("exchange rate".into());
        let line = panel(&t, Line, &theme("classic").unwrap()).unwrap();
        assert_eq!(line.series, ["EUR/USD", "GBP/USD"]);
        // Nothing stated: columns are not assumed to share a unit.
        t.meta.unit = None;
        let line = panel(&t, Line, &theme("classic").unwrap()).unwrap();
        assert_eq!(line.series, ["EUR/USD"]);
    }

    fn table_from(csv: &str, sidecar: Option<&str>) -> Table {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        std::fs::write(&path, csv).unwrap();
        if let Some(meta) = sidecar {
            std::fs::write(dir.path().join("t.meta.json"), meta).unwrap();
        }
        crate::table::load_table(&path).unwrap()
    }

    const AIR: &str = "Day,Ozone,Solar,Wind,Temp\n1,41,190,7.4,67\n2,36,118,8,72\n3,12,149,12.6,74\n4,18,313,11.5,62\n";

    #[test]
    fn columns_without_a_stated_unit_never_share_an_axis() {
        // ppb, Langleys, mph and °F: nothing says they are one unit.
        let t = table_from(AIR, None);
        assert!(!kinds_of(&t).contains(&GroupedBar));
        let line = panel(&t, Line, &theme("classic").unwrap()).unwrap();
        assert_eq!(line.series, ["Ozone"]);
        // Units per series from the sidecar: still one per axis.
        let t = table_from(
            AIR,
            Some(r#"{"unit": {"Ozone": "ppb", "Solar": "Langleys", "Wind": "mph", "Temp": "°F"}}"#),
        );
        assert_eq!(
            panel(&t, Line, &theme("classic").unwrap()).unwrap().series,
            ["Ozone"]
        );
        // A long table's series measure one thing: they share the axis.
        let t = table_from(
            "city,month,rain\nOslo,2020-01,5\nOslo,2020-02,7\nRome,2020-01,9\nRome,2020-02,3\n",
            None,
        );
        assert_eq!(t.meta.measure.as_deref(), Some("rain"));
        assert_eq!(
            panel(&t, Line, &theme("classic").unwrap()).unwrap().series,
            ["Oslo", "Rome"]
        );
    }

    fn kinds_of(t: &Table) -> Vec<ChartKind> {
        suitable_kinds(t)
    }

    #[test]
    fn stacking_needs_additive_complete_series() {
        let csv = "Year,Coal,Gas\n2020,5,3\n2021,6,2\n2022,7,4\n";
        let stacked = |k: &[ChartKind]| k.contains(&StackedBar) || k.contains(&StackedArea);
        assert!(stacked(&kinds_of(&table_from(
            csv,
            Some(r#"{"unit": "TWh"}"#)
        ))));
        // The sidecar says the series do not add up.
        let t = table_from(csv, Some(r#"{"unit": "TWh", "additive": false}"#));
        assert!(!stacked(&kinds_of(&t)));
        // Prices, wages and rates per person do not add up.
        for meta in [
            r#"{"unit": "shillings", "title": "Wheat price and weekly wages"}"#,
            r#"{"unit": "births per woman"}"#,
        ] {
            assert!(!stacked(&kinds_of(&table_from(csv, Some(meta)))), "{meta}");
        }
        // A missing month would be drawn as zero inside the stack.
        let gap = "Month,Coal,Gas\n2020-01,5,3\n2020-02,,2\n2020-03,7,4\n";
        let t = table_from(gap, Some(r#"{"unit": "TWh"}"#));
        assert!(!stacked(&kinds_of(&t)));
        assert!(kinds_of(&t).contains(&Line));
    }

    #[test]
    fn shares_add_up_to_exactly_a_hundred_and_need_positive_totals() {
        let t = table_from(
            "Year,A,B,C\n2020,1,1,1\n2021,2,0,1\n2022,5,3,9\n",
            Some(r#"{"unit": "TWh", "subtitle": "Figures in TWh"}"#),
        );
        let shares = shares_table(&t, &["A", "B", "C"]).unwrap();
        for r in 0..3 {
            let row: Vec<f64> = ["A", "B", "C"]
                .iter()
                .map(|s| shares.value(s, r).unwrap())
                .collect();
            let tenths: i64 = row.iter().map(|v| (v * 10.0).round() as i64).sum();
            assert_eq!(tenths, 1000, "{row:?}");
        }
        // A third each: the first column takes the spare tenth.
        assert_eq!(shares.value("A", 0), Some(33.4));
        assert_eq!(shares.value("B", 1), Some(0.0));
        assert_eq!(shares.meta.subtitle, None);
        let style = theme("classic").unwrap();
        let p = panel(&t, PercentStackedBar, &style).unwrap();
        assert_eq!(p.y_label.as_deref(), Some(SHARE_AXIS_LABEL));
        assert!(suitable_kinds(&t).ends_with(&[PercentStackedBar]));
        // A zero total or a negative part has no shares.
        let zero = table_from("Year,A,B\n2020,0,0\n2021,1,2\n", Some(r#"{"unit": "TWh"}"#));
        assert!(shares_table(&zero, &["A", "B"]).is_none());
        assert!(panel(&zero, PercentStackedBar, &style).is_err());
        assert!(!suitable_kinds(&zero).contains(&PercentStackedBar));
        let negative = table_from(
            "Year,A,B\n2020,-1,3\n2021,1,2\n",
            Some(r#"{"unit": "TWh"}"#),
        );
        assert!(panel(&negative, PercentStackedBar, &style).is_err());
    }

    #[test]
    fn amounts_in_one_unit_are_stacked() {
        for name in [
            "energy_mix_stacked.csv",
            "renewables_stacked_area.csv",
            "cloud_revenue_billions.csv",
        ] {
            let k = kinds(name);
            assert!(k.contains(&StackedBar), "{name}: {k:?}");
            assert!(k.contains(&GroupedBar), "{name}: {k:?}");
        }
        // Shipments in 2021, 2022 and 2023 are one measure at three times,
        // not parts of one whole: side by side, never stacked.
        let k = kinds("smartphone_shipments_grouped.csv");
        assert!(k.contains(&GroupedBar), "{k:?}");
        assert!(!k.iter().any(|k| k.is_stacked()), "{k:?}");
    }

    #[test]
    fn places_rainfall_and_one_measure_over_years_are_not_stacked() {
        let style = theme("classic").unwrap();
        let rain = table_from(
            "Month,Seattle,New York\n2015-01,120.5,80.2\n2015-02,90.1,70.4\n2015-03,100.0,95.3\n",
            Some(r#"{"title": "Monthly precipitation", "unit": "mm"}"#),
        );
        assert!(!suitable_kinds(&rain).iter().any(|k| k.is_stacked()));
        let years = table_from(
            "Country,2006,2007\nSwitzerland,430,470\nAustria,330,380\nNorway,340,400\n",
            Some(r#"{"title": "GDP", "unit": "US$ billion"}"#),
        );
        assert!(!suitable_kinds(&years).iter().any(|k| k.is_stacked()));
        let parts = table_from(
            "Year,Coal,Wind\n2015,120.5,80.2\n2016,90.1,70.4\n2017,100.0,95.3\n",
            Some(r#"{"title": "Electricity generation", "unit": "TWh"}"#),
        );
        assert!(suitable_kinds(&parts).contains(&StackedBar));
        // Grouped bars of one drawn series are recorded as the bars they are.
        let one = table_from(
            "Region,Sales\nA,1\nB,2\nC,3\n",
            Some(r#"{"unit": "units"}"#),
        );
        assert_eq!(panel(&one, GroupedBar, &style).unwrap().kind, Bar);
        // A unit the name states is not printed twice.
        assert_eq!(with_unit("Yield (t/ha)", "t/ha"), "Yield (t/ha)");
        assert_eq!(with_unit("Yield", "t/ha"), "Yield (t/ha)");
    }

    #[test]
    fn non_additive_words_are_whole_words() {
        assert!(mentions_non_additive("Unemployment rate"));
        assert!(mentions_non_additive("GDP per capita (US$)"));
        assert!(mentions_non_additive("Median rent"));
        assert!(mentions_non_additive("Price index"));
        assert!(mentions_non_additive("Interest rates"));
        assert!(!mentions_non_additive("Electricity generation (TWh)"));
        assert!(!mentions_non_additive("Corporate revenue"));
        assert!(!mentions_non_additive("Meanwhile sales"));
        assert!(mentions_non_additive("births per woman"));
        assert!(mentions_non_additive("Deaths per 1,000 population"));
        assert!(!mentions_non_additive("US$ per month"));
        assert!(mentions_non_additive("Weekly wages"));
    }

    #[test]
    fn no_fixture_stacks_or_groups_unlike_series() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let (tables, errors) = crate::table::load_tables(&[dir], false);
        assert!(errors.is_empty(), "{errors:?}");
        for t in &tables {
            let series = numeric_series(t);
            for k in suitable_kinds(t) {
                if STACKED_OR_GROUPED.contains(&k) {
                    assert!(is_commensurable(t, &series), "{} {k:?}", t.id);
                    assert!(!is_scatter_style(t), "{} {k:?}", t.id);
                }
            }
        }
    }
}
