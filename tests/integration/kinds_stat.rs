//! Histograms, box plots and violins: golden scenes; statistics and bins
//! recomputed here from the CSV (own quartile and bin code, not the
//! library's) and found on the printed axes and in the pixels; the table
//! forms accepted; generated suites answered fully by oracle and reader.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use chartstress::ir::{ChartKind, PanelScene};

use crate::support::kind_suite::kind_suite;
use crate::support::{bin, run_ok};

const KINDS: [ChartKind; 3] = [ChartKind::Histogram, ChartKind::BoxPlot, ChartKind::Violin];

/// Synthesized raw-sample tables written by the CLI into `dir`.
fn synth_samples(dir: &Path, count: usize) -> Vec<PathBuf> {
    run_ok(
        bin()
            .args(["synth", "--seed", "11", "--kind", "samples", "--count"])
            .arg(count.to_string())
            .arg("-o")
            .arg(dir),
    );
    (0..count)
        .map(|i| dir.join(format!("synth-{i:04}-samples.csv")))
        .collect()
}

/// The CSV's columns after the first, as numbers (empty cells skipped).
fn read_groups(path: &Path) -> Vec<(String, Vec<f64>)> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .unwrap()
        .split(',')
        .map(|s| s.trim().to_string())
        .collect();
    let mut groups: Vec<(String, Vec<f64>)> = header[1..]
        .iter()
        .map(|h| (h.clone(), Vec::new()))
        .collect();
    for line in lines {
        for (i, cell) in line.split(',').enumerate().skip(1) {
            if !cell.trim().is_empty() {
                groups[i - 1].1.push(cell.trim().parse().unwrap());
            }
        }
    }
    groups
}

/// Type-7 quantile (numpy's default), written independently of the library.
fn q7(values: &[f64], p: f64) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let h = (v.len() - 1) as f64 * p;
    let i = h.floor() as usize;
    if i + 1 >= v.len() {
        return v[i];
    }
    v[i] + (h - i as f64) * (v[i + 1] - v[i])
}

/// (q1, median, q3, low whisker, high whisker, outliers) by Tukey's rule.
fn tukey(values: &[f64]) -> (f64, f64, f64, f64, f64, usize) {
    let (q1, m, q3) = (q7(values, 0.25), q7(values, 0.5), q7(values, 0.75));
    let (lo, hi) = (q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1));
    let inside: Vec<f64> = values
        .iter()
        .copied()
        .filter(|v| *v >= lo && *v <= hi)
        .collect();
    let low = inside.iter().copied().fold(f64::INFINITY, f64::min);
    let high = inside.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (q1, m, q3, low, high, values.len() - inside.len())
}

/// A printed tick as a number ("1,000", "1k", "2.5M", "−5").
fn parse_tick(l: &str) -> f64 {
    let digits: String = l
        .chars()
        .filter(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '−'))
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
}

/// A pixel row read through the first and last printed y ticks.
fn read_y(p: &PanelScene, y: f32) -> f64 {
    let (a, b) = (p.y_ticks.first().unwrap(), p.y_ticks.last().unwrap());
    let (va, vb) = (parse_tick(&a.label), parse_tick(&b.label));
    va + f64::from(y - a.pos) * (vb - va) / f64::from(b.pos - a.pos)
}

/// Value units per pixel on the printed y axis.
fn units_per_px(p: &PanelScene) -> f64 {
    let (a, b) = (p.y_ticks.first().unwrap(), p.y_ticks.last().unwrap());
    (parse_tick(&b.label) - parse_tick(&a.label)).abs() / f64::from((b.pos - a.pos).abs())
}

fn render(path: &Path, kind: ChartKind, theme: &str) -> chartstress::render::Rendered {
    let t = chartstress::table::load_table(path).unwrap();
    let style = chartstress::spec::theme(theme).unwrap();
    let spec = chartstress::spec::single(&t, kind, &style).unwrap();
    chartstress::render::render(&spec).unwrap()
}

#[test]
fn stat_kind_scenes_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let tables = synth_samples(dir.path(), 1);
    for kind in KINDS {
        let scene = render(&tables[0], kind, "classic").scene;
        insta::assert_json_snapshot!(format!("stat_{}_scene", kind.name()), scene);
    }
}

#[test]
fn boxes_hold_the_csv_quartiles_on_the_printed_axis_and_in_the_pixels() {
    let dir = tempfile::tempdir().unwrap();
    for path in synth_samples(dir.path(), 3) {
        let groups = read_groups(&path);
        for theme in ["classic", "newsprint", "business"] {
            for kind in [ChartKind::BoxPlot, ChartKind::Violin] {
                let r = render(&path, kind, theme);
                let img = image::load_from_memory(&r.png).unwrap().to_rgb8();
                let p = &r.scene.panels[0];
                let stat = p.stat.as_ref().expect("stat scene");
                let upp = units_per_px(p);
                assert_eq!(stat.groups.len(), groups.len());
                for (g, (name, values)) in stat.groups.iter().zip(&groups) {
                    assert_eq!(&g.group, name);
                    let (q1, m, q3, low, high, outliers) = tukey(values);
                    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1.0);
                    assert!(close(g.q1, q1) && close(g.median, m) && close(g.q3, q3));
                    assert!(close(g.low, low) && close(g.high, high), "{name}");
                    if kind == ChartKind::BoxPlot {
                        assert_eq!(g.outliers.len(), outliers, "{name}");
                    }
                    // The box's edges and the median sit at their values on
                    // the printed axis, within a pixel.
                    for (y, want) in [(g.bbox.bottom(), q1), (g.bbox.y, q3), (g.median_y, m)] {
                        let read = read_y(p, y);
                        assert!(
                            (read - want).abs() <= upp * 1.0,
                            "{theme} {kind:?} {name}: read {read}, csv {want}"
                        );
                    }
                    // The picture has the box's outline (box plot) or the
                    // dark quartile bar (violin) at those rows: the pixel at
                    // the box's q3 edge, a little in from its side, is dark.
                    let x = if kind == ChartKind::BoxPlot {
                        g.bbox.x + 4.0
                    } else {
                        g.bbox.center().0 - 2.0
                    };
                    let px = img
                        .get_pixel(x.round() as u32, (g.bbox.y + 0.5).floor() as u32)
                        .0;
                    let lum = px.iter().map(|c| u32::from(*c)).sum::<u32>();
                    assert!(lum < 3 * 140, "{theme} {kind:?} {name}: {px:?} at q3 edge");
                }
            }
        }
    }
}

#[test]
fn histogram_bars_hold_the_csv_counts_between_their_printed_edges() {
    let dir = tempfile::tempdir().unwrap();
    for path in synth_samples(dir.path(), 3) {
        let groups = read_groups(&path);
        let values = &groups[0].1;
        let r = render(&path, ChartKind::Histogram, "classic");
        let p = &r.scene.panels[0];
        let img = image::load_from_memory(&r.png).unwrap().to_rgb8();
        let edges: BTreeMap<i64, f64> = p
            .x_ticks
            .iter()
            .map(|t| (t.pos.round() as i64, parse_tick(&t.label)))
            .collect();
        let mut counted = 0;
        let n = p.marks.len();
        for (i, m) in p.marks.iter().enumerate() {
            let (Some(a), Some(b)) = (
                edges.get(&(m.bbox.x.round() as i64)),
                edges.get(&(m.bbox.right().round() as i64)),
            ) else {
                continue;
            };
            let want = values
                .iter()
                .filter(|v| **v >= *a && (**v < *b || (i + 1 == n && **v <= *b)))
                .count();
            let read = read_y(p, m.bbox.y);
            assert!(
                (read - want as f64).abs() <= units_per_px(p),
                "bin {a}-{b}: bar reads {read}, csv {want}"
            );
            // The bar is filled in its colour half-way up.
            if want > 0 {
                let (cx, cy) = m.bbox.center();
                let px = img.get_pixel(cx as u32, cy as u32).0;
                let hex = &m.color.hex;
                let rgb: Vec<u8> = (0..3)
                    .map(|k| u8::from_str_radix(&hex[1 + 2 * k..3 + 2 * k], 16).unwrap())
                    .collect();
                assert!(px.iter().zip(&rgb).all(|(a, b)| a.abs_diff(*b) <= 30));
            }
            counted += 1;
        }
        assert!(counted * 2 >= n, "too few bins with both edges printed");
        let total: u32 = p.stat.as_ref().unwrap().bins.iter().map(|b| b.count).sum();
        assert_eq!(total as usize, values.len());
    }
}

#[test]
fn long_numbered_and_five_number_tables_are_accepted() {
    let dir = tempfile::tempdir().unwrap();
    // Long form: a group column and one measurement per row.
    let mut long = String::from("Clinic,Waiting time (min)\n");
    for i in 0..90 {
        let clinic = ["North", "South", "East"][i % 3];
        long.push_str(&format!("{clinic},{}\n", 10 + (i * 7) % 23 + (i % 3) * 4));
    }
    let long_path = dir.path().join("waiting_long.csv");
    std::fs::write(&long_path, long).unwrap();
    let t = chartstress::table::load_table(&long_path).unwrap();
    assert!(t.meta.samples);
    assert_eq!(t.series_names(), ["North", "South", "East"]);
    let kinds = chartstress::spec::suitable_kinds(&t);
    assert_eq!(kinds.first(), Some(&ChartKind::BoxPlot));
    assert!(!kinds.contains(&ChartKind::Bar), "{kinds:?}");

    // Wide form without labels: numbered rows of one column per group.
    let mut wide = String::from("Line A,Line B\n");
    for i in 0..40 {
        wide.push_str(&format!("{}.{},{}\n", 50 + i % 7, i % 3, 47 + (i * 3) % 11));
    }
    let wide_path = dir.path().join("fill_weights.csv");
    std::fs::write(&wide_path, wide).unwrap();
    let t = chartstress::table::load_table(&wide_path).unwrap();
    assert!(t.meta.samples);
    assert_eq!(t.n_rows(), 40, "no observation is summarized away");
    assert!(!chartstress::spec::suitable_kinds(&t).contains(&ChartKind::Bar));

    // A five-number summary per group draws as boxes whose whiskers end at
    // the minimum and maximum.
    let five = "Team,min,q1,median,q3,max\nAlpha,2,5,7,9,14\nBeta,1,3,4,6,8\nGamma,4,6,8,11,13\n";
    let five_path = dir.path().join("sprint_days.csv");
    std::fs::write(&five_path, five).unwrap();
    let t = chartstress::table::load_table(&five_path).unwrap();
    assert!(chartstress::spec::suitable_kinds(&t).contains(&ChartKind::BoxPlot));
    let r = render(&five_path, ChartKind::BoxPlot, "classic");
    let g = &r.scene.panels[0].stat.as_ref().unwrap().groups;
    let got: Vec<(f64, f64, f64)> = g.iter().map(|g| (g.low, g.median, g.high)).collect();
    assert_eq!(got, [(2.0, 7.0, 14.0), (1.0, 4.0, 8.0), (4.0, 8.0, 13.0)]);
}

#[test]
fn stat_suites_are_answered_by_oracle_and_reader() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    synth_samples(&tables, 4);
    let suite = kind_suite(&tables, &KINDS, 5, 3);
    let (items, charts) = (suite.items.clone(), &suite.charts);
    let mut families: BTreeMap<ChartKind, BTreeSet<String>> = BTreeMap::new();
    for item in &items {
        let parsed: chartstress::ir::Item = serde_json::from_value(item.clone()).unwrap();
        let record: chartstress::ir::ChartRecord =
            serde_json::from_value(charts[&parsed.chart_id].clone()).unwrap();
        if parsed.set == chartstress::ir::SetName::Original {
            assert!(KINDS.contains(&parsed.chart_kind));
            if chartstress::questions::pick::DATA_FAMILIES.contains(&parsed.family.as_str()) {
                families
                    .entry(parsed.chart_kind)
                    .or_default()
                    .insert(parsed.family.clone());
            }
        }
        crate::support::kind_suite::assert_oracle_and_reader(&parsed, &record);
    }
    for kind in KINDS {
        let f = families.get(&kind).cloned().unwrap_or_default();
        assert!(f.len() >= 3, "{kind:?}: data families {f:?}");
    }
}

/// Every spec perturbation that applies to a statistical chart renders,
/// answer-preserving ones keep every data answer, and the ones that make
/// sense for distributions apply: palette, theme, fonts, ticks, data labels
/// and (box <-> violin) kind swaps.
#[test]
fn stat_kinds_take_part_in_their_perturbations() {
    use chartstress::perturb::ChartContext;
    let dir = tempfile::tempdir().unwrap();
    let path = &synth_samples(dir.path(), 1)[0];
    let t = chartstress::table::load_table(path).unwrap();
    let themes = chartstress::spec::builtin_themes();
    let others = crate::support::fixture_tables();
    let others: Vec<&chartstress::ir::Table> = others.iter().collect();
    let ctx = ChartContext {
        seed: 17,
        themes: &themes,
        distractors: &others,
    };
    let style = chartstress::spec::theme("classic").unwrap();
    for kind in KINDS {
        let spec = chartstress::spec::single(&t, kind, &style).unwrap();
        let qs = crate::support::sweep::questions_of(t.id.as_str(), &spec);
        assert!(!qs.is_empty());
        let outcomes = crate::support::sweep::sweep_spec(&spec, &ctx, &qs, |_| true);
        let applied: BTreeSet<&str> = outcomes.keys().copied().collect();
        for o in outcomes.get("kind_swap").into_iter().flatten() {
            let to = o.applied.value.panels()[0].kind;
            let want = match kind {
                ChartKind::BoxPlot => ChartKind::Violin,
                _ => ChartKind::BoxPlot,
            };
            assert_eq!(to, want, "{kind:?}");
        }
        eprintln!("{kind:?}: {applied:?}");
        let mut wanted = vec![
            "palette",
            "theme",
            "data_labels",
            "font_family",
            "tick_density",
        ];
        if kind != ChartKind::Histogram {
            wanted.push("kind_swap");
        }
        for name in wanted {
            assert!(applied.contains(name), "{kind:?}: {name} in {applied:?}");
        }
        for name in ["log_scale", "orientation", "legend_moved", "legend_removed"] {
            assert!(!applied.contains(name), "{kind:?}: {name} does not apply");
        }
    }
}
