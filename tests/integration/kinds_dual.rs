//! Dual-axis charts: a golden scene, bars and line points where the CSV
//! (read here with the csv crate, not the library) puts them on the left
//! and right axes' printed ticks and in the pixels, which tables are
//! offered the kind, and a generated suite answered fully by the oracle and
//! the reader.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use chartstress::ir::{ChartKind, MarkKind, Tick};

use crate::support::printed_csv::read_complete as read_csv;

use crate::support::kind_suite::kind_suite;
use crate::support::pixels::{near, rgb};
use crate::support::{bin, run_ok};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dual/revenue_margin.csv")
}

/// A printed tick label as a number ("$1,000", "12.5%", "1.2k").
fn parse_tick(l: &str) -> f64 {
    let digits: String = l
        .chars()
        .filter(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '\u{2212}'))
        .map(|c| if c == '\u{2212}' { '-' } else { c })
        .collect();
    let scale = match l.trim().chars().last() {
        Some('k' | 'K') => 1e3,
        Some('M') => 1e6,
        _ => 1.0,
    };
    scale
        * digits
            .parse::<f64>()
            .unwrap_or_else(|_| panic!("tick {l:?}"))
}

/// The pixel row of `v` on an axis given by its first and last printed tick.
fn row_of(ticks: &[Tick], v: f64) -> f64 {
    let (a, b) = (ticks.first().unwrap(), ticks.last().unwrap());
    let (p0, v0) = (f64::from(a.pos), parse_tick(&a.label));
    let (p1, v1) = (f64::from(b.pos), parse_tick(&b.label));
    p0 + (v - v0) * (p1 - p0) / (v1 - v0)
}

#[test]
fn dual_axis_scene_snapshot() {
    let r = render(&fixture(), "classic", true);
    insta::assert_json_snapshot!("dual_axis_scene", r.scene);
}

/// Bars stand on the left axis at the CSV's first column, line points on
/// the right axis at its second: in the scene's boxes and in the pixels,
/// in several themes (the scale read from the printed ticks).
#[test]
fn bars_read_on_the_left_and_points_on_the_right_axis() {
    let (index, cols) = read_csv(&fixture());
    for theme in ["classic", "dark", "newsprint", "business"] {
        let r = render(&fixture(), theme, false);
        let p = &r.scene.panels[0];
        let d = p.dual_axis.as_ref().expect("a right axis");
        assert_eq!(d.left_series, cols[0].0, "{theme}");
        assert_eq!(d.right_series, cols[1].0, "{theme}");
        assert!(d.right_ticks.len() >= 3, "{theme}: {:?}", d.right_ticks);
        // Both axes are titled after their series, in the series' colour.
        assert!(p.y_label.as_ref().unwrap().text.starts_with("Revenue"));
        assert!(
            d.right_label
                .as_ref()
                .unwrap()
                .text
                .starts_with("Operating margin")
        );
        let img = image::load_from_memory(&r.png).unwrap().to_rgb8();
        // Right-axis labels and title stay inside the image.
        let right_edge = d
            .right_ticks
            .iter()
            .map(|t| t.bbox.right())
            .chain(d.right_label.as_ref().map(|l| l.bbox.right()))
            .fold(0.0f32, f32::max);
        assert!(right_edge <= img.width() as f32, "{theme}: {right_edge}");
        assert!(
            d.right_ticks
                .iter()
                .all(|t| t.bbox.x >= p.plot_area.right()),
            "{theme}: right ticks inside the plot"
        );
        for (r_i, cat) in index.iter().enumerate() {
            let bar = p
                .marks
                .iter()
                .find(|m| m.kind == MarkKind::Bar && m.category.as_deref() == Some(cat))
                .unwrap();
            let top = row_of(&p.y_ticks, cols[0].1[r_i]);
            assert!(
                (f64::from(bar.bbox.y) - top).abs() <= 1.0,
                "{theme} {cat}: bar top {} vs left-axis row {top}",
                bar.bbox.y
            );
            let point = p
                .marks
                .iter()
                .find(|m| m.kind == MarkKind::LinePoint && m.category.as_deref() == Some(cat))
                .unwrap();
            let y = row_of(&d.right_ticks, cols[1].1[r_i]);
            let (cx, cy) = point.bbox.center();
            assert!(
                (f64::from(cy) - y).abs() <= 1.0,
                "{theme} {cat}: point at {cy} vs right-axis row {y}"
            );
            // Pixels: the bar's colour just under its computed top (away
            // from the line, beside the bar's centre) and the line's at the
            // computed point.
            let bx = (bar.bbox.x + bar.bbox.w * 0.2) as u32;
            let by = (top + 4.0) as u32;
            assert!(
                near(img.get_pixel(bx, by).0, rgb(&bar.color.hex)),
                "{theme} {cat}: pixel ({bx},{by}) not the bar colour"
            );
            let px = img.get_pixel(cx as u32, y.round() as u32).0;
            assert!(
                near(px, rgb(&point.color.hex)),
                "{theme} {cat}: pixel at the point {px:?} not the line colour"
            );
        }
    }
}

fn table(cols: &[(&str, &[&str])]) -> chartstress::ir::Table {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.csv");
    let n = cols[0].1.len();
    let mut text = format!(
        "Region,{}\n",
        cols.iter().map(|c| c.0).collect::<Vec<_>>().join(",")
    );
    for r in 0..n {
        let cells: Vec<&str> = cols.iter().map(|c| c.1[r]).collect();
        text.push_str(&format!("R{r},{}\n", cells.join(",")));
    }
    std::fs::write(&path, text).unwrap();
    chartstress::table::load_table(&path).unwrap()
}

#[test]
fn dual_axes_are_offered_only_for_two_unlike_series() {
    let offered = |t: &chartstress::ir::Table| {
        chartstress::spec::suitable_kinds(t).contains(&ChartKind::DualAxis)
    };
    assert!(offered(&table(&[
        ("Revenue", &["$120", "$150", "$90", "$130"]),
        ("Margin", &["12.5%", "14%", "9.5%", "11%"]),
    ])));
    // One unit, one scale: one axis reads both.
    assert!(!offered(&table(&[
        ("North", &["120", "150", "90", "130"]),
        ("South", &["100", "140", "95", "120"]),
    ])));
    // Three series.
    assert!(!offered(&table(&[
        ("Revenue", &["$120", "$150", "$90", "$130"]),
        ("Margin", &["12.5%", "14%", "9.5%", "11%"]),
        ("Staff", &["12", "14", "9", "11"]),
    ])));
    // Two rows.
    assert!(!offered(&table(&[
        ("Revenue", &["$120", "$150"]),
        ("Margin", &["12.5%", "14%"]),
    ])));
    // And a single chart of an unsuitable table is refused.
    let t = table(&[
        ("North", &["120", "150", "90", "130"]),
        ("South", &["100", "140", "95", "120"]),
    ]);
    let style = chartstress::spec::theme("classic").unwrap();
    assert!(chartstress::spec::single(&t, ChartKind::DualAxis, &style).is_err());
}

/// A suite of dual-axis charts over synthesized tables and the fixture:
/// every item answered right by the oracle and the reader, at least three
/// data families, and right-axis values asked.
#[test]
fn dual_axis_suites_are_answered_by_oracle_and_reader() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    run_ok(
        bin()
            .args([
                "synth",
                "--seed",
                "11",
                "--count",
                "8",
                "--kind",
                "dual_axis",
                "-o",
            ])
            .arg(&tables),
    );
    std::fs::copy(fixture(), tables.join("revenue_margin.csv")).unwrap();
    std::fs::copy(
        fixture().with_extension("meta.json"),
        tables.join("revenue_margin.meta.json"),
    )
    .unwrap();
    let suite = kind_suite(&tables, &[ChartKind::DualAxis], 5, 2);
    let items = &suite.items;
    let mut families = BTreeSet::new();
    let mut right_values = 0;
    for (parsed, record) in suite.answered_items() {
        if parsed.set == chartstress::ir::SetName::Original {
            assert_eq!(
                parsed.chart_kind,
                ChartKind::DualAxis,
                "{}",
                parsed.question
            );
            families.insert(parsed.family.clone());
            let right = &record.scene.panels[0]
                .dual_axis
                .as_ref()
                .unwrap()
                .right_series;
            let query = serde_json::to_string(&parsed.query).unwrap();
            if parsed.family == "value_at" && query.contains(&format!("{right:?}")) {
                right_values += 1;
            }
        }
    }
    // Which axis a series is read on: left for the CSV's first column,
    // right for its second.
    let mut sides = BTreeSet::new();
    for item in items {
        if item["family"] != "series_axis" || item["set"] != "original" {
            continue;
        }
        let q = item["question"].as_str().unwrap();
        let table = item["table_id"].as_str().unwrap();
        let (_, cols) = read_csv(&tables.join(format!("{table}.csv")));
        // The question leaves a unit in brackets to the axis, and a
        // measure reads in lower case mid-sentence.
        let q = q.to_lowercase();
        let named = |header: &str| {
            let header = header.to_lowercase();
            let bare = header.split(" (").next().unwrap_or(&header);
            q.contains(&format!(" {header} read on")) || q.contains(&format!(" {bare} read on"))
        };
        let want = if named(&cols[0].0) {
            "left"
        } else {
            assert!(named(&cols[1].0), "{q}");
            "right"
        };
        assert_eq!(item["answer"]["value"], want, "{q}");
        sides.insert(want);
    }
    assert!(!sides.is_empty(), "no axis question was asked");
    let data: Vec<&String> = families
        .iter()
        .filter(|f| chartstress::questions::pick::DATA_FAMILIES.contains(&f.as_str()))
        .collect();
    assert!(data.len() >= 3, "{families:?}");
    assert!(right_values > 0, "no right-axis value was asked");
}

fn render(path: &Path, theme: &str, labels: bool) -> chartstress::render::Rendered {
    crate::support::pixels::render_single(path, ChartKind::DualAxis, theme, labels)
}
