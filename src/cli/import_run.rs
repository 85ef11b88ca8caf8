//! `chartstress import-run`: another harness's predictions as a run folder.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

#[derive(Debug, clap::Args)]
#[command(
    long_about = "Turn the predictions another harness made on an exported suite into \
SUITE/runs/NAME/, so `report` and `check` read them like a run of chartstress's own. Answers \
are extracted from each reply as `run` extracts them. `vlmevalkit` reads VLMEvalKit's result \
files, one or both of the VQA and MCQ ones (its XLSX, or the same tables as TSV): rows are matched to items by the `id` column the \
export wrote, else by `index`. `lmms-eval` reads the samples files lmms-eval writes with \
--log_samples (`<date>_samples_<task>.jsonl`, one or several, e.g. one per set): the reply is \
`filtered_resps` (else `resps`), the item `doc.id`, else `doc_id` counted in the order of the \
task the file name names. `inspect` reads an inspect_ai eval log, `.eval` (its default) or \
`--log-format json`: each sample's `id` and its `output.completion` (else the last assistant \
message); with several epochs the lowest (epoch 1) is taken; a sample inspect errored on \
becomes an errored prediction. Records that match no item, repeated ids and items without a \
record are reported; exit code 1 when there were any.",
    after_help = "Examples:\n  \
chartstress import-run out/suite --from vlmevalkit outputs/MyVLM/MyVLM_ChartStress.xlsx --name myvlm\n  \
chartstress import-run out/suite --from lmms-eval logs/myvlm/*_samples_chartstress.jsonl --name myvlm\n  \
chartstress import-run out/suite --from inspect logs/2026-01-01T00-00-00_chartstress_X.eval --name myvlm"
)]
pub struct Args {
    /// Suite folder the predictions were made on.
    pub suite: PathBuf,
    /// The harness that wrote FILES: vlmevalkit, lmms-eval, inspect.
    #[arg(long)]
    pub from: String,
    /// The harness's prediction file (lmms-eval: one or more samples files; inspect: an
    /// eval log).
    #[arg(required = true, num_args = 1..)]
    pub files: Vec<PathBuf>,
    /// Run name: predictions go to SUITE/runs/NAME/.
    #[arg(long)]
    pub name: String,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (dir, summary) = match args.from.as_str() {
        "vlmevalkit" => {
            chartstress::interop::vlmevalkit::import(&args.suite, &args.files, &args.name)?
        }
        "lmms-eval" => {
            chartstress::interop::lmms_eval::import(&args.suite, &args.files, &args.name)?
        }
        "inspect" => {
            let [file] = args.files.as_slice() else {
                bail!("inspect: give one eval log");
            };
            chartstress::interop::inspect::import(&args.suite, file, &args.name)?
        }
        other => bail!("unknown harness {other:?} (known: vlmevalkit, lmms-eval, inspect)"),
    };
    let source = args
        .files
        .iter()
        .map(|f| f.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    println!(
        "imported {} predictions into {} ({} items without a record)",
        summary.imported,
        dir.display(),
        summary.missing
    );
    for id in &summary.unknown {
        eprintln!("warning: {source}: {id} matches no item of the suite");
    }
    for id in &summary.duplicates {
        eprintln!("warning: {source}: {id} given again; the first record is kept");
    }
    let clean = summary.unknown.is_empty() && summary.duplicates.is_empty() && summary.missing == 0;
    Ok(if clean {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
