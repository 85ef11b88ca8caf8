//! Mechanical checks that a model's rewording asks the same thing: every
//! name and number of the original is still there, no number was added, and
//! the asked operation keeps a word that names it.

use crate::ir::{Item, Query, QuestionType};

/// Why a rewording was not kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejection {
    Empty,
    Unchanged,
    /// Longer than four times the original or several paragraphs.
    Rambling,
    MissingEntity(String),
    MissingNumber(String),
    AddedNumber(String),
    /// None of the words that name the asked operation is left.
    LostOperation(&'static str),
    /// The model, given the table, answered the rewording wrongly.
    WrongAnswer(String),
}

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rejection::Empty => write!(f, "empty reply"),
            Rejection::Unchanged => write!(f, "same wording as the original"),
            Rejection::Rambling => write!(f, "not a single question"),
            Rejection::MissingEntity(e) => write!(f, "lost the name {e:?}"),
            Rejection::MissingNumber(n) => write!(f, "lost the number {n}"),
            Rejection::AddedNumber(n) => write!(f, "added the number {n}"),
            Rejection::LostOperation(op) => write!(f, "no longer asks for the {op}"),
            Rejection::WrongAnswer(a) => write!(f, "answered {a:?} given the table"),
        }
    }
}

/// Lower case, letters and digits only, single spaces: "U.S.-made" and
/// "u.s. made" compare equal.
fn normalized(text: &str) -> String {
    let mapped: String = text
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '%' {
                c.to_lowercase().next().unwrap_or(c)
            } else {
                ' '
            }
        })
        .collect();
    let words: Vec<&str> = mapped.split_whitespace().collect();
    format!(" {} ", words.join(" "))
}

/// Numbers written with digits (thousands separators dropped).
fn numbers(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let inside = current.chars().any(|d| d.is_ascii_digit());
        let joins = (c == ',' || c == '.')
            && inside
            && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit());
        if c.is_ascii_digit() || joins {
            if c != ',' {
                current.push(c);
            }
        } else if !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// The names a question must keep: series, categories, claimed values,
/// option texts — every string field of its query but the operation tags.
pub fn entities(item: &Item) -> Vec<String> {
    // An imported question has no query: the names it cites are its own
    // capitalized words (years are checked as numbers).
    if let Query::Imported { .. } = item.query {
        let mut out: Vec<String> = crate::benchmark::screen::cited_words(&item.question)
            .into_iter()
            .map(str::to_string)
            .collect();
        out.sort();
        out.dedup();
        return out;
    }
    const TAGS: [&str; 8] = [
        "op",
        "agg",
        "axis",
        "which",
        "direction",
        "edge",
        "kind",
        "shape",
    ];
    let mut out: Vec<String> = item
        .query
        .string_fields()
        .into_iter()
        .filter(|(key, text)| {
            // A claimed yes or no is worded as a statement, not quoted.
            let verdict = key == "claim"
                && ["yes", "no"].contains(&text.trim().to_ascii_lowercase().as_str());
            !TAGS.contains(&key.as_str()) && !verdict && !text.trim().is_empty()
        })
        .map(|(_, text)| text)
        .collect();
    out.extend(item.choices.iter().cloned());
    out.sort();
    out.dedup();
    out
}

/// Operations a question may ask, with the words of which a rewording must
/// keep one.
const OPERATIONS: &[(&str, &[&str])] = &[
    (
        "difference",
        &[
            "differ",
            "difference",
            "gap",
            "minus",
            "more than",
            "less than",
            "exceed",
            "higher than",
            "lower than",
            "apart",
        ],
    ),
    (
        "ratio",
        &[
            "ratio",
            "times",
            "divided",
            "relative",
            "proportion",
            "per",
            "over",
        ],
    ),
    (
        "percentage change",
        &[
            "percent",
            "%",
            "percentage",
            "grow",
            "growth",
            "change",
            "rise",
            "fall",
            "drop",
        ],
    ),
    (
        "sum",
        &[
            "sum",
            "total",
            "combined",
            "add",
            "altogether",
            "together",
            "overall",
        ],
    ),
    ("mean", &["average", "mean", "typical"]),
    ("median", &["median", "middle"]),
    (
        "maximum",
        &[
            "highest", "largest", "most", "maximum", "max", "peak", "top", "greatest", "biggest",
            "best", "leading",
        ],
    ),
    (
        "minimum",
        &[
            "lowest", "smallest", "least", "minimum", "min", "bottom", "fewest", "worst", "weakest",
        ],
    ),
    ("count", &["how many", "number of", "count"]),
];

/// Words too common to tell, in a question without a query, which
/// operation it asks ("per woman", "over the years", "the total number").
const AMBIGUOUS: &[&str] = &[
    "per",
    "over",
    "top",
    "most",
    "add",
    "change",
    "best",
    "worst",
    "more than",
    "less than",
    "higher than",
    "lower than",
    "together",
    "overall",
    "percent",
    "%",
    "percentage",
    "number of",
    "middle",
    "bottom",
    "fall",
    "drop",
    "rise",
];

fn operation(name: &str) -> Option<(&'static str, &'static [&'static str])> {
    OPERATIONS.iter().find(|(n, _)| *n == name).copied()
}

/// The operation the item's query asks, if it is one a wording must name.
fn operation_words(item: &Item) -> Option<(&'static str, &'static [&'static str])> {
    let name = match item.query.base() {
        Query::Difference { .. } => "difference",
        Query::Ratio { .. } => "ratio",
        Query::PercentChange { .. } => "percentage change",
        Query::Aggregate { agg, .. } => match agg {
            crate::ir::query::AggregateOp::Sum => "sum",
            crate::ir::query::AggregateOp::Mean => "mean",
            crate::ir::query::AggregateOp::Median => "median",
        },
        Query::Argmax { .. } | Query::MaxValue { .. } => "maximum",
        Query::Argmin { .. } | Query::MinValue { .. } => "minimum",
        Query::CountThreshold { .. } => "count",
        _ => return None,
    };
    operation(name)
}

/// The operations a question without a query (an imported benchmark's)
/// names in its own words: each must stay named in a rewording.
fn operations_named(question: &str) -> Vec<(&'static str, &'static [&'static str])> {
    let text = normalized(question);
    OPERATIONS
        .iter()
        .filter(|(_, words)| {
            words
                .iter()
                .filter(|w| !AMBIGUOUS.contains(w))
                .any(|w| text.contains(&format!(" {w} ")))
        })
        .copied()
        .collect()
}

/// Checks `candidate` against the item it rewords.
pub fn check(item: &Item, candidate: &str) -> Result<(), Rejection> {
    let text = candidate.trim();
    if text.is_empty() {
        return Err(Rejection::Empty);
    }
    let (new, old) = (normalized(text), normalized(&item.question));
    if new == old {
        return Err(Rejection::Unchanged);
    }
    if text.chars().count() > item.question.chars().count() * 4 + 40 || text.contains("\n\n") {
        return Err(Rejection::Rambling);
    }
    for entity in entities(item) {
        let e = normalized(&entity);
        if e.trim().is_empty() {
            continue;
        }
        // Numbers are checked as numbers (a rewording may drop "$" or "%").
        if numbers(&entity).concat() == e.trim().replace(['%', ' '], "") {
            continue;
        }
        if !new.contains(&e) {
            return Err(Rejection::MissingEntity(entity));
        }
    }
    let (before, after) = (numbers(&item.question), numbers(text));
    if let Some(lost) = before.iter().find(|n| !after.contains(n)) {
        return Err(Rejection::MissingNumber(lost.clone()));
    }
    if let Some(added) = after.iter().find(|n| !before.contains(n)) {
        return Err(Rejection::AddedNumber(added.clone()));
    }
    let asked = match item.query {
        Query::Imported { .. } => operations_named(&item.question),
        _ => operation_words(item).into_iter().collect(),
    };
    for (name, words) in asked {
        if !words.iter().any(|w| new.contains(&format!(" {w}"))) {
            return Err(Rejection::LostOperation(name));
        }
    }
    let verdict_words = [
        "true",
        "false",
        "correct",
        "right",
        "accurate",
        "wrong",
        "incorrect",
    ];
    if item.question_type == QuestionType::FactCheck
        && !verdict_words.iter().any(|w| new.contains(&format!(" {w}")))
    {
        return Err(Rejection::LostOperation("verdict"));
    }
    let rounding = ["decimal", "round", "places", "place"];
    if rounding.iter().any(|w| old.contains(&format!(" {w}")))
        && !rounding.iter().any(|w| new.contains(&format!(" {w}")))
    {
        return Err(Rejection::LostOperation("rounding"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(question: &str, query: serde_json::Value, choices: &[&str]) -> Item {
        serde_json::from_value(serde_json::json!({
            "id": "x", "set": "original", "chart_id": "c", "image": "i.png",
            "table_id": "t", "chart_kind": "bar", "question": question,
            "question_type": if choices.is_empty() { "factoid" } else { "multiple_choice" },
            "family": "difference", "query": query,
            "answer": {"type": "unanswerable"}, "answer_text": "",
            "answer_kind": "number_in_chart", "answerable": true, "choices": choices,
            "realization": {"realizer": "canonical", "template_id": "t"}
        }))
        .unwrap()
    }

    fn difference() -> Item {
        item(
            "What is the difference in North between 2021 and 2018?",
            serde_json::json!({"op": "difference", "panel": 0,
                "a": {"series": "North", "category": "2021"},
                "b": {"series": "North", "category": "2018"}}),
            &[],
        )
    }

    #[test]
    fn a_faithful_rewording_passes() {
        let q = difference();
        assert_eq!(
            check(
                &q,
                "By how much did North's figure in 2021 differ from 2018?"
            ),
            Ok(())
        );
        assert_eq!(check(&q, "north: gap between 2021 and 2018?"), Ok(()));
    }

    #[test]
    fn lost_names_numbers_and_operations_are_caught() {
        let q = difference();
        assert_eq!(
            check(&q, "What is the difference between 2021 and 2018?"),
            Err(Rejection::MissingEntity("North".into()))
        );
        assert_eq!(
            check(&q, "How did North change from 2018 to 2022?"),
            Err(Rejection::MissingNumber("2021".into()))
        );
        assert_eq!(
            check(&q, "What was North in 2021 and in 2018, roughly 15?"),
            Err(Rejection::AddedNumber("15".into()))
        );
        assert_eq!(
            check(&q, "What were North's values in 2021 and 2018?"),
            Err(Rejection::LostOperation("difference"))
        );
        assert_eq!(check(&q, "  "), Err(Rejection::Empty));
        assert_eq!(
            check(&q, "what is the difference in north between 2021 and 2018"),
            Err(Rejection::Unchanged)
        );
    }

    #[test]
    fn options_must_all_survive() {
        let q = item(
            "What is the value of North in 2020? Options: a) 1,200, b) 900, c) 1,500, d) 600",
            serde_json::json!({"op": "multiple_choice",
                "base": {"op": "value_at", "panel": 0, "series": "North", "category": "2020"},
                "options": ["1,200", "900", "1,500", "600"]}),
            &["1,200", "900", "1,500", "600"],
        );
        assert_eq!(
            check(&q, "Pick North's 2020 value: a) 1200 b) 900 c) 1500 d) 600"),
            Ok(())
        );
        assert_eq!(
            check(&q, "Pick North's 2020 value: a) 1200 b) 900 c) 1500"),
            Err(Rejection::MissingNumber("600".into()))
        );
    }

    #[test]
    fn imported_questions_keep_their_names_numbers_and_named_operations() {
        let q = item(
            "What is the average fertility rate of Japan across all years?",
            serde_json::json!({"op": "imported", "benchmark": "chartqa/test"}),
            &[],
        );
        assert_eq!(entities(&q), ["Japan"]);
        assert_eq!(
            check(
                &q,
                "Across every year shown, what is Japan's mean fertility rate?"
            ),
            Ok(())
        );
        assert_eq!(
            check(&q, "What is Japan's fertility rate across all years?"),
            Err(Rejection::LostOperation("mean"))
        );
        assert_eq!(
            check(&q, "What is the average fertility rate across all years?"),
            Err(Rejection::MissingEntity("Japan".into()))
        );
        let q = item(
            "How much electricity came from renewables in 2016?",
            serde_json::json!({"op": "imported", "benchmark": "chartqa/test"}),
            &[],
        );
        assert_eq!(
            check(&q, "In 2016, how much power did renewables supply?"),
            Ok(())
        );
        assert_eq!(
            check(&q, "In 2015, how much power did renewables supply?"),
            Err(Rejection::MissingNumber("2016".into()))
        );
        // "per" and "over" alone do not make a question a ratio.
        let q = item(
            "What was the fertility rate per woman in India over 2000?",
            serde_json::json!({"op": "imported", "benchmark": "chartqa/test"}),
            &[],
        );
        assert_eq!(
            check(&q, "In 2000, how many births did a woman in India have?"),
            Ok(())
        );
    }
}
