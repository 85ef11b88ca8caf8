//! Waterfall tables: a start value and signed steps that add up to an end
//! value, as profit bridges, budget walks and headcount movements are told.

use rand::RngExt;

use super::SynthRng;
use super::values::{Printed, number_column};
use crate::ir::{Column, ColumnType, Table, TableMeta};

/// A bridge: what the series measures, its start, its steps and the
/// range of a step relative to the start.
struct Bridge {
    title: &'static str,
    measure: &'static str,
    unit: &'static str,
    step_noun: &'static str,
    start: &'static str,
    /// Each step and whether it usually adds to the total.
    steps: &'static [(&'static str, bool)],
    start_lo: f64,
    start_hi: f64,
    decimals: u8,
}

const BRIDGES: &[Bridge] = &[
    Bridge {
        title: "Operating profit bridge, {y0} to {y1}",
        measure: "Change",
        unit: "US$ million",
        step_noun: "Driver",
        start: "Operating profit {y0}",
        steps: &[
            ("Price", true),
            ("Volume", true),
            ("Product mix", true),
            ("Raw materials", false),
            ("Energy costs", false),
            ("Wages", false),
            ("Currency", false),
            ("Other", true),
        ],
        start_lo: 80.0,
        start_hi: 900.0,
        decimals: 1,
    },
    Bridge {
        title: "City budget balance, {y1}",
        measure: "Amount",
        unit: "€ million",
        step_noun: "Item",
        start: "Reserves brought forward",
        steps: &[
            ("Property tax", true),
            ("Grants", true),
            ("Fees and charges", true),
            ("Staff costs", false),
            ("Transport", false),
            ("Social care", false),
            ("Debt interest", false),
            ("Capital works", false),
        ],
        start_lo: 20.0,
        start_hi: 240.0,
        decimals: 1,
    },
    Bridge {
        title: "Headcount movements, {y1}",
        measure: "Employees",
        unit: "employees",
        step_noun: "Movement",
        start: "Headcount 1 January",
        steps: &[
            ("New hires", true),
            ("Acquisitions", true),
            ("Resignations", false),
            ("Retirements", false),
            ("Redundancies", false),
            ("Transfers in", true),
            ("Transfers out", false),
        ],
        start_lo: 800.0,
        start_hi: 12000.0,
        decimals: 0,
    },
    Bridge {
        title: "Net cash flow by quarter, {y1}",
        measure: "Net cash flow",
        unit: "US$ million",
        step_noun: "Quarter",
        start: "Opening cash",
        steps: &[("Q1", true), ("Q2", false), ("Q3", true), ("Q4", false)],
        start_lo: 40.0,
        start_hi: 400.0,
        decimals: 1,
    },
];

/// Steps go their usual way (hires add, resignations subtract) with a
/// seeded exception; at least one rise and one fall are kept.
pub fn waterfall(rng: &mut SynthRng) -> Table {
    let b = &BRIDGES[rng.random_range(0..BRIDGES.len())];
    let y1: i32 = rng.random_range(2016..=2025);
    let y0 = y1 - 1;
    let fill = |s: &str| {
        s.replace("{y0}", &y0.to_string())
            .replace("{y1}", &y1.to_string())
    };
    let start = rng.random_range(b.start_lo..b.start_hi);
    let n = rng.random_range(3..=b.steps.len().min(7));
    // Keep the bridge's order: a seeded run of its steps.
    let first = rng.random_range(0..=b.steps.len() - n);
    let chosen = &b.steps[first..first + n];
    let mut values = vec![Some(start)];
    for (_, inflow) in chosen {
        let inflow = *inflow;
        let up = if rng.random_bool(0.15) {
            !inflow
        } else {
            inflow
        };
        let size = start * rng.random_range(0.02..0.18);
        values.push(Some(if up { size } else { -size }));
    }
    // Signed steps: flip the last one if every step went the same way.
    let steps: Vec<f64> = values[1..].iter().flatten().copied().collect();
    if steps.iter().all(|v| *v > 0.0) || steps.iter().all(|v| *v < 0.0) {
        if let Some(Some(v)) = values.last_mut() {
            *v = -*v;
        }
    }
    // A headcount, a reserve or a cash balance never runs below zero: a
    // fall that would take it there becomes a rise.
    let mut total = 0.0;
    for v in values.iter_mut().flatten() {
        if total + *v < 0.0 {
            *v = -*v;
        }
        total += *v;
    }
    let mut labels = vec![fill(b.start)];
    labels.extend(chosen.iter().map(|(s, _)| s.to_string()));
    let printed = Printed {
        decimals: b.decimals,
        prefix: None,
        suffix: None,
        thousands: b.decimals == 0,
    };
    let series_name = if b.measure.to_lowercase().contains(&b.unit.to_lowercase()) {
        b.measure.to_string()
    } else {
        format!("{} ({})", b.measure, b.unit)
    };
    let column = number_column(&series_name, &values, printed);
    Table {
        id: String::new(),
        source_path: None,
        meta: TableMeta {
            title: Some(fill(b.title)),
            x_label: Some(b.step_noun.to_string()),
            y_label: Some(series_name.clone()),
            unit: Some(b.unit.to_string()),
            source: Some("Synthesized (illustrative)".into()),
            additive: Some(true),
            ..TableMeta::default()
        },
        index: Column {
            name: b.step_noun.to_string(),
            ctype: ColumnType::Text,
            format: Default::default(),
            cells: labels.into_iter().map(crate::ir::Cell::Text).collect(),
        },
        series: vec![column],
    }
}
