//! `blind`: answers from the question text alone — never the image, never the
//! item's answer — with plausible priors per answer type inferred from the
//! wording, seeded from the item id. The chance baseline: whatever it gets
//! right was solvable without looking at the chart.

use std::sync::LazyLock;

use rand::RngExt;
use regex::Regex;

use crate::ir::QuestionType;

use super::{Adapter, AdapterError, AdapterOptions, Request, Response};

pub struct Blind {
    seed: u64,
}

impl Blind {
    pub fn new(opts: &AdapterOptions) -> Blind {
        Blind {
            seed: opts.blind_seed,
        }
    }
}

impl Adapter for Blind {
    fn name(&self) -> &str {
        "blind"
    }

    fn cache_key(&self) -> String {
        format!("blind seed={}", self.seed)
    }

    fn cacheable(&self) -> bool {
        false
    }

    fn settings(&self) -> serde_json::Value {
        serde_json::json!({ "adapter": "blind", "seed": self.seed })
    }

    fn answer(&self, req: &Request) -> Result<Response, AdapterError> {
        let text = guess(
            self.seed,
            &req.item_id,
            &req.question,
            req.question_type,
            req.choices.len(),
        );
        Ok(Response {
            answer: Some(text.clone()),
            text,
            usage: None,
            attempts: 1,
        })
    }
}

static NUMBER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"-?\d[\d,]*(?:\.\d+)?").expect("number regex"));
static YEAR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(1[89]\d\d|20\d\d)\b").expect("year regex"));
// An apostrophe inside a word ("What's the chart's note") opens no quote.
static QUOTED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?:^|[^\w])["“'‘]([^"”'’]{1,40})["”'’](?:[^\w]|$)"#).expect("quote regex")
});
static NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b([A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*)").expect("capitalized regex")
});

const WH_WORDS: [&str; 7] = ["what", "which", "who", "how", "when", "where", "why"];

const YES_NO_STARTS: [&str; 13] = [
    "is", "are", "does", "do", "did", "was", "were", "has", "have", "can", "will", "could", "would",
];

/// Whether the question asks yes or no in any of its clauses ("Based on the
/// chart, is it correct that …?", "Would you agree that …?"): the form a
/// text-only guesser sees, however the question opens.
fn asks_yes_or_no(lower: &str) -> bool {
    // "Could you tell me …?" asks for the thing, not for yes or no.
    const REQUESTS: [&str; 9] = [
        "tell", "give", "show", "list", "name", "pull", "say", "find", "let",
    ];
    lower
        .split([',', '.', ';', ':', '?'])
        .map(|clause| clause.split_whitespace().collect::<Vec<_>>())
        .any(|w| match w.as_slice() {
            [_, "you", verb, ..] if REQUESTS.contains(verb) => false,
            // "Do you know what the source is?" asks for the source; "Do you
            // know whether …?" stays a yes or no.
            [_, "you", "know", wh, ..] if WH_WORDS.contains(wh) => false,
            [first, ..] => YES_NO_STARTS.contains(first),
            [] => false,
        })
}
/// Words that start questions or sentences and are not category names.
const STOP_WORDS: [&str; 16] = [
    "What",
    "Which",
    "Who",
    "When",
    "How",
    "Is",
    "Are",
    "Does",
    "Do",
    "In",
    "The",
    "According",
    "Based",
    "Looking",
    "For",
    "Of",
];

/// The guess for one question; public for tests and for documentation.
pub fn guess(
    seed: u64,
    item_id: &str,
    question: &str,
    question_type: QuestionType,
    n_choices: usize,
) -> String {
    let mut rng = crate::seed::rng(seed, &["blind", item_id]);
    let lower = question.to_lowercase();

    if question_type == QuestionType::MultipleChoice || n_choices > 0 {
        let n = if n_choices == 0 { 4 } else { n_choices.min(26) };
        let letter = (b'a' + rng.random_range(0..n) as u8) as char;
        return letter.to_string();
    }
    if question_type == QuestionType::FactCheck
        || lower.contains("true or false")
        || lower.contains("true/false")
    {
        return if rng.random_bool(0.5) {
            "True"
        } else {
            "False"
        }
        .into();
    }
    if asks_yes_or_no(&lower) {
        return if rng.random_bool(0.5) { "Yes" } else { "No" }.into();
    }
    if lower.contains("which year") || lower.contains("what year") || lower.contains("when ") {
        let years: Vec<&str> = YEAR.find_iter(question).map(|m| m.as_str()).collect();
        if !years.is_empty() {
            return years[rng.random_range(0..years.len())].to_string();
        }
        return rng.random_range(2000..=2023).to_string();
    }
    let numeric = [
        "how many",
        "how much",
        "what is the value",
        "what was the value",
        "difference",
        "ratio",
        "total",
        "sum",
        "average",
        "mean",
        "percentage",
        "percent",
        "share",
        "median",
        "value of",
    ];
    if numeric.iter().any(|k| lower.contains(k)) {
        let numbers: Vec<String> = NUMBER
            .find_iter(question)
            .map(|m| m.as_str().replace(',', ""))
            .filter(|n| !YEAR.is_match(n))
            .collect();
        if !numbers.is_empty() && rng.random_bool(0.5) {
            return numbers[rng.random_range(0..numbers.len())].clone();
        }
        const MAGNITUDES: [&str; 10] = ["1", "2", "5", "10", "12", "20", "25", "50", "100", "1000"];
        return MAGNITUDES[rng.random_range(0..MAGNITUDES.len())].to_string();
    }
    // A text answer: a name the question mentions (quoted or capitalized).
    let mut names: Vec<String> = QUOTED
        .captures_iter(question)
        // Without the sentence's closing stop a quote may carry ('"Ta."'):
        // the guess is a name, and reads the same after answer extraction.
        .map(|c| {
            c[1].trim()
                .trim_end_matches(['.', ',', ';', ':'])
                .to_string()
        })
        .filter(|n| !n.is_empty())
        .collect();
    if names.is_empty() {
        names = NAME
            .captures_iter(question)
            // A word opening a sentence is capitalized whatever it is
            // ("Hey, what's the source?").
            .filter(|c| {
                let at = c.get(1).map_or(0, |m| m.start());
                let before = question[..at].trim_end();
                !(before.is_empty() || before.ends_with(['.', '?', '!', ':']))
            })
            .map(|c| c[1].trim_end_matches(['.', ',', ';', ':']).to_string())
            .filter(|n| !n.is_empty())
            .filter(|n| !STOP_WORDS.contains(&n.as_str()))
            .collect();
    }
    if !names.is_empty() {
        return names[rng.random_range(0..names.len())].clone();
    }
    crate::ir::answer::UNANSWERABLE_TEXT.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guesses_follow_the_question_form() {
        let g = |q: &str, t: QuestionType, n: usize| guess(1, "item-1", q, t, n);
        assert!(["a", "b", "c"].contains(&g("Pick one", QuestionType::MultipleChoice, 3).as_str()));
        assert!(["True", "False"].contains(&g("x", QuestionType::FactCheck, 0).as_str()));
        assert!(["Yes", "No"].contains(&g("Is Asia above 5?", QuestionType::Factoid, 0).as_str()));
        assert_eq!(
            g(
                "In which year between 2001 and 2001 was it highest?",
                QuestionType::Factoid,
                0
            ),
            "2001"
        );
        assert!(
            g("How many units did Asia sell?", QuestionType::Factoid, 0)
                .parse::<f64>()
                .is_ok()
        );
        let text = g(
            "Which region, Europe or Asia, sold more?",
            QuestionType::Factoid,
            0,
        );
        assert!(text == "Europe" || text == "Asia", "{text}");
        // Words opening a sentence are no names; a request is no yes/no question.
        for q in [
            "Hey, what's the source the chart cites?",
            "Would you tell me the data's source?",
            "Do you know what the source of the data is?",
        ] {
            let text = g(q, QuestionType::Descriptive, 0);
            assert!(
                !["Hey", "Would", "Yes", "No"].contains(&text.as_str()),
                "{q}: {text}"
            );
        }
        // However the question opens, a yes/no question is guessed as one.
        for q in [
            "Would you agree that Gas is greater in Spain than in Italy?",
            "Based on the chart, is it correct that Gas in 2020 exceeds Gas in 2021?",
            "Do you know whether Gas is higher in Spain than in Italy?",
        ] {
            assert!(
                ["Yes", "No"].contains(&g(q, QuestionType::Factoid, 0).as_str()),
                "{q}"
            );
        }
        // Apostrophes inside words quote nothing; a quoted name is taken.
        assert_eq!(
            g(
                "What's the wording of the chart's note?",
                QuestionType::Descriptive,
                0
            ),
            crate::ir::answer::UNANSWERABLE_TEXT
        );
        assert_eq!(g("Which bar is 'Oil'?", QuestionType::Factoid, 0), "Oil");
    }

    #[test]
    fn guesses_are_seeded_by_item() {
        let a = guess(3, "i", "Pick", QuestionType::MultipleChoice, 4);
        assert_eq!(a, guess(3, "i", "Pick", QuestionType::MultipleChoice, 4));
        let letters: std::collections::BTreeSet<String> = (0..40)
            .map(|k| guess(3, &k.to_string(), "Pick", QuestionType::MultipleChoice, 4))
            .collect();
        assert!(letters.len() > 1);
    }
}
