//! `chartstress generate`.

/// Arguments of `chartstress generate`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<std::process::ExitCode> {
    anyhow::bail!("`generate` is not built yet")
}
