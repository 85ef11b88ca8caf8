//! Scoring metrics: one prediction against one gold answer, 0..=1.
//!
//! - `relaxed` (default): ChartQA Pro's relaxed accuracy as its paper defines
//!   it, on typed answers ([`relaxed`]).
//! - `chartqapro-reference`: the official ChartQA Pro script, quirks included.
//! - `chartqa`: pix2struct's `relaxed_correctness`, quirks included.
//! - `exact`, `anls`.

pub mod number;
pub mod pylit;
pub mod records;
mod reference;
pub mod relaxed;
pub mod text;

use std::fmt;
use std::str::FromStr;

use crate::ir::{Answer, Item, Prediction, QuestionType};

pub use records::{RecordError, score_record};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Metric {
    #[default]
    Relaxed,
    ChartQaProReference,
    ChartQa,
    Exact,
    Anls,
}

impl Metric {
    pub const ALL: [Metric; 5] = [
        Metric::Relaxed,
        Metric::ChartQaProReference,
        Metric::ChartQa,
        Metric::Exact,
        Metric::Anls,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Metric::Relaxed => "relaxed",
            Metric::ChartQaProReference => "chartqapro-reference",
            Metric::ChartQa => "chartqa",
            Metric::Exact => "exact",
            Metric::Anls => "anls",
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, thiserror::Error)]
#[error("unknown metric `{0}` (expected relaxed, chartqapro-reference, chartqa, exact or anls)")]
pub struct UnknownMetric(pub String);

impl FromStr for Metric {
    type Err = UnknownMetric;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_lowercase().replace('_', "-");
        Metric::ALL
            .into_iter()
            .find(|m| m.name() == wanted)
            .ok_or_else(|| UnknownMetric(s.to_string()))
    }
}

/// What a string-level score may know besides target and prediction.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScoreContext {
    pub question_type: Option<QuestionType>,
    /// ChartQA Pro's `Year` field: "YES"/"NO" per target element (or per turn
    /// for conversational records).
    pub year_flags: Vec<String>,
    /// Gold answers of earlier conversation turns. Scores use only the final
    /// answer, as ChartQA Pro's evaluator does; kept for round-tripping.
    pub answer_history: Vec<String>,
    /// Multiple-choice option texts in letter order, when known.
    pub choices: Vec<String>,
}

/// Reads our question type names and ChartQA Pro's (`Multi Choice`,
/// `Fact Checking`, …).
pub fn parse_question_type(name: &str) -> Option<QuestionType> {
    match name.trim().to_ascii_lowercase().as_str() {
        "multi choice" | "multi-choice" | "multichoice" | "mcq" => {
            Some(QuestionType::MultipleChoice)
        }
        "fact checking" | "fact-checking" | "fact check" => Some(QuestionType::FactCheck),
        _ => QuestionType::from_name(name),
    }
}

/// Score of a prediction string against a target string (0..=1).
pub fn score(metric: Metric, target: &str, prediction: &str, ctx: &ScoreContext) -> f64 {
    match metric {
        Metric::Relaxed => {
            let gold = infer_gold(target, ctx);
            let year_elems = relaxed_year_elems(ctx);
            relaxed::score_typed(&gold, prediction, &ctx.choices, &year_elems)
        }
        Metric::ChartQaProReference => reference::chartqapro(
            target,
            prediction,
            &ctx.year_flags,
            ctx.question_type == Some(QuestionType::Conversational),
        ),
        Metric::ChartQa => reference::chartqa(target, prediction),
        Metric::Exact => f64::from(u8::from(
            text::normalize(target) == text::normalize(prediction),
        )),
        Metric::Anls => text::anls(&text::normalize(target), &text::normalize(prediction)),
    }
}

fn is_yes(flag: &str) -> bool {
    flag.trim().eq_ignore_ascii_case("yes")
}

fn relaxed_year_elems(ctx: &ScoreContext) -> Vec<bool> {
    let flags: &[String] = if ctx.question_type == Some(QuestionType::Conversational) {
        ctx.year_flags
            .last()
            .map(std::slice::from_ref)
            .unwrap_or_default()
    } else {
        &ctx.year_flags
    };
    flags.iter().map(|f| is_yes(f)).collect()
}

/// The typed gold answer a target string stands for, given its context.
pub fn infer_gold(target: &str, ctx: &ScoreContext) -> Answer {
    let t = target.trim();
    if text::is_abstention(t) {
        return Answer::Unanswerable;
    }
    match ctx.question_type {
        Some(QuestionType::MultipleChoice) => {
            if let Some(letter) = text::choice_letter(t) {
                return Answer::Choice {
                    letter,
                    text: String::new(),
                };
            }
        }
        Some(QuestionType::FactCheck) => {
            if let Some(value) = text::verdict(t) {
                return Answer::TrueFalse { value };
            }
        }
        _ => {}
    }
    if t.starts_with('[') && t.ends_with(']') {
        let values = pylit::fixed_target_list(t).unwrap_or_else(|| text::split_list(t));
        if values.len() != 1 {
            return Answer::List { values };
        }
    }
    if let Some(value) = text::verdict(t) {
        return Answer::TrueFalse { value };
    }
    if let Some(value) = text::yes_no(t) {
        return Answer::YesNo { value };
    }
    let year_elems = relaxed_year_elems(ctx);
    if let Some(p) = number::parse_number(t) {
        let flagged_year = year_elems.first().copied();
        let is_year = match flagged_year {
            Some(flag) => flag && p.scale == 1.0 && p.value.fract() == 0.0,
            None => p.bare_integer && number::looks_like_year(t).is_some(),
        };
        if is_year {
            return Answer::Year {
                value: p.value as i32,
            };
        }
        let unit = [
            (1e3, "thousand"),
            (1e6, "million"),
            (1e9, "billion"),
            (1e12, "trillion"),
        ]
        .into_iter()
        .find(|(scale, _)| *scale == p.scale)
        .map(|(_, word)| word);
        return Answer::Number {
            value: p.value,
            decimals: p.decimals,
            unit: unit.map(str::to_string),
        };
    }
    if t.contains(',') || t.contains(';') {
        let values = text::split_list(t);
        if values.len() > 1 && values.iter().all(|v| number::parse_number(v).is_some()) {
            return Answer::List { values };
        }
    }
    Answer::Text {
        value: t.to_string(),
    }
}

/// The gold answer as the reference evaluators' datasets print it: lists in
/// ChartQA Pro's bracket form, everything else as `answer_text`.
fn reference_target(item: &Item) -> String {
    match &item.answer {
        Answer::List { values } => format!("[{}]", values.join(", ")),
        _ => item.answer_text.clone(),
    }
}

/// Year flags the way ChartQA Pro annotates them, derived from a typed answer.
fn reference_year_flags(answer: &Answer) -> Vec<String> {
    let flag = |b: bool| if b { "YES" } else { "NO" }.to_string();
    match answer {
        Answer::Year { .. } => vec![flag(true)],
        Answer::List { values } => values
            .iter()
            .map(|v| flag(number::looks_like_year(v).is_some()))
            .collect(),
        _ => vec![flag(false)],
    }
}

/// The text of a prediction that is scored: the extracted answer, or the
/// raw text when extraction produced nothing.
pub fn prediction_text(prediction: &Prediction) -> &str {
    if prediction.answer.trim().is_empty() {
        &prediction.raw
    } else {
        &prediction.answer
    }
}

/// Score of a prediction for an item (0..=1). Errored predictions score 0;
/// callers count them apart and leave them out of accuracies.
pub fn score_item(metric: Metric, item: &Item, prediction: &Prediction) -> f64 {
    if prediction.is_error() {
        return 0.0;
    }
    let pred = prediction_text(prediction);
    match metric {
        Metric::Relaxed => relaxed::score_typed(&item.answer, pred, &item.choices, &[]),
        _ => {
            let ctx = ScoreContext {
                question_type: Some(item.question_type),
                year_flags: reference_year_flags(&item.answer),
                answer_history: item.history.iter().map(|t| t.answer.clone()).collect(),
                choices: item.choices.clone(),
            };
            score(metric, &reference_target(item), pred, &ctx)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx(qt: Option<QuestionType>, flags: &[&str]) -> ScoreContext {
        ScoreContext {
            question_type: qt,
            year_flags: flags.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        }
    }

    #[test]
    fn metric_names_round_trip() {
        for m in Metric::ALL {
            assert_eq!(m.name().parse::<Metric>().unwrap(), m);
        }
        assert!("bogus".parse::<Metric>().is_err());
        assert_eq!(
            parse_question_type("Multi Choice"),
            Some(QuestionType::MultipleChoice)
        );
        assert_eq!(
            parse_question_type("Fact Checking"),
            Some(QuestionType::FactCheck)
        );
        assert_eq!(
            parse_question_type("Conversational"),
            Some(QuestionType::Conversational)
        );
        assert_eq!(
            parse_question_type("multiple_choice"),
            Some(QuestionType::MultipleChoice)
        );
    }

    #[test]
    fn string_relaxed_infers_types() {
        let none = ctx(None, &[]);
        assert_eq!(score(Metric::Relaxed, "2019", "2018", &none), 0.0);
        assert_eq!(
            score(Metric::Relaxed, "1500", "1510", &ctx(None, &["NO"])),
            1.0
        );
        assert_eq!(
            score(Metric::Relaxed, "1990", "2000", &ctx(None, &["NO"])),
            1.0
        );
        assert_eq!(
            score(Metric::Relaxed, "1990", "2000", &ctx(None, &["YES"])),
            0.0
        );
        let mc = ctx(Some(QuestionType::MultipleChoice), &[]);
        assert_eq!(score(Metric::Relaxed, "b", "(B) Paris", &mc), 1.0);
        assert_eq!(score(Metric::Relaxed, "b", "a", &mc), 0.0);
        let fc = ctx(Some(QuestionType::FactCheck), &[]);
        assert_eq!(score(Metric::Relaxed, "True", "true.", &fc), 1.0);
        assert_eq!(score(Metric::Relaxed, "[a, b]", "a, b", &none), 1.0);
        assert_eq!(
            score(Metric::Relaxed, "1.2 million", "1,200,000", &none),
            1.0
        );
        assert_eq!(
            score(
                Metric::Relaxed,
                "Unanswerable",
                "Not enough information",
                &none
            ),
            1.0
        );
        let conv = ctx(Some(QuestionType::Conversational), &["NO", "YES"]);
        assert_eq!(score(Metric::Relaxed, "2010", "2011", &conv), 0.0);
    }

    #[test]
    fn exact_and_anls() {
        let none = ScoreContext::default();
        assert_eq!(score(Metric::Exact, "Paris", " paris. ", &none), 1.0);
        assert_eq!(score(Metric::Exact, "Paris", "Pariss", &none), 0.0);
        assert!((score(Metric::Anls, "Paris", "Pariss", &none) - 5.0 / 6.0).abs() < 1e-12);
        assert_eq!(score(Metric::Anls, "Paris", "Rome", &none), 0.0);
    }
}
