//! Tables for the diverging bar, dumbbell/slope and radar kinds: a signed
//! net change, one measure in two years, scores on several attributes.

use super::SynthRng;
use super::fit;
use super::kinds::{measure_value_for, meta, pick, text_column, with_unit};
use super::measures::{CATEGORY_MEASURES, Measure};
use super::names::{self, Entity};
use super::values::{Printed, number_column, round_to};
use crate::ir::Table;
use rand::RngExt;

/// A signed change per category: (entity, series, title, unit, largest
/// fall, largest rise, printing).
type Change = (
    Entity,
    &'static str,
    &'static str,
    &'static str,
    f64,
    f64,
    Printed,
);

const fn p(decimals: u8, prefix: Option<&'static str>, suffix: Option<&'static str>) -> Printed {
    Printed {
        decimals,
        prefix,
        suffix,
        thousands: true,
    }
}

const CHANGES: &[Change] = &[
    (
        Entity::Country,
        "Change in employment",
        "Change in employment by country, {year}",
        "%",
        -6.0,
        8.0,
        p(1, None, Some("%")),
    ),
    (
        Entity::City,
        "Net migration",
        "Net migration by city, {year}",
        "thousand people",
        -40.0,
        60.0,
        p(1, None, None),
    ),
    (
        Entity::Company,
        "Change in net income",
        "Change in net income by company, {year}",
        "US$ million",
        -300.0,
        450.0,
        p(1, Some("$"), None),
    ),
    (
        Entity::Country,
        "Net approval",
        "Net approval of the government (agree minus disagree), {year}",
        "points",
        -45.0,
        40.0,
        p(0, None, None),
    ),
];

/// One signed series over 5–12 categories, with values on both sides of zero.
pub fn change(rng: &mut SynthRng) -> Table {
    let (entity, name, title, unit, lo, hi, printed) = *pick(rng, CHANGES);
    let n = rng.random_range(5..=12);
    let year = rng.random_range(2015..=2024);
    let labels = names::distinct_in(rng, entity, n, Some((year, year)));
    let mut values: Vec<f64> = (0..n)
        .map(|_| round_to(rng.random_range(lo..hi), printed.decimals))
        .collect();
    // Both sides of the zero line, and no bar too short to see.
    let floor = (hi - lo) * 0.02;
    for v in &mut values {
        if v.abs() < floor {
            *v = round_to(floor.copysign(*v + 1e-9) * 1.5, printed.decimals);
        }
    }
    // One side only: turn one value over.
    if values.iter().all(|v| *v > 0.0) || values.iter().all(|v| *v < 0.0) {
        values[rng.random_range(0..n)] *= -1.0;
    }
    let values: Vec<Option<f64>> = values.into_iter().map(Some).collect();
    let series = vec![number_column(name, &values, printed)];
    let meta = meta(
        rng,
        title.replace("{year}", &year.to_string()),
        entity.label(),
        with_unit(name, unit),
        unit,
        None,
        Some(year),
    );
    Table {
        id: String::new(),
        source_path: None,
        meta,
        index: text_column(entity.label(), &labels),
        series,
    }
}

/// One non-negative measure in two years (several apart) over 4–8 categories.
pub fn pair(rng: &mut SynthRng) -> Table {
    let usable: Vec<&Measure> = CATEGORY_MEASURES.iter().filter(|m| m.lo >= 0.0).collect();
    let m = **pick(rng, &usable);
    let n = rng.random_range(4..=8);
    let first = rng.random_range(2005..=2016);
    let last = first + rng.random_range(4..=8);
    let labels = names::distinct_in(rng, m.entity, n, Some((first, last)));
    let before: Vec<f64> = labels
        .iter()
        .map(|l| fit::within(measure_value_for(rng, &m, l), m.scale))
        .collect();
    // As far as the measure can move in the years between, inside its scale.
    let most = (1.0 + m.yearly).powi(last - first) - 1.0;
    let after: Vec<f64> = before
        .iter()
        .map(|b| {
            let change = rng.random_range(-0.35..0.45f64) * (most / 0.45).min(1.0);
            fit::within(b * (1.0 + change), m.scale)
        })
        .collect();
    let column = |year: i32, values: &[f64]| {
        let values: Vec<Option<f64>> = values.iter().copied().map(Some).collect();
        number_column(&year.to_string(), &values, m.printed)
    };
    let title = format!(
        "{} by {}, {first} and {last}",
        m.name,
        m.entity.label().to_lowercase()
    );
    let y_label = with_unit(m.name, m.unit);
    let meta = meta(
        rng,
        title,
        m.entity.label(),
        y_label,
        m.unit,
        None,
        Some(last),
    );
    Table {
        id: String::new(),
        source_path: None,
        meta,
        index: text_column(m.entity.label(), &labels),
        series: vec![column(first, &before), column(last, &after)],
    }
}

/// Attributes a reviewer scores.
const ATTRIBUTES: &[&str] = &[
    "Speed",
    "Battery life",
    "Camera",
    "Display",
    "Price",
    "Durability",
    "Software",
    "Design",
    "Sound",
    "Support",
];

/// Scores of 1–3 products on 5–8 attributes, on a 0–10 or 0–100 scale.
pub fn profile(rng: &mut SynthRng) -> Table {
    let n = rng.random_range(5..=8);
    let k = rng.random_range(1..=3);
    let attributes = names::from_list(rng, ATTRIBUTES, n);
    let products = names::distinct(rng, Entity::Product, k);
    let (top, printed) = if rng.random_bool(0.5) {
        (10.0, p(1, None, None))
    } else {
        (100.0, p(0, None, None))
    };
    let series = products
        .iter()
        .map(|name| {
            let values: Vec<Option<f64>> = (0..n)
                .map(|_| Some(rng.random_range(top * 0.2..top * 0.98)))
                .collect();
            number_column(name, &values, printed)
        })
        .collect();
    let scale = if top > 10.0 { "0–100" } else { "0–10" };
    let meta = meta(
        rng,
        format!("Reviewer scores by attribute ({scale})"),
        "Attribute",
        format!("Score ({scale})"),
        "points",
        None,
        None,
    );
    Table {
        id: String::new(),
        source_path: None,
        meta,
        index: text_column("Attribute", &attributes),
        series,
    }
}
