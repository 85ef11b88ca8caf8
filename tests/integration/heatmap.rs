//! Heatmaps: every cell records the CSV's value (the CSV read here without
//! the library), its fill on the PNG is the colour bar's colour at that
//! value, printed values sit in their cells in a contrasting colour, the
//! colour bar prints its range at its ends, and the scene is snapshotted.

use std::path::Path;

use chartstress::ir::{ChartKind, MarkKind};
use chartstress::render::Pixels;

use crate::support::pixels::rgb;

const FIXTURES: [&str; 6] = [
    "smartphone_shipments_grouped.csv",
    "retail_sales_monthly.csv",
    "synth-0002-grouped.csv",
    "energy_mix_stacked.csv",
    "synth-0000-monthly.csv",
    "coffee_tea.tsv",
];

const THEMES: [&str; 4] = ["classic", "dark", "grayscale", "paper"];

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

fn pixel(p: &Pixels, x: f32, y: f32) -> [u8; 3] {
    let (x, y) = (x.floor() as usize, y.floor() as usize);
    let step = if p.has_alpha { 4 } else { 3 };
    let i = (y * p.width as usize + x) * step;
    [p.data[i], p.data[i + 1], p.data[i + 2]]
}

fn distance(a: [u8; 3], b: [u8; 3]) -> i32 {
    (0..3)
        .map(|k| (i32::from(a[k]) - i32::from(b[k])).abs())
        .sum()
}

fn lum(c: [u8; 3]) -> f64 {
    (0.2126 * f64::from(c[0]) + 0.7152 * f64::from(c[1]) + 0.0722 * f64::from(c[2])) / 255.0
}

fn number(label: &str) -> f64 {
    let digits: String = label
        .chars()
        .filter(|c| c.is_ascii_digit() || matches!(c, '.' | '-'))
        .collect();
    digits.parse().unwrap()
}

#[test]
fn cells_hold_the_csv_values_in_the_colour_bar_colours() {
    for fixture in FIXTURES {
        let csv = crate::support::printed_csv::read(fixture);
        let table = chartstress::table::load_table(&fixtures().join(fixture)).unwrap();
        for theme in THEMES {
            let mut style = chartstress::spec::theme(theme).unwrap();
            style.data_labels = true;
            let spec = chartstress::spec::single(&table, ChartKind::Heatmap, &style).unwrap();
            let (out, px) = chartstress::render::render_with_pixels(&spec).unwrap();
            let p = &out.scene.panels[0];
            let heat = p
                .heatmap
                .as_ref()
                .expect("a heatmap records its colour bar");
            let bar = &heat.colorbar;
            let what = format!("{fixture} in {theme}");
            // The bar's printed ends are its range.
            assert!(bar.min < bar.max, "{what}");
            let (first, last) = (bar.ticks.first().unwrap(), bar.ticks.last().unwrap());
            assert_eq!(number(&first.label), bar.min, "{what}");
            assert_eq!(number(&last.label), bar.max, "{what}");
            assert!((first.pos - bar.bbox.bottom()).abs() < 0.5, "{what}");
            assert!((last.pos - bar.bbox.y).abs() < 0.5, "{what}");
            // One cell per CSV value of every drawn series.
            let drawn = &spec.panels()[0].series;
            let expected: usize = drawn
                .iter()
                .map(|s| csv.series[s].iter().flatten().count())
                .sum();
            assert_eq!(p.marks.len(), expected, "{what}");
            assert!(drawn.len() >= 2 && p.marks.iter().all(|m| m.kind == MarkKind::Cell));
            for m in &p.marks {
                let category = m.category.as_deref().unwrap();
                let row = csv.index.iter().position(|c| c == category).unwrap();
                let value = csv.series[&m.series][row].unwrap();
                assert!(
                    (m.value - value).abs() <= 1e-9 * value.abs().max(1.0),
                    "{what}: {} {category} is {} in the scene, {value} in the CSV",
                    m.series,
                    m.value
                );
                // The cell's own pixels (a corner, clear of its printed
                // value) have its recorded colour…
                let fill = rgb(&m.color.hex);
                let b = m.bbox;
                let corner = pixel(&px, b.x + 1.5, b.y + 1.5);
                assert!(
                    distance(corner, fill) <= 3,
                    "{what}: {corner:?} vs {fill:?}"
                );
                // …which is the bar's colour at the cell's value.
                let t = ((value - bar.min) / (bar.max - bar.min)) as f32;
                let y = bar.bbox.bottom() - t * bar.bbox.h;
                let x = bar.bbox.x + bar.bbox.w / 2.0;
                let on_bar = [y - 1.0, y, y + 1.0]
                    .into_iter()
                    .filter(|y| *y >= bar.bbox.y && *y < bar.bbox.bottom())
                    .map(|y| distance(pixel(&px, x, y), corner))
                    .min()
                    .unwrap();
                assert!(
                    on_bar <= 12,
                    "{what}: {} {category}: bar off by {on_bar}",
                    m.series
                );
                // A printed value sits in its cell, reads as the value and
                // stands out from the fill.
                if let Some(label) = &m.label {
                    let l = label.bbox;
                    assert!(
                        l.x >= b.x && l.right() <= b.right() + 0.5,
                        "{what}: {}",
                        label.text
                    );
                    assert!(l.y >= b.y - 0.5 && l.bottom() <= b.bottom() + 0.5);
                    let decimals = label.text.split_once('.').map_or(0, |(_, d)| d.len()) as i32;
                    assert!(
                        (number(&label.text) - value).abs() <= 0.5 * 10f64.powi(-decimals) + 1e-9,
                        "{what}: {} printed for {value}",
                        label.text
                    );
                    let mut contrast: f64 = 0.0;
                    let (x0, y0) = (l.x.ceil() as i32, l.y.ceil() as i32);
                    for yy in y0..(l.bottom() as i32) {
                        for xx in x0..(l.right() as i32) {
                            let c = pixel(&px, xx as f32, yy as f32);
                            contrast = contrast.max((lum(c) - lum(fill)).abs());
                        }
                    }
                    assert!(
                        contrast >= 0.4,
                        "{what}: {} reads poorly ({contrast:.2})",
                        label.text
                    );
                }
            }
            // Cells big enough print their values on these fixtures.
            assert!(p.marks.iter().all(|m| m.label.is_some()), "{what}");
            // Every row and column is named.
            let (rows, cols) = if heat.series_on_rows {
                (drawn.len(), csv.index.len())
            } else {
                (csv.index.len(), drawn.len())
            };
            assert_eq!((p.y_ticks.len(), p.x_ticks.len()), (rows, cols), "{what}");
            // Nothing printed overlaps: row and column names, bar ticks.
            let texts: Vec<_> = p
                .x_ticks
                .iter()
                .chain(&p.y_ticks)
                .chain(&bar.ticks)
                .map(|t| t.bbox)
                .chain(
                    p.marks
                        .iter()
                        .filter_map(|m| m.label.as_ref().map(|l| l.bbox)),
                )
                .collect();
            for (i, a) in texts.iter().enumerate() {
                for b in &texts[i + 1..] {
                    assert!(
                        !a.grown(-0.5).intersects(&b.grown(-0.5)),
                        "{what}: {a:?} {b:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn equal_values_still_get_a_valid_colour_bar() {
    let csv = "Region,North,South\nA,5,5\nB,5,5\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("flat.csv");
    std::fs::write(&path, csv).unwrap();
    std::fs::write(dir.path().join("flat.meta.json"), r#"{"unit": "t"}"#).unwrap();
    let table = chartstress::table::load_table(&path).unwrap();
    let style = chartstress::spec::theme("classic").unwrap();
    let spec = chartstress::spec::single(&table, ChartKind::Heatmap, &style).unwrap();
    let scene = chartstress::render::render(&spec).unwrap().scene;
    let bar = &scene.panels[0].heatmap.as_ref().unwrap().colorbar;
    assert!(bar.min.is_finite() && bar.max.is_finite() && bar.min < bar.max);
    assert!(bar.ticks.len() >= 2);
    assert!(bar.ticks.iter().all(|t| t.pos.is_finite()));
}

#[test]
fn heatmap_scene_snapshot() {
    let table =
        chartstress::table::load_table(&fixtures().join("smartphone_shipments_grouped.csv"))
            .unwrap();
    let mut style = chartstress::spec::theme("classic").unwrap();
    style.data_labels = true;
    let spec = chartstress::spec::single(&table, ChartKind::Heatmap, &style).unwrap();
    insta::assert_json_snapshot!(
        "heatmap_smartphone_scene",
        chartstress::render::render(&spec).unwrap().scene
    );
}

#[test]
fn render_draws_a_heatmap_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("h.png");
    crate::support::run_ok(
        crate::support::bin()
            .arg("render")
            .arg(fixtures().join("retail_sales_monthly.csv"))
            .args(["--kind", "heatmap", "--set", "colormap=magma", "-o"])
            .arg(&out),
    );
    let scene: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("h.scene.json")).unwrap())
            .unwrap();
    let panel = &scene["panels"][0];
    assert_eq!(panel["kind"], "heatmap");
    assert_eq!(panel["heatmap"]["colorbar"]["colormap"], "magma");
    assert_eq!(panel["marks"][0]["kind"], "cell");
}
