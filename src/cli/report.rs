//! `chartstress report`.

/// Arguments of `chartstress report`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<std::process::ExitCode> {
    anyhow::bail!("`report` is not built yet")
}
