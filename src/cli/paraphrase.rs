//! `chartstress paraphrase`: verified model rewordings added to a suite as
//! the `llm` realizer.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::bail;
use chartstress::adapter::{self, AdapterOptions};
use chartstress::ir::SetName;
use chartstress::paraphrase::{ParaphraseOptions, paraphrase_suite};

#[derive(Debug, clap::Args)]
#[command(
    long_about = "Ask a language model behind an OpenAI-compatible endpoint to reword the \
questions of a suite's set (original by default) and add the rewordings that pass every check \
as modified_question items (modified_both for the modified_chart set) of the realizer `llm`. \
A rewording is kept only when it keeps every series, category, option and number of the \
original, adds no number, and still names the asked operation (difference, ratio, sum, \
average, highest, lowest, count, percentage change, the verdict of a fact check, the rounding \
instruction); with --verify-answer also only when the same model, given the chart's table as \
CSV and the rewording, answers with the gold. Kept items record the model and prompt version; \
items the model already reworded are skipped, so a pass can be resumed. suite.json is \
rewritten with the new counts. Exit code 1 when any model call failed.",
    after_help = "Examples:\n  \
chartstress paraphrase out/suite --model gpt-4o-mini --base-url https://api.openai.com/v1\n  \
chartstress paraphrase out/suite --model qwen2.5-7b --limit 200 --verify-answer"
)]
pub struct Args {
    /// Suite folder (written by `generate`).
    pub suite: PathBuf,
    /// The set whose questions are reworded: original or modified_chart.
    #[arg(long, default_value = "original")]
    pub from_set: String,
    /// Reword at most N items.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Keep a rewording only when the model, given the table, answers it right.
    #[arg(long)]
    pub verify_answer: bool,
    /// OpenAI-compatible server base URL (…/v1).
    #[arg(long, default_value = "http://127.0.0.1:8000/v1")]
    pub base_url: String,
    /// Model name sent to the server and recorded with each kept wording.
    #[arg(long)]
    pub model: String,
    /// Environment variable holding the API key (the key is never written anywhere).
    #[arg(long, default_value = "OPENAI_API_KEY")]
    pub api_key_env: String,
    /// Sampling temperature: some randomness gives more varied wordings.
    #[arg(long, default_value_t = 0.7)]
    pub temperature: f64,
    /// Sampling seed sent to the server.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Requests in flight at once.
    #[arg(long, default_value_t = 8)]
    pub concurrency: usize,
    /// Per-request timeout in seconds.
    #[arg(long, default_value_t = 120.0)]
    pub timeout_secs: f64,
    /// Retries after a failed call.
    #[arg(long, default_value_t = 3)]
    pub max_retries: u32,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let Some(from_set) = SetName::from_name(&args.from_set) else {
        bail!("--from-set: unknown set {:?}", args.from_set);
    };
    if !(args.timeout_secs.is_finite() && args.timeout_secs > 0.0) {
        bail!("--timeout-secs must be a positive number of seconds");
    }
    let opts = AdapterOptions {
        base_url: args.base_url.clone(),
        model: Some(args.model.clone()),
        api_key_env: args.api_key_env.clone(),
        temperature: args.temperature,
        seed: args.seed,
        concurrency: args.concurrency.max(1),
        timeout: Duration::from_secs_f64(args.timeout_secs),
        max_retries: args.max_retries,
        ..AdapterOptions::default()
    };
    let model = adapter::build("openai", &opts)?;
    let summary = paraphrase_suite(
        &args.suite,
        model.as_ref(),
        &ParaphraseOptions {
            from_set,
            limit: args.limit,
            verify_answer: args.verify_answer,
            model: args.model.clone(),
            concurrency: args.concurrency.max(1),
        },
    )?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        println!(
            "{}: asked {}, kept {} (realizer llm), {} already reworded by {}",
            args.suite.display(),
            summary.asked,
            summary.kept,
            summary.already_done,
            args.model
        );
        for (reason, n) in &summary.rejected {
            let examples: Vec<String> = summary.rejected_examples[reason]
                .iter()
                .map(|(id, why)| format!("{id}: {why}"))
                .collect();
            println!("  rejected, {reason}: {n} (e.g. {})", examples.join("; "));
        }
        for (id, error) in &summary.failed {
            eprintln!("error: item {id}: {error}");
        }
    }
    Ok(if summary.failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
