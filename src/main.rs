//! The `chartstress` binary: parses arguments and calls the library.

mod cli;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "chartstress",
    version,
    about = "Robustness stress tests for chart question answering",
    long_about = "Renders many visually different charts from data tables, asks many differently \
worded questions about them with answers computed from the data, runs vision-language models \
on paired original/modified items and reports the accuracy gap."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the whole pipeline on the shipped fixtures: generate, run built-in models, report.
    Demo(cli::demo::Args),
    /// Synthesize realistic data tables.
    Synth(cli::synth::Args),
    /// Render one table as a chart (PNG, SVG and scene).
    Render(cli::render::Args),
    /// Render every table in every suitable kind and theme, with an index page.
    Gallery(cli::gallery::Args),
    /// Render a chart and print generated questions about it.
    Ask(cli::ask::Args),
    /// Print question diversity and suite composition.
    Stats(cli::stats::Args),
    /// Generate a stress-test suite from tables.
    Generate(cli::generate::Args),
    /// Merge suite shards into one suite.
    Merge(cli::merge::Args),
    /// Add a model's verified rewordings of a set's questions to a suite.
    Paraphrase(cli::paraphrase::Args),
    /// Write a static HTML page to browse a suite.
    Browse(cli::browse::Args),
    /// Run a model adapter over a suite (resumable).
    Run(cli::run::Args),
    /// Join runs made on parts of a suite (`run --shard`) into one run.
    MergeRuns(cli::merge_runs::Args),
    /// Score arbitrary prediction records with a metric.
    Score(cli::score::Args),
    /// Write reports (JSON, Markdown, HTML, JUnit) for runs of a suite.
    Report(cli::report::Args),
    /// Gate on robustness thresholds (exit 1 when crossed, 2 on unusable input).
    Check(cli::check::Args),
    /// Write a suite in another harness's dataset format.
    Export(cli::export::Args),
    /// Turn another harness's predictions into a run of a suite.
    ImportRun(cli::import_run::Args),
    /// Build a suite from another benchmark's charts, tables and questions.
    ImportBenchmark(cli::import_benchmark::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Demo(a) => cli::demo::run(a),
        Command::Synth(a) => cli::synth::run(a),
        Command::Render(a) => cli::render::run(a),
        Command::Gallery(a) => cli::gallery::run(a),
        Command::Ask(a) => cli::ask::run(a),
        Command::Stats(a) => cli::stats::run(a),
        Command::Generate(a) => cli::generate::run(a),
        Command::Merge(a) => cli::merge::run(a),
        Command::Paraphrase(a) => cli::paraphrase::run(a),
        Command::Browse(a) => cli::browse::run(a),
        Command::Run(a) => cli::run::run(a),
        Command::MergeRuns(a) => cli::merge_runs::run(a),
        Command::Score(a) => cli::score::run(a),
        Command::Report(a) => cli::report::run(a),
        Command::Check(a) => cli::check::run(a),
        Command::Export(a) => cli::export::run(a),
        Command::ImportRun(a) => cli::import_run::run(a),
        Command::ImportBenchmark(a) => cli::import_benchmark::run(a),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
