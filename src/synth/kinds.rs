//! One generator per table shape.

use super::SynthKind;
use super::SynthRng;
use super::fit;
use super::measures::{
    CATEGORY_MEASURES, COMPOSITIONS, Fits, Measure, PAIRS, TREND_MEASURES, TrendMeasure,
};
use super::names::{self, Entity};
use super::values::{Printed, Trend, add_outlier, number_column, round_to, shares};
use crate::ir::{Cell, Column, ColumnType, NumberFormat, Table, TableMeta};
use crate::table::clean::capitalized;
use crate::table::format_value;
use fake::Fake;
use fake::faker::company::en::CompanyName;
use rand::RngExt;

pub fn generate(kind: SynthKind, rng: &mut SynthRng) -> Table {
    match kind {
        SynthKind::Categories => categories(rng, false),
        SynthKind::Ranking => categories(rng, true),
        SynthKind::Grouped => grouped(rng),
        SynthKind::Stacked => stacked(rng),
        SynthKind::Trend => trend(rng),
        SynthKind::Monthly => monthly(rng),
        SynthKind::Shares => pie(rng),
        SynthKind::Scatter => scatter(rng, false),
        SynthKind::Bubble => scatter(rng, true),
        SynthKind::Waterfall => super::waterfall::waterfall(rng),
        SynthKind::ErrorBar => super::error_bar::error_bar(rng),
        SynthKind::Samples => super::samples::samples(rng),
        SynthKind::Change => super::shape::change(rng),
        SynthKind::Pair => super::shape::pair(rng),
        SynthKind::Profile => super::shape::profile(rng),
        SynthKind::DualAxis => super::dual_axis::dual_axis(rng),
    }
}

pub(super) fn pick<'a, T>(rng: &mut SynthRng, items: &'a [T]) -> &'a T {
    &items[rng.random_range(0..items.len())]
}

use crate::spec::dates::MONTH_FULL as MONTH_NAMES;

/// A source line in the forms charts print, naming a fictional organisation
/// (never a real institution): many distinct answers, so "what is the
/// source?" cannot be answered from a prior. A year it names is never
/// before `latest`, the last year of the data: a source cannot report a
/// year that had not happened.
fn source(rng: &mut SynthRng, latest: Option<i32>) -> String {
    // Drawn from a copy, advanced exactly as the table's stream always was,
    // so every other value of a seeded table stays what it was.
    let mut own = rng.clone();
    own.random_range(0..u64::MAX);
    if rng.random_range(0..4) == 2 {
        let _: String = CompanyName().fake_with_rng(rng);
    }
    let rng = &mut own;
    let org: String = CompanyName().fake_with_rng(rng);
    let year = match latest {
        Some(last) => rng.random_range(last..=last + 1),
        None => rng.random_range(2012..=2025),
    };
    match rng.random_range(0..6) {
        0 => format!("{org} annual report {year}"),
        1 => format!("{org} market survey, {year}"),
        2 => format!("{org} internal data"),
        3 => format!("Illustrative data compiled by {org}"),
        4 => format!("{org} Research, {year} edition"),
        _ => format!(
            "Field survey by {org} ({} respondents)",
            rng.random_range(3..60) * 50
        ),
    }
}

pub(crate) fn with_unit(label: &str, unit: &str) -> String {
    let redundant = label.to_lowercase().contains(&unit.to_lowercase());
    if unit.is_empty() || redundant {
        label.to_string()
    } else {
        format!("{label} ({unit})")
    }
}

/// Metadata with a title most of the time (a chart without one is a case the
/// descriptive questions must handle) and a paragraph some of the time.
pub(super) fn meta(
    rng: &mut SynthRng,
    title: String,
    x_label: &str,
    y_label: String,
    unit: &str,
    paragraph: Option<String>,
    latest: Option<i32>,
) -> TableMeta {
    let has_title = rng.random_bool(0.9);
    let source = source(rng, latest);
    let keep_paragraph = rng.random_bool(0.4);
    let (subtitle, footnote) = furniture(rng, x_label, &y_label, unit);
    TableMeta {
        title: has_title.then_some(title),
        subtitle: subtitle.filter(|_| has_title),
        footnote,
        x_label: Some(x_label.to_string()),
        y_label: Some(y_label),
        unit: (!unit.is_empty()).then(|| unit.to_string()),
        source: Some(source),
        paragraph: paragraph.filter(|_| keep_paragraph),
        ..TableMeta::default()
    }
}

/// Notes as report charts print them: about how the figures were made,
/// never a number or a claim about the data. Notes true of only some data
/// ("Seasonally adjusted" under yearly figures, "current prices" under
/// counts) are left out: a table cannot say which apply.
const FOOTNOTES: [&str; 4] = [
    "Figures are rounded.",
    "Data for the latest period are provisional.",
    "Excludes incomplete reports.",
    "Preliminary figures, subject to revision.",
];

/// A subtitle under the title on about a third of tables, a note under the
/// chart on a quarter, drawn from a stream of their own (a jumped copy), so
/// every other value of a seeded table stays what it was.
fn furniture(
    rng: &SynthRng,
    x_label: &str,
    y_label: &str,
    unit: &str,
) -> (Option<String>, Option<String>) {
    let mut own = rng.clone();
    own.jump();
    // "by advertising spend", without the x unit a y label may share.
    let by = x_label.split(" (").next().unwrap_or(x_label).to_lowercase();
    // "Revenue (US$ million), in US$ million" would state the unit twice.
    let bare = y_label
        .strip_suffix(&format!(" ({unit})"))
        .unwrap_or(y_label);
    let states = |label: &str| label.to_lowercase().contains(&unit.to_lowercase());
    let subtitle = own.random_bool(0.35).then(|| match own.random_range(0..3) {
        0 if !unit.is_empty() && !states(bare) => format!("{bare}, in {unit}"),
        1 => format!("{y_label} by {by}"),
        _ if !unit.is_empty() => format!("Figures in {unit}"),
        _ => format!("{y_label} by {by}"),
    });
    let footnote = own
        .random_bool(0.25)
        .then(|| FOOTNOTES[own.random_range(0..FOOTNOTES.len())].to_string());
    (subtitle, footnote)
}

pub(super) fn text_column(name: &str, labels: &[String]) -> Column {
    Column {
        name: name.to_string(),
        ctype: ColumnType::Text,
        format: NumberFormat::default(),
        cells: labels.iter().map(|l| Cell::Text(l.clone())).collect(),
    }
}

fn year_column(years: &[i32]) -> Column {
    Column {
        name: "Year".to_string(),
        ctype: ColumnType::Year,
        format: NumberFormat::default(),
        cells: years.iter().map(|y| Cell::Year(*y)).collect(),
    }
}

fn fmt_of(printed: Printed) -> NumberFormat {
    NumberFormat {
        decimals: printed.decimals,
        prefix: printed.prefix.map(str::to_string),
        suffix: printed.suffix.map(str::to_string),
        thousands: printed.thousands,
    }
}

pub(super) fn measure_value(rng: &mut SynthRng, m: &Measure) -> f64 {
    rng.random_range(m.lo..m.hi)
}

/// A value of `m` for the category `label`: a real place's own figure
/// (a population, a climate), or one that fits its size or income.
pub(super) fn measure_value_for(rng: &mut SynthRng, m: &Measure, label: &str) -> f64 {
    match m.fits {
        Fits::Any => measure_value(rng, m),
        Fits::Own => fit::own_value(rng, m.name, label).unwrap_or_else(|| measure_value(rng, m)),
        fits => fit::sized_draw(rng, m.lo, m.hi, fit::position(m.entity, label, fits)),
    }
}

/// A value as a sentence states it, with its unit once: "4.5%", not
/// "4.5% %"; "$1,200.0 million", not "$1,200.0 US$ million".
pub(super) fn amount(value: f64, printed: Printed, unit: &str) -> String {
    let text = format_value(value, &fmt_of(printed));
    let carried = [printed.prefix, printed.suffix].contains(&Some(unit));
    let rest = match printed.prefix {
        Some(currency) if unit.contains(currency) => {
            unit.replacen("US$", "", 1).replacen(currency, "", 1)
        }
        _ => unit.to_string(),
    };
    let rest = rest.trim();
    if carried || rest.is_empty() {
        text
    } else {
        format!("{text} {rest}")
    }
}

/// The first value of a series, fitted to a real place's size or income.
fn trend_start(rng: &mut SynthRng, m: &TrendMeasure, label: &str) -> f64 {
    let position = fit::position(m.entity, label, m.fits);
    fit::sized_draw(rng, m.start_lo, m.start_hi, position)
}

/// Single series over categories; `ranking` gives many long labels, sorted.
fn categories(rng: &mut SynthRng, ranking: bool) -> Table {
    let m = if ranking {
        let long: Vec<&Measure> = CATEGORY_MEASURES
            .iter()
            .filter(|m| matches!(m.entity, Entity::Industry | Entity::Company))
            .collect();
        **pick(rng, &long)
    } else {
        *pick(rng, CATEGORY_MEASURES)
    };
    let n = if ranking {
        rng.random_range(10..=25)
    } else {
        rng.random_range(4..=10)
    };
    let year = rng.random_range(2015..=2024);
    let labels = names::distinct_in(rng, m.entity, n + 1, Some((year, year)));
    let (labels, unseen) = labels.split_at(n);
    let mut values: Vec<f64> = labels
        .iter()
        .map(|l| measure_value_for(rng, &m, l))
        .collect();
    // Spikes only where values cannot be negative (a 4× colder city is not
    // plausible) nor follow a place's size, and never past the scale.
    if m.lo >= 0.0 && m.fits == Fits::Any && rng.random_bool(0.2) {
        add_outlier(rng, &mut values);
    }
    for v in &mut values {
        *v = fit::within(*v, m.scale);
    }
    let mut rows: Vec<(String, f64)> = labels.iter().cloned().zip(values).collect();
    if ranking || rng.random_bool(0.3) {
        rows.sort_by(|a, b| b.1.total_cmp(&a.1));
    }
    let (labels, values): (Vec<String>, Vec<f64>) = rows.into_iter().unzip();
    let missing = (!ranking && n > 4 && rng.random_bool(0.1)).then(|| rng.random_range(0..n));
    let values: Vec<Option<f64>> = values
        .iter()
        .enumerate()
        .map(|(i, v)| (Some(i) != missing).then_some(*v))
        .collect();
    let column = number_column(m.name, &values, m.printed);
    let extra = round_to(measure_value_for(rng, &m, &unseen[0]), m.printed.decimals);
    let paragraph = format!(
        "A later estimate put the {} figure for {} at {}, a value not shown in the chart.",
        m.name.to_lowercase(),
        unseen[0],
        amount(extra, m.printed, m.unit)
    );
    let title = m.title.replace("{year}", &year.to_string());
    let meta = meta(
        rng,
        title,
        m.entity.label(),
        with_unit(m.name, m.unit),
        m.unit,
        Some(paragraph),
        Some(year),
    );
    Table {
        id: String::new(),
        source_path: None,
        meta,
        index: text_column(m.entity.label(), labels.as_slice()),
        series: vec![column],
    }
}

/// 2–4 series (consecutive years) over categories.
fn grouped(rng: &mut SynthRng) -> Table {
    let m = *pick(rng, CATEGORY_MEASURES);
    let n = rng.random_range(3..=8);
    let k = rng.random_range(2..=4);
    let first_year = rng.random_range(2012..=2024 - k);
    let labels = names::distinct_in(rng, m.entity, n, Some((first_year, first_year + k - 1)));
    // Each category moves from year to year at most as its measure can.
    let rows: Vec<Vec<f64>> = labels
        .iter()
        .map(|l| {
            let b = measure_value_for(rng, &m, l);
            // `yearly` is in the unit for measures that cross zero.
            let crosses_zero = m.scale.0 < 0.0;
            let step = if crosses_zero {
                m.yearly
            } else {
                b.abs() * m.yearly
            };
            let mut v: Vec<f64> = (0..k)
                .scan(b, |level, _| {
                    let now = *level;
                    *level += rng.random_range(-0.6..1.0) * step;
                    Some(now)
                })
                .collect();
            fit::bounded_steps(&mut v, m.yearly, m.scale);
            v
        })
        .collect();
    let series: Vec<Column> = (0..k)
        .map(|s| {
            let values: Vec<Option<f64>> = rows.iter().map(|r| Some(r[s as usize])).collect();
            number_column(&(first_year + s).to_string(), &values, m.printed)
        })
        .collect();
    let last = first_year + k - 1;
    let title = format!(
        "{} by {}, {first_year}–{last}",
        m.name,
        m.entity.label().to_lowercase()
    );
    let paragraph = format!(
        "Figures for {} are expected to be published in {}.",
        last + 1,
        pick(rng, &MONTH_NAMES)
    );
    let meta = meta(
        rng,
        title,
        m.entity.label(),
        with_unit(m.name, m.unit),
        m.unit,
        Some(paragraph),
        Some(last),
    );
    Table {
        id: String::new(),
        source_path: None,
        meta,
        index: text_column(m.entity.label(), &labels),
        series,
    }
}

/// Parts of a whole (2–5 parts) over countries or years.
fn stacked(rng: &mut SynthRng) -> Table {
    let c = pick(rng, COMPOSITIONS);
    let n_parts = rng.random_range(2..=5);
    let parts = whole_of_parts(rng, c.parts, n_parts);
    let by_year = rng.random_bool(0.4);
    let n = rng.random_range(3..=8);
    let first_year = rng.random_range(2010..=2024 - n as i32 + 1);
    let years: Vec<i32> = (0..n as i32).map(|i| first_year + i).collect();
    let labels = names::distinct(rng, Entity::Country, n);
    // People and offences are counted whole; amounts may carry a decimal.
    let counted = ["people", "respondents", "offences"].contains(&c.unit);
    let decimals = rng.random_range(0..=1);
    let printed = Printed {
        decimals: if counted { 0 } else { decimals },
        prefix: None,
        suffix: None,
        thousands: true,
    };
    let mut columns: Vec<Vec<Option<f64>>> = vec![Vec::with_capacity(n); parts.len()];
    // Over years, one place's total and mix drift a little from year to
    // year; across countries each has its own.
    let mut total = 0.0;
    let mut split: Vec<f64> = Vec::new();
    for (i, label) in labels.iter().enumerate() {
        if by_year && i > 0 {
            total *= 1.0 + rng.random_range(-0.05..0.08);
            for s in &mut split {
                *s *= 1.0 + rng.random_range(-0.1..0.1);
            }
            let sum: f64 = split.iter().sum();
            split.iter_mut().for_each(|s| *s *= 100.0 / sum);
        } else {
            // A country's total fits its size.
            let size = (c.sized && !by_year)
                .then(|| fit::size_position(Entity::Country, label))
                .flatten();
            total = fit::sized_draw(rng, c.total_lo, c.total_hi, size);
            split = shares(rng, parts.len(), 1, false);
        }
        for (col, share) in columns.iter_mut().zip(&split) {
            col.push(Some(total * share / 100.0));
        }
    }
    let series = parts
        .iter()
        .zip(&columns)
        .map(|(p, v)| number_column(p, v, printed))
        .collect();
    let (index, x_label, title, latest) = if by_year {
        (
            year_column(&years),
            "Year",
            format!("{}, {first_year}–{}", c.title, years[n - 1]),
            years[n - 1],
        )
    } else {
        let year = rng.random_range(2015..=2024);
        (
            text_column("Country", &labels),
            "Country",
            format!("{} in selected countries, {year}", c.title),
            year,
        )
    };
    let paragraph = format!(
        "The {} category was not broken down further in the source.",
        parts[parts.len() - 1].to_lowercase()
    );
    let meta = meta(
        rng,
        title,
        x_label,
        capitalized(c.unit),
        c.unit,
        Some(paragraph),
        Some(latest),
    );
    Table {
        id: String::new(),
        source_path: None,
        meta,
        index,
        series,
    }
}

/// `n` parts that make up the whole: some named parts and "Other" for the
/// rest, or every bin of a range (age groups), never a few chosen parts
/// drawn as if they were all.
fn whole_of_parts(rng: &mut SynthRng, list: &[&str], n: usize) -> Vec<String> {
    const REST: &str = "Other";
    let bins = list
        .iter()
        .all(|p| p.starts_with(|c: char| c.is_ascii_digit()) || p.ends_with("and over"));
    if bins || n >= list.len() {
        return list.iter().map(|p| p.to_string()).collect();
    }
    let named: Vec<&str> = list.iter().copied().filter(|p| *p != REST).collect();
    let mut parts = names::from_list(rng, &named, n.saturating_sub(1).max(1));
    parts.push(REST.to_string());
    parts
}

/// 1–4 series over 8–16 years; some pairs cross, some do not.
fn trend(rng: &mut SynthRng) -> Table {
    let m = pick(rng, TREND_MEASURES);
    let steps = rng.random_range(8..=16);
    let first = rng.random_range(1995..=2024 - steps as i32 + 1);
    let years: Vec<i32> = (0..steps as i32).map(|i| first + i).collect();
    let k = rng.random_range(1..=4);
    let labels = names::distinct_in(rng, m.entity, k, Some((first, years[steps - 1])));
    let series: Vec<Column> = labels
        .iter()
        .map(|label| {
            let start = trend_start(rng, m, label);
            let growth = rng.random_range(m.growth_lo..=m.growth_hi);
            let t = Trend {
                start,
                growth: fit::growth_within(growth, start, steps, 1.0 + 2.0 * m.noise, m.scale),
                seasonal: 0.0,
                noise: m.noise,
                drift: m.drift,
            };
            let mut v = t.values(rng, steps, 0.0);
            if m.drift == 0.0 && rng.random_bool(0.15) {
                add_outlier(rng, &mut v);
            }
            // A spike stays a jump the measure can make in a year.
            fit::bounded_steps(&mut v, m.yearly, m.scale);
            let missing = rng.random_bool(0.1).then(|| rng.random_range(1..steps));
            let values: Vec<Option<f64>> = v
                .iter()
                .enumerate()
                .map(|(i, x)| (Some(i) != missing).then_some(*x))
                .collect();
            number_column(label, &values, m.printed)
        })
        .collect();
    let last = years[steps - 1];
    let title = if k == 1 {
        let of = if matches!(m.entity, Entity::Country | Entity::City) {
            "in"
        } else {
            "of"
        };
        format!("{} {of} {}, {first}–{last}", m.title, labels[0])
    } else {
        format!("{}, {first}–{last}", m.title)
    };
    let later = fit::within(
        series[0].cells[steps - 1].as_f64().unwrap_or(m.start_hi) * rng.random_range(1.02..1.2),
        m.scale,
    );
    let paragraph = format!(
        "In {} the figure for {} reached {} according to a later estimate.",
        last + 1,
        labels[0],
        format_value(round_to(later, m.printed.decimals), &series[0].format)
    );
    let mut meta = meta(
        rng,
        title,
        "Year",
        with_unit(m.name, m.unit),
        m.unit,
        Some(paragraph),
        Some(last),
    );
    // A few chosen places or firms are no whole: their sum is nobody's total.
    meta.additive = Some(false);
    Table {
        id: String::new(),
        source_path: None,
        meta,
        index: year_column(&years),
        series,
    }
}

/// 1–3 series over 12–24 months with a seasonal cycle.
fn monthly(rng: &mut SynthRng) -> Table {
    // Drifting measures (temperature anomalies) are annual by definition.
    let monthly: Vec<_> = TREND_MEASURES.iter().filter(|m| m.drift == 0.0).collect();
    let m = *pick(rng, &monthly);
    let steps = rng.random_range(12..=24);
    let year = rng.random_range(2015..=2023);
    let start_month = rng.random_range(1..=12);
    let dates: Vec<String> = (0..steps)
        .map(|i| {
            let m0 = start_month - 1 + i;
            format!("{:04}-{:02}", year + (m0 / 12) as i32, m0 % 12 + 1)
        })
        .collect();
    let k = rng.random_range(1..=3);
    let last_year = year + ((start_month - 1 + steps - 1) / 12) as i32;
    let labels = names::distinct_in(rng, m.entity, k, Some((year, last_year)));
    let seasonal = rng.random_range(0.08..0.35);
    let series: Vec<Column> = labels
        .iter()
        .map(|label| {
            let per_month = if m.flow { 12.0 } else { 1.0 };
            // A month's figure still prints with a few significant digits.
            let smallest = 10.0 * 10f64.powi(-i32::from(m.printed.decimals));
            let start = (trend_start(rng, m, label) / per_month).max(smallest);
            let growth = rng.random_range(m.growth_lo..=m.growth_hi) / 12.0;
            let headroom = (1.0 + seasonal) * (1.0 + m.noise);
            let t = Trend {
                start,
                growth: fit::growth_within(growth, start, steps, headroom, m.scale),
                seasonal,
                noise: m.noise / 2.0,
                drift: m.drift / 12.0,
            };
            let mut v = t.values(rng, steps, start_month as f64 - 4.0);
            fit::bounded_steps(&mut v, m.yearly, m.scale);
            let v: Vec<Option<f64>> = v.into_iter().map(Some).collect();
            number_column(label, &v, m.printed)
        })
        .collect();
    let end = start_month - 1 + steps - 1;
    let title = format!(
        "Monthly {}, {} {year} to {} {}",
        m.name.to_lowercase(),
        MONTH_NAMES[start_month - 1],
        MONTH_NAMES[end % 12],
        year + (end / 12) as i32
    );
    let next = end + 1;
    let later = fit::within(
        series[0].cells[steps - 1].as_f64().unwrap_or(m.start_hi) * rng.random_range(0.9..1.1),
        m.scale,
    );
    let paragraph = format!(
        "The figure for {} in {} {} was {} according to a first estimate.",
        labels[0],
        MONTH_NAMES[next % 12],
        year + (next / 12) as i32,
        format_value(round_to(later, m.printed.decimals), &series[0].format)
    );
    let mut meta = meta(
        rng,
        title,
        "Month",
        with_unit(m.name, m.unit),
        m.unit,
        Some(paragraph),
        Some(year + (end / 12) as i32),
    );
    meta.additive = Some(false);
    Table {
        id: String::new(),
        source_path: None,
        meta,
        index: Column {
            name: "Month".to_string(),
            ctype: ColumnType::Date,
            format: NumberFormat::default(),
            cells: dates.into_iter().map(Cell::Date).collect(),
        },
        series,
    }
}

/// 3–8 shares of a whole that print to exactly 100.
fn pie(rng: &mut SynthRng) -> Table {
    let year = rng.random_range(2015..=2024);
    let use_companies = rng.random_bool(0.4);
    let (part_name, labels, title) = if use_companies {
        let n = rng.random_range(3..=7);
        let mut labels = names::distinct_in(rng, Entity::Company, n, Some((year, year)));
        labels.push("Others".to_string());
        (
            "Company",
            labels,
            format!("Market share by company, {year}"),
        )
    } else {
        let c = pick(rng, COMPOSITIONS);
        let n_parts = rng.random_range(3..=c.parts.len());
        let labels = names::from_list(rng, c.parts, n_parts);
        (c.part, labels, format!("{}, {year}", c.title))
    };
    let decimals = rng.random_range(0..=1);
    let values: Vec<Option<f64>> = shares(rng, labels.len(), decimals, use_companies)
        .into_iter()
        .map(Some)
        .collect();
    let printed = Printed {
        decimals,
        prefix: None,
        suffix: rng.random_bool(0.6).then_some("%"),
        thousands: false,
    };
    let column = number_column("Share", &values, printed);
    let respondents: u32 = rng.random_range(500..5000);
    let paragraph = format!(
        "The figures are based on {} responses collected in {}.",
        format_value(
            f64::from(respondents),
            &NumberFormat {
                thousands: true,
                ..Default::default()
            }
        ),
        year + 1
    );
    let meta = meta(
        rng,
        title,
        part_name,
        "Share (%)".to_string(),
        "%",
        Some(paragraph),
        Some(year),
    );
    Table {
        id: String::new(),
        source_path: None,
        meta,
        index: text_column(part_name, &labels),
        series: vec![column],
    }
}

/// Labelled points with two correlated measures (and a size for bubbles).
fn scatter(rng: &mut SynthRng, bubble: bool) -> Table {
    let pair = pick(rng, PAIRS);
    let n = rng.random_range(8..=30);
    let year = rng.random_range(2015..=2024);
    let labels = names::distinct_in(rng, pair.entity, n, Some((year, year)));
    // A real country's or city's income places its x (GDP per person,
    // household income) among the others.
    let xs: Vec<f64> = labels
        .iter()
        .map(|l| {
            let income = fit::income_position(pair.entity, l);
            fit::sized_draw(rng, pair.x_lo, pair.x_hi, income)
        })
        .collect();
    let ys: Vec<Option<f64>> = xs
        .iter()
        .map(|x| {
            let y = pair.intercept + pair.slope * x + pair.noise * rng.random_range(-1.0..1.0);
            Some(fit::within(y, pair.y_scale))
        })
        .collect();
    let xs: Vec<Option<f64>> = xs.into_iter().map(Some).collect();
    let mut series = vec![
        number_column(pair.x, &xs, pair.x_printed),
        number_column(pair.y, &ys, pair.y_printed),
    ];
    if bubble {
        // A real place's population is its own.
        let sizes: Vec<Option<f64>> = labels
            .iter()
            .map(|l| {
                let own = super::real_names::population_millions(l);
                match (pair.size_is_population, own) {
                    (Some(per_million), Some(p)) => {
                        Some(p * per_million * rng.random_range(0.97..1.03))
                    }
                    _ => Some(rng.random_range(pair.size_lo..pair.size_hi)),
                }
            })
            .collect();
        series.push(number_column(pair.size, &sizes, pair.size_printed));
    }
    let title = format!("{}, {year}", pair.title);
    let paragraph = format!(
        "{} points were excluded because their data were incomplete.",
        rng.random_range(2..9)
    );
    let meta = meta(
        rng,
        title,
        pair.x,
        pair.y.to_string(),
        "",
        Some(paragraph),
        Some(year),
    );
    Table {
        id: String::new(),
        source_path: None,
        meta,
        index: text_column(pair.index, &labels),
        series,
    }
}
