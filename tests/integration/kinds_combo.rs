//! Waterfall and error-bar charts: golden scenes, bars, running totals and
//! whisker caps where the CSV (read here with the csv crate, not the
//! library) puts them on the printed axis and in the pixels, and a generated
//! suite of both kinds answered fully by the oracle and the reader.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use chartstress::ir::{ChartKind, MarkKind, PanelScene};
use serde_json::Value;

use crate::support::kind_suite::kind_suite;
use crate::support::pixels::{near, render_single as render, rgb};
use crate::support::printed_csv::read_complete as read_csv;
use crate::support::{bin, run_ok};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/combo")
}

/// (pixel, number) of the first and last printed y tick.
fn printed_axis(p: &PanelScene) -> ((f64, f64), (f64, f64)) {
    // Ticks print as "1,000", "1.2k", "1e3" or "$400" by theme.
    let parse = |l: &str| -> f64 {
        let digits: String = l
            .chars()
            .filter(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '\u{2212}' | 'e'))
            .map(|c| if c == '\u{2212}' { '-' } else { c })
            .collect();
        let scale = match l.trim().chars().last() {
            Some('k' | 'K') => 1e3,
            Some('M') => 1e6,
            Some('B') => 1e9,
            _ => 1.0,
        };
        scale
            * digits
                .parse::<f64>()
                .unwrap_or_else(|_| panic!("tick {l:?}"))
    };
    let (a, b) = (p.y_ticks.first().unwrap(), p.y_ticks.last().unwrap());
    (
        (f64::from(a.pos), parse(&a.label)),
        (f64::from(b.pos), parse(&b.label)),
    )
}

fn read_y(axis: ((f64, f64), (f64, f64)), y: f32) -> f64 {
    let ((p0, v0), (p1, v1)) = axis;
    v0 + (f64::from(y) - p0) * (v1 - v0) / (p1 - p0)
}

#[test]
fn error_bar_scene_snapshot() {
    let r = render(
        &data_dir().join("crop_yield_se.csv"),
        ChartKind::ErrorBar,
        "classic",
        true,
    );
    insta::assert_json_snapshot!("error_bar_scene", r.scene);
}

/// Error-bar tables: the two fixtures and a few synthesized ones.
fn error_bar_tables(dir: &Path) -> Vec<PathBuf> {
    run_ok(
        bin()
            .args([
                "synth",
                "--seed",
                "11",
                "--count",
                "5",
                "--kind",
                "error_bar",
                "-o",
            ])
            .arg(dir),
    );
    for name in ["reaction_times", "crop_yield_se"] {
        for ext in ["csv", "meta.json"] {
            std::fs::copy(
                data_dir().join(format!("{name}.{ext}")),
                dir.join(format!("{name}.{ext}")),
            )
            .unwrap();
        }
    }
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "csv")
                && !p.to_string_lossy().contains("waterfall")
                && !p.to_string_lossy().contains("profit_bridge")
        })
        .collect();
    out.sort();
    out
}

/// (value, lower, upper) per row from the CSV's own columns: bounds as
/// given, or value ± the error column.
fn csv_intervals(cols: &[(String, Vec<f64>)]) -> Vec<(f64, f64, f64)> {
    let values = &cols[0].1;
    match cols.len() {
        3 => (0..values.len())
            .map(|r| (values[r], cols[1].1[r], cols[2].1[r]))
            .collect(),
        2 => (0..values.len())
            .map(|r| {
                (
                    values[r],
                    values[r] - cols[1].1[r],
                    values[r] + cols[1].1[r],
                )
            })
            .collect(),
        n => panic!("{n} columns"),
    }
}

#[test]
fn error_bar_caps_sit_at_the_csv_bounds_on_the_printed_axis() {
    let dir = tempfile::tempdir().unwrap();
    for path in error_bar_tables(dir.path()) {
        let (index, cols) = read_csv(&path);
        let rows = csv_intervals(&cols);
        for theme in chartstress::spec::theme_names() {
            let r = render(&path, ChartKind::ErrorBar, theme, false);
            let img = image::load_from_memory(&r.png).unwrap().to_rgb8();
            let p = &r.scene.panels[0];
            let axis = printed_axis(p);
            let px_per_unit = (axis.0.0 - axis.1.0).abs() / (axis.1.1 - axis.0.1).abs();
            assert!(p.legend.is_empty(), "one series: no legend");
            for (i, cat) in index.iter().enumerate() {
                let (v, lo, hi) = rows[i];
                let of = |series: &str| {
                    p.marks
                        .iter()
                        .find(|m| m.series == series && m.category.as_deref() == Some(cat.as_str()))
                        .unwrap_or_else(|| panic!("{path:?} {cat} {series}"))
                };
                let bar = of(&cols[0].0);
                let (low, up) = (of("Lower bound"), of("Upper bound"));
                assert!((bar.value - v).abs() < 1e-9);
                assert!(
                    (low.value - lo).abs() < 1e-6 && (up.value - hi).abs() < 1e-6,
                    "{cat}"
                );
                // Through the printed ticks: the bar's top is the value, the
                // caps are the bounds.
                let top = read_y(axis, bar.bbox.y);
                assert!(
                    (top - v).abs() * px_per_unit <= 1.0,
                    "{path:?} {theme} {cat}"
                );
                for (m, want) in [(low, lo), (up, hi)] {
                    let (cx, cy) = m.bbox.center();
                    let read = read_y(axis, cy);
                    assert!(
                        (read - want).abs() * px_per_unit <= 1.0,
                        "{path:?} {theme} {cat}: cap at {read:.3}, csv {want}"
                    );
                    // The cap is painted: within a pixel of the bound's row
                    // (a 1.5 px line is anti-aliased over two rows) the
                    // cap's centre differs from the plot beside the cap.
                    let row = cy.round() as u32;
                    let drawn = (row - 1..=row + 1).any(|y| {
                        let px = img.get_pixel(cx.round() as u32, y).0;
                        let beside = img.get_pixel((m.bbox.x - 4.0).round() as u32, y).0;
                        !near(px, beside)
                    });
                    assert!(drawn, "{path:?} {theme} {cat}: cap not drawn at row {row}");
                }
            }
        }
    }
}

#[test]
fn waterfall_scene_snapshot() {
    let r = render(
        &data_dir().join("profit_bridge.csv"),
        ChartKind::Waterfall,
        "classic",
        true,
    );
    insta::assert_json_snapshot!("waterfall_scene", r.scene);
}

/// Waterfall tables: the fixture and a few synthesized ones.
fn waterfall_tables(dir: &Path) -> Vec<PathBuf> {
    run_ok(
        bin()
            .args([
                "synth",
                "--seed",
                "11",
                "--count",
                "5",
                "--kind",
                "waterfall",
                "-o",
            ])
            .arg(dir),
    );
    for ext in ["csv", "meta.json"] {
        std::fs::copy(
            data_dir().join(format!("profit_bridge.{ext}")),
            dir.join(format!("profit_bridge.{ext}")),
        )
        .unwrap();
    }
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "csv"))
        .collect();
    out.sort();
    out
}

#[test]
fn waterfall_bars_run_between_the_csv_running_totals() {
    let dir = tempfile::tempdir().unwrap();
    for path in waterfall_tables(dir.path()) {
        let (index, cols) = read_csv(&path);
        let steps = &cols[0].1;
        // The running totals, summed here from the printed steps.
        let mut totals = Vec::new();
        let mut acc = 0.0;
        for s in steps {
            acc += s;
            totals.push(acc);
        }
        for theme in chartstress::spec::theme_names() {
            let r = render(&path, ChartKind::Waterfall, theme, false);
            let img = image::load_from_memory(&r.png).unwrap().to_rgb8();
            let p = &r.scene.panels[0];
            let axis = printed_axis(p);
            let px_per_unit = (axis.0.0 - axis.1.0).abs() / (axis.1.1 - axis.0.1).abs();
            let bars: Vec<_> = p.marks.iter().filter(|m| m.kind == MarkKind::Bar).collect();
            let levels: Vec<_> = p
                .marks
                .iter()
                .filter(|m| m.kind == MarkKind::LinePoint)
                .collect();
            assert_eq!(bars.len(), index.len(), "{path:?} {theme}");
            assert_eq!(levels.len(), index.len(), "{path:?} {theme}");
            for (i, cat) in index.iter().enumerate() {
                let bar = bars[i];
                assert_eq!(bar.category.as_deref(), Some(cat.as_str()));
                assert!((bar.value - steps[i]).abs() < 1e-9, "{cat}");
                assert!((levels[i].value - totals[i]).abs() < 1e-6, "{cat}");
                // Read through the printed ticks, the bar spans the totals
                // before and after its step.
                let before = if i == 0 { 0.0 } else { totals[i - 1] };
                let (lo, hi) = (before.min(totals[i]), before.max(totals[i]));
                let top = read_y(axis, bar.bbox.y);
                let bottom = read_y(axis, bar.bbox.bottom());
                assert!(
                    (top - hi).abs() * px_per_unit <= 1.0
                        && (bottom - lo).abs() * px_per_unit <= 1.0,
                    "{path:?} {theme} {cat}: bar {bottom:.2}..{top:.2}, csv {lo}..{hi}"
                );
                let level = read_y(axis, levels[i].bbox.center().1);
                assert!((level - totals[i]).abs() * px_per_unit <= 1.0, "{cat}");
                // The bar is painted in its colour, one pixel inside its box.
                if bar.bbox.h >= 3.0 {
                    let (cx, cy) = bar.bbox.center();
                    let px = img.get_pixel(cx.round() as u32, cy.round() as u32).0;
                    assert!(
                        near(px, rgb(&bar.color.hex)),
                        "{path:?} {theme} {cat}: {px:?}"
                    );
                }
            }
            // Rises and falls have their own colours, named in the legend.
            let legend: Vec<&str> = p.legend.iter().map(|e| e.label.as_str()).collect();
            assert_eq!(legend, ["Start", "Increase", "Decrease"], "{theme}");
            for (i, bar) in bars.iter().enumerate().skip(1) {
                let entry = if steps[i] >= 0.0 { 1 } else { 2 };
                assert_eq!(bar.color.hex, p.legend[entry].color.hex, "{theme} {i}");
            }
        }
    }
}

#[test]
fn waterfall_labels_print_signed_steps() {
    let r = render(
        &data_dir().join("profit_bridge.csv"),
        ChartKind::Waterfall,
        "classic",
        true,
    );
    let labels: Vec<String> = r.scene.panels[0]
        .marks
        .iter()
        .filter_map(|m| m.label.as_ref().map(|l| l.text.clone()))
        .collect();
    assert_eq!(
        labels,
        ["412.5", "+38.2", "-21.7", "-44.9", "+12.3", "-18.6", "-6.4"]
    );
}

#[test]
fn waterfalls_are_offered_only_for_signed_additive_steps() {
    let suits = |file: &str| {
        let t = chartstress::table::load_table(&data_dir().join(file)).unwrap();
        chartstress::spec::suitable_kinds(&t).contains(&ChartKind::Waterfall)
    };
    assert!(suits("profit_bridge.csv"));
    // No other fixture is a bridge: growth rates, shares and levels are
    // not steps.
    for t in crate::support::fixture_tables()
        .into_iter()
        .filter(|t| t.id != "profit_bridge")
    {
        assert!(
            !chartstress::spec::suitable_kinds(&t).contains(&ChartKind::Waterfall),
            "{}",
            t.id
        );
    }
}

/// A suite of `kinds` from `tables`: every item answered right by the
/// oracle and the reader; returns the items and the families of originals.
fn suite_of(
    kinds: &[ChartKind],
    folder: &Path,
) -> (Vec<Value>, BTreeMap<ChartKind, BTreeSet<String>>) {
    let suite = kind_suite(folder, kinds, 5, 2);
    let mut families: BTreeMap<ChartKind, BTreeSet<String>> = BTreeMap::new();
    for (parsed, _) in suite.answered_items() {
        if parsed.set == chartstress::ir::SetName::Original {
            assert!(kinds.contains(&parsed.chart_kind), "{}", parsed.question);
            families
                .entry(parsed.chart_kind)
                .or_default()
                .insert(parsed.family.clone());
        }
    }
    let items = suite.items.clone();
    (items, families)
}

#[test]
fn combo_suites_are_answered_by_oracle_and_reader() {
    let dir = tempfile::tempdir().unwrap();
    waterfall_tables(dir.path());
    error_bar_tables(dir.path());
    let (items, families) = suite_of(&[ChartKind::Waterfall, ChartKind::ErrorBar], dir.path());
    for kind in [ChartKind::Waterfall, ChartKind::ErrorBar] {
        let fams = &families[&kind];
        let data: Vec<&String> = fams
            .iter()
            .filter(|f| chartstress::questions::pick::DATA_FAMILIES.contains(&f.as_str()))
            .collect();
        assert!(data.len() >= 3, "{kind:?}: {fams:?}");
    }
    // Error-bar bounds are asked, with golds the CSV's bounds.
    let mut bounds = 0;
    for item in &items {
        let q = item["question"].as_str().unwrap();
        let upper = q.starts_with("What is the upper bound of the error bar for ");
        let lower = q.starts_with("What is the lower bound of the error bar for ");
        if !(upper || lower) || item["answer"]["type"] != "number" {
            continue;
        }
        let table = item["table_id"].as_str().unwrap();
        let (index, cols) = read_csv(&dir.path().join(format!("{table}.csv")));
        let cat = q
            .rsplit("error bar for ")
            .next()
            .unwrap()
            .trim_end_matches('?');
        let row = index.iter().position(|c| c == cat).unwrap();
        let (_, lo, hi) = csv_intervals(&cols)[row];
        let want = if upper { hi } else { lo };
        let gold = item["answer"]["value"].as_f64().unwrap();
        assert!((gold - want).abs() < 1e-6, "{q}: gold {gold}, csv {want}");
        bounds += 1;
    }
    assert!(bounds > 0, "no bound question was checked");
    // Running totals and the final total are asked, and their golds are the
    // CSV's sums (recomputed here from the printed steps).
    let mut asked = 0;
    for item in &items {
        let q = item["question"].as_str().unwrap();
        if item["set"] != "original"
            || !(q.contains("running total after") || q.contains("final total"))
        {
            continue;
        }
        let gold = match item["answer"]["type"].as_str() {
            Some("number") => item["answer"]["value"].as_f64().unwrap(),
            Some("choice") => item["answer"]["text"]
                .as_str()
                .unwrap()
                .replace(',', "")
                .parse()
                .unwrap(),
            _ => continue,
        };
        let table = item["table_id"].as_str().unwrap();
        let path = dir.path().join(format!("{table}.csv"));
        if !path.exists() {
            continue;
        }
        let (index, cols) = read_csv(&path);
        let upto = if q.contains("final total") {
            index.len()
        } else {
            index
                .iter()
                .position(|c| q.contains(&format!("after {c}?")))
                .map_or(0, |i| i + 1)
        };
        if upto == 0 {
            continue;
        }
        let sum: f64 = cols[0].1[..upto].iter().sum();
        assert!((gold - sum).abs() < 1e-6, "{q}: gold {gold}, csv {sum}");
        asked += 1;
    }
    assert!(asked > 0, "no running-total question was checked");
}
