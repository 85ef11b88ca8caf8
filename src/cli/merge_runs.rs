//! `chartstress merge-runs`: the runs workers made on parts of a suite, as one run.

use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
#[command(
    long_about = "Join runs made on parts of one suite (`run --shard K/N --name RUN-K` on \
several workers) into one run that `report` and `check` read. The parts must share one \
configuration (adapter, model, prompt) and answer disjoint items; predictions are written in \
suite order.",
    after_help = "Examples:\n  \
chartstress run out/suite --adapter openai --model m --shard 1/2 --name m-1   # worker 1\n  \
chartstress run out/suite --adapter openai --model m --shard 2/2 --name m-2   # worker 2\n  \
chartstress merge-runs out/suite --name m m-1 m-2"
)]
pub struct Args {
    /// Suite folder the runs belong to.
    pub suite: PathBuf,
    /// Name of the joined run (SUITE/runs/NAME/).
    #[arg(long)]
    pub name: String,
    /// The parts' run names.
    #[arg(required = true)]
    pub parts: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let merged = chartstress::run::merge::merge_runs(&args.suite, &args.name, &args.parts)?;
    println!(
        "merged {} runs into {}: {} predictions, {} errors",
        args.parts.len(),
        merged.run_dir.display(),
        merged.predictions,
        merged.errors
    );
    Ok(ExitCode::SUCCESS)
}
