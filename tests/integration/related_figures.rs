//! Lettered figures of related real tables (the same categories, other
//! measures): drawn by the binary's `render` from several tables, with a
//! golden scene and every panel's marks checked against its own CSV (read
//! with the csv crate, not the library); and generated with
//! `related_figures`, every item answered by the oracle and the reader,
//! filed under the table of the panel it cites, and value answers
//! recomputed from that table's CSV.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chartstress::ir::{Answer, ChartRecord, Item, Layout, SetName};
use serde_json::Value;

use crate::support::kind_suite::{assert_oracle_and_reader, check_cited_panel, generate_suite};
use crate::support::{bin, printed_csv, run_ok};

fn real(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/real")
        .join(name)
}

const PENGUINS: [&str; 2] = ["penguin_bill_size", "penguin_body_mass_by_sex"];
const SEATTLE: [&str; 2] = [
    "seattle_monthly_temperature",
    "seattle_new_york_monthly_precipitation",
];

fn meta_title(table: &str) -> String {
    let meta: Value = serde_json::from_str(
        &std::fs::read_to_string(real(&format!("{table}.meta.json"))).unwrap(),
    )
    .unwrap();
    meta["title"].as_str().unwrap().to_string()
}

fn render_related(tables: &[&str], out: &Path) -> Value {
    let png = out.join(format!("{}.png", tables[0]));
    let mut cmd = bin();
    cmd.arg("render");
    for t in tables {
        cmd.arg(real(&format!("{t}.csv")));
    }
    run_ok(cmd.args(["--layout", "figure", "-o"]).arg(&png));
    serde_json::from_str(&std::fs::read_to_string(png.with_extension("scene.json")).unwrap())
        .unwrap()
}

/// Each panel draws its own table: titled by it, every mark a cell of its
/// CSV; every panel prints the same category ticks; the value axes are the
/// panels' own (the tables are in different units).
fn check_panels_against_their_csvs(tables: &[&str], scene: &Value) {
    let panels = scene["panels"].as_array().unwrap();
    assert_eq!(panels.len(), tables.len());
    let figure = &scene["figure"];
    let letters: Vec<&str> = figure["letters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(letters, ["(a)", "(b)"]);
    assert_eq!(
        figure["shared_values"], false,
        "different units share no axis"
    );
    assert!(figure["value_ticks"].as_array().unwrap().is_empty());
    let category_ticks = |p: &Value| -> Vec<String> {
        p["x_ticks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["label"].as_str().unwrap().to_string())
            .collect()
    };
    for (table, panel) in tables.iter().zip(panels) {
        assert_eq!(panel["title"]["text"], meta_title(table).as_str());
        assert_eq!(category_ticks(panel), category_ticks(&panels[0]), "{table}");
        let csv = printed_csv::read_path(&real(&format!("{table}.csv")));
        let marks = panel["marks"].as_array().unwrap();
        assert_eq!(marks.len(), csv.index.len() * csv.columns.len(), "{table}");
        for m in marks {
            let (series, category) = (
                m["series"].as_str().unwrap(),
                m["category"].as_str().unwrap(),
            );
            let row = csv.index.iter().position(|c| c == category).unwrap();
            let want = csv.series[series][row].unwrap();
            let value = m["value"].as_f64().unwrap();
            assert!(
                (want - value).abs() < 1e-9,
                "{table} {series} {category}: {value} vs {want}"
            );
        }
    }
}

#[test]
fn related_figure_scene_snapshot_and_panels_match_their_own_tables() {
    let dir = tempfile::tempdir().unwrap();
    let penguins = render_related(&PENGUINS, dir.path());
    insta::assert_json_snapshot!("related_figure_scene", penguins);
    assert_eq!(penguins["title"]["text"], "Palmer penguins by species");
    check_panels_against_their_csvs(&PENGUINS, &penguins);
    let seattle = render_related(&SEATTLE, dir.path());
    assert_eq!(
        seattle["title"]["text"],
        "Temperature (°C) and Precipitation (mm) by month"
    );
    check_panels_against_their_csvs(&SEATTLE, &seattle);
}

#[test]
fn several_tables_draw_only_as_one_figure_of_related_tables() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("x.png");
    // `render A B --layout L` must fail; its error message.
    let refused = |second: &str, layout: &str| {
        let out = bin()
            .arg("render")
            .arg(real("penguin_bill_size.csv"))
            .arg(real(second))
            .args(["--layout", layout, "-o"])
            .arg(&png)
            .output()
            .unwrap();
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    // Other categories: no figure, and a message naming the table.
    let err = refused("nile_annual_flow.csv", "figure");
    assert!(err.contains("nile_annual_flow"), "{err}");
    // Several tables in another layout: refused, saying what to do.
    let err = refused("penguin_body_mass_by_sex.csv", "grid:1x2");
    assert!(err.contains("--layout figure"), "{err}");
}

/// A panel's table id, for the item's query.
fn panel_table(record: &ChartRecord, item: &Item) -> String {
    let panels = record.spec.panels();
    panels[item.query.panel()].table.id.clone()
}

#[test]
fn generated_related_figures_are_answered_from_their_panels_tables() {
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<&str> = PENGUINS
        .iter()
        .chain(&SEATTLE)
        .copied()
        .chain(["nile_annual_flow"])
        .collect();
    let paths: Vec<PathBuf> = names.iter().map(|n| real(&format!("{n}.csv"))).collect();
    let config = format!(
        "tables = {paths:?}\nseed = 11\ncharts_per_table = 1\nquestions_per_chart = 12\n\
         related_figures = true\n"
    );
    let (_, items, charts) = generate_suite(dir.path(), &config);
    let charts: BTreeMap<String, ChartRecord> = charts
        .into_iter()
        .map(|(id, c)| (id, serde_json::from_value(c).unwrap()))
        .collect();
    let related = |r: &ChartRecord| {
        matches!(r.spec.layout, Layout::Figure { .. })
            && r.spec
                .panels()
                .iter()
                .any(|p| p.table.id != r.spec.panels()[0].table.id)
    };
    let figure_tables: Vec<Vec<String>> = charts
        .values()
        .filter(|r| related(r))
        .filter(|r| {
            r.spec
                .panels()
                .iter()
                .all(|p| names.contains(&p.table.id.as_str()))
        })
        .map(|r| r.spec.panels().iter().map(|p| p.table.id.clone()).collect())
        .collect();
    for group in [PENGUINS, SEATTLE] {
        assert!(
            figure_tables.iter().any(|t| t == &group),
            "no original figure of {group:?}: {figure_tables:?}"
        );
    }
    let items: Vec<Item> = items
        .into_iter()
        .map(|v| serde_json::from_value(v).unwrap())
        .collect();
    let (mut on_figures, mut recomputed, mut cited) = (0, 0, 0);
    for item in &items {
        let record = &charts[&item.chart_id];
        assert_oracle_and_reader(item, record);
        if !related(record) {
            continue;
        }
        on_figures += 1;
        assert_eq!(
            item.table_id,
            panel_table(record, item),
            "{}",
            item.question
        );
        // Panels in different units are never compared by height.
        assert!(
            !matches!(item.family.as_str(), "highest_panel" | "lowest_panel"),
            "{}",
            item.question
        );
        let figure = record.scene.figure.as_ref().unwrap();
        if item.set == SetName::Original && check_cited_panel(figure, item) {
            cited += 1;
        }
        // Value answers from the cited table's CSV, read without the library.
        let query = serde_json::to_value(&item.query).unwrap();
        let Answer::Number {
            value, decimals, ..
        } = item.answer
        else {
            continue;
        };
        let csv = printed_csv::read_path(&real(&format!("{}.csv", item.table_id)));
        let column = |s: &Value| -> Vec<f64> {
            csv.series[s.as_str().unwrap()]
                .iter()
                .flatten()
                .copied()
                .collect()
        };
        let cell = |q: &Value| {
            let row = csv
                .index
                .iter()
                .position(|c| c == q["category"].as_str().unwrap())
                .unwrap();
            csv.series[q["series"].as_str().unwrap()][row].unwrap()
        };
        // A what-if's answer is rounded as its question asks.
        let mut tolerance = 1e-9;
        let want = match query["op"].as_str().unwrap() {
            "value_at" => cell(&query),
            "hypothetical" if query["base"]["op"] == "value_at" => {
                tolerance += 0.5 * 10f64.powi(-i32::from(decimals));
                cell(&query["base"]) * (1.0 + query["change"]["percent"].as_f64().unwrap() / 100.0)
            }
            "max_value" => column(&query["series"])
                .into_iter()
                .fold(f64::MIN, f64::max),
            "min_value" => column(&query["series"])
                .into_iter()
                .fold(f64::MAX, f64::min),
            _ => continue,
        };
        assert!(
            (want - value).abs() <= tolerance,
            "{}: {value} vs CSV {want}",
            item.question
        );
        recomputed += 1;
    }
    assert!(on_figures >= 12, "{on_figures} items on related figures");
    assert!(cited >= 2, "{cited} originals cite a panel");
    assert!(
        recomputed >= 2,
        "{recomputed} answers recomputed from the CSVs"
    );
}
