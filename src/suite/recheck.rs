//! Answer re-checks: the executor's answer on a chart, and the verdict on a
//! question carried onto a perturbed chart.

use super::pipeline::Chart;
use crate::ir::Answer;
use crate::perturb::AnswerEffect;
use crate::questions::Question;

/// The executor's answer, with a refusal read as "unanswerable".
pub(super) fn executed(query: &crate::ir::Query, chart: &Chart) -> Answer {
    crate::query::execute(query, &chart.spec, &chart.scene).unwrap_or(Answer::Unanswerable)
}

pub(super) enum Verdict {
    Keep(Box<Question>),
    Drop(&'static str),
}

/// Re-checks a question on a perturbed chart against the perturbation's declaration.
pub(super) fn recheck(effect: AnswerEffect, q: &Question, chart: &Chart) -> Verdict {
    let now = executed(&q.query, chart);
    if now == q.answer {
        return Verdict::Keep(Box::new(q.clone()));
    }
    // Descriptive answers (title, ticks, legend, source…) are read from the
    // scene, which style changes and clutter legitimately alter, whatever the
    // question's type.
    let effect = if effect == AnswerEffect::Preserving && crate::query::is_descriptive(&q.query) {
        AnswerEffect::Recomputing
    } else {
        effect
    };
    let gone = now == Answer::Unanswerable;
    match effect {
        AnswerEffect::Preserving => Verdict::Drop("preserving_violation"),
        _ if !q.answerable => Verdict::Drop("became_answerable"),
        AnswerEffect::Recomputing if gone => Verdict::Drop("not_visible"),
        _ => {
            let mut out = q.clone();
            out.answerable = !gone;
            out.answer = now;
            Verdict::Keep(Box::new(out))
        }
    }
}
