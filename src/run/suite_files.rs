//! Readers for the suite files the run stage needs (`items.jsonl`,
//! `charts.jsonl`); errors name the file, line and column.

use std::io::{BufRead, BufReader};
use std::path::Path;

use serde::de::DeserializeOwned;

use crate::ir::suite::{CHARTS_FILE, ITEMS_FILE};
use crate::ir::{ChartRecord, Item};

use super::RunError;

/// Every record of a JSON-lines file; blank lines are skipped.
pub fn read_jsonl<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>, RunError> {
    let file = std::fs::File::open(path).map_err(|e| RunError::io(path, e))?;
    let mut out = Vec::new();
    for (k, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| RunError::io(path, e))?;
        if line.trim().is_empty() {
            continue;
        }
        let record = serde_json::from_str(&line).map_err(|e| RunError::Parse {
            path: path.display().to_string(),
            line: k + 1,
            column: e.column(),
            message: e.to_string(),
        })?;
        out.push(record);
    }
    Ok(out)
}

pub fn read_items(suite: &Path) -> Result<Vec<Item>, RunError> {
    read_jsonl(&suite.join(ITEMS_FILE))
}

pub fn read_charts(suite: &Path) -> Result<Vec<ChartRecord>, RunError> {
    read_jsonl(&suite.join(CHARTS_FILE))
}
