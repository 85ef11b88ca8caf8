//! `chartstress export`: a suite in another harness's dataset format.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

#[derive(Debug, clap::Args)]
#[command(
    long_about = "Write a suite in an evaluation harness's dataset format. `vlmevalkit` writes \
one custom-benchmark TSV (index, id, base64 PNG image, question, answer, category, \
l2-category, split): put it in $LMUData and run VLMEvalKit with --data NAME; bring its result \
file back with `chartstress import-run`. `inspect` writes an inspect_ai task folder \
(default SUITE/export/inspect/): dataset.jsonl (id, input = the `direct` prompt text, target, \
metadata), the charts under images/, and chartstress_task.py (one task, `-T set=NAME` keeps one \
set; its scorer approximates the relaxed metric). Run `inspect eval \
DIR/chartstress_task.py@chartstress --model ...` and bring the log back with `chartstress \
import-run --from inspect`: `report` on that run is the authoritative score. The same suite \
gives the same files, byte for byte.",
    after_help = "Examples:\n  \
chartstress export out/suite --format vlmevalkit -o ~/LMUData/ChartStress.tsv\n  \
chartstress export out/suite --format inspect -o chartstress-inspect"
)]
pub struct Args {
    /// Suite folder (written by `generate`).
    pub suite: PathBuf,
    /// Target format: vlmevalkit or inspect.
    #[arg(long)]
    pub format: String,
    /// Output file for vlmevalkit (default: SUITE/export/ChartStress.tsv), folder for
    /// inspect (default: SUITE/export/inspect).
    #[arg(short, long)]
    pub out: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.format.as_str() {
        "vlmevalkit" => {
            let out = args
                .out
                .unwrap_or_else(|| args.suite.join("export").join("ChartStress.tsv"));
            let n = chartstress::interop::vlmevalkit::export(&args.suite, &out)?;
            println!("wrote {n} items to {}", out.display());
            Ok(ExitCode::SUCCESS)
        }
        "inspect" => {
            let out = args
                .out
                .unwrap_or_else(|| args.suite.join("export").join("inspect"));
            let n = chartstress::interop::inspect::export(&args.suite, &out)?;
            println!("wrote {n} items to {}", out.display());
            println!(
                "run: inspect eval {}@chartstress --model PROVIDER/MODEL",
                out.join(chartstress::interop::inspect::TASK_FILE).display()
            );
            Ok(ExitCode::SUCCESS)
        }
        other => bail!("unknown export format {other:?} (known: vlmevalkit, inspect)"),
    }
}
