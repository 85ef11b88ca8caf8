//! Summaries that make a big or raw table chartable, each stated in a caption:
//! several rows per category → their mean (or total), daily → monthly →
//! yearly, too many categories → the top ones or the latest ones, too many
//! series → the largest ones, years as columns → years as rows.

use super::infer::parse_year;
use super::{MAX_CATEGORIES, MAX_SERIES};
use crate::ir::decimal::round_f64;
use crate::ir::table::cell_label;
use crate::ir::{Cell, Column, ColumnType, NumberFormat, Table};
use std::collections::HashMap;

/// Categories kept when a table without an order has too many.
pub const TOP_CATEGORIES: usize = 20;
/// Series kept when a table has too many for one legend.
pub const TOP_SERIES: usize = 8;

/// How grouped values are summarized.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Summary {
    Mean,
    Total,
}

impl Summary {
    /// The summary of some values as a cell printed with `decimals`; none
    /// (or an overflow) is a missing cell.
    fn cell(self, values: &[f64], decimals: u8) -> Cell {
        if values.is_empty() {
            return Cell::Missing;
        }
        let total: f64 = values.iter().sum();
        let v = match self {
            Summary::Total => total,
            Summary::Mean => total / values.len() as f64,
        };
        if v.is_finite() {
            Cell::Number(round_f64(v, decimals))
        } else {
            Cell::Missing
        }
    }

    pub fn of(additive: Option<bool>) -> Summary {
        if additive == Some(true) {
            Summary::Total
        } else {
            Summary::Mean
        }
    }
}

/// Summarize rows sharing a key (as `key` maps each index cell) into one row
/// per key, in order of first appearance. Returns the table and the largest
/// number of rows in one group.
pub fn group_rows(table: &Table, summary: Summary, key: impl Fn(&Cell) -> Cell) -> (Table, usize) {
    let mut order: Vec<Cell> = Vec::new();
    let mut slot: HashMap<String, usize> = HashMap::new();
    let mut members: Vec<Vec<usize>> = Vec::new();
    for (r, cell) in table.index.cells.iter().enumerate() {
        if cell.is_missing() {
            continue;
        }
        let k = key(cell);
        let label = cell_label(&k);
        let g = *slot.entry(label).or_insert_with(|| {
            order.push(k.clone());
            members.push(Vec::new());
            order.len() - 1
        });
        members[g].push(r);
    }
    let largest = members.iter().map(Vec::len).max().unwrap_or(0);
    let series = table
        .series
        .iter()
        .map(|col| {
            let decimals = match summary {
                Summary::Mean if largest > 1 => (col.format.decimals + 1).min(3),
                _ => col.format.decimals,
            };
            let cells = members
                .iter()
                .map(|rows| {
                    let values: Vec<f64> = rows
                        .iter()
                        .filter_map(|&r| col.cells.get(r).and_then(Cell::as_f64))
                        .collect();
                    summary.cell(&values, decimals)
                })
                .collect();
            Column {
                name: col.name.clone(),
                ctype: ColumnType::Number,
                format: NumberFormat {
                    decimals,
                    ..col.format.clone()
                },
                cells,
            }
        })
        .collect();
    let ctype = match order.first() {
        Some(Cell::Year(_)) => ColumnType::Year,
        Some(Cell::Date(_)) => ColumnType::Date,
        Some(Cell::Number(_)) => ColumnType::Number,
        _ => ColumnType::Text,
    };
    (
        Table {
            index: Column {
                name: table.index.name.clone(),
                ctype,
                format: table.index.format.clone(),
                cells: order,
            },
            series,
            ..table.clone()
        },
        largest,
    )
}

fn summary_words(summary: Summary) -> (&'static str, &'static str) {
    match summary {
        Summary::Mean => ("mean", "means"),
        Summary::Total => ("total", "totals"),
    }
}

/// Caption of a table grouped by its index.
pub fn grouped_caption(summary: Summary, rows: usize, index: &str) -> String {
    let index = if index.trim().is_empty() {
        "label"
    } else {
        index.trim()
    };
    // `rows` counts the whole file: the groups share them.
    match summary {
        Summary::Mean => format!("means per {index} of {rows} rows"),
        Summary::Total => format!("totals per {index} of {rows} rows"),
    }
}

/// Rows in increasing time order (a time axis reads left to right).
pub fn sort_by_time(table: &mut Table) -> bool {
    if !matches!(
        table.index.ctype,
        ColumnType::Year | ColumnType::Date | ColumnType::Number
    ) {
        return false;
    }
    let order_of = |a: &Cell, b: &Cell| match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x.total_cmp(&y),
        _ => cell_label(a).cmp(&cell_label(b)),
    };
    let cells = &table.index.cells;
    if cells.windows(2).all(|w| order_of(&w[0], &w[1]).is_le()) {
        return false;
    }
    let mut order: Vec<usize> = (0..table.n_rows()).collect();
    order.sort_by(|&a, &b| order_of(&cells[a], &cells[b]));
    permute(table, &order);
    true
}

/// Whether the rows follow an order (time, numbers, quarters such as `1959 Q1`).
pub fn is_ordered(table: &Table) -> bool {
    match table.index.ctype {
        ColumnType::Year | ColumnType::Date | ColumnType::Number => true,
        _ => table.index.cells.iter().all(|c| match c {
            Cell::Text(t) => {
                let b = t.as_bytes();
                b.len() == 7
                    && b[..4].iter().all(u8::is_ascii_digit)
                    && &b[4..6] == b" Q"
                    && (b'1'..=b'4').contains(&b[6])
            }
            _ => false,
        }),
    }
}

/// Rows in the given order (a selection or a permutation).
pub fn reorder(table: &mut Table, order: &[usize]) {
    permute(table, order);
}

fn permute(table: &mut Table, order: &[usize]) {
    let pick = |cells: &[Cell]| -> Vec<Cell> {
        order
            .iter()
            .map(|&r| cells.get(r).cloned().unwrap_or(Cell::Missing))
            .collect()
    };
    table.index.cells = pick(&table.index.cells);
    for col in &mut table.series {
        col.cells = pick(&col.cells);
    }
}

/// Too many dates: daily values become monthly, monthly become yearly.
/// Returns the caption, or None when the index is not dates or fits.
pub fn coarsen_dates(table: &mut Table, summary: Summary) -> Option<String> {
    if table.index.ctype != ColumnType::Date || table.n_rows() <= MAX_CATEGORIES {
        return None;
    }
    let (_, plural) = summary_words(summary);
    // Dates written with a day may still be one per month (`1958-03-01`).
    let mut months = std::collections::HashSet::new();
    let daily = table.index.cells.iter().any(|c| match c {
        Cell::Date(d) if d.len() == 10 => !months.insert(d[..7].to_string()),
        _ => false,
    });
    let mut caption = None;
    let day_dates = table
        .index
        .cells
        .iter()
        .any(|c| matches!(c, Cell::Date(d) if d.len() == 10));
    if daily || day_dates {
        let (monthly, _) = group_rows(table, summary, |c| match c {
            Cell::Date(d) => Cell::Date(d.chars().take(7).collect()),
            other => other.clone(),
        });
        *table = monthly;
        if daily {
            caption = Some(format!("monthly {plural}"));
        }
    }
    if table.n_rows() > MAX_CATEGORIES {
        let (yearly, _) = group_rows(table, summary, |c| match c {
            Cell::Date(d) => d
                .get(..4)
                .and_then(parse_year)
                .map_or(Cell::Missing, Cell::Year),
            other => other.clone(),
        });
        *table = yearly;
        table.index.name = "Year".into();
        caption = Some(format!("yearly {plural}"));
    }
    caption
}

/// Too many ordered rows: keep the latest (times) or the first (row numbers).
pub fn keep_ordered(table: &mut Table) -> Option<String> {
    let n = table.n_rows();
    if n <= MAX_CATEGORIES {
        return None;
    }
    let time = matches!(table.index.ctype, ColumnType::Year | ColumnType::Date)
        || is_ordered(table) && table.index.ctype == ColumnType::Text;
    let order: Vec<usize> = if time {
        (n - MAX_CATEGORIES..n).collect()
    } else {
        (0..MAX_CATEGORIES).collect()
    };
    permute(table, &order);
    let unit = match table.index.ctype {
        ColumnType::Year => "years",
        ColumnType::Date => "dates",
        ColumnType::Text => "quarters",
        _ => "rows",
    };
    Some(if time {
        format!("the last {MAX_CATEGORIES} of {n} {unit}")
    } else {
        format!("the first {MAX_CATEGORIES} of {n} {unit}")
    })
}

/// Too many unordered categories: the largest by the first series, largest first.
pub fn keep_top_categories(table: &mut Table) -> Option<String> {
    let n = table.n_rows();
    if n <= MAX_CATEGORIES {
        return None;
    }
    let first = table.series.first()?;
    let mut order: Vec<usize> = (0..n).collect();
    let value = |r: usize| first.cells.get(r).and_then(Cell::as_f64);
    order.sort_by(|&a, &b| match (value(a), value(b)) {
        (Some(x), Some(y)) => y.total_cmp(&x),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.cmp(&b),
    });
    order.truncate(TOP_CATEGORIES);
    let by = first.name.clone();
    permute(table, &order);
    Some(format!("top {TOP_CATEGORIES} of {n} by {by}"))
}

/// Too many series: the ones with the largest typical magnitude, in table order.
pub fn keep_top_series(table: &mut Table) -> Option<String> {
    let n = table.series.len();
    if n <= MAX_SERIES {
        return None;
    }
    let mean_abs = |col: &Column| -> f64 {
        let v: Vec<f64> = col.cells.iter().filter_map(Cell::as_f64).collect();
        if v.is_empty() {
            0.0
        } else {
            v.iter().map(|x| x.abs()).sum::<f64>() / v.len() as f64
        }
    };
    let mut ranked: Vec<(usize, f64)> = table
        .series
        .iter()
        .enumerate()
        .map(|(i, c)| (i, mean_abs(c)))
        .collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut keep: Vec<usize> = ranked.iter().take(TOP_SERIES).map(|(i, _)| *i).collect();
    keep.sort_unstable();
    table.series = keep.iter().map(|&i| table.series[i].clone()).collect();
    Some(format!(
        "the {TOP_SERIES} of {n} series with the largest values"
    ))
}

/// Years as column headers (more of them than a legend holds): years become
/// the rows and the row labels the series. Columns that are not years are left out.
pub fn transpose_year_columns(table: &Table) -> Option<Table> {
    let years: Vec<(usize, i32)> = table
        .series
        .iter()
        .enumerate()
        .filter_map(|(i, c)| parse_year(&c.name).map(|y| (i, y)))
        .collect();
    if years.len() <= MAX_SERIES || years.len() * 5 < table.series.len() * 4 {
        return None;
    }
    let labels = table.category_labels();
    let mut format = table.series[years[0].0].format.clone();
    format.decimals = years
        .iter()
        .map(|&(i, _)| table.series[i].format.decimals)
        .max()
        .unwrap_or(0);
    let series = labels
        .iter()
        .enumerate()
        .map(|(r, label)| Column {
            name: label.clone(),
            ctype: ColumnType::Number,
            format: format.clone(),
            cells: years
                .iter()
                .map(|&(i, _)| {
                    table.series[i]
                        .cells
                        .get(r)
                        .filter(|c| c.as_f64().is_some())
                        .cloned()
                        .unwrap_or(Cell::Missing)
                })
                .collect(),
        })
        .filter(|c| c.cells.iter().any(|x| x.as_f64().is_some()))
        .collect();
    Some(Table {
        index: Column {
            name: "Year".into(),
            ctype: ColumnType::Year,
            format: NumberFormat::default(),
            cells: years.iter().map(|&(_, y)| Cell::Year(y)).collect(),
        },
        series,
        ..table.clone()
    })
}

/// Rows of a long table that repeat a (category, series) pair, summarized
/// to one row per pair in order of first appearance.
pub fn summarize_pairs(
    category: Column,
    series: Column,
    values: &[Cell],
    format: &NumberFormat,
    summary: Summary,
) -> (Column, Column, Vec<Cell>, NumberFormat) {
    let mut slot: HashMap<(String, String), usize> = HashMap::new();
    let mut firsts: Vec<usize> = Vec::new();
    let mut members: Vec<Vec<f64>> = Vec::new();
    for (r, (c, s)) in category.cells.iter().zip(&series.cells).enumerate() {
        let key = (cell_label(c), cell_label(s));
        let g = *slot.entry(key).or_insert_with(|| {
            firsts.push(r);
            members.push(Vec::new());
            firsts.len() - 1
        });
        if let Some(v) = values.get(r).and_then(Cell::as_f64) {
            members[g].push(v);
        }
    }
    let decimals = match summary {
        Summary::Mean => (format.decimals + 1).min(3),
        Summary::Total => format.decimals,
    };
    let summarized = members.iter().map(|v| summary.cell(v, decimals)).collect();
    let pick = |col: Column| Column {
        cells: firsts.iter().map(|&r| col.cells[r].clone()).collect(),
        ..col
    };
    (
        pick(category),
        pick(series),
        summarized,
        NumberFormat {
            decimals,
            ..format.clone()
        },
    )
}
