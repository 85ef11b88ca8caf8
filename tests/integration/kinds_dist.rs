//! The statistical kinds' own families (interquartile range, outlier count,
//! count in a bin range, overlapping error bars): a generated suite asking
//! only them, every gold recomputed here from the CSV with this file's own
//! quartile, fence, bin and interval code, what the question relies on found
//! in the scene's pixels (printed edge ticks, separate outlier points, a gap
//! or overlap of error bars wider than a few pixels), and oracle and reader
//! agreeing with every item.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use chartstress::ir::{Answer, ChartKind, MarkKind, PanelScene, Query, SetName};
use serde_json::Value;

use crate::support::{bin, run_ok};

const FAMILIES: [&str; 4] = [
    "iqr",
    "outlier_count",
    "bin_range_count",
    "intervals_overlap",
];

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/combo")
}

/// Raw-sample tables and error-bar tables (synthesized, plus the two
/// error-bar fixtures) in one folder.
fn tables(dir: &Path) {
    for (kind, count) in [("samples", "4"), ("error_bar", "5")] {
        run_ok(
            bin()
                .args([
                    "synth", "--seed", "11", "--count", count, "--kind", kind, "-o",
                ])
                .arg(dir),
        );
    }
    for name in ["reaction_times", "crop_yield_se"] {
        for ext in ["csv", "meta.json"] {
            std::fs::copy(
                data_dir().join(format!("{name}.{ext}")),
                dir.join(format!("{name}.{ext}")),
            )
            .unwrap();
        }
    }
}

const KINDS: &str = "\"histogram\", \"box\", \"violin\", \"error_bar\"";

/// A suite of `kinds` (TOML list items) asking only `families` (all when empty).
fn suite(
    tables: &Path,
    out: &Path,
    kinds: &str,
    families: &[&str],
) -> (Vec<Value>, BTreeMap<String, Value>) {
    let families: Vec<String> = families.iter().map(|f| format!("{f:?}")).collect();
    let config = format!(
        "tables = [{tables:?}]\nseed = 5\ncharts_per_table = 3\nquestions_per_chart = 12\n\
         kinds = [{kinds}]\nfamilies = [{}]\n",
        families.join(", ")
    );
    let (_, items, charts) = crate::support::kind_suite::generate_suite(out, &config);
    (items, charts)
}

/// The CSV's index column and its other columns as numbers (empty cells
/// skipped, so ragged sample columns keep only their observations).
fn read_csv(path: &Path) -> (Vec<String>, Vec<(String, Vec<f64>)>) {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let headers: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_string)
        .collect();
    let mut index = Vec::new();
    let mut cols: Vec<(String, Vec<f64>)> = headers[1..]
        .iter()
        .map(|h| (h.clone(), Vec::new()))
        .collect();
    for row in reader.records() {
        let row = row.unwrap();
        index.push(row[0].to_string());
        for (i, cell) in row.iter().skip(1).enumerate() {
            if !cell.trim().is_empty() {
                cols[i].1.push(cell.trim().parse().unwrap());
            }
        }
    }
    (index, cols)
}

/// numpy's default (type 7) quantile.
fn q7(values: &[f64], p: f64) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let h = (v.len() - 1) as f64 * p;
    let i = h.floor() as usize;
    match v.get(i + 1) {
        Some(next) => v[i] + (h - i as f64) * (next - v[i]),
        None => v[i],
    }
}

/// Observations beyond Q1 − 1.5 IQR or Q3 + 1.5 IQR.
fn tukey_outliers(values: &[f64]) -> usize {
    let (q1, q3) = (q7(values, 0.25), q7(values, 0.75));
    let (lo, hi) = (q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1));
    values.iter().filter(|v| **v < lo || **v > hi).count()
}

/// Observations in the bins from `from` to `to`: `from <= v < to`, and `to`
/// itself when it is the last edge (no observation lies beyond it).
fn in_range(values: &[f64], from: f64, to: f64) -> usize {
    let last = values.iter().all(|v| *v <= to);
    values
        .iter()
        .filter(|v| **v >= from && (**v < to || last && **v == to))
        .count()
}

/// (lower, upper) per row: the bound columns, or value ± the error column.
fn intervals(cols: &[(String, Vec<f64>)]) -> Vec<(f64, f64)> {
    let v = &cols[0].1;
    match cols.len() {
        3 => (0..v.len()).map(|r| (cols[1].1[r], cols[2].1[r])).collect(),
        2 => (0..v.len())
            .map(|r| (v[r] - cols[1].1[r], v[r] + cols[1].1[r]))
            .collect(),
        n => panic!("{n} value columns"),
    }
}

/// A printed tick as a number ("1,000" → 1000).
fn tick_number(label: &str) -> Option<f64> {
    label
        .replace(',', "")
        .replace('\u{2212}', "-")
        .trim()
        .parse()
        .ok()
}

fn number(a: &Answer) -> (f64, u8) {
    match a {
        Answer::Number {
            value, decimals, ..
        } => (*value, *decimals),
        other => panic!("not a number: {other:?}"),
    }
}

/// The base query's gold, recomputed from the CSV (and checked against
/// what the scene shows the reader), compared with the executor's.
fn check_gold(base: &Query, gold: &Answer, csv: &Path, p: &PanelScene) {
    let (index, cols) = read_csv(csv);
    let group = |name: &str| -> Vec<f64> {
        cols.iter()
            .find(|(h, _)| h == name)
            .unwrap_or_else(|| panic!("no column {name} in {}", csv.display()))
            .1
            .clone()
    };
    match base {
        Query::Iqr { group: g, .. } => {
            let v = group(g);
            let want = q7(&v, 0.75) - q7(&v, 0.25);
            let (got, d) = number(gold);
            let half = 0.5 * 10f64.powi(-i32::from(d));
            assert!(
                (got - want).abs() <= half + 1e-9,
                "IQR of {g}: {got} vs {want}"
            );
        }
        Query::OutlierCount { group: g, .. } => {
            let v = group(g);
            let (got, _) = number(gold);
            assert_eq!(got as usize, tukey_outliers(&v), "outliers of {g}");
            // Each drawn point stands apart from the others.
            let stat = p.stat.as_ref().unwrap();
            let drawn = stat.groups.iter().find(|x| x.group == *g).unwrap();
            let mut ys: Vec<f32> = drawn
                .outliers
                .iter()
                .map(|o| o.bbox.y + o.bbox.h / 2.0)
                .collect();
            ys.sort_by(f32::total_cmp);
            assert!(ys.windows(2).all(|w| w[1] - w[0] >= 7.0), "{g}: {ys:?}");
        }
        Query::BinRangeCount { from, to, .. } => {
            // The histogram draws the first group.
            let v = &cols[0].1;
            let (a, b) = (tick_number(from).unwrap(), tick_number(to).unwrap());
            let (got, _) = number(gold);
            assert_eq!(got as usize, in_range(v, a, b), "{from}–{to}");
            // Both edges are printed ticks of the x axis.
            for e in [a, b] {
                assert!(
                    p.x_ticks
                        .iter()
                        .any(|t| tick_number(&t.label).is_some_and(|x| (x - e).abs() < 1e-9)),
                    "no tick {e}"
                );
            }
        }
        Query::IntervalsOverlap { a, b, .. } => {
            let iv = intervals(&cols);
            let row = |c: &str| index.iter().position(|x| x == c).unwrap();
            let ((la, ha), (lb, hb)) = (iv[row(a)], iv[row(b)]);
            let want = la.max(lb) <= ha.min(hb);
            assert_eq!(*gold, Answer::YesNo { value: want }, "{a} / {b}");
            // The facing caps are at least eight pixels apart in the scene.
            let cap = |series: &str, c: &str| {
                p.marks
                    .iter()
                    .find(|m| {
                        m.kind == MarkKind::LinePoint
                            && m.series == series
                            && m.category.as_deref() == Some(c)
                    })
                    .map(|m| m.bbox.y + m.bbox.h / 2.0)
                    .unwrap()
            };
            let lo_cat = if la >= lb { a } else { b };
            let hi_cat = if ha <= hb { a } else { b };
            let gap = (cap("Lower bound", lo_cat) - cap("Upper bound", hi_cat)).abs();
            assert!(gap >= 8.0, "{a} / {b}: caps {gap} px apart");
        }
        other => panic!("unexpected query {other:?}"),
    }
}

#[test]
fn dist_families_hold_the_csv_statistics_and_are_read_by_oracle_and_reader() {
    let dir = tempfile::tempdir().unwrap();
    let tables_dir = dir.path().join("tables");
    tables(&tables_dir);
    let (items, charts) = suite(&tables_dir, dir.path(), KINDS, &FAMILIES);
    let mut asked: BTreeMap<&str, usize> = BTreeMap::new();
    let mut kinds: BTreeMap<String, BTreeSet<ChartKind>> = BTreeMap::new();
    let mut overlaps = BTreeSet::new();
    for item in &items {
        let parsed: chartstress::ir::Item = serde_json::from_value(item.clone()).unwrap();
        let record: chartstress::ir::ChartRecord =
            serde_json::from_value(charts[&parsed.chart_id].clone()).unwrap();
        crate::support::kind_suite::assert_oracle_and_reader(&parsed, &record);
        let Some(family) = FAMILIES.iter().find(|f| **f == parsed.family) else {
            continue;
        };
        if parsed.set != SetName::Original {
            continue;
        }
        *asked.entry(family).or_default() += 1;
        kinds
            .entry(parsed.family.clone())
            .or_default()
            .insert(parsed.chart_kind);
        let base = parsed.query.base();
        let gold = chartstress::query::execute(base, &record.spec, &record.scene).unwrap();
        if let Answer::YesNo { value } = gold {
            overlaps.insert(value);
        }
        let table = item["table_id"].as_str().unwrap();
        let csv = tables_dir.join(format!("{table}.csv"));
        check_gold(base, &gold, &csv, &record.scene.panels[0]);
    }
    for f in FAMILIES {
        assert!(asked.get(f).copied().unwrap_or(0) >= 3, "{f}: {asked:?}");
    }
    // Each family is asked of the kinds that draw what it asks about.
    assert_eq!(
        kinds["iqr"],
        BTreeSet::from([ChartKind::BoxPlot, ChartKind::Violin])
    );
    assert_eq!(kinds["outlier_count"], BTreeSet::from([ChartKind::BoxPlot]));
    assert_eq!(
        kinds["bin_range_count"],
        BTreeSet::from([ChartKind::Histogram])
    );
    assert_eq!(
        kinds["intervals_overlap"],
        BTreeSet::from([ChartKind::ErrorBar])
    );
    // Both answers occur.
    assert_eq!(overlaps, BTreeSet::from([false, true]));
}

/// The families fit only the kinds that draw what they ask about: no
/// fixture drawn as any other kind is asked them.
#[test]
fn dist_families_fit_only_their_kinds() {
    let style = chartstress::spec::theme("classic").unwrap();
    let mut tried = 0;
    for t in crate::support::fixture_tables() {
        for kind in ChartKind::ALL {
            if kind.is_statistical() || kind == ChartKind::ErrorBar {
                continue;
            }
            let Ok(spec) = chartstress::spec::single(&t, kind, &style) else {
                continue;
            };
            for p in spec.panels() {
                let d = chartstress::query::PanelData::from_panel(p);
                for f in FAMILIES {
                    assert!(
                        !chartstress::questions::pick::data_family_fits(f, &d),
                        "{f} fits {kind:?} of {}",
                        t.id
                    );
                }
                tried += 1;
            }
        }
    }
    assert!(tried > 50, "{tried} panels");
}

/// Edges and counts of a pre-binned CSV, parsed here: labels `a–b` or `a-b`.
fn csv_bins(path: &Path) -> Vec<(f64, f64, u32)> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            let label = r[0].replace('–', "-");
            let (a, b) = label.split_once('-').unwrap();
            (
                a.parse().unwrap(),
                b.parse().unwrap(),
                r[1].parse().unwrap(),
            )
        })
        .collect()
}

/// A table of counts per bin draws as a histogram whose bars hold the
/// CSV's counts between printed ticks at the CSV's edges, and a suite of
/// such tables is answered by oracle and reader, its bin-range golds the
/// CSV's sums.
#[test]
fn binned_tables_draw_as_histograms_of_their_counts() {
    let dir = data_dir().join("../dist");
    let style = chartstress::spec::theme("classic").unwrap();
    for name in ["patient_ages", "commute_minutes"] {
        let path = dir.join(format!("{name}.csv"));
        let bins = csv_bins(&path);
        let t = chartstress::table::load_table(&path).unwrap();
        assert!(chartstress::spec::suitable_kinds(&t).contains(&ChartKind::Histogram));
        let spec = chartstress::spec::single(&t, ChartKind::Histogram, &style).unwrap();
        let r = chartstress::render::render(&spec).unwrap();
        let p = &r.scene.panels[0];
        let bars: Vec<_> = p.marks.iter().filter(|m| m.kind == MarkKind::Bar).collect();
        assert_eq!(bars.len(), bins.len(), "{name}");
        // One pixel of count on the printed value axis.
        let ys: Vec<(f64, f64)> = p
            .y_ticks
            .iter()
            .map(|t| (f64::from(t.pos), tick_number(&t.label).unwrap()))
            .collect();
        let per_px = (ys[ys.len() - 1].1 - ys[0].1) / (ys[0].0 - ys[ys.len() - 1].0);
        let zero = ys[0].0 + ys[0].1 / per_px;
        for (m, (a, b, count)) in bars.iter().zip(&bins) {
            let read = (zero - f64::from(m.bbox.y)) * per_px;
            assert!(
                (read - f64::from(*count)).abs() <= 1.5 * per_px,
                "{name} {a}–{b}: bar reads {read}, CSV {count}"
            );
            for (x, e) in [(m.bbox.x, a), (m.bbox.x + m.bbox.w, b)] {
                let printed = p.x_ticks.iter().find(|t| (t.pos - x).abs() <= 1.5);
                if let Some(t) = printed {
                    assert_eq!(tick_number(&t.label), Some(*e), "{name}: edge at {x}");
                }
            }
        }
        // The first and last edges are printed.
        for e in [bins[0].0, bins[bins.len() - 1].1] {
            assert!(p.x_ticks.iter().any(|t| tick_number(&t.label) == Some(e)));
        }
    }
    let out = tempfile::tempdir().unwrap();
    let (items, charts) = suite(&dir, out.path(), "\"histogram\"", &[]);
    let mut ranges = 0;
    for item in &items {
        let parsed: chartstress::ir::Item = serde_json::from_value(item.clone()).unwrap();
        let record: chartstress::ir::ChartRecord =
            serde_json::from_value(charts[&parsed.chart_id].clone()).unwrap();
        assert_eq!(parsed.chart_kind, ChartKind::Histogram);
        crate::support::kind_suite::assert_oracle_and_reader(&parsed, &record);
        if let Query::BinRangeCount { from, to, .. } = parsed.query.base() {
            let bins = csv_bins(&dir.join(format!("{}.csv", item["table_id"].as_str().unwrap())));
            let (a, b) = (tick_number(from).unwrap(), tick_number(to).unwrap());
            let want: u32 = bins
                .iter()
                .filter(|(s, e, _)| *s >= a && *e <= b)
                .map(|(_, _, c)| c)
                .sum();
            let base =
                chartstress::query::execute(parsed.query.base(), &record.spec, &record.scene);
            assert_eq!(
                base,
                Ok(Answer::Number {
                    value: f64::from(want),
                    decimals: 0,
                    unit: None
                }),
                "{}",
                parsed.question
            );
            ranges += 1;
        }
    }
    assert!(ranges > 0, "no bin range was asked");
}
