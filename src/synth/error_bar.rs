//! Error-bar tables: a mean per group with its interval, as experiment
//! and survey figures report them (95% CI bounds, or ± SE / SD).

use rand::RngExt;

use super::SynthRng;
use super::values::{Printed, number_column};
use crate::ir::{Cell, Column, ColumnType, Table, TableMeta};

/// An experiment: what is measured, in what unit, over which groups.
struct Study {
    title: &'static str,
    measure: &'static str,
    unit: &'static str,
    group_noun: &'static str,
    groups: &'static [&'static str],
    lo: f64,
    hi: f64,
    decimals: u8,
}

const STUDIES: &[Study] = &[
    Study {
        title: "Reaction time by condition",
        measure: "Mean reaction time",
        unit: "ms",
        group_noun: "Condition",
        groups: &[
            "Control",
            "Caffeine",
            "Sleep deprived",
            "Alcohol",
            "Music",
            "Exercise",
        ],
        lo: 280.0,
        hi: 620.0,
        decimals: 0,
    },
    Study {
        title: "Wheat yield by fertilizer",
        measure: "Yield",
        unit: "t/ha",
        group_noun: "Fertilizer",
        groups: &[
            "None",
            "Nitrogen",
            "Phosphorus",
            "Potassium",
            "NPK blend",
            "Compost",
        ],
        lo: 2.5,
        hi: 7.5,
        decimals: 1,
    },
    Study {
        title: "Systolic blood pressure by treatment arm",
        measure: "Mean systolic pressure",
        unit: "mmHg",
        group_noun: "Treatment",
        groups: &[
            "Placebo",
            "Low dose",
            "Medium dose",
            "High dose",
            "Combination",
        ],
        lo: 118.0,
        hi: 152.0,
        decimals: 1,
    },
    Study {
        title: "Customer satisfaction by region",
        measure: "Satisfaction score",
        unit: "points",
        group_noun: "Region",
        groups: &["North", "South", "East", "West", "Central", "Overseas"],
        lo: 55.0,
        hi: 88.0,
        decimals: 1,
    },
];

/// Half of the tables give 95% CI bounds, the other half a ± SE or SD
/// column; every interval holds its mean.
pub fn error_bar(rng: &mut SynthRng) -> Table {
    let s = &STUDIES[rng.random_range(0..STUDIES.len())];
    let n = rng.random_range(3..=s.groups.len());
    let groups = &s.groups[..n];
    let printed = Printed {
        decimals: s.decimals,
        prefix: None,
        suffix: None,
        thousands: false,
    };
    let scale = 10f64.powi(i32::from(s.decimals));
    let round = |v: f64| (v * scale).round() / scale;
    let means: Vec<f64> = (0..n)
        .map(|_| round(rng.random_range(s.lo..s.hi)))
        .collect();
    // Errors of 2-9 % of the range, at least one printed step.
    let step = 1.0 / scale;
    let errs: Vec<f64> = (0..n)
        .map(|_| round(((s.hi - s.lo) * rng.random_range(0.02..0.09)).max(step)))
        .collect();
    let value_name = format!("{} ({})", s.measure, s.unit);
    let mut series = vec![number_column(
        &value_name,
        &means.iter().map(|v| Some(*v)).collect::<Vec<_>>(),
        printed,
    )];
    let note = if rng.random_bool(0.5) {
        let lo: Vec<Option<f64>> = means
            .iter()
            .zip(&errs)
            .map(|(m, e)| Some(round(m - e)))
            .collect();
        let hi: Vec<Option<f64>> = means
            .iter()
            .zip(&errs)
            .map(|(m, e)| Some(round(m + e)))
            .collect();
        series.push(number_column("ci_low", &lo, printed));
        series.push(number_column("ci_high", &hi, printed));
        "means with 95% CI"
    } else {
        let name = if rng.random_bool(0.5) { "SE" } else { "SD" };
        let e: Vec<Option<f64>> = errs.iter().map(|e| Some(*e)).collect();
        series.push(number_column(name, &e, printed));
        if name == "SE" {
            "mean ± SE"
        } else {
            "mean ± SD"
        }
    };
    Table {
        id: String::new(),
        source_path: None,
        meta: TableMeta {
            title: Some(format!("{} ({note})", s.title)),
            x_label: Some(s.group_noun.to_string()),
            y_label: Some(value_name.clone()),
            unit: Some(s.unit.to_string()),
            source: Some("Synthesized (illustrative)".into()),
            ..TableMeta::default()
        },
        index: Column {
            name: s.group_noun.to_string(),
            ctype: ColumnType::Text,
            format: Default::default(),
            cells: groups.iter().map(|g| Cell::Text(g.to_string())).collect(),
        },
        series,
    }
}
