//! The reader on rendered fixtures: it agrees with the executor where the
//! picture carries the answer, refuses where it does not, and never looks at
//! the values the scene records for marks and ticks.

use std::path::Path;

use super::*;
use crate::ir::{ChartKind, Scene};
use crate::questions::{QuestionOptions, generate};

fn chart(fixture: &str, kind: ChartKind, data_labels: bool) -> (ChartSpec, Scene) {
    let table = crate::table::load_table(&Path::new("fixtures").join(fixture)).unwrap();
    let mut style = crate::spec::theme("classic").unwrap();
    style.data_labels = data_labels;
    let spec = crate::spec::single(&table, kind, &style).unwrap();
    let out = crate::render::render(&spec).unwrap();
    (spec, out.scene)
}

/// The scene with every recorded mark and tick value scrambled: what the
/// reader may not look at.
fn scrambled(scene: &Scene) -> Scene {
    let mut s = scene.clone();
    for p in &mut s.panels {
        for m in &mut p.marks {
            m.value = -12345.0;
            m.x_value = None;
            m.size_value = None;
        }
        for t in p.x_ticks.iter_mut().chain(p.y_ticks.iter_mut()) {
            t.value = None;
        }
        if let Some(h) = &mut p.heatmap {
            for t in &mut h.colorbar.ticks {
                t.value = None;
            }
            h.colorbar.min = -1.0;
            h.colorbar.max = -1.0;
        }
        if let Some(r) = &mut p.radar {
            r.max = -1.0;
        }
    }
    s
}

fn questions(spec: &ChartSpec, scene: &Scene) -> Vec<crate::questions::Question> {
    let opts = QuestionOptions {
        seed: 11,
        count: 60,
        ..QuestionOptions::default()
    };
    generate("t", spec, scene, &opts)
}

#[test]
fn answers_never_depend_on_recorded_values() {
    for (fixture, kind) in [
        ("city_budget_millions.csv", ChartKind::Bar),
        ("retail_sales_monthly.csv", ChartKind::Line),
        ("smartphone_shipments_grouped.csv", ChartKind::GroupedBar),
        ("energy_mix_stacked.csv", ChartKind::StackedBar),
        ("smartphone_shipments_grouped.csv", ChartKind::Heatmap),
        ("retail_sales_monthly.csv", ChartKind::Heatmap),
        ("energy_mix_stacked.csv", ChartKind::PercentStackedBar),
        ("city_budget_millions.csv", ChartKind::Lollipop),
        ("gdp_growth_g7.csv", ChartKind::DivergingBar),
        ("coffee_tea.tsv", ChartKind::Dumbbell),
        ("company_profit_loss.csv", ChartKind::Slope),
        ("phone_review_scores.csv", ChartKind::Radar),
    ] {
        for labels in [false, true] {
            let (spec, scene) = chart(fixture, kind, labels);
            let blind = scrambled(&scene);
            let view = View::default();
            for q in questions(&spec, &scene) {
                if crate::query::is_descriptive(&q.query) {
                    continue;
                }
                assert_eq!(
                    answer(&q.query, &spec, &scene, &view),
                    answer(&q.query, &spec, &blind, &view),
                    "{fixture}: {}",
                    q.text
                );
            }
        }
    }
}

#[test]
fn whatever_the_reader_answers_is_right() {
    let mut answered = 0;
    let mut total = 0;
    for (fixture, kind) in [
        ("city_budget_millions.csv", ChartKind::Bar),
        ("city_budget_millions.csv", ChartKind::HorizontalBar),
        ("retail_sales_monthly.csv", ChartKind::Line),
        ("smartphone_shipments_grouped.csv", ChartKind::GroupedBar),
        ("energy_mix_stacked.csv", ChartKind::StackedBar),
        ("renewables_stacked_area.csv", ChartKind::StackedArea),
        ("browser_share_pie.csv", ChartKind::Pie),
        ("gdp_growth_g7.csv", ChartKind::Bar),
        ("smartphone_shipments_grouped.csv", ChartKind::Heatmap),
        ("retail_sales_monthly.csv", ChartKind::Heatmap),
        ("energy_mix_stacked.csv", ChartKind::Heatmap),
        ("energy_mix_stacked.csv", ChartKind::PercentStackedBar),
        (
            "smartphone_shipments_grouped.csv",
            ChartKind::PercentStackedBar,
        ),
        ("city_budget_millions.csv", ChartKind::Lollipop),
        ("gdp_growth_g7.csv", ChartKind::Lollipop),
        ("gdp_growth_g7.csv", ChartKind::DivergingBar),
        ("company_profit_loss.csv", ChartKind::Dumbbell),
        ("coffee_tea.tsv", ChartKind::Dumbbell),
        ("company_profit_loss.csv", ChartKind::Slope),
        ("city_budget_millions.csv", ChartKind::Radar),
        ("phone_review_scores.csv", ChartKind::Radar),
    ] {
        for labels in [false, true] {
            let (spec, scene) = chart(fixture, kind, labels);
            for q in questions(&spec, &scene) {
                total += 1;
                let r = answer(&q.query, &spec, &scene, &View::default());
                if let Reading::Answer(text) = &r {
                    answered += 1;
                    assert!(
                        agrees(&q.answer, &r),
                        "{fixture} {kind:?}: {} gold {:?}, reader said {text}",
                        q.text,
                        q.answer
                    );
                }
            }
        }
    }
    // The reader is not a refuse-everything baseline.
    assert!(answered * 2 > total, "answered {answered} of {total}");
}

#[test]
fn printed_labels_are_read_exactly_and_bars_to_a_pixel() {
    let (spec, scene) = chart("city_budget_millions.csv", ChartKind::Bar, true);
    let p = &scene.panels[0];
    let m = &p.marks[0];
    let q = Query::ValueAt {
        panel: 0,
        series: m.series.clone(),
        category: m.category.clone().unwrap(),
    };
    let gold = crate::query::execute(&q, &spec, &scene).unwrap();
    assert!(agrees(&gold, &answer(&q, &spec, &scene, &View::default())));
    // Without labels the bar end is read through the ticks to about a pixel.
    let (spec, scene) = chart("city_budget_millions.csv", ChartKind::Bar, false);
    let view = View::default();
    let sight = Sight::new(&scene.panels[0], &view);
    let m = &scene.panels[0].marks[0];
    let v = sight
        .cell(&m.series, m.category.as_deref().unwrap())
        .unwrap();
    assert!(v.contains(m.value), "{v:?} vs {}", m.value);
    let _ = spec;
}

#[test]
fn unlabelled_categories_and_unnamed_series_are_not_guessed() {
    let (spec, mut scene) = chart(
        "smartphone_shipments_grouped.csv",
        ChartKind::GroupedBar,
        false,
    );
    let p = &scene.panels[0];
    let m = p.marks[0].clone();
    let q = Query::ValueAt {
        panel: 0,
        series: m.series.clone(),
        category: m.category.clone().unwrap(),
    };
    // Without its legend the series cannot be told apart.
    let mut no_legend = scene.clone();
    no_legend.panels[0].legend.clear();
    assert!(matches!(
        answer(&q, &spec, &no_legend, &View::default()),
        Reading::Undetermined {
            reason: "series_unidentified",
            ..
        }
    ));
    // A category whose tick label is gone cannot be named.
    let cat = m.category.clone().unwrap();
    scene.panels[0].x_ticks.retain(|t| t.label != cat);
    assert!(matches!(
        answer(&q, &spec, &scene, &View::default()),
        Reading::Undetermined {
            reason: "category_unlabelled",
            ..
        }
    ));
    // A category that is visibly not there is unanswerable.
    let absent = Query::ValueAt {
        panel: 0,
        series: m.series.clone(),
        category: "Atlantis".into(),
    };
    let (spec, scene) = chart(
        "smartphone_shipments_grouped.csv",
        ChartKind::GroupedBar,
        false,
    );
    assert!(matches!(
        answer(&absent, &spec, &scene, &View::default()),
        Reading::Unanswerable(_)
    ));
}

#[test]
fn strong_downscaling_makes_text_illegible() {
    let (spec, scene) = chart("city_budget_millions.csv", ChartKind::Bar, true);
    let q = Query::Title { panel: 0 };
    let mut params = std::collections::BTreeMap::new();
    params.insert("factor".to_string(), serde_json::json!(0.3));
    let tiny = View::for_item(
        &[crate::ir::Perturbation {
            axis: "image".into(),
            name: "downscale".into(),
            severity: 5,
            change: Default::default(),
            params,
        }],
        false,
    );
    assert!(matches!(
        answer(&q, &spec, &scene, &tiny),
        Reading::Undetermined { .. }
    ));
    assert!(matches!(
        answer(&q, &spec, &scene, &View::default()),
        Reading::Answer(_)
    ));
}

#[test]
fn heatmap_cells_are_read_from_printed_values_or_coarsely_from_colour() {
    let (spec, scene) = chart("smartphone_shipments_grouped.csv", ChartKind::Heatmap, true);
    let view = View::default();
    let p = &scene.panels[0];
    // Printed values are read exactly; the colour bar's ticks as printed.
    for m in &p.marks {
        let q = Query::ValueAt {
            panel: 0,
            series: m.series.clone(),
            category: m.category.clone().unwrap(),
        };
        let gold = crate::query::execute(&q, &spec, &scene).unwrap();
        assert!(agrees(&gold, &answer(&q, &spec, &scene, &view)), "{q:?}");
    }
    for last in [false, true] {
        let q = Query::ColorbarTick { panel: 0, last };
        let gold = crate::query::execute(&q, &spec, &scene).unwrap();
        let bar = &p.heatmap.as_ref().unwrap().colorbar;
        let want = if last { bar.max } else { bar.min };
        assert_eq!(
            gold.to_text().replace(',', "").parse::<f64>().unwrap(),
            want
        );
        assert!(agrees(&gold, &answer(&q, &spec, &scene, &view)));
    }
    // Without printed values a cell's colour is matched on the colour bar:
    // its interval holds the value but is too wide to quote it.
    let (_, scene) = chart(
        "smartphone_shipments_grouped.csv",
        ChartKind::Heatmap,
        false,
    );
    let p = &scene.panels[0];
    let sight = Sight::new(p, &view);
    let bar = &p.heatmap.as_ref().unwrap().colorbar;
    for m in &p.marks {
        assert!(m.label.is_none());
        let v = sight
            .cell(&m.series, m.category.as_deref().unwrap())
            .unwrap();
        assert!(v.contains(m.value), "{v:?} vs {}", m.value);
        assert!(v.hi - v.lo >= 0.1 * (bar.max - bar.min), "{v:?}");
    }
    // A series whose row or column label is gone cannot be named.
    let mut unnamed = scene.clone();
    let series = p.marks[0].series.clone();
    let h = unnamed.panels[0].heatmap.clone().unwrap();
    let ticks = if h.series_on_rows {
        &mut unnamed.panels[0].y_ticks
    } else {
        &mut unnamed.panels[0].x_ticks
    };
    ticks.retain(|t| t.label != series);
    let q = Query::Argmax {
        panel: 0,
        series: Some(series),
    };
    assert!(matches!(
        answer(&q, &spec, &unnamed, &view),
        Reading::Undetermined {
            reason: "series_unidentified",
            ..
        }
    ));
}
