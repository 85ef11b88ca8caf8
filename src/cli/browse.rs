//! `chartstress browse`.

use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use chartstress::suite::{BrowseOptions, browse_html};

/// Arguments of `chartstress browse`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  chartstress browse out/suite -o out/suite/browse.html
  chartstress browse out/suite -o page.html --inline --limit 50")]
pub struct Args {
    /// Suite folder.
    pub suite: PathBuf,
    /// HTML page to write.
    #[arg(short, long)]
    pub out: PathBuf,
    /// Embed the images in the page (self-contained, larger).
    #[arg(long)]
    pub inline: bool,
    /// Show at most this many original items (each with its modified items).
    #[arg(long, default_value_t = 200)]
    pub limit: usize,
}

/// `to` relative to the folder `from`, as a URL prefix ending in `/` (or empty).
fn relative_prefix(from: &Path, to: &Path) -> String {
    let (from, to) = match (from.canonicalize(), to.canonicalize()) {
        (Ok(a), Ok(b)) => (a, b),
        _ => return format!("{}/", to.display()),
    };
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".to_string(); a.len() - common];
    parts.extend(
        b[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    if parts.is_empty() {
        String::new()
    } else {
        format!("{}/", parts.join("/"))
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let page_dir = args
        .out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(page_dir)
        .with_context(|| format!("creating {}", page_dir.display()))?;
    let opts = BrowseOptions {
        image_base: relative_prefix(page_dir, &args.suite),
        inline: args.inline,
        limit: args.limit,
    };
    let html = browse_html(&args.suite, &opts)?;
    std::fs::write(&args.out, html).with_context(|| format!("writing {}", args.out.display()))?;
    println!("wrote {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}
