//! `chartstress run`: run a model adapter over a suite (resumable).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};

use chartstress::adapter::{self, AdapterOptions, OracleFn};
use chartstress::ir::SetName;
use chartstress::prompt::Strategy;
use chartstress::run::{RunError, RunOptions, run_suite};
use chartstress::secrets::Secrets;

/// Arguments of `chartstress run` (boxed: the subcommand enum stays small).
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub inner: Box<RunArgs>,
}

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Suite folder (with items.jsonl, charts.jsonl, images/).
    pub suite: PathBuf,
    /// Adapter: oracle, reader, blind, openai, command, ocr.
    #[arg(long)]
    pub adapter: String,
    /// Run name: predictions go to SUITE/runs/NAME/ (default: the adapter name).
    #[arg(long)]
    pub name: Option<String>,
    /// Prompt strategy: direct, cot (chain of thought), pot (program of thought).
    #[arg(long, default_value = "direct")]
    pub prompt: String,
    /// A minijinja template replacing the built-in prompts.
    #[arg(long)]
    pub prompt_template: Option<PathBuf>,
    /// Execute program-of-thought replies with python3 (runs model-written code).
    #[arg(long)]
    pub execute_pot: bool,
    /// Time limit for one program-of-thought program.
    #[arg(long, default_value_t = 10.0)]
    pub pot_timeout_secs: f64,
    /// Comma-separated sets to run (original, modified_chart, modified_question, modified_both).
    #[arg(long, value_delimiter = ',')]
    pub sets: Vec<String>,
    /// Run at most N items (suite order, after --sets).
    #[arg(long)]
    pub limit: Option<usize>,
    /// Run a paired sample: N original items spread over the suite, each with
    /// all its modified items (so gaps stay computable).
    #[arg(long)]
    pub pairs: Option<usize>,
    /// Answer only part K of N (1-based) of the selected items, whole pairs
    /// together; join the parts' runs with `chartstress merge-runs`.
    #[arg(long)]
    pub shard: Option<chartstress::suite::Shard>,
    /// Call again for items whose earlier prediction is an error.
    #[arg(long)]
    pub retry_errors: bool,
    /// Do not read or write the response cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Response cache folder (default: $CHARTSTRESS_CACHE, else SUITE/cache).
    #[arg(long)]
    pub cache_dir: Option<PathBuf>,
    /// Extra text mixed into the cache key (e.g. a model revision the command line does not show).
    #[arg(long)]
    pub cache_tag: Option<String>,
    /// Hide the progress bar.
    #[arg(long)]
    pub no_progress: bool,

    // openai
    /// OpenAI-compatible server base URL (…/v1).
    #[arg(long, default_value = "http://127.0.0.1:8000/v1")]
    pub base_url: String,
    /// Model name sent to the server.
    #[arg(long)]
    pub model: Option<String>,
    /// Environment variable holding the API key (the key is never written anywhere).
    #[arg(long, default_value = "OPENAI_API_KEY")]
    pub api_key_env: String,
    #[arg(long, default_value_t = 0.0)]
    pub temperature: f64,
    #[arg(long)]
    pub max_tokens: Option<u32>,
    /// Sampling seed sent to the server.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Extra JSON object merged into each request body, e.g. '{"top_p": 1}'.
    #[arg(long)]
    pub extra_json: Option<String>,
    /// Requests in flight at once (openai).
    #[arg(long, default_value_t = 8)]
    pub concurrency: usize,
    /// Per-request timeout (openai, command).
    #[arg(long, default_value_t = 120.0)]
    pub timeout_secs: f64,
    /// Do not retry failed calls.
    #[arg(long)]
    pub no_retry: bool,
    /// Retries after the first failed call.
    #[arg(long, default_value_t = 5)]
    pub max_retries: u32,
    /// Base delay of the exponential backoff between retries, in milliseconds.
    #[arg(long, default_value_t = 500)]
    pub retry_base_ms: u64,
    /// Longest wait a server's Retry-After header may ask for, in seconds (openai).
    #[arg(long, default_value_t = 300.0)]
    pub max_retry_after: f64,
    /// Stop the run after N connection failures or timeouts in a row (openai; 0: never).
    #[arg(long, default_value_t = 10)]
    pub max_consecutive_failures: u32,

    // command
    /// Program speaking the JSON-lines protocol, run with `sh -c`.
    #[arg(long)]
    pub cmd: Option<String>,
    /// Copies of the program answering in parallel.
    #[arg(long, default_value_t = 1)]
    pub workers: usize,

    // blind
    /// Seed of the blind baseline's guesses.
    #[arg(long, default_value_t = 0)]
    pub blind_seed: u64,
}

/// The oracle's executor: the question stage's `query::execute`.
pub fn oracle_executor() -> OracleFn {
    Arc::new(|item, record| {
        chartstress::query::execute(&item.query, &record.spec, &record.scene)
            .map(|answer| answer.to_text())
            .map_err(|refusal| refusal.to_string())
    })
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let args = *args.inner;
    // Known before anything can fail: no message may show a secret either.
    let extra_json = args
        .extra_json
        .as_deref()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(t).ok());
    let secrets = adapter::option_secrets(&AdapterOptions {
        base_url: args.base_url.clone(),
        api_key_env: args.api_key_env.clone(),
        extra_json,
        cmd: args.cmd.clone(),
        ..AdapterOptions::default()
    });
    run_with(args, &secrets)
        .map_err(|err| anyhow::anyhow!("{}", secrets.redact(&format!("{err:#}"))))
}

fn run_with(args: RunArgs, secrets: &Secrets) -> anyhow::Result<ExitCode> {
    if !args.suite.join("items.jsonl").is_file() {
        bail!(
            "{} is not a suite folder (no items.jsonl)",
            args.suite.display()
        );
    }
    let strategy = Strategy::from_name(&args.prompt)
        .with_context(|| format!("--prompt must be direct, cot or pot, got `{}`", args.prompt))?;
    let mut sets = Vec::new();
    for name in args.sets.iter().filter(|s| !s.trim().is_empty()) {
        sets.push(SetName::from_name(name).with_context(|| {
            format!(
                "unknown set `{name}` (known: original, modified_chart, modified_question, modified_both)"
            )
        })?);
    }
    let extra_json = match &args.extra_json {
        Some(text) => Some(
            serde_json::from_str::<serde_json::Value>(text)
                // Not the text itself: it may hold a key.
                .map_err(|e| anyhow::anyhow!("--extra-json is not valid JSON: {e}"))?,
        ),
        None => None,
    };
    let secs = |s: f64, flag: &str| -> anyhow::Result<Duration> {
        if !(s.is_finite() && s > 0.0) {
            bail!("{flag} must be a positive number of seconds, got {s}");
        }
        Ok(Duration::from_secs_f64(s))
    };
    let opts = AdapterOptions {
        base_url: args.base_url.clone(),
        model: args.model.clone(),
        api_key_env: args.api_key_env.clone(),
        temperature: args.temperature,
        max_tokens: args.max_tokens,
        seed: args.seed,
        extra_json,
        concurrency: args.concurrency.max(1),
        timeout: secs(args.timeout_secs, "--timeout-secs")?,
        retry: !args.no_retry,
        max_retries: args.max_retries,
        retry_base: Duration::from_millis(args.retry_base_ms),
        max_retry_after: {
            let s = args.max_retry_after;
            if !(s.is_finite() && s >= 0.0) {
                bail!("--max-retry-after must be a number of seconds ≥ 0, got {s}");
            }
            Duration::from_secs_f64(s)
        },
        max_consecutive_failures: args.max_consecutive_failures,
        cmd: args.cmd.clone(),
        workers: args.workers.max(1),
        oracle_fn: Some(oracle_executor()),
        blind_seed: args.blind_seed,
        ..AdapterOptions::default()
    };
    let adapter = adapter::build(&args.adapter, &opts)?;
    let run_opts = RunOptions {
        name: args.name.clone(),
        strategy,
        prompt_template: args.prompt_template.clone(),
        sets,
        limit: args.limit,
        pairs: args.pairs,
        shard: args.shard,
        retry_errors: args.retry_errors,
        cache: !args.no_cache,
        cache_dir: args.cache_dir.clone(),
        cache_tag: args.cache_tag.clone(),
        execute_pot: args.execute_pot,
        pot_timeout: secs(args.pot_timeout_secs, "--pot-timeout-secs")?,
        progress: !args.no_progress,
    };
    let summary = match run_suite(&args.suite, adapter, &run_opts) {
        Ok(summary) => summary,
        // Not unusable input: the server went away. What was answered is kept.
        Err(RunError::Stopped {
            message,
            run_dir,
            done,
            errors,
            selected,
        }) => {
            eprintln!("error: {}", secrets.redact(&message));
            let retry = if errors > 0 {
                format!(" (add --retry-errors to call the {errors} failed item(s) again)")
            } else {
                String::new()
            };
            eprintln!(
                "{}: {done} of {selected} items have a prediction, kept; run the same command \
                 again once the server is reachable to continue{retry}",
                run_dir.display()
            );
            return Ok(ExitCode::from(1));
        }
        Err(err) => {
            return Err(anyhow::Error::new(err).context(format!("run on {}", args.suite.display())));
        }
    };
    eprintln!(
        "{}: {} items — {} already done, {} answered, {} from cache, {} failed now; {} error(s) remain in {:.1}s",
        summary.run_dir.display(),
        summary.selected,
        summary.skipped,
        summary.called,
        summary.cached,
        summary.new_errors,
        summary.errors,
        summary.elapsed_secs,
    );
    if summary.stale > 0 {
        eprintln!(
            "{} earlier answer(s) were for items that have changed since (the suite was \
             generated again): answered again",
            summary.stale
        );
    }
    if summary.errors > 0 {
        let kinds: Vec<String> = summary
            .error_counts
            .iter()
            .map(|(k, n)| format!("{k}: {n}"))
            .collect();
        eprintln!(
            "errors by kind: {} (rerun with --retry-errors to try them again)",
            kinds.join(", ")
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
