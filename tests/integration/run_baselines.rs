//! Built-in baselines on a tiny suite: `oracle` (with an injected executor)
//! scores the gold answers and abstains on an unanswerable item, `blind`
//! answers everything without looking and is far from perfect, and `ocr`
//! reads the title and printed values off the PNG with Tesseract.

use std::sync::Arc;

use crate::run_support::*;
use chartstress::adapter::{self, AdapterOptions, OracleFn};
use chartstress::ir::answer::UNANSWERABLE_TEXT;
use chartstress::ir::{Answer, Query};
use chartstress::run::{RunOptions, run_suite};

/// Answers from the chart record only (its table and panel title), the way
/// the real executor does; never from the item's stored answer.
fn test_executor() -> OracleFn {
    Arc::new(|item, record| {
        let panel = record.spec.panels()[0];
        match &item.query {
            Query::ValueAt {
                series, category, ..
            } => {
                let row = panel.table.row_of(category).ok_or("no such category")?;
                let value = panel.table.value(series, row).ok_or("no value")?;
                Ok(Answer::Number {
                    value,
                    decimals: 0,
                    unit: None,
                }
                .to_text())
            }
            Query::Title { .. } => panel.title.clone().ok_or_else(|| "no title".into()),
            _ => Err("unsupported".into()),
        }
    })
}

fn accuracy(suite: &std::path::Path, run: &str) -> f64 {
    let items = items(suite);
    let preds = predictions(suite, run);
    assert_eq!(preds.len(), items.len());
    let right = items
        .iter()
        .zip(&preds)
        .filter(|(i, p)| {
            assert_eq!(i.id, p.id);
            assert!(!p.is_error(), "{p:?}");
            p.answer.eq_ignore_ascii_case(&i.answer_text)
        })
        .count();
    right as f64 / items.len() as f64
}

#[test]
fn oracle_scores_the_gold_answers_and_abstains() {
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 8);
    // One unanswerable item: a category the chart does not have.
    let mut extra = items(&suite)[0].clone();
    extra.id = "q-unanswerable".into();
    extra.question = "What is the value of Sales for Oceania?".into();
    extra.query = Query::ValueAt {
        panel: 0,
        series: "Sales".into(),
        category: "Oceania".into(),
    };
    extra.answer = Answer::Unanswerable;
    extra.answer_text = UNANSWERABLE_TEXT.into();
    extra.answerable = false;
    let mut text = std::fs::read_to_string(suite.join("items.jsonl")).unwrap();
    text.push_str(&serde_json::to_string(&extra).unwrap());
    text.push('\n');
    std::fs::write(suite.join("items.jsonl"), text).unwrap();

    let opts = AdapterOptions {
        oracle_fn: Some(test_executor()),
        ..AdapterOptions::default()
    };
    let oracle = adapter::build("oracle", &opts).unwrap();
    let summary = run_suite(
        &suite,
        oracle,
        &RunOptions {
            progress: false,
            ..RunOptions::default()
        },
    )
    .unwrap();
    assert_eq!(summary.selected, 9);
    assert_eq!(summary.errors, 0);
    assert_eq!(accuracy(&suite, "oracle"), 1.0);
    let preds = predictions(&suite, "oracle");
    assert_eq!(preds.last().unwrap().answer, "Unanswerable");
    assert!(!suite.join("cache").exists(), "baselines are not cached");
}

#[test]
fn oracle_without_an_executor_is_a_configuration_error() {
    let err = adapter::build("oracle", &AdapterOptions::default())
        .err()
        .unwrap();
    assert!(err.to_string().contains("executor"));
}

#[test]
fn blind_answers_everything_without_the_image_and_is_far_from_perfect() {
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 12);
    run_cli(&suite, &["--adapter", "blind"]);
    assert!(accuracy(&suite, "blind") < 0.5);
    let first = std::fs::read_to_string(suite.join("runs/blind/predictions.jsonl")).unwrap();
    // Seeded: a rerun under another name gives the same answers.
    run_cli(&suite, &["--adapter", "blind", "--name", "blind2"]);
    let answers = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["answer"].to_string())
            .collect()
    };
    let second = std::fs::read_to_string(suite.join("runs/blind2/predictions.jsonl")).unwrap();
    assert_eq!(answers(&first), answers(&second));
}

#[test]
fn ocr_reads_titles_and_printed_values() {
    let available = std::process::Command::new("tesseract")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !available {
        if std::env::var_os("CI").is_some() {
            panic!("tesseract is required in CI (scripts/setup.sh installs it)");
        }
        eprintln!("skipping ocr_reads_titles_and_printed_values: tesseract is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 8);
    run_cli(&suite, &["--adapter", "ocr"]);
    let preds = predictions(&suite, "ocr");
    for (item, p) in items(&suite).iter().zip(&preds) {
        assert_eq!(
            p.answer, item.answer_text,
            "{}: OCR said {:?}",
            item.question, p.raw
        );
    }
}

/// A suite generated again into the same folder keeps its item ids; answers
/// given to an earlier version of an item are answered again on resume and
/// count as missing in a report until then — never reused.
#[test]
fn changed_items_are_answered_again_not_reused() {
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 6);
    let oracle = || {
        let opts = AdapterOptions {
            oracle_fn: Some(test_executor()),
            ..AdapterOptions::default()
        };
        adapter::build("oracle", &opts).unwrap()
    };
    let opts = RunOptions {
        progress: false,
        ..RunOptions::default()
    };
    run_suite(&suite, oracle(), &opts).unwrap();
    assert!(
        predictions(&suite, "oracle")
            .iter()
            .all(|p| p.item_hash.is_some())
    );

    // Item 2 now asks about another category, under the same id.
    let mut all = items(&suite);
    all[2].question = "What is the value of Sales for Asia?".into();
    all[2].query = Query::ValueAt {
        panel: 0,
        series: "Sales".into(),
        category: CATEGORIES[0].into(),
    };
    all[2].answer_text = format!("{}", VALUES[0]);
    let text: String = all
        .iter()
        .map(|i| serde_json::to_string(i).unwrap() + "\n")
        .collect();
    std::fs::write(suite.join("items.jsonl"), text).unwrap();

    // The report does not score the stale answer...
    let report =
        chartstress::report::build_report(&suite, &[], chartstress::score::Metric::Relaxed)
            .unwrap();
    let run = &report.runs[0];
    assert!(
        run.warnings.iter().any(|w| w.contains("earlier version")),
        "{:?}",
        run.warnings
    );
    // ...and a resumed run answers exactly that item again.
    let summary = run_suite(&suite, oracle(), &opts).unwrap();
    assert_eq!((summary.stale, summary.skipped, summary.called), (1, 5, 1));
    let preds = predictions(&suite, "oracle");
    assert_eq!(preds.len(), 6);
    let again = preds.iter().find(|p| p.id == all[2].id).unwrap();
    assert_eq!(again.answer, all[2].answer_text);
    assert_eq!(
        again.item_hash.as_deref(),
        Some(all[2].content_hash().as_str())
    );
}
