//! `chartstress render`: one table → OUT.png, OUT.svg, OUT.scene.json.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use chartstress::ir::ChartKind;
use chartstress::spec::{self, LayoutRequest};

/// Arguments of `chartstress render`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  chartstress render fixtures/fruit_sales.csv -o out/fruit.png
  chartstress render fixtures/energy_mix.csv --kind stacked_area --theme dark -o out/energy.png
  chartstress render data.csv --theme newsprint --set data_labels=true --set number_style=short -o out/a.png
  chartstress render data.csv --layout grid:2x2 -o out/grid.png
  chartstress render fixtures/fruit_sales.csv --kind bar --annotation reference_line -o out/ref.png
  chartstress render data.csv --layout dashboard --width 1400 --height 1000 -o out/dash.png
  chartstress render temperature.csv rainfall.csv --layout figure -o out/related.png

Writes OUT.png, OUT.svg and OUT.scene.json (what was drawn, in PNG pixels).
Without --kind the best-suited kind is chosen. With --layout grid:RxC each
numeric series gets its own panel (a single-series table is shown in several
suitable kinds); a dashboard shows the table in up to three kinds with KPI
tiles, the title as banner and the table's paragraph. Several related tables
(the same index column and categories) draw as one lettered figure, a panel
per table.")]
pub struct Args {
    /// Table file (.csv, .tsv or .json, with an optional NAME.meta.json
    /// sidecar); several related tables make one lettered figure.
    #[arg(required = true)]
    pub tables: Vec<PathBuf>,
    /// Chart kind: bar, horizontal_bar, grouped_bar, stacked_bar, line, area,
    /// stacked_area, pie, donut, scatter, bubble, heatmap, percent_stacked_bar,
    /// lollipop, waterfall, error_bar, histogram, box, violin, diverging_bar,
    /// dumbbell, slope, radar, dual_axis. Default: best suited.
    #[arg(long)]
    pub kind: Option<String>,
    /// Theme name (see `chartstress gallery` or docs): classic, newsprint, business, …
    #[arg(long, default_value = "classic")]
    pub theme: String,
    /// Override a style field, e.g. `--set legend=bottom` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// single, grid:RxC (e.g. grid:2x2), dashboard or figure (lettered small
    /// multiples of one table, or a panel per table of several).
    #[arg(long, default_value = "single")]
    pub layout: String,
    /// Image width in pixels (default: 800 single, larger for grids/dashboards).
    #[arg(long)]
    pub width: Option<u32>,
    /// Image height in pixels.
    #[arg(long)]
    pub height: Option<u32>,
    /// Draw an annotation on a single bar, grouped-bar or line chart:
    /// reference_line, highlight, band or callout (when the data fits it).
    #[arg(long)]
    pub annotation: Option<String>,
    /// Output PNG path; the SVG and scene are written next to it.
    #[arg(short, long)]
    pub output: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let tables = args
        .tables
        .iter()
        .map(|p| chartstress::table::load_table(p))
        .collect::<Result<Vec<_>, _>>()?;
    super::print_table_notes(&tables);
    let table = &tables[0];
    let path = &args.tables[0];
    let mut style = spec::theme(&args.theme)?;
    for kv in &args.set {
        let Some((key, value)) = kv.split_once('=') else {
            bail!("--set {kv:?}: expected KEY=VALUE");
        };
        spec::set_style(&mut style, key.trim(), value.trim())
            .with_context(|| format!("--set {kv}"))?;
    }
    let kind = match &args.kind {
        Some(k) => Some(ChartKind::from_name(k).with_context(|| {
            let known: Vec<&str> = ChartKind::ALL.iter().map(|k| k.name()).collect();
            format!("unknown chart kind {k:?} (known: {})", known.join(", "))
        })?),
        None => None,
    };
    // Heatmaps print their cells' values unless told otherwise, as papers
    // draw them (and as a suite's original heatmaps do).
    let labels_set = args.set.iter().any(|kv| {
        kv.split_once('=')
            .is_some_and(|(k, _)| k.trim() == "data_labels")
    });
    if kind == Some(ChartKind::Heatmap) && !labels_set {
        style.data_labels = true;
    }
    let layout: LayoutRequest = args.layout.parse()?;
    let mut chart = if tables.len() > 1 {
        if !matches!(layout, LayoutRequest::Figure) || kind.is_some() {
            bail!(
                "several tables draw only as one figure of related tables: --layout figure, without --kind"
            );
        }
        let related: Vec<&chartstress::ir::Table> = tables.iter().collect();
        let title = spec::related::figure_title(&related);
        spec::related::related_figure(&related, &style, title)?
    } else {
        spec::figure(table, layout, kind, &style).with_context(|| format!("{}", path.display()))?
    };
    if let Some(name) = &args.annotation {
        if !spec::annotation::NAMES.contains(&name.as_str()) {
            bail!(
                "unknown annotation {name:?} (known: {})",
                spec::annotation::NAMES.join(", ")
            );
        }
        for panel in chart.panels_mut() {
            panel.annotation = spec::annotation::named(panel, name);
            if panel.annotation.is_none() || !spec::annotation::annotates(panel.kind) {
                bail!(
                    "a {} chart of {} cannot carry a {name} annotation",
                    panel.kind.name(),
                    table.id
                );
            }
        }
    }
    if let Some(w) = args.width {
        chart.width = w;
    }
    if let Some(h) = args.height {
        chart.height = h;
    }
    let rendered = chartstress::render::render(&chart)
        .with_context(|| format!("rendering {}", path.display()))?;
    if let Some(dir) = args.output.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let svg_path = args.output.with_extension("svg");
    let scene_path = scene_path(&args.output);
    std::fs::write(&args.output, &rendered.png)
        .with_context(|| format!("writing {}", args.output.display()))?;
    std::fs::write(&svg_path, &rendered.svg)
        .with_context(|| format!("writing {}", svg_path.display()))?;
    let scene = serde_json::to_string_pretty(&rendered.scene)?;
    std::fs::write(&scene_path, scene + "\n")
        .with_context(|| format!("writing {}", scene_path.display()))?;
    let kinds: Vec<&str> = chart.panels().iter().map(|p| p.kind.name()).collect();
    let ids: Vec<&str> = tables.iter().map(|t| t.id.as_str()).collect();
    println!(
        "{} ({}, theme {}, {}x{}): {}, {}, {}",
        ids.join(" + "),
        kinds.join(" + "),
        style.theme,
        chart.width,
        chart.height,
        args.output.display(),
        svg_path.display(),
        scene_path.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `out/a.png` → `out/a.scene.json`.
fn scene_path(png: &std::path::Path) -> PathBuf {
    let stem = png
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "chart".into());
    png.with_file_name(format!("{stem}.scene.json"))
}
