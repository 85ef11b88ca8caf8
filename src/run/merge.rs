//! Joining the runs that workers made on parts of one suite (`run --shard
//! K/N`) into one run, as if one worker had answered everything.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::{PREDICTIONS_FILE, RUN_FILE, RUNS_DIR, RunError, read_predictions};

/// What `merge_runs` wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct MergedRun {
    pub run_dir: PathBuf,
    pub predictions: usize,
    pub errors: usize,
}

fn run_json(dir: &Path) -> Result<serde_json::Value, RunError> {
    let path = dir.join(RUN_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| RunError::io(&path, e))?;
    serde_json::from_str(&text).map_err(|e| RunError::Config(format!("{}: {e}", path.display())))
}

/// Join `parts` (run names under `SUITE/runs/`) into run `name`. The parts
/// must share one configuration (adapter, model, prompt: their `config_id`)
/// and answer disjoint items; predictions are written in suite order.
pub fn merge_runs(suite: &Path, name: &str, parts: &[String]) -> Result<MergedRun, RunError> {
    super::check_run_name(name)?;
    if parts.is_empty() {
        return Err(RunError::Config("no runs to merge".into()));
    }
    if parts.iter().any(|p| p == name) {
        return Err(RunError::Config(format!(
            "run `{name}` cannot be one of its own parts"
        )));
    }
    let runs = suite.join(RUNS_DIR);
    let mut config: Option<(String, String)> = None;
    let mut first_info = None;
    let mut predictions = Vec::new();
    let mut owner: HashMap<String, String> = HashMap::new();
    for part in parts {
        let dir = runs.join(part);
        let info = run_json(&dir)?;
        let id = info["config_id"].as_str().unwrap_or_default().to_string();
        match &config {
            None => config = Some((part.clone(), id)),
            Some((first, want)) if *want != id => {
                return Err(RunError::Config(format!(
                    "runs `{first}` and `{part}` were made with other adapter or prompt settings; \
                     only parts of one run can be merged"
                )));
            }
            Some(_) => {}
        }
        if first_info.is_none() {
            first_info = Some(info);
        }
        for p in read_predictions(&dir.join(PREDICTIONS_FILE))? {
            if let Some(other) = owner.insert(p.id.clone(), part.clone()) {
                return Err(RunError::Config(format!(
                    "item {} is answered by both `{other}` and `{part}`: the parts overlap",
                    p.id
                )));
            }
            predictions.push(p);
        }
    }
    let items = super::suite_files::read_items(suite)?;
    let errors = predictions.iter().filter(|p| p.is_error()).count();
    let count = predictions.len();
    let mut info = first_info.expect("at least one part");
    info["name"] = json!(name);
    info["merged_from"] = json!(parts);
    info["selection"]["shard"] = serde_json::Value::Null;
    info["counts"] = json!({
        "predictions": count,
        "answered": count - errors,
        "errors": errors,
    });
    let run_dir = super::write_finished_run(suite, name, &items, predictions, &info)?;
    Ok(MergedRun {
        run_dir,
        predictions: count,
        errors,
    })
}
