//! `chartstress check`: robustness thresholds as an exit code for CI.
//! Exit 0 when every threshold holds, 1 when one is crossed, 2 on unusable input.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use chartstress::report::check::parse_axis_threshold;
use chartstress::report::{Bound, CheckOptions, build_report, evaluate};
use chartstress::score::Metric;

/// Arguments of `chartstress check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Suite folder.
    pub suite: PathBuf,
    /// Run to check (a name under SUITE/runs/).
    #[arg(long)]
    pub run: String,
    /// Largest allowed gap original − modified, in points, for every modified set.
    #[arg(long)]
    pub max_gap: Option<f64>,
    /// Largest allowed gap for one perturbation axis: AXIS=POINTS (repeatable).
    #[arg(long, value_parser = parse_axis_threshold)]
    pub max_gap_axis: Vec<(String, f64)>,
    /// Smallest allowed accuracy on the original set, in percent.
    #[arg(long)]
    pub min_accuracy: Option<f64>,
    /// upper: judge on the 95% bound (gap upper, accuracy lower); point: on the estimate.
    #[arg(long, default_value = "upper")]
    pub bound: Bound,
    /// Metric: relaxed, chartqapro-reference, chartqa, exact, anls.
    #[arg(long, short, default_value = "relaxed")]
    pub metric: Metric,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let report = match build_report(&args.suite, std::slice::from_ref(&args.run), args.metric) {
        Ok(r) => r,
        Err(err) => {
            eprintln!("error: {err}");
            return Ok(ExitCode::from(2));
        }
    };
    let run = &report.runs[0];
    let opts = CheckOptions {
        max_gap: args.max_gap,
        max_gap_axis: args.max_gap_axis,
        min_accuracy: args.min_accuracy,
        bound: args.bound,
    };
    let outcome = evaluate(run, &opts);
    // A closed pipe must not turn a verdict into a panic; the exit code carries it.
    let _ = std::io::stdout().write_all(outcome.summary(run, opts.bound).as_bytes());
    for w in &run.warnings {
        eprintln!("warning: {w}");
    }
    Ok(if !outcome.unusable.is_empty() {
        ExitCode::from(2)
    } else if outcome.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
