//! `chartstress stats`.

/// Arguments of `chartstress stats`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<std::process::ExitCode> {
    anyhow::bail!("`stats` is not built yet")
}
