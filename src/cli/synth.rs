//! `chartstress synth`.

/// Arguments of `chartstress synth`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<std::process::ExitCode> {
    anyhow::bail!("`synth` is not built yet")
}
