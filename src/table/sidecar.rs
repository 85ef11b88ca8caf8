//! The `NAME.meta.json` sidecar: metadata for the chart and directives for
//! shaping the file into a table.

use super::clean::{MAX_TEXT_CHARS, clean_text};
use super::error::{TableError, TableErrorKind};
use super::read;
use crate::ir::TableMeta;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub(crate) const SIDECAR_SUFFIX: &str = ".meta.json";

/// `unit` is one unit for every series, or an object of units per series.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum UnitField {
    All(String),
    PerSeries(BTreeMap<String, String>),
}

/// The sidecar keys; anything else is an error so that typos do not vanish.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SidecarFile {
    title: Option<String>,
    subtitle: Option<String>,
    /// Printed under the chart; `note` is the same key.
    #[serde(alias = "note")]
    footnote: Option<String>,
    x_label: Option<String>,
    y_label: Option<String>,
    unit: Option<UnitField>,
    units: Option<BTreeMap<String, String>>,
    source: Option<String>,
    paragraph: Option<String>,
    index: Option<String>,
    series: Option<Vec<String>>,
    additive: Option<bool>,
    measure: Option<String>,
    notes: Option<Vec<String>>,
}

/// What a sidecar says: the metadata, and which columns to chart.
#[derive(Debug, Clone, Default)]
pub struct Sidecar {
    pub meta: TableMeta,
    /// The column that labels the rows (categories, years or dates).
    pub index: Option<String>,
    /// The columns to chart as series, in this order.
    pub series: Option<Vec<String>>,
}

fn non_blank(s: Option<String>) -> Option<String> {
    text(s, MAX_TEXT_CHARS)
}

/// A sidecar text as a chart may print it (see `clean`), blank as absent.
fn text(s: Option<String>, max_chars: usize) -> Option<String> {
    s.map(|s| clean_text(&s, max_chars).0)
        .filter(|s| !s.is_empty())
}

/// An accompanying paragraph may be long, but not unbounded.
const MAX_PARAGRAPH_CHARS: usize = 4000;

/// The sidecar path of a table: `dir/NAME.csv` → `dir/NAME.meta.json`.
pub fn sidecar_path(path: &Path) -> Option<PathBuf> {
    let stem = path.file_stem()?.to_str()?;
    Some(path.with_file_name(format!("{stem}{SIDECAR_SUFFIX}")))
}

pub(crate) fn is_sidecar(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.to_ascii_lowercase().ends_with(SIDECAR_SUFFIX))
}

/// The sidecar of a table file, or an empty one when there is none.
pub(crate) fn load_sidecar(path: &Path) -> Result<Sidecar, TableError> {
    let Some(meta_path) = sidecar_path(path) else {
        return Ok(Sidecar::default());
    };
    let file = meta_path.display().to_string();
    let bytes = match std::fs::read(&meta_path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Sidecar::default()),
        Err(e) => return Err(TableError::new(file, TableErrorKind::Io(e.to_string()))),
    };
    let value = read::parse_json(&bytes, &file).map_err(|mut e| {
        if let TableErrorKind::Json(m) = &*e.kind {
            e.kind = Box::new(TableErrorKind::Sidecar(format!("malformed JSON: {m}")));
        }
        e
    })?;
    if !value.is_object() {
        return Err(TableError::new(
            file,
            TableErrorKind::Sidecar("expected a JSON object".into()),
        ));
    }
    // Parsed again from the bytes (not the Value) so errors keep their position.
    let sidecar: SidecarFile = serde_json::from_slice(&bytes).map_err(|e| {
        let message = e.to_string();
        let message = message
            .rfind(" at line ")
            .map_or(message.as_str(), |i| &message[..i]);
        let message = if message.starts_with("data did not match any variant") {
            "\"unit\" must be a string or an object of series names to units"
        } else {
            message
        };
        TableError::new(&file, TableErrorKind::Sidecar(message.to_string()))
            .at_line(e.line() as u64)
            .at_char(e.column() as u64)
    })?;
    let (unit, mut units) = match sidecar.unit {
        Some(UnitField::All(u)) => (non_blank(Some(u)), BTreeMap::new()),
        Some(UnitField::PerSeries(map)) => (None, map),
        None => (None, BTreeMap::new()),
    };
    units.extend(sidecar.units.unwrap_or_default());
    units.retain(|_, u| !u.trim().is_empty());
    let series = sidecar.series.map(|s| {
        s.into_iter()
            .map(|n| n.trim().to_string())
            .collect::<Vec<_>>()
    });
    if series.as_ref().is_some_and(Vec::is_empty) {
        return Err(TableError::new(
            file,
            TableErrorKind::Sidecar("\"series\" names no column".into()),
        ));
    }
    Ok(Sidecar {
        meta: TableMeta {
            title: non_blank(sidecar.title),
            subtitle: non_blank(sidecar.subtitle),
            footnote: non_blank(sidecar.footnote),
            x_label: non_blank(sidecar.x_label),
            y_label: non_blank(sidecar.y_label),
            unit,
            source: non_blank(sidecar.source),
            paragraph: text(sidecar.paragraph, MAX_PARAGRAPH_CHARS),
            units,
            additive: sidecar.additive,
            measure: non_blank(sidecar.measure),
            notes: sidecar.notes.unwrap_or_default(),
            // Set by the loader from the rows' shape, never by a sidecar.
            samples: false,
        },
        index: non_blank(sidecar.index),
        series,
    })
}
