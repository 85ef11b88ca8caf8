//! Metrics on hand-made cases, including every quirk of the two reference
//! evaluators, and the `score` command on a real file.

use std::process::Command;

use chartstress::ir::{
    Answer, AnswerKind, ChartKind, Item, Prediction, Query, QuestionType, Realization, SetName,
};
use chartstress::score::{Metric, ScoreContext, score, score_item};

fn ctx(qt: Option<QuestionType>, flags: &[&str]) -> ScoreContext {
    ScoreContext {
        question_type: qt,
        year_flags: flags.iter().map(|s| s.to_string()).collect(),
        ..Default::default()
    }
}

fn pro(target: &str, prediction: &str, flags: &[&str]) -> f64 {
    score(
        Metric::ChartQaProReference,
        target,
        prediction,
        &ctx(Some(QuestionType::Factoid), flags),
    )
}

fn pro_qt(target: &str, prediction: &str, qt: QuestionType, flags: &[&str]) -> f64 {
    score(
        Metric::ChartQaProReference,
        target,
        prediction,
        &ctx(Some(qt), flags),
    )
}

fn chartqa(target: &str, prediction: &str) -> f64 {
    score(
        Metric::ChartQa,
        target,
        prediction,
        &ScoreContext::default(),
    )
}

fn relaxed(target: &str, prediction: &str, qt: Option<QuestionType>) -> f64 {
    score(Metric::Relaxed, target, prediction, &ctx(qt, &[]))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

// ---- chartqapro-reference quirks -------------------------------------------

#[test]
fn pro_multiple_choice_and_fact_check_are_not_exact_matched() {
    // The script computes an exact-match flag for these splits but never passes it on.
    let mc = QuestionType::MultipleChoice;
    assert_eq!(pro_qt("a", "A", mc, &["NO"]), 1.0);
    assert_eq!(pro_qt("a", "(a)", mc, &["NO"]), 0.0);
    assert_eq!(pro_qt("a", "a. Paris", mc, &["NO"]), 0.0);
    assert!(close(
        pro_qt("True", "Tru", QuestionType::FactCheck, &["NO"]),
        0.75
    ));
    // relaxed: letters and verdicts are exact, in their usual forms.
    assert_eq!(relaxed("a", "(a)", Some(mc)), 1.0);
    assert_eq!(relaxed("True", "Tru", Some(QuestionType::FactCheck)), 0.0);
}

#[test]
fn pro_strips_periods_at_both_ends() {
    assert_eq!(pro("3.", "3", &["NO"]), 1.0);
    // ".5" loses its leading period and becomes 5.
    assert_eq!(pro("0.5", ".5", &["NO"]), 0.0);
    assert_eq!(relaxed("0.5", ".5", None), 1.0);
    // A period before a trailing newline survives: strip(".") runs before strip("\n").
    assert!(close(pro("abc", "abc.\n", &["NO"]), 0.75));
}

#[test]
fn pro_drops_percent_signs() {
    assert_eq!(pro("50%", "50", &["NO"]), 1.0);
    assert_eq!(pro("50%", "0.5", &["NO"]), 0.0);
    assert_eq!(pro("50%%", "50", &["NO"]), 1.0);
}

#[test]
fn pro_zero_target_needs_exact_zero() {
    assert_eq!(pro("0", "0.0", &["NO"]), 1.0);
    assert_eq!(pro("0", "0.01", &["NO"]), 0.0);
}

#[test]
fn pro_numbers_use_python_float_syntax_only() {
    // No thousands separators: falls back to ANLS on the strings.
    assert!(close(pro("1000", "1,000", &["NO"]), 0.8));
    assert_eq!(pro("1000", "1_000", &["NO"]), 1.0);
    assert_eq!(pro("1000", "1e3", &["NO"]), 1.0);
    // A currency sign is just one more character for ANLS: 1 − 1/5.
    assert!(close(pro("1000", "$1000", &["NO"]), 0.8));
    // NaN is a float to Python, and never within tolerance.
    assert_eq!(pro("nan", "nan", &["NO"]), 0.0);
    assert_eq!(relaxed("1000", "1,000", None), 1.0);
    assert_eq!(relaxed("1000", "$1000", None), 1.0);
}

#[test]
fn pro_year_flags_decide_exactness() {
    assert_eq!(pro("2019", "2000", &["NO"]), 1.0);
    assert_eq!(pro("2019", "2000", &["YES"]), 0.0);
    // The YES path compares strings.
    assert_eq!(pro("2019", "2019.0", &["YES"]), 0.0);
    assert_eq!(pro("2019", " 2019 ", &["yes"]), 1.0);
    // Missing flags (the script would crash) read as NO.
    assert_eq!(pro("2019", "2000", &[]), 1.0);
}

#[test]
fn pro_conversational_uses_the_last_flag() {
    let conv = QuestionType::Conversational;
    assert_eq!(pro_qt("2010", "2011", conv, &["NO", "YES"]), 0.0);
    assert_eq!(pro_qt("2010", "2011", conv, &["YES", "NO"]), 1.0);
    // Other splits use the flags element-wise.
    assert_eq!(pro("2010", "2011", &["YES", "NO"]), 0.0);
}

#[test]
fn pro_short_flag_lists_repeat() {
    assert_eq!(pro("[2019, 2020]", "[2019, 2021]", &["YES"]), 0.5);
    // year_flags * n: the pattern YES, NO repeats, so element 2 is YES again.
    assert!(close(
        pro("[2000, 2000, 2000]", "[2001, 2001, 2001]", &["YES", "NO"]),
        1.0 / 3.0
    ));
}

#[test]
fn pro_unquoted_list_targets_lose_inner_spaces() {
    // "newyork" vs "new york" and "losangeles" vs "los angeles": one edit each.
    let expected = 1.0 - (1.0 / 8.0 + 1.0 / 11.0) / 2.0;
    assert!(close(
        pro(
            "[New York, Los Angeles]",
            "['New York', 'Los Angeles']",
            &["NO"]
        ),
        expected
    ));
    assert_eq!(
        pro(
            "['New York', 'Los Angeles']",
            "['New York', 'Los Angeles']",
            &["NO"]
        ),
        1.0
    );
}

#[test]
fn pro_predictions_split_only_as_python_list_literals() {
    assert_eq!(pro("[a, b]", "['a', 'b']", &["NO"]), 1.0);
    assert_eq!(pro("[a, b]", "[a, b]", &["NO"]), 0.0);
    assert_eq!(pro("[a, b]", "a, b", &["NO"]), 0.0);
    assert_eq!(relaxed("[a, b]", "a, b", None), 1.0);
}

#[test]
fn pro_length_mismatch_scores_zero_per_missing_element() {
    assert!(close(pro("[1, 2]", "[1, 2, 3]", &["NO"]), 2.0 / 3.0));
    assert_eq!(pro("[1, 2]", "[1]", &["NO"]), 0.5);
}

#[test]
fn pro_thousands_separators_split_unquoted_list_targets() {
    // "[1,000, 2,000]" becomes four elements: 1, 000, 2, 000.
    assert_eq!(pro("[1,000, 2,000]", "[1000, 2000]", &["NO"]), 0.0);
    assert_eq!(
        pro("[1,000, 2,000]", "['1', '000', '2', '000']", &["NO"]),
        1.0
    );
}

#[test]
fn pro_empty_list_target_stays_a_string() {
    assert_eq!(pro("[]", "[]", &["NO"]), 1.0);
    assert_eq!(pro("[]", "[1]", &["NO"]), 0.0);
}

#[test]
fn pro_list_elements_go_through_python_str() {
    // "[1.50]" evaluates to [1.5] and prints as "1.5", so the exact path matches.
    assert_eq!(pro("[1.5]", "[1.50]", &["YES"]), 1.0);
    assert_eq!(pro("1.5", "1.50", &["YES"]), 0.0);
}

#[test]
fn pro_anls_package_details() {
    // Threshold is strict: NL = 0.5 scores 0.
    assert_eq!(pro("ab", "ac", &["NO"]), 0.0);
    assert!(close(pro("Paris", "Pariss", &["NO"]), 1.0 - 1.0 / 6.0));
    // Whitespace runs collapse; case is ignored.
    assert_eq!(pro("New York", "new    YORK", &["NO"]), 1.0);
    // Length is measured after upper-casing (ß → SS): 1 − 1/5, not 1 − 1/4.
    assert!(close(pro("aaaß", "aaab", &["NO"]), 0.8));
}

// ---- chartqa (pix2struct relaxed_correctness) quirks -------------------------

#[test]
fn chartqa_percent_means_hundredths() {
    assert_eq!(chartqa("50%", "0.5"), 1.0);
    assert_eq!(chartqa("50%", "50"), 0.0);
    assert_eq!(chartqa("50%%", "0.5"), 1.0);
    assert_eq!(chartqa("50% ", "50%"), 0.0); // "50% " is not a number, so strings are compared
}

#[test]
fn chartqa_zero_target_compares_strings() {
    assert_eq!(chartqa("0", "0"), 1.0);
    assert_eq!(chartqa("0", "0.0"), 0.0);
}

#[test]
fn chartqa_no_stripping_of_text() {
    assert_eq!(chartqa("Paris", "Paris."), 0.0);
    assert_eq!(chartqa("Paris", " Paris"), 0.0);
    assert_eq!(chartqa("Paris", "PARIS"), 1.0);
    // Python's float() itself tolerates whitespace and a trailing point.
    assert_eq!(chartqa("5", " 5 "), 1.0);
    assert_eq!(chartqa("5", "5."), 1.0);
}

#[test]
fn chartqa_numbers() {
    assert_eq!(chartqa("1000", "1,000"), 0.0);
    assert_eq!(chartqa("1000", "1e3"), 1.0);
    assert_eq!(chartqa("1000", "1_000"), 1.0);
    assert_eq!(chartqa("2019", "2000"), 1.0); // years get the 5% tolerance
    assert_eq!(chartqa("100", "105"), 1.0);
    assert_eq!(chartqa("100", "105.1"), 0.0);
    assert_eq!(chartqa("nan", "nan"), 0.0);
    assert_eq!(chartqa("Paris", "5"), 0.0);
}

// ---- relaxed / exact / anls -------------------------------------------------

#[test]
fn relaxed_handles_number_forms_on_both_sides() {
    assert_eq!(relaxed("$1.2M", "1,200,000", None), 1.0);
    assert_eq!(relaxed("1.2 billion", "1.25B", None), 1.0);
    assert_eq!(relaxed("-4", "\u{2212}4", None), 1.0);
    assert_eq!(relaxed("1.5e3", "1500", None), 1.0);
    assert_eq!(relaxed("12.5%", "12.5", None), 1.0);
    assert_eq!(relaxed("0", "0.4", None), 1.0); // rounds to the gold's precision
    assert_eq!(relaxed("0", "0.6", None), 0.0);
    assert_eq!(
        relaxed("Unanswerable", "The chart does not show it", None),
        1.0
    );
    assert_eq!(relaxed("Unanswerable", "42", None), 0.0);
    assert_eq!(
        relaxed("Not Applicable", "N/A", Some(QuestionType::Descriptive)),
        1.0
    );
    assert_eq!(
        relaxed(
            "Not Applicable",
            "Unanswerable",
            Some(QuestionType::Descriptive)
        ),
        0.0
    );
}

#[test]
fn exact_and_anls_metrics() {
    let c = ScoreContext::default();
    assert_eq!(score(Metric::Exact, "Paris", "paris.", &c), 1.0);
    assert_eq!(score(Metric::Exact, "Paris", "Pari", &c), 0.0);
    assert!(close(score(Metric::Anls, "Paris", "pari", &c), 0.8));
    assert_eq!(score(Metric::Anls, "Paris", "Lyon", &c), 0.0);
}

fn item(answer: Answer, qt: QuestionType, choices: Vec<String>) -> Item {
    Item {
        id: "i1".into(),
        set: SetName::Original,
        origin: None,
        chart_id: "c1".into(),
        image: "images/c1.png".into(),
        table_id: "t1".into(),
        chart_kind: ChartKind::Bar,
        question: "q".into(),
        question_type: qt,
        family: "value_at".into(),
        query: Query::ValueAt {
            panel: 0,
            series: "s".into(),
            category: "c".into(),
        },
        answer_text: answer.to_text(),
        answer,
        answer_kind: AnswerKind::NumberInChart,
        answerable: true,
        choices,
        history: vec![],
        paragraph: None,
        realization: Realization::default(),
        perturbations: vec![],
        visual_distance: None,
        reading_change: None,
    }
}

fn pred(answer: &str) -> Prediction {
    Prediction {
        id: "i1".into(),
        raw: format!("The answer is {answer}"),
        answer: answer.into(),
        latency_ms: 1.0,
        usage: None,
        error: None,
        attempts: 1,
        cached: false,
        item_hash: None,
    }
}

#[test]
fn score_item_uses_typed_answers() {
    let it = item(
        Answer::Number {
            value: 3.2,
            decimals: 1,
            unit: Some("million".into()),
        },
        QuestionType::Factoid,
        vec![],
    );
    assert_eq!(score_item(Metric::Relaxed, &it, &pred("3,200,000")), 1.0);
    assert_eq!(score_item(Metric::Relaxed, &it, &pred("3.2")), 1.0);
    assert_eq!(score_item(Metric::ChartQa, &it, &pred("3,200,000")), 0.0);
    let year = item(Answer::Year { value: 2019 }, QuestionType::Factoid, vec![]);
    assert_eq!(score_item(Metric::Relaxed, &year, &pred("2000")), 0.0);
    // The reference derives a YES flag from the typed year.
    assert_eq!(
        score_item(Metric::ChartQaProReference, &year, &pred("2000")),
        0.0
    );
    assert_eq!(score_item(Metric::ChartQa, &year, &pred("2000")), 1.0);
    let choice = item(
        Answer::Choice {
            letter: 'c',
            text: "Lyon".into(),
        },
        QuestionType::MultipleChoice,
        vec!["Paris".into(), "Nice".into(), "Lyon".into()],
    );
    assert_eq!(score_item(Metric::Relaxed, &choice, &pred("C) Lyon")), 1.0);
    assert_eq!(score_item(Metric::Relaxed, &choice, &pred("lyon")), 1.0);
    assert_eq!(score_item(Metric::Relaxed, &choice, &pred("b")), 0.0);
    let mut errored = pred("3.2");
    errored.error = Some("timeout".into());
    assert_eq!(score_item(Metric::Relaxed, &it, &errored), 0.0);
    // An empty extraction falls back to the raw text.
    let mut raw_only = pred("");
    raw_only.raw = "3.2".into();
    assert_eq!(score_item(Metric::Relaxed, &it, &raw_only), 1.0);
}

#[test]
fn score_command_scores_records_in_order_and_names_bad_lines() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.jsonl");
    let output = dir.path().join("out.jsonl");
    std::fs::write(
        &input,
        concat!(
            "{\"id\":1,\"target\":\"50%\",\"prediction\":\"0.5\"}\n",
            "{\"id\":2,\"target\":\"Paris\"}\n",
            "\n",
            "{\"id\":3,\"target\":\"Paris\",\"prediction\":\"paris\"}\n",
        ),
    )
    .unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_chartstress"))
        .args(["score", "--metric", "chartqa"])
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("line 2: missing `prediction`"), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&run.stdout).trim(), "1.0000");
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&output)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["id"], 1);
    assert_eq!(lines[0]["score"], 1.0);
    assert_eq!(lines[1]["id"], 3);

    let ok = Command::new(env!("CARGO_BIN_EXE_chartstress"))
        .args(["score", "--metric", "bogus"])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(ok.status.code(), Some(2));
}

#[test]
fn score_command_skips_a_line_of_invalid_utf8_and_scores_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.jsonl");
    let mut bytes = b"{\"id\":1,\"target\":\"7\",\"prediction\":\"7\"}\n".to_vec();
    bytes.extend_from_slice(b"{\"id\":2,\"target\":\"\xff\xfe\",\"prediction\":\"x\"}\n");
    bytes.extend_from_slice(b"{\"id\":3,\"target\":\"Paris\",\"prediction\":\"Paris\"}\n");
    std::fs::write(&input, bytes).unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_chartstress"))
        .args(["score", "--metric", "chartqa"])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("line 2: invalid UTF-8"), "{stderr}");
    assert!(stderr.contains("2 records scored"), "{stderr}");
    let ids: Vec<i64> = String::from_utf8_lossy(&run.stdout)
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                .as_i64()
                .unwrap()
        })
        .collect();
    assert_eq!(ids, [1, 3]);
}

mod invariants {
    use super::*;
    use proptest::prelude::*;

    fn any_text() -> impl Strategy<Value = String> {
        prop_oneof![
            ".{0,24}",
            "[\\[\\]'\", 0-9a-zA-Z._%$-]{0,24}",
            "\\[[0-9a-z ,.'\"]{0,16}\\]",
            "[-+]?[0-9]{1,6}([.,][0-9]{1,4})?(e[-+]?[0-9])?[%kMB]?",
        ]
    }

    proptest! {
        #[test]
        fn every_metric_stays_in_range_and_never_panics(t in any_text(), p in any_text(), qt in 0usize..7) {
            let question_type = QuestionType::ALL.get(qt).copied();
            let c = ScoreContext { question_type, year_flags: vec!["NO".into()], ..Default::default() };
            for m in Metric::ALL {
                let s = score(m, &t, &p, &c);
                prop_assert!((0.0..=1.0).contains(&s), "{m} {t:?} {p:?} -> {s}");
            }
        }

        #[test]
        fn every_gold_answer_matches_its_own_text(
            value in -1e7f64..1e7,
            decimals in 0u8..4,
            unit in prop_oneof![Just(None), Just(Some("%".to_string())), Just(Some("million".to_string()))],
            year in 1800i32..2100,
            words in proptest::collection::vec("[A-Za-z][a-z]{0,8}", 1..4),
            letter in prop_oneof![Just('a'), Just('b'), Just('c'), Just('d')],
            flag in any::<bool>(),
        ) {
            let answers = vec![
                Answer::Number { value, decimals, unit },
                Answer::Year { value: year },
                Answer::Text { value: words.join(" ") },
                Answer::List { values: words.clone() },
                Answer::List { values: vec![year.to_string(), format!("{value:.1}")] },
                Answer::YesNo { value: flag },
                Answer::TrueFalse { value: flag },
                Answer::Choice { letter, text: words[0].clone() },
                Answer::Unanswerable,
            ];
            for gold in answers {
                let text = gold.to_text();
                let s = chartstress::score::relaxed::score_typed(&gold, &text, &[], &[]);
                prop_assert_eq!(s, 1.0, "{:?} vs {:?}", gold, text);
            }
        }

        #[test]
        fn a_target_matches_itself(t in "[a-zA-Z0-9][a-zA-Z0-9 .,%$]{0,20}") {
            let c = ScoreContext::default();
            prop_assert_eq!(score(Metric::Exact, &t, &t, &c), 1.0);
            // pix2struct's own quirk: "nan" and "inf" never match themselves.
            if chartstress::score::pylit::py_float(&t).is_none_or(f64::is_finite) {
                prop_assert_eq!(score(Metric::ChartQa, &t, &t, &c), 1.0);
            }
            prop_assert_eq!(score(Metric::Relaxed, &t, &t, &c), 1.0, "{:?}", t);
        }
    }
}
