//! `chartstress export`: a suite in another harness's dataset format.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

#[derive(Debug, clap::Args)]
#[command(
    long_about = "Write a suite in an evaluation harness's dataset format. `vlmevalkit` writes \
one custom-benchmark TSV (index, id, base64 PNG image, question, answer, category, \
l2-category, split): put it in $LMUData and run VLMEvalKit with --data NAME; bring its result \
file back with `chartstress import-run`.",
    after_help = "Examples:\n  \
chartstress export out/suite --format vlmevalkit -o ~/LMUData/ChartStress.tsv"
)]
pub struct Args {
    /// Suite folder (written by `generate`).
    pub suite: PathBuf,
    /// Target format: vlmevalkit.
    #[arg(long)]
    pub format: String,
    /// Output file (default: SUITE/export/ChartStress.tsv).
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
        other => bail!("unknown export format {other:?} (known: vlmevalkit)"),
    }
}
