//! Line and area charts over unevenly spaced years or dates are drawn on a
//! time line: points at places proportional to their times, tick labels at
//! round times. Evenly spaced indexes keep their category slots, and the
//! `reader` places unprinted times between the printed ones.

use std::path::{Path, PathBuf};

use crate::support::{bin, run_ok};
use serde_json::Value;

/// Writes `NAME.csv` (and a sidecar with its title) into `dir`.
fn write_table(dir: &Path, name: &str, csv: &str, title: &str) -> PathBuf {
    let path = dir.join(format!("{name}.csv"));
    std::fs::write(&path, csv).unwrap();
    std::fs::write(
        dir.join(format!("{name}.meta.json")),
        // The series of these tables measure one quantity: one shared axis.
        serde_json::json!({ "title": title, "measure": "value" }).to_string(),
    )
    .unwrap();
    path
}

/// Renders a table through the binary and returns its first panel's scene
/// and the SVG.
fn render(table: &Path, kind: &str, out: &Path) -> (Value, String) {
    let png = out.join(format!(
        "{}_{kind}.png",
        table.file_stem().unwrap().to_string_lossy()
    ));
    run_ok(
        bin()
            .arg("render")
            .arg(table)
            .args(["--kind", kind, "-o"])
            .arg(&png),
    );
    let scene: Value =
        serde_json::from_slice(&std::fs::read(png.with_extension("scene.json")).unwrap()).unwrap();
    let svg = std::fs::read_to_string(png.with_extension("svg")).unwrap();
    (scene["panels"][0].clone(), svg)
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

fn centre_x(bbox: &Value) -> f64 {
    f(&bbox["x"]) + f(&bbox["w"]) / 2.0
}

/// Where a time should be drawn: the data range is laid out proportionally
/// with half the mean step as margin at both ends, as category slots have.
fn expected_x(plot: &Value, times: &[f64], t: f64) -> f64 {
    let (first, last) = (times[0], times[times.len() - 1]);
    let half = (last - first) / (times.len() - 1) as f64 / 2.0;
    f(&plot["x"]) + f(&plot["w"]) * (t - first + half) / (last - first + 2.0 * half)
}

/// Every point of `series` sits at its time's place, within 1 px.
fn assert_points_proportional(panel: &Value, series: &str, time: impl Fn(&str) -> f64) {
    let marks: Vec<&Value> = panel["marks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["series"] == series)
        .collect();
    assert!(marks.len() >= 3, "{series}: {} points", marks.len());
    // The chart spans every category, not only this series' points.
    let mut times: Vec<f64> = panel["marks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| time(m["category"].as_str().unwrap()))
        .collect();
    times.sort_by(f64::total_cmp);
    times.dedup();
    for m in marks {
        let t = time(m["category"].as_str().unwrap());
        let x = centre_x(&m["bbox"]);
        let want = expected_x(&panel["plot_area"], &times, t);
        assert!(
            (x - want).abs() <= 1.0,
            "{series} at {}: x {x:.2}, proportional {want:.2}",
            m["category"]
        );
    }
}

/// The printed x tick labels: round times with a regular step, increasing,
/// within the data, at their time's place, their boxes apart and inside the
/// image. Returns the labels.
fn assert_round_ticks(
    panel: &Value,
    width: f64,
    data_times: &[f64],
    time: impl Fn(&str) -> f64,
    steps: &[i64],
) -> Vec<String> {
    let ticks = panel["x_ticks"].as_array().unwrap();
    assert!(ticks.len() >= 2, "{ticks:?}");
    let times: Vec<i64> = ticks
        .iter()
        .map(|t| time(t["label"].as_str().unwrap()) as i64)
        .collect();
    let step = times[1] - times[0];
    assert!(steps.contains(&step), "step {step} of {times:?}");
    for (t, tick) in times.iter().zip(ticks) {
        assert_eq!(t.rem_euclid(step), 0, "{t} is not a round time");
        assert!(
            (data_times[0]..=data_times[data_times.len() - 1]).contains(&(*t as f64)),
            "{t} outside the data"
        );
        let want = expected_x(&panel["plot_area"], data_times, *t as f64);
        assert!((f(&tick["pos"]) - want).abs() <= 1.0, "{tick}");
        let b = &tick["bbox"];
        assert!(
            f(&b["x"]) >= 0.0 && f(&b["x"]) + f(&b["w"]) <= width,
            "{tick}"
        );
        assert!((centre_x(b) - f(&tick["pos"])).abs() <= 1.0, "{tick}");
    }
    assert!(
        times.windows(2).all(|w| w[1] - w[0] == step),
        "{times:?} is not regular"
    );
    for w in ticks.windows(2) {
        let (a, b) = (&w[0]["bbox"], &w[1]["bbox"]);
        assert!(
            f(&a["x"]) + f(&a["w"]) + 4.0 <= f(&b["x"]),
            "labels touch: {} {}",
            w[0],
            w[1]
        );
    }
    ticks
        .iter()
        .map(|t| t["label"].as_str().unwrap().to_string())
        .collect()
}

fn year(label: &str) -> f64 {
    label.parse().unwrap()
}

/// Months since year 0.
fn month(label: &str) -> f64 {
    let (y, m) = label.split_once('-').unwrap();
    (y.parse::<i64>().unwrap() * 12 + m.parse::<i64>().unwrap() - 1) as f64
}

const YEARS: [i32; 14] = [
    1950, 1951, 1956, 1960, 1970, 1972, 1980, 1985, 1990, 2000, 2005, 2010, 2011, 2020,
];

/// Two series over uneven years; the second misses 1972.
fn uneven_years_csv() -> String {
    let mut csv = String::from("Year,Wheat (Mt),Barley (Mt)\n");
    for (i, y) in YEARS.iter().enumerate() {
        let barley = if *y == 1972 {
            String::new()
        } else {
            format!("{:.1}", 8.0 + (i as f64 * 1.3).sin() * 2.0 + i as f64 * 0.4)
        };
        csv += &format!("{y},{:.1},{barley}\n", 12.0 + i as f64 * 3.1);
    }
    csv
}

#[test]
fn uneven_years_are_placed_by_time_with_round_tick_years() {
    let dir = tempfile::tempdir().unwrap();
    let table = write_table(
        dir.path(),
        "harvest",
        &uneven_years_csv(),
        "Harvest, 1950-2020",
    );
    let data: Vec<f64> = YEARS.iter().map(|y| f64::from(*y)).collect();
    for kind in ["line", "area", "stacked_area"] {
        let (panel, _) = render(&table, kind, dir.path());
        assert_eq!(panel["kind"], kind);
        assert_points_proportional(&panel, "Wheat (Mt)", year);
        if kind != "area" {
            assert_points_proportional(&panel, "Barley (Mt)", year);
        }
        let labels = assert_round_ticks(&panel, 800.0, &data, year, &[1, 2, 5, 10, 20, 25]);
        // 1956 and 1972 have points but, on a 70-year axis, no label.
        assert!(!labels.contains(&"1956".to_string()), "{labels:?}");
        assert!(labels.contains(&"1990".to_string()), "{labels:?}");
    }
}

#[test]
fn missing_values_stay_gaps_on_a_time_axis() {
    let dir = tempfile::tempdir().unwrap();
    let table = write_table(
        dir.path(),
        "harvest",
        &uneven_years_csv(),
        "Harvest, 1950-2020",
    );
    let (panel, svg) = render(&table, "line", dir.path());
    let barley: Vec<&Value> = panel["marks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["series"] == "Barley (Mt)")
        .collect();
    assert_eq!(barley.len(), YEARS.len() - 1);
    assert!(barley.iter().all(|m| m["category"] != "1972"));
    // The line breaks at 1972: two runs of points in Barley's colour (its
    // legend swatch is a two-point line).
    let hex = barley[0]["color"]["hex"].as_str().unwrap().to_uppercase();
    let runs: Vec<usize> = svg
        .split("<polyline")
        .skip(1)
        .map(|e| &e[..e.find("/>").unwrap()])
        .filter(|e| e.contains(&format!("stroke=\"{hex}\"")))
        .map(|e| {
            let points = e.split("points=\"").nth(1).unwrap();
            points[..points.find('"').unwrap()]
                .split_whitespace()
                .count()
        })
        .filter(|n| *n > 2)
        .collect();
    assert_eq!(runs, [5, 8], "Barley's runs of points");
}

#[test]
fn uneven_months_get_round_month_ticks() {
    let dir = tempfile::tempdir().unwrap();
    let months = [
        "2022-01", "2022-02", "2022-03", "2022-05", "2022-06", "2022-09", "2022-10", "2022-11",
        "2023-01", "2023-02", "2023-04", "2023-07", "2023-08", "2023-12", "2024-01", "2024-03",
    ];
    let mut csv = String::from("Month,Visitors (thousands)\n");
    for (i, m) in months.iter().enumerate() {
        csv += &format!("{m},{}\n", 120 + (i * 37) % 90);
    }
    let table = write_table(dir.path(), "visitors", &csv, "Museum visitors");
    let (panel, _) = render(&table, "line", dir.path());
    assert_points_proportional(&panel, "Visitors (thousands)", month);
    let data: Vec<f64> = months.iter().map(|m| month(m)).collect();
    let labels = assert_round_ticks(&panel, 800.0, &data, month, &[1, 2, 3, 6, 12, 24]);
    assert!(
        labels
            .iter()
            .all(|l| l.len() == 7 && l.as_bytes()[4] == b'-'),
        "{labels:?}"
    );
}

#[test]
fn evenly_spaced_years_render_as_before() {
    let dir = tempfile::tempdir().unwrap();
    // The table of the render test's golden scene, loaded from CSV.
    let table = write_table(
        dir.path(),
        "energy_mix",
        "Year,Coal,Gas,Wind\n2015,320,150,40\n2016,300,160,55\n2017,280,,70\n\
         2018,250,175,90\n2019,210,180,115\n2020,180,170,140\n2021,190,165,150\n\
         2022,160,172,180\n",
        "Electricity generation by source (TWh)",
    );
    // The golden table names its one quantity, which titles the value axis.
    std::fs::write(
        dir.path().join("energy_mix.meta.json"),
        serde_json::json!({
            "title": "Electricity generation by source (TWh)",
            "measure": "Electricity generation"
        })
        .to_string(),
    )
    .unwrap();
    let png = dir.path().join("energy.png");
    run_ok(
        bin()
            .arg("render")
            .arg(&table)
            .args(["--kind", "line", "--theme", "newsprint", "-o"])
            .arg(&png),
    );
    let scene: Value =
        serde_json::from_slice(&std::fs::read(png.with_extension("scene.json")).unwrap()).unwrap();
    let golden = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/integration/snapshots/integration__render__energy_line_scene.snap"),
    )
    .unwrap();
    let golden: Value = serde_json::from_str(golden.splitn(3, "---\n").nth(2).unwrap()).unwrap();
    assert_eq!(scene, golden);
    // Every year printed at its evenly spaced slot.
    let panel = &scene["panels"][0];
    let labels: Vec<&str> = panel["x_ticks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["label"].as_str().unwrap())
        .collect();
    assert_eq!(
        labels,
        [
            "2015", "2016", "2017", "2018", "2019", "2020", "2021", "2022"
        ]
    );
}

/// Every category a query names, however deeply nested (conversations,
/// hypotheticals).
fn categories(query: &Value, out: &mut Vec<String>) {
    match query {
        Value::Object(map) => {
            for (k, v) in map {
                match v {
                    Value::String(c) if k == "category" => out.push(c.clone()),
                    _ => categories(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| categories(v, out)),
        _ => {}
    }
}

/// Years whose round ticks (1960, 1970, …) fall between the points, so the
/// questions name years that are not printed.
const OFF_TICK_YEARS: [i32; 13] = [
    1951, 1953, 1958, 1962, 1969, 1974, 1983, 1987, 1994, 1999, 2006, 2013, 2018,
];

#[test]
fn the_reader_places_unprinted_years_from_the_printed_ticks() {
    use chartstress::ir::Prediction;
    use chartstress::score::{Metric, score_item};

    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    std::fs::create_dir(&tables).unwrap();
    let mut csv = String::from("Year,Exports (billion $)\n");
    for (i, y) in OFF_TICK_YEARS.iter().enumerate() {
        csv += &format!(
            "{y},{:.1}\n",
            20.0 + i as f64 * 6.5 + (i as f64).sin() * 9.0
        );
    }
    write_table(&tables, "exports", &csv, "Exports, 1951-2018");
    let suite = dir.path().join("suite");
    // Without the gate, so that every generated item is judged here.
    run_ok(
        bin()
            .arg("generate")
            .arg(&tables)
            .arg("--out")
            .arg(&suite)
            .args([
                "--kinds",
                "line,area",
                "--sets",
                "original",
                "--charts-per-table",
                "2",
                "--questions-per-chart",
                "40",
                "--seed",
                "11",
                "--no-readability-gate",
                "--quiet",
            ]),
    );
    run_ok(
        bin()
            .arg("run")
            .arg(&suite)
            .args(["--adapter", "reader", "--no-progress"]),
    );
    let items = chartstress::suite::read_items(&suite).unwrap();
    let charts: std::collections::HashMap<String, chartstress::ir::ChartRecord> =
        chartstress::suite::read_charts(&suite)
            .unwrap()
            .into_iter()
            .map(|c| (c.id.clone(), c))
            .collect();
    let predictions: std::collections::HashMap<String, Prediction> =
        std::fs::read_to_string(suite.join("runs/reader/predictions.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<Prediction>(l).unwrap())
            .map(|p| (p.id.clone(), p))
            .collect();
    let mut unprinted = 0;
    for item in items.iter().filter(|i| i.answerable) {
        let p = &predictions[&item.id];
        let right = score_item(Metric::Relaxed, item, p) == 1.0;
        assert!(
            right,
            "{}: gold {}, reader {}",
            item.question, item.answer_text, p.raw
        );
        let printed: Vec<&str> = charts[&item.chart_id].scene.panels[0]
            .x_ticks
            .iter()
            .map(|t| t.label.as_str())
            .collect();
        let mut named = Vec::new();
        categories(&serde_json::to_value(&item.query).unwrap(), &mut named);
        if item.family == "value_at" && named.iter().any(|c| !printed.contains(&c.as_str())) {
            unprinted += 1;
        }
    }
    assert!(
        unprinted >= 3,
        "only {unprinted} value_at items on unprinted years"
    );
}
