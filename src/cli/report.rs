//! `chartstress report`: write report.json, report.md, report.html and junit.xml.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use chartstress::report::check::parse_axis_threshold;
use chartstress::report::{
    Bound, CheckOptions, ReportOptions, WriteOptions, build_report_with, write_report,
};
use chartstress::score::Metric;

/// Arguments of `chartstress report`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Suite folder (with items.jsonl and runs/).
    pub suite: PathBuf,
    /// Runs to report (names under SUITE/runs/); default: all.
    #[arg(long, num_args = 1..)]
    pub runs: Vec<String>,
    /// Metric: relaxed, chartqapro-reference, chartqa, exact, anls.
    #[arg(long, short, default_value = "relaxed")]
    pub metric: Metric,
    /// Output folder (default: SUITE/report).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Gap threshold (points) turned into junit.xml test cases.
    #[arg(long)]
    pub max_gap: Option<f64>,
    /// Per-axis gap thresholds AXIS=POINTS for junit.xml.
    #[arg(long, value_parser = parse_axis_threshold)]
    pub max_gap_axis: Vec<(String, f64)>,
    /// Minimum original-set accuracy (percent) for junit.xml.
    #[arg(long)]
    pub min_accuracy: Option<f64>,
    /// Flipped pairs shown in the HTML failure gallery.
    #[arg(long, default_value_t = 24)]
    pub gallery: usize,
    /// Judge junit thresholds on the 95% bound (upper) or the point estimate.
    #[arg(long, default_value = "upper")]
    pub bound: Bound,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let options = ReportOptions {
        max_failures: args.gallery,
        ..ReportOptions::default()
    };
    let report = build_report_with(&args.suite, &args.runs, args.metric, &options)?;
    let out = args
        .output
        .clone()
        .unwrap_or_else(|| args.suite.join("report"));
    let opts = WriteOptions {
        check: CheckOptions {
            max_gap: args.max_gap,
            max_gap_axis: args.max_gap_axis,
            min_accuracy: args.min_accuracy,
            bound: args.bound,
        },
    };
    let written = write_report(&report, &args.suite, &out, &opts)?;
    // Summary text goes out in one write whose failure (a closed pipe) is ignored.
    let mut text = format!(
        "{:<24} {:>8} {:>8} {:>8}  accuracy per set (gap original − modified, points)\n",
        "run", "scored", "errors", "missing"
    );
    for run in &report.runs {
        let gaps: Vec<String> = run
            .gaps
            .iter()
            .map(|g| format!("{} {}", g.name, chartstress::report::fmt_opt(g.gap, 1)))
            .collect();
        text.push_str(&format!(
            "{:<24} {:>8} {:>8} {:>8}  {} ({})\n",
            run.name,
            run.scored,
            run.errors,
            run.missing,
            chartstress::report::check::set_summary(run),
            gaps.join(", ")
        ));
        for w in &run.warnings {
            eprintln!("warning: {w}");
        }
    }
    for path in written {
        text.push_str(&format!("wrote {}\n", path.display()));
    }
    let _ = std::io::stdout().write_all(text.as_bytes());
    // Everything is written; skipped lines still make the exit code say so.
    let malformed: usize = report.runs.iter().map(|r| r.malformed_lines).sum();
    if malformed > 0 {
        eprintln!(
            "error: {malformed} malformed prediction line(s) skipped (see the warnings above)"
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
