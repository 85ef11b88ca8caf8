//! Model adapters: one trait, one file per adapter, one registry
//! function ([`build`]) that chooses an adapter by name.
//!
//! An adapter turns a [`Request`] (the suite's PNG bytes, never re-encoded,
//! plus the rendered prompt and the question's parts) into a [`Response`]
//! (raw text, token usage if known) or a typed [`AdapterError`]. Extraction,
//! caching, resuming and concurrency live in [`crate::run`].

pub mod blind;
pub mod command;
pub mod ocr;
pub mod openai;
pub mod oracle;
pub mod reader;

use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use crate::ir::{Item, QuestionType, Turn, Usage};
use crate::secrets::{self, Secrets};

pub use oracle::OracleFn;

/// One question to answer.
#[derive(Debug, Clone)]
pub struct Request {
    pub item_id: String,
    /// The suite's PNG bytes as stored on disk.
    pub image_png: Arc<Vec<u8>>,
    pub question: String,
    /// The rendered prompt (question included) sent to models.
    pub prompt: String,
    pub question_type: QuestionType,
    pub history: Vec<Turn>,
    pub paragraph: Option<String>,
    pub choices: Vec<String>,
    /// The whole item, for built-in baselines only (`oracle`, `ocr` use its
    /// query to know what is asked; model adapters never look at it).
    pub item: Arc<Item>,
}

/// A model's answer before extraction.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct Response {
    /// The raw text (reasoning fields, when a server returns them separately,
    /// are wrapped in `<think>…</think>` in front of the content).
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// Calls made for this answer (1 without retries).
    #[serde(default)]
    pub attempts: u32,
    /// The final answer when the adapter computes it itself (built-in
    /// baselines); `None` means "extract it from `text`".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
}

impl Response {
    /// Nothing to extract an answer from: no final answer and blank text.
    /// Such a reply is a failed call (retried, never stored as an answer
    /// nor cached), not the model's answer "".
    pub fn is_empty_reply(&self) -> bool {
        self.answer.is_none() && self.text.trim().is_empty()
    }
}

/// Why an adapter could not answer. Such failures are recorded as errors in
/// `predictions.jsonl`, never scored as wrong answers.
#[derive(Debug, Clone, thiserror::Error)]
pub enum AdapterError {
    #[error("bad adapter configuration: {0}")]
    Config(String),
    #[error("HTTP {status} after {attempts} attempt(s): {body}")]
    Http {
        status: u16,
        body: String,
        attempts: u32,
    },
    #[error("timed out after {attempts} attempt(s): {message}")]
    Timeout { message: String, attempts: u32 },
    #[error("connection failed after {attempts} attempt(s): {message}")]
    Transport { message: String, attempts: u32 },
    #[error("malformed response after {attempts} attempt(s): {message}")]
    Protocol { message: String, attempts: u32 },
    #[error("worker failed after {attempts} attempt(s): {message}")]
    Worker { message: String, attempts: u32 },
    #[error("empty reply after {attempts} attempt(s)")]
    EmptyReply { attempts: u32 },
    /// The server could not be reached many times in a row: the run stops
    /// instead of failing every remaining item the same way.
    #[error("{0}")]
    Unreachable(String),
    #[error("the model reported an error: {0}")]
    Model(String),
    #[error("{tool} is not available: {message}")]
    ToolMissing { tool: String, message: String },
    #[error("{0}")]
    Other(String),
}

impl AdapterError {
    /// Short kind name used for error counts in `run.json`.
    pub fn kind(&self) -> &'static str {
        match self {
            AdapterError::Config(_) => "config",
            AdapterError::Http { status: 429, .. } => "rate_limited",
            AdapterError::Http { status, .. } if *status >= 500 => "server_error",
            AdapterError::Http { .. } => "http",
            AdapterError::Timeout { .. } => "timeout",
            AdapterError::Transport { .. } => "transport",
            AdapterError::Protocol { .. } => "protocol",
            AdapterError::Worker { .. } => "worker",
            AdapterError::EmptyReply { .. } => "empty_reply",
            AdapterError::Unreachable(_) => "unreachable",
            AdapterError::Model(_) => "model",
            AdapterError::ToolMissing { .. } => "tool_missing",
            AdapterError::Other(_) => "other",
        }
    }

    /// Calls made before giving up.
    pub fn attempts(&self) -> u32 {
        match self {
            AdapterError::Http { attempts, .. }
            | AdapterError::Timeout { attempts, .. }
            | AdapterError::Transport { attempts, .. }
            | AdapterError::Protocol { attempts, .. }
            | AdapterError::Worker { attempts, .. }
            | AdapterError::EmptyReply { attempts } => *attempts,
            _ => 1,
        }
    }
}

/// Where a run happens; given to [`Adapter::start`] before the first request.
#[derive(Debug, Clone)]
pub struct RunContext {
    pub suite: PathBuf,
    /// `SUITE/runs/RUN`, for adapter logs (e.g. worker stderr).
    pub run_dir: PathBuf,
}

pub trait Adapter: Send + Sync {
    fn name(&self) -> &str;
    /// Everything about this adapter that changes its output (model, base
    /// URL, generation parameters, command line) and nothing that does not
    /// (concurrency, timeouts, retries). Part of the response-cache key.
    fn cache_key(&self) -> String;
    fn answer(&self, req: &Request) -> Result<Response, AdapterError>;

    /// Settings recorded in `run.json`. Never contains secrets.
    fn settings(&self) -> serde_json::Value {
        serde_json::json!({ "adapter": self.name() })
    }
    /// The secret values this adapter was given, and those of the
    /// environment: the run engine removes them from everything it writes.
    fn secrets(&self) -> Secrets {
        Secrets::default().with_environment([])
    }
    /// Requests the run engine keeps in flight at once.
    fn concurrency(&self) -> usize {
        1
    }
    /// Whether responses may be served from the response cache. Built-in
    /// baselines are instant and depend on more than the prompt, so they opt out.
    fn cacheable(&self) -> bool {
        true
    }
    /// Called once before the first request of a run.
    fn start(&self, _ctx: &RunContext) -> Result<(), AdapterError> {
        Ok(())
    }
}

/// A suite's chart records by id, loaded once when a run starts: what the
/// built-in baselines (`oracle`, `reader`) answer from.
#[derive(Default)]
pub struct ChartIndex(
    std::sync::OnceLock<std::collections::HashMap<String, crate::ir::ChartRecord>>,
);

impl ChartIndex {
    pub fn with(charts: Vec<crate::ir::ChartRecord>) -> ChartIndex {
        let index = ChartIndex::default();
        let _ = index
            .0
            .set(charts.into_iter().map(|c| (c.id.clone(), c)).collect());
        index
    }

    /// Reads `charts.jsonl` unless already loaded.
    pub fn load(&self, ctx: &RunContext) -> Result<(), AdapterError> {
        if self.0.get().is_some() {
            return Ok(());
        }
        let charts = crate::run::suite_files::read_charts(&ctx.suite)
            .map_err(|e| AdapterError::Config(e.to_string()))?;
        let _ = self
            .0
            .set(charts.into_iter().map(|c| (c.id.clone(), c)).collect());
        Ok(())
    }

    /// The chart an item is asked on.
    pub fn chart(
        &self,
        adapter: &str,
        item: &Item,
    ) -> Result<&crate::ir::ChartRecord, AdapterError> {
        let charts = self
            .0
            .get()
            .ok_or_else(|| AdapterError::Config(format!("{adapter} used before start()")))?;
        charts.get(&item.chart_id).ok_or_else(|| {
            AdapterError::Other(format!(
                "item {}: chart {} is not in charts.jsonl",
                item.id, item.chart_id
            ))
        })
    }
}

/// Options for every adapter; each adapter reads the ones it understands.
#[derive(Clone)]
pub struct AdapterOptions {
    // openai
    pub base_url: String,
    pub model: Option<String>,
    /// Name of the environment variable holding the API key (the key itself
    /// is read at build time and never stored in settings, logs or files).
    pub api_key_env: String,
    pub temperature: f64,
    pub max_tokens: Option<u32>,
    pub seed: Option<u64>,
    /// Extra top-level JSON fields merged into each chat-completions body.
    pub extra_json: Option<serde_json::Value>,
    pub concurrency: usize,
    pub timeout: Duration,
    pub retry: bool,
    pub max_retries: u32,
    /// Base delay of the exponential backoff.
    pub retry_base: Duration,
    /// Longest single backoff wait.
    pub retry_max_wait: Duration,
    /// Longest wait a server's `Retry-After` may ask for.
    pub max_retry_after: Duration,
    /// Stop the run after this many connection failures or timeouts in a
    /// row with no reply in between; 0 never stops.
    pub max_consecutive_failures: u32,
    // command
    pub cmd: Option<String>,
    pub workers: usize,
    // oracle
    pub oracle_fn: Option<OracleFn>,
    // blind
    pub blind_seed: u64,
}

impl Default for AdapterOptions {
    fn default() -> Self {
        AdapterOptions {
            base_url: "http://127.0.0.1:8000/v1".into(),
            model: None,
            api_key_env: "OPENAI_API_KEY".into(),
            temperature: 0.0,
            max_tokens: None,
            seed: None,
            extra_json: None,
            concurrency: 8,
            timeout: Duration::from_secs(120),
            retry: true,
            max_retries: 5,
            retry_base: Duration::from_millis(500),
            retry_max_wait: Duration::from_secs(60),
            max_retry_after: Duration::from_secs(300),
            max_consecutive_failures: 10,
            cmd: None,
            workers: 1,
            oracle_fn: None,
            blind_seed: 0,
        }
    }
}

impl std::fmt::Debug for AdapterOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdapterOptions")
            .field("base_url", &secrets::redact_url(&self.base_url))
            .field("model", &self.model)
            .field("api_key_env", &self.api_key_env)
            .field("concurrency", &self.concurrency)
            .field("cmd", &self.cmd.as_deref().map(secrets::redact_command))
            .field("workers", &self.workers)
            .field("oracle_fn", &self.oracle_fn.is_some())
            .finish_non_exhaustive()
    }
}

/// Every secret of these options (the API key, credentials in the base URL,
/// auth fields of the extra JSON, secrets on the command line) and of the
/// environment.
pub fn option_secrets(opts: &AdapterOptions) -> Secrets {
    let mut values: Vec<String> = std::env::var(&opts.api_key_env).ok().into_iter().collect();
    values.extend(secrets::url_secrets(&opts.base_url));
    if let Some(extra) = &opts.extra_json {
        values.extend(secrets::json_secrets(extra));
    }
    if let Some(cmd) = &opts.cmd {
        values.extend(secrets::command_secrets(cmd));
    }
    Secrets::default().with_environment(values)
}

/// Names accepted by [`build`].
pub const ADAPTERS: [&str; 6] = ["oracle", "reader", "blind", "openai", "command", "ocr"];

/// The one place adapters are chosen by name.
pub fn build(name: &str, opts: &AdapterOptions) -> Result<Arc<dyn Adapter>, AdapterError> {
    match name.trim() {
        "oracle" => Ok(Arc::new(oracle::Oracle::new(opts)?)),
        "reader" => Ok(Arc::new(reader::Reader::default())),
        "blind" => Ok(Arc::new(blind::Blind::new(opts))),
        "openai" => Ok(Arc::new(openai::OpenAi::new(opts)?)),
        "command" => Ok(Arc::new(command::Command::new(opts)?)),
        "ocr" => Ok(Arc::new(ocr::Ocr::new()?)),
        other => Err(AdapterError::Config(format!(
            "unknown adapter `{other}` (known: {})",
            ADAPTERS.join(", ")
        ))),
    }
}

/// Exponential backoff with seeded jitter: `base * 2^(attempt-1)` scaled by
/// a factor in [0.5, 1.5) derived from the item id and attempt, so retries of
/// many items spread out but a rerun waits the same way.
pub(crate) fn backoff(item_id: &str, attempt: u32, base: Duration, max: Duration) -> Duration {
    use rand::RngExt;
    let exp = base.saturating_mul(1u32 << attempt.saturating_sub(1).min(16));
    let mut rng = crate::seed::rng(0, &["backoff", item_id, &attempt.to_string()]);
    let factor: f64 = rng.random_range(0.5..1.5);
    exp.mul_f64(factor).min(max)
}

/// Connection failures in a row across all of a run's calls. Once `limit`
/// is reached every call stops (including those waiting out a backoff), so
/// a wrong port or a dead server ends the run in seconds instead of
/// retrying each remaining item.
pub(crate) struct FailureStreak {
    limit: u32,
    state: Mutex<StreakState>,
    changed: Condvar,
}

#[derive(Default)]
struct StreakState {
    count: u32,
    stopped: Option<String>,
}

impl FailureStreak {
    pub(crate) fn new(limit: u32) -> FailureStreak {
        FailureStreak {
            limit,
            state: Mutex::new(StreakState::default()),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, StreakState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The stop message once the limit was reached.
    pub(crate) fn stopped(&self) -> Option<String> {
        self.lock().stopped.clone()
    }

    /// The server replied (whatever it said): the streak is broken.
    pub(crate) fn reply(&self) {
        self.lock().count = 0;
    }

    /// One more failure; `describe(count)` makes the stop message when this
    /// one reaches the limit. Returns the stop message once stopped.
    pub(crate) fn failure(&self, describe: impl FnOnce(u32) -> String) -> Option<String> {
        let mut state = self.lock();
        state.count += 1;
        if self.limit > 0 && state.count >= self.limit && state.stopped.is_none() {
            state.stopped = Some(describe(state.count));
            self.changed.notify_all();
        }
        state.stopped.clone()
    }

    /// Sleeps `wait`, waking early when the run stops; returns the stop message then.
    pub(crate) fn sleep(&self, wait: Duration) -> Option<String> {
        let state = self.lock();
        let (state, _) = self
            .changed
            .wait_timeout_while(state, wait, |s| s.stopped.is_none())
            .unwrap_or_else(|e| e.into_inner());
        state.stopped.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_streak_stops_at_its_limit_and_wakes_sleepers() {
        let streak = Arc::new(FailureStreak::new(3));
        assert_eq!(streak.failure(|n| format!("{n}")), None);
        streak.reply();
        assert_eq!(streak.failure(|n| format!("{n}")), None);
        assert_eq!(streak.failure(|n| format!("{n}")), None);
        let sleeper = {
            let streak = streak.clone();
            std::thread::spawn(move || {
                let t0 = std::time::Instant::now();
                (streak.sleep(Duration::from_secs(30)), t0.elapsed())
            })
        };
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(
            streak.failure(|n| format!("stopped after {n}")).as_deref(),
            Some("stopped after 3")
        );
        let (woken, slept) = sleeper.join().unwrap();
        assert_eq!(woken.as_deref(), Some("stopped after 3"));
        assert!(slept < Duration::from_secs(5), "{slept:?}");
        // A reply after the stop does not undo it; 0 never stops.
        streak.reply();
        assert!(streak.stopped().is_some());
        let never = FailureStreak::new(0);
        assert!((0..100).all(|_| never.failure(|n| format!("{n}")).is_none()));
    }

    #[test]
    fn backoff_grows_is_capped_and_is_seeded() {
        let base = Duration::from_millis(100);
        let max = Duration::from_secs(2);
        let a1 = backoff("x", 1, base, max);
        assert!(a1 >= Duration::from_millis(50) && a1 < Duration::from_millis(150));
        let a4 = backoff("x", 4, base, max);
        assert!(a4 >= Duration::from_millis(400) && a4 < Duration::from_millis(1200));
        assert_eq!(backoff("x", 10, base, max), max);
        assert_eq!(backoff("x", 3, base, max), backoff("x", 3, base, max));
    }

    #[test]
    fn unknown_adapter_names_the_known_ones() {
        let err = build("gpt", &AdapterOptions::default()).err().unwrap();
        assert!(err.to_string().contains("oracle, reader, blind"));
    }
}
