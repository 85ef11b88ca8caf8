//! Rendering: PNG validity, text really drawn, determinism, scene ↔ data.

use chartstress::ir::{ChartKind, ChartSpec};
use chartstress::{render, spec};

fn single(table: &chartstress::ir::Table, kind: ChartKind, theme: &str) -> ChartSpec {
    spec::single(table, kind, &spec::theme(theme).unwrap()).unwrap()
}

/// Writes sample PNGs for eyeballing: `SAMPLES=dir cargo test --test integration render::samples -- --ignored`.
#[test]
#[ignore]
fn samples() {
    let dir = std::path::PathBuf::from(
        std::env::var("SAMPLES").unwrap_or_else(|_| "target/samples".into()),
    );
    std::fs::create_dir_all(&dir).unwrap();
    let tables = [
        crate::support::fruit(),
        crate::support::energy(),
        crate::support::shares(),
        crate::support::countries(),
        crate::support::cities(),
        crate::support::profit(),
    ];
    let themes: Vec<String> = std::env::var("THEMES")
        .map(|t| t.split(',').map(str::to_string).collect())
        .unwrap_or_else(|_| vec!["classic".into()]);
    for theme in &themes {
        for t in &tables {
            for kind in spec::suitable_kinds(t) {
                let s = single(t, kind, theme);
                let r = render::render(&s).unwrap();
                let name = format!("{}_{}_{}", t.id, kind.name(), theme);
                std::fs::write(dir.join(format!("{name}.png")), &r.png).unwrap();
                std::fs::write(dir.join(format!("{name}.svg")), &r.svg).unwrap();
                std::fs::write(
                    dir.join(format!("{name}.json")),
                    serde_json::to_string_pretty(&r.scene).unwrap(),
                )
                .unwrap();
            }
        }
        let style = spec::theme(theme).unwrap();
        let panels = vec![
            spec::panel(&crate::support::fruit(), ChartKind::Bar, &style).unwrap(),
            spec::panel(&crate::support::energy(), ChartKind::Line, &style).unwrap(),
            spec::panel(&crate::support::shares(), ChartKind::Pie, &style).unwrap(),
            spec::panel(&crate::support::profit(), ChartKind::GroupedBar, &style).unwrap(),
        ];
        let g = spec::grid(2, 2, panels.clone(), &style, Some("Four charts".into())).unwrap();
        let r = render::render(&g).unwrap();
        std::fs::write(dir.join(format!("grid_{theme}.png")), &r.png).unwrap();
        std::fs::write(
            dir.join(format!("grid_{theme}.json")),
            serde_json::to_string_pretty(&r.scene).unwrap(),
        )
        .unwrap();
        let kpis = vec![
            chartstress::ir::KpiTile {
                label: "Revenue".into(),
                value: "$4.2M".into(),
                delta: Some("+12% vs 2022".into()),
            },
            chartstress::ir::KpiTile {
                label: "Customers".into(),
                value: "18,204".into(),
                delta: Some("-3%".into()),
            },
            chartstress::ir::KpiTile {
                label: "Churn".into(),
                value: "2.1%".into(),
                delta: None,
            },
        ];
        let d = spec::dashboard(panels[..3].to_vec(), kpis, Some("Sales dashboard 2023".into()), Some("Revenue grew in every region except the north, where two stores closed in March. Online sales now make up a third of the total, up from a quarter a year earlier.".into()), &style).unwrap();
        let r = render::render(&d).unwrap();
        std::fs::write(dir.join(format!("dashboard_{theme}.png")), &r.png).unwrap();
        std::fs::write(
            dir.join(format!("dashboard_{theme}.json")),
            serde_json::to_string_pretty(&r.scene).unwrap(),
        )
        .unwrap();
    }
}

fn all_specs() -> Vec<(String, ChartSpec)> {
    let tables = [
        crate::support::fruit(),
        crate::support::energy(),
        crate::support::shares(),
        crate::support::countries(),
        crate::support::cities(),
        crate::support::profit(),
    ];
    let mut out = Vec::new();
    for theme in spec::theme_names() {
        for t in &tables {
            for kind in spec::suitable_kinds(t) {
                out.push((
                    format!("{}/{}/{theme}", t.id, kind.name()),
                    single(t, kind, theme),
                ));
            }
        }
    }
    out
}

fn hex_rgb(hex: &str) -> [u8; 3] {
    let v = u32::from_str_radix(&hex[1..], 16).unwrap();
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

#[test]
fn pngs_decode_with_requested_size_and_are_not_blank() {
    for (name, s) in all_specs().into_iter().step_by(3) {
        let r = render::render(&s).unwrap();
        let img = image::load_from_memory(&r.png).unwrap().to_rgb8();
        assert_eq!((img.width(), img.height()), (s.width, s.height), "{name}");
        let bg = hex_rgb(&s.style.background);
        let differing = img.pixels().filter(|p| p.0 != bg).count();
        assert!(
            differing > 5_000,
            "{name}: only {differing} non-background pixels"
        );
        assert_eq!((r.scene.width, r.scene.height), (s.width, s.height));
    }
}

#[test]
fn title_pixels_exist_where_the_scene_says() {
    for theme in ["classic", "dark", "newsprint", "paper", "terminal"] {
        let s = single(&crate::support::fruit(), ChartKind::Bar, theme);
        let r = render::render(&s).unwrap();
        let title = r.scene.panels[0].title.as_ref().expect("title recorded");
        assert_eq!(title.text, "Fruit sales in 2023");
        let img = image::load_from_memory(&r.png).unwrap().to_rgb8();
        let bg = hex_rgb(&s.style.background);
        let b = title.bbox;
        let mut text_px = 0;
        for y in b.y as u32..(b.bottom() as u32).min(img.height()) {
            for x in b.x as u32..(b.right() as u32).min(img.width()) {
                if img.get_pixel(x, y).0 != bg {
                    text_px += 1;
                }
            }
        }
        let area = b.w * b.h;
        assert!(
            text_px as f32 > area * 0.05,
            "{theme}: {text_px} text pixels in {area} px² title box"
        );
        // Outside the title box, just above it, there is only background.
        let above = (b.y - 4.0).max(0.0) as u32;
        let stray = (b.x as u32..b.right() as u32)
            .filter(|x| img.get_pixel(*x, above).0 != bg)
            .count();
        assert_eq!(stray, 0, "{theme}: title box does not contain the title");
    }
}

#[test]
fn hidden_title_is_not_in_the_scene() {
    let mut style = spec::theme("classic").unwrap();
    spec::set_style(&mut style, "title_placement", "hidden").unwrap();
    let s = spec::single(&crate::support::fruit(), ChartKind::Bar, &style).unwrap();
    let r = render::render(&s).unwrap();
    assert!(r.scene.panels[0].title.is_none());
    assert!(!r.svg.contains("Fruit sales in 2023"));
}

/// A bar chart that prints its values may leave its value axis off: no
/// value ticks or axis title in the scene and no ink left of the plot,
/// while the category axis, the printed values and what a reader reads
/// from them stay.
#[test]
fn bars_without_a_value_axis_print_values_and_no_ticks() {
    use chartstress::ir::Answer;
    use chartstress::ir::query::{Axis, Query};
    for kind in [ChartKind::Bar, ChartKind::HorizontalBar] {
        let mut style = spec::theme("classic").unwrap();
        style.data_labels = true;
        style.furniture.hide_value_axis = true;
        let s = spec::single(&crate::support::fruit(), kind, &style).unwrap();
        let r = render::render(&s).unwrap();
        let p = &r.scene.panels[0];
        let (value_ticks, category_ticks, value_title) = if kind == ChartKind::Bar {
            (&p.y_ticks, &p.x_ticks, &p.y_label)
        } else {
            (&p.x_ticks, &p.y_ticks, &p.x_label)
        };
        assert!(value_ticks.is_empty(), "{kind:?}: {value_ticks:?}");
        assert_eq!(category_ticks.len(), 5, "{kind:?}");
        assert!(value_title.is_none(), "{kind:?}");
        assert!(p.marks.iter().all(|m| m.label.is_some()), "{kind:?}");
        let axis = if kind == ChartKind::Bar {
            Axis::Y
        } else {
            Axis::X
        };
        let edge = Query::EdgeTick {
            panel: 0,
            axis,
            last: true,
        };
        assert_eq!(
            chartstress::query::execute(&edge, &s, &r.scene).unwrap(),
            Answer::Unanswerable
        );
        let cherries = Query::ValueAt {
            panel: 0,
            series: "Sales".into(),
            category: "Cherries".into(),
        };
        let view = chartstress::reader::View::for_item(&[], false);
        let reading = chartstress::reader::answer(&cherries, &s, &r.scene, &view);
        let gold = chartstress::query::execute(&cherries, &s, &r.scene).unwrap();
        assert!(chartstress::reader::agrees(&gold, &reading), "{reading:?}");
        // Without value labels the flag is ignored: the axis is drawn.
        let mut unlabelled = style.clone();
        unlabelled.data_labels = false;
        let s = spec::single(&crate::support::fruit(), kind, &unlabelled).unwrap();
        let r = render::render(&s).unwrap();
        let p = &r.scene.panels[0];
        let value_ticks = if kind == ChartKind::Bar {
            &p.y_ticks
        } else {
            &p.x_ticks
        };
        assert!(value_ticks.len() >= 3, "{kind:?}");
    }
}

fn check_text_nodes(group: &resvg::usvg::Group, count: &mut usize) {
    for node in group.children() {
        match node {
            resvg::usvg::Node::Group(g) => check_text_nodes(g, count),
            resvg::usvg::Node::Text(t) => {
                *count += 1;
                let chunks: String = t.chunks().iter().map(|c| c.text().to_string()).collect();
                assert!(
                    !t.flattened().children().is_empty(),
                    "no glyphs for {chunks:?}"
                );
                assert!(
                    t.flattened().bounding_box().width() > 0.0,
                    "empty glyph box for {chunks:?}"
                );
            }
            _ => {}
        }
    }
}

#[test]
fn every_text_node_gets_glyphs() {
    let opt = resvg::usvg::Options {
        fontdb: render::fontdb().clone(),
        ..Default::default()
    };
    for (name, s) in all_specs().into_iter().step_by(4) {
        let r = render::render(&s).unwrap();
        let tree = resvg::usvg::Tree::from_str(&r.svg, &opt).unwrap();
        let mut count = 0;
        check_text_nodes(tree.root(), &mut count);
        assert!(count >= 5, "{name}: only {count} text nodes");
    }
}

#[test]
fn rendering_is_deterministic_across_runs_and_threads() {
    let specs: Vec<ChartSpec> = all_specs().into_iter().step_by(7).map(|(_, s)| s).collect();
    let once: Vec<_> = specs.iter().map(|s| render::render(s).unwrap()).collect();
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let again: Vec<_> = pool.install(|| {
            use rayon::prelude::*;
            specs
                .par_iter()
                .map(|s| render::render(s).unwrap())
                .collect()
        });
        for (a, b) in once.iter().zip(&again) {
            assert_eq!(a.svg, b.svg);
            assert_eq!(a.png, b.png);
            assert_eq!(
                serde_json::to_string(&a.scene).unwrap(),
                serde_json::to_string(&b.scene).unwrap()
            );
        }
    }
}

/// Pixels per data unit from two y ticks.
fn y_scale(p: &chartstress::ir::PanelScene) -> f64 {
    let (a, b) = (&p.y_ticks[0], &p.y_ticks[1]);
    f64::from(a.pos - b.pos) / (b.value.unwrap() - a.value.unwrap())
}

#[test]
fn bar_heights_are_proportional_to_values() {
    for theme in ["classic", "business", "minimal"] {
        let t = crate::support::fruit();
        let r = render::render(&single(&t, ChartKind::Bar, theme)).unwrap();
        let p = &r.scene.panels[0];
        let k = y_scale(p);
        assert_eq!(p.marks.len(), 5);
        for (m, v) in p.marks.iter().zip([120.0, 95.0, 143.0, 40.0, 77.0]) {
            assert_eq!(m.value, v);
            assert!(
                (f64::from(m.bbox.h) - v * k).abs() <= 1.0,
                "{theme}: bar {v} is {} px, expected {}",
                m.bbox.h,
                v * k
            );
            assert_eq!(m.color, spec::theme(theme).unwrap().palette[0]);
        }
        // Ticks: y bottom-to-top, x left-to-right, labels as printed.
        assert!(p.y_ticks.windows(2).all(|w| w[0].pos > w[1].pos));
        assert!(p.x_ticks.windows(2).all(|w| w[0].pos < w[1].pos));
        assert_eq!(
            p.x_ticks
                .iter()
                .map(|t| t.label.as_str())
                .collect::<Vec<_>>(),
            ["Apples", "Bananas", "Cherries", "Dates", "Elderberries"]
        );
        assert!(p.y_ticks.iter().all(|t| t.label.starts_with('$')));
    }
}

/// A hand-made spec may list several series on a plain bar or area chart:
/// every one is drawn (bars grouped, areas overlapping) and in the legend,
/// so the scene never lacks data the spec holds.
#[test]
fn plain_bar_and_area_draw_every_listed_series() {
    let t = crate::support::energy();
    let names: Vec<String> = t.series.iter().map(|c| c.name.clone()).collect();
    for kind in [ChartKind::Bar, ChartKind::Area] {
        let mut chart = single(&t, kind, "classic");
        chart.panels_mut()[0].series = names.clone();
        let r = render::render(&chart).unwrap();
        let p = &r.scene.panels[0];
        for name in &names {
            let values: Vec<f64> = t
                .series(name)
                .unwrap()
                .cells
                .iter()
                .filter_map(|c| c.as_f64())
                .collect();
            let marks: Vec<f64> = p
                .marks
                .iter()
                .filter(|m| &m.series == name)
                .map(|m| m.value)
                .collect();
            assert_eq!(marks, values, "{kind:?}: marks of {name}");
        }
        let legend: Vec<&str> = p.legend.iter().map(|e| e.label.as_str()).collect();
        assert_eq!(legend, names.iter().map(String::as_str).collect::<Vec<_>>());
        if kind == ChartKind::Bar {
            // Grouped: bars of one category sit side by side, not on top of each other.
            let first: Vec<&chartstress::ir::Mark> = p
                .marks
                .iter()
                .filter(|m| m.category == p.marks[0].category)
                .collect();
            assert!(
                first
                    .windows(2)
                    .all(|w| w[0].bbox.right() <= w[1].bbox.x + 0.5)
            );
        }
    }
}

/// Outward ticks ink the pixels left of / below the axes; inward ones
/// (paper theme) ink the plot side instead, and on a closed box the mirrored
/// ticks ink the right border's inner side.
#[test]
fn tick_marks_point_out_or_in() {
    let ink = |img: &image::RgbImage, x: f32, y: f32| {
        let p = img.get_pixel(x.round() as u32, y.round() as u32).0;
        p.iter().map(|&c| u32::from(c)).sum::<u32>() < 3 * 200
    };
    for inward in [false, true] {
        let mut chart = single(&crate::support::energy(), ChartKind::Line, "paper");
        for p in chart.panels_mut() {
            p.style.ticks_inward = inward;
            p.style.box_frame = true;
        }
        let r = render::render(&chart).unwrap();
        let img = image::load_from_memory(&r.png).unwrap().to_rgb8();
        let p = &r.scene.panels[0];
        let plot = p.plot_area;
        // A middle tick, away from the corners and from data lines' ends.
        let tick = &p.y_ticks[p.y_ticks.len() / 2];
        assert_eq!(ink(&img, plot.x - 3.0, tick.pos), !inward, "left, outside");
        assert_eq!(ink(&img, plot.x + 3.0, tick.pos), inward, "left, inside");
        assert_eq!(
            ink(&img, plot.right() - 3.0, tick.pos),
            inward,
            "right border"
        );
        let xt = &p.x_ticks[p.x_ticks.len() / 2];
        assert_eq!(
            ink(&img, xt.pos, plot.bottom() + 3.0),
            !inward,
            "bottom, outside"
        );
        assert_eq!(ink(&img, xt.pos, plot.y + 3.0), inward, "top border");
    }
    assert!(spec::theme("paper").unwrap().ticks_inward);
}

#[test]
fn missing_cells_draw_no_mark() {
    let r = render::render(&single(
        &crate::support::energy(),
        ChartKind::Line,
        "classic",
    ))
    .unwrap();
    let p = &r.scene.panels[0];
    assert_eq!(p.marks.len(), 8 * 3 - 1);
    assert!(
        !p.marks
            .iter()
            .any(|m| m.series == "Gas" && m.category.as_deref() == Some("2017"))
    );
    let r = render::render(&single(
        &crate::support::energy(),
        ChartKind::GroupedBar,
        "classic",
    ))
    .unwrap();
    assert_eq!(r.scene.panels[0].marks.len(), 8 * 3 - 1);
}

#[test]
fn pie_slices_follow_values_and_labels_print_shares() {
    let mut style = spec::theme("classic").unwrap();
    spec::set_style(&mut style, "data_labels", "true").unwrap();
    let s = spec::single(&crate::support::shares(), ChartKind::Pie, &style).unwrap();
    let r = render::render(&s).unwrap();
    let p = &r.scene.panels[0];
    let values = [64.5, 18.8, 5.2, 3.1, 2.4, 6.0];
    let total: f64 = values.iter().sum();
    assert_eq!(p.marks.len(), 6);
    for (m, v) in p.marks.iter().zip(values) {
        assert_eq!(m.value, v);
        let label = m.label.as_ref().expect("every slice labelled");
        assert_eq!(label.text, format!("{:.1}%", v / total * 100.0));
    }
    // Slice angles from the SVG arcs (M centre L start A r r 0 large 1 end Z) are ∝ values.
    let arcs: Vec<Vec<f64>> = r
        .svg
        .split("<path d=\"M")
        .skip(1)
        .map(|p| {
            p.split('"')
                .next()
                .unwrap()
                .replace(['L', 'A', 'Z'], " ")
                .split_whitespace()
                .map(|n| n.parse().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(arcs.len(), 6);
    for (a, v) in arcs.iter().zip(values) {
        let (cx, cy, x0, y0, large, x1, y1) = (a[0], a[1], a[2], a[3], a[7], a[9], a[10]);
        let mut sweep = (y1 - cy).atan2(x1 - cx) - (y0 - cy).atan2(x0 - cx);
        if sweep < 0.0 {
            sweep += std::f64::consts::TAU;
        }
        let expected = v / total * std::f64::consts::TAU;
        assert!(
            (sweep - expected).abs() < 0.01,
            "slice {v}: {sweep} rad, expected {expected}"
        );
        assert_eq!(large == 1.0, expected > std::f64::consts::PI);
    }
    // The biggest slice covers the most area of its box.
    let biggest = &p.marks[0];
    assert!(biggest.bbox.w * biggest.bbox.h > p.marks[1].bbox.w * p.marks[1].bbox.h);
    // Legend lists the categories in data order.
    assert_eq!(
        p.legend
            .iter()
            .map(|e| e.label.as_str())
            .collect::<Vec<_>>(),
        ["Chrome", "Safari", "Edge", "Firefox", "Opera", "Other"]
    );
}

fn fixture_specs() -> Vec<(String, ChartSpec)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let (tables, errors) = chartstress::table::load_tables(&[dir], false);
    assert!(errors.is_empty(), "{errors:?}");
    let mut out = Vec::new();
    for (i, t) in tables.iter().enumerate() {
        for (k, kind) in spec::suitable_kinds(t).into_iter().enumerate() {
            // Rotate themes so every theme meets every kind without rendering the full product.
            let names = spec::theme_names();
            let theme = names[(i + k) % names.len()];
            out.push((
                format!("{}/{}/{theme}", t.id, kind.name()),
                single(t, kind, theme),
            ));
        }
    }
    out
}

#[test]
fn legends_and_labels_do_not_collide() {
    for (name, s) in all_specs().into_iter().chain(fixture_specs()) {
        let r = render::render(&s).unwrap();
        let inside = |b: &chartstress::ir::BBox, what: &str| {
            assert!(
                b.x >= -1.0
                    && b.y >= -1.0
                    && b.right() <= s.width as f32 + 1.0
                    && b.bottom() <= s.height as f32 + 1.0,
                "{name}: {what} at {b:?} is clipped"
            );
        };
        for p in &r.scene.panels {
            let texts = p
                .title
                .iter()
                .chain(&p.x_label)
                .chain(&p.y_label)
                .chain(&p.direct_labels);
            for t in texts.chain(p.marks.iter().filter_map(|m| m.label.as_ref())) {
                inside(&t.bbox, &t.text);
            }
            for t in p.x_ticks.iter().chain(&p.y_ticks) {
                inside(&t.bbox, &t.label);
            }
            for e in &p.legend {
                inside(&e.bbox, &e.label);
            }
            for e in &p.legend {
                for m in &p.marks {
                    if !matches!(m.kind, chartstress::ir::MarkKind::Slice) {
                        assert!(
                            !e.bbox.intersects(&m.bbox),
                            "{name}: legend {:?} covers {:?}/{:?}",
                            e.label,
                            m.series,
                            m.category
                        );
                    }
                }
            }
            let labels: Vec<_> = p.marks.iter().filter_map(|m| m.label.as_ref()).collect();
            for (i, a) in labels.iter().enumerate() {
                for b in &labels[i + 1..] {
                    assert!(
                        !a.bbox.intersects(&b.bbox),
                        "{name}: labels {:?} and {:?} overlap",
                        a.text,
                        b.text
                    );
                }
            }
            let ts = s.panels()[p.index].style.tick_size;
            for ticks in [&p.x_ticks, &p.y_ticks] {
                for w in ticks.windows(2) {
                    let rotated = w[0].bbox.h > 2.4 * ts || w[1].bbox.h > 2.4 * ts;
                    if rotated {
                        // 45° labels: their boxes overlap, the glyph lines must not.
                        assert!(
                            (w[1].pos - w[0].pos).abs() >= ts * 1.4,
                            "{name}: rotated ticks {:?} and {:?} too close",
                            w[0].label,
                            w[1].label
                        );
                    } else {
                        assert!(
                            !w[0].bbox.intersects(&w[1].bbox),
                            "{name}: ticks {:?} and {:?} overlap",
                            w[0].label,
                            w[1].label
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn log_scale_and_number_styles() {
    let mut style = spec::theme("classic").unwrap();
    spec::set_style(&mut style, "log_scale", "true").unwrap();
    let r =
        render::render(&spec::single(&crate::support::cities(), ChartKind::Bar, &style).unwrap())
            .unwrap();
    let p = &r.scene.panels[0];
    assert!(p.log_y);
    let _ = p;
    let mut style = spec::theme("classic").unwrap();
    spec::set_style(&mut style, "number_style", "short").unwrap();
    let t = crate::support::table(
        "big",
        None,
        crate::support::text_index("Region", &["North", "South", "East"]),
        vec![crate::support::column(
            "Revenue",
            &[Some(1_200_000.0), Some(2_500_000.0), Some(800_000.0)],
            crate::support::fmt(None, None, 0),
        )],
    );
    let r = render::render(&spec::single(&t, ChartKind::Bar, &style).unwrap()).unwrap();
    let labels: Vec<&str> = r.scene.panels[0]
        .y_ticks
        .iter()
        .map(|t| t.label.as_str())
        .collect();
    assert!(
        labels.contains(&"1M") && labels.contains(&"2M"),
        "{labels:?}"
    );
    assert!(r.scene.panels[0].title.is_none());
}

#[test]
fn non_zero_baseline_starts_near_the_data() {
    let mut style = spec::theme("classic").unwrap();
    spec::set_style(&mut style, "zero_baseline", "false").unwrap();
    let t = crate::support::table(
        "temps",
        Some("Temperature"),
        crate::support::year_index("Year", 2000..=2005),
        vec![crate::support::column(
            "Anomaly",
            &[
                Some(50.2),
                Some(50.4),
                Some(50.9),
                Some(51.3),
                Some(51.0),
                Some(51.8),
            ],
            crate::support::fmt(None, None, 1),
        )],
    );
    let r = render::render(&spec::single(&t, ChartKind::Line, &style).unwrap()).unwrap();
    let first = r.scene.panels[0].y_ticks[0].value.unwrap();
    assert!(first > 49.0 && first <= 50.2, "axis starts at {first}");
}

#[test]
fn grid_and_dashboard_scenes() {
    let style = spec::theme("classic").unwrap();
    let panels = vec![
        spec::panel(&crate::support::fruit(), ChartKind::Bar, &style).unwrap(),
        spec::panel(&crate::support::energy(), ChartKind::Line, &style).unwrap(),
        spec::panel(&crate::support::shares(), ChartKind::Pie, &style).unwrap(),
    ];
    let g = spec::grid(2, 2, panels.clone(), &style, Some("Overview".into())).unwrap();
    let r = render::render(&g).unwrap();
    assert_eq!(r.scene.grid, (2, 2));
    assert_eq!(r.scene.title.as_ref().unwrap().text, "Overview");
    assert_eq!(
        r.scene
            .panels
            .iter()
            .map(|p| (p.row, p.col))
            .collect::<Vec<_>>(),
        [(0, 0), (0, 1), (1, 0)]
    );
    for (a, b) in r.scene.panels.iter().zip(r.scene.panels.iter().skip(1)) {
        assert!(!a.plot_area.intersects(&b.plot_area));
    }
    // Shared axes: tick labels only on the outer panels.
    let mut shared = spec::grid(
        2,
        2,
        vec![spec::panel(&crate::support::fruit(), ChartKind::Bar, &style).unwrap(); 4],
        &style,
        None,
    )
    .unwrap();
    if let chartstress::ir::Layout::Grid {
        shared_x, shared_y, ..
    } = &mut shared.layout
    {
        (*shared_x, *shared_y) = (true, true);
    }
    let r = render::render(&shared).unwrap();
    let p = &r.scene.panels;
    assert!(p[0].x_ticks.is_empty() && !p[0].y_ticks.is_empty());
    assert!(p[1].x_ticks.is_empty() && p[1].y_ticks.is_empty() && p[1].y_label.is_none());
    assert!(!p[2].x_ticks.is_empty() && !p[2].y_ticks.is_empty());
    assert!(!p[3].x_ticks.is_empty() && p[3].y_ticks.is_empty());
    assert_eq!(p[1].marks[0].bbox.h, p[0].marks[0].bbox.h, "shared y scale");
    let kpis = vec![chartstress::ir::KpiTile {
        label: "Revenue".into(),
        value: "$4.2M".into(),
        delta: Some("+12%".into()),
    }];
    let d = spec::dashboard(
        panels,
        kpis,
        Some("Sales".into()),
        Some("A short paragraph about the numbers.".into()),
        &style,
    )
    .unwrap();
    let r = render::render(&d).unwrap();
    assert_eq!(r.scene.kpis.len(), 1);
    assert_eq!(r.scene.kpis[0].value, "$4.2M");
    assert_eq!(r.scene.title.as_ref().unwrap().text, "Sales");
    assert_eq!(
        r.scene.paragraph.as_ref().unwrap().text,
        "A short paragraph about the numbers."
    );
    assert_eq!(r.scene.panels.len(), 3);
    assert!(spec::dashboard(vec![], vec![], None, None, &style).is_err());
    assert!(
        spec::grid(
            1,
            1,
            vec![spec::panel(&crate::support::fruit(), ChartKind::Bar, &style).unwrap(); 2],
            &style,
            None
        )
        .is_err()
    );
}

#[test]
fn set_style_errors_name_the_key() {
    let mut style = spec::theme("classic").unwrap();
    for (key, value) in [
        ("colour", "red"),
        ("title_size", "huge"),
        ("palette", "[]"),
        ("grid", "diagonal"),
        ("tick_count", "0"),
    ] {
        let e = spec::set_style(&mut style, key, value)
            .unwrap_err()
            .to_string();
        assert!(e.contains(key), "{e}");
    }
    assert_eq!(
        style,
        spec::theme("classic").unwrap(),
        "failed sets change nothing"
    );
}

#[test]
fn suitable_kinds_follow_the_data() {
    assert_eq!(
        spec::suitable_kinds(&crate::support::shares())[0],
        ChartKind::Pie
    );
    assert_eq!(
        spec::suitable_kinds(&crate::support::energy())[0],
        ChartKind::Line
    );
    assert_eq!(
        spec::suitable_kinds(&crate::support::countries())[0],
        ChartKind::HorizontalBar
    );
    assert_eq!(
        spec::suitable_kinds(&crate::support::fruit())[0],
        ChartKind::Bar
    );
    let cities = spec::suitable_kinds(&crate::support::cities());
    assert!(cities.contains(&ChartKind::Scatter) && cities.contains(&ChartKind::Bubble));
    let profit = spec::suitable_kinds(&crate::support::profit());
    assert!(
        !profit.contains(&ChartKind::StackedBar),
        "negative values do not stack"
    );
    assert!(!profit.contains(&ChartKind::Pie));
}

#[test]
fn snapshot_specs_and_scenes() {
    let s = single(&crate::support::fruit(), ChartKind::Bar, "classic");
    insta::assert_json_snapshot!("fruit_bar_spec", s);
    insta::assert_json_snapshot!("fruit_bar_scene", render::render(&s).unwrap().scene);
    let s = single(&crate::support::energy(), ChartKind::Line, "newsprint");
    insta::assert_json_snapshot!("energy_line_scene", render::render(&s).unwrap().scene);
}

/// Throughput figures for docs/performance.md: `cargo test --release --test integration render::throughput -- --ignored --nocapture`.
#[test]
#[ignore]
fn throughput() {
    use rayon::prelude::*;
    use std::time::Instant;
    let style = spec::theme("classic").unwrap();
    let n = 200;
    for (name, table, kind) in [
        ("bar", crate::support::fruit(), ChartKind::Bar),
        ("line", crate::support::energy(), ChartKind::Line),
    ] {
        let s = spec::single(&table, kind, &style).unwrap();
        let t = Instant::now();
        for _ in 0..20 {
            render::render_svg(&s).unwrap();
        }
        let svg_ms = t.elapsed().as_secs_f64() * 1000.0 / 20.0;
        let (svg, _) = render::render_svg(&s).unwrap();
        let t = Instant::now();
        for _ in 0..20 {
            render::svg_to_png(&svg).unwrap();
        }
        let png_ms = t.elapsed().as_secs_f64() * 1000.0 / 20.0;
        println!("{name}: svg+scene {svg_ms:.2} ms, svg→png {png_ms:.2} ms");
        let opt = resvg::usvg::Options {
            fontdb: render::fontdb().clone(),
            ..Default::default()
        };
        let t = Instant::now();
        let tree = resvg::usvg::Tree::from_str(&svg, &opt).unwrap();
        let parse = t.elapsed().as_secs_f64() * 1000.0;
        let mut pixmap = resvg::tiny_skia::Pixmap::new(800, 600).unwrap();
        let t = Instant::now();
        resvg::render(
            &tree,
            resvg::tiny_skia::Transform::default(),
            &mut pixmap.as_mut(),
        );
        let raster = t.elapsed().as_secs_f64() * 1000.0;
        println!(
            "{name}: usvg parse {parse:.2} ms, resvg {raster:.2} ms, svg {} bytes",
            svg.len()
        );
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let t = Instant::now();
            pool.install(|| {
                (0..n).into_par_iter().for_each(|_| {
                    let s = spec::single(&table, kind, &style).unwrap();
                    assert!(!render::render(&s).unwrap().png.is_empty());
                })
            });
            let secs = t.elapsed().as_secs_f64();
            println!(
                "{name}: {threads} thread(s): {:.1} charts/s ({:.2} ms/chart)",
                f64::from(n) / secs,
                secs * 1000.0 / f64::from(n)
            );
        }
    }
}

fn fixture(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

#[test]
fn cli_render_writes_png_svg_and_scene() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("energy.png");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_chartstress"))
        .args([
            "render",
            fixture("energy_mix_stacked.csv").to_str().unwrap(),
            "--theme",
            "dark",
            "--set",
            "data_labels=true",
            "-o",
            out.to_str().unwrap(),
        ])
        .status()
        .unwrap();
    assert!(status.success());
    let png = std::fs::read(&out).unwrap();
    let img = image::load_from_memory(&png).unwrap();
    assert_eq!((img.width(), img.height()), (800, 600));
    assert!(
        std::fs::read_to_string(dir.path().join("energy.svg"))
            .unwrap()
            .starts_with("<svg")
    );
    let scene: chartstress::ir::Scene = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("energy.scene.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        scene.panels[0].title.as_ref().unwrap().text,
        "Electricity generation by source, 2023"
    );
    for layout in ["grid:2x2", "dashboard"] {
        let out = dir.path().join(format!("{}.png", layout.replace(':', "_")));
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_chartstress"))
            .args([
                "render",
                fixture("energy_mix_stacked.csv").to_str().unwrap(),
                "--layout",
                layout,
                "--width",
                "1000",
                "--height",
                "800",
                "-o",
                out.to_str().unwrap(),
            ])
            .status()
            .unwrap();
        assert!(status.success(), "{layout}");
        let img = image::load_from_memory(&std::fs::read(&out).unwrap()).unwrap();
        assert_eq!((img.width(), img.height()), (1000, 800));
    }
}

#[test]
fn cli_render_reports_bad_options() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.png");
    for (args, needle) in [
        (vec!["--set", "bar_width=wide"], "bar_width"),
        (vec!["--set", "no_such=1"], "no_such"),
        (vec!["--kind", "sunburst"], "sunburst"),
        (vec!["--theme", "neon"], "neon"),
        (vec!["--layout", "grid:axb"], "grid:axb"),
    ] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_chartstress"))
            .arg("render")
            .arg(fixture("browser_share_pie.csv"))
            .args(&args)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert!(!o.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    assert!(!out.exists());
}

#[test]
fn cli_gallery_writes_images_index_and_contact_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_chartstress"))
        .args([
            "gallery",
            fixture("browser_share_pie.csv").to_str().unwrap(),
            "--themes",
            "classic,dark",
            "--quiet",
            "-o",
            dir.path().to_str().unwrap(),
        ])
        .status()
        .unwrap();
    assert!(status.success());
    let images = std::fs::read_dir(dir.path().join("images"))
        .unwrap()
        .count();
    assert_eq!(
        images,
        5 * 2,
        "pie, donut, bar, horizontal bar, lollipop × 2 themes"
    );
    let html = std::fs::read_to_string(dir.path().join("index.html")).unwrap();
    assert_eq!(html.matches("<figure>").count(), 10);
    assert!(html.contains("browser_share_pie__donut__dark.png"));
    let sheet = image::open(dir.path().join("contact_sheet.png")).unwrap();
    assert!(sheet.width() > 400 && sheet.height() > 300);
}

#[test]
fn gallery_one_per_kind_draws_each_kind_once_and_the_readme_shows_each() {
    // The fixtures and one synthesized table of each on-request shape, as
    // scripts/kind_thumbnails.sh draws the README's thumbnails.
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    for shape in chartstress::synth::SynthKind::ON_REQUEST {
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_chartstress"))
            .args([
                "synth",
                "--seed",
                "1",
                "--count",
                "1",
                "--kind",
                shape.name(),
                "-o",
            ])
            .arg(&tables)
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "synth --kind {}", shape.name());
    }
    let gallery = dir.path().join("g");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chartstress"))
        .args([
            "gallery",
            "--one-per-kind",
            "--quiet",
            "--thumb-width",
            "160",
        ])
        .arg("fixtures")
        .arg(&tables)
        .arg("-o")
        .arg(&gallery)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let mut drawn = Vec::new();
    for entry in std::fs::read_dir(gallery.join("images")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        drawn.push(name.split("__").nth(1).unwrap().to_string());
    }
    drawn.sort();
    let mut unique = drawn.clone();
    unique.dedup();
    assert_eq!(drawn, unique, "one image per kind");
    for kind in chartstress::ir::ChartKind::ALL {
        let name = kind.name();
        assert!(drawn.iter().any(|k| k == name), "no table drew {name}");
        let thumb = image::open(gallery.join("kinds").join(format!("{name}.png"))).unwrap();
        assert_eq!(thumb.width(), 160, "{name}");
        assert!(
            readme.contains(&format!("docs/kinds/{name}.png")),
            "README shows no thumbnail of {name}"
        );
        assert!(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(format!("docs/kinds/{name}.png"))
                .exists(),
            "docs/kinds/{name}.png is missing"
        );
    }
}

#[test]
fn awkward_tables_render_without_panicking() {
    use crate::support::{column, fmt, table, text_index};
    let one = |name: &str, v: Vec<Option<f64>>| column(name, &v, fmt(None, None, 0));
    let tables = [
        table(
            "single_row",
            Some("One row"),
            text_index("K", &["Only"]),
            vec![one("V", vec![Some(5.0)])],
        ),
        table(
            "constant",
            None,
            text_index("K", &["a", "b", "c"]),
            vec![one("V", vec![Some(7.0); 3]), one("W", vec![Some(7.0); 3])],
        ),
        table(
            "all_zero",
            None,
            text_index("K", &["a", "b"]),
            vec![one("V", vec![Some(0.0), Some(0.0)])],
        ),
        table(
            "negative_only",
            None,
            text_index("K", &["a", "b", "c"]),
            vec![
                one("V", vec![Some(-3.0), Some(-8.0), Some(-1.0)]),
                one("W", vec![Some(-2.0), None, Some(-4.0)]),
            ],
        ),
        table(
            "huge",
            None,
            text_index("K", &["a", "b"]),
            vec![
                one("V", vec![Some(3.2e14), Some(1.1e15)]),
                one("W", vec![Some(1e-3), Some(2e-3)]),
            ],
        ),
        table(
            "mostly_missing",
            None,
            text_index("K", &["a", "b", "c"]),
            vec![
                one("V", vec![None, Some(1.0), None]),
                one("W", vec![None, None, None]),
            ],
        ),
        table(
            "empty_label",
            None,
            text_index("K", &["", "b"]),
            vec![one("V", vec![Some(1.0), Some(2.0)])],
        ),
    ];
    for theme in ["classic", "minimal", "paper"] {
        for log in ["false", "true"] {
            let mut style = spec::theme(theme).unwrap();
            spec::set_style(&mut style, "log_scale", log).unwrap();
            spec::set_style(&mut style, "data_labels", "true").unwrap();
            for t in &tables {
                for kind in ChartKind::ALL {
                    let Ok(s) = spec::single(t, kind, &style) else {
                        continue;
                    };
                    match render::render(&s) {
                        Ok(r) => assert_eq!(r.scene.panels.len(), 1),
                        Err(e) => assert!(!e.to_string().is_empty()),
                    }
                }
            }
        }
    }
}

/// Every series a panel lists is drawn, and the scene lists exactly the drawn marks:
/// several series on horizontal bars are grouped, one bar per series and category.
#[test]
fn horizontal_bars_draw_every_listed_series() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let (tables, errors) = chartstress::table::load_tables(&[dir], false);
    assert!(errors.is_empty(), "{errors:?}");
    let mut multi = 0;
    for t in &tables {
        if !spec::suitable_kinds(t).contains(&ChartKind::HorizontalBar) {
            continue;
        }
        let s = single(t, ChartKind::HorizontalBar, "classic");
        let panel = &s.panels()[0];
        let r = render::render(&s).unwrap();
        let p = &r.scene.panels[0];
        let mut drawn: Vec<&str> = Vec::new();
        for m in &p.marks {
            if !drawn.contains(&m.series.as_str()) {
                drawn.push(&m.series);
            }
        }
        assert_eq!(drawn, panel.series, "{}", t.id);
        let cells: usize = panel
            .series
            .iter()
            .map(|n| {
                let col = t.series(n).unwrap();
                col.cells.iter().filter(|c| c.as_f64().is_some()).count()
            })
            .sum();
        assert_eq!(p.marks.len(), cells, "{}", t.id);
        if panel.series.len() >= 2 {
            multi += 1;
            let legend: Vec<&str> = p.legend.iter().map(|e| e.label.as_str()).collect();
            assert_eq!(legend.len(), panel.series.len(), "{}", t.id);
            // Bars of one category sit one below the other, not on top of each other.
            let cat = p.marks[0].category.clone();
            let mut ys: Vec<f32> = p
                .marks
                .iter()
                .filter(|m| m.category == cat)
                .map(|m| m.bbox.y)
                .collect();
            ys.sort_by(f32::total_cmp);
            ys.dedup();
            assert_eq!(ys.len(), panel.series.len(), "{}", t.id);
        }
    }
    assert!(multi >= 2, "fixtures with grouped horizontal bars: {multi}");
}
