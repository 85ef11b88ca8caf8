//! Reading a suite's items and a run's predictions, tolerant where the
//! pipeline can legitimately leave damage (a torn last prediction line).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::ir::suite::{ITEMS_FILE, RUNS_DIR, SUITE_MANIFEST};
use crate::ir::{Item, Prediction, SuiteManifest};

use super::ReportError;

pub const PREDICTIONS_FILE: &str = "predictions.jsonl";
pub const RUN_INFO_FILE: &str = "run.json";

/// Every item of the suite, in file order. Any malformed line is an error:
/// a corrupted suite would give silently wrong numbers.
pub fn read_items(suite: &Path) -> Result<Vec<Item>, ReportError> {
    let path = suite.join(ITEMS_FILE);
    let text = fs::read_to_string(&path).map_err(|e| ReportError::Io {
        path: path.clone(),
        message: e.to_string(),
    })?;
    let mut items = Vec::new();
    for (idx, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let item: Item = serde_json::from_str(line).map_err(|e| ReportError::Parse {
            path: path.clone(),
            line: idx + 1,
            column: e.column(),
            message: e.to_string(),
        })?;
        items.push(item);
    }
    if items.is_empty() {
        return Err(ReportError::NoItems(path));
    }
    Ok(items)
}

/// `suite.json`, when present and readable.
pub fn read_manifest(suite: &Path) -> Option<SuiteManifest> {
    let text = fs::read_to_string(suite.join(SUITE_MANIFEST)).ok()?;
    serde_json::from_str(&text).ok()
}

/// Run names under `SUITE/runs/` that have a predictions file, sorted.
pub fn list_runs(suite: &Path) -> Vec<String> {
    let Ok(entries) = fs::read_dir(suite.join(RUNS_DIR)) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().join(PREDICTIONS_FILE).is_file())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    names.sort();
    names
}

pub fn run_dir(suite: &Path, run: &str) -> PathBuf {
    suite.join(RUNS_DIR).join(run)
}

/// A run's predictions by item id (a later line for the same id wins, as a
/// resumed run appends retries), with warnings for skipped lines.
pub struct RunData {
    pub predictions: BTreeMap<String, Prediction>,
    pub info: serde_json::Value,
    pub warnings: Vec<String>,
    /// Lines that were neither a prediction nor a torn last line.
    pub malformed_lines: usize,
}

pub fn read_run(suite: &Path, run: &str) -> Result<RunData, ReportError> {
    let dir = run_dir(suite, run);
    let path = dir.join(PREDICTIONS_FILE);
    if !path.is_file() {
        return Err(ReportError::MissingRun {
            run: run.to_string(),
            path,
        });
    }
    let text = fs::read_to_string(&path).map_err(|e| ReportError::Io {
        path: path.clone(),
        message: e.to_string(),
    })?;
    let mut predictions = BTreeMap::new();
    let mut warnings = Vec::new();
    // Warnings name files relative to the suite, so reports stay portable.
    let shown = Path::new(RUNS_DIR).join(run).join(PREDICTIONS_FILE);
    let mut malformed_lines = 0;
    let lines: Vec<&str> = text.split('\n').collect();
    let last_content = lines.iter().rposition(|l| !l.trim().is_empty());
    for (idx, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Prediction>(line) {
            Ok(p) => {
                predictions.insert(p.id.clone(), p);
            }
            // A torn last line is what an interrupted run leaves behind.
            Err(_) if Some(idx) == last_content && !text.ends_with('\n') => {
                warnings.push(format!(
                    "{}:{}: torn last line ignored",
                    shown.display(),
                    idx + 1
                ));
            }
            Err(e) => {
                malformed_lines += 1;
                warnings.push(format!(
                    "{}:{}:{}: skipped malformed prediction: {e}",
                    shown.display(),
                    idx + 1,
                    e.column()
                ));
            }
        }
    }
    let info_path = dir.join(RUN_INFO_FILE);
    let info = match fs::read_to_string(&info_path) {
        Ok(t) => serde_json::from_str(&t).unwrap_or_else(|e| {
            warnings.push(format!(
                "{}: unreadable run info: {e}",
                Path::new(RUNS_DIR).join(run).join(RUN_INFO_FILE).display()
            ));
            serde_json::Value::Null
        }),
        Err(_) => serde_json::Value::Null,
    };
    // A run written by an older version may hold a secret in its settings.
    let mut info = crate::secrets::redact_json_fields(&info);
    crate::secrets::Secrets::default()
        .with_environment([])
        .redact_json(&mut info);
    Ok(RunData {
        predictions,
        info,
        warnings,
        malformed_lines,
    })
}
