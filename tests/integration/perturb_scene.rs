//! Perturbations judged on what is drawn (Scene and pixels), not on the spec:
//! legends never cover data, each legend or tick perturbation changes the
//! picture wherever it applies, a cut baseline is printed, orientation keeps
//! the axis titles on their axes, rotation loses no ink.

use std::path::Path;

use chartstress::ir::{BBox, ChartKind, ChartSpec, LegendPlacement, Scene, Table};
use chartstress::perturb::{self, ChartContext};

fn tables_in(dir: &Path) -> Vec<Table> {
    let (mut tables, errors) = chartstress::table::load_tables(&[dir.to_path_buf()], false);
    assert!(errors.is_empty(), "{errors:?}");
    tables.sort_by(|a, b| a.id.cmp(&b.id));
    tables
}

/// The shipped fixtures, the real-data test tables and some synthetic ones.
fn tables() -> Vec<Table> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = tables_in(&root.join("fixtures"));
    out.extend(tables_in(&root.join("tests/data/real")));
    out.extend(chartstress::synth::synth_tables(23, 18));
    out
}

fn specs(table: &Table, style: &chartstress::ir::Style) -> Vec<ChartSpec> {
    chartstress::spec::suitable_kinds(table)
        .into_iter()
        .filter_map(|k| chartstress::spec::single(table, k, style).ok())
        .collect()
}

fn scene(spec: &ChartSpec) -> Scene {
    chartstress::render::render_svg(spec)
        .unwrap_or_else(|e| panic!("renders: {e}"))
        .1
}

fn legend_box(p: &chartstress::ir::PanelScene) -> Option<BBox> {
    let first = p.legend.first()?.bbox;
    Some(p.legend.iter().fold(first, |a, e| {
        let x = a.x.min(e.bbox.x);
        let y = a.y.min(e.bbox.y);
        BBox {
            x,
            y,
            w: a.right().max(e.bbox.right()) - x,
            h: a.bottom().max(e.bbox.bottom()) - y,
        }
    }))
}

fn ctx(themes: &[chartstress::ir::Style]) -> ChartContext<'_> {
    ChartContext {
        seed: 9,
        themes,
        distractors: &[],
    }
}

#[test]
fn legends_never_cover_marks_or_value_labels() {
    // Outside legends cannot reach the plot; the inside corners are the risk.
    let places = [
        LegendPlacement::TopLeft,
        LegendPlacement::TopRight,
        LegendPlacement::BottomLeft,
        LegendPlacement::BottomRight,
        LegendPlacement::Right,
    ];
    let mut checked = 0;
    for table in tables() {
        for theme in ["classic", "paper"] {
            let base = chartstress::spec::theme(theme).unwrap();
            for spec in specs(&table, &base) {
                // Legends are drawn for several series (and pies).
                let panel = spec.panels()[0];
                if panel.series.len() < 2 && !panel.kind.is_circular() {
                    continue;
                }
                for place in places {
                    for (log, labels) in [(false, false), (true, false), (false, true)] {
                        let spec = perturb::restyle(&spec, |s| {
                            s.legend = place;
                            s.log_scale = log;
                            s.data_labels = labels;
                        });
                        let Ok((_, scene)) = chartstress::render::render_svg(&spec) else {
                            continue; // log scales refuse non-positive data
                        };
                        for p in &scene.panels {
                            let Some(legend) = legend_box(p) else {
                                continue;
                            };
                            checked += 1;
                            for m in &p.marks {
                                let hit = m.bbox.intersects(&legend)
                                    || m.label.as_ref().is_some_and(|l| l.bbox.intersects(&legend));
                                assert!(
                                    !hit,
                                    "{} {} {theme} legend {place:?} log {log} labels {labels}: legend {legend:?} covers {m:?}",
                                    table.id,
                                    p.kind.name()
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 300, "{checked} legends checked");
}

/// Every legend or tick perturbation gives a different PNG wherever it applies.
#[test]
fn legend_and_tick_perturbations_change_the_pixels() {
    let themes = chartstress::spec::builtin_themes();
    let style = chartstress::spec::theme("classic").unwrap();
    let names = [
        "legend_moved",
        "legend_removed",
        "legend_reordered",
        "tick_format",
        "tick_density",
        "baseline",
        "orientation",
    ];
    let mut applied = std::collections::BTreeMap::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for table in &tables_in(&root.join("fixtures")) {
        for spec in specs(table, &style).into_iter().take(2) {
            let before = chartstress::render::render(&spec).unwrap();
            for name in names {
                let p = perturb::find(name).unwrap();
                for severity in [1, 3, 5] {
                    let Some(out) = p.apply_spec(&spec, severity, &ctx(&themes)) else {
                        continue;
                    };
                    *applied.entry(name).or_insert(0) += 1;
                    let after = chartstress::render::render(&out.value).unwrap();
                    assert_ne!(
                        before.png,
                        after.png,
                        "{name} s{severity} on {} ({}) draws the same picture",
                        table.id,
                        spec.panels()[0].kind.name()
                    );
                }
            }
        }
    }
    for name in names {
        assert!(
            applied.get(name).copied().unwrap_or(0) >= 3,
            "{name}: {applied:?}"
        );
    }
}

#[test]
fn perturbations_apply_only_where_their_element_is_drawn() {
    let themes = chartstress::spec::builtin_themes();
    let style = chartstress::spec::theme("classic").unwrap();
    for table in tables() {
        for spec in specs(&table, &style) {
            let s = scene(&spec);
            let legend = s.panels.iter().any(|p| !p.legend.is_empty());
            let numeric = s.panels.iter().any(|p| {
                p.x_ticks
                    .iter()
                    .chain(&p.y_ticks)
                    .any(|t| t.value.is_some())
            });
            for severity in [1, 4] {
                for name in ["legend_moved", "legend_removed", "legend_reordered"] {
                    let got =
                        perturb::find(name)
                            .unwrap()
                            .apply_spec(&spec, severity, &ctx(&themes));
                    assert!(
                        legend || got.is_none(),
                        "{name} on {} without a legend",
                        table.id
                    );
                }
                for name in ["tick_format", "tick_density"] {
                    let got =
                        perturb::find(name)
                            .unwrap()
                            .apply_spec(&spec, severity, &ctx(&themes));
                    assert!(
                        numeric || got.is_none(),
                        "{name} on {} without numeric ticks",
                        table.id
                    );
                }
                let kind = spec.panels()[0].kind;
                if !matches!(kind, ChartKind::Line | ChartKind::Scatter) {
                    assert!(
                        perturb::find("baseline")
                            .unwrap()
                            .apply_spec(&spec, severity, &ctx(&themes))
                            .is_none(),
                        "baseline on a {} chart",
                        kind.name()
                    );
                }
            }
        }
    }
}

#[test]
fn baseline_prints_a_start_below_the_data() {
    let themes = chartstress::spec::builtin_themes();
    let style = chartstress::spec::theme("classic").unwrap();
    let mut applied = 0;
    for table in tables() {
        for spec in specs(&table, &style) {
            for severity in 1..=5 {
                let Some(out) =
                    perturb::find("baseline")
                        .unwrap()
                        .apply_spec(&spec, severity, &ctx(&themes))
                else {
                    continue;
                };
                applied += 1;
                let s = scene(&out.value);
                let p = &s.panels[0];
                let ys: Vec<f64> = p.y_ticks.iter().filter_map(|t| t.value).collect();
                let min = p
                    .marks
                    .iter()
                    .map(|m| m.value)
                    .fold(f64::INFINITY, f64::min);
                let first = ys[0];
                assert!(
                    first != 0.0 && first < min,
                    "{}: first tick {first}, min {min}",
                    table.id
                );
                assert_eq!(Some(first), out.params["value_start"].as_f64());
                // Enough printed ticks to read values against.
                assert!(ys.len() >= 3, "{}: {ys:?}", table.id);
                // Every mark lies within the axis.
                let plot = p.plot_area;
                for m in &p.marks {
                    let (_, cy) = m.bbox.center();
                    assert!(
                        cy <= plot.bottom() + 0.5 && cy >= plot.y - 0.5,
                        "{}",
                        table.id
                    );
                }
            }
        }
    }
    assert!(applied >= 10, "{applied}");
}

#[test]
fn orientation_moves_axis_titles_with_their_axes() {
    let themes = chartstress::spec::builtin_themes();
    let style = chartstress::spec::theme("classic").unwrap();
    let title = |t: &Option<chartstress::ir::TextBox>| t.as_ref().map(|b| b.text.clone());
    let mut applied = 0;
    for table in tables() {
        for spec in specs(&table, &style) {
            let Some(out) =
                perturb::find("orientation")
                    .unwrap()
                    .apply_spec(&spec, 1, &ctx(&themes))
            else {
                continue;
            };
            applied += 1;
            let (a, b) = (scene(&spec), scene(&out.value));
            let (a, b) = (&a.panels[0], &b.panels[0]);
            // The title that sat by the numeric ticks sits by them again.
            let value_title = |p: &chartstress::ir::PanelScene| {
                if p.y_ticks.iter().any(|t| t.value.is_some()) {
                    title(&p.y_label)
                } else {
                    title(&p.x_label)
                }
            };
            let category_title = |p: &chartstress::ir::PanelScene| {
                if p.y_ticks.iter().any(|t| t.value.is_some()) {
                    title(&p.x_label)
                } else {
                    title(&p.y_label)
                }
            };
            assert_eq!(value_title(a), value_title(b), "{}", table.id);
            assert_eq!(category_title(a), category_title(b), "{}", table.id);
            assert_ne!(
                a.y_ticks.iter().any(|t| t.value.is_some()),
                b.y_ticks.iter().any(|t| t.value.is_some())
            );
        }
    }
    assert!(applied >= 5, "{applied}");
}

#[test]
fn rotation_keeps_every_dark_pixel_of_a_chart() {
    let style = chartstress::spec::theme("classic").unwrap();
    let table = tables().into_iter().next().unwrap();
    let spec = specs(&table, &style).remove(0);
    let png = chartstress::render::render(&spec).unwrap().png;
    // Ink: darkness summed over the image; resampling spreads it but keeps it.
    let dark = |img: &image::RgbImage| -> u64 {
        img.pixels()
            .map(|p| p.0.iter().map(|c| u64::from(255 - c)).sum::<u64>())
            .sum()
    };
    let img = image::load_from_memory(&png).unwrap().to_rgb8();
    let rotation = perturb::find("rotation").unwrap();
    for severity in 1..=5 {
        let out = perturb::apply_image_png(rotation, &png, severity, 3)
            .unwrap()
            .unwrap();
        let rot = image::load_from_memory(&out.value).unwrap().to_rgb8();
        let (a, b) = (dark(&img) as f64, dark(&rot) as f64);
        assert!((a - b).abs() <= 0.03 * a, "s{severity}: ink {a} → {b}");
        let (w, h) = rot.dimensions();
        let bg = |x: u32, y: u32| rot.get_pixel(x, y).0 == [255, 255, 255];
        assert!((0..w).all(|x| bg(x, 0) && bg(x, h - 1)), "s{severity}");
        assert!((0..h).all(|y| bg(0, y) && bg(w - 1, y)), "s{severity}");
    }
}
