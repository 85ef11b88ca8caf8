//! A fixture CSV (or TSV) read with the csv crate alone, not the library:
//! index labels and each series' cells as printed numbers ("$1,200", "1.2%"
//! → 1200, 1.2; "−3" → -3; empty → None), for checks independent of the table code.

use std::collections::BTreeMap;
use std::path::Path;

pub struct PrintedCsv {
    pub index: Vec<String>,
    /// Series names in the file's column order.
    pub columns: Vec<String>,
    pub series: BTreeMap<String, Vec<Option<f64>>>,
}

impl PrintedCsv {
    /// Every series in column order, each cell a number (panics on an empty
    /// cell: for tables known to be complete).
    pub fn complete_columns(&self) -> Vec<(String, Vec<f64>)> {
        self.columns
            .iter()
            .map(|c| {
                let cells = self.series[c]
                    .iter()
                    .map(|v| v.unwrap_or_else(|| panic!("{c}: an empty cell")))
                    .collect();
                (c.clone(), cells)
            })
            .collect()
    }
}

/// `file` is a name under `fixtures/`, with its extension.
pub fn read(file: &str) -> PrintedCsv {
    read_path(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(file),
    )
}

/// A CSV or TSV (by extension) anywhere.
pub fn read_path(path: &Path) -> PrintedCsv {
    let delimiter = if path.extension().is_some_and(|e| e == "tsv") {
        b'\t'
    } else {
        b','
    };
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .from_path(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let headers: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(|h| h.trim().trim_start_matches('\u{feff}').to_string())
        .collect();
    let mut index = Vec::new();
    let mut series: BTreeMap<String, Vec<Option<f64>>> = BTreeMap::new();
    for row in reader.records() {
        let row = row.unwrap();
        index.push(row[0].trim().to_string());
        for (h, cell) in headers.iter().zip(row.iter()).skip(1) {
            // "−310" (a Unicode minus) is as negative as "-310".
            let digits: String = cell
                .replace('\u{2212}', "-")
                .chars()
                .filter(|c| c.is_ascii_digit() || matches!(c, '.' | '-'))
                .collect();
            series
                .entry(h.clone())
                .or_default()
                .push(digits.parse().ok());
        }
    }
    PrintedCsv {
        index,
        columns: headers[1..].to_vec(),
        series,
    }
}

/// Index labels and every column of a complete CSV in file order, as
/// printed numbers.
pub fn read_complete(path: &Path) -> (Vec<String>, Vec<(String, Vec<f64>)>) {
    let csv = read_path(path);
    let columns = csv.complete_columns();
    (csv.index, columns)
}
