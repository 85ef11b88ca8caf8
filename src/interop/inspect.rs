//! inspect_ai: a suite as a task folder, and an inspect eval log back as a run.
//!
//! The folder holds `dataset.jsonl` (one record per item: `id`, `input` = the
//! whole text chartstress's `direct` prompt sends, `target` = the gold answer,
//! `metadata`), the charts under `images/` as the suite names them, and
//! `chartstress_task.py`, whose task shows each sample as one user message
//! with the chart and the prompt text. Image paths are relative to the
//! folder, so it can be moved or copied to another machine.
//!
//! Logs are read in both of inspect's formats: `.eval` (a ZIP archive with
//! one `samples/ID_epoch_N.json` per sample) and `--log-format json` (one
//! object with a `samples` array). A log of several epochs gives one
//! prediction per item: the lowest epoch present, normally epoch 1.

use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use serde_json::{Value, json};

use super::{ImportSummary, InteropError, io_error};
use crate::prompt::{Prompter, Strategy};
use crate::run::suite_files::read_items;

/// The task file written next to the dataset.
pub const TASK_FILE: &str = "chartstress_task.py";
pub const DATASET_FILE: &str = "dataset.jsonl";
const TASK_TEMPLATE: &str = include_str!("../../templates/interop/inspect_task.py");

/// An item's image path, refused unless it stays inside the folder it is
/// relative to (a hand-edited items.jsonl must not make export write elsewhere).
fn relative_image(suite: &Path, id: &str, image: &str) -> Result<PathBuf, InteropError> {
    let path = Path::new(image);
    if path.as_os_str().is_empty() || !path.components().all(|c| matches!(c, Component::Normal(_)))
    {
        return Err(InteropError::Format {
            path: suite.join(crate::ir::suite::ITEMS_FILE),
            msg: format!("item {id}: image path {image:?} is not a plain relative path"),
        });
    }
    Ok(path.to_path_buf())
}

/// Write the task folder `out` for the suite; returns how many items.
pub fn export(suite: &Path, out: &Path) -> Result<usize, InteropError> {
    let items = read_items(suite)?;
    let prompter =
        Prompter::new(Strategy::Direct, None).map_err(|e| InteropError::Prompt(e.to_string()))?;
    std::fs::create_dir_all(out).map_err(|e| io_error(out, e))?;
    let mut dataset = String::new();
    // A chart carries several questions: copy each picture once.
    let mut copied = std::collections::HashSet::new();
    for item in &items {
        let image = relative_image(suite, &item.id, &item.image)?;
        if copied.insert(image.clone()) {
            let from = suite.join(&image);
            let to = out.join(&image);
            if let Some(dir) = to.parent() {
                std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
            }
            std::fs::copy(&from, &to).map_err(|e| io_error(&from, e))?;
        }
        let input = prompter
            .render(item)
            .map_err(|e| InteropError::Prompt(format!("item {}: {e}", item.id)))?;
        let axis = item
            .perturbations
            .first()
            .map_or("none".to_string(), |p| p.axis.clone());
        let record = json!({
            "id": item.id,
            "input": input,
            "target": item.answer_text,
            "metadata": {
                "set": item.set.name(),
                "family": item.family,
                "axis": axis,
                "pair_root": item.origin.as_deref().unwrap_or(&item.id),
                "image": item.image,
                "chart_id": item.chart_id,
                "question_type": item.question_type.name(),
                "answerable": item.answerable,
                // The typed gold answer and options: the task's scorer reads them.
                "answer": item.answer,
                "choices": item.choices,
            },
        });
        dataset.push_str(&record.to_string());
        dataset.push('\n');
    }
    let dataset_path = out.join(DATASET_FILE);
    std::fs::write(&dataset_path, dataset).map_err(|e| io_error(&dataset_path, e))?;
    let task_path = out.join(TASK_FILE);
    std::fs::write(&task_path, TASK_TEMPLATE).map_err(|e| io_error(&task_path, e))?;
    Ok(items.len())
}

/// One sample of a log: its id, epoch, reply text and inspect's error, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct LogSample {
    pub id: String,
    pub epoch: u64,
    pub reply: String,
    pub error: Option<String>,
}

/// Text of a message `content`: a string, or a list of parts whose `text`
/// parts are joined (reasoning and images are not the reply).
fn content_text(content: &Value) -> Option<String> {
    match content {
        Value::String(s) => Some(s.clone()),
        Value::Array(parts) => Some(
            parts
                .iter()
                .filter(|p| p["type"] == "text")
                .filter_map(|p| p["text"].as_str())
                .collect::<Vec<_>>()
                .join(""),
        ),
        _ => None,
    }
}

/// The fields of a logged sample the import reads. Deserializing into this
/// skips the rest (events, attachments, the input with its images), which
/// is most of a log's size.
#[derive(Debug, Default, serde::Deserialize)]
struct SampleFields {
    #[serde(default)]
    id: Value,
    #[serde(default)]
    epoch: Value,
    #[serde(default)]
    error: Value,
    #[serde(default)]
    output: Option<Value>,
    #[serde(default)]
    messages: Value,
}

/// An inspect JSON log, cut to what the import reads.
#[derive(Debug, serde::Deserialize)]
struct JsonLog {
    #[serde(default)]
    eval: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    samples: Option<Vec<SampleFields>>,
}

/// A sample record of either log format. `what` names it in errors.
fn parse_sample(file: &Path, what: &str, sample: &SampleFields) -> Result<LogSample, InteropError> {
    let format = |msg: String| InteropError::Format {
        path: file.to_path_buf(),
        msg: format!("{what}: {msg}"),
    };
    let id = match &sample.id {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return Err(format("no `id` (a string or number)".into())),
    };
    let epoch = match &sample.epoch {
        Value::Null => 1,
        v => v
            .as_u64()
            .ok_or_else(|| format(format!("sample {id}: `epoch` is not a whole number")))?,
    };
    let error = match &sample.error {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        e => Some(
            e["message"]
                .as_str()
                .map_or_else(|| e.to_string(), str::to_string),
        ),
    };
    let completion = sample
        .output
        .as_ref()
        .and_then(|o| o["completion"].as_str())
        .filter(|s| !s.is_empty());
    // Older logs and some providers leave `completion` empty: the last
    // assistant message holds the same reply.
    let from_messages = || {
        sample.messages.as_array().and_then(|msgs| {
            msgs.iter()
                .rev()
                .find(|m| m["role"] == "assistant")
                .and_then(|m| content_text(&m["content"]))
        })
    };
    let reply = match completion.map(str::to_string).or_else(from_messages) {
        Some(text) => text,
        // A sample inspect gave up on has no reply; the error says why.
        None if error.is_some() => String::new(),
        // An output without text (a refusal, a tool call): an empty reply.
        None if sample.output.is_some() => String::new(),
        None => {
            return Err(format(format!(
                "sample {id}: neither `output.completion` nor an assistant message"
            )));
        }
    };
    Ok(LogSample {
        id,
        epoch,
        reply,
        error,
    })
}

fn parse_json_log(file: &Path, reader: impl Read) -> Result<Vec<LogSample>, InteropError> {
    let format = |msg: String| InteropError::Format {
        path: file.to_path_buf(),
        msg,
    };
    let log: JsonLog = serde_json::from_reader(std::io::BufReader::new(reader))
        .map_err(|e| format(format!("not a JSON eval log: {e}")))?;
    if log.eval.is_none() {
        return Err(format(
            "no `eval` field (is this an inspect eval log?)".into(),
        ));
    }
    let samples = log.samples.ok_or_else(|| {
        format("the log holds no samples (was it written with --no-log-samples?)".into())
    })?;
    samples
        .iter()
        .enumerate()
        .map(|(i, s)| parse_sample(file, &format!("sample #{}", i + 1), s))
        .collect()
}

fn parse_eval_log(
    file: &Path,
    reader: impl Read + std::io::Seek,
) -> Result<Vec<LogSample>, InteropError> {
    let format = |msg: String| InteropError::Format {
        path: file.to_path_buf(),
        msg,
    };
    let mut zip = zip::ZipArchive::new(reader)
        .map_err(|e| format(format!("not an .eval log (ZIP archive): {e}")))?;
    let names: Vec<String> = zip.file_names().map(str::to_string).collect();
    if !names
        .iter()
        .any(|n| n == "header.json" || n == "_journal/start.json")
    {
        return Err(format(
            "no header.json or _journal/start.json (is this an inspect .eval log?)".into(),
        ));
    }
    // Sorted: the same log gives the same warnings in the same order.
    let mut sample_names: Vec<&String> = names
        .iter()
        .filter(|n| n.starts_with("samples/") && n.ends_with(".json"))
        .collect();
    sample_names.sort();
    if sample_names.is_empty() {
        return Err(format(
            "the log holds no samples (was it written with --no-log-samples?)".into(),
        ));
    }
    let mut out = Vec::with_capacity(sample_names.len());
    for name in sample_names {
        let entry = zip
            .by_name(name)
            .map_err(|e| format(format!("{name}: {e}")))?;
        let sample: SampleFields = serde_json::from_reader(std::io::BufReader::new(entry))
            .map_err(|e| format(format!("{name}: {e}")))?;
        out.push(parse_sample(file, name, &sample)?);
    }
    Ok(out)
}

/// The samples of an inspect eval log, `.eval` or JSON (told apart by the
/// ZIP signature, not the file name).
pub fn read_log(file: &Path) -> Result<Vec<LogSample>, InteropError> {
    use std::io::Seek;
    let mut f = std::fs::File::open(file).map_err(|e| io_error(file, e))?;
    let mut magic = [0u8; 4];
    let n = f.read(&mut magic).map_err(|e| io_error(file, e))?;
    f.rewind().map_err(|e| io_error(file, e))?;
    if magic[..n] == *b"PK\x03\x04" {
        parse_eval_log(file, std::io::BufReader::new(f))
    } else {
        parse_json_log(file, f)
    }
}

/// One sample per id, the lowest epoch; a second sample with the same id
/// and epoch is kept as a repeat for `predictions_from_replies` to report.
fn first_epoch(samples: Vec<LogSample>) -> Vec<LogSample> {
    let mut lowest: BTreeMap<&str, u64> = BTreeMap::new();
    for s in &samples {
        let e = lowest.entry(&s.id).or_insert(s.epoch);
        *e = (*e).min(s.epoch);
    }
    let lowest: HashMap<String, u64> = lowest
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    samples
        .into_iter()
        .filter(|s| lowest.get(&s.id) == Some(&s.epoch))
        .collect()
}

/// Import an inspect eval log as `SUITE/runs/NAME/`.
pub fn import(
    suite: &Path,
    file: &Path,
    name: &str,
) -> Result<(PathBuf, ImportSummary), InteropError> {
    let items = read_items(suite)?;
    let samples = first_epoch(read_log(file)?);
    let errors: HashMap<String, String> = samples
        .iter()
        .filter_map(|s| s.error.clone().map(|e| (s.id.clone(), e)))
        .collect();
    let replies = samples.into_iter().map(|s| (s.id, s.reply)).collect();
    let (mut predictions, summary) = super::predictions_from_replies(&items, replies);
    // A sample inspect errored on counts as an error, as a failed request
    // does in a run of chartstress's own, not as a wrong answer.
    for p in &mut predictions {
        if let Some(e) = errors.get(&p.id) {
            p.error = Some(e.clone());
            p.answer.clear();
        }
    }
    let dir = super::write_run(
        suite,
        name,
        "inspect",
        &[file.to_path_buf()],
        &items,
        predictions,
    )?;
    Ok((dir, summary))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(v: Value) -> Result<LogSample, InteropError> {
        let fields: SampleFields = serde_json::from_value(v).unwrap();
        parse_sample(Path::new("log.json"), "sample #1", &fields)
    }

    #[test]
    fn reply_from_completion_or_last_assistant_message() {
        let s = sample(json!({"id": "a", "epoch": 2, "output": {"completion": "42"}})).unwrap();
        assert_eq!((s.id.as_str(), s.epoch, s.reply.as_str()), ("a", 2, "42"));
        let s = sample(json!({"id": 7, "output": {"completion": ""}, "messages": [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [{"type": "reasoning", "reasoning": "hm"}, {"type": "text", "text": "Yes"}]},
        ]}))
        .unwrap();
        assert_eq!((s.id.as_str(), s.epoch, s.reply.as_str()), ("7", 1, "Yes"));
        let s = sample(json!({"id": "b", "error": {"message": "timeout"}})).unwrap();
        assert_eq!(s.error.as_deref(), Some("timeout"));
        assert_eq!(s.reply, "");
    }

    #[test]
    fn malformed_samples_name_file_and_sample() {
        let e = sample(json!({"output": {"completion": "1"}}))
            .unwrap_err()
            .to_string();
        assert!(e.contains("log.json") && e.contains("sample #1") && e.contains("id"));
        let e = sample(json!({"id": "x", "messages": []}))
            .unwrap_err()
            .to_string();
        assert!(e.contains("sample x"), "{e}");
        let e = parse_json_log(Path::new("l.json"), &b"{\"eval\": {}}"[..])
            .unwrap_err()
            .to_string();
        assert!(e.contains("l.json") && e.contains("no samples"), "{e}");
        let e = parse_json_log(Path::new("l.json"), &b"[1,"[..])
            .unwrap_err()
            .to_string();
        assert!(e.contains("l.json"), "{e}");
        let e = parse_eval_log(Path::new("l.eval"), std::io::Cursor::new(b"PK\x03\x04junk"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("l.eval"), "{e}");
    }

    #[test]
    fn lowest_epoch_wins_and_repeats_stay() {
        let s = |id: &str, epoch, reply: &str| LogSample {
            id: id.into(),
            epoch,
            reply: reply.into(),
            error: None,
        };
        let kept = first_epoch(vec![
            s("a", 2, "late"),
            s("a", 1, "first"),
            s("b", 1, "x"),
            s("b", 1, "again"),
        ]);
        assert_eq!(
            kept,
            vec![s("a", 1, "first"), s("b", 1, "x"), s("b", 1, "again")]
        );
    }

    #[test]
    fn image_paths_must_stay_inside() {
        for bad in ["../x.png", "/etc/x.png", "", "images/../../x.png"] {
            let e = relative_image(Path::new("s"), "i", bad)
                .unwrap_err()
                .to_string();
            assert!(e.contains("items.jsonl") && e.contains("item i"), "{e}");
        }
        assert!(relative_image(Path::new("s"), "i", "images/a.png").is_ok());
    }
}
