//! Table: named, typed columns (an index column plus series columns) and metadata.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The type inferred for a whole column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColumnType {
    Number,
    Year,
    Date,
    Text,
    /// Every cell is missing.
    Missing,
}

/// One cell. Years and dates keep their own variants so that questions about
/// them are answered as years ("2019"), not as numbers ("2,019").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", content = "v", rename_all = "snake_case")]
pub enum Cell {
    Number(f64),
    Year(i32),
    /// ISO 8601 date (`YYYY-MM-DD` or `YYYY-MM`), as normalised from the input.
    Date(String),
    Text(String),
    Missing,
}

impl Cell {
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Cell::Number(v) => Some(*v),
            Cell::Year(y) => Some(f64::from(*y)),
            _ => None,
        }
    }

    pub fn is_missing(&self) -> bool {
        matches!(self, Cell::Missing)
    }
}

/// How the numbers of a column were printed in the input, so that answers and
/// labels can be printed the same way (`$3.2`, `12.5%`, `1,234`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NumberFormat {
    /// Largest number of decimals seen in the column.
    pub decimals: u8,
    /// A unit printed before the number, e.g. `$` or `€`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
    /// A unit printed after the number, e.g. `%`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suffix: Option<String>,
    /// Whether the input used thousands separators.
    #[serde(default)]
    pub thousands: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Column {
    pub name: String,
    pub ctype: ColumnType,
    #[serde(default)]
    pub format: NumberFormat,
    pub cells: Vec<Cell>,
}

impl Column {
    pub fn values(&self) -> Vec<Option<f64>> {
        self.cells.iter().map(Cell::as_f64).collect()
    }
}

/// Optional metadata from a `NAME.meta.json` sidecar (or synthesized).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TableMeta {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// A line printed under the title, as news and report charts print one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtitle: Option<String>,
    /// A note printed under the chart as "Note: …".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub footnote: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x_label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y_label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// An accompanying text paragraph (facts not in the chart may live here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paragraph: Option<String>,
    /// The one quantity every series measures (e.g. the value column of a
    /// long table): the series share a value axis.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measure: Option<String>,
    /// Units of single series, where they differ from `unit` or it is absent.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub units: BTreeMap<String, String>,
    /// Whether the series add up to a whole (counts, amounts, shares); None
    /// leaves it to the names and units.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additive: Option<bool>,
    /// How the file was shaped into this table (columns left out, pivots,
    /// aggregation, selections), for the person who brought it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The rows are observations, not categories: each series is a group
    /// of raw samples (ragged groups end in missing cells) and the index
    /// only numbers them. Such tables are drawn as distributions. The
    /// loader sets it from the rows' shape; sidecars do not carry it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub samples: bool,
}

/// The measure loading records when year columns become rows and nothing
/// names what their cells hold.
pub const UNNAMED_MEASURE: &str = "value";

impl TableMeta {
    /// The measure when it names something: not empty, not the placeholder
    /// [`UNNAMED_MEASURE`].
    pub fn named_measure(&self) -> Option<&str> {
        self.measure
            .as_deref()
            .map(str::trim)
            .filter(|m| !m.is_empty() && !m.eq_ignore_ascii_case(UNNAMED_MEASURE))
    }

    /// The unit of one series: its own, else the table's.
    pub fn unit_of(&self, series: &str) -> Option<&str> {
        self.units
            .get(series)
            .or(self.unit.as_ref())
            .map(String::as_str)
            .filter(|u| !u.trim().is_empty())
    }
}

/// A wide table: one index column (categories, years or dates) and one column
/// per series. Long tables are pivoted to this form on load.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// Stable id: the file stem for loaded tables, a seeded name for synthesized ones.
    pub id: String,
    /// Path the table was read from, as given on the command line, for error
    /// messages. Never serialized: a spec (and so a chart id) must not depend
    /// on where the file lay or how its path was spelled.
    #[serde(skip)]
    pub source_path: Option<String>,
    #[serde(default)]
    pub meta: TableMeta,
    pub index: Column,
    pub series: Vec<Column>,
}

impl Table {
    pub fn n_rows(&self) -> usize {
        self.index.cells.len()
    }

    pub fn series(&self, name: &str) -> Option<&Column> {
        self.series.iter().find(|c| c.name == name)
    }

    pub fn series_names(&self) -> Vec<&str> {
        self.series.iter().map(|c| c.name.as_str()).collect()
    }

    /// The index labels as they are printed on the chart.
    pub fn category_labels(&self) -> Vec<String> {
        self.index.cells.iter().map(cell_label).collect()
    }

    /// Row of the category whose printed label is `label`.
    pub fn row_of(&self, label: &str) -> Option<usize> {
        self.index.cells.iter().position(|c| cell_label(c) == label)
    }

    pub fn value(&self, series: &str, row: usize) -> Option<f64> {
        self.series(series)?.cells.get(row)?.as_f64()
    }
}

/// The label of an index cell as printed (years without separators, dates as given).
pub fn cell_label(cell: &Cell) -> String {
    match cell {
        Cell::Number(v) => {
            if v.fract() == 0.0 && v.abs() < 1e15 {
                format!("{}", *v as i64)
            } else {
                format!("{v}")
            }
        }
        Cell::Year(y) => y.to_string(),
        Cell::Date(d) => d.clone(),
        Cell::Text(t) => t.clone(),
        Cell::Missing => String::new(),
    }
}
