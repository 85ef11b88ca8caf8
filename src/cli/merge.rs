//! `chartstress merge`.

/// Arguments of `chartstress merge`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<std::process::ExitCode> {
    anyhow::bail!("`merge` is not built yet")
}
