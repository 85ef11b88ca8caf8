//! `chartstress import-run`: another harness's predictions as a run folder.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

#[derive(Debug, clap::Args)]
#[command(
    long_about = "Turn the predictions another harness made on an exported suite into \
SUITE/runs/NAME/, so `report` and `check` read them like a run of chartstress's own. Answers \
are extracted from each reply as `run` extracts them. `vlmevalkit` reads VLMEvalKit's result \
file (its XLSX, or the same table as TSV): rows are matched to items by the `id` column the \
export wrote, else by `index`. `inspect` reads an inspect_ai eval log, `.eval` (its default) \
or `--log-format json`: each sample's `id` and its `output.completion` (else the last assistant \
message); with several epochs the lowest (epoch 1) is taken; a sample inspect errored on \
becomes an errored prediction. Records that match no item, repeated ids and items without a \
record are reported; exit code 1 when there were any.",
    after_help = "Examples:\n  \
chartstress import-run out/suite --from vlmevalkit outputs/MyVLM/MyVLM_ChartStress.xlsx --name myvlm\n  \
chartstress import-run out/suite --from inspect logs/2026-01-01T00-00-00_chartstress_X.eval --name myvlm"
)]
pub struct Args {
    /// Suite folder the predictions were made on.
    pub suite: PathBuf,
    /// The harness that wrote FILE: vlmevalkit or inspect.
    #[arg(long)]
    pub from: String,
    /// The harness's prediction file (an eval log for inspect).
    pub file: PathBuf,
    /// Run name: predictions go to SUITE/runs/NAME/.
    #[arg(long)]
    pub name: String,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (dir, summary) = match args.from.as_str() {
        "vlmevalkit" => {
            chartstress::interop::vlmevalkit::import(&args.suite, &args.file, &args.name)?
        }
        "inspect" => chartstress::interop::inspect::import(&args.suite, &args.file, &args.name)?,
        other => bail!("unknown harness {other:?} (known: vlmevalkit, inspect)"),
    };
    println!(
        "imported {} predictions into {} ({} items without a record)",
        summary.imported,
        dir.display(),
        summary.missing
    );
    for id in &summary.unknown {
        eprintln!(
            "warning: {}: {id} matches no item of the suite",
            args.file.display()
        );
    }
    for id in &summary.duplicates {
        eprintln!(
            "warning: {}: {id} given again; the first record is kept",
            args.file.display()
        );
    }
    let clean = summary.unknown.is_empty() && summary.duplicates.is_empty() && summary.missing == 0;
    Ok(if clean {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
