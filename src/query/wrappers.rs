//! Question-type wrappers: multiple choice, fact check, hypothetical, conversation.
//! Each is evaluated through its base query, so a changed table changes the
//! letter, the verdict or the hypothetical value with it.

use super::data::judge_number;
use super::{Refusal, RefusalKind, execute, panel_ctx};
use crate::ir::decimal::Decimal;
use crate::ir::query::Query;
use crate::ir::{Answer, ChartSpec, Scene};

/// Whether `option` states `truth`: Some(true) clearly, Some(false) clearly not,
/// None when too close to call.
pub fn states(truth: &Answer, option: &str) -> Option<bool> {
    let o = option.trim();
    match truth {
        Answer::Number {
            value, decimals, ..
        } => super::parse_number(o).and_then(|c| judge_number(*value, *decimals, c)),
        // A period states it in any printed form (`FY23`, `Jan 2023`).
        Answer::Year { value } => Some(
            o.parse::<i32>().ok() == Some(*value)
                || crate::spec::dates::names_period(o, &value.to_string()),
        ),
        Answer::Text { value } => {
            Some(value.trim().eq_ignore_ascii_case(o) || crate::spec::dates::names_period(o, value))
        }
        Answer::List { values } => Some(values.join(", ").eq_ignore_ascii_case(o)),
        Answer::YesNo { value } => Some(if *value { "yes" } else { "no" }.eq_ignore_ascii_case(o)),
        Answer::TrueFalse { value } => {
            Some(if *value { "true" } else { "false" }.eq_ignore_ascii_case(o))
        }
        Answer::Choice { letter, text } => {
            Some(o.eq_ignore_ascii_case(text) || o.eq_ignore_ascii_case(&letter.to_string()))
        }
        Answer::Unanswerable => None,
    }
}

fn answerable(base: &Query, spec: &ChartSpec, scene: &Scene) -> Result<Answer, Refusal> {
    let a = execute(base, spec, scene)?;
    if a == Answer::Unanswerable {
        return Err(Refusal::new(
            RefusalKind::Unsupported,
            "the base question is unanswerable",
        ));
    }
    Ok(a)
}

pub(crate) fn execute_wrapper(
    query: &Query,
    spec: &ChartSpec,
    scene: &Scene,
) -> Result<Answer, Refusal> {
    match query {
        Query::MultipleChoice { base, options } => {
            // An entity the chart does not show makes every option unfounded.
            if execute(base, spec, scene)? == Answer::Unanswerable {
                return Ok(Answer::Unanswerable);
            }
            let truth = answerable(base, spec, scene)?;
            if options.len() < 2 || options.len() > 26 {
                return Err(Refusal::new(
                    RefusalKind::Unsupported,
                    "needs 2..=26 options",
                ));
            }
            let mut correct = None;
            for (i, o) in options.iter().enumerate() {
                match states(&truth, o) {
                    Some(true) if correct.is_none() => correct = Some(i),
                    Some(false) => {}
                    _ => {
                        return Err(Refusal::new(
                            RefusalKind::TooClose,
                            format!("option {o:?} is ambiguous"),
                        ));
                    }
                }
            }
            let i = correct.ok_or_else(|| {
                Refusal::new(RefusalKind::Unsupported, "no option states the answer")
            })?;
            Ok(Answer::Choice {
                letter: (b'a' + i as u8) as char,
                text: options[i].clone(),
            })
        }
        Query::FactCheck { base, claim } => {
            if execute(base, spec, scene)? == Answer::Unanswerable {
                return Ok(Answer::Unanswerable);
            }
            let truth = answerable(base, spec, scene)?;
            match states(&truth, claim) {
                Some(v) => Ok(Answer::TrueFalse { value: v }),
                None => Err(Refusal::new(
                    RefusalKind::TooClose,
                    "the claim is too close to the truth to judge",
                )),
            }
        }
        Query::Hypothetical { base, change } => {
            if super::is_descriptive(base) || base.panel() != change.panel {
                return Err(Refusal::new(
                    RefusalKind::Unsupported,
                    "hypotheticals change the data of the asked panel",
                ));
            }
            // A question about an entity the chart does not show stays
            // unanswerable whatever the change; otherwise the unchanged
            // question must be answerable on the chart as drawn.
            if execute(base, spec, scene)? == Answer::Unanswerable {
                return Ok(Answer::Unanswerable);
            }
            if !change.percent.is_finite() || change.percent <= -100.0 {
                return Err(Refusal::new(RefusalKind::Unsupported, "bad percentage"));
            }
            // 1 + 7.5/100 in decimal is 1.075; in binary it need not print so.
            let factor = Decimal::from_int(1)
                .plus(
                    Decimal::from_f64(change.percent)
                        .over(Decimal::from_int(100))
                        .unwrap_or(Decimal::ZERO),
                )
                .to_f64();
            let mut ctx = panel_ctx(change.panel, spec, scene)?;
            ctx.check_marks = false;
            if !ctx
                .data
                .apply(&change.series, change.category.as_deref(), factor)
            {
                return Err(Refusal::new(
                    RefusalKind::Unsupported,
                    "the change names a cell that is not in the chart",
                ));
            }
            let a = super::execute_data(base, &ctx)?;
            if a == Answer::Unanswerable {
                return Err(Refusal::new(RefusalKind::Unsupported, "unanswerable"));
            }
            if halfway(&a) {
                return Err(Refusal::new(
                    RefusalKind::TooClose,
                    "the changed result falls halfway between two roundings",
                ));
            }
            Ok(a)
        }
        Query::Conversation { turns } => {
            if turns.is_empty() || turns.len() > 4 {
                return Err(Refusal::new(RefusalKind::Unsupported, "needs 1..=4 turns"));
            }
            let mut previous: Option<(Query, Answer)> = None;
            let mut last = Answer::Unanswerable;
            for (i, turn) in turns.iter().enumerate() {
                // Only the asked (last) turn may be about an entity not shown.
                if i + 1 == turns.len()
                    && i > 0
                    && matches!(turn, Query::ValueAt { .. } | Query::Difference { .. })
                    && execute(turn, spec, scene)? == Answer::Unanswerable
                {
                    return Ok(Answer::Unanswerable);
                }
                let a = answerable(turn, spec, scene)?;
                if let Some((pq, pa)) = &previous
                    && refers_to_previous(pq, turn)
                    && let Query::ValueAt { category, .. } = turn
                    && pa.to_text() != *category
                {
                    return Err(Refusal::new(
                        RefusalKind::Unsupported,
                        "a follow-up refers to an earlier answer that changed",
                    ));
                }
                // "The difference between the two" is asked only when it is positive.
                if let (Query::Difference { .. }, Answer::Number { value, .. }) = (turn, &a)
                    && *value < 0.0
                {
                    return Err(Refusal::new(
                        RefusalKind::Unsupported,
                        "a follow-up difference must be positive",
                    ));
                }
                previous = Some((turn.clone(), a.clone()));
                last = a;
            }
            Ok(last)
        }
        _ => Err(Refusal::new(RefusalKind::Unsupported, "not a wrapper")),
    }
}

/// A follow-up "what is its value?" after "which category has the highest X?".
pub fn refers_to_previous(previous: &Query, turn: &Query) -> bool {
    match (previous, turn) {
        (
            Query::Argmax {
                series: Some(s), ..
            }
            | Query::Argmin {
                series: Some(s), ..
            },
            Query::ValueAt { series, .. },
        ) => s == series,
        _ => false,
    }
}

/// Whether a number lies exactly halfway between two roundings at its
/// printed decimals (1,304,887,562 × 1.25 = …452.5): such a result has two
/// right answers. Read in decimal, nine digits past the printed ones, so
/// binary noise (5 × 1.1 = 5.5000000000000004) does not hide the tie.
fn halfway(answer: &Answer) -> bool {
    let Answer::Number {
        value, decimals, ..
    } = answer
    else {
        return false;
    };
    let finer = crate::ir::answer::format_number(*value, decimals.saturating_add(9));
    finer.ends_with("500000000")
}
