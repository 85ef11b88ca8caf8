//! `chartstress score`.

/// Arguments of `chartstress score`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<std::process::ExitCode> {
    anyhow::bail!("`score` is not built yet")
}
