//! `chartstress demo`.

/// Arguments of `chartstress demo`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<std::process::ExitCode> {
    anyhow::bail!("`demo` is not built yet")
}
