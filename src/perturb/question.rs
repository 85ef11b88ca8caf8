//! Question perturbations: paraphrase realizers, format shifts and the
//! unanswerable rewrite. The chart is unchanged. Each draws 5 seeded
//! candidates and the severity picks by distance from the canonical wording
//! (normalized Levenshtein), closest at 1, farthest at 5.

use super::registry::{FORMATS, PARAPHRASES, UNANSWERABLE, question_infos};
use super::{Applied, Info};
use crate::ir::{ChartSpec, Scene};
use crate::questions::Question;

const CANDIDATES: usize = 5;

/// Names of the question perturbations whose realizer exists in this build.
pub fn available() -> Vec<&'static str> {
    let realizers = crate::realize::realizers();
    question_infos()
        .into_iter()
        .filter(|info| {
            PARAPHRASES
                .iter()
                .find(|(name, _, _)| *name == info.name)
                .is_none_or(|(_, _, realizer)| realizers.contains(realizer))
        })
        .map(|info| info.name)
        .collect()
}

pub fn info(name: &str) -> Option<Info> {
    question_infos().into_iter().find(|i| i.name == name)
}

fn candidate(
    name: &str,
    q: &Question,
    spec: &ChartSpec,
    scene: &Scene,
    seed: u64,
) -> Option<Question> {
    if let Some((_, _, realizer)) = PARAPHRASES.iter().find(|(n, _, _)| *n == name) {
        return crate::realize::realize(q, realizer, spec, scene, seed);
    }
    if let Some((_, to)) = FORMATS.iter().find(|(n, _)| *n == name) {
        // A conversation's earlier turns are part of what it asks: recast
        // as one self-contained question, it would drop them.
        if q.question_type == *to || q.question_type == crate::ir::QuestionType::Conversational {
            return None;
        }
        return crate::questions::reformat(q, *to, spec, scene, seed);
    }
    if name == UNANSWERABLE.name {
        // Another absent entity asked of an unanswerable original is the
        // same task, not a twin that breaks an answerable one.
        if !q.answerable {
            return None;
        }
        let twin = crate::questions::unanswerable_variant(q, spec, scene, seed)?;
        // Worded as often by each realizer as the set's other items are, so
        // an unanswerable item is not the one that kept the original's
        // template (in the set where every other item is reworded, 48% of
        // the canonically worded items were unanswerable, against 7–13% of
        // the reworded ones). The pair is reported as a shifted fact, apart
        // from the robustness gap, so the rewording confounds no gap; the
        // severity ladder still runs from the closest wording to the
        // farthest.
        // One of the wordings that can take this twin, evenly: a wording
        // that cannot (no visual reference for it) leaves it to the others,
        // not to the original's template alone nor to its neighbour in a list.
        let realizers = crate::realize::realizers();
        let mut wordings: Vec<Question> = UNANSWERABLE_WORDINGS
            .iter()
            .filter(|r| realizers.contains(r))
            .filter_map(|r| crate::realize::realize(&twin, r, spec, scene, seed))
            .collect();
        wordings.push(twin);
        let pick = crate::seed::derive(seed, &["unanswerable wording"]) as usize % wordings.len();
        return Some(wordings.swap_remove(pick));
    }
    None
}

/// Realizers an unanswerable twin may be reworded by besides its own: those
/// of the default paraphrase axes.
const UNANSWERABLE_WORDINGS: [&str; 5] = ["lexical", "syntactic", "register", "noisy", "visual"];

/// Whether `b` is `a` with at most two words replaced where they stand
/// (same words around them, same order, same count).
fn words_swapped_in_place(a: &str, b: &str) -> bool {
    let (x, y): (Vec<&str>, Vec<&str>) = (
        a.split_whitespace().collect(),
        b.split_whitespace().collect(),
    );
    x.len() == y.len()
        && x.iter()
            .zip(&y)
            .filter(|(p, q)| !p.eq_ignore_ascii_case(q))
            .count()
            <= 2
}

/// Applies question perturbation `name` at `severity`; `None` when it does
/// not apply to this question (no candidate differs from the original).
pub fn apply(
    name: &str,
    q: &Question,
    spec: &ChartSpec,
    scene: &Scene,
    severity: u8,
    seed: u64,
) -> Option<Applied<Question>> {
    apply_preferring(name, q, spec, scene, severity, seed, &|_| true)
}

/// As `apply`, choosing among the candidates `prefer` takes when there are
/// any (the suite uses it to ask a format shift for the verdict its set
/// needs: the farthest rewordings are mostly false claims, so filtering after
/// the pick would leave high severities unbalanced).
pub fn apply_preferring(
    name: &str,
    q: &Question,
    spec: &ChartSpec,
    scene: &Scene,
    severity: u8,
    seed: u64,
    prefer: &dyn Fn(&Question) -> bool,
) -> Option<Applied<Question>> {
    let info = info(name)?;
    let level = super::level(info.name, severity).ok()?;
    let mut found: Vec<(f64, Question)> = Vec::new();
    for k in 0..CANDIDATES {
        let s = crate::seed::derive(seed, &[name, &k.to_string()]);
        let Some(c) = candidate(name, q, spec, scene, s) else {
            continue;
        };
        if c.text == q.text && c.question_type == q.question_type && c.answer == q.answer {
            continue;
        }
        if found.iter().any(|(_, f)| f.text == c.text) {
            continue;
        }
        // A syntactic rewording reshapes the sentence; one that swaps a
        // word or two in place ("highest" → "top") is a lexical change.
        if info.axis == "syntactic" && words_swapped_in_place(&q.text, &c.text) {
            continue;
        }
        let distance = 1.0 - strsim::normalized_levenshtein(&q.text, &c.text);
        found.push((distance, c));
    }
    if found.iter().any(|(_, c)| prefer(c)) {
        found.retain(|(_, c)| prefer(c));
    }
    if found.is_empty() {
        return None;
    }
    found.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.text.cmp(&b.1.text)));
    let pick = (level * (found.len() - 1) + 2) / 4;
    let (distance, question) = found.swap_remove(pick.min(found.len() - 1));
    let realizer = question.realization.realizer.clone();
    Some(
        Applied::new(question)
            .param("realizer", realizer)
            .param("distance", (distance * 1000.0).round() / 1000.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unanswerable_twins_are_worded_by_the_default_paraphrase_realizers() {
        use super::super::registry::{OPT_IN, PARAPHRASES};
        let mut defaults: Vec<&str> = PARAPHRASES
            .iter()
            .filter(|(name, _, _)| !OPT_IN.contains(name))
            .map(|(_, _, realizer)| *realizer)
            .collect();
        let mut wordings = super::UNANSWERABLE_WORDINGS.to_vec();
        defaults.sort_unstable();
        wordings.sort_unstable();
        assert_eq!(wordings, defaults);
    }

    #[test]
    fn a_word_replaced_in_place_is_no_new_sentence_shape() {
        let q = "What is the highest tick label on the y-axis?";
        assert!(words_swapped_in_place(
            q,
            "What is the top tick label on the y-axis?"
        ));
        assert!(words_swapped_in_place(q, q));
        assert!(!words_swapped_in_place(
            q,
            "On the y-axis, what is the highest tick label?"
        ));
        assert!(!words_swapped_in_place(
            q,
            "Which tick label on the y-axis is the highest?"
        ));
    }
}
