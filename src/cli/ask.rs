//! `chartstress ask`.

/// Arguments of `chartstress ask`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<std::process::ExitCode> {
    anyhow::bail!("`ask` is not built yet")
}
