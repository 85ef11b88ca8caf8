//! The compat scorers stand on Python builtins (`float()`, `str.strip()`,
//! `str.split()`, `str.upper()`); their stand-ins here are checked against
//! the real `python3` on a few thousand awkward strings: Unicode decimal
//! digits of several scripts, every kind of whitespace Python and Rust
//! disagree on, signs, exponents, underscores, percent signs.

use std::io::Write;
use std::process::{Command, Stdio};

use chartstress::score::pylit::{py_float, py_split, py_strip};
use serde_json::Value;

/// Asks python3 what its builtins make of each string.
const PYTHON: &str = r#"
import json, sys
for line in sys.stdin:
    s = json.loads(line)
    try:
        f = float(s)
        f = repr(f)
    except ValueError:
        f = None
    print(json.dumps({"float": f, "strip": s.strip(), "split": s.split(),
                      "upper_yes": s.upper() == "YES"}))
"#;

/// Awkward strings: pieces of numbers in several digit scripts glued with
/// several kinds of space and punctuation.
fn cases() -> Vec<String> {
    let digits = [
        "12",
        "3.5",
        "١٢",
        "٣٫٥",
        "۱۲",
        "１２",
        "１．５",
        "१२",
        "𝟏𝟐",
        "𝟘𝟙",
        "²",
        "½",
        "Ⅻ",
        "0",
    ];
    let spaces = [
        "", " ", "\t", "\n", "\u{b}", "\u{c}", "\r", "\u{1c}", "\u{1f}", "\u{85}", "\u{a0}",
        "\u{2003}", "\u{3000}", "\u{200b}", "\u{feff}", "\u{7f}",
    ];
    let around = [
        "", "-", "+", "%", "e3", "_0", ".", "e", "inf", "nan", "YES", "yes", "Yeſ",
    ];
    let mut out = Vec::new();
    for d in digits {
        for s in spaces {
            for a in around {
                out.push(format!("{s}{d}{a}{s}"));
                out.push(format!("{a}{d}{s}"));
                out.push(format!("{s}{a}"));
            }
        }
    }
    for d1 in digits {
        for d2 in digits {
            out.push(format!("{d1}{d2}"));
            out.push(format!("{d1}_{d2}"));
            out.push(format!("{d1} {d2}"));
        }
    }
    out.sort();
    out.dedup();
    out
}

fn python_answers(cases: &[String]) -> Option<Vec<Value>> {
    let mut child = Command::new("python3")
        .args(["-c", PYTHON])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    let mut input = String::new();
    for case in cases {
        input.push_str(&serde_json::to_string(case).unwrap());
        input.push('\n');
    }
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(output.status.success(), "python3 failed");
    Some(
        String::from_utf8(output.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect(),
    )
}

/// Python's `repr(float)` of a parsed value, compared through the number.
fn same_float(ours: Option<f64>, python: &Value) -> bool {
    match (ours, python.as_str()) {
        (None, None) => true,
        (Some(a), Some(b)) if a.is_nan() => b == "nan",
        (Some(a), Some(b)) => b.parse::<f64>().is_ok_and(|b| {
            b == a || (a.is_infinite() && b.is_infinite() && a.signum() == b.signum())
        }),
        _ => false,
    }
}

#[test]
fn python_builtins_and_their_stand_ins_agree() {
    let cases = cases();
    let Some(answers) = python_answers(&cases) else {
        panic!("python3 is needed for this test (the README's test command installs it)");
    };
    assert_eq!(answers.len(), cases.len());
    let mut disagreements = Vec::new();
    let mut parsed = 0;
    for (case, python) in cases.iter().zip(&answers) {
        let ours = py_float(case);
        parsed += usize::from(ours.is_some());
        if !same_float(ours, &python["float"]) {
            disagreements.push(format!(
                "float({case:?}): ours {ours:?}, python {}",
                python["float"]
            ));
        }
        if python["strip"].as_str() != Some(py_strip(case)) {
            disagreements.push(format!(
                "{case:?}.strip(): ours {:?}, python {}",
                py_strip(case),
                python["strip"]
            ));
        }
        let split: Vec<&str> = py_split(case).collect();
        let python_split: Vec<&str> = python["split"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        if split != python_split {
            disagreements.push(format!(
                "{case:?}.split(): ours {split:?}, python {python_split:?}"
            ));
        }
        if (case.to_uppercase() == "YES") != python["upper_yes"].as_bool().unwrap() {
            disagreements.push(format!("{case:?}.upper() == 'YES' differs"));
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} of {} cases differ:\n{}",
        disagreements.len(),
        cases.len(),
        disagreements
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    // The cases exercise both outcomes.
    assert!(
        parsed > 500 && parsed < cases.len() - 500,
        "{parsed} of {}",
        cases.len()
    );
}
