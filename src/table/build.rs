//! From raw string cells to a typed wide `Table`: header checks, type
//! inference per column, long-format detection and pivot, size limits.

use super::error::{ColumnRef, TableError, TableErrorKind};
use super::infer::{
    is_missing, is_non_finite, name_means_year, parse_date, parse_number, parse_year,
};
use super::read::RawTable;
use super::{MAX_CATEGORIES, MAX_SERIES};
use crate::ir::table::cell_label;
use crate::ir::{Cell, Column, ColumnType, NumberFormat, Table, TableMeta};
use std::collections::HashMap;

/// One column of raw cells with the file lines of its rows.
struct RawColumn<'a> {
    number: usize,
    name: &'a str,
    cells: Vec<&'a str>,
}

impl RawColumn<'_> {
    fn colref(&self) -> ColumnRef {
        ColumnRef::new(self.number, self.name)
    }
}

fn check_headers(raw: &RawTable, file: &str) -> Result<(), TableError> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, h) in raw.headers.iter().enumerate() {
        if h.is_empty() {
            return Err(TableError::new(file, TableErrorKind::EmptyHeader)
                .at_line(raw.header_line)
                .at_column(ColumnRef::new(i, "")));
        }
        if let Some(first) = seen.insert(h.as_str(), i) {
            return Err(TableError::new(
                file,
                TableErrorKind::DuplicateHeader {
                    name: h.clone(),
                    first: first + 1,
                },
            )
            .at_line(raw.header_line)
            .at_column(ColumnRef::new(i, h)));
        }
    }
    Ok(())
}

fn non_missing<'a>(col: &'a RawColumn<'a>) -> impl Iterator<Item = &'a str> + 'a {
    col.cells.iter().copied().filter(|c| !is_missing(c))
}

fn all_missing_error(file: &str, col: &RawColumn) -> TableError {
    TableError::new(file, TableErrorKind::AllMissing).at_column(col.colref())
}

/// A numeric column: every non-missing cell must be a number; units must agree.
fn number_column(
    col: &RawColumn,
    lines: &[u64],
    file: &str,
) -> Result<(Vec<Cell>, NumberFormat), TableError> {
    let mut format = NumberFormat::default();
    let mut cells = Vec::with_capacity(col.cells.len());
    for (r, raw) in col.cells.iter().enumerate() {
        if is_missing(raw) {
            cells.push(Cell::Missing);
            continue;
        }
        let at = |kind| {
            TableError::new(file, kind)
                .at_line(lines[r])
                .at_column(col.colref())
        };
        let Some(n) = parse_number(raw) else {
            let value = raw.to_string();
            return Err(at(if is_non_finite(raw) {
                TableErrorKind::NonFinite { value }
            } else {
                TableErrorKind::NonNumeric { value }
            }));
        };
        for (seen, unit) in [
            (&mut format.prefix, &n.prefix),
            (&mut format.suffix, &n.suffix),
        ] {
            match (seen.as_ref(), unit) {
                (Some(expected), Some(found)) if expected != found => {
                    return Err(at(TableErrorKind::MixedUnits {
                        value: raw.to_string(),
                        expected: expected.clone(),
                        found: found.clone(),
                    }));
                }
                (None, Some(found)) => *seen = Some(found.clone()),
                _ => {}
            }
        }
        format.decimals = format.decimals.max(n.decimals);
        format.thousands |= n.thousands;
        cells.push(Cell::Number(n.value));
    }
    Ok((cells, format))
}

/// The index column: years, then dates, then numbers, else text.
fn index_column(col: &RawColumn, lines: &[u64], file: &str) -> Result<Column, TableError> {
    if non_missing(col).next().is_none() {
        return Err(all_missing_error(file, col));
    }
    let (ctype, cells, format) = if non_missing(col).all(|c| parse_year(c).is_some()) {
        let cells = col
            .cells
            .iter()
            .map(|c| parse_year(c).map_or(Cell::Missing, Cell::Year))
            .collect();
        (ColumnType::Year, cells, NumberFormat::default())
    } else if non_missing(col).all(|c| parse_date(c).is_some()) {
        let cells = col
            .cells
            .iter()
            .map(|c| parse_date(c).map_or(Cell::Missing, Cell::Date))
            .collect();
        (ColumnType::Date, cells, NumberFormat::default())
    } else if let Some((cells, format)) = non_missing(col)
        .all(|c| parse_number(c).is_some())
        .then(|| number_column(col, lines, file).ok())
        .flatten()
    {
        (ColumnType::Number, cells, format)
    } else {
        let cells = col
            .cells
            .iter()
            .map(|c| {
                if is_missing(c) {
                    Cell::Missing
                } else {
                    Cell::Text((*c).to_string())
                }
            })
            .collect();
        (ColumnType::Text, cells, NumberFormat::default())
    };
    Ok(Column {
        name: col.name.to_string(),
        ctype,
        format,
        cells,
    })
}

/// A series column: numbers (or years, when the header says so).
fn series_column(col: &RawColumn, lines: &[u64], file: &str) -> Result<Column, TableError> {
    if non_missing(col).next().is_none() {
        return Err(all_missing_error(file, col));
    }
    if name_means_year(col.name) && non_missing(col).all(|c| parse_year(c).is_some()) {
        let cells = col
            .cells
            .iter()
            .map(|c| parse_year(c).map_or(Cell::Missing, Cell::Year))
            .collect();
        return Ok(Column {
            name: col.name.to_string(),
            ctype: ColumnType::Year,
            format: NumberFormat::default(),
            cells,
        });
    }
    let (cells, format) = number_column(col, lines, file)?;
    Ok(Column {
        name: col.name.to_string(),
        ctype: ColumnType::Number,
        format,
        cells,
    })
}

/// Every category label present and unique, so a label names one row.
fn check_labels(index: &Column, lines: &[u64], file: &str) -> Result<(), TableError> {
    let mut seen: HashMap<String, u64> = HashMap::new();
    for (r, cell) in index.cells.iter().enumerate() {
        let at = |kind| {
            TableError::new(file, kind)
                .at_line(lines[r])
                .at_column(ColumnRef::new(0, &index.name))
        };
        if cell.is_missing() {
            return Err(at(TableErrorKind::MissingLabel));
        }
        let label = cell_label(cell);
        if let Some(first_line) = seen.insert(label.clone(), lines[r]) {
            return Err(at(TableErrorKind::DuplicateLabel { label, first_line }));
        }
    }
    Ok(())
}

fn check_size(categories: usize, series: usize, file: &str) -> Result<(), TableError> {
    if series > MAX_SERIES {
        return Err(TableError::new(
            file,
            TableErrorKind::TooManySeries {
                count: series,
                max: MAX_SERIES,
            },
        ));
    }
    if categories > MAX_CATEGORIES {
        return Err(TableError::new(
            file,
            TableErrorKind::TooManyCategories {
                count: categories,
                max: MAX_CATEGORIES,
            },
        ));
    }
    Ok(())
}

/// Three columns (category, series, value) where the second names series:
/// text, or years/dates repeated per category.
fn looks_long(columns: &[RawColumn]) -> bool {
    let [cat, ser, val] = columns else {
        return false;
    };
    let values_numeric = non_missing(val).next().is_some()
        && non_missing(val).all(|c| parse_number(c).is_some() || is_non_finite(c));
    if !values_numeric || non_missing(ser).next().is_none() {
        return false;
    }
    // All text, not one typo among numbers (that is a wide table with a bad cell).
    let ser_text = non_missing(ser).all(|c| parse_number(c).is_none());
    let ser_ordered = non_missing(ser).all(|c| parse_year(c).is_some() || parse_date(c).is_some());
    let mut labels: Vec<&str> = non_missing(cat).collect();
    let n = labels.len();
    labels.sort_unstable();
    labels.dedup();
    let cat_repeats = labels.len() < n;
    ser_text || (ser_ordered && cat_repeats)
}

pub(crate) fn build(raw: &RawTable, file: &str, id: &str) -> Result<Table, TableError> {
    check_headers(raw, file)?;
    if raw.rows.is_empty() {
        return Err(TableError::new(file, TableErrorKind::NoRows));
    }
    if raw.headers.len() < 2 {
        return Err(TableError::new(file, TableErrorKind::NoSeries));
    }
    let lines: Vec<u64> = raw.rows.iter().map(|r| r.line).collect();
    let columns: Vec<RawColumn> = raw
        .headers
        .iter()
        .enumerate()
        .map(|(i, name)| RawColumn {
            number: i,
            name,
            cells: raw.rows.iter().map(|r| r.cells[i].as_str()).collect(),
        })
        .collect();
    if looks_long(&columns) {
        let category = index_column(&columns[0], &lines, file)?;
        let series = index_column(&columns[1], &lines, file)?;
        let (values, format) = number_column(&columns[2], &lines, file)?;
        let long = LongColumns {
            category,
            series,
            values,
            format,
            value_name: columns[2].name.to_string(),
        };
        return pivot(long, &lines, file, id);
    }
    check_size(raw.rows.len(), columns.len() - 1, file)?;
    let index = index_column(&columns[0], &lines, file)?;
    check_labels(&index, &lines, file)?;
    let series = columns[1..]
        .iter()
        .map(|c| series_column(c, &lines, file))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Table {
        id: id.to_string(),
        source_path: None,
        meta: TableMeta::default(),
        index,
        series,
    })
}

pub(crate) struct LongColumns {
    pub category: Column,
    pub series: Column,
    pub values: Vec<Cell>,
    pub format: NumberFormat,
    pub value_name: String,
}

/// Long → wide: categories and series in first-appearance order.
pub(crate) fn pivot(
    long: LongColumns,
    lines: &[u64],
    file: &str,
    id: &str,
) -> Result<Table, TableError> {
    let mut cat_rows: HashMap<String, (usize, u64)> = HashMap::new();
    let mut categories: Vec<Cell> = Vec::new();
    let mut series_of: HashMap<String, usize> = HashMap::new();
    let mut series_names: Vec<String> = Vec::new();
    let mut seen_pairs: HashMap<(usize, usize), u64> = HashMap::new();
    let mut entries = Vec::with_capacity(long.values.len());
    for (r, ((cat, ser), value)) in long
        .category
        .cells
        .iter()
        .zip(&long.series.cells)
        .zip(&long.values)
        .enumerate()
    {
        let line = lines[r];
        let at = |kind, column: usize, name: &str| {
            TableError::new(file, kind)
                .at_line(line)
                .at_column(ColumnRef::new(column, name))
        };
        if cat.is_missing() {
            return Err(at(TableErrorKind::MissingLabel, 0, &long.category.name));
        }
        if ser.is_missing() {
            return Err(at(TableErrorKind::MissingSeriesName, 1, &long.series.name));
        }
        let cat_label = cell_label(cat);
        let c = cat_rows
            .entry(cat_label.clone())
            .or_insert_with(|| {
                categories.push(cat.clone());
                (categories.len() - 1, line)
            })
            .0;
        let ser_label = cell_label(ser);
        let s = *series_of.entry(ser_label.clone()).or_insert_with(|| {
            series_names.push(ser_label.clone());
            series_names.len() - 1
        });
        if let Some(first_line) = seen_pairs.insert((c, s), line) {
            return Err(at(
                TableErrorKind::DuplicatePair {
                    category: cat_label,
                    series: ser_label,
                    first_line,
                },
                0,
                &long.category.name,
            ));
        }
        entries.push((c, s, value.clone()));
    }
    if let Some(clash) = series_names.iter().find(|s| **s == long.category.name) {
        return Err(TableError::new(
            file,
            TableErrorKind::DuplicateHeader {
                name: clash.clone(),
                first: 1,
            },
        )
        .at_column(ColumnRef::new(1, &long.series.name)));
    }
    check_size(categories.len(), series_names.len(), file)?;
    let mut grid = vec![vec![Cell::Missing; categories.len()]; series_names.len()];
    for (c, s, value) in entries {
        grid[s][c] = value;
    }
    let mut series = Vec::with_capacity(series_names.len());
    for (name, cells) in series_names.into_iter().zip(grid) {
        if cells.iter().all(Cell::is_missing) {
            return Err(TableError::new(file, TableErrorKind::AllMissing)
                .at_column(ColumnRef::new(2, &format!("{} / {name}", long.value_name))));
        }
        series.push(Column {
            name,
            ctype: ColumnType::Number,
            format: long.format.clone(),
            cells,
        });
    }
    Ok(Table {
        id: id.to_string(),
        source_path: None,
        meta: TableMeta::default(),
        index: Column {
            name: long.category.name.clone(),
            ctype: long.category.ctype,
            format: long.category.format.clone(),
            cells: categories,
        },
        series,
    })
}
