//! Resumable runs of an adapter over a suite.
//!
//! `run_suite` writes `SUITE/runs/RUN/predictions.jsonl`, one
//! [`Prediction`] per line, appended and flushed as each answer arrives, and
//! `run.json`. Running again resumes: finished items are skipped (errors too,
//! unless `retry_errors`), a torn last line left by a kill is cut off, and an
//! item never gets two lines. Responses go through a content-addressed cache
//! (see [`cache`]). A failed call becomes a prediction with `error` set: it is
//! counted and reported, never dropped and never scored as a wrong answer.
//! Only complete suites (with `suite.json`) are run, and a run folder is
//! locked for the whole run ([`lock`]) so two runs never share one file. A
//! run whose server cannot be reached stops early ([`RunError::Stopped`]),
//! keeping what it wrote.

pub mod cache;
pub mod lock;
pub mod merge;
pub mod suite_files;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::adapter::{Adapter, AdapterError, Request, Response, RunContext};
use crate::ir::suite::{RUNS_DIR, SUITE_MANIFEST};
use crate::ir::{Item, Prediction, SetName};
use crate::prompt::{PromptError, Prompter, Strategy};
use crate::secrets::Secrets;

pub const PREDICTIONS_FILE: &str = "predictions.jsonl";
pub const RUN_FILE: &str = "run.json";

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("{path}: {message}")]
    Io { path: String, message: String },
    #[error("{path}:{line}:{column}: {message}")]
    Parse {
        path: String,
        line: usize,
        column: usize,
        message: String,
    },
    #[error(transparent)]
    Prompt(#[from] PromptError),
    #[error("adapter: {0}")]
    Adapter(#[from] AdapterError),
    #[error("{0}")]
    Config(String),
    #[error(
        "run folder {run_dir} is in use by another chartstress run ({}); wait for it to \
         finish or choose another --name",
        pid.map_or("pid unknown".to_string(), |p| format!("pid {p}"))
    )]
    Locked { run_dir: String, pid: Option<u32> },
    /// The run gave up early (the model server is unreachable); every
    /// prediction written before is kept and a rerun continues.
    #[error("{message}")]
    Stopped {
        message: String,
        run_dir: PathBuf,
        /// Selected items with a prediction (answer or error) on disk.
        done: usize,
        /// Of those, predictions that are errors (called again with `retry_errors`).
        errors: usize,
        selected: usize,
    },
}

impl RunError {
    pub(crate) fn io(path: &Path, err: std::io::Error) -> RunError {
        RunError::Io {
            path: path.display().to_string(),
            message: err.to_string(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Run name (folder under `SUITE/runs/`); defaults to the adapter name.
    pub name: Option<String>,
    pub strategy: Strategy,
    /// A user prompt template replacing the built-in ones.
    pub prompt_template: Option<PathBuf>,
    /// Sets to run; empty means all.
    pub sets: Vec<SetName>,
    /// At most this many items (in suite order, after the set filter).
    pub limit: Option<usize>,
    /// A paired sample: this many original items, spread over the whole
    /// suite (chosen by a hash of their ids), each with all its modified
    /// items — so every gap can still be computed on the sample.
    pub pairs: Option<usize>,
    /// Part K of N (1-based): the items whose pair (an original and its
    /// modified items) hashes into part K, so workers split a suite without
    /// talking to each other and `merge_runs` joins their runs.
    pub shard: Option<crate::suite::Shard>,
    /// Call again for items whose earlier prediction is an error.
    pub retry_errors: bool,
    pub cache: bool,
    /// Cache folder; default `$CHARTSTRESS_CACHE`, else `SUITE/cache`.
    pub cache_dir: Option<PathBuf>,
    /// Extra text mixed into every cache key, for what the adapter cannot
    /// see (e.g. the model files behind a `command` program).
    pub cache_tag: Option<String>,
    /// Run program-of-thought replies in python3 (opt-in: model-written code).
    pub execute_pot: bool,
    pub pot_timeout: Duration,
    pub progress: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            name: None,
            strategy: Strategy::Direct,
            prompt_template: None,
            sets: Vec::new(),
            limit: None,
            pairs: None,
            shard: None,
            retry_errors: false,
            cache: true,
            cache_dir: None,
            cache_tag: None,
            execute_pot: false,
            pot_timeout: Duration::from_secs(10),
            progress: true,
        }
    }
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RunSummary {
    pub run_dir: PathBuf,
    /// Items selected (sets, limit).
    pub selected: usize,
    /// Selected items already finished before this invocation.
    pub skipped: usize,
    /// Items answered now by calling the adapter.
    pub called: usize,
    /// Items answered now from the cache.
    pub cached: usize,
    /// Earlier predictions dropped because their item has changed since.
    pub stale: usize,
    /// Items that failed now.
    pub new_errors: usize,
    /// Selected items whose prediction is an error after this invocation.
    pub errors: usize,
    /// Those errors by kind (`timeout`, `server_error`, …).
    pub error_counts: BTreeMap<String, usize>,
    pub elapsed_secs: f64,
}

/// Reads `predictions.jsonl`. A last line without its newline that does not
/// parse (a write cut short by a kill) is ignored; any other bad line is an
/// error naming the line. When an id occurs twice the later line wins.
pub fn read_predictions(path: &Path) -> Result<Vec<Prediction>, RunError> {
    let bytes = std::fs::read(path).map_err(|e| RunError::io(path, e))?;
    let text = String::from_utf8_lossy(&bytes);
    let complete = text.ends_with('\n');
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out: Vec<Prediction> = Vec::new();
    let mut position: HashMap<String, usize> = HashMap::new();
    for (k, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let is_tail = k + 1 == lines.len() && !complete;
        let prediction: Prediction = match serde_json::from_str(line) {
            Ok(p) => p,
            Err(_) if is_tail => break,
            Err(e) => {
                return Err(RunError::Parse {
                    path: path.display().to_string(),
                    line: k + 1,
                    column: e.column(),
                    message: e.to_string(),
                });
            }
        };
        match position.get(&prediction.id) {
            Some(&at) => out[at] = prediction,
            None => {
                position.insert(prediction.id.clone(), out.len());
                out.push(prediction);
            }
        }
    }
    Ok(out)
}

/// Cuts a torn last line so appends start on a fresh line.
fn repair_tail(path: &Path) -> Result<(), RunError> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(RunError::io(path, e)),
    };
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return Ok(());
    }
    let cut = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let tail_ok = serde_json::from_slice::<Prediction>(&bytes[cut..]).is_ok();
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| RunError::io(path, e))?;
    if tail_ok {
        // A complete record that only lacks its newline.
        let mut file = file;
        file.seek_end_and_write(b"\n")
            .map_err(|e| RunError::io(path, e))?;
    } else {
        file.set_len(cut as u64)
            .map_err(|e| RunError::io(path, e))?;
    }
    Ok(())
}

trait SeekWrite {
    fn seek_end_and_write(&mut self, bytes: &[u8]) -> std::io::Result<()>;
}

impl SeekWrite for std::fs::File {
    fn seek_end_and_write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        use std::io::Seek;
        self.seek(std::io::SeekFrom::End(0))?;
        self.write_all(bytes)?;
        self.flush()
    }
}

/// Run names are folder names under `SUITE/runs/`, never paths.
pub(crate) fn check_run_name(name: &str) -> Result<(), RunError> {
    if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
        return Err(RunError::Config(format!(
            "run name `{name}` must be a plain folder name"
        )));
    }
    Ok(())
}

/// Write a finished run at once (merged parts, imported predictions):
/// `predictions` in the order of `items`, `info` as `run.json`, under the
/// same lock a running `run_suite` holds.
pub fn write_finished_run(
    suite: &Path,
    name: &str,
    items: &[Item],
    mut predictions: Vec<Prediction>,
    info: &serde_json::Value,
) -> Result<PathBuf, RunError> {
    check_run_name(name)?;
    let order: HashMap<&str, usize> = items
        .iter()
        .enumerate()
        .map(|(i, it)| (it.id.as_str(), i))
        .collect();
    if let Some(p) = predictions
        .iter()
        .find(|p| !order.contains_key(p.id.as_str()))
    {
        return Err(RunError::Config(format!(
            "item {} is not in this suite",
            p.id
        )));
    }
    predictions.sort_by_key(|p| order[p.id.as_str()]);
    let run_dir = suite.join(RUNS_DIR).join(name);
    std::fs::create_dir_all(&run_dir).map_err(|e| RunError::io(&run_dir, e))?;
    let _lock = lock::acquire(&run_dir)?;
    rewrite_predictions(&run_dir.join(PREDICTIONS_FILE), &predictions)?;
    write_json(&run_dir.join(RUN_FILE), info)?;
    Ok(run_dir)
}

/// Replaces `path` with `predictions` (one per line) atomically.
fn rewrite_predictions(path: &Path, predictions: &[Prediction]) -> Result<(), RunError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| RunError::io(dir, e))?;
    let mut buf = String::new();
    for p in predictions {
        buf.push_str(&serde_json::to_string(p).expect("prediction serializes"));
        buf.push('\n');
    }
    tmp.write_all(buf.as_bytes())
        .and_then(|_| tmp.as_file().sync_all())
        .map_err(|e| RunError::io(path, e))?;
    tmp.persist(path).map_err(|e| RunError::io(path, e.error))?;
    Ok(())
}

fn error_kind(error: &str) -> String {
    error
        .split(':')
        .next()
        .unwrap_or("other")
        .trim()
        .to_string()
}

fn write_json(path: &Path, value: &serde_json::Value) -> Result<(), RunError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| RunError::io(dir, e))?;
    let mut text = serde_json::to_string_pretty(value).expect("json serializes");
    text.push('\n');
    tmp.write_all(text.as_bytes())
        .map_err(|e| RunError::io(path, e))?;
    tmp.persist(path).map_err(|e| RunError::io(path, e.error))?;
    Ok(())
}

/// A suite is complete once `generate` has written `suite.json`, which it
/// does last: a folder with items but no readable manifest was left by a
/// stopped `generate` and may lack items, images or charts.
fn check_suite_complete(suite: &Path) -> Result<(), RunError> {
    let path = suite.join(SUITE_MANIFEST);
    let problem = match std::fs::read(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => "has no suite.json".to_string(),
        Err(e) => format!("has an unreadable suite.json ({e})"),
        Ok(bytes) => match serde_json::from_slice::<serde_json::Value>(&bytes) {
            Ok(serde_json::Value::Object(_)) => return Ok(()),
            Ok(_) => "has a suite.json that is not a JSON object".to_string(),
            Err(e) => format!("has an incomplete suite.json ({e})"),
        },
    };
    Err(RunError::Config(format!(
        "{} is not a complete suite: it {problem}. `chartstress generate` writes suite.json \
         last, so the generation that made this folder did not finish; generate the suite again",
        suite.display()
    )))
}

/// The id of the original item an item belongs to (its own id for originals).
fn pair_root(item: &Item) -> &str {
    item.origin.as_deref().unwrap_or(&item.id)
}

/// Ids of `count` original items chosen by a hash of their ids: a sample
/// spread over every table of the suite that does not depend on file order.
fn paired_sample(items: &[Item], count: usize) -> HashSet<String> {
    let mut originals: Vec<(blake3::Hash, &str)> = items
        .iter()
        .filter(|item| item.set == SetName::Original)
        .map(|item| (blake3::hash(item.id.as_bytes()), item.id.as_str()))
        .collect();
    originals.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    originals
        .into_iter()
        .take(count)
        .map(|(_, id)| id.to_string())
        .collect()
}

struct Job {
    item: Arc<Item>,
    /// `item.content_hash()`, computed once for the resume check.
    hash: String,
    prompt: Result<String, String>,
}

/// Runs `adapter` over the selected items of `suite`; see the module docs.
pub fn run_suite(
    suite: &Path,
    adapter: Arc<dyn Adapter>,
    opts: &RunOptions,
) -> Result<RunSummary, RunError> {
    let started_at = Instant::now();
    let started = chrono::Utc::now().to_rfc3339();
    let name = opts
        .name
        .clone()
        .unwrap_or_else(|| adapter.name().to_string());
    check_run_name(&name)?;
    check_suite_complete(suite)?;
    let items = suite_files::read_items(suite)?;
    let sample = opts.pairs.map(|n| paired_sample(&items, n));
    let mut seen = HashSet::new();
    let mut selected: Vec<Arc<Item>> = items
        .into_iter()
        .filter(|item| opts.sets.is_empty() || opts.sets.contains(&item.set))
        .filter(|item| {
            sample
                .as_ref()
                .is_none_or(|ids| ids.contains(pair_root(item)))
        })
        .filter(|item| opts.shard.is_none_or(|s| s.owns(pair_root(item))))
        .filter(|item| seen.insert(item.id.clone()))
        .map(Arc::new)
        .collect();
    if let Some(limit) = opts.limit {
        selected.truncate(limit);
    }
    let order: HashMap<String, usize> = selected
        .iter()
        .enumerate()
        .map(|(k, item)| (item.id.clone(), k))
        .collect();

    let run_dir = suite.join(RUNS_DIR).join(&name);
    std::fs::create_dir_all(&run_dir).map_err(|e| RunError::io(&run_dir, e))?;
    // Before anything reads or repairs the predictions another run may be appending to.
    let _lock = lock::acquire(&run_dir)?;
    let predictions_path = run_dir.join(PREDICTIONS_FILE);
    repair_tail(&predictions_path)?;
    let mut existing = if predictions_path.exists() {
        read_predictions(&predictions_path)?
    } else {
        Vec::new()
    };
    let previous = std::fs::read_to_string(run_dir.join(RUN_FILE))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok());
    // A run folder holds one configuration: resuming with another model or
    // prompt would mix two models' answers in one file.
    let template_text = match &opts.prompt_template {
        Some(path) => std::fs::read_to_string(path).unwrap_or_default(),
        None => String::new(),
    };
    let config_id = blake3::hash(
        json!([
            adapter.cache_key(),
            opts.strategy.name(),
            template_text,
            opts.execute_pot,
            opts.cache_tag
        ])
        .to_string()
        .as_bytes(),
    )
    .to_hex()[..16]
        .to_string();
    if let Some(before) = previous
        .as_ref()
        .and_then(|v| v.get("config_id"))
        .and_then(|v| v.as_str())
        && before != config_id
        && !existing.is_empty()
    {
        return Err(RunError::Config(format!(
            "run `{name}` was made with other adapter or prompt settings (see {}); \
             choose another --name for this configuration",
            run_dir.join(RUN_FILE).display()
        )));
    }
    // Predictions for items that changed since (a suite generated again into
    // the same folder keeps its ids) are answered again, never reused.
    let hashes: HashMap<&str, String> = selected
        .iter()
        .map(|item| (item.id.as_str(), item.content_hash()))
        .collect();
    let before = existing.len();
    existing.retain(|p| {
        hashes
            .get(p.id.as_str())
            .is_none_or(|h| p.item_hash.as_deref() == Some(h.as_str()))
    });
    let stale = before - existing.len();
    if stale > 0 {
        rewrite_predictions(&predictions_path, &existing)?;
    }
    if opts.retry_errors {
        let before = existing.len();
        existing.retain(|p| !(p.is_error() && order.contains_key(&p.id)));
        if existing.len() != before {
            rewrite_predictions(&predictions_path, &existing)?;
        }
    }
    let done: HashSet<&str> = existing.iter().map(|p| p.id.as_str()).collect();
    let todo: Vec<Arc<Item>> = selected
        .iter()
        .filter(|item| !done.contains(item.id.as_str()))
        .cloned()
        .collect();
    let skipped = selected.len() - todo.len();

    let prompter = Prompter::new(opts.strategy, opts.prompt_template.as_deref())?;
    // A template error would hit every item: fail before any call.
    if let Some(first) = todo.first() {
        prompter.render(first)?;
    }
    let cache = if opts.cache && adapter.cacheable() {
        Some(cache::Cache::open(&cache::cache_dir(
            suite,
            opts.cache_dir.as_deref(),
        ))?)
    } else {
        None
    };

    // Removed from every line and file this run writes.
    let secrets = adapter.secrets();
    let first_started = previous
        .as_ref()
        .and_then(|v| v.get("first_started").and_then(|s| s.as_str()))
        .map(str::to_string)
        .unwrap_or_else(|| started.clone());
    let run_info = |status: &str, ended: Option<String>, counts: serde_json::Value| {
        let mut info = json!({
            "name": name,
            "status": status,
            "tool_version": crate::VERSION,
            "adapter": adapter.name(),
            "adapter_settings": adapter.settings(),
            "prompt": {
                "strategy": opts.strategy.name(),
                "template": opts.prompt_template.as_ref().map_or("builtin".to_string(), |p| p.display().to_string()),
                "execute_pot": opts.execute_pot,
            },
            "selection": {
                "sets": opts.sets.iter().map(|s| s.name()).collect::<Vec<_>>(),
                "limit": opts.limit,
                "pairs": opts.pairs,
                "shard": opts.shard.map(|s| [s.index, s.count]),
            },
            "cache": cache.as_ref().map(|c| c.dir().display().to_string()),
            "cache_tag": opts.cache_tag,
            "config_id": config_id,
            "first_started": first_started,
            "started": started,
            "ended": ended,
            "counts": counts,
        });
        secrets.redact_json(&mut info);
        info
    };
    write_json(
        &run_dir.join(RUN_FILE),
        &run_info(
            "running",
            None,
            json!({ "selected": selected.len(), "skipped": skipped, "todo": todo.len() }),
        ),
    )?;

    adapter.start(&RunContext {
        suite: suite.to_path_buf(),
        run_dir: run_dir.clone(),
    })?;

    let jobs: Vec<Job> = todo
        .iter()
        .map(|item| Job {
            item: item.clone(),
            hash: hashes[item.id.as_str()].clone(),
            prompt: prompter.render(item).map_err(|e| e.to_string()),
        })
        .collect();
    let bar = progress_bar(jobs.len(), opts.progress);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&predictions_path)
        .map_err(|e| RunError::io(&predictions_path, e))?;

    let images = ImageCache::default();
    let queue = Mutex::new(jobs.into_iter());
    let threads = adapter.concurrency().clamp(1, todo.len().max(1));
    let (tx, rx) = std::sync::mpsc::channel::<Result<Prediction, AdapterError>>();
    let mut called = 0;
    let mut cached_count = 0;
    let mut new_errors = 0;
    let mut write_error = None;
    let mut fatal = None;
    let mut stopped = None;
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (queue, adapter, images, cache, secrets) =
                (&queue, &adapter, &images, &cache, &secrets);
            scope.spawn(move || {
                loop {
                    let job = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
                    let Some(job) = job else { break };
                    let hash = job.hash.clone();
                    let prediction = answer_one(
                        suite,
                        adapter.as_ref(),
                        cache.as_ref(),
                        images,
                        job,
                        opts,
                        secrets,
                    )
                    .map(|p| Prediction {
                        item_hash: Some(hash),
                        ..redacted(p, secrets)
                    })
                    .map_err(|e| redacted_error(e, secrets));
                    if tx.send(prediction).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let stop = || {
            queue
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .by_ref()
                .for_each(drop)
        };
        for outcome in rx {
            let prediction = match outcome {
                Ok(p) => p,
                Err(AdapterError::Unreachable(message)) => {
                    // Items cut short by the stop get no line: a rerun calls them again.
                    stopped.get_or_insert(message);
                    stop();
                    continue;
                }
                Err(e) => {
                    // A configuration problem fails every item: stop handing out work.
                    fatal.get_or_insert(e);
                    stop();
                    continue;
                }
            };
            if prediction.is_error() {
                new_errors += 1;
            } else if prediction.cached {
                cached_count += 1;
            } else {
                called += 1;
            }
            let mut line = serde_json::to_string(&prediction).expect("prediction serializes");
            line.push('\n');
            // One write per line: a kill can only tear the line being written.
            if let Err(e) = file.write_all(line.as_bytes()).and_then(|_| file.flush()) {
                write_error.get_or_insert(RunError::io(&predictions_path, e));
                // Stop handing out work; in-flight answers are lost, finished ones are on disk.
                stop();
            }
            bar.inc(1);
            bar.set_message(format!("errors {new_errors}"));
        }
    });
    bar.finish_and_clear();
    if let Some(err) = write_error {
        return Err(err);
    }
    if let Some(err) = fatal {
        write_json(
            &run_dir.join(RUN_FILE),
            &run_info(
                "failed",
                Some(chrono::Utc::now().to_rfc3339()),
                json!({ "selected": selected.len(), "error": err.to_string() }),
            ),
        )?;
        return Err(RunError::Adapter(err));
    }
    drop(file);
    if let Some(message) = stopped {
        let kept: Vec<Prediction> = read_predictions(&predictions_path)?
            .into_iter()
            .filter(|p| order.contains_key(&p.id))
            .collect();
        let (done, errors) = (kept.len(), kept.iter().filter(|p| p.is_error()).count());
        write_json(
            &run_dir.join(RUN_FILE),
            &run_info(
                "stopped",
                Some(chrono::Utc::now().to_rfc3339()),
                json!({
                    "selected": selected.len(),
                    "predictions": done,
                    "errors": errors,
                    "stop_reason": message,
                    "this_invocation": {
                        "skipped": skipped,
                        "called": called,
                        "cached": cached_count,
                        "errors": new_errors,
                        "elapsed_secs": started_at.elapsed().as_secs_f64(),
                    },
                }),
            ),
        )?;
        return Err(RunError::Stopped {
            message,
            run_dir,
            done,
            errors,
            selected: selected.len(),
        });
    }

    // Finished: store the predictions in suite order so reruns give the same file.
    let mut all = read_predictions(&predictions_path)?;
    all.sort_by_key(|p| order.get(&p.id).copied().unwrap_or(usize::MAX));
    rewrite_predictions(&predictions_path, &all)?;

    let mut error_counts = BTreeMap::new();
    let mut errors = 0;
    let mut answered = 0;
    let mut cached_total = 0;
    for p in all.iter().filter(|p| order.contains_key(&p.id)) {
        match &p.error {
            Some(e) => {
                errors += 1;
                *error_counts.entry(error_kind(e)).or_insert(0) += 1;
            }
            None => {
                answered += 1;
                cached_total += usize::from(p.cached);
            }
        }
    }
    let summary = RunSummary {
        run_dir: run_dir.clone(),
        selected: selected.len(),
        skipped,
        called,
        cached: cached_count,
        stale,
        new_errors,
        errors,
        error_counts: error_counts.clone(),
        elapsed_secs: started_at.elapsed().as_secs_f64(),
    };
    write_json(
        &run_dir.join(RUN_FILE),
        &run_info(
            "finished",
            Some(chrono::Utc::now().to_rfc3339()),
            json!({
                "selected": selected.len(),
                "predictions": answered + errors,
                "answered": answered,
                "answered_from_cache": cached_total,
                "errors": errors,
                "error_counts": error_counts,
                "this_invocation": {
                    "skipped": skipped,
                    "called": called,
                    "cached": cached_count,
                    "errors": new_errors,
                    "elapsed_secs": summary.elapsed_secs,
                },
            }),
        ),
    )?;
    Ok(summary)
}

fn progress_bar(len: usize, visible: bool) -> indicatif::ProgressBar {
    if !visible {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len as u64);
    let style = indicatif::ProgressStyle::with_template(
        "{bar:40} {pos}/{len} [{elapsed_precise}] {per_sec} ETA {eta} {msg}",
    )
    .expect("progress template");
    bar.set_style(style);
    bar.set_message("errors 0");
    bar
}

/// Suite PNGs read once each and shared between requests.
#[derive(Default)]
struct ImageCache {
    images: Mutex<HashMap<String, Arc<Vec<u8>>>>,
}

impl ImageCache {
    fn get(&self, suite: &Path, image: &str) -> Result<Arc<Vec<u8>>, String> {
        if let Some(bytes) = self
            .images
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(image)
        {
            return Ok(bytes.clone());
        }
        let path = suite.join(image);
        let bytes = Arc::new(
            std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?,
        );
        self.images
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(image.to_string(), bytes.clone());
        Ok(bytes)
    }
}

fn error_prediction(
    id: &str,
    kind: &str,
    message: &str,
    attempts: u32,
    latency_ms: f64,
) -> Prediction {
    Prediction {
        id: id.to_string(),
        raw: String::new(),
        answer: String::new(),
        latency_ms,
        usage: None,
        error: Some(format!("{kind}: {message}")),
        attempts,
        cached: false,
        item_hash: None,
    }
}

/// The prediction with every secret removed from what a model or server said.
fn redacted(prediction: Prediction, secrets: &Secrets) -> Prediction {
    let clean = |text: &str| secrets.redact(text).into_owned();
    Prediction {
        raw: clean(&prediction.raw),
        answer: clean(&prediction.answer),
        error: prediction.error.as_deref().map(clean),
        ..prediction
    }
}

/// An error that stops the run, with every secret removed from its message.
fn redacted_error(error: AdapterError, secrets: &Secrets) -> AdapterError {
    match error {
        AdapterError::Unreachable(m) => AdapterError::Unreachable(secrets.redact(&m).into_owned()),
        AdapterError::Config(m) => AdapterError::Config(secrets.redact(&m).into_owned()),
        missing @ AdapterError::ToolMissing { .. } => missing,
        other => AdapterError::Other(secrets.redact(&other.to_string()).into_owned()),
    }
}

fn answer_one(
    suite: &Path,
    adapter: &dyn Adapter,
    cache: Option<&cache::Cache>,
    images: &ImageCache,
    job: Job,
    opts: &RunOptions,
    secrets: &Secrets,
) -> Result<Prediction, AdapterError> {
    let item = job.item;
    let prompt = match job.prompt {
        Ok(p) => p,
        Err(e) => return Ok(error_prediction(&item.id, "prompt", &e, 0, 0.0)),
    };
    let image = match images.get(suite, &item.image) {
        Ok(bytes) => bytes,
        Err(e) => return Ok(error_prediction(&item.id, "image", &e, 0, 0.0)),
    };
    let request = Request {
        item_id: item.id.clone(),
        image_png: image,
        question: item.question.clone(),
        prompt,
        question_type: item.question_type,
        history: item.history.clone(),
        paragraph: item.paragraph.clone(),
        choices: item.choices.clone(),
        item: item.clone(),
    };
    let key = cache.map(|_| cache::key(adapter, &request, opts.cache_tag.as_deref()));
    // An empty reply cached by an older version is no answer: call again.
    let hit = cache
        .zip(key.as_deref())
        .and_then(|(c, k)| c.get(k))
        .filter(|entry| !entry.response.is_empty_reply());
    let (response, latency_ms, cached): (Response, f64, bool) = match hit {
        Some(entry) => (entry.response, entry.latency_ms, true),
        None => {
            let t0 = Instant::now();
            let outcome = adapter.answer(&request);
            let latency_ms = t0.elapsed().as_secs_f64() * 1000.0;
            match outcome {
                // Adapters retry empty replies themselves; this keeps any
                // adapter's empty reply out of the answers and the cache.
                Ok(response) if response.is_empty_reply() => {
                    let err = AdapterError::EmptyReply {
                        attempts: response.attempts.max(1),
                    };
                    return Ok(error_prediction(
                        &item.id,
                        err.kind(),
                        &err.to_string(),
                        err.attempts(),
                        latency_ms,
                    ));
                }
                Ok(response) => {
                    // The cache is written as well: no secret may reach it.
                    let response = Response {
                        text: secrets.redact(&response.text).into_owned(),
                        answer: response.answer.map(|a| secrets.redact(&a).into_owned()),
                        ..response
                    };
                    if let (Some(c), Some(k)) = (cache, key.as_deref()) {
                        // A cache that cannot be written only costs a repeated call later.
                        let _ = c.put(k, &response, latency_ms);
                    }
                    (response, latency_ms, false)
                }
                Err(
                    e @ (AdapterError::Config(_)
                    | AdapterError::ToolMissing { .. }
                    | AdapterError::Unreachable(_)),
                ) => {
                    return Err(e);
                }
                Err(e) => {
                    return Ok(error_prediction(
                        &item.id,
                        e.kind(),
                        &e.to_string(),
                        e.attempts(),
                        latency_ms,
                    ));
                }
            }
        }
    };
    let answer = if let Some(answer) = response.answer.clone() {
        answer
    } else if opts.strategy == Strategy::Pot && opts.execute_pot {
        // A program that fails is the model's wrong answer, not a failed call.
        crate::prompt::pot::execute(&response.text, opts.pot_timeout).unwrap_or_default()
    } else {
        crate::extract::extract(&response.text)
    };
    Ok(Prediction {
        id: item.id.clone(),
        raw: response.text,
        answer,
        latency_ms,
        usage: response.usage,
        error: None,
        attempts: response.attempts,
        cached,
        item_hash: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pred(id: &str) -> Prediction {
        Prediction {
            id: id.into(),
            raw: "r".into(),
            answer: "a".into(),
            latency_ms: 1.0,
            usage: None,
            error: None,
            attempts: 1,
            cached: false,
            item_hash: None,
        }
    }

    #[test]
    fn torn_tail_is_ignored_and_repaired() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(PREDICTIONS_FILE);
        let full = serde_json::to_string(&pred("a")).unwrap();
        let torn = &serde_json::to_string(&pred("b")).unwrap()[..10];
        std::fs::write(&path, format!("{full}\n{torn}")).unwrap();
        assert_eq!(read_predictions(&path).unwrap().len(), 1);
        repair_tail(&path).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{full}\n"));
    }

    #[test]
    fn a_bad_middle_line_names_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(PREDICTIONS_FILE);
        let full = serde_json::to_string(&pred("a")).unwrap();
        std::fs::write(&path, format!("{full}\n{{oops\n{full}\n")).unwrap();
        let err = read_predictions(&path).unwrap_err().to_string();
        assert!(err.contains(":2:"), "{err}");
    }

    #[test]
    fn complete_tail_without_newline_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(PREDICTIONS_FILE);
        let full = serde_json::to_string(&pred("a")).unwrap();
        std::fs::write(&path, &full).unwrap();
        repair_tail(&path).unwrap();
        assert_eq!(read_predictions(&path).unwrap().len(), 1);
        assert!(std::fs::read_to_string(&path).unwrap().ends_with('\n'));
    }
}
