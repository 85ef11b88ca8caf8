//! `chartstress render`.

/// Arguments of `chartstress render`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<std::process::ExitCode> {
    anyhow::bail!("`render` is not built yet")
}
