//! Building chart specs: themes, styles, kinds, layouts (issue 2).
//!
//! A spec is fully resolved data: the renderer never guesses. Themes are TOML
//! files under `templates/themes/` deserializing into [`Style`]; any style
//! field can be overridden by name with [`set_style`].

mod themes;

use serde_json::Value;

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

/// The chart kinds that suit a table, best first.
pub fn suitable_kinds(table: &Table) -> Vec<ChartKind> {
    use ChartKind::*;
    let series = numeric_series(table);
    if series.is_empty() || table.n_rows() == 0 {
        return Vec::new();
    }
    let non_negative = all_values(table, &series).all(|v| v >= 0.0);
    let labels = table.category_labels();
    let long_labels = labels.iter().any(|l| l.chars().count() > 14) || labels.len() > 12;
    let mut kinds = Vec::new();
    if is_shares(table) {
        kinds.extend([Pie, Donut, Bar, HorizontalBar]);
        return kinds;
    }
    let multi = series.len() >= 2;
    if is_ordered_index(table) {
        kinds.push(Line);
        if multi {
            kinds.push(GroupedBar);
            if non_negative {
                kinds.push(StackedArea);
                kinds.push(StackedBar);
            }
        } else {
            kinds.push(Bar);
            kinds.push(Area);
        }
    } else {
        if multi {
            kinds.push(GroupedBar);
            if non_negative {
                kinds.push(StackedBar);
            }
            kinds.push(HorizontalBar);
        } else if long_labels {
            kinds.extend([HorizontalBar, Bar]);
        } else {
            kinds.extend([Bar, HorizontalBar]);
        }
        if table.index.ctype == ColumnType::Text && multi && table.n_rows() >= 3 {
            kinds.push(Scatter);
            if series.len() >= 3
                && table
                    .series(series[2])
                    .is_some_and(|c| c.cells.iter().filter_map(|x| x.as_f64()).all(|v| v >= 0.0))
            {
                kinds.push(Bubble);
            }
        }
    }
    kinds
}

/// One panel drawing `table` as `kind`, with the columns that kind uses.
pub fn panel(table: &Table, kind: ChartKind, style: &Style) -> Result<PanelSpec, SpecError> {
    validate_style(style)?;
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
        ChartKind::Bar | ChartKind::HorizontalBar | ChartKind::Area => take(1),
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
            let s = take(style.palette.len().max(1).min(12));
            if all_values(table, &numeric).any(|v| v < 0.0) && kind == ChartKind::StackedArea {
                return Err(unsuitable("stacked areas need non-negative values".into()));
            }
            s
        }
        ChartKind::GroupedBar | ChartKind::Line => take(12),
    };
    let meta = &table.meta;
    let (x_label, y_label) = match kind {
        ChartKind::Pie | ChartKind::Donut => (None, None),
        ChartKind::Scatter | ChartKind::Bubble => {
            (Some(series[0].clone()), Some(series[1].clone()))
        }
        _ => {
            let x = meta
                .x_label
                .clone()
                .or_else(|| Some(table.index.name.clone()).filter(|n| !n.trim().is_empty()));
            let y = meta.y_label.clone().or_else(|| {
                if series.len() == 1 {
                    Some(series[0].clone())
                } else {
                    meta.unit.clone()
                }
            });
            if kind == ChartKind::HorizontalBar {
                (y, x)
            } else {
                (x, y)
            }
        }
    };
    Ok(PanelSpec {
        kind,
        table: table.clone(),
        series,
        title: meta.title.clone().filter(|t| !t.trim().is_empty()),
        x_label,
        y_label,
        style: style.clone(),
    })
}

/// A single chart, 800×600.
pub fn single(table: &Table, kind: ChartKind, style: &Style) -> Result<ChartSpec, SpecError> {
    let panel = panel(table, kind, style)?;
    Ok(ChartSpec {
        width: 800,
        height: 600,
        title: None,
        style: style.clone(),
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
    let (grid_rows, grid_cols, places): (u32, u32, &[(u32, u32, u32, u32)]) = match panels.len() {
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
        set_style(&mut s, "title_size", "24").unwrap();
        assert_eq!(s.title_size, 24.0);
        set_style(&mut s, "background", "#000000").unwrap();
        assert_eq!(s.background, "#000000");
        set_style(&mut s, "font_family", "DejaVu Serif").unwrap();
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
