//! `chartstress run`.

/// Arguments of `chartstress run`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<std::process::ExitCode> {
    anyhow::bail!("`run` is not built yet")
}
