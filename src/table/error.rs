//! The one error type of the table stage: where (file, line, column) plus what.

use std::fmt;

/// A column as a person finds it in the file: 1-based position and header name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnRef {
    pub number: usize,
    pub name: String,
}

impl ColumnRef {
    pub fn new(index0: usize, name: &str) -> Self {
        Self {
            number: index0 + 1,
            name: name.to_string(),
        }
    }
}

impl fmt::Display for ColumnRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.name.is_empty() {
            write!(f, "column {}", self.number)
        } else {
            write!(f, "column {} ({:?})", self.number, self.name)
        }
    }
}

/// Why a table could not be loaded or written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableErrorKind {
    #[error("cannot read: {0}")]
    Io(String),
    #[error("cannot write: {0}")]
    Write(String),
    #[error("unsupported file type (expected .csv, .tsv or .json)")]
    UnsupportedFormat,
    #[error("this is a metadata sidecar, not a table")]
    SidecarGiven,
    #[error("invalid UTF-8")]
    InvalidUtf8,
    #[error("malformed CSV: {0}")]
    Csv(String),
    #[error("malformed JSON: {0}")]
    Json(String),
    #[error("unexpected JSON shape: {0}")]
    JsonShape(String),
    #[error("a cell holds a JSON array or object; cells must be strings, numbers or null")]
    NestedValue,
    #[error("row has {found} cells but the header has {expected}")]
    Ragged { expected: usize, found: usize },
    #[error("the table has no data rows")]
    NoRows,
    #[error("the table has no series columns (only an index column)")]
    NoSeries,
    #[error("no column holds numbers to chart ({detail})")]
    NoNumbers { detail: String },
    #[error("the file name gives no usable table id ({id:?}): rename the file")]
    BadFileName { id: String },
    #[error(
        "value {value:?} is outside the range a chart can show (non-zero magnitudes from 1e-6 to 1e15): rescale the column and state its unit in the sidecar"
    )]
    OutOfRange { value: String },
    #[error("empty column header")]
    EmptyHeader,
    #[error("duplicate column header {name:?} (first used by column {first})")]
    DuplicateHeader { name: String, first: usize },
    #[error("non-numeric value {value:?} in a numeric series")]
    NonNumeric { value: String },
    #[error("value {value:?} is not a finite number (NaN and infinity cannot be charted)")]
    NonFinite { value: String },
    #[error("value {value:?} uses unit {found:?} but the column uses {expected:?}")]
    MixedUnits {
        value: String,
        expected: String,
        found: String,
    },
    #[error("every cell of the column is missing")]
    AllMissing,
    #[error("missing category label in the index column")]
    MissingLabel,
    #[error("duplicate category {label:?} (first on line {first_line})")]
    DuplicateLabel { label: String, first_line: u64 },
    #[error(
        "duplicate (category, series) pair ({category:?}, {series:?}) in a long table (first on line {first_line})"
    )]
    DuplicatePair {
        category: String,
        series: String,
        first_line: u64,
    },
    #[error("missing series name in a long table")]
    MissingSeriesName,
    #[error("{count} categories is more than a chart can show (at most {max})")]
    TooManyCategories { count: usize, max: usize },
    #[error("{count} series is more than a chart can show (at most {max})")]
    TooManySeries { count: usize, max: usize },
    #[error("more than {max} rows: too large for a chart")]
    TooManyRows { max: usize },
    #[error("bad metadata sidecar: {0}")]
    Sidecar(String),
    #[error("table id {id:?} is also used by {other}")]
    DuplicateId { id: String, other: String },
    #[error("not a long table: {0}")]
    NotLong(String),
}

/// A table error. Its Display always starts with the file, then the line and
/// column where they apply: `data/x.csv: line 4, column 3 ("sales"): ...`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {kind}", self.location())]
pub struct TableError {
    /// The file as given (or the table id for in-memory tables).
    pub file: String,
    /// 1-based line in the file, counting the header.
    pub line: Option<u64>,
    /// 1-based column (for CSV/TSV/JSON cells), with its header name.
    pub column: Option<ColumnRef>,
    /// For invalid UTF-8 and malformed JSON: the 1-based character column on the line.
    pub char_column: Option<u64>,
    /// Boxed to keep `Result<_, TableError>` small.
    pub kind: Box<TableErrorKind>,
}

impl TableError {
    pub fn new(file: impl Into<String>, kind: TableErrorKind) -> Self {
        Self {
            file: file.into(),
            line: None,
            column: None,
            char_column: None,
            kind: Box::new(kind),
        }
    }

    pub fn at_line(mut self, line: u64) -> Self {
        self.line = Some(line);
        self
    }

    pub fn at_column(mut self, column: ColumnRef) -> Self {
        self.column = Some(column);
        self
    }

    pub fn at_char(mut self, char_column: u64) -> Self {
        self.char_column = Some(char_column);
        self
    }

    fn location(&self) -> String {
        let mut parts = Vec::new();
        if let Some(line) = self.line {
            parts.push(format!("line {line}"));
        }
        if let Some(c) = self.char_column {
            parts.push(format!("column {c}"));
        }
        if let Some(col) = &self.column {
            parts.push(col.to_string());
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!(": {}", parts.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_file_line_and_column() {
        let e = TableError::new(
            "data/x.csv",
            TableErrorKind::NonNumeric {
                value: "abc".into(),
            },
        )
        .at_line(4)
        .at_column(ColumnRef::new(2, "sales"));
        assert_eq!(
            e.to_string(),
            "data/x.csv: line 4, column 3 (\"sales\"): non-numeric value \"abc\" in a numeric series"
        );
        let e = TableError::new("y.json", TableErrorKind::NoRows);
        assert_eq!(e.to_string(), "y.json: the table has no data rows");
    }
}
