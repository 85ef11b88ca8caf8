//! Percent-stacked bars and lollipops: golden scenes, marks placed where the
//! CSV (read here without the library) puts them when measured against the
//! printed ticks, and generated suites of each kind answered fully by the
//! oracle and the reader.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use chartstress::ir::{ChartKind, PanelScene};
use serde_json::Value;

use crate::support::kind_suite::kind_suite;

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Index labels and each series' cells as printed numbers; every cell of
/// these fixtures holds a number.
fn read_csv(name: &str) -> (Vec<String>, BTreeMap<String, Vec<f64>>) {
    let csv = crate::support::printed_csv::read(&format!("{name}.csv"));
    let series = csv
        .series
        .into_iter()
        .map(|(name, cells)| {
            let values = cells.into_iter().map(|c| c.expect("a number")).collect();
            (name, values)
        })
        .collect();
    (csv.index, series)
}

/// The value axis as printed: (pixel, number) of the first and last y tick,
/// parsed from their labels ("20%", "1,000", "50k", "1e5").
fn printed_axis(p: &PanelScene) -> ((f64, f64), (f64, f64)) {
    let parse = |l: &str| -> f64 {
        let digits: String = l
            .chars()
            .filter(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '−' | 'e'))
            .map(|c| if c == '−' { '-' } else { c })
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
    let first = p.y_ticks.first().unwrap();
    let last = p.y_ticks.last().unwrap();
    (
        (f64::from(first.pos), parse(&first.label)),
        (f64::from(last.pos), parse(&last.label)),
    )
}

/// A pixel's y read through the printed ticks.
fn read_y(axis: ((f64, f64), (f64, f64)), y: f32) -> f64 {
    let ((p0, v0), (p1, v1)) = axis;
    v0 + (f64::from(y) - p0) * (v1 - v0) / (p1 - p0)
}

fn render(table: &str, kind: ChartKind, theme: &str) -> chartstress::render::Rendered {
    render_with(table, kind, theme, false)
}

fn render_with(
    table: &str,
    kind: ChartKind,
    theme: &str,
    labels: bool,
) -> chartstress::render::Rendered {
    let t = chartstress::table::load_table(&fixtures().join(format!("{table}.csv"))).unwrap();
    let mut style = chartstress::spec::theme(theme).unwrap();
    style.data_labels |= labels;
    let spec = chartstress::spec::single(&t, kind, &style).unwrap();
    chartstress::render::render(&spec).unwrap()
}

#[test]
fn new_kind_scenes_snapshot() {
    // Printed shares are part of the percent-stacked scene.
    let cases = [
        ("energy_mix_stacked", ChartKind::PercentStackedBar, true),
        ("gdp_growth_g7", ChartKind::Lollipop, false),
    ];
    for (table, kind, labels) in cases {
        let scene = render_with(table, kind, "classic", labels).scene;
        insta::assert_json_snapshot!(format!("{}_scene", kind.name()), scene);
    }
}

#[test]
fn percent_segments_are_the_csv_shares_on_the_printed_axis() {
    for table in [
        "energy_mix_stacked",
        "smartphone_shipments_grouped",
        "cloud_revenue_billions",
    ] {
        let (index, csv) = read_csv(table);
        for theme in chartstress::spec::theme_names() {
            let r = render(table, ChartKind::PercentStackedBar, theme);
            let p = &r.scene.panels[0];
            let axis = printed_axis(p);
            assert_eq!((axis.0.1, axis.1.1), (0.0, 100.0), "{table} {theme}");
            let px_per_point = (axis.0.0 - axis.1.0).abs() / 100.0;
            let drawn: BTreeSet<&str> = p.marks.iter().map(|m| m.series.as_str()).collect();
            for (row, cat) in index.iter().enumerate() {
                let total: f64 = drawn.iter().map(|s| csv[*s][row]).sum();
                let segs: Vec<_> = p
                    .marks
                    .iter()
                    .filter(|m| m.category.as_deref() == Some(cat))
                    .collect();
                assert_eq!(segs.len(), drawn.len(), "{table} {cat}");
                for m in &segs {
                    let share = csv[&m.series][row] / total * 100.0;
                    let length = read_y(axis, m.bbox.y) - read_y(axis, m.bbox.bottom());
                    // Shares are drawn to 0.1 point, boxes to about a pixel.
                    let tol = 0.06 + 1.0 / px_per_point;
                    assert!(
                        (length - share).abs() <= tol,
                        "{table} {theme} {cat} {}: drawn {length:.2}, csv share {share:.2}",
                        m.series
                    );
                    assert!((m.value - share).abs() <= 0.1, "{table} {cat} value");
                }
                // The stack spans exactly the axis from 0 to 100 %.
                let top = segs.iter().map(|m| m.bbox.y).fold(f32::MAX, f32::min);
                let bottom = segs.iter().map(|m| m.bbox.bottom()).fold(0.0, f32::max);
                assert!((read_y(axis, top) - 100.0).abs() * px_per_point <= 1.0);
                assert!(read_y(axis, bottom).abs() * px_per_point <= 1.0);
            }
        }
    }
}

#[test]
fn lollipop_dots_sit_at_the_csv_values_on_the_printed_axis() {
    for table in ["gdp_growth_g7", "synth-0001-ranking"] {
        let (index, csv) = read_csv(table);
        for theme in chartstress::spec::theme_names() {
            let r = render(table, ChartKind::Lollipop, theme);
            let img = image::load_from_memory(&r.png).unwrap().to_rgb8();
            let p = &r.scene.panels[0];
            let axis = printed_axis(p);
            let px_per_unit = (axis.0.0 - axis.1.0).abs() / (axis.1.1 - axis.0.1).abs();
            let series = &p.marks[0].series;
            for m in &p.marks {
                let row = index
                    .iter()
                    .position(|c| Some(c) == m.category.as_ref())
                    .unwrap();
                let want = csv[series][row];
                // The dot sits on the value end of the stem's box.
                let tip = if want >= 0.0 {
                    m.bbox.y
                } else {
                    m.bbox.bottom()
                };
                let read = read_y(axis, tip);
                assert!(
                    (read - want).abs() * px_per_unit <= 1.0,
                    "{table} {theme} {:?}: dot at {read:.3}, csv {want}",
                    m.category
                );
                // The dot is drawn there, in the mark's colour.
                let (cx, _) = m.bbox.center();
                let px = img.get_pixel(cx.round() as u32, tip.round() as u32).0;
                let hex = &m.color.hex;
                let want_rgb: Vec<u8> = (0..3)
                    .map(|i| u8::from_str_radix(&hex[1 + 2 * i..3 + 2 * i], 16).unwrap())
                    .collect();
                let near = px
                    .iter()
                    .zip(&want_rgb)
                    .all(|(a, b)| (i16::from(*a) - i16::from(*b)).abs() <= 40);
                assert!(
                    near,
                    "{table} {theme} {:?}: pixel {px:?} not {hex}",
                    m.category
                );
            }
        }
    }
}

/// Every item of a suite of `kind` alone, generated from `tables`, is
/// answered right by the oracle and the reader, and the readability gate
/// (which drops what the reader cannot answer) drops few items.
fn suite_of(kind: ChartKind, tables: &[&str]) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("tables");
    std::fs::create_dir(&folder).unwrap();
    for name in tables {
        for ext in ["csv", "meta.json"] {
            let from = fixtures().join(format!("{name}.{ext}"));
            if from.exists() {
                std::fs::copy(&from, folder.join(format!("{name}.{ext}"))).unwrap();
            }
        }
    }
    let suite = kind_suite(&folder, &[kind], 3, 1);
    let (items, charts) = (suite.items.clone(), &suite.charts);
    let gated = suite.reader_drops();
    eprintln!(
        "{kind:?}: {} items, {gated} dropped by the reader gate",
        items.len()
    );
    assert!(
        gated as usize * 5 <= items.len(),
        "{kind:?}: {gated} of {} dropped",
        items.len()
    );
    let mut families = BTreeSet::new();
    for item in &items {
        let parsed: chartstress::ir::Item = serde_json::from_value(item.clone()).unwrap();
        let chart = &charts[&parsed.chart_id];
        let record: chartstress::ir::ChartRecord = serde_json::from_value(chart.clone()).unwrap();
        if parsed.set == chartstress::ir::SetName::Original {
            assert_eq!(parsed.chart_kind, kind, "{}", parsed.question);
            families.insert(parsed.family.clone());
        }
        crate::support::kind_suite::assert_oracle_and_reader(&parsed, &record);
    }
    let data: Vec<&String> = families
        .iter()
        .filter(|f| chartstress::questions::pick::DATA_FAMILIES.contains(&f.as_str()))
        .collect();
    assert!(data.len() >= 3, "{kind:?}: data families {families:?}");
    items
}

#[test]
fn percent_stacked_suites_are_answered_by_oracle_and_reader() {
    let items = suite_of(
        ChartKind::PercentStackedBar,
        &[
            "energy_mix_stacked",
            "smartphone_shipments_grouped",
            "cloud_revenue_billions",
            "renewables_stacked_area",
            "synth-0003-stacked",
            "synth-0002-grouped",
        ],
    );
    // Value questions ask for the drawn shares: their golds are percentages.
    let mut values = 0;
    for item in &items {
        let a = &item["answer"];
        if item["family"] == "value_at" && item["answerable"] == true {
            let percent = match a["type"].as_str() {
                Some("number") => a["unit"] == "%",
                Some("choice") => a["text"].as_str().is_some_and(|t| t.ends_with('%')),
                _ => true,
            };
            assert!(percent, "{}: {a}", item["question"]);
            values += 1;
        }
        assert!(
            !matches!(item["family"].as_str(), Some("sum" | "percent_change")),
            "{}",
            item["question"]
        );
    }
    assert!(values > 0);
}

#[test]
fn lollipop_suites_are_answered_by_oracle_and_reader() {
    suite_of(
        ChartKind::Lollipop,
        &[
            "gdp_growth_g7",
            "city_budget_millions",
            "synth-0000-categories",
            "synth-0001-ranking",
            "retail_sales_monthly",
            "browser_share_pie",
        ],
    );
}

/// Every spec-stage perturbation that applies to the older kind a new kind
/// resembles (stacked bars, bars) applies to the new kind too, except those
/// that cannot: log scales and annotations on shares, orientation and
/// annotations on lollipops. Answer-preserving ones keep every data answer.
#[test]
fn new_kinds_take_part_in_the_perturbations_of_their_neighbours() {
    use chartstress::perturb::{self, ChartContext, Stage};
    let themes = chartstress::spec::builtin_themes();
    let tables = crate::support::fixture_tables();
    let cases = [
        (
            "energy_mix_stacked",
            ChartKind::StackedBar,
            ChartKind::PercentStackedBar,
            &["log_scale", "annotation_removed", "annotation_moved"][..],
        ),
        (
            "gdp_growth_g7",
            ChartKind::Bar,
            ChartKind::Lollipop,
            &["orientation", "annotation_removed", "annotation_moved"][..],
        ),
    ];
    for (table, old, new, exempt) in cases {
        let t = tables.iter().find(|t| t.id == table).unwrap();
        let others: Vec<&chartstress::ir::Table> = tables.iter().filter(|o| o.id != t.id).collect();
        let ctx = ChartContext {
            seed: 17,
            themes: &themes,
            distractors: &others,
        };
        let mut style = chartstress::spec::theme("classic").unwrap();
        style.data_labels = true;
        let spec_of = |k| chartstress::spec::single(t, k, &style).unwrap();
        let (old_spec, new_spec) = (spec_of(old), spec_of(new));
        let qs = crate::support::sweep::questions_of(t.id.as_str(), &new_spec);
        assert!(!qs.is_empty());
        // Opt-in perturbations are checked in kinds_figure.rs.
        let opt_in = |name: &str| perturb::registry::OPT_IN.contains(&name);
        let outcomes = crate::support::sweep::sweep_spec(&new_spec, &ctx, &qs, |i| !opt_in(i.name));
        let applied: BTreeSet<&str> = outcomes.keys().copied().collect();
        for p in perturb::chart_perturbations() {
            let info = p.info();
            if info.stage != Stage::Spec || opt_in(info.name) {
                continue;
            }
            // A severity may be a no-op on one kind and not the other (four
            // ticks print the same shares' axis as six): compare per name.
            let before = (1..=5u8).any(|s| p.apply_spec(&old_spec, s, &ctx).is_some());
            assert!(
                !before || applied.contains(info.name) || exempt.contains(&info.name),
                "{} applies to {old:?} but not {new:?}",
                info.name
            );
        }
        for name in [
            "palette",
            "theme",
            "data_labels",
            "kind_swap",
            "tick_density",
        ] {
            assert!(applied.contains(name), "{new:?}: {name} in {applied:?}");
        }
        if new == ChartKind::PercentStackedBar {
            for name in ["legend_moved", "legend_removed", "legend_reordered"] {
                assert!(applied.contains(name), "{new:?}: {name} in {applied:?}");
            }
        }
    }
}
