//! lmms-eval: a suite as a task folder (`--include_path DIR`), and the
//! samples lmms-eval logs with `--log_samples` back as a run.
//!
//! The folder holds the Hugging Face export (`data/*.parquet`, `README.md`),
//! one task YAML per item set (`chartstress_<set>`) and one over every set
//! (`chartstress`), and `utils.py` with the functions the YAMLs name. The
//! tasks load the Parquet files through `datasets`' `parquet` builder with
//! `data_files` given as absolute paths: lmms-eval passes them to
//! `load_dataset` unchanged, which resolves relative ones against the
//! working directory, not the YAML's folder.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::hf::{self, Exported};
use super::{ImportSummary, InteropError, io_error};
use crate::ir::Item;
use crate::run::suite_files::read_items;

/// Task name prefix: `chartstress` (all sets) and `chartstress_<set>`.
pub const TASK: &str = "chartstress";

/// The Python side: lmms-eval imports it from the task folder.
const UTILS_PY: &str = include_str!("../../templates/interop/lmms_eval_utils.py");

/// What an lmms-eval export wrote: the dataset and the task names.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskExport {
    pub data: Exported,
    pub tasks: Vec<String>,
}

fn yaml_string(s: &str) -> String {
    // A JSON string is a valid YAML double-quoted scalar.
    serde_json::to_string(s).unwrap_or_default()
}

fn task_yaml(task: &str, files: &[PathBuf], fingerprint: &str) -> String {
    let mut s = format!(
        "# Written by `chartstress export --format lmms-eval`.\n\
task: {task}\n\
dataset_path: parquet\n\
dataset_kwargs:\n  data_files:\n    test:\n"
    );
    for f in files {
        s.push_str(&format!(
            "    - {}\n",
            yaml_string(&f.display().to_string())
        ));
    }
    s.push_str(&format!(
        "test_split: test\n\
output_type: generate_until\n\
doc_to_visual: !function utils.chartstress_doc_to_visual\n\
doc_to_text: !function utils.chartstress_doc_to_text\n\
doc_to_target: answer\n\
generation_kwargs:\n  max_new_tokens: 512\n  temperature: 0\n  do_sample: false\n\
process_results: !function utils.chartstress_process_results\n\
metric_list:\n  - metric: relaxed_accuracy\n    aggregation: mean\n    higher_is_better: true\n\
metadata:\n  version: 1.0\n  suite_fingerprint: {}\n",
        yaml_string(fingerprint)
    ));
    s
}

/// Write the lmms-eval task folder `out`.
pub fn export(suite: &Path, out: &Path) -> Result<TaskExport, InteropError> {
    let data = hf::export(suite, out)?;
    // The YAMLs name the data by absolute path (see the module comment).
    let abs = std::path::absolute(out).map_err(|e| io_error(out, e))?;
    let manifest = crate::suite::read_manifest(suite)?;
    let mut tasks = Vec::new();
    let mut write = |task: String, files: Vec<PathBuf>| -> Result<(), InteropError> {
        let path = out.join(format!("{task}.yaml"));
        std::fs::write(&path, task_yaml(&task, &files, &manifest.fingerprint))
            .map_err(|e| io_error(&path, e))?;
        tasks.push(task);
        Ok(())
    };
    let all: Vec<PathBuf> = data.splits.iter().map(|s| abs.join(&s.file)).collect();
    write(TASK.to_string(), all)?;
    for split in &data.splits {
        write(
            format!("{TASK}_{}", split.name),
            vec![abs.join(&split.file)],
        )?;
    }
    let utils = out.join("utils.py");
    std::fs::write(&utils, UTILS_PY).map_err(|e| io_error(&utils, e))?;
    Ok(TaskExport { data, tasks })
}

/// Item ids in the order a task's `doc_id` counts: all sets for
/// `chartstress`, one set for `chartstress_<set>`.
fn task_ids(items: &[Item], task: &str) -> Option<Vec<String>> {
    let by_set = hf::items_by_set(items);
    let chosen: Vec<&Item> = if task == TASK {
        by_set.into_iter().flat_map(|(_, v)| v).collect()
    } else {
        let set = task.strip_prefix(TASK)?.strip_prefix('_')?;
        by_set
            .into_iter()
            .find(|(s, _)| s.name() == set)
            .map(|(_, v)| v)?
    };
    Some(chosen.into_iter().map(|i| i.id.clone()).collect())
}

/// The task a samples file belongs to, from lmms-eval's file name
/// `<date>_samples_<task>.jsonl`.
fn task_of_file(file: &Path) -> Option<String> {
    let stem = file.file_stem()?.to_str()?;
    let at = stem.rfind("_samples_")?;
    Some(stem[at + "_samples_".len()..].to_string())
}

/// The reply of one record: `filtered_resps` (a string since lmms-eval
/// flattens single responses, or `[reply]` in older logs), else `resps`
/// (`[reply]` or `[[reply]]`).
fn reply_of(record: &Value) -> Option<String> {
    fn first_string(v: &Value) -> Option<String> {
        match v {
            Value::String(s) => Some(s.clone()),
            Value::Array(a) => a.first().and_then(first_string),
            _ => None,
        }
    }
    ["filtered_resps", "resps"]
        .iter()
        .find_map(|k| record.get(*k).and_then(first_string))
}

/// Replies by item id from lmms-eval samples files, and the records that
/// matched no item ("FILE line N").
pub fn read_replies(files: &[PathBuf], items: &[Item]) -> Result<super::Replies, InteropError> {
    let mut replies = Vec::new();
    let mut unmatched = Vec::new();
    for file in files {
        let format = |line: usize, msg: String| InteropError::Format {
            path: file.clone(),
            msg: format!("line {line}: {msg}"),
        };
        let ids = task_of_file(file).and_then(|t| task_ids(items, &t));
        let f = std::fs::File::open(file).map_err(|e| io_error(file, e))?;
        for (k, line) in BufReader::new(f).lines().enumerate() {
            let n = k + 1;
            let line = line.map_err(|e| io_error(file, e))?;
            if line.trim().is_empty() {
                continue;
            }
            let record: Value =
                serde_json::from_str(&line).map_err(|e| format(n, e.to_string()))?;
            let reply = reply_of(&record).ok_or_else(|| {
                format(
                    n,
                    "no reply in `filtered_resps` or `resps` (is this an lmms-eval samples file?)"
                        .into(),
                )
            })?;
            let by_doc = record
                .get("doc")
                .and_then(|d| d.get("id"))
                .and_then(Value::as_str)
                .map(str::to_string);
            let id = match by_doc {
                Some(id) => Some(id),
                None => {
                    let doc_id = record
                        .get("doc_id")
                        .and_then(Value::as_u64)
                        .ok_or_else(|| format(n, "neither `doc.id` nor `doc_id`".into()))?
                        as usize;
                    let Some(ids) = &ids else {
                        return Err(format(
                            n,
                            "no `doc.id`, and the file name does not name a chartstress task \
                             (`<date>_samples_chartstress[_<set>].jsonl`), so `doc_id` cannot be \
                             matched"
                                .into(),
                        ));
                    };
                    ids.get(doc_id).cloned()
                }
            };
            match id {
                Some(id) => replies.push((id, reply)),
                // The CLI's warning names the files already: the name tells which.
                None => unmatched.push(format!(
                    "{} line {n}",
                    file.file_name().unwrap_or_default().to_string_lossy()
                )),
            }
        }
    }
    Ok((replies, unmatched))
}

/// Import lmms-eval samples files as `SUITE/runs/NAME/`.
pub fn import(
    suite: &Path,
    files: &[PathBuf],
    name: &str,
) -> Result<(PathBuf, ImportSummary), InteropError> {
    let items = read_items(suite)?;
    let replies = read_replies(files, &items)?;
    super::finish_import(suite, name, "lmms-eval", files, &items, replies)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn replies_in_every_layout_lmms_eval_logs() {
        assert_eq!(reply_of(&json!({"filtered_resps": "4"})), Some("4".into()));
        assert_eq!(
            reply_of(&json!({"filtered_resps": ["4"]})),
            Some("4".into())
        );
        assert_eq!(reply_of(&json!({"resps": [["4"]]})), Some("4".into()));
        assert_eq!(
            reply_of(&json!({"filtered_resps": [], "resps": ["5"]})),
            Some("5".into())
        );
        assert_eq!(reply_of(&json!({"doc_id": 0})), None);
    }

    #[test]
    fn task_from_the_samples_file_name() {
        let t = |p: &str| task_of_file(Path::new(p));
        assert_eq!(
            t("logs/m/20261202_101010_samples_chartstress_modified_chart.jsonl"),
            Some("chartstress_modified_chart".into())
        );
        assert_eq!(t("samples.jsonl"), None);
    }
}
