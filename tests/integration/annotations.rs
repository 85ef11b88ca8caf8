//! Annotations (reference line, highlighted bar, shaded interval, callout):
//! drawn where the scene says (checked on the pixels), clear of other text,
//! asked about with golds recomputed from the CSV, answered by the oracle and
//! the reader, removed and moved by their perturbations.

use std::collections::BTreeMap;
use std::path::Path;

use chartstress::ir::{BBox, ChartKind, ChartSpec, PanelScene};
use image::RgbImage;
use serde_json::Value;

use crate::support::pixels::rgb;
use crate::support::{bin, jsonl, run_ok};

const TABLES: [&str; 8] = [
    "synth-0000-categories",
    "retail_sales_monthly",
    "smartphone_shipments_grouped",
    "gdp_growth_g7",
    "life_expectancy_no_cross",
    "cloud_revenue_billions",
    "ev_diesel_crossing",
    "statista_style_respondents",
];

const FAMILIES: [&str; 5] = [
    "reference_value",
    "count_above_reference",
    "highlighted",
    "shaded_period",
    "callout_target",
];

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

fn dark(img: &RgbImage, x: u32, y: u32) -> bool {
    x < img.width() && y < img.height() && img.get_pixel(x, y).0.iter().all(|&c| c < 110)
}

fn ink(img: &RgbImage, b: &BBox) -> usize {
    let (x0, y0) = (b.x.max(0.0) as u32, b.y.max(0.0) as u32);
    let (x1, y1) = (
        (b.x + b.w).min(img.width() as f32) as u32,
        (b.y + b.h).min(img.height() as f32) as u32,
    );
    (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| (x, y)))
        .filter(|&(x, y)| dark(img, x, y))
        .count()
}

/// Every other text of the panel an annotation label must stay clear of.
fn other_text(p: &PanelScene) -> Vec<(String, BBox)> {
    let mut out: Vec<(String, BBox)> = Vec::new();
    for t in [&p.title, &p.subtitle, &p.x_label, &p.y_label]
        .into_iter()
        .flatten()
    {
        out.push((t.text.clone(), t.bbox));
    }
    out.extend(
        p.x_ticks
            .iter()
            .chain(&p.y_ticks)
            .map(|t| (t.label.clone(), t.bbox)),
    );
    out.extend(p.legend.iter().map(|e| (e.label.clone(), e.bbox)));
    out.extend(
        p.marks
            .iter()
            .filter_map(|m| m.label.as_ref())
            .map(|l| (l.text.clone(), l.bbox)),
    );
    out
}

/// Checks one drawn annotation against the scene and the pixels.
fn check_drawn(name: &str, p: &PanelScene, img: &RgbImage, size: (u32, u32)) {
    let a = p.annotation.as_ref().unwrap();
    let plot = p.plot_area;
    if let Some(label) = &a.label {
        let b = label.bbox;
        assert!(
            b.x >= 0.0 && b.y >= 0.0 && b.right() <= size.0 as f32 && b.bottom() <= size.1 as f32,
            "{name}: label {:?} outside the image",
            label.text
        );
        assert!(ink(img, &b) > 15, "{name}: label {:?} drawn", label.text);
        for (text, o) in other_text(p) {
            assert!(
                !b.intersects(&o),
                "{name}: {} label {:?} covers {text:?}",
                a.kind,
                label.text
            );
        }
    }
    match a.kind.as_str() {
        "reference_line" => {
            // The dashed line in the text colour across the plot.
            let y = (a.bbox.y + a.bbox.h / 2.0) as u32;
            let dashes = (plot.x as u32 + 2..plot.right() as u32 - 2)
                .filter(|&x| (y.saturating_sub(1)..=y + 1).any(|yy| dark(img, x, yy)))
                .count();
            assert!(
                dashes as f32 > 0.4 * plot.w,
                "{name}: reference line drawn at y={y} ({dashes} dark columns)"
            );
        }
        "band" => {
            // Shaded: almost no pure background inside the band.
            let b = a.bbox;
            let white = (b.y as u32 + 1..b.bottom() as u32 - 1)
                .flat_map(|y| (b.x as u32 + 1..b.right() as u32 - 1).map(move |x| (x, y)))
                .filter(|&(x, y)| img.get_pixel(x, y).0 == [255, 255, 255])
                .count();
            assert!(
                (white as f32) < 0.05 * b.w * b.h,
                "{name}: band shaded ({white} white pixels)"
            );
            assert!(b.x >= plot.x - 0.5 && b.right() <= plot.right() + 0.5);
        }
        "highlight" => {
            // The highlighted bar alone keeps its colour; the others are grey.
            // A bar's colour is its commonest pixel, since clutter (a
            // watermark) may cross its centre.
            let centre = |b: &BBox| {
                let mut counts: BTreeMap<[u8; 3], usize> = BTreeMap::new();
                for y in b.y as u32 + 2..(b.bottom() as u32).saturating_sub(2) {
                    for x in b.x as u32 + 2..(b.right() as u32).saturating_sub(2) {
                        *counts.entry(img.get_pixel(x, y).0).or_default() += 1;
                    }
                }
                let (x, y) = b.center();
                counts
                    .into_iter()
                    .max_by_key(|&(_, n)| n)
                    .map_or(img.get_pixel(x as u32, y as u32).0, |(c, _)| c)
            };
            let accent = centre(&a.bbox);
            for m in p.marks.iter().filter(|m| m.bbox.h > 4.0) {
                let c = centre(&m.bbox);
                assert_eq!(c, rgb(&m.color.hex), "{name}: mark colour as recorded");
                if m.category == a.category {
                    assert_eq!(c, accent);
                } else {
                    assert_ne!(c, accent, "{name}: {:?} muted", m.category);
                    assert!(c[0] == c[1] && c[1] == c[2], "{name}: muted bars are grey");
                }
            }
        }
        "callout" => {
            // The arrowhead's ink just above the mark it points at.
            let (tx, ty) = a.tip.unwrap();
            let head = BBox {
                x: tx - 9.0,
                y: ty - 9.0,
                w: 18.0,
                h: 10.0,
            };
            assert!(ink(img, &head) > 6, "{name}: arrowhead at {:?}", a.tip);
            let target = p
                .marks
                .iter()
                .find(|m| m.category == a.category && Some(&m.series) == a.series.as_ref())
                .unwrap();
            assert!((target.bbox.center().0 - tx).abs() < 1.0);
            assert!(ty <= target.bbox.y + target.bbox.h / 2.0);
        }
        other => panic!("{name}: unknown annotation kind {other}"),
    }
}

#[test]
fn every_annotation_is_drawn_clear_of_other_text_on_every_fixture() {
    let style = chartstress::spec::theme("classic").unwrap();
    let mut drawn = BTreeMap::new();
    for entry in std::fs::read_dir(fixtures()).unwrap() {
        let path = entry.unwrap().path();
        if path.to_string_lossy().ends_with(".meta.json") {
            continue;
        }
        let Ok(table) = chartstress::table::load_table(&path) else {
            continue;
        };
        for kind in [ChartKind::Bar, ChartKind::GroupedBar, ChartKind::Line] {
            let Ok(spec) = chartstress::spec::single(&table, kind, &style) else {
                continue;
            };
            for labels in [false, true] {
                for name in chartstress::spec::annotation::NAMES {
                    let mut spec: ChartSpec = spec.clone();
                    for panel in spec.panels_mut() {
                        panel.style.data_labels = labels;
                        panel.annotation = chartstress::spec::annotation::named(panel, name);
                    }
                    if spec.panels()[0].annotation.is_none() {
                        continue;
                    }
                    for moved in [false, true] {
                        let mut spec = spec.clone();
                        spec.panels_mut()[0].annotation.as_mut().unwrap().moved = moved;
                        let r = chartstress::render::render(&spec).unwrap();
                        let img = image::load_from_memory(&r.png).unwrap().to_rgb8();
                        let p = &r.scene.panels[0];
                        let what = format!(
                            "{} {} {name} labels={labels} moved={moved}",
                            table.id,
                            kind.name()
                        );
                        assert!(p.annotation.is_some(), "{what}: drawn");
                        check_drawn(&what, p, &img, (spec.width, spec.height));
                        *drawn.entry(name).or_insert(0) += 1;
                    }
                }
            }
        }
    }
    for name in chartstress::spec::annotation::NAMES {
        assert!(
            drawn.get(name).copied().unwrap_or(0) >= 4,
            "{name}: {drawn:?}"
        );
    }
}

#[test]
fn annotated_scenes_snapshot() {
    let style = chartstress::spec::theme("classic").unwrap();
    // Fruit sales average 95, the bananas' own figure: a line there could
    // not be told from the bar, so this copy sells fewer bananas.
    let mut clear_mean = crate::support::fruit();
    clear_mean.series[0].cells[1] = chartstress::ir::Cell::Number(60.0);
    // Wind alone rises every year: a band shades three of its years.
    let mut wind = crate::support::energy();
    wind.series.retain(|c| c.name == "Wind");
    let cases = [
        (clear_mean, ChartKind::Bar, "reference_line"),
        (crate::support::fruit(), ChartKind::Bar, "highlight"),
        (wind, ChartKind::Line, "band"),
        (crate::support::energy(), ChartKind::Line, "callout"),
    ];
    for (table, kind, name) in cases {
        let mut spec = chartstress::spec::single(&table, kind, &style).unwrap();
        let panel = &mut spec.panels_mut()[0];
        panel.annotation = chartstress::spec::annotation::named(panel, name);
        assert!(panel.annotation.is_some(), "{name}");
        let scene = chartstress::render::render(&spec).unwrap().scene;
        insta::assert_json_snapshot!(format!("annotation_{name}_scene"), scene);
    }
}

#[test]
fn annotation_questions_have_recomputed_golds_and_oracle_and_reader_answer_them() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    std::fs::create_dir(&tables).unwrap();
    for name in TABLES {
        for ext in ["csv", "meta.json"] {
            let from = fixtures().join(format!("{name}.{ext}"));
            if from.exists() {
                std::fs::copy(&from, tables.join(format!("{name}.{ext}"))).unwrap();
            }
        }
    }
    let config = dir.path().join("suite.toml");
    std::fs::write(
        &config,
        format!(
            "tables = [{tables:?}]\nseed = 1\ncharts_per_table = 3\nquestions_per_chart = 8\n\
             kinds = [\"bar\", \"grouped_bar\", \"line\"]\nquestion_types = [\"factoid\"]\n\
             families = {FAMILIES:?}\nannotations = 1.0\nunanswerable_share = 0.0\n\
             sets = [\"original\", \"modified_chart\"]\naxes = [\"clutter\"]\n"
        ),
    )
    .unwrap();
    let suite = dir.path().join("suite");
    run_ok(
        bin()
            .arg("generate")
            .arg("--config")
            .arg(&config)
            .arg("--out")
            .arg(&suite)
            .arg("--quiet"),
    );
    let items = jsonl(&suite.join("items.jsonl"));
    let charts: BTreeMap<String, Value> = jsonl(&suite.join("charts.jsonl"))
        .into_iter()
        .map(|c| (c["id"].as_str().unwrap().to_string(), c))
        .collect();
    let asked: Vec<&Value> = items
        .iter()
        .filter(|i| FAMILIES.contains(&i["family"].as_str().unwrap()))
        .collect();
    for family in FAMILIES {
        assert!(
            asked
                .iter()
                .any(|i| i["family"] == family && i["set"] == "original"),
            "{family} asked"
        );
    }
    for name in ["annotation_removed", "annotation_moved"] {
        assert!(
            items.iter().any(|i| i["perturbations"]
                .as_array()
                .is_some_and(|ps| ps.iter().any(|p| p["name"] == name))),
            "{name} applied"
        );
    }

    for item in &asked {
        let chart = &charts[item["chart_id"].as_str().unwrap()];
        let question = item["question"].as_str().unwrap();
        let perturbations = item["perturbations"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let removed = perturbations
            .iter()
            .any(|p| p["name"] == "annotation_removed");
        if removed {
            assert_eq!(item["answerable"], false, "{question}");
            assert!(
                perturbations.iter().all(|p| p["change"] == "shifted"),
                "a removed annotation asks for a gone fact: {question}"
            );
            continue;
        }
        assert_eq!(item["answerable"], true, "{question}");
        // Read from the scene (what was drawn), never from the spec.
        let scene: chartstress::ir::Scene = serde_json::from_value(chart["scene"].clone()).unwrap();
        let p = &scene.panels[0];
        let a = p.annotation.as_ref().expect("asked only where drawn");
        let img = image::load_from_memory(
            &std::fs::read(suite.join(item["image"].as_str().unwrap())).unwrap(),
        )
        .unwrap()
        .to_rgb8();
        check_drawn(question, p, &img, (scene.width, scene.height));
        let csv = crate::support::printed_csv::read(&format!(
            "{}.csv",
            item["table_id"].as_str().unwrap()
        ));
        let series = chart["spec"]["layout"]["panel"]["series"][0]
            .as_str()
            .unwrap()
            .to_string();
        let values = &csv.series[&series];
        let gold = item["answer_text"].as_str().unwrap();
        match item["family"].as_str().unwrap() {
            "reference_value" => {
                let label = &a.label.as_ref().unwrap().text;
                let g: f64 = gold.parse().unwrap();
                // The only line drawn is the series' own average.
                assert!(label.starts_with("Average"), "{label}");
                let present: Vec<f64> = values.iter().flatten().copied().collect();
                let mean = present.iter().sum::<f64>() / present.len() as f64;
                let decimals = gold.split_once('.').map_or(0, |(_, d)| d.len()) as i32;
                assert!(
                    (mean - g).abs() <= 0.5 * 10f64.powi(-decimals) + 1e-9,
                    "{question}: average {mean} printed as {gold}"
                );
                let digits: String = label
                    .chars()
                    .filter(|c| c.is_ascii_digit() || *c == '.')
                    .collect();
                assert_eq!(digits.parse::<f64>().unwrap(), g, "{question}: printed");
            }
            "count_above_reference" => {
                let line = a.value.unwrap();
                let above = values.iter().flatten().filter(|v| **v > line).count();
                assert_eq!(gold, above.to_string(), "{question}");
            }
            "highlighted" => {
                assert_eq!(Some(gold), a.category.as_deref());
                assert!(csv.index.iter().any(|c| c == gold), "{gold} is a category");
            }
            "shaded_period" => {
                let (from, to) = gold.split_once(", ").unwrap();
                let at = |l: &str| csv.index.iter().position(|c| c == l);
                let (i, j) = (at(from).unwrap(), at(to).unwrap());
                assert!(i < j, "{question}: {gold}");
                // Each category in the period is drawn inside the band.
                for t in &p.x_ticks {
                    let k = at(&t.label).unwrap();
                    let inside = t.pos > a.bbox.x && t.pos < a.bbox.right();
                    assert_eq!(inside, (i..=j).contains(&k), "{question}: tick {}", t.label);
                }
            }
            "callout_target" => {
                let top = values
                    .iter()
                    .enumerate()
                    .filter_map(|(i, v)| v.map(|v| (i, v)))
                    .max_by(|a, b| a.1.total_cmp(&b.1))
                    .unwrap()
                    .0;
                assert_eq!(gold, csv.index[top], "{question}: the highest value");
            }
            other => panic!("{other}"),
        }
    }

    for adapter in ["oracle", "reader"] {
        run_ok(
            bin()
                .arg("run")
                .arg(&suite)
                .args(["--adapter", adapter, "--name", adapter]),
        );
        let predictions = jsonl(&suite.join(format!("runs/{adapter}/predictions.jsonl")));
        for item in &asked {
            let p = predictions.iter().find(|p| p["id"] == item["id"]).unwrap();
            assert_eq!(
                p["answer"], item["answer_text"],
                "{adapter}: {}",
                item["question"]
            );
        }
    }
}
