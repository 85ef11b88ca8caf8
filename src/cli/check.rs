//! `chartstress check`.

/// Arguments of `chartstress check`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<std::process::ExitCode> {
    anyhow::bail!("`check` is not built yet")
}
