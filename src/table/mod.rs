//! Loading tables from CSV/TSV/JSON with type inference.
//!
//! A file becomes a wide [`Table`]: the first column is the index (categories,
//! years or dates), every other column a numeric series. Long tables
//! (category, series, value) are pivoted to wide on load. An optional sidecar
//! `NAME.meta.json` next to `NAME.csv` supplies the metadata.

mod build;
pub mod builtin;
pub mod clean;
mod error;
pub mod infer;
mod read;
pub mod reduce;
mod shape;
mod sidecar;
mod write;

pub use error::{ColumnRef, TableError, TableErrorKind};
pub use sidecar::{Sidecar, sidecar_path};
pub use write::{cell_text, format_value, write_table};

use crate::ir::table::cell_label;
use crate::ir::{Cell, ColumnType, Table};
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// More categories than this do not fit on a readable chart; bigger tables
/// are summarized (see [`reduce`]).
pub const MAX_CATEGORIES: usize = 60;
/// More series than this do not fit in a legend or a palette.
pub const MAX_SERIES: usize = 12;
/// Rows read before refusing a file: enough for years of daily records or
/// a large sample, small enough to summarize in well under a second.
pub const MAX_ROWS: usize = 200_000;

/// File extensions read as tables (compared case-insensitively).
pub const TABLE_EXTENSIONS: &[&str] = &["csv", "tsv", "json"];

fn extension(path: &Path) -> Option<String> {
    path.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

/// Load one table (`.csv`, `.tsv` or `.json`) and its `NAME.meta.json` sidecar.
/// The id is the file stem; `source_path` is the path as given.
pub fn load_table(path: &Path) -> Result<Table, TableError> {
    let file = path.display().to_string();
    if sidecar::is_sidecar(path) {
        return Err(TableError::new(file, TableErrorKind::SidecarGiven));
    }
    let mut raw = match extension(path).as_deref() {
        Some("csv") => read::read_delimited(path, &file, b',')?,
        Some("tsv") => read::read_delimited(path, &file, b'\t')?,
        Some("json") => read::read_json(path, &file)?,
        _ => return Err(TableError::new(file, TableErrorKind::UnsupportedFormat)),
    };
    let id = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if !write::valid_id(&id) {
        return Err(TableError::new(file, TableErrorKind::BadFileName { id }));
    }
    raw.clean();
    let sidecar = sidecar::load_sidecar(path)?;
    let sidecar_file = sidecar_path(path)
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let directives = shape::Directives {
        index: sidecar.index.as_deref(),
        series: sidecar.series.as_deref(),
        sidecar: &sidecar_file,
    };
    let shaped = build::build(&raw, &file, &id, &directives, sidecar.meta.additive)?;
    let mut table = shaped.table;
    table.meta = sidecar.meta;
    if table.meta.measure.is_none() {
        table.meta.measure = shaped.measure;
    }
    table.meta.samples |= shaped.samples;
    // Means per group, or eight of two hundred countries, add up to
    // nothing a reader could name, whatever the sidecar says of the file.
    if shaped.not_a_whole {
        table.meta.additive = Some(false);
    }
    // A shaped file without a title is named after what it measures, so
    // the headline names the data and the caption of what shaping did
    // ("The 8 of 62 series with the largest values") stays beneath it
    // instead of standing alone where a title is read. An unshaped file
    // without one stays untitled, as many published charts are.
    if !shaped.captions.is_empty()
        && table
            .meta
            .title
            .as_deref()
            .is_none_or(|t| t.trim().is_empty())
    {
        table.meta.title = derived_title(&table);
    }
    // The title stays the owner's: what shaping did is said under it, where
    // a reader looks for how the numbers were made, and is never asked as
    // the chart's title.
    if !shaped.captions.is_empty() {
        let caption = shaped.captions.join("; ");
        table.meta.subtitle = Some(match table.meta.subtitle.take() {
            Some(subtitle) => format!("{subtitle} ({caption})"),
            None => clean::capitalized(&caption),
        });
        table.meta.notes.push(format!("charted: {caption}"));
    }
    table.meta.notes.extend(shaped.notes);
    table.meta.notes.extend(raw.cleaned.notes());
    table.source_path = Some(path.to_string_lossy().into_owned());
    Ok(table)
}

/// "Pop by year", "Reaction by days": the measure (a long table's value
/// column, or the one series) by the index, in the file's own words; else
/// the file's name ("Cars93 specifications", "Sunspots yearly 1700–2008").
fn derived_title(table: &Table) -> Option<String> {
    let index = table.index.name.trim();
    let measure = table
        .meta
        .named_measure()
        .or_else(|| match table.series.as_slice() {
            [only] => Some(only.name.trim()),
            _ => None,
        })
        .filter(|m| !m.is_empty());
    match measure {
        Some(measure) if !index.is_empty() => Some(clean::capitalized(&format!(
            "{} by {}",
            measure.replace('_', " "),
            index.replace('_', " ").to_lowercase()
        ))),
        _ => title_of_file_name(&table.id),
    }
}

/// A file name as a title: words apart, a span of two years joined by a
/// dash, the usual initialisms in capitals.
fn title_of_file_name(id: &str) -> Option<String> {
    const INITIALISMS: [&str; 6] = ["us", "uk", "eu", "un", "gdp", "co2"];
    let words: Vec<&str> = id
        .split(|c: char| c == '_' || c == '-' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let is_year = |w: &str| w.len() == 4 && w.chars().all(|c| c.is_ascii_digit());
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        if is_year(w) && words.get(i + 1).is_some_and(|n| is_year(n)) {
            out.push(format!("{w}–{}", words[i + 1]));
            i += 2;
            continue;
        }
        let lower = w.to_lowercase();
        out.push(if INITIALISMS.contains(&lower.as_str()) {
            lower.to_uppercase()
        } else {
            w.to_string()
        });
        i += 1;
    }
    // A name of letters and digits alone ("t1", "data") names nothing.
    let letters = out
        .iter()
        .flat_map(|w| w.chars())
        .filter(|c| c.is_alphabetic())
        .count();
    (out.len() >= 2 && letters >= 6).then(|| clean::capitalized(&out.join(" ")))
}

/// The table files an input names: the file itself, or every `.csv`/`.tsv`/
/// `.json` directly in a folder (not `*.meta.json`), sorted by path.
pub fn table_files(input: &Path) -> Result<Vec<PathBuf>, TableError> {
    if !input.is_dir() {
        return Ok(vec![input.to_path_buf()]);
    }
    let file = input.display().to_string();
    let entries = std::fs::read_dir(input)
        .map_err(|e| TableError::new(&file, TableErrorKind::Io(e.to_string())))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|e| TableError::new(&file, TableErrorKind::Io(e.to_string())))?
            .path();
        let is_table = extension(&path).is_some_and(|e| TABLE_EXTENSIONS.contains(&e.as_str()));
        if path.is_file() && is_table && !sidecar::is_sidecar(&path) {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Load files and folders of tables. Returns the tables that loaded, in input
/// order (folders sorted by path), and one error per bad table. With `strict`
/// it stops at the first error. Two tables with the same id are an error for
/// the second one.
pub fn load_tables(inputs: &[PathBuf], strict: bool) -> (Vec<Table>, Vec<TableError>) {
    let mut tables = Vec::new();
    let mut errors = Vec::new();
    let mut files = Vec::new();
    for input in inputs {
        match table_files(input) {
            Ok(f) => files.extend(f),
            Err(e) => {
                errors.push(e);
                if strict {
                    return (tables, errors);
                }
            }
        }
    }
    let results: Vec<Result<Table, TableError>> = if strict {
        // Stop reading at the first error.
        let mut out = Vec::new();
        for f in &files {
            let r = load_table(f);
            let bad = r.is_err();
            out.push(r);
            if bad {
                break;
            }
        }
        out
    } else {
        files.par_iter().map(|f| load_table(f)).collect()
    };
    let mut ids: HashMap<String, String> = HashMap::new();
    for result in results {
        let checked = result.and_then(|t| match ids.get(&t.id) {
            Some(other) => Err(TableError::new(
                t.source_path.clone().unwrap_or_default(),
                TableErrorKind::DuplicateId {
                    id: t.id.clone(),
                    other: other.clone(),
                },
            )),
            None => {
                ids.insert(t.id.clone(), t.source_path.clone().unwrap_or_default());
                Ok(t)
            }
        });
        match checked {
            Ok(t) => tables.push(t),
            Err(e) => {
                errors.push(e);
                if strict {
                    break;
                }
            }
        }
    }
    (tables, errors)
}

/// Pivot a long table to wide. `long.index` holds the categories,
/// `long.series[0]` the series names and `long.series[1]` the values.
/// Categories and series keep their first-appearance order; a repeated
/// (category, series) pair is an error. Rows are reported as file lines
/// assuming one header line (row r is line r + 2).
pub fn pivot_long(long: &Table) -> Result<Table, TableError> {
    let file = long.source_path.clone().unwrap_or_else(|| long.id.clone());
    let [series, values] = long.series.as_slice() else {
        return Err(TableError::new(
            file,
            TableErrorKind::NotLong(format!(
                "expected an index and two columns (series, value), found {} series columns",
                long.series.len()
            )),
        ));
    };
    if values.ctype != ColumnType::Number {
        return Err(TableError::new(
            file,
            TableErrorKind::NotLong(format!("the value column {:?} is not numeric", values.name)),
        )
        .at_column(ColumnRef::new(2, &values.name)));
    }
    let n = long.n_rows();
    if series.cells.len() != n || values.cells.len() != n {
        return Err(TableError::new(
            file,
            TableErrorKind::NotLong("columns have different lengths".into()),
        ));
    }
    let lines: Vec<u64> = (0..n as u64).map(|r| r + 2).collect();
    // Series names are labels whatever their cell type.
    let series_labels = crate::ir::Column {
        name: series.name.clone(),
        ctype: ColumnType::Text,
        format: Default::default(),
        cells: series
            .cells
            .iter()
            .map(|c| match c {
                Cell::Missing => Cell::Missing,
                other => Cell::Text(cell_label(other)),
            })
            .collect(),
    };
    let mut wide = build::pivot(
        build::LongColumns {
            category: long.index.clone(),
            series: series_labels,
            values: values.cells.clone(),
            format: values.format.clone(),
            value_name: values.name.clone(),
        },
        &lines,
        &file,
        &long.id,
    )?;
    wide.meta = long.meta.clone();
    wide.source_path = long.source_path.clone();
    Ok(wide)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod shape_tests;
