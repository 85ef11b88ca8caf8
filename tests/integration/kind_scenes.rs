//! Golden scenes of the long-standing kinds that had none of their own
//! (bar and line are in `render`, every newer kind in its own file): each
//! drawn by the binary's `render` from a fixture, its scene snapshotted, and
//! every mark's value checked against the fixture as printed (read with the
//! csv crate, not the library).

use std::path::Path;

use serde_json::Value;

use crate::support::{bin, printed_csv, run_ok};

/// (kind, fixture): the fixture the README thumbnail of the kind comes from
/// where it is a CSV, else one that suits the kind as well.
const CASES: [(&str, &str); 9] = [
    ("horizontal_bar", "largest_employers_long_labels.csv"),
    ("grouped_bar", "smartphone_shipments_grouped.csv"),
    ("stacked_bar", "cloud_revenue_billions.csv"),
    ("area", "exchange_rates_decimals.csv"),
    ("stacked_area", "renewables_stacked_area.csv"),
    ("pie", "browser_share_pie.csv"),
    ("donut", "browser_share_pie.csv"),
    ("scatter", "city_income_rent_scatter.csv"),
    ("bubble", "country_bubble.csv"),
];

fn render_scene(kind: &str, fixture: &str, out: &Path) -> Value {
    let png = out.join(format!("{kind}.png"));
    run_ok(
        bin()
            .arg("render")
            .arg(
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("fixtures")
                    .join(fixture),
            )
            .args(["--kind", kind, "-o"])
            .arg(&png),
    );
    let text = std::fs::read_to_string(png.with_extension("scene.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The printed cell a categorical mark stands for.
fn cell(csv: &printed_csv::PrintedCsv, series: &str, category: &str) -> Option<f64> {
    let row = csv.index.iter().position(|c| c == category)?;
    csv.series.get(series)?[row]
}

#[test]
fn long_standing_kinds_have_golden_scenes_whose_marks_match_the_csv() {
    let dir = tempfile::tempdir().unwrap();
    for (kind, fixture) in CASES {
        let scene = render_scene(kind, fixture, dir.path());
        insta::assert_json_snapshot!(format!("{kind}_scene"), scene);
        let csv = printed_csv::read(fixture);
        let panel = &scene["panels"][0];
        assert_eq!(panel["kind"], kind, "{fixture}");
        let marks = panel["marks"].as_array().unwrap();
        assert!(!marks.is_empty(), "{kind}: no marks");
        for m in marks {
            let value = m["value"].as_f64().unwrap();
            let series = m["series"].as_str().unwrap();
            if matches!(kind, "scatter" | "bubble") {
                // A point is a row: its x, y (and size) are three cells of it.
                let label = m["category"].as_str().unwrap();
                let row = csv.index.iter().position(|c| c == label);
                let row = row.unwrap_or_else(|| panic!("{kind}: no row {label}"));
                let cells: Vec<f64> = csv
                    .columns
                    .iter()
                    .filter_map(|c| csv.series[c][row])
                    .collect();
                for v in [Some(value), m["x_value"].as_f64(), m["size_value"].as_f64()]
                    .into_iter()
                    .flatten()
                {
                    assert!(
                        cells.iter().any(|c| (c - v).abs() < 1e-9),
                        "{kind} {label}: {v} not in {cells:?}"
                    );
                }
                continue;
            }
            let category = m["category"].as_str().unwrap();
            // A pie's one series is named after the value column.
            let want = cell(&csv, series, category)
                .or_else(|| cell(&csv, &csv.columns[0], category))
                .unwrap_or_else(|| panic!("{kind}: no cell {series} / {category}"));
            assert!(
                (want - value).abs() < 1e-9,
                "{kind} {series} {category}: scene {value}, CSV {want}"
            );
        }
    }
}
