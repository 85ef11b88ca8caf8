//! Generators of hostile input shared by the in-process property tests and
//! the whole-process fuzz run: tables, sidecars and score records built
//! from the shapes that broke loaders, renderers and scorers.

#![allow(dead_code)]

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use serde_json::{Value, json};

pub fn hostile() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("1e308".to_string()),
        Just("-1e308".to_string()),
        Just("9e307".to_string()),
        Just("1e-300".to_string()),
        Just("999999999999999".to_string()),
        Just("-999999999999999".to_string()),
        Just("0.000001".to_string()),
        Just("NaN".to_string()),
        Just("inf".to_string()),
        Just(String::new()),
        Just("NA".to_string()),
        Just("$1,200".to_string()),
        Just("12.5%".to_string()),
        Just("2021-03".to_string()),
        Just("Jan 1 2000".to_string()),
        Just("1999".to_string()),
        "[\\x00-\\x1f]{1,3}",
        (1usize..3000).prop_map(|n| "w".repeat(n)),
        Just("\u{202e}evil<script>".to_string()),
    ]
}

/// A value cell: mostly ordinary numbers, sometimes hostile.
pub fn cell() -> impl Strategy<Value = String> {
    prop_oneof![
        40 => (-1e6f64..1e6).prop_map(|v| format!("{v:.2}")),
        10 => (0u32..3000).prop_map(|v| v.to_string()),
        1 => "[a-z]{1,8}",
        1 => hostile(),
    ]
}

/// A label cell: mostly names, sometimes years, duplicates or hostile text.
pub fn label() -> impl Strategy<Value = String> {
    prop_oneof![
        16 => "[A-Z][a-z]{1,7}",
        4 => (1990u32..2030).prop_map(|y| y.to_string()),
        1 => Just("Same".to_string()),
        1 => hostile(),
    ]
}

pub fn csv_field(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

pub fn table_csv() -> impl Strategy<Value = String> {
    (1usize..6, 2usize..16).prop_flat_map(|(cols, rows)| {
        (
            prop::collection::vec(
                prop_oneof!["[A-Za-z ]{0,10}", Just("year".to_string())],
                cols + 1,
            ),
            prop::collection::vec((label(), prop::collection::vec(cell(), cols)), rows),
        )
            .prop_map(|(headers, rows)| {
                // Distinct, non-empty headers: header errors are tested elsewhere,
                // and most cases should reach shaping and rendering.
                let mut out = headers
                    .iter()
                    .enumerate()
                    .map(|(i, h)| csv_field(&format!("{h}{i}")))
                    .collect::<Vec<_>>()
                    .join(",");
                out.push('\n');
                for (l, r) in rows {
                    let cells = std::iter::once(&l).chain(&r).map(|c| csv_field(c));
                    out.push_str(&cells.collect::<Vec<_>>().join(","));
                    out.push('\n');
                }
                out
            })
    })
}

/// A sidecar as users write them, right or wrong: known keys with values of
/// the right and the wrong types, unknown keys, hostile text, and now and
/// then a file that is not JSON at all.
pub fn sidecar_json() -> impl Strategy<Value = String> {
    let text = || prop_oneof![4 => "[A-Za-z ()%$]{0,24}", 1 => hostile()];
    let anything = move || {
        prop_oneof![
            text().prop_map(Value::from),
            (-1e9f64..1e9).prop_map(Value::from),
            any::<bool>().prop_map(Value::from),
            Just(Value::Null),
            prop::collection::vec(text(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(text(), text(), 0..4).prop_map(|m| json!(m)),
        ]
    };
    let key = prop_oneof![
        Just("title"),
        Just("x_label"),
        Just("y_label"),
        Just("unit"),
        Just("units"),
        Just("source"),
        Just("paragraph"),
        Just("index"),
        Just("series"),
        Just("additive"),
        Just("measure"),
        Just("notes"),
        Just("subtitle"),
    ];
    let typed = (
        prop::collection::btree_map(
            prop_oneof![
                Just("title"),
                Just("x_label"),
                Just("y_label"),
                Just("unit"),
                Just("source"),
                Just("paragraph"),
                Just("measure"),
                Just("index"),
            ],
            text().prop_map(Value::from),
            0..6,
        ),
        prop::option::of(any::<bool>()),
        prop::option::of(prop::collection::vec(text(), 0..3)),
    )
        .prop_map(|(mut fields, additive, notes)| {
            if let Some(a) = additive {
                fields.insert("additive", Value::from(a));
            }
            if let Some(n) = notes {
                fields.insert("notes", Value::from(n));
            }
            fields
        });
    let chaotic = prop::collection::btree_map(key, anything(), 0..8);
    (prop_oneof![3 => typed, 1 => chaotic], 0u8..20).prop_map(|(fields, damage)| {
        let text = serde_json::to_string(&fields).unwrap();
        match damage {
            0 => half(&text),
            1 => "[1, 2".to_string(),
            _ => text,
        }
    })
}

/// The first half of a text: a file cut short.
fn half(text: &str) -> String {
    text.chars().take(text.chars().count() / 2).collect()
}

/// A text a model or a dataset might put in a target or a prediction.
pub fn answer_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[A-Za-z ]{0,12}",
        4 => (-1e6f64..1e6).prop_map(|v| format!("{v}")),
        2 => "[0-9١٢٣４５.,%$ \\x1c\\x1f\\u{a0}-]{0,10}",
        2 => prop::collection::vec("[A-Za-z0-9 .']{0,6}", 0..4).prop_map(|v| format!("[{}]", v.join(", "))),
        1 => (1usize..400).prop_map(|n| format!("{}{}", "[".repeat(n), "]".repeat(n))),
        1 => (1usize..100_000).prop_map(|n| "[".repeat(n)),
        1 => (1usize..20_000).prop_map(|n| "9".repeat(n)),
        1 => hostile(),
        1 => Just("['a', (1, 2), None, True, 0x1F, 1_0.5e3, r'x', u\"y\"]".to_string()),
    ]
}

/// One line of a score file: fields right and wrong, ours and ChartQA Pro's.
pub fn score_line() -> impl Strategy<Value = String> {
    let target = prop_oneof![
        12 => answer_text().prop_map(Value::from),
        2 => prop::collection::vec(answer_text(), 0..4).prop_map(Value::from),
        1 => (-1e9f64..1e9).prop_map(Value::from),
        1 => Just(Value::Null),
    ];
    let prediction = prop_oneof![
        16 => answer_text().prop_map(Value::from),
        1 => (-1e9f64..1e9).prop_map(Value::from),
        1 => Just(Value::Null),
    ];
    let question_type = prop_oneof![
        Just(json!("Factoid")),
        Just(json!("Factoid")),
        Just(json!("Hypothetical")),
        Just(json!("Conversational")),
        Just(json!("conversational")),
        Just(json!("Multi Choice")),
        Just(json!("multiple_choice")),
        Just(json!("Fact Checking")),
        Just(json!("Chart Reading")),
        Just(json!(7)),
        Just(Value::Null),
    ];
    let flags = prop_oneof![
        8 => prop::collection::vec(
            prop_oneof![Just("YES"), Just("NO"), Just("yes"), Just("TRUE"), Just("Y"), Just("")],
            0..4
        )
        .prop_map(|v| json!(v)),
        1 => Just(json!("YES")),
        1 => Just(json!([1, 2])),
        2 => Just(Value::Null),
    ];
    (
        target,
        prediction,
        question_type,
        flags,
        prop::collection::vec(answer_text(), 0..3),
        any::<bool>(),
        0u8..30,
    )
        .prop_map(|(target, prediction, qt, flags, choices, ours, damage)| {
            let mut record = serde_json::Map::new();
            let names = if ours {
                ["target", "question_type", "year_flags"]
            } else {
                ["Answer", "Question Type", "Year"]
            };
            record.insert(names[0].into(), target);
            record.insert("prediction".into(), prediction);
            record.insert(names[1].into(), qt);
            record.insert(names[2].into(), flags);
            record.insert("choices".into(), json!(choices));
            let line = Value::Object(record).to_string();
            match damage {
                0 => half(&line),
                1 => "[]".into(),
                _ => line,
            }
        })
}

/// `n` values of a strategy, the same ones on every run.
pub fn samples<S: Strategy>(strategy: S, n: usize, seed: u8) -> Vec<S::Value> {
    let mut runner = TestRunner::new_with_rng(
        proptest::test_runner::Config::default(),
        proptest::test_runner::TestRng::from_seed(
            proptest::test_runner::RngAlgorithm::ChaCha,
            &[seed; 32],
        ),
    );
    (0..n)
        .map(|_| strategy.new_tree(&mut runner).unwrap().current())
        .collect()
}

/// Whether every number in a JSON value is finite.
pub fn finite_json(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.as_f64().is_some_and(f64::is_finite),
        Value::Array(a) => a.iter().all(finite_json),
        Value::Object(o) => o.values().all(finite_json),
        _ => true,
    }
}
