//! Waterfall charts: which tables suit one and the table a waterfall panel
//! draws (the steps plus their running total).

use super::has_phrase;
use crate::ir::{Cell, Column, ColumnType, Table};

/// Name of the series a waterfall panel adds: the total after each step.
pub const RUNNING_TOTAL: &str = "Running total";

/// Fewest and most steps a waterfall draws: fewer is no bridge, more leaves
/// bars too thin to read their ends.
pub const MIN_STEPS: usize = 3;
pub const MAX_STEPS: usize = 16;

/// Whether the table is one signed, additive series over its rows: a start
/// value followed by increases and decreases (a profit bridge, a budget
/// walk, monthly net flows). Rates, indices, prices and percentages do not
/// add up step by step, so a running total of them would mean nothing.
pub fn suits_waterfall(table: &Table) -> bool {
    let numeric = super::numeric_series(table);
    let [name] = numeric.as_slice() else {
        return false;
    };
    let Some(col) = table.series(name) else {
        return false;
    };
    let n = table.n_rows();
    if !(MIN_STEPS..=MAX_STEPS).contains(&n) || table.meta.additive == Some(false) {
        return false;
    }
    let values: Option<Vec<f64>> = col
        .cells
        .iter()
        .map(|c| c.as_f64().filter(|v| v.is_finite()))
        .collect();
    let Some(values) = values else {
        return false;
    };
    // Signed steps: at least one rise and one fall after the start.
    let steps = &values[1..];
    if !steps.iter().any(|v| *v > 0.0) || !steps.iter().any(|v| *v < 0.0) {
        return false;
    }
    // A bridge starts from a level (last year's profit, opening cash) that
    // the steps then move; a first row no larger than the steps is one more
    // item of a list (net migration by city), whose running total means
    // nothing.
    let largest_step = steps.iter().map(|v| v.abs()).fold(0.0, f64::max);
    if values[0] <= largest_step || !starts_from_a_level(table) {
        return false;
    }
    let meta = &table.meta;
    let texts = [
        Some(name.to_string()),
        meta.unit.clone(),
        meta.unit_of(name).map(str::to_string),
        meta.measure.clone(),
        meta.title.clone(),
        meta.y_label.clone(),
    ];
    if meta.additive != Some(true)
        && texts
            .iter()
            .flatten()
            .any(|t| super::mentions_non_additive(t))
    {
        return false;
    }
    let percent = col.format.suffix.as_deref() == Some("%")
        || meta.unit_of(name).is_some_and(|u| u.trim() == "%");
    !percent
}

/// Words that name a starting level in a first row ("Opening cash",
/// "Reserves brought forward", "Headcount 1 January", "Budget").
const START_WORDS: [&str; 14] = [
    "start",
    "starting",
    "opening",
    "beginning",
    "initial",
    "brought forward",
    "carried forward",
    "baseline",
    "budget",
    "plan",
    "prior year",
    "previous year",
    "last year",
    "1 january",
];

/// Words of a title or index name that say the rows walk from one level to
/// another ("Cash: opening level and monthly flows").
const BRIDGE_WORDS: [&str; 9] = [
    "opening",
    "brought forward",
    "bridge",
    "walk",
    "waterfall",
    "reconciliation",
    "movement",
    "movements",
    "step",
];

fn has_year(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
        let digits = w.trim_start_matches("fy").trim_start_matches("FY");
        digits.len() == 4
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (1800..=2100).contains(&digits.parse::<u32>().unwrap_or(0))
    })
}

/// Whether the first row is a level the others move: its label names a
/// start ("Opening cash", "Operating profit 2023" among steps without a
/// year) or the title or index says the rows are a bridge. A list of signed
/// items (net migration by city, profit by company) has none, and its
/// running total would mean nothing.
fn starts_from_a_level(table: &Table) -> bool {
    let labels = table.category_labels();
    let Some((first, steps)) = labels.split_first() else {
        return false;
    };
    let dated_start = has_year(first) && !steps.iter().any(|l| has_year(l));
    let named = [
        table.meta.title.as_deref(),
        table.meta.x_label.as_deref(),
        Some(table.index.name.as_str()),
    ];
    has_phrase(first, &START_WORDS)
        || dated_start
        || named
            .into_iter()
            .flatten()
            .any(|t| has_phrase(t, &BRIDGE_WORDS))
}

/// The running totals of `values` (missing cells add nothing), rounded to
/// the series' decimals so that sums of printed numbers stay printed
/// numbers.
pub fn running_totals(values: &[Option<f64>], decimals: u8) -> Vec<f64> {
    let scale = 10f64.powi(i32::from(decimals.min(9)));
    let mut acc = 0.0;
    values
        .iter()
        .map(|v| {
            acc += v.unwrap_or(0.0);
            acc = (acc * scale).round() / scale;
            acc
        })
        .collect()
}

/// `table` with its first numeric series and a [`RUNNING_TOTAL`] series
/// after it (the total after each step, in the step's unit). None when the
/// table does not suit a waterfall.
pub fn waterfall_table(table: &Table) -> Option<Table> {
    if !suits_waterfall(table) {
        return None;
    }
    let name = super::numeric_series(table).first()?.to_string();
    let col = table.series(&name)?.clone();
    let totals = running_totals(&col.values(), col.format.decimals);
    let mut out = table.clone();
    let running = Column {
        name: RUNNING_TOTAL.into(),
        ctype: ColumnType::Number,
        format: col.format.clone(),
        cells: totals.into_iter().map(Cell::Number).collect(),
    };
    if let Some(u) = out.meta.units.get(&name).cloned() {
        out.meta.units.insert(RUNNING_TOTAL.into(), u);
    }
    out.series = vec![col, running];
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(csv: &str) -> Table {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        std::fs::write(&path, csv).unwrap();
        crate::table::load_table(&path).unwrap()
    }

    #[test]
    fn signed_additive_steps_suit_and_rates_do_not() {
        let t = table("Step,Change ($M)\nOpening,120\nSales,45\nCosts,-30\nTax,-12\n");
        assert!(suits_waterfall(&t));
        let w = waterfall_table(&t).unwrap();
        let totals: Vec<f64> = w
            .series(RUNNING_TOTAL)
            .unwrap()
            .values()
            .into_iter()
            .flatten()
            .collect();
        assert_eq!(totals, vec![120.0, 165.0, 135.0, 123.0]);
        // Only rises: no bridge.
        assert!(!suits_waterfall(&table("Step,Change\nA,1\nB,2\nC,3\n")));
        // A rate does not add up step by step.
        assert!(!suits_waterfall(&table(
            "Country,Growth rate\nA,1\nB,-2\nC,3\n"
        )));
        // A list of signed items whose first is no larger than the rest:
        // no level to start from.
        assert!(!suits_waterfall(&table(
            "City,Net migration\nA,12\nB,-30\nC,8\nD,-5\n"
        )));
        // A larger first item is still one item of a list, not a level.
        assert!(!suits_waterfall(&table(
            "City,Population change\nMadrid,120\nLyon,45\nGenoa,-30\nPorto,-12\n"
        )));
        assert!(suits_waterfall(&table(
            "Item,Amount\nBudget 2024,120\nSales,45\nCosts,-30\nTax,-12\n"
        )));
        assert!(suits_waterfall(&table(
            "Driver,Change\nProfit 2023,120\nPrice,45\nCosts,-30\nTax,-12\n"
        )));
        // Two series: not one series of steps.
        assert!(!suits_waterfall(&table("S,a,b\nA,1,2\nB,-2,3\nC,3,1\n")));
    }

    #[test]
    fn running_totals_stay_at_printed_precision() {
        let t = running_totals(&[Some(0.1), Some(0.2), Some(-0.3)], 1);
        assert_eq!(t, vec![0.1, 0.3, 0.0]);
    }
}
