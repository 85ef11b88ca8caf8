//! `chartstress demo`: the whole pipeline on the shipped fixtures — generate a
//! suite, run the built-in models, write the report — in one command.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};

use chartstress::adapter::{self, AdapterError, AdapterOptions};
use chartstress::report::{WriteOptions, build_report, fmt_ci, fmt_opt, fmt_p, write_report};
use chartstress::run::{RunOptions, run_suite};
use chartstress::score::Metric;
use chartstress::suite::{SuiteConfig, generate_suite};

/// Arguments of `chartstress demo`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  chartstress demo
  chartstress demo -o out/demo --seed 7 --no-ocr

Writes OUT/suite (the generated suite, with runs/oracle, runs/blind and, when
tesseract is installed, runs/ocr) and OUT/report (report.html, report.md,
report.json, junit.xml). Exits 1 when the oracle misses any item: the oracle
answers from the data, so a miss is a pipeline bug, not a model error.")]
pub struct Args {
    /// Output folder.
    #[arg(short, long, default_value = "out/demo")]
    pub out: PathBuf,
    /// Tables (files or folders); default: the shipped fixtures.
    pub tables: Vec<PathBuf>,
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
    /// Charts per table in the original set.
    #[arg(long, default_value_t = 2)]
    pub charts_per_table: usize,
    /// Questions per chart in the original set.
    #[arg(long, default_value_t = 4)]
    pub questions_per_chart: usize,
    /// Original items (each with all its modified items) the OCR baseline
    /// answers; Tesseract takes about a second per image, the rest is fast.
    #[arg(long, default_value_t = 10)]
    pub ocr_pairs: usize,
    /// Skip the OCR baseline even when tesseract is installed.
    #[arg(long)]
    pub no_ocr: bool,
    /// Hide progress bars.
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let (tables, table_errors) = super::load_inputs(&args.tables, false)?;
    for err in &table_errors {
        eprintln!("warning: skipped table: {err}");
    }
    if tables.is_empty() {
        let inputs = if args.tables.is_empty() {
            "the default fixtures".to_string()
        } else {
            join_paths(&args.tables)
        };
        bail!("no usable tables in {inputs}");
    }

    let suite = args.out.join("suite");
    let config = SuiteConfig {
        seed: args.seed,
        charts_per_table: args.charts_per_table,
        questions_per_chart: args.questions_per_chart,
        ..SuiteConfig::default()
    };
    let summary = generate_suite(&tables, &config, &suite, !args.quiet)
        .with_context(|| format!("generating the suite in {}", suite.display()))?;
    for err in &summary.errors {
        eprintln!("warning: {err}");
    }
    println!(
        "generated {} items on {} charts from {} tables → {}",
        summary.items,
        summary.charts,
        summary.tables,
        suite.display()
    );

    let mut run_errors = 0;
    for name in ["oracle", "reader", "blind", "ocr"] {
        if name == "ocr" && args.no_ocr {
            continue;
        }
        let opts = AdapterOptions {
            oracle_fn: Some(super::run::oracle_executor()),
            ..AdapterOptions::default()
        };
        let model = match adapter::build(name, &opts) {
            Ok(model) => model,
            Err(AdapterError::ToolMissing { message, .. }) => {
                println!(
                    "skipping the {name} baseline: {message} (./scripts/setup.sh installs it)"
                );
                continue;
            }
            Err(err) => return Err(err.into()),
        };
        let run_opts = RunOptions {
            progress: !args.quiet,
            // OCR costs about a second per image: a paired sample keeps the demo short.
            pairs: (name == "ocr").then_some(args.ocr_pairs),
            ..RunOptions::default()
        };
        let result = run_suite(&suite, model, &run_opts)
            .with_context(|| format!("running {name} on {}", suite.display()))?;
        run_errors += result.errors;
        println!(
            "ran {name}: {} items in {:.1}s ({} errors)",
            result.selected, result.elapsed_secs, result.errors
        );
    }

    let report = build_report(&suite, &[], Metric::Relaxed)?;
    let report_dir = args.out.join("report");
    write_report(&report, &suite, &report_dir, &WriteOptions::default())?;

    println!();
    println!(
        "{:<8} {:<26} {:>14} {:>24} {:>10}",
        "model", "set", "accuracy %", "gap (95% CI), points", "McNemar p"
    );
    let mut imperfect: Vec<String> = Vec::new();
    for run in &report.runs {
        // A sampled run (ocr) has nothing to say about sets it left out.
        for set in run.sets.iter().filter(|s| s.scored > 0) {
            let gap = run.gaps.iter().find(|g| g.name == set.set);
            let gap_text = gap
                .map(|g| format!("{} {}", fmt_opt(g.gap, 1), fmt_ci(g.ci)))
                .unwrap_or_default();
            let p_text = gap.map(|g| fmt_p(g.mcnemar_p)).unwrap_or_default();
            println!(
                "{:<8} {:<26} {:>14} {:>24} {:>10}",
                run.name,
                set.set,
                format!("{} (n={})", fmt_opt(set.accuracy, 1), set.scored),
                gap_text,
                p_text
            );
            // The oracle proves the arithmetic, the reader that every item
            // is answerable from its picture: both must be perfect.
            if matches!(run.name.as_str(), "oracle" | "reader")
                && set.accuracy.is_some_and(|a| a < 100.0 - 1e-9)
            {
                imperfect.push(run.name.clone());
            }
        }
    }
    println!();
    println!(
        "report: {} (done in {:.1}s)",
        report_dir.join("report.html").display(),
        started.elapsed().as_secs_f64()
    );
    imperfect.dedup();
    if !imperfect.is_empty() {
        eprintln!(
            "error: {} missed items: the suite has answers that disagree with the data \
             (oracle) or that its images do not show (reader)",
            imperfect.join(" and ")
        );
        return Ok(ExitCode::from(1));
    }
    if !table_errors.is_empty() || !summary.errors.is_empty() || run_errors > 0 {
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

fn join_paths(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
