//! One sweep of the spec-stage perturbations over a chart: each severity of
//! each perturbation that applies is rendered, and an answer-preserving one
//! must keep every data answer of the chart's questions.

use std::collections::BTreeMap;

use chartstress::ir::{ChartSpec, Scene};
use chartstress::perturb::{self, AnswerEffect, Applied, ChartContext, Info, Stage};
use chartstress::questions::Question;

/// One applied severity: what the perturbation made and what it drew.
pub struct Outcome {
    pub severity: u8,
    pub applied: Applied<ChartSpec>,
    pub scene: Scene,
}

/// Every spec-stage perturbation `keep` accepts, at severities 1..=5, by
/// name (names that never applied are absent). Panics when a result fails
/// to render or an answer-preserving one changes a non-descriptive answer
/// of `questions` (re-executed on the perturbed scene).
pub fn sweep_spec(
    spec: &ChartSpec,
    ctx: &ChartContext<'_>,
    questions: &[Question],
    keep: impl Fn(&Info) -> bool,
) -> BTreeMap<&'static str, Vec<Outcome>> {
    let kind = spec.panels()[0].kind;
    let mut out: BTreeMap<&'static str, Vec<Outcome>> = BTreeMap::new();
    for p in perturb::chart_perturbations() {
        let info = p.info();
        if info.stage != Stage::Spec || !keep(&info) {
            continue;
        }
        for severity in 1..=5u8 {
            let Some(a) = p.apply_spec(spec, severity, ctx) else {
                continue;
            };
            let r = chartstress::render::render(&a.value)
                .unwrap_or_else(|e| panic!("{kind:?} {} s{severity}: {e}", info.name));
            if info.effect == AnswerEffect::Preserving {
                for q in questions {
                    if chartstress::query::is_descriptive(&q.query) {
                        continue;
                    }
                    let query = match a.target_panel {
                        Some(to) => perturb::retarget_panel(&q.query, 0, to),
                        None => q.query.clone(),
                    };
                    let now = chartstress::query::execute(&query, &a.value, &r.scene)
                        .unwrap_or(chartstress::ir::Answer::Unanswerable);
                    assert_eq!(
                        now, q.answer,
                        "{} s{severity} on {kind:?}: {}",
                        info.name, q.text
                    );
                }
            }
            out.entry(info.name).or_default().push(Outcome {
                severity,
                applied: a,
                scene: r.scene,
            });
        }
    }
    out
}

/// Eight answerable questions of a chart (seeded), as the kind tests ask.
pub fn questions_of(chart_id: &str, spec: &ChartSpec) -> Vec<Question> {
    let scene = chartstress::render::render(spec).unwrap().scene;
    let opts = chartstress::questions::QuestionOptions {
        seed: 3,
        count: 8,
        unanswerable_share: 0.0,
        ..Default::default()
    };
    chartstress::questions::generate(chart_id, spec, &scene, &opts)
}
