//! Composite charts (subplot grids and dashboards) read from the rendered
//! scene: aligned plot areas, panel letters, related distractors, KPI tiles
//! recomputed from the tables.

use crate::support::fixture_tables;

use std::path::Path;

use std::collections::{BTreeMap, BTreeSet};

use chartstress::ir::{ChartSpec, Layout, Scene, Table};
use chartstress::perturb::{self, ChartContext};

fn base_spec(table: &Table) -> Option<ChartSpec> {
    let kind = *chartstress::spec::suitable_kinds(table).first()?;
    let style = chartstress::spec::theme("classic").unwrap();
    chartstress::spec::single(table, kind, &style).ok()
}

fn apply(
    name: &str,
    table: &Table,
    tables: &[Table],
    severity: u8,
    seed: u64,
) -> Option<ChartSpec> {
    let themes = chartstress::spec::builtin_themes();
    let others: Vec<&Table> = tables.iter().filter(|t| t.id != table.id).collect();
    let ctx = ChartContext {
        seed,
        themes: &themes,
        distractors: &others,
    };
    let p = perturb::find(name).expect("registered");
    p.apply_spec(&base_spec(table)?, severity, &ctx)
        .map(|a| a.value)
}

fn render(spec: &ChartSpec) -> (Scene, Vec<u8>) {
    let out = chartstress::render::render(spec).expect("renders");
    (out.scene, out.png)
}

/// Writes PNGs of both composites at severities 1, 3, 5 to look at:
/// `CHARTSTRESS_DUMP=dir cargo test --test integration composites::dump -- --ignored`.
#[test]
#[ignore]
fn dump() {
    let dir = std::env::var("CHARTSTRESS_DUMP").unwrap_or_else(|_| "target/composites".into());
    std::fs::create_dir_all(&dir).unwrap();
    let tables = fixture_tables();
    let picks = std::env::var("CHARTSTRESS_TABLES").unwrap_or_else(|_| {
        "retail_sales_monthly,gdp_growth_g7,browser_share_pie,synth-0001-ranking".into()
    });
    for id in picks.split(',') {
        let table = tables.iter().find(|t| t.id == id).expect("fixture");
        for name in ["subplots", "dashboard"] {
            for severity in [1u8, 3, 5] {
                let Some(spec) = apply(name, table, &tables, severity, 7) else {
                    continue;
                };
                let (_, png) = render(&spec);
                std::fs::write(format!("{dir}/{id}__{name}__{severity}.png"), png).unwrap();
            }
        }
    }
}

fn fixture_ids(tables: &[Table]) -> Vec<String> {
    tables.iter().map(|t| t.id.clone()).collect()
}

#[test]
fn grid_rows_and_columns_share_plot_edges() {
    let tables = fixture_tables();
    let mut grids = 0;
    for (k, id) in fixture_ids(&tables).iter().enumerate() {
        let table = tables.iter().find(|t| &t.id == id).unwrap();
        let severity = (k % 5) as u8 + 1;
        let Some(spec) = apply("subplots", table, &tables, severity, 11) else {
            continue;
        };
        let (scene, _) = render(&spec);
        grids += 1;
        let cartesian: Vec<_> = scene
            .panels
            .iter()
            .filter(|p| !p.kind.is_circular())
            .collect();
        for a in &cartesian {
            for b in &cartesian {
                let (pa, pb) = (a.plot_area, b.plot_area);
                if a.row == b.row {
                    assert!(
                        (pa.y - pb.y).abs() <= 1.0 && (pa.bottom() - pb.bottom()).abs() <= 1.0,
                        "{id} s{severity}: row {} plot {:?} vs {:?}",
                        a.row,
                        pa,
                        pb
                    );
                }
                if a.col == b.col {
                    assert!(
                        (pa.x - pb.x).abs() <= 1.0 && (pa.right() - pb.right()).abs() <= 1.0,
                        "{id} s{severity}: col {} plot {:?} vs {:?}",
                        a.col,
                        pa,
                        pb
                    );
                }
            }
        }
    }
    assert!(grids >= 20, "{grids} grids");
}

#[test]
fn panel_letters_are_printed_at_each_panels_top_left() {
    let tables = fixture_tables();
    let table = tables
        .iter()
        .find(|t| t.id == "retail_sales_monthly")
        .unwrap();
    for severity in 1..=5u8 {
        let spec = apply("subplots", table, &tables, severity, 5).expect("applies");
        let (scene, _) = render(&spec);
        let (rows, cols) = scene.grid;
        let cell_w = scene.width as f32 / cols as f32;
        let cell_h = scene.height as f32 / rows as f32;
        for p in &scene.panels {
            let letter = chartstress::render::panel_letter(p.index);
            let found = scene
                .extra_text
                .iter()
                .find(|t| t.text == letter)
                .unwrap_or_else(|| panic!("{letter} is scene text"));
            let b = found.bbox;
            // In the panel's cell, left of and above everything the panel drew.
            assert!(b.x >= p.col as f32 * cell_w - 20.0 && b.x < (p.col + 1) as f32 * cell_w);
            assert!(b.y >= p.row as f32 * cell_h - 20.0 && b.y < (p.row + 1) as f32 * cell_h);
            let lefts = [p.title.as_ref(), p.y_label.as_ref()]
                .into_iter()
                .flatten()
                .map(|t| t.bbox.x)
                .chain(p.y_ticks.iter().map(|t| t.bbox.x))
                .chain([p.plot_area.x]);
            for x in lefts {
                assert!(b.x <= x + 0.5, "{letter} at the left edge");
            }
            assert!(b.bottom() <= p.plot_area.y, "{letter} above the plot");
            if let Some(t) = &p.title {
                assert!(!b.intersects(&t.bbox), "{letter} clear of the title");
                assert!(b.bottom() <= t.bbox.y + 0.5, "{letter} above the title");
            }
            for tick in p.y_ticks.iter().chain(&p.x_ticks) {
                assert!(!b.intersects(&tick.bbox));
            }
        }
        let target = scene
            .panels
            .iter()
            .find(|p| p.table_id == table.id)
            .unwrap();
        assert_eq!(
            perturb::subplots::panel_reference(&spec, target.index),
            format!("panel {}", chartstress::render::panel_letter(target.index))
        );
    }
}

fn csv_table(dir: &Path, id: &str, csv: &str, title: &str) -> Table {
    let path = dir.join(format!("{id}.csv"));
    std::fs::write(&path, csv).unwrap();
    let mut t = chartstress::table::load_table(&path).unwrap();
    t.meta.title = Some(title.to_string());
    t
}

#[test]
fn distractor_panels_come_from_related_tables() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let by_country = "Country,Value\nBrazil,3.1\nColombia,2.4\nEthiopia,1.2\nVietnam,2.9\n";
    let by_year = "Year,Value\n2019,10\n2020,12\n2021,15\n2022,11\n";
    let tables = vec![
        csv_table(dir, "a_target", by_country, "Coffee exports by country"),
        csv_table(dir, "b_rain", by_year, "Rainfall in Oslo"),
        csv_table(dir, "c_imports", by_country, "Coffee imports by country"),
        csv_table(dir, "d_cars", by_year, "Car registrations"),
        csv_table(dir, "e_prices", by_year, "Coffee prices"),
        csv_table(dir, "f_steel", by_year, "Steel output"),
    ];
    for seed in 0..8 {
        // One distractor: the closest table.
        let spec = apply("subplots", &tables[0], &tables, 1, seed).unwrap();
        let (scene, _) = render(&spec);
        let ids: BTreeSet<&str> = scene.panels.iter().map(|p| p.table_id.as_str()).collect();
        assert_eq!(
            ids,
            BTreeSet::from(["a_target", "c_imports"]),
            "seed {seed}"
        );
        // Two: both coffee tables before any unrelated one.
        let spec = apply("subplots", &tables[0], &tables, 2, seed).unwrap();
        let (scene, _) = render(&spec);
        let ids: BTreeSet<&str> = scene.panels.iter().map(|p| p.table_id.as_str()).collect();
        assert_eq!(
            ids,
            BTreeSet::from(["a_target", "c_imports", "e_prices"]),
            "seed {seed}"
        );
    }
    // Nothing related: the most similar tables still fill the grid.
    let unrelated: Vec<Table> = tables
        .iter()
        .filter(|t| !t.id.contains("coffee") && t.id != "c_imports" && t.id != "e_prices")
        .cloned()
        .collect();
    let spec = apply("subplots", &tables[0], &unrelated, 2, 3).unwrap();
    assert_eq!(render(&spec).0.panels.len(), 3);
}

/// A number as printed on a tile: "$1,234.5", "-3.2%", "42".
fn printed_number(s: &str) -> f64 {
    let clean: String = s
        .chars()
        .map(|c| if c == '−' { '-' } else { c })
        .filter(|c| c.is_ascii_digit() || *c == '.' || *c == '-')
        .collect();
    clean
        .parse()
        .unwrap_or_else(|_| panic!("{s:?} is a number"))
}

/// The decimals printed in `s`.
fn printed_decimals(s: &str) -> i32 {
    s.split_once('.').map_or(0, |(_, f)| {
        f.chars().take_while(|c| c.is_ascii_digit()).count() as i32
    })
}

/// Wide CSV fixtures read with the csv crate alone: index label → series → raw cell.
type RawColumns = BTreeMap<String, Vec<Option<f64>>>;

fn raw_csv(id: &str) -> Option<(Vec<String>, RawColumns)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(format!("{id}.csv"));
    let mut rd = csv::Reader::from_path(path).ok()?;
    let headers: Vec<String> = rd.headers().ok()?.iter().map(str::to_string).collect();
    let mut index = Vec::new();
    let mut cols = RawColumns::new();
    for rec in rd.records() {
        let rec = rec.ok()?;
        index.push(rec.get(0)?.to_string());
        for (h, cell) in headers.iter().zip(rec.iter()).skip(1) {
            let v = cell
                .chars()
                .map(|c| if c == '−' { '-' } else { c })
                .filter(|c| c.is_ascii_digit() || *c == '.' || *c == '-')
                .collect::<String>()
                .parse::<f64>()
                .ok();
            cols.entry(h.clone()).or_default().push(v);
        }
    }
    Some((index, cols))
}

/// Recomputes one tile from the raw CSVs of the dashboard's tables; false
/// when no wide CSV holds its series.
fn check_tile(kpi: &chartstress::ir::scene::KpiScene, ids: &[&str]) -> bool {
    let close = |a: f64, b: f64, d: i32| (a - b).abs() <= 0.5 * 10f64.powi(-d) + 1e-9;
    let value = printed_number(&kpi.value);
    let d = printed_decimals(&kpi.value);
    for id in ids {
        let Some((index, cols)) = raw_csv(id) else {
            continue;
        };
        let label = kpi.label.as_str();
        let find = |name: &str| cols.get(name);
        if let Some(rest) = label.strip_prefix("Total ") {
            let name = rest.split(", ").next().unwrap();
            if let Some(col) = find(name).or_else(|| find(rest)) {
                let sum: f64 = col.iter().flatten().sum();
                assert!(close(sum, value, d), "{label}: {sum} vs {}", kpi.value);
                return true;
            }
            continue;
        }
        for (word, is_max) in [
            ("Highest ", true),
            ("Peak ", true),
            ("Lowest ", false),
            ("Low ", false),
        ] {
            if let Some(rest) = label.strip_prefix(word)
                && let Some((name, cat)) = rest.rsplit_once(": ")
                && let Some(col) = find(name)
            {
                // Another table may have a series of the same name.
                let Some(row) = index.iter().position(|c| c == cat) else {
                    continue;
                };
                let v = col[row].expect("value");
                assert!(close(v, value, d), "{label}: {v} vs {}", kpi.value);
                let extreme = col.iter().flatten().copied().fold(
                    if is_max { f64::MIN } else { f64::MAX },
                    |a, b| {
                        if is_max { a.max(b) } else { a.min(b) }
                    },
                );
                assert_eq!(v, extreme, "{label}");
                return true;
            }
        }
        if let Some((name, period)) = label.rsplit_once(", ")
            && let Some(col) = find(name)
        {
            let Some(row) = index.iter().position(|c| c == period) else {
                continue;
            };
            let v = col[row].expect("value");
            assert!(close(v, value, d), "{label}: {v} vs {}", kpi.value);
            assert_eq!(row + 1, index.len(), "{label}: the latest period");
            match &kpi.delta {
                Some(delta) => {
                    let (pct, prev_label) = delta.split_once("% vs ").expect("delta form");
                    assert_eq!(prev_label, index[row - 1], "consecutive periods");
                    let prev = col[row - 1].expect("previous value");
                    let want = (v - prev) / prev.abs() * 100.0;
                    assert!(close(want, printed_number(pct), 1), "{delta}: {want}");
                }
                None => assert!(row == 0 || col[row - 1].is_none() || col[row - 1] == Some(0.0)),
            }
            return true;
        }
    }
    false
}

#[test]
fn dashboard_tiles_recompute_from_the_csv_tables() {
    let tables = fixture_tables();
    let mut checked = 0;
    for (k, table) in tables.iter().enumerate() {
        let severity = (k % 5) as u8 + 1;
        let Some(spec) = apply("dashboard", table, &tables, severity, 13) else {
            continue;
        };
        let (scene, _) = render(&spec);
        let ids: Vec<&str> = scene.panels.iter().map(|p| p.table_id.as_str()).collect();
        for kpi in &scene.kpis {
            if check_tile(kpi, &ids) {
                checked += 1;
            }
        }
    }
    assert!(checked >= 30, "{checked} tiles checked");
}

#[test]
fn dashboard_tiles_differ_between_tables_and_are_never_cut() {
    let tables = fixture_tables();
    let mut seen: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut dashboards = 0;
    for (k, table) in tables.iter().enumerate() {
        for severity in 1..=5u8 {
            // Items' seeds differ (they derive from item ids).
            let seed = (k * 5) as u64 + u64::from(severity);
            let Some(spec) = apply("dashboard", table, &tables, severity, seed) else {
                continue;
            };
            let Layout::Dashboard { kpis, .. } = &spec.layout else {
                panic!("a dashboard");
            };
            let (scene, _) = render(&spec);
            dashboards += 1;
            assert_eq!(scene.kpis.len(), kpis.len());
            for (tile, drawn) in kpis.iter().zip(&scene.kpis) {
                *seen
                    .entry((tile.label.clone(), tile.value.clone()))
                    .or_default() += 1;
                assert_eq!(drawn.label, tile.label);
                assert_eq!(drawn.value, tile.value);
                let label_lines: Vec<&str> = drawn
                    .lines
                    .iter()
                    .map(|l| l.text.as_str())
                    .take_while(|t| *t != tile.value)
                    .collect();
                assert_eq!(label_lines.join(" "), tile.label, "label printed in full");
                assert!(drawn.lines.iter().any(|l| l.text == tile.value));
                if let Some(d) = &tile.delta {
                    assert!(drawn.lines.iter().any(|l| &l.text == d));
                }
                for line in &drawn.lines {
                    assert!(!line.text.contains('…'), "{:?} is cut", line.text);
                    let (b, t) = (line.bbox, drawn.bbox);
                    assert!(
                        b.x >= t.x
                            && b.right() <= t.right() + 0.5
                            && b.y >= t.y
                            && b.bottom() <= t.bottom() + 0.5,
                        "{:?} {b:?} outside its tile {t:?}",
                        line.text
                    );
                    assert!(b.h >= 9.0, "{:?} is legible", line.text);
                }
            }
        }
    }
    assert!(dashboards >= 100, "{dashboards}");
    let most = seen.values().copied().max().unwrap_or(0);
    assert!(
        seen.len() * 3 >= dashboards,
        "{} distinct tiles over {dashboards} dashboards",
        seen.len()
    );
    // A tile belongs to a table: it recurs only where that table is shown,
    // never on most dashboards.
    let top: Vec<_> = seen.iter().filter(|(_, n)| **n == most).collect();
    assert!(
        most * 100 <= dashboards * 15,
        "a tile on {most} of {dashboards} dashboards: {top:?}"
    );
}

#[test]
fn composites_are_deterministic() {
    let tables = fixture_tables();
    let table = tables.iter().find(|t| t.id == "gdp_growth_g7").unwrap();
    for name in ["subplots", "dashboard"] {
        for severity in [1u8, 3, 5] {
            let a = apply(name, table, &tables, severity, 9).unwrap();
            let b = apply(name, table, &tables, severity, 9).unwrap();
            assert_eq!(a, b);
            let (ra, rb) = (
                chartstress::render::render(&a).unwrap(),
                chartstress::render::render(&b).unwrap(),
            );
            assert_eq!(ra.svg, rb.svg);
            assert_eq!(ra.png, rb.png);
        }
    }
}
