//! Dual-axis tables: two measures of one thing in different units or
//! scales, as business and climate figures pair them (revenue beside its
//! margin, rainfall beside temperature).

use rand::RngExt;

use super::SynthRng;
use super::values::{Printed, number_column};
use crate::ir::{Cell, Column, ColumnType, Table, TableMeta};

/// How the rows are indexed.
#[derive(Clone, Copy)]
enum Rows {
    Years,
    Months,
    Named(&'static [&'static str]),
}

/// One measure: its column name, printed unit and range.
struct Measure {
    name: &'static str,
    prefix: Option<&'static str>,
    suffix: Option<&'static str>,
    lo: f64,
    hi: f64,
    decimals: u8,
}

struct Pair {
    title: &'static str,
    index: &'static str,
    rows: Rows,
    bars: Measure,
    line: Measure,
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

const PAIRS: &[Pair] = &[
    Pair {
        title: "Revenue and operating margin",
        index: "Year",
        rows: Rows::Years,
        bars: Measure {
            name: "Revenue ($M)",
            prefix: Some("$"),
            suffix: None,
            lo: 80.0,
            hi: 420.0,
            decimals: 0,
        },
        line: Measure {
            name: "Operating margin",
            prefix: None,
            suffix: Some("%"),
            lo: 4.0,
            hi: 22.0,
            decimals: 1,
        },
    },
    Pair {
        title: "Monthly rainfall and mean temperature",
        index: "Month",
        rows: Rows::Months,
        bars: Measure {
            name: "Rainfall (mm)",
            prefix: None,
            suffix: None,
            lo: 12.0,
            hi: 180.0,
            decimals: 0,
        },
        line: Measure {
            name: "Temperature (°C)",
            prefix: None,
            suffix: None,
            lo: 2.0,
            hi: 27.0,
            decimals: 1,
        },
    },
    Pair {
        title: "Visitors and conversion rate by channel",
        index: "Channel",
        rows: Rows::Named(&[
            "Organic search",
            "Paid search",
            "Email",
            "Social",
            "Referral",
            "Direct",
            "Display",
        ]),
        bars: Measure {
            name: "Visitors",
            prefix: None,
            suffix: None,
            lo: 4000.0,
            hi: 52000.0,
            decimals: 0,
        },
        line: Measure {
            name: "Conversion rate",
            prefix: None,
            suffix: Some("%"),
            lo: 0.8,
            hi: 6.5,
            decimals: 1,
        },
    },
    Pair {
        title: "Units sold and average price by store",
        index: "Store",
        rows: Rows::Named(&[
            "Downtown",
            "Airport",
            "Harbor",
            "Mall",
            "University",
            "Station",
        ]),
        bars: Measure {
            name: "Units sold",
            prefix: None,
            suffix: None,
            lo: 300.0,
            hi: 2400.0,
            decimals: 0,
        },
        line: Measure {
            name: "Average price",
            prefix: Some("$"),
            suffix: None,
            lo: 8.0,
            hi: 24.0,
            decimals: 2,
        },
    },
];

fn column(m: &Measure, values: &[f64]) -> Column {
    let printed = Printed {
        decimals: m.decimals,
        prefix: m.prefix,
        suffix: m.suffix,
        thousands: false,
    };
    let cells: Vec<Option<f64>> = values.iter().map(|v| Some(*v)).collect();
    number_column(m.name, &cells, printed)
}

/// Values of `m` over `n` rows, each in its range: years move by at most a
/// sixth from one to the next, months follow a seasonal cycle (a July
/// is not colder than its January by chance), named rows are independent.
fn over_rows(rng: &mut SynthRng, m: &Measure, rows: Rows, n: usize) -> Vec<f64> {
    let span = m.hi - m.lo;
    match rows {
        Rows::Years => {
            let mut level = rng.random_range(m.lo..m.hi);
            (0..n)
                .map(|_| {
                    let now = level;
                    level = (level * (1.0 + rng.random_range(-0.1..0.16))).clamp(m.lo, m.hi);
                    now
                })
                .collect()
        }
        Rows::Months => {
            let centre = rng.random_range(m.lo + span * 0.35..m.hi - span * 0.35);
            let amplitude = rng.random_range(0.15..0.3) * span;
            let peak = rng.random_range(5..=7) as f64;
            (0..n)
                .map(|i| {
                    let season = ((i as f64 - peak) / 12.0 * std::f64::consts::TAU).cos();
                    let noise = rng.random_range(-0.04..0.04) * span;
                    (centre + amplitude * season + noise).clamp(m.lo, m.hi)
                })
                .collect()
        }
        Rows::Named(_) => (0..n).map(|_| rng.random_range(m.lo..m.hi)).collect(),
    }
}

/// A pair of measures over 4–12 rows: the bar measure drawn from its range,
/// the line's from its own (so the two scales differ as the pair does).
pub fn dual_axis(rng: &mut SynthRng) -> Table {
    let p = &PAIRS[rng.random_range(0..PAIRS.len())];
    let (index_type, cells): (ColumnType, Vec<Cell>) = match p.rows {
        Rows::Years => {
            let n = rng.random_range(5..=10);
            let start = rng.random_range(2008..=2016);
            (
                ColumnType::Year,
                (0..n).map(|i| Cell::Year(start + i)).collect(),
            )
        }
        Rows::Months => (
            ColumnType::Text,
            MONTHS.iter().map(|m| Cell::Text((*m).into())).collect(),
        ),
        Rows::Named(names) => {
            let n = rng.random_range(4..=names.len());
            (
                ColumnType::Text,
                names[..n].iter().map(|m| Cell::Text((*m).into())).collect(),
            )
        }
    };
    let n = cells.len();
    let rows = p.rows;
    let draw = |m: &Measure, rng: &mut SynthRng| -> Vec<f64> {
        let scale = 10f64.powi(i32::from(m.decimals));
        over_rows(rng, m, rows, n)
            .into_iter()
            .map(|v| (v * scale).round() / scale)
            .collect()
    };
    let bars = draw(&p.bars, rng);
    let line = draw(&p.line, rng);
    Table {
        id: String::new(),
        source_path: None,
        meta: TableMeta {
            title: Some(p.title.to_string()),
            x_label: Some(p.index.to_string()),
            source: Some("Synthesized (illustrative)".into()),
            ..TableMeta::default()
        },
        index: Column {
            name: p.index.to_string(),
            ctype: index_type,
            format: Default::default(),
            cells,
        },
        series: vec![column(&p.bars, &bars), column(&p.line, &line)],
    }
}
