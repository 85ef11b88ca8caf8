//! How varied and how balanced a set's questions are: the realizers' own
//! vocabulary (words that are not the chart's names or numbers), distinct
//! strings, the spread of lengths, and per family how the answers are
//! distributed (a family whose fact checks are mostly true can be answered
//! without the chart).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::diversity::tokens;
use crate::ir::{Answer, Item};

/// Vocabulary and length figures of a group of questions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LanguageStats {
    pub questions: usize,
    pub distinct_questions: usize,
    /// Word types of the questions that are neither numbers nor words of
    /// the chart's own names (its table, the query's entities, the options).
    pub own_words: usize,
    /// Word types that come from the chart's names.
    pub chart_words: usize,
    pub mean_tokens: f64,
    pub mean_chars: f64,
    /// Tokens per question at the 0th, 10th, 50th, 90th and 100th percentile.
    pub token_percentiles: [usize; 5],
}

/// The words a question may take from its chart rather than from its
/// wording: every string in the query (series, categories, claims, options),
/// the answer, the paragraph and the conversation turns.
pub fn item_chart_words(item: &Item) -> BTreeSet<String> {
    let mut words = BTreeSet::new();
    let mut add = |text: &str| words.extend(tokens(text));
    for (_, text) in item.query.string_fields() {
        add(&text);
    }
    add(&item.answer_text);
    for c in &item.choices {
        add(c);
    }
    if let Some(p) = &item.paragraph {
        add(p);
    }
    for turn in &item.history {
        add(&turn.answer);
    }
    words
}

fn is_number_like(token: &str) -> bool {
    token.chars().any(|c| c.is_ascii_digit())
}

/// Language figures of `items`; `table_words(table_id)` adds the words of
/// the item's table (headers and cells) when the table is at hand, so a
/// preface quoting another series does not count as the realizer's own.
pub fn language_stats<'a>(
    items: impl IntoIterator<Item = &'a Item>,
    table_words: &dyn Fn(&str) -> Option<&'a BTreeSet<String>>,
) -> LanguageStats {
    let mut questions = 0usize;
    let mut distinct = BTreeSet::new();
    let mut own = BTreeSet::new();
    let mut chart = BTreeSet::new();
    let mut lengths = Vec::new();
    let mut chars = 0usize;
    for item in items {
        questions += 1;
        distinct.insert(item.question.as_str());
        chars += item.question.chars().count();
        let names = item_chart_words(item);
        let table = table_words(&item.table_id);
        let words = tokens(&item.question);
        lengths.push(words.len());
        for w in words {
            if is_number_like(&w) {
                continue;
            }
            if names.contains(&w) || table.is_some_and(|t| t.contains(&w)) {
                chart.insert(w);
            } else {
                own.insert(w);
            }
        }
    }
    lengths.sort_unstable();
    let at = |q: f64| {
        if lengths.is_empty() {
            0
        } else {
            lengths[((lengths.len() - 1) as f64 * q).round() as usize]
        }
    };
    let n = questions.max(1) as f64;
    LanguageStats {
        questions,
        distinct_questions: distinct.len(),
        own_words: own.len(),
        chart_words: chart.len(),
        mean_tokens: lengths.iter().sum::<usize>() as f64 / n,
        mean_chars: chars as f64 / n,
        token_percentiles: [at(0.0), at(0.1), at(0.5), at(0.9), at(1.0)],
    }
}

/// How one family's answers are spread: shares a text-only guesser could
/// exploit when far from even.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct FamilyBalance {
    pub items: usize,
    pub unanswerable: usize,
    /// Fact checks: (true, false).
    pub true_false: (usize, usize),
    /// Yes/no answers: (yes, no).
    pub yes_no: (usize, usize),
    /// Multiple choice: how often the correct option is a, b, c, d.
    pub letters: [usize; 4],
    /// Numeric multiple choice: how often the correct option is the
    /// smallest, second, third or largest of the four.
    pub value_rank: [usize; 4],
}

/// The key under which `answer_balance` sums every family.
pub const ALL_FAMILIES: &str = "(all families)";

/// Per family, and over all of them, the answer spread.
pub fn answer_balance<'a>(
    items: impl IntoIterator<Item = &'a Item>,
) -> BTreeMap<String, FamilyBalance> {
    let mut out: BTreeMap<String, FamilyBalance> = BTreeMap::new();
    for item in items {
        for key in [item.family.clone(), ALL_FAMILIES.to_string()] {
            let b = out.entry(key).or_default();
            b.items += 1;
            match &item.answer {
                Answer::Unanswerable => b.unanswerable += 1,
                Answer::TrueFalse { value: true } => b.true_false.0 += 1,
                Answer::TrueFalse { value: false } => b.true_false.1 += 1,
                Answer::YesNo { value: true } => b.yes_no.0 += 1,
                Answer::YesNo { value: false } => b.yes_no.1 += 1,
                Answer::Choice { letter, text } => {
                    let i = (*letter as usize).wrapping_sub('a' as usize);
                    if let Some(slot) = b.letters.get_mut(i) {
                        *slot += 1;
                    }
                    if let Some(rank) = value_rank(&item.choices, text) {
                        b.value_rank[rank] += 1;
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// The correct option's rank among four numeric options (0 = smallest).
fn value_rank(options: &[String], correct: &str) -> Option<usize> {
    if options.len() != 4 {
        return None;
    }
    let values: Vec<f64> = options
        .iter()
        .map(|o| crate::query::parse_number(o))
        .collect::<Option<_>>()?;
    let truth = crate::query::parse_number(correct)?;
    Some(values.iter().filter(|v| **v < truth).count().min(3))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Query;

    fn item(question: &str, query: Query, answer: Answer, choices: &[&str]) -> Item {
        let mut item: Item = serde_json::from_value(serde_json::json!({
            "id": "x", "set": "original", "chart_id": "c", "image": "i.png",
            "table_id": "t", "chart_kind": "bar", "question": question,
            "question_type": "factoid", "family": "value_at",
            "query": {"op": "source", "panel": 0},
            "answer": {"type": "unanswerable"}, "answer_text": "",
            "answer_kind": "text_in_general", "answerable": true,
            "realization": {"realizer": "canonical", "template_id": "t"}
        }))
        .unwrap();
        item.query = query;
        item.answer = answer;
        item.choices = choices.iter().map(|c| c.to_string()).collect();
        item
    }

    #[test]
    fn own_words_leave_out_chart_names_and_numbers() {
        let q = Query::ValueAt {
            panel: 0,
            series: "North Region".into(),
            category: "2019".into(),
        };
        let a = item(
            "Roughly what did North Region reach in 2019, in tonnes?",
            q.clone(),
            Answer::Unanswerable,
            &[],
        );
        let b = item(
            "What is North Region in 2019?",
            q,
            Answer::Unanswerable,
            &[],
        );
        let tonnes: BTreeSet<String> = ["tonnes".to_string()].into();
        let with_table = |_: &str| Some(&tonnes);
        let s = language_stats([&a, &b], &with_table);
        assert_eq!(s.questions, 2);
        assert_eq!(s.distinct_questions, 2);
        // roughly what did reach in is: 6 own words; north, region, tonnes from the chart.
        assert_eq!(s.own_words, 6);
        assert_eq!(s.chart_words, 3);
        assert_eq!(s.token_percentiles[0], 6);
        assert_eq!(s.token_percentiles[4], 10);
    }

    #[test]
    fn balance_counts_truths_letters_and_value_ranks() {
        let base = Query::Source { panel: 0 };
        let mcq = Query::MultipleChoice {
            base: Box::new(base.clone()),
            options: vec![],
        };
        let fact = Query::FactCheck {
            base: Box::new(base),
            claim: "1".into(),
        };
        let items = [
            item("q", fact.clone(), Answer::TrueFalse { value: true }, &[]),
            item("q", fact, Answer::TrueFalse { value: false }, &[]),
            item(
                "q",
                mcq.clone(),
                Answer::Choice {
                    letter: 'b',
                    text: "30%".into(),
                },
                &["10%", "30%", "20%", "40%"],
            ),
            item(
                "q",
                mcq,
                Answer::Choice {
                    letter: 'd',
                    text: "2,000".into(),
                },
                &["1,000", "3,000", "4,000", "2,000"],
            ),
        ];
        let b = answer_balance(&items);
        assert_eq!(b["value_at"].items, 4);
        assert_eq!(b[ALL_FAMILIES].items, 4);
        assert_eq!(b["value_at"].true_false, (1, 1));
        assert_eq!(b["value_at"].letters, [0, 1, 0, 1]);
        assert_eq!(b["value_at"].value_rank, [0, 1, 1, 0]);
    }
}
