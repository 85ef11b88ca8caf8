//! Exchange with other evaluation harnesses: a suite written in a harness's
//! dataset format, and that harness's prediction file turned back into a run
//! folder, so `report` and `check` work on predictions made elsewhere.

pub mod hf;
pub mod inspect;
pub mod lmms_eval;
pub mod vlmevalkit;

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::ir::{Item, Prediction};

#[derive(Debug, thiserror::Error)]
pub enum InteropError {
    #[error("{}: {msg}", .path.display())]
    Io { path: PathBuf, msg: String },
    #[error("{}: {msg}", .path.display())]
    Format { path: PathBuf, msg: String },
    #[error(transparent)]
    Run(#[from] crate::run::RunError),
    #[error(transparent)]
    Suite(#[from] crate::suite::SuiteError),
    #[error("{0}")]
    Prompt(String),
}

pub(crate) fn io_error(path: &Path, e: impl std::fmt::Display) -> InteropError {
    InteropError::Io {
        path: path.to_path_buf(),
        msg: e.to_string(),
    }
}

/// What an import found besides the predictions it wrote.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ImportSummary {
    pub imported: usize,
    /// Records whose id is not an item of the suite.
    pub unknown: Vec<String>,
    /// Ids given more than once (the first record is kept).
    pub duplicates: Vec<String>,
    /// Items of the suite with no record.
    pub missing: usize,
}

/// Predictions from raw replies, answers extracted as `run` extracts them;
/// unknown and repeated ids are counted, not imported.
pub fn predictions_from_replies(
    items: &[Item],
    replies: Vec<(String, String)>,
) -> (Vec<Prediction>, ImportSummary) {
    let by_id: std::collections::HashMap<&str, &Item> =
        items.iter().map(|i| (i.id.as_str(), i)).collect();
    let mut seen = std::collections::HashSet::new();
    let mut summary = ImportSummary::default();
    let mut out = Vec::new();
    for (id, raw) in replies {
        let Some(item) = by_id.get(id.as_str()) else {
            summary.unknown.push(id);
            continue;
        };
        if !seen.insert(id.clone()) {
            summary.duplicates.push(id);
            continue;
        }
        out.push(Prediction {
            answer: crate::extract::extract(&raw),
            raw,
            id,
            latency_ms: 0.0,
            usage: None,
            error: None,
            attempts: 1,
            cached: false,
            item_hash: Some(item.content_hash()),
        });
    }
    summary.imported = out.len();
    summary.missing = items.len() - out.len();
    (out, summary)
}

/// Replies by item id, and the records that matched no item (named as the
/// harness's file lets them be: "row N", "FILE line N").
pub type Replies = (Vec<(String, String)>, Vec<String>);

/// The run made of replies read from a harness's files: answers extracted
/// as `run` extracts them; records that matched no item (`unmatched`)
/// reported with the unknown ids.
pub(crate) fn finish_import(
    suite: &Path,
    name: &str,
    harness: &str,
    files: &[PathBuf],
    items: &[Item],
    (replies, unmatched): Replies,
) -> Result<(PathBuf, ImportSummary), InteropError> {
    let (predictions, mut summary) = predictions_from_replies(items, replies);
    summary.unknown.extend(unmatched);
    let dir = write_run(suite, name, harness, files, items, predictions)?;
    Ok((dir, summary))
}

/// Write `SUITE/runs/NAME/` (predictions in suite order, and `run.json`
/// naming the harness and the files: `file` the first, `files` all when
/// there were several) so `report` and `check` read it like a run of their
/// own.
pub fn write_run(
    suite: &Path,
    name: &str,
    harness: &str,
    sources: &[PathBuf],
    items: &[Item],
    predictions: Vec<Prediction>,
) -> Result<PathBuf, InteropError> {
    let n = predictions.len();
    let first = sources
        .first()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let mut settings = json!({"adapter": format!("import:{harness}"), "file": first});
    if sources.len() > 1 {
        settings["files"] = sources
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .into();
    }
    let errors = predictions.iter().filter(|p| p.is_error()).count();
    let info = json!({
        "name": name,
        "status": "finished",
        "tool_version": crate::VERSION,
        "adapter": format!("import:{harness}"),
        "adapter_settings": settings,
        "prompt": {"strategy": "external", "template": harness, "execute_pot": false},
        "counts": {"selected": items.len(), "predictions": n, "answered": n - errors, "errors": errors},
    });
    Ok(crate::run::write_finished_run(
        suite,
        name,
        items,
        predictions,
        &info,
    )?)
}
