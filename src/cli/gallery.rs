//! `chartstress gallery`: every table × every suitable kind × every theme,
//! rendered in parallel, with an HTML index and a contact sheet.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use chartstress::ir::{ChartKind, Style, Table};
use chartstress::{render, spec};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

/// Arguments of `chartstress gallery`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  chartstress gallery -o out/gallery
  chartstress gallery fixtures/energy_mix_stacked.csv --themes classic,dark -o out/g
  chartstress gallery data/ --kinds bar,line --thumb-width 320 -o out/g

Writes DIR/images/TABLE__KIND__THEME.png, DIR/index.html (thumbnails with
captions, grouped by table) and DIR/contact_sheet.png (one row per table and
kind, one column per theme). A table that fails to load or render is
reported and skipped; the exit code is then 1.")]
pub struct Args {
    /// Table files or folders (default: fixtures/ here, else the fixtures built into the binary).
    pub tables: Vec<PathBuf>,
    /// Output folder.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Comma-separated theme names (default: all built-in themes).
    #[arg(long, value_delimiter = ',')]
    pub themes: Vec<String>,
    /// Comma-separated chart kinds to keep (default: every suitable kind).
    #[arg(long, value_delimiter = ',')]
    pub kinds: Vec<String>,
    /// Thumbnail width in the contact sheet, in pixels.
    #[arg(long, default_value_t = 200)]
    pub thumb_width: u32,
    /// One chart per kind, from the first table (in input order) that suits
    /// it, in the first theme; also writes DIR/kinds/KIND.png thumbnails.
    #[arg(long)]
    pub one_per_kind: bool,
    /// Hide the progress bar.
    #[arg(long)]
    pub quiet: bool,
}

struct Job<'a> {
    table: &'a Table,
    kind: ChartKind,
    style: &'a Style,
}

struct Done {
    kind: ChartKind,
    file: String,
    caption: String,
    thumb: Option<image::RgbImage>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (tables, load_errors) = super::load_inputs(&args.tables, false)?;
    super::print_table_notes(&tables);
    for e in &load_errors {
        eprintln!("warning: skipped table: {e}");
    }
    if tables.is_empty() {
        anyhow::bail!("no usable tables to draw");
    }
    let themes: Vec<Style> = if args.themes.is_empty() {
        spec::builtin_themes()
    } else {
        args.themes
            .iter()
            .map(|t| spec::theme(t))
            .collect::<Result<_, _>>()?
    };
    let wanted: Vec<ChartKind> = args
        .kinds
        .iter()
        .map(|k| ChartKind::from_name(k).with_context(|| format!("unknown chart kind {k:?}")))
        .collect::<anyhow::Result<_>>()?;
    let mut jobs = Vec::new();
    let mut drawn_kinds = std::collections::HashSet::new();
    for table in &tables {
        for kind in spec::suitable_kinds(table) {
            if !wanted.is_empty() && !wanted.contains(&kind) {
                continue;
            }
            if args.one_per_kind {
                if drawn_kinds.insert(kind) {
                    jobs.push(Job {
                        table,
                        kind,
                        style: &themes[0],
                    });
                }
                continue;
            }
            for style in &themes {
                jobs.push(Job { table, kind, style });
            }
        }
    }
    if args.one_per_kind {
        // Kinds in their registry order, so the sheet reads like the docs.
        jobs.sort_by_key(|j| ChartKind::ALL.iter().position(|k| *k == j.kind));
        for kind in ChartKind::ALL {
            if !drawn_kinds.contains(&kind) && (wanted.is_empty() || wanted.contains(&kind)) {
                eprintln!("warning: no table suits {}", kind.name());
            }
        }
    }
    let images = args.output.join("images");
    std::fs::create_dir_all(&images).with_context(|| format!("creating {}", images.display()))?;

    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(jobs.len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} charts {elapsed} (eta {eta})")
            .expect("valid template"),
    );
    let thumb_w = args.thumb_width.clamp(40, 800);
    let results: Vec<Result<Done, String>> = jobs
        .par_iter()
        .map(|job| {
            let r = render_one(job, &images, thumb_w);
            bar.inc(1);
            r
        })
        .collect();
    bar.finish_and_clear();

    let mut failures = load_errors.len();
    let mut done = Vec::new();
    for r in results {
        match r {
            Ok(d) => done.push(d),
            Err(e) => {
                failures += 1;
                eprintln!("warning: {e}");
            }
        }
    }
    let index = args.output.join("index.html");
    std::fs::write(&index, index_html(&done, themes.len())?)
        .with_context(|| format!("writing {}", index.display()))?;
    let sheet = args.output.join("contact_sheet.png");
    let cols = if args.one_per_kind {
        4
    } else {
        themes.len().max(1)
    };
    write_contact_sheet(&done, cols, thumb_w, &sheet)?;
    if args.one_per_kind {
        write_kind_thumbnails(&done, &args.output.join("kinds"))?;
    }
    if args.one_per_kind {
        println!(
            "{} charts, one per kind, from {} tables: {}, {}",
            done.len(),
            tables.len(),
            index.display(),
            sheet.display()
        );
    } else {
        println!(
            "{} charts from {} tables × {} themes: {}, {}",
            done.len(),
            tables.len(),
            themes.len(),
            index.display(),
            sheet.display()
        );
    }
    Ok(if failures > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn render_one(job: &Job<'_>, images: &Path, thumb_w: u32) -> Result<Done, String> {
    let what = format!(
        "{} as {} in {}",
        job.table.id,
        job.kind.name(),
        job.style.theme
    );
    // Heatmaps print their cells' values, as papers (and suites) draw them.
    let labelled;
    let style = if job.kind == ChartKind::Heatmap && !job.style.data_labels {
        labelled = Style {
            data_labels: true,
            ..job.style.clone()
        };
        &labelled
    } else {
        job.style
    };
    let chart = spec::single(job.table, job.kind, style).map_err(|e| format!("{what}: {e}"))?;
    let (rendered, pixels) =
        render::render_with_pixels(&chart).map_err(|e| format!("{what}: {e}"))?;
    let file = format!(
        "{}__{}__{}.png",
        job.table.id,
        job.kind.name(),
        job.style.theme
    );
    std::fs::write(images.join(&file), &rendered.png)
        .map_err(|e| format!("{what}: writing {file}: {e}"))?;
    // From the pixels in memory: decoding the PNG again cost more than drawing it.
    let thumb = Some(pixels.thumbnail(thumb_w));
    Ok(Done {
        kind: job.kind,
        file,
        caption: format!(
            "{} · {} · {}",
            job.table.id,
            job.kind.name(),
            job.style.theme
        ),
        thumb,
    })
}

const INDEX: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>chartstress gallery</title>
<style>
body { font-family: sans-serif; margin: 1.5em; background: #fafafa; color: #222; }
.grid { display: grid; grid-template-columns: repeat({{ cols }}, minmax(160px, 1fr)); gap: 12px; }
figure { margin: 0; background: #fff; border: 1px solid #ddd; padding: 6px; }
img { width: 100%; height: auto; display: block; }
figcaption { font-size: 12px; margin-top: 4px; word-break: break-word; }
</style></head><body>
<h1>chartstress gallery</h1>
<p>{{ items|length }} charts.</p>
<div class="grid">
{% for item in items %}<figure><a href="images/{{ item.file }}"><img loading="lazy" src="images/{{ item.file }}" alt="{{ item.caption }}"></a><figcaption>{{ item.caption }}</figcaption></figure>
{% endfor %}</div>
</body></html>
"#;

fn index_html(done: &[Done], cols: usize) -> anyhow::Result<String> {
    let mut env = minijinja::Environment::new();
    // The .html name turns on HTML auto-escaping of captions and file names.
    env.add_template("index.html", INDEX)?;
    let items: Vec<serde_json::Value> = done
        .iter()
        .map(|d| serde_json::json!({ "file": d.file, "caption": d.caption }))
        .collect();
    let html = env
        .get_template("index.html")?
        .render(minijinja::context! { items => items, cols => cols.clamp(1, 6) })?;
    Ok(html)
}

/// DIR/KIND.png: each kind's thumbnail on its own, for documentation.
fn write_kind_thumbnails(done: &[Done], dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    for d in done {
        let Some(t) = &d.thumb else { continue };
        let png = chartstress::render::fast_png(
            t.as_raw(),
            t.width(),
            t.height(),
            image::ExtendedColorType::Rgb8,
        )?;
        let path = dir.join(format!("{}.png", d.kind.name()));
        std::fs::write(&path, png).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// Thumbnails in rows of `cols` (one column per theme), in job order.
fn write_contact_sheet(
    done: &[Done],
    cols: usize,
    thumb_w: u32,
    path: &Path,
) -> anyhow::Result<()> {
    let thumb_h = done
        .iter()
        .filter_map(|d| d.thumb.as_ref().map(|t| t.height()))
        .max()
        .unwrap_or(thumb_w * 3 / 4);
    let gap = 4u32;
    let rows = done.len().div_ceil(cols).max(1) as u32;
    let width = cols as u32 * (thumb_w + gap) + gap;
    let height = rows * (thumb_h + gap) + gap;
    let mut sheet = image::RgbImage::from_pixel(width, height, image::Rgb([235, 235, 235]));
    for (i, d) in done.iter().enumerate() {
        if let Some(t) = &d.thumb {
            let (r, c) = ((i / cols) as u32, (i % cols) as u32);
            image::imageops::overlay(
                &mut sheet,
                t,
                i64::from(gap + c * (thumb_w + gap)),
                i64::from(gap + r * (thumb_h + gap)),
            );
        }
    }
    let png = chartstress::render::fast_png(
        sheet.as_raw(),
        width,
        height,
        image::ExtendedColorType::Rgb8,
    )?;
    std::fs::write(path, png).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}
