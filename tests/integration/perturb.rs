//! Every perturbation axis × severity on the fixture tables: the perturbed
//! chart renders, and re-executing each question's query on it agrees with
//! the perturbation's declared answer effect (answer-preserving ones keep
//! every data answer exactly).

use crate::support::fixture_tables;

use chartstress::ir::{Answer, ChartSpec, QuestionType, Scene, Table};
use chartstress::perturb::{self, AnswerEffect, ChartContext, Stage};
use chartstress::questions::{self, Question, QuestionOptions};

struct Chart {
    spec: ChartSpec,
    scene: Scene,
    svg: String,
    png: Vec<u8>,
}

fn render(spec: ChartSpec) -> Chart {
    let out = chartstress::render::render(&spec).unwrap_or_else(|e| panic!("renders: {e}"));
    Chart {
        spec,
        scene: out.scene,
        svg: out.svg,
        png: out.png,
    }
}

fn original(table: &Table) -> Option<(Chart, Vec<Question>)> {
    let kind = *chartstress::spec::suitable_kinds(table).first()?;
    let style = chartstress::spec::theme("classic").unwrap();
    let chart = render(chartstress::spec::single(table, kind, &style).ok()?);
    let opts = QuestionOptions {
        seed: 3,
        count: 6,
        unanswerable_share: 0.0,
        ..QuestionOptions::default()
    };
    let qs = questions::generate(&table.id, &chart.spec, &chart.scene, &opts);
    Some((chart, qs))
}

/// Annotation perturbations act on an annotated chart: the spec with the
/// first annotation (with a label) its data fits.
fn annotated(spec: &chartstress::ir::ChartSpec, name: &str) -> chartstress::ir::ChartSpec {
    let mut out = spec.clone();
    if name.starts_with("annotation_") {
        for panel in out.panels_mut() {
            panel.annotation = ["reference_line", "callout", "band"]
                .iter()
                .find_map(|a| chartstress::spec::annotation::named(panel, a));
        }
    }
    out
}

fn executed(query: &chartstress::ir::Query, chart: &Chart) -> Answer {
    chartstress::query::execute(query, &chart.spec, &chart.scene).unwrap_or(Answer::Unanswerable)
}

#[test]
fn every_chart_perturbation_and_severity_keeps_its_answer_declaration() {
    let tables = fixture_tables();
    let themes = chartstress::spec::builtin_themes();
    let originals: Vec<(usize, Chart, Vec<Question>)> = tables
        .iter()
        .enumerate()
        .filter_map(|(i, t)| original(t).map(|(c, q)| (i, c, q)))
        .collect();
    assert!(originals.len() >= 20);
    let mut report = Vec::new();
    // Opt-in perturbations move questions by series or need furniture the
    // fixtures lack: tests/integration/kinds_figure.rs checks their pairs.
    let default_perturbations = || {
        perturb::chart_perturbations()
            .iter()
            .filter(|p| !perturb::registry::OPT_IN.contains(&p.info().name))
    };
    for (pi, p) in default_perturbations().enumerate() {
        let info = p.info();
        for severity in 1..=5u8 {
            let mut applied = 0;
            let mut checked = 0;
            // Rotate through the fixtures so each (perturbation, severity) sees other tables.
            for k in 0..originals.len() {
                if applied >= 1 {
                    break;
                }
                let (ti, base, qs) =
                    &originals[(pi * 5 + usize::from(severity) + k) % originals.len()];
                let table = &tables[*ti];
                let others: Vec<&Table> = tables.iter().filter(|t| t.id != table.id).collect();
                let ctx = ChartContext {
                    seed: 17,
                    themes: &themes,
                    distractors: &others,
                };
                let (chart, target) = match info.stage {
                    Stage::Spec => {
                        match p.apply_spec(&annotated(&base.spec, info.name), severity, &ctx) {
                            Some(a) => (render(a.value), a.target_panel),
                            None => continue,
                        }
                    }
                    Stage::Svg => match p.apply_svg(&base.svg, &base.scene, severity, 17) {
                        Some(a) => {
                            let png = chartstress::render::svg_to_png(&a.value.svg)
                                .expect("clutter svg rasterizes");
                            let mut scene = base.scene.clone();
                            scene.extra_text.extend(a.value.extra_text);
                            (
                                Chart {
                                    spec: base.spec.clone(),
                                    scene,
                                    svg: a.value.svg,
                                    png,
                                },
                                None,
                            )
                        }
                        None => continue,
                    },
                    Stage::Image => {
                        let a = chartstress::perturb::apply_image_png(*p, &base.png, severity, 17)
                            .unwrap()
                            .expect("image perturbations always apply");
                        let decoded = image::load_from_memory(&a.value).expect("valid png");
                        // Only a rotation may enlarge the canvas (to keep its corners).
                        let size = (decoded.width(), decoded.height());
                        if info.name == "rotation" {
                            assert!(size.0 > base.scene.width && size.1 > base.scene.height);
                        } else {
                            assert_eq!(size, (base.scene.width, base.scene.height));
                        }
                        (
                            Chart {
                                spec: base.spec.clone(),
                                scene: base.scene.clone(),
                                svg: base.svg.clone(),
                                png: a.value,
                            },
                            None,
                        )
                    }
                    _ => continue,
                };
                applied += 1;
                for q in qs {
                    let query = match target {
                        Some(to) => perturb::retarget_panel(&q.query, 0, to),
                        None => q.query.clone(),
                    };
                    let now = executed(&query, &chart);
                    let descriptive = chartstress::query::is_descriptive(&q.query);
                    if info.effect == AnswerEffect::Preserving && !descriptive {
                        assert_eq!(
                            now, q.answer,
                            "{} severity {severity} on `{}` changed the answer of {:?}",
                            info.name, table.id, q.text
                        );
                    }
                    checked += 1;
                }
            }
            assert!(
                applied > 0,
                "{} severity {severity} applies to some fixture",
                info.name
            );
            report.push(format!(
                "{} s{severity}: {applied} charts, {checked} answers",
                info.name
            ));
        }
    }
    assert_eq!(report.len(), default_perturbations().count() * 5);
}

#[test]
fn every_question_perturbation_and_severity_agrees_with_the_executor() {
    let tables = fixture_tables();
    let originals: Vec<(Chart, Vec<Question>)> =
        tables.iter().take(12).filter_map(original).collect();
    for name in perturb::question::available() {
        let info = perturb::question::info(name).unwrap();
        for severity in 1..=5u8 {
            let mut applied = 0;
            for (chart, qs) in &originals {
                for q in qs.iter().filter(|q| q.answerable) {
                    let Some(a) =
                        perturb::question::apply(name, q, &chart.spec, &chart.scene, severity, 5)
                    else {
                        continue;
                    };
                    applied += 1;
                    let new = a.value;
                    assert_eq!(
                        executed(&new.query, chart),
                        new.answer,
                        "{name} s{severity}: {:?}",
                        new.text
                    );
                    match info.effect {
                        AnswerEffect::Preserving => {
                            assert_eq!(new.answer, q.answer, "{name} keeps the answer");
                            assert_eq!(new.query, q.query, "{name} keeps the query");
                            assert_ne!(new.text, q.text, "{name} rewords");
                        }
                        AnswerEffect::Breaking => {
                            assert!(!new.answerable, "{name} makes it unanswerable")
                        }
                        AnswerEffect::Recomputing => assert!(new.question_type != q.question_type),
                    }
                }
            }
            assert!(
                applied > 0,
                "{name} severity {severity} applies to some fixture question"
            );
        }
    }
}

#[test]
fn question_severity_orders_candidates_by_distance() {
    let tables = fixture_tables();
    let (chart, qs) = tables.iter().find_map(original).unwrap();
    let q = qs.iter().find(|q| q.answerable).unwrap();
    let d = |s: u8| {
        perturb::question::apply("lexical", q, &chart.spec, &chart.scene, s, 9)
            .map(|a| a.params["distance"].as_f64().unwrap())
    };
    if let (Some(mild), Some(strong)) = (d(1), d(5)) {
        assert!(
            mild <= strong,
            "severity 1 ({mild}) is no farther than 5 ({strong})"
        );
    }
}

/// A format shift asked for a verdict gives that verdict whenever one of its
/// candidates has it, at every severity (the suite's true/false balance
/// relies on this: the farthest rewordings are mostly false claims).
#[test]
fn fact_check_shift_can_be_asked_for_either_verdict() {
    let tables = fixture_tables();
    let originals: Vec<(Chart, Vec<Question>)> =
        tables.iter().take(12).filter_map(original).collect();
    let mut got = [0usize; 2];
    for (chart, qs) in &originals {
        for q in qs
            .iter()
            .filter(|q| q.answerable && q.question_type != QuestionType::FactCheck)
        {
            for severity in 1..=5u8 {
                for want in [false, true] {
                    let prefer = |c: &Question| c.answer == Answer::TrueFalse { value: want };
                    let Some(a) = perturb::question::apply_preferring(
                        "format_fact_check",
                        q,
                        &chart.spec,
                        &chart.scene,
                        severity,
                        3,
                        &prefer,
                    ) else {
                        continue;
                    };
                    assert_eq!(executed(&a.value.query, chart), a.value.answer);
                    // Without a preferred candidate the unfiltered pick stands.
                    let plain = perturb::question::apply(
                        "format_fact_check",
                        q,
                        &chart.spec,
                        &chart.scene,
                        severity,
                        3,
                    )
                    .unwrap();
                    if prefer(&a.value) {
                        got[usize::from(want)] += 1;
                    } else {
                        assert_eq!(a.value.text, plain.value.text);
                    }
                }
            }
        }
    }
    assert!(got[0] > 20 && got[1] > 20, "{got:?}");
}
