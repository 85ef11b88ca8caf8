//! Raw observations of a few groups (histogram, box, violin).

use super::SynthRng;
use super::kinds::{meta, pick, with_unit};
use super::values::round_to;
use crate::ir::{Cell, Column, ColumnType, NumberFormat, Table};
use rand::RngExt;

/// A measured quantity sampled per group: name, unit, decimals, typical
/// centre and spread, whether it is right-skewed (times, amounts), and
/// names of groups it is compared across.
struct SampleMeasure {
    measure: &'static str,
    unit: &'static str,
    decimals: u8,
    centre: f64,
    spread: f64,
    skewed: bool,
    group_word: &'static str,
    groups: &'static [&'static str],
}

const SAMPLE_MEASURES: [SampleMeasure; 6] = [
    SampleMeasure {
        measure: "Reaction time",
        unit: "ms",
        decimals: 0,
        centre: 420.0,
        spread: 70.0,
        skewed: true,
        group_word: "Condition",
        groups: &[
            "Control",
            "Caffeine",
            "Sleep-deprived",
            "Placebo",
            "Alcohol",
        ],
    },
    SampleMeasure {
        measure: "Length of stay",
        unit: "days",
        decimals: 1,
        centre: 5.5,
        spread: 1.8,
        skewed: true,
        group_word: "Ward",
        groups: &[
            "Cardiology",
            "Surgery",
            "Oncology",
            "Pediatrics",
            "Neurology",
        ],
    },
    SampleMeasure {
        measure: "Delivery time",
        unit: "min",
        decimals: 0,
        centre: 34.0,
        spread: 8.0,
        skewed: true,
        group_word: "City",
        groups: &["Lisbon", "Porto", "Braga", "Faro", "Coimbra"],
    },
    SampleMeasure {
        measure: "Tensile strength",
        unit: "MPa",
        decimals: 1,
        centre: 312.0,
        spread: 14.0,
        skewed: false,
        group_word: "Alloy",
        groups: &["A-110", "B-220", "C-350", "D-415"],
    },
    SampleMeasure {
        measure: "Systolic blood pressure",
        unit: "mmHg",
        decimals: 0,
        centre: 128.0,
        spread: 12.0,
        skewed: false,
        group_word: "Age group",
        groups: &["18-34", "35-49", "50-64", "65+"],
    },
    SampleMeasure {
        measure: "Page load time",
        unit: "s",
        decimals: 2,
        centre: 1.8,
        spread: 0.45,
        skewed: true,
        group_word: "Browser",
        groups: &["Firefox", "Chrome", "Safari", "Edge"],
    },
];

/// A standard normal draw (Box–Muller).
fn normal(rng: &mut SynthRng) -> f64 {
    let u1: f64 = rng.random_range(f64::EPSILON..1.0);
    let u2: f64 = rng.random_range(0.0..1.0);
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// Raw observations: 2–4 named groups of 30–200 observations each, one
/// column per group (ragged groups end in empty cells), with group shifts,
/// right skew for times and amounts, and a few outliers.
pub fn samples(rng: &mut SynthRng) -> Table {
    let m = pick(rng, &SAMPLE_MEASURES);
    let k = rng.random_range(2..=m.groups.len().min(4));
    let mut names: Vec<&str> = m.groups.to_vec();
    // A seeded choice of k groups, in the measure's order.
    while names.len() > k {
        let i = rng.random_range(0..names.len());
        names.remove(i);
    }
    let mut columns = Vec::new();
    let mut longest = 0;
    let mut groups: Vec<Vec<f64>> = Vec::new();
    for _ in &names {
        let n = rng.random_range(30..=200usize);
        let shift = rng.random_range(-1.2..1.2) * m.spread;
        let scale = rng.random_range(0.7..1.3) * m.spread;
        let mut v: Vec<f64> = (0..n)
            .map(|_| {
                let z = normal(rng);
                // Log-normal-like skew: long right tail, floor above zero.
                let x = if m.skewed {
                    (m.centre + shift) * (z * scale / m.centre).exp()
                } else {
                    m.centre + shift + z * scale
                };
                round_to(x.max(m.centre * 0.05), m.decimals)
            })
            .collect();
        // One to three outliers beyond the whiskers on about half the groups.
        if rng.random_bool(0.5) {
            for _ in 0..rng.random_range(1..=3) {
                let i = rng.random_range(0..n);
                let far = m.centre + shift + rng.random_range(3.5..5.0) * scale;
                v[i] = round_to(far, m.decimals);
            }
        }
        longest = longest.max(n);
        groups.push(v);
    }
    let format = NumberFormat {
        decimals: m.decimals,
        ..NumberFormat::default()
    };
    for (name, v) in names.iter().zip(&groups) {
        let mut cells: Vec<Cell> = v.iter().map(|x| Cell::Number(*x)).collect();
        cells.resize(longest, Cell::Missing);
        columns.push(Column {
            name: name.to_string(),
            ctype: ColumnType::Number,
            format: format.clone(),
            cells,
        });
    }
    let label = with_unit(m.measure, m.unit);
    let title = format!("{} by {}", m.measure, m.group_word.to_lowercase());
    let mut meta = meta(rng, title, m.group_word, label, m.unit, None, None);
    meta.measure = Some(m.measure.to_string());
    meta.samples = true;
    meta.additive = Some(false);
    Table {
        id: String::new(),
        source_path: None,
        meta,
        index: Column {
            name: "Observation".into(),
            ctype: ColumnType::Number,
            format: NumberFormat::default(),
            cells: (1..=longest).map(|i| Cell::Number(i as f64)).collect(),
        },
        series: columns,
    }
}
