//! Printing values the way the input did, and writing tables back to CSV.

use super::error::{TableError, TableErrorKind};
use crate::ir::{Cell, Column, NumberFormat, Table, TableMeta};
use std::path::{Path, PathBuf};

/// Print a value with the column's recorded format: `$3.2`, `12.5%`, `1,234`.
/// Uses exactly `format.decimals` decimals; negative values put the sign
/// before the unit (`-$3.2`).
pub fn format_value(value: f64, format: &NumberFormat) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    // Decimal rounding of the shortest form: a value printed with fewer
    // decimals than it has rounds as a person would (2.675 → "2.68").
    let digits = crate::ir::decimal::format_fixed(value.abs(), format.decimals);
    // A value that rounds to zero prints without a sign.
    let negative = value < 0.0 && digits.bytes().any(|b| (b'1'..=b'9').contains(&b));
    let (int, frac) = match digits.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (digits.as_str(), None),
    };
    let mut out = String::with_capacity(digits.len() + 8);
    if negative {
        out.push('-');
    }
    if let Some(p) = &format.prefix {
        out.push_str(p);
    }
    if format.thousands {
        for (i, c) in int.chars().enumerate() {
            if i > 0 && (int.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
    } else {
        out.push_str(int);
    }
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    if let Some(s) = &format.suffix {
        out.push_str(s);
    }
    out
}

/// A cell as written to CSV, so that loading it again gives the same cell.
pub fn cell_text(cell: &Cell, column: &Column) -> String {
    match cell {
        Cell::Number(v) => format_value(*v, &column.format),
        Cell::Year(y) => y.to_string(),
        Cell::Date(d) => d.clone(),
        Cell::Text(t) => t.clone(),
        Cell::Missing => String::new(),
    }
}

/// Whether a file stem can name a table (and its files in a suite).
pub(crate) fn valid_id(id: &str) -> bool {
    !id.is_empty() && !id.starts_with('.') && !id.contains(['/', '\\', '\0'])
}

/// Write `ID.csv` (and `ID.meta.json` when the metadata is not empty) into
/// `dir`, creating it. Returns the CSV path. A stale sidecar of the same id is
/// removed, so that loading the CSV gives back exactly this table.
pub fn write_table(table: &Table, dir: &Path) -> Result<PathBuf, TableError> {
    let csv_path = dir.join(format!("{}.csv", table.id));
    let file = csv_path.display().to_string();
    let fail =
        |e: &dyn std::fmt::Display| TableError::new(&file, TableErrorKind::Write(e.to_string()));
    if !valid_id(&table.id) {
        return Err(fail(&format!(
            "invalid table id {:?} for a file name",
            table.id
        )));
    }
    std::fs::create_dir_all(dir).map_err(|e| fail(&e))?;
    let mut writer = csv::Writer::from_path(&csv_path).map_err(|e| fail(&e))?;
    let header = std::iter::once(table.index.name.as_str())
        .chain(table.series.iter().map(|c| c.name.as_str()));
    writer.write_record(header).map_err(|e| fail(&e))?;
    for row in 0..table.n_rows() {
        let mut record = Vec::with_capacity(table.series.len() + 1);
        record.push(cell_text(&table.index.cells[row], &table.index));
        for column in &table.series {
            let cell = column.cells.get(row).unwrap_or(&Cell::Missing);
            record.push(cell_text(cell, column));
        }
        writer.write_record(&record).map_err(|e| fail(&e))?;
    }
    writer.flush().map_err(|e| fail(&e))?;
    let meta_path = dir.join(format!("{}.meta.json", table.id));
    // Whether rows are observations is read back from the rows themselves
    // (the numbered `Observation` column), not from the sidecar.
    let meta = TableMeta {
        samples: false,
        ..table.meta.clone()
    };
    if meta == TableMeta::default() {
        if meta_path.exists() {
            std::fs::remove_file(&meta_path).map_err(|e| fail(&e))?;
        }
    } else {
        let mut json = serde_json::to_string_pretty(&meta).map_err(|e| fail(&e))?;
        json.push('\n');
        std::fs::write(&meta_path, json).map_err(|e| fail(&e))?;
    }
    Ok(csv_path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(
        decimals: u8,
        prefix: Option<&str>,
        suffix: Option<&str>,
        thousands: bool,
    ) -> NumberFormat {
        NumberFormat {
            decimals,
            prefix: prefix.map(str::to_string),
            suffix: suffix.map(str::to_string),
            thousands,
        }
    }

    #[test]
    fn formats_like_the_input() {
        assert_eq!(format_value(3.2, &fmt(1, Some("$"), None, false)), "$3.2");
        assert_eq!(format_value(12.5, &fmt(1, None, Some("%"), false)), "12.5%");
        assert_eq!(format_value(1234.0, &fmt(0, None, None, true)), "1,234");
        assert_eq!(
            format_value(1_234_567.891, &fmt(2, None, None, true)),
            "1,234,567.89"
        );
        assert_eq!(format_value(123.0, &fmt(0, None, None, true)), "123");
        assert_eq!(
            format_value(-3.2, &fmt(2, Some("€"), None, false)),
            "-€3.20"
        );
        assert_eq!(format_value(-0.001, &fmt(1, None, None, false)), "0.0");
        assert_eq!(format_value(-4.0, &NumberFormat::default()), "-4");
        assert_eq!(format_value(1.2e6, &NumberFormat::default()), "1200000");
    }
}
