//! `chartstress merge`.

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `chartstress merge`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  chartstress generate --out out/p1 --shard 1/2 && chartstress generate --out out/p2 --shard 2/2
  chartstress merge out/p1 out/p2 -o out/suite

The merged suite is byte-identical to an unsharded `generate` with the same tables, config and seed.")]
pub struct Args {
    /// Shard folders written by `generate --shard K/N` (all N of them).
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
    /// Output suite folder.
    #[arg(short, long)]
    pub out: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    chartstress::suite::merge(&args.shards, &args.out)?;
    let c = chartstress::suite::composition(&args.out)?;
    println!(
        "merged {} shards into {}: {} items on {} charts",
        args.shards.len(),
        args.out.display(),
        c.items,
        c.charts
    );
    Ok(ExitCode::SUCCESS)
}
