//! Scoring free-form JSON records (`chartstress score`).

use crate::ir::QuestionType;
use serde_json::{Map, Value};

use super::{Metric, ScoreContext, parse_question_type, score};

#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("line {line}, column {column}: not valid JSON: {message}")]
    Json {
        line: usize,
        column: usize,
        message: String,
    },
    #[error("line {line}: {message}")]
    Field { line: usize, message: String },
}

fn strings(value: &Value, field: &str, line: usize) -> Result<Vec<String>, RecordError> {
    let bad = || RecordError::Field {
        line,
        message: format!("`{field}` must be a list of strings"),
    };
    value
        .as_array()
        .ok_or_else(bad)?
        .iter()
        .map(|v| v.as_str().map(str::to_string).ok_or_else(bad))
        .collect()
}

/// Scores one JSON line: returns the record with `score` added. `line` is
/// 1-based and only used in messages.
///
/// Fields: `target` (string, or ChartQA Pro's list of turn answers: the last
/// is the target, the others the history), `prediction` (string), optional
/// `question_type`, `year_flags`, `answer_history`, `choices`. ChartQA Pro's
/// names `Answer`, `Question Type` and `Year` are read when ours are absent.
pub fn score_record(
    metric: Metric,
    text: &str,
    line: usize,
) -> Result<(Map<String, Value>, f64), RecordError> {
    let value: Value = serde_json::from_str(text).map_err(|e| RecordError::Json {
        line,
        column: e.column(),
        message: e.to_string(),
    })?;
    let Value::Object(mut record) = value else {
        return Err(RecordError::Field {
            line,
            message: "expected a JSON object".into(),
        });
    };
    let field_err = |message: String| RecordError::Field { line, message };
    // ChartQA Pro's own field names work too, so its files score as they are.
    let field = |ours: &str, theirs: &str| -> Option<Value> {
        record.get(ours).or_else(|| record.get(theirs)).cloned()
    };
    let target_value = field("target", "Answer");
    let question_type_value = field("question_type", "Question Type");
    let year_flags_value = field("year_flags", "Year");
    let mut ctx = ScoreContext::default();
    let target = match &target_value {
        Some(Value::String(s)) => s.clone(),
        Some(v @ Value::Array(_)) => {
            let mut turns = strings(v, "target", line)?;
            let last = turns
                .pop()
                .ok_or_else(|| field_err("`target` is an empty list".into()))?;
            ctx.answer_history = turns;
            last
        }
        Some(_) => return Err(field_err("`target` must be a string".into())),
        None => return Err(field_err("missing `target`".into())),
    };
    let prediction = match record.get("prediction") {
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err(field_err("`prediction` must be a string".into())),
        None => return Err(field_err("missing `prediction`".into())),
    };
    // The reference script takes any split name and any flag: only the exact
    // split `Conversational` and flags whose `upper()` is `YES` mean something.
    let python_reference = metric == Metric::ChartQaProReference;
    match &question_type_value {
        None | Some(Value::Null) => {}
        Some(Value::String(s)) if python_reference => {
            ctx.question_type = (s == "Conversational").then_some(QuestionType::Conversational);
        }
        Some(Value::String(s)) => {
            ctx.question_type = Some(parse_question_type(s).ok_or_else(|| {
                field_err(format!(
                    "unknown question_type `{s}` (expected Factoid, Multi Choice, Fact Checking, \
                     Conversational, Hypothetical, or factoid, multiple_choice, fact_check, \
                     hypothetical, conversational, descriptive)"
                ))
            })?);
        }
        Some(_) => return Err(field_err("`question_type` must be a string".into())),
    }
    if let Some(v) = year_flags_value.as_ref().filter(|v| !v.is_null()) {
        ctx.year_flags = strings(v, "year_flags", line)?;
        if let Some(bad) = ctx.year_flags.iter().find(|f| {
            !python_reference
                && !f.trim().eq_ignore_ascii_case("yes")
                && !f.trim().eq_ignore_ascii_case("no")
        }) {
            return Err(field_err(format!(
                "`year_flags` entries must be YES or NO, got `{bad}`"
            )));
        }
    }
    if let Some(v) = record.get("answer_history").filter(|v| !v.is_null()) {
        ctx.answer_history = strings(v, "answer_history", line)?;
    }
    if let Some(v) = record.get("choices").filter(|v| !v.is_null()) {
        ctx.choices = strings(v, "choices", line)?;
    }
    let s = score(metric, &target, &prediction, &ctx);
    record.insert("score".into(), Value::from(s));
    Ok((record, s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_scored_or_rejected_with_their_line() {
        let (rec, s) = score_record(
            Metric::Relaxed,
            r#"{"target":"5","prediction":"5.1","id":7}"#,
            1,
        )
        .unwrap();
        assert_eq!(s, 1.0);
        assert_eq!(rec["id"], 7);
        assert_eq!(rec["score"], 1.0);
        let err = score_record(Metric::Relaxed, r#"{"prediction":"5"}"#, 3).unwrap_err();
        assert_eq!(err.to_string(), "line 3: missing `target`");
        let err = score_record(Metric::Relaxed, "{oops", 4).unwrap_err();
        assert!(err.to_string().starts_with("line 4, column"));
        let err = score_record(
            Metric::Relaxed,
            r#"{"target":"5","prediction":"5","year_flags":["maybe"]}"#,
            2,
        )
        .unwrap_err();
        assert!(err.to_string().contains("YES or NO"));
        let (_, s) = score_record(
            Metric::ChartQaProReference,
            r#"{"target":["2001","2010"],"prediction":"2011","question_type":"Conversational","year_flags":["NO","YES"]}"#,
            1,
        )
        .unwrap();
        assert_eq!(s, 0.0);
        // A ChartQA Pro record as the dataset writes it.
        let (rec, s) = score_record(
            Metric::ChartQaProReference,
            r#"{"Answer":["2001","2010"],"prediction":"2011","Question Type":"Conversational","Year":["NO","YES"]}"#,
            1,
        )
        .unwrap();
        assert_eq!(s, 0.0);
        assert!(
            rec.get("target").is_none(),
            "records are written back unchanged but for `score`"
        );
        let (_, s) = score_record(
            Metric::ChartQaProReference,
            r#"{"Answer":["2001","2010"],"prediction":"2011","Question Type":"Conversational","Year":["YES","NO"]}"#,
            1,
        )
        .unwrap();
        assert_eq!(s, 1.0);
        // The reference reads any flag: `TRUE` and `Y` are not years, `yes` is
        // (its `upper()` is `YES`); only the exact split `Conversational`
        // keeps the last flag alone.
        let reference = |record: &str| {
            score_record(Metric::ChartQaProReference, record, 1)
                .unwrap()
                .1
        };
        assert_eq!(
            reference(r#"{"target":"2011","prediction":"2011.4","year_flags":["TRUE"]}"#),
            1.0
        );
        assert_eq!(
            reference(r#"{"target":"2011","prediction":"2011.4","year_flags":["Y"]}"#),
            1.0
        );
        assert_eq!(
            reference(r#"{"target":"2011","prediction":"2011.4","year_flags":["yes"]}"#),
            0.0
        );
        assert_eq!(
            reference(
                r#"{"target":"2010","prediction":"2011","question_type":"conversational","year_flags":["YES","NO"]}"#
            ),
            0.0,
            "lower-case `conversational` is another split: the first flag counts"
        );
        assert_eq!(
            reference(
                r#"{"target":"2010","prediction":"2011","question_type":"Chart Reading","year_flags":["NO"]}"#
            ),
            1.0
        );
    }
}
