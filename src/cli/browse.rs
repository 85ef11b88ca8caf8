//! `chartstress browse`.

/// Arguments of `chartstress browse`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<std::process::ExitCode> {
    anyhow::bail!("`browse` is not built yet")
}
