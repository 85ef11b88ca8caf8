//! Dual-axis charts: which tables suit a bar + line chart with a second
//! value axis on the right.
//!
//! A table suits when it holds exactly two numeric series, both complete,
//! over 3–16 categories or ordered times, and the two cannot share one
//! axis (and no x-axis title names one of them, which makes the table a
//! scatter of one against the other): their units differ (revenue in $M beside a margin in %) or their
//! typical magnitudes differ by at least [`MIN_RATIO`]. On one axis the
//! smaller series would be a flat line along the bottom; a second axis
//! gives each its own scale.

use crate::ir::{ColumnType, Table};

pub const MIN_ROWS: usize = 3;
pub const MAX_ROWS: usize = 16;
/// Ratio of median magnitudes from which two series in one unit still get
/// an axis each.
pub const MIN_RATIO: f64 = 5.0;

/// The left (bars) and right (line) series, when the table suits.
pub fn dual_series(table: &Table) -> Option<(String, String)> {
    let numeric = super::numeric_series(table);
    if numeric.len() != 2 || !(MIN_ROWS..=MAX_ROWS).contains(&table.n_rows()) {
        return None;
    }
    if table.index.ctype != ColumnType::Text && !super::is_ordered_index(table) {
        return None;
    }
    // An x-axis title naming a series makes that series a measure on x:
    // the table is a scatter of one against the other.
    let x_is_series = table
        .meta
        .x_label
        .as_deref()
        .is_some_and(|l| numeric.iter().any(|s| l.trim().eq_ignore_ascii_case(s)));
    if x_is_series {
        return None;
    }
    let complete = numeric.iter().all(|s| {
        table.series(s).is_some_and(|c| {
            c.cells
                .iter()
                .all(|x| x.as_f64().is_some_and(f64::is_finite))
        })
    });
    if !complete {
        return None;
    }
    let differ =
        !super::same_unit(table, &numeric) || super::magnitude_ratio(table, &numeric) >= MIN_RATIO;
    differ.then(|| (numeric[0].to_string(), numeric[1].to_string()))
}

pub fn suits_dual_axis(table: &Table) -> bool {
    dual_series(table).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Cell, Column, NumberFormat, TableMeta};

    fn table(a: (&str, Option<&str>, &[f64]), b: (&str, Option<&str>, &[f64])) -> Table {
        let col = |(name, suffix, v): (&str, Option<&str>, &[f64])| Column {
            name: name.into(),
            ctype: ColumnType::Number,
            cells: v.iter().map(|x| Cell::Number(*x)).collect(),
            format: NumberFormat {
                suffix: suffix.map(str::to_string),
                ..NumberFormat::default()
            },
        };
        let n = a.2.len();
        Table {
            id: "t".into(),
            source_path: None,
            index: Column {
                name: "Region".into(),
                ctype: ColumnType::Text,
                cells: (0..n).map(|i| Cell::Text(format!("R{i}"))).collect(),
                format: NumberFormat::default(),
            },
            series: vec![col(a), col(b)],
            meta: TableMeta::default(),
        }
    }

    #[test]
    fn unlike_units_or_scales_suit_and_like_ones_do_not() {
        let rev = [120.0, 150.0, 90.0, 130.0];
        let margin = [12.5, 14.0, 9.5, 11.0];
        assert!(suits_dual_axis(&table(
            ("Revenue", None, &rev),
            ("Margin", Some("%"), &margin)
        )));
        // Same unit, one scale: one axis reads both.
        assert!(!suits_dual_axis(&table(
            ("North", None, &rev),
            ("South", None, &[100.0, 140.0, 95.0, 120.0])
        )));
        // Same unit, scales 10x apart.
        assert!(suits_dual_axis(&table(
            ("Visitors", None, &[12000.0, 15000.0, 9000.0, 13000.0]),
            ("Signups", None, &[310.0, 420.0, 250.0, 380.0])
        )));
        // Too few rows.
        assert!(!suits_dual_axis(&table(
            ("Revenue", None, &rev[..2]),
            ("Margin", Some("%"), &margin[..2])
        )));
    }
}
