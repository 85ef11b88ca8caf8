//! `chartstress gallery`.

/// Arguments of `chartstress gallery`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<std::process::ExitCode> {
    anyhow::bail!("`gallery` is not built yet")
}
