//! From raw string cells to a typed wide `Table`: header checks, type
//! inference per column, long-format detection and pivot, size limits.

use super::error::{ColumnRef, TableError, TableErrorKind};
use super::infer::{
    is_missing, is_non_finite, name_means_year, parse_compact_date, parse_date, parse_number,
    parse_quarter, parse_whole_year, parse_year, quarter_label,
};
use super::read::RawTable;
use super::reduce::{
    Summary, coarsen_dates, group_rows, grouped_caption, is_ordered, keep_ordered,
    keep_top_categories, keep_top_series, reorder, sort_by_time, summarize_pairs,
    transpose_year_columns,
};
use super::shape::{
    Choice, Directives, Plan, Profile, RawColumn, Role, choose, name_means_time, period_number,
    profile,
};
use crate::ir::table::cell_label;
use crate::ir::{Cell, Column, ColumnType, NumberFormat, Table, TableMeta};
use std::collections::HashMap;

fn check_headers(raw: &RawTable, file: &str) -> Result<(), TableError> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, h) in raw.headers.iter().enumerate() {
        // An unnamed first column is a row-name column (pandas, R exports);
        // an unnamed column with no values is left out later.
        let blank_column = raw.rows.iter().all(|r| is_missing(&r.cells[i]));
        if h.is_empty() && i > 0 && !blank_column {
            return Err(TableError::new(file, TableErrorKind::EmptyHeader)
                .at_line(raw.header_line)
                .at_column(ColumnRef::new(i, "")));
        }
        if h.is_empty() {
            continue;
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

fn all_missing_error(file: &str, col: &RawColumn) -> TableError {
    TableError::new(file, TableErrorKind::AllMissing).at_column(col.colref())
}

/// A numeric column: every non-missing cell must be a number; units must agree.
/// Non-zero magnitudes a chart can show. Beyond them sums, ranges, ticks and
/// ratios leave f64's exact or finite range (1e300 prints as `inf`), and
/// printed decimals stop being exact; a column in such units needs rescaling.
pub(crate) const MIN_MAGNITUDE: f64 = 1e-6;
pub(crate) const MAX_MAGNITUDE: f64 = 1e15;

/// Cells that are not numbers in a numeric column: a few in a long column
/// are left out (and named in a note); more, or any in a short column, are
/// an error, since they are more likely a wrong column than a stray mark.
fn tolerated_bad_cells(col: &RawColumn) -> usize {
    let n = col.cells.len();
    if n < 40 { 0 } else { (n / 50).min(5) }
}

fn number_column(
    col: &RawColumn,
    lines: &[u64],
    file: &str,
) -> Result<(Vec<Cell>, NumberFormat), TableError> {
    number_column_noting(col, lines, file, &mut Vec::new())
}

fn number_column_noting(
    col: &RawColumn,
    lines: &[u64],
    file: &str,
    notes: &mut Vec<String>,
) -> Result<(Vec<Cell>, NumberFormat), TableError> {
    let tolerated = tolerated_bad_cells(col);
    let mut bad: Vec<String> = Vec::new();
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
            if bad.len() < tolerated && !is_non_finite(raw) {
                bad.push(format!("{:?} on line {}", raw.trim(), lines[r]));
                cells.push(Cell::Missing);
                continue;
            }
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
        let magnitude = n.value.abs();
        if n.value != 0.0 && !(MIN_MAGNITUDE..=MAX_MAGNITUDE).contains(&magnitude) {
            return Err(at(TableErrorKind::OutOfRange {
                value: raw.to_string(),
            }));
        }
        format.decimals = format.decimals.max(n.decimals);
        format.thousands |= n.thousands;
        cells.push(Cell::Number(n.value));
    }
    if !bad.is_empty() {
        notes.push(format!(
            "{}: not numbers, left out as missing: {}",
            col.colref(),
            bad.join(", ")
        ));
    }
    Ok((cells, format))
}

/// The index column: years, then dates, then numbers, else text.
fn index_column(col: &RawColumn, lines: &[u64], file: &str) -> Result<Column, TableError> {
    if col.present().next().is_none() {
        return Err(all_missing_error(file, col));
    }
    // Time readings in order of preference; the loose ones only under a
    // header that names time (elsewhere `1700.0` and `19580329` are numbers).
    type Parse = fn(&str) -> Option<Cell>;
    let times: [(bool, Parse, ColumnType); 5] = [
        (true, |c| parse_year(c).map(Cell::Year), ColumnType::Year),
        (
            name_means_year(col.name),
            |c| parse_whole_year(c).map(Cell::Year),
            ColumnType::Year,
        ),
        (true, |c| parse_date(c).map(Cell::Date), ColumnType::Date),
        (
            name_means_time(col.name),
            |c| parse_compact_date(c).map(Cell::Date),
            ColumnType::Date,
        ),
        // `1974Q1`, `Q1 1974`: one spelling, `1974 Q1`, as year+quarter
        // columns are shaped, so the rows read as ordered quarters.
        (
            true,
            |c| parse_quarter(c).map(|(y, q)| Cell::Text(quarter_label(y, q))),
            ColumnType::Text,
        ),
    ];
    let time = times
        .iter()
        .find(|(applies, parse, _)| *applies && col.present().all(|c| parse(c).is_some()));
    let (ctype, cells, format) = if let Some((_, parse, ctype)) = time {
        let cells = col
            .cells
            .iter()
            .map(|c| parse(c).unwrap_or(Cell::Missing))
            .collect();
        (*ctype, cells, NumberFormat::default())
    } else if let Some((cells, format)) = col
        .present()
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
fn series_column(
    col: &RawColumn,
    lines: &[u64],
    file: &str,
    notes: &mut Vec<String>,
) -> Result<Column, TableError> {
    if col.present().next().is_none() {
        return Err(all_missing_error(file, col));
    }
    if name_means_year(col.name) && col.present().all(|c| parse_year(c).is_some()) {
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
    let (cells, format) = number_column_noting(col, lines, file, notes)?;
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

/// A table shaped from a file, with what was done to it.
pub(crate) struct Shaped {
    pub table: Table,
    /// Columns left out and other changes, for the person who brought the file.
    pub notes: Vec<String>,
    /// Summaries that change what the chart shows; stated in its title.
    pub captions: Vec<String>,
    /// The one quantity every series measures (the value column of a long table).
    pub measure: Option<String>,
    /// The rows are raw observations of the series (see `TableMeta::samples`).
    pub samples: bool,
    /// The values are means, or the series a selection of many: they add
    /// up to no whole, so they are never stacked or totalled across series.
    pub not_a_whole: bool,
}

fn series_columns(
    columns: &[RawColumn],
    chosen: &[usize],
    lines: &[u64],
    file: &str,
    notes: &mut Vec<String>,
) -> Result<Vec<Column>, TableError> {
    chosen
        .iter()
        .map(|&c| series_column(&columns[c], lines, file, notes))
        .collect()
}

fn subset<'a>(col: &RawColumn<'a>, rows: &[usize]) -> RawColumn<'a> {
    RawColumn {
        number: col.number,
        name: col.name,
        cells: rows.iter().map(|&r| col.cells[r]).collect(),
    }
}

pub(crate) fn build(
    raw: &RawTable,
    file: &str,
    id: &str,
    directives: &Directives,
    additive: Option<bool>,
) -> Result<Shaped, TableError> {
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
    let profiles: Vec<Profile> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| profile(c, i == 0))
        .collect();
    let Choice { plan, mut notes } = choose(&columns, &profiles, directives, file, &lines)?;
    let summary = Summary::of(additive);
    let averaging = summary == Summary::Mean;
    let mut not_a_whole = false;
    let mut captions = Vec::new();
    let mut measure = None;
    let blank = |columns: &[usize]| columns.is_empty();
    let mut table = match plan {
        Plan::Wide { index, series } => {
            if blank(&series) {
                return Err(no_numbers(file, &columns, &profiles));
            }
            let index = index_column(&columns[index], &lines, file)?;
            check_labels(&index, &lines, file)?;
            Table {
                id: id.to_string(),
                source_path: None,
                meta: TableMeta::default(),
                index,
                series: series_columns(&columns, &series, &lines, file, &mut notes)?,
            }
        }
        Plan::Long {
            index,
            key,
            value,
            rows,
            summarize,
        } => {
            let keep: Vec<usize> = match &rows {
                Some((time, rows)) => {
                    let at = columns[*time].cells[rows[0]].trim();
                    notes.push(format!(
                        "only the rows of the latest {} ({at}) are charted",
                        columns[*time].colref()
                    ));
                    rows.clone()
                }
                None => (0..lines.len()).collect(),
            };
            let sub_lines: Vec<u64> = keep.iter().map(|&r| lines[r]).collect();
            let category = index_column(&subset(&columns[index], &keep), &sub_lines, file)?;
            let series = index_column(&subset(&columns[key], &keep), &sub_lines, file)?;
            let (values, format) = number_column_noting(
                &subset(&columns[value], &keep),
                &sub_lines,
                file,
                &mut notes,
            )?;
            notes.push(format!(
                "long table: one series per {} value, rows labelled by {}, values from {}",
                columns[key].colref(),
                columns[index].colref(),
                columns[value].colref()
            ));
            measure = Some(columns[value].name.trim().to_string()).filter(|m| !m.is_empty());
            let (category, series, values, format) = if summarize {
                let rows = values.len();
                let (category, series, values, format) =
                    summarize_pairs(category, series, &values, &format, summary);
                not_a_whole |= averaging;
                captions.push(format!(
                    "{} per {} and {} of {rows} rows",
                    if summary == Summary::Total {
                        "totals"
                    } else {
                        "means"
                    },
                    columns[index].name.trim(),
                    columns[key].name.trim()
                ));
                (category, series, values, format)
            } else {
                (category, series, values, format)
            };
            let sub_lines: Vec<u64> = if summarize {
                (1..=values.len() as u64).collect()
            } else {
                sub_lines
            };
            pivot(
                LongColumns {
                    category,
                    series,
                    values,
                    format,
                    value_name: columns[value].name.to_string(),
                },
                &sub_lines,
                file,
                id,
            )?
        }
        Plan::YearPeriod {
            year,
            period,
            quarters,
            series,
        } => {
            if blank(&series) {
                return Err(no_numbers(file, &columns, &profiles));
            }
            let cells: Vec<Cell> = (0..lines.len())
                .map(|r| {
                    let y = parse_year(columns[year].cells[r]).unwrap_or_default();
                    let p = period_number(columns[period].cells[r], quarters).unwrap_or(1);
                    if quarters {
                        Cell::Text(quarter_label(y, p))
                    } else {
                        Cell::Date(format!("{y:04}-{p:02}"))
                    }
                })
                .collect();
            notes.push(format!(
                "{} and {} together label the rows",
                columns[year].colref(),
                columns[period].colref()
            ));
            let mut t = Table {
                id: id.to_string(),
                source_path: None,
                meta: TableMeta::default(),
                index: Column {
                    name: if quarters { "Quarter" } else { "Month" }.into(),
                    ctype: if quarters {
                        ColumnType::Text
                    } else {
                        ColumnType::Date
                    },
                    format: NumberFormat::default(),
                    cells,
                },
                series: series_columns(&columns, &series, &lines, file, &mut notes)?,
            };
            // Quarters sort as text only within a year; order by (year, quarter).
            if quarters {
                let mut order: Vec<usize> = (0..t.n_rows()).collect();
                order.sort_by_key(|&r| cell_label(&t.index.cells[r]));
                reorder(&mut t, &order);
            }
            t
        }
        Plan::Numbered { series } => {
            if blank(&series) {
                return Err(no_numbers(file, &columns, &profiles));
            }
            notes.push("no column names the rows: they are numbered from 1".into());
            Table {
                id: id.to_string(),
                source_path: None,
                meta: TableMeta::default(),
                index: Column {
                    name: "Row".into(),
                    ctype: ColumnType::Number,
                    format: NumberFormat::default(),
                    cells: (1..=lines.len()).map(|r| Cell::Number(r as f64)).collect(),
                },
                series: series_columns(&columns, &series, &lines, file, &mut notes)?,
            }
        }
        Plan::Grouped { index, series } => {
            if blank(&series) {
                return Err(no_numbers(file, &columns, &profiles));
            }
            let mut index_col = index_column(&columns[index], &lines, file)?;
            // Integer codes (status 1/2, cylinders) are categories, not a scale.
            if profiles[index].role == Role::Number {
                index_col.ctype = ColumnType::Text;
                index_col.cells = index_col
                    .cells
                    .iter()
                    .map(|c| match c {
                        Cell::Missing => Cell::Missing,
                        other => Cell::Text(cell_label(other)),
                    })
                    .collect();
            }
            let unlabelled = index_col.cells.iter().filter(|c| c.is_missing()).count();
            if unlabelled > 0 {
                notes.push(format!(
                    "{unlabelled} rows without a label in {} are left out",
                    columns[index].colref()
                ));
            }
            let rows = index_col.cells.len() - unlabelled;
            let raw_table = Table {
                id: id.to_string(),
                source_path: None,
                meta: TableMeta::default(),
                index: index_col,
                series: series_columns(&columns, &series, &lines, file, &mut notes)?,
            };
            if let Some(samples) = samples_of_groups(&raw_table) {
                notes.push(format!(
                    "rows are observations: one group of samples per value of {}",
                    columns[index].colref()
                ));
                let measure = raw_table.series[0].name.clone();
                return Ok(Shaped {
                    table: samples,
                    notes,
                    captions,
                    measure: Some(measure),
                    samples: true,
                    not_a_whole: false,
                });
            }
            let (mut grouped, _) = group_rows(&raw_table, summary, Clone::clone);
            if profiles[index].role == Role::Number {
                // Codes in numeric order (1, 2, 3), as a person lists them.
                let code = |c: &Cell| cell_label(c).parse::<f64>().unwrap_or(f64::INFINITY);
                let mut order: Vec<usize> = (0..grouped.n_rows()).collect();
                order.sort_by(|&a, &b| {
                    code(&grouped.index.cells[a]).total_cmp(&code(&grouped.index.cells[b]))
                });
                reorder(&mut grouped, &order);
            }
            captions.push(grouped_caption(summary, rows, columns[index].name));
            not_a_whole |= averaging;
            grouped
        }
    };
    // Many numbered rows of like numbers are observations, not categories:
    // kept whole (no row is summarized away) and drawn as distributions.
    if numbered_samples(&table) {
        return Ok(Shaped {
            table,
            notes,
            captions,
            measure,
            samples: true,
            not_a_whole: false,
        });
    }
    if sort_by_time(&mut table) {
        notes.push("rows sorted by time".into());
    }
    if let Some(t) = transpose_year_columns(&table) {
        notes.push(format!(
            "{} year columns became the rows; the rows of {} became the series",
            t.n_rows(),
            table.index.name
        ));
        measure = measure.or_else(|| Some(crate::ir::table::UNNAMED_MEASURE.to_string()));
        table = t;
    }
    if let Some(caption) = keep_top_series(&mut table) {
        captions.push(caption);
        not_a_whole = true;
    }
    if let Some(caption) = coarsen_dates(&mut table, summary) {
        captions.push(caption);
        not_a_whole |= averaging;
    }
    if is_ordered(&table) {
        captions.extend(keep_ordered(&mut table));
    } else {
        captions.extend(keep_top_categories(&mut table));
    }
    Ok(Shaped {
        table,
        notes,
        captions,
        measure,
        samples: false,
        not_a_whole,
    })
}

/// Fewest rows a numbered table needs to be read as observations.
const MIN_SAMPLE_ROWS: usize = 20;

/// Whether the index only numbers the rows 1..n (a file without labels, or
/// an `Observation` column) over at least [`MIN_SAMPLE_ROWS`] rows of at
/// most [`crate::spec::stat::MAX_GROUPS`] numeric columns.
fn numbered_samples(table: &Table) -> bool {
    // Days of a month or ages also run 1..n: only a name that numbers
    // observations (or none: the rows were numbered on load) says so.
    const NUMBERING: [&str; 12] = [
        "row",
        "observation",
        "obs",
        "sample",
        "trial",
        "replicate",
        "subject",
        "participant",
        "run",
        "id",
        "index",
        "",
    ];
    let n = table.n_rows();
    n >= MIN_SAMPLE_ROWS
        && NUMBERING.contains(&table.index.name.trim().to_ascii_lowercase().as_str())
        && table.index.ctype == ColumnType::Number
        && table
            .index
            .cells
            .iter()
            .enumerate()
            .all(|(i, c)| c.as_f64() == Some((i + 1) as f64))
        && (1..=crate::spec::stat::MAX_GROUPS).contains(&table.series.len())
        && table.series.iter().all(|c| c.ctype == ColumnType::Number)
        && like_groups(table)
}

/// Columns that could be groups of one measurement: none names a time
/// (`Month`, `Day`), each varies (not a code with a handful of values),
/// and their typical sizes agree within a factor of ten, unlike a file of
/// different measurements (ozone, wind, temperature) side by side.
fn like_groups(table: &Table) -> bool {
    let mut medians = Vec::new();
    for c in &table.series {
        if super::shape::name_means_time(&c.name) {
            return false;
        }
        let mut v: Vec<f64> = c.values().into_iter().flatten().collect();
        v.sort_by(f64::total_cmp);
        let mut distinct = v.clone();
        distinct.dedup();
        if v.is_empty() || distinct.len() < 10.min(v.len() / 2) {
            return false;
        }
        medians.push(v[v.len() / 2]);
    }
    let lo = medians.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = medians.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    lo > 0.0 && hi <= 10.0 * lo || hi < 0.0 && lo >= 10.0 * hi
}

/// A long table of observations (a text group column and one numeric
/// column, each group repeated at least [`crate::spec::stat::MIN_GROUP`]
/// times, at most [`crate::spec::stat::MAX_GROUPS`] groups) as one column
/// of samples per group, in order of first appearance.
fn samples_of_groups(raw: &Table) -> Option<Table> {
    use crate::spec::stat::{MAX_GROUPS, MIN_GROUP};
    let [values] = raw.series.as_slice() else {
        return None;
    };
    if raw.index.ctype != ColumnType::Text || values.ctype != ColumnType::Number {
        return None;
    }
    let mut groups: Vec<(String, Vec<Cell>)> = Vec::new();
    for (label, v) in raw.index.cells.iter().zip(&values.cells) {
        if label.is_missing() || v.as_f64().is_none() {
            continue;
        }
        let name = cell_label(label);
        match groups.iter_mut().find(|(g, _)| *g == name) {
            Some((_, cells)) => cells.push(v.clone()),
            None => groups.push((name, vec![v.clone()])),
        }
    }
    if !(2..=MAX_GROUPS).contains(&groups.len()) || groups.iter().any(|(_, c)| c.len() < MIN_GROUP)
    {
        return None;
    }
    let longest = groups.iter().map(|(_, c)| c.len()).max().unwrap_or(0);
    Some(Table {
        id: raw.id.clone(),
        source_path: None,
        meta: TableMeta::default(),
        index: Column {
            name: "Observation".into(),
            ctype: ColumnType::Number,
            format: NumberFormat::default(),
            cells: (1..=longest).map(|i| Cell::Number(i as f64)).collect(),
        },
        series: groups
            .into_iter()
            .map(|(name, mut cells)| {
                cells.resize(longest, Cell::Missing);
                Column {
                    name,
                    ctype: ColumnType::Number,
                    format: values.format.clone(),
                    cells,
                }
            })
            .collect(),
    })
}

fn no_numbers(file: &str, columns: &[RawColumn], profiles: &[Profile]) -> TableError {
    let named = |role: Role| -> Vec<String> {
        columns
            .iter()
            .zip(profiles)
            .filter(|(_, p)| p.role == role)
            .map(|(c, _)| format!("{:?}", c.name))
            .collect()
    };
    let mut parts = Vec::new();
    for (role, what) in [
        (Role::Text, "text columns"),
        (Role::Time, "time columns"),
        (Role::Empty, "empty columns"),
        (Role::RowId, "row numbers"),
        (Role::Code, "codes"),
    ] {
        let names = named(role);
        if !names.is_empty() {
            parts.push(format!("{what}: {}", names.join(", ")));
        }
    }
    TableError::new(
        file,
        TableErrorKind::NoNumbers {
            detail: parts.join("; "),
        },
    )
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
