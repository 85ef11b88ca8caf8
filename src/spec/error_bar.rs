//! Error-bar charts: which tables hold a value with its interval, and the
//! table an error-bar panel draws (value, lower and upper bound, and the
//! interval's width that "widest interval" questions ask about).
//!
//! Columns are recognised by the words of their headers (split at anything
//! that is not a letter or digit, case-insensitive):
//! - lower bound: `lower`, `low`, `lo`, `lcl`, `lb` (`ci_low`, `Lower 95% CI`);
//! - upper bound: `upper`, `high`, `hi`, `ucl`, `ub` (`ci_high`, `Upper`);
//! - a symmetric error (the interval is value ± error): `error`, `err`,
//!   `se`, `sem`, `sd`, `std`, `stderr`, `stdev`, `moe`, `ci` (`Margin of
//!   error` has `error`; a bare `margin` is a profit margin), or a header
//!   containing `±`;
//! - the value: the first other numeric column (`mean`, `value`, …).
//!
//! A table suits when it has the value and either both bounds or one error
//! column in the value's unit, 2–12 complete rows, every bound around its
//! value and every error non-negative.

use crate::ir::{Cell, Column, ColumnType, Table};

/// Names of the series an error-bar panel draws besides the value.
pub const LOWER: &str = "Lower bound";
pub const UPPER: &str = "Upper bound";
/// The interval's width (upper − lower), asked about but drawn only as the
/// distance between the bounds.
pub const WIDTH: &str = "Interval width";

pub const MAX_GROUPS: usize = 12;

fn words(name: &str) -> Vec<String> {
    name.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

fn has_word(name: &str, set: &[&str]) -> bool {
    words(name).iter().any(|w| set.contains(&w.as_str()))
}

fn is_lower(name: &str) -> bool {
    has_word(name, &["lower", "low", "lo", "lcl", "lb"])
}

fn is_upper(name: &str) -> bool {
    has_word(name, &["upper", "high", "hi", "ucl", "ub"])
}

fn is_error(name: &str) -> bool {
    name.contains('±')
        || has_word(
            name,
            &[
                "error", "err", "se", "sem", "sd", "std", "stderr", "stdev", "moe", "ci",
            ],
        )
}

/// The value, lower and upper bound of each row, when the table holds a
/// value with its interval.
pub struct Intervals {
    pub value: String,
    pub rows: Vec<(f64, f64, f64)>,
}

pub fn intervals(table: &Table) -> Option<Intervals> {
    if !groups_fit(table) {
        return None;
    }
    recognise(table).map(|(iv, _)| iv)
}

/// Whether an error-bar chart has room for the table's groups.
pub fn groups_fit(table: &Table) -> bool {
    (2..=MAX_GROUPS).contains(&table.n_rows())
}

/// A table of prices' open, high, low and close: its high and low are a
/// range of the day, each a level of its own, not an interval of the open.
fn is_price_range(table: &Table) -> bool {
    let names = super::numeric_series(table);
    names.iter().any(|s| has_word(s, &["open", "close"]))
}

/// The value with its interval and the names of the columns that hold the
/// interval (bounds or error), at any number of rows.
fn recognise(table: &Table) -> Option<(Intervals, Vec<String>)> {
    if is_price_range(table) {
        return None;
    }
    let numeric = super::numeric_series(table);
    let n = table.n_rows();
    let lower: Vec<&str> = numeric
        .iter()
        .copied()
        .filter(|s| is_lower(s) && !is_upper(s))
        .collect();
    let upper: Vec<&str> = numeric
        .iter()
        .copied()
        .filter(|s| is_upper(s) && !is_lower(s))
        .collect();
    let error: Vec<&str> = numeric
        .iter()
        .copied()
        .filter(|s| is_error(s) && !is_lower(s) && !is_upper(s))
        .collect();
    let value = numeric
        .iter()
        .copied()
        .find(|s| !is_lower(s) && !is_upper(s) && !is_error(s))?;
    let cells = |name: &str| -> Option<Vec<f64>> {
        table
            .series(name)?
            .cells
            .iter()
            .map(|c| c.as_f64().filter(|v| v.is_finite()))
            .collect()
    };
    let values = cells(value)?;
    // Bounds and errors are amounts of the value's own unit: a percentage
    // beside dollars is another measure, not its interval. A bound printed
    // without a unit is taken in the value's.
    let format = |name: &str| table.series(name).map(|c| c.format.clone());
    let value_format = format(value)?;
    let foreign_unit = lower.iter().chain(&upper).chain(&error).any(|b| {
        format(b).is_some_and(|f| {
            (f.prefix.is_some() || f.suffix.is_some())
                && (f.prefix != value_format.prefix || f.suffix != value_format.suffix)
        })
    });
    if foreign_unit {
        return None;
    }
    let (rows, columns): (Vec<(f64, f64, f64)>, Vec<&str>) =
        match (lower.as_slice(), upper.as_slice(), error.as_slice()) {
            ([lo], [hi], _) => {
                let (lo_v, hi_v) = (cells(lo)?, cells(hi)?);
                let rows = (0..n).map(|r| (values[r], lo_v[r], hi_v[r])).collect();
                (rows, vec![lo, hi])
            }
            ([], [], [e]) => {
                let e_v = cells(e)?;
                if e_v.iter().any(|x| *x < 0.0) {
                    return None;
                }
                let rows = (0..n)
                    .map(|r| (values[r], values[r] - e_v[r], values[r] + e_v[r]))
                    .collect();
                (rows, vec![e])
            }
            _ => return None,
        };
    let around = rows.iter().all(|(v, lo, hi)| lo <= v && v <= hi);
    // An interval of nothing but points is not an error-bar chart.
    let some_width = rows.iter().any(|(_, lo, hi)| hi > lo);
    (around && some_width).then(|| {
        let iv = Intervals {
            value: value.to_string(),
            rows,
        };
        (iv, columns.into_iter().map(str::to_string).collect())
    })
}

/// `table` without the columns that hold its value's interval (bounds or
/// a ± error), or None when it holds none. Such columns are drawn only as
/// error bars: as a series of their own (a second bar, a line on a second
/// axis) they would chart an uncertainty as if it were a measurement.
pub fn without_intervals(table: &Table) -> Option<Table> {
    let (_, columns) = recognise(table)?;
    let mut out = table.clone();
    out.series.retain(|c| !columns.contains(&c.name));
    for c in &columns {
        out.meta.units.remove(c);
    }
    Some(out)
}

pub fn suits_error_bar(table: &Table) -> bool {
    intervals(table).is_some()
}

/// `table` with the value column, its [`LOWER`] and [`UPPER`] bounds and
/// their [`WIDTH`], printed like the value (one more decimal where a ± error
/// has more).
pub fn error_bar_table(table: &Table) -> Option<Table> {
    let iv = intervals(table)?;
    let col = table.series(&iv.value)?.clone();
    let decimals = table
        .series
        .iter()
        .map(|c| c.format.decimals)
        .max()
        .unwrap_or(col.format.decimals)
        .min(6);
    let scale = 10f64.powi(i32::from(decimals));
    let round = |v: f64| (v * scale).round() / scale;
    let format = crate::ir::NumberFormat {
        decimals,
        ..col.format.clone()
    };
    let derived = |name: &str, values: Vec<f64>| Column {
        name: name.into(),
        ctype: ColumnType::Number,
        format: format.clone(),
        cells: values.into_iter().map(|v| Cell::Number(round(v))).collect(),
    };
    let lower: Vec<f64> = iv.rows.iter().map(|r| round(r.1)).collect();
    let upper: Vec<f64> = iv.rows.iter().map(|r| round(r.2)).collect();
    let width: Vec<f64> = lower.iter().zip(&upper).map(|(l, u)| u - l).collect();
    let mut out = table.clone();
    let unit = out.meta.units.get(&iv.value).cloned();
    out.series = vec![
        col,
        derived(LOWER, lower),
        derived(UPPER, upper),
        derived(WIDTH, width),
    ];
    if let Some(u) = unit {
        for s in [LOWER, UPPER, WIDTH] {
            out.meta.units.insert(s.into(), u.clone());
        }
    }
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
    fn bounds_or_a_symmetric_error_are_recognised() {
        let t = table("Group,Mean,ci_low,ci_high\nA,5.2,4.1,6.3\nB,6.0,5.5,6.4\n");
        let iv = intervals(&t).unwrap();
        assert_eq!(iv.value, "Mean");
        assert_eq!(iv.rows[1], (6.0, 5.5, 6.4));
        let t = table("Group,Mean score,SE\nA,5.2,0.4\nB,6.0,0.25\n");
        let w = error_bar_table(&t).unwrap();
        let up: Vec<f64> = w
            .series(UPPER)
            .unwrap()
            .values()
            .into_iter()
            .flatten()
            .collect();
        assert_eq!(up, vec![5.6, 6.25]);
        let width: Vec<f64> = w
            .series(WIDTH)
            .unwrap()
            .values()
            .into_iter()
            .flatten()
            .collect();
        assert_eq!(width, vec![0.8, 0.5]);
        // Bounds that do not hold their value, or no interval at all.
        assert!(!suits_error_bar(&table(
            "G,Mean,lower,upper\nA,5,6,7\nB,6,5,7\n"
        )));
        assert!(!suits_error_bar(&table("G,Mean,Count\nA,5,6\nB,6,5\n")));
        assert!(!suits_error_bar(&table("G,Mean,SD\nA,5,-1\nB,6,1\n")));
        // A profit margin in % beside revenue in $ is another measure, not
        // a margin of error; a margin of error in the value's unit is one.
        assert!(!suits_error_bar(&table(
            "Year,Revenue ($M),Operating margin\n2016,$131,19.9%\n2017,$369,4.9%\n"
        )));
        assert!(!suits_error_bar(&table(
            "Year,Revenue,Margin\n2016,131,19.9\n2017,369,4.9\n"
        )));
        assert!(suits_error_bar(&table(
            "Party,Support,Margin of error\nA,34%,3%\nB,29%,3%\n"
        )));
        assert!(suits_error_bar(&table(
            "Clinic,Mean cost,SE\nA,$120,4.5\nB,$135,6.0\n"
        )));
    }

    #[test]
    fn interval_columns_are_left_out_of_other_kinds_and_price_ranges_kept() {
        let t = table("Group,Mean,SD\nA,5.2,0.4\nB,6.0,0.25\nC,4.1,0.3\n");
        let plain = without_intervals(&t).unwrap();
        let names: Vec<&str> = plain.series.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["Mean"]);
        let kinds = crate::spec::suitable_kinds(&t);
        assert!(kinds.contains(&crate::ir::ChartKind::ErrorBar));
        assert!(!kinds.contains(&crate::ir::ChartKind::DualAxis));
        assert!(!kinds.contains(&crate::ir::ChartKind::GroupedBar));
        let style = crate::spec::theme("classic").unwrap();
        for kind in kinds
            .iter()
            .filter(|k| **k != crate::ir::ChartKind::ErrorBar)
        {
            let p = crate::spec::panel(&t, *kind, &style).unwrap();
            assert_eq!(p.series, ["Mean"], "{kind:?}");
        }
        let ohlc =
            table("Day,Open,High,Low,Close\n1,10,12,9,11\n2,11,13,10,12\n3,12,12.5,11,11.5\n");
        assert!(without_intervals(&ohlc).is_none());
    }
}
