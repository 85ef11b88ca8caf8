//! Golds print exact decimals: no binary float artefacts ("2329.45799999999963",
//! "81.75700000000001"), no more decimals than the precision rule allows, no
//! exponent notation, no "inf"/"NaN" — in answers, options, claims,
//! questions and KPI tiles alike.

use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

use chartstress::ir::decimal::format_fixed;
use chartstress::ir::{Answer, ChartKind, ChartSpec, Query, Scene};
use chartstress::query::execute;
use chartstress::query::testing::{scene_for, series, single, year_table};
use chartstress::questions::{QuestionOptions, generate};
use chartstress::realize::{realize, realizers};
use chartstress::suite::{read_charts, read_items};
use proptest::prelude::*;
use regex::Regex;

/// Runs of six zeros or nines inside a fraction: the mark of a binary
/// value printed with more digits than it has.
fn artefact() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| Regex::new(r"\d\.\d*(0{6,}|9{6,})\d").unwrap())
}

/// A number with more than six decimals.
fn too_long() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| Regex::new(r"\d\.\d{7,}").unwrap())
}

fn not_finite() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| Regex::new(r"\b(NaN|inf|Infinity)\b").unwrap())
}

/// "Round to 16 decimal places": more than six is never asked.
fn many_places() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| Regex::new(r"\b([7-9]|\d\d+) decimal places").unwrap())
}

/// Problems of one printed text, empty when clean.
fn problems(what: &str, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (name, re) in [
        ("float artefact", artefact()),
        ("more than 6 decimals", too_long()),
        ("non-finite number", not_finite()),
        ("too many decimal places asked", many_places()),
    ] {
        if re.is_match(text) {
            out.push(format!("{name} in {what}: {text:?}"));
        }
    }
    out
}

/// The number in an option or gold without unit, sign of currency or separators.
fn bare(text: &str) -> String {
    text.trim()
        .chars()
        .filter(|c| c.is_ascii_digit() || matches!(c, '.' | '-'))
        .collect()
}

/// A printed number has exactly `decimals` decimals and prints back the same.
fn prints_exactly(text: &str, decimals: u8) -> Result<(), String> {
    let b = bare(text);
    if text.contains(['e', 'E']) && text.chars().any(|c| c.is_ascii_digit()) {
        let letters = text.chars().filter(|c| c.is_alphabetic()).count();
        // A unit word may contain an e; a bare exponent may not.
        if letters == 1 {
            return Err(format!("exponent notation: {text:?}"));
        }
    }
    let places = b.split_once('.').map_or(0, |(_, f)| f.len());
    if places != usize::from(decimals) {
        return Err(format!("{text:?} has {places} decimals, not {decimals}"));
    }
    let v: f64 = b.parse().map_err(|_| format!("{text:?} is no number"))?;
    let again = format_fixed(v, decimals);
    if again != b.trim_start_matches('-') && again != b {
        return Err(format!("{text:?} prints back as {again:?}"));
    }
    Ok(())
}

/// A claim's number: at most `decimals` places, none of them a trailing
/// zero, and printed exactly once padded to `decimals`.
fn states_at_most(text: &str, decimals: u8) -> Result<(), String> {
    let b = bare(text);
    let fraction = b.split_once('.').map_or("", |(_, f)| f);
    if fraction.len() > usize::from(decimals) || fraction.ends_with('0') {
        return Err(format!("{text:?} is not said at most {decimals} decimals"));
    }
    let padded = if decimals == 0 {
        b.to_string()
    } else {
        let zeros = usize::from(decimals) - fraction.len();
        let point = if fraction.is_empty() { "." } else { "" };
        format!("{b}{point}{}", "0".repeat(zeros))
    };
    prints_exactly(&padded, decimals)
}

// ---- property: random tables printed at d decimals ----

fn chart_of(columns: Vec<Vec<f64>>, decimals: u8, kind: ChartKind) -> (ChartSpec, Scene) {
    let names = ["Alpha", "Beta"];
    let cols = columns
        .iter()
        .zip(names)
        .map(|(c, n)| {
            let v: Vec<Option<f64>> = c.iter().map(|x| Some(*x)).collect();
            series(n, &v, decimals)
        })
        .collect();
    let table = year_table("rand", 2015, cols);
    let spec = single(&table, kind);
    let scene = scene_for(&spec);
    (spec, scene)
}

/// Values as a table prints them with `d` decimals.
fn arb_columns() -> impl Strategy<Value = (Vec<Vec<f64>>, u8, ChartKind)> {
    (0u8..=7, 4usize..=6, -3i32..=4).prop_flat_map(|(d, n, mag)| {
        let column = proptest::collection::vec(1i64..100_000, n).prop_map(move |ms| {
            ms.into_iter()
                .map(|m| {
                    // Values near 10^mag printed at d decimals.
                    let v = m as f64 * 10f64.powi(mag - 4);
                    format!("{v:.*}", usize::from(d)).parse::<f64>().unwrap()
                })
                .collect::<Vec<f64>>()
        });
        (
            proptest::collection::vec(column, 2),
            Just(d),
            prop_oneof![
                Just(ChartKind::Bar),
                Just(ChartKind::Line),
                Just(ChartKind::Pie)
            ],
        )
    })
}

fn number_answer(a: &Answer) -> Option<u8> {
    match a {
        Answer::Number { decimals, .. } => Some(*decimals),
        _ => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn golds_and_options_print_at_the_stated_decimals((columns, d, kind) in arb_columns(), seed in 0u64..1000) {
        let (spec, scene) = chart_of(columns, d, kind);
        let opts = QuestionOptions { seed, count: 30, ..QuestionOptions::default() };
        for q in generate("rand", &spec, &scene, &opts) {
            let mut texts = vec![("question", q.text.clone()), ("gold", q.answer.to_text())];
            texts.extend(q.choices.iter().map(|c| ("option", c.clone())));
            for t in &q.history {
                texts.push(("history question", t.question.clone()));
                texts.push(("history answer", t.answer.clone()));
            }
            if let Query::FactCheck { claim, .. } = &q.query {
                texts.push(("claim", claim.clone()));
            }
            for r in realizers() {
                if let Some(p) = realize(&q, r, &spec, &scene, seed) {
                    texts.push(("realized question", p.text));
                }
            }
            for (what, t) in &texts {
                let p = problems(what, t);
                prop_assert!(p.is_empty(), "{}", p.join("\n"));
            }
            // The gold, the options and the claim print at the stated decimals.
            if let Some(dec) = number_answer(&q.answer) {
                prop_assert!(dec <= 6, "{} asks {} decimals", q.text, dec);
                if let Err(e) = prints_exactly(&q.answer.to_text(), dec) {
                    prop_assert!(false, "{}: {}", q.text, e);
                }
            }
            let base = execute(q.query.base(), &spec, &scene);
            if let Ok(Some(dec)) = base.as_ref().map(number_answer) {
                prop_assert!(dec <= 6);
                // Values and differences of the table never ask beyond its decimals
                // (an average of whole numbers takes one more).
                if matches!(q.query.base(), Query::ValueAt { .. } | Query::Difference { .. } | Query::Spread { .. } | Query::MaxValue { .. } | Query::MinValue { .. }) {
                    prop_assert!(dec <= d, "{} asks {} decimals of a table printing {}", q.text, dec, d);
                }
                for c in &q.choices {
                    if let Err(e) = prints_exactly(c, dec) {
                        prop_assert!(false, "{}: option {}", q.text, e);
                    }
                }
                // A claim is said as a person says it, without trailing zeros
                // ("622", not "622.0"): padded back, it prints at the decimals.
                if let Query::FactCheck { claim, .. } = &q.query {
                    if let Err(e) = states_at_most(claim, dec) {
                        prop_assert!(false, "{}: claim {}", q.text, e);
                    }
                }
            }
        }
    }
}

// ---- a whole suite from the fixtures, plus a table of awkward decimals ----

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_chartstress"))
}

/// Real-world decimals: 16-decimal ratios, tiny values, and values whose
/// binary forms print with artefacts (2329.458, 1.836, 81.757, 79.425).
const AWKWARD: &str = "Year,Ratio,Tiny,Amount\n\
2019,0.1234567890123456,0.0012345,2329.458\n\
2020,0.2345678901234567,0.0023456,1.836\n\
2021,0.3456789012345678,0.0034567,81.757\n\
2022,0.4567890123456789,0.0045678,79.425\n\
2023,0.5678901234567891,0.0056789,1.2\n";

#[test]
fn a_generated_suite_prints_no_float_artefacts() {
    let tmp = tempfile::tempdir().unwrap();
    let tables = tmp.path().join("tables");
    std::fs::create_dir_all(&tables).unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    for e in std::fs::read_dir(&fixtures).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, tables.join(p.file_name().unwrap())).unwrap();
    }
    std::fs::write(tables.join("awkward_decimals.csv"), AWKWARD).unwrap();
    let out = tmp.path().join("suite");
    let o = bin()
        .arg("generate")
        .arg(&tables)
        .arg("--out")
        .arg(&out)
        .args([
            "--quiet",
            "--seed",
            "5",
            "--charts-per-table",
            "2",
            "--questions-per-chart",
            "8",
        ])
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "generate failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut found = Vec::new();
    let items = read_items(&out).unwrap();
    assert!(items.iter().any(|i| i.table_id.contains("awkward")));
    for it in &items {
        let mut texts = vec![
            ("question", it.question.clone()),
            ("answer_text", it.answer_text.clone()),
        ];
        texts.extend(it.choices.iter().map(|c| ("choice", c.clone())));
        texts.extend(it.history.iter().map(|t| ("history", t.answer.clone())));
        for (what, t) in texts {
            found.extend(problems(&format!("{} {what}", it.id), &t));
        }
        if let Answer::Number { decimals, .. } = &it.answer
            && let Err(e) = prints_exactly(&it.answer_text, *decimals)
        {
            found.push(format!("{}: {e}", it.id));
        }
    }
    let charts = read_charts(&out).unwrap();
    let mut tiles = 0;
    for c in &charts {
        for k in &c.scene.kpis {
            tiles += 1;
            found.extend(problems(&format!("{} kpi", c.id), &k.value));
            if let Some(d) = &k.delta {
                found.extend(problems(&format!("{} kpi delta", c.id), d));
            }
        }
    }
    assert!(tiles > 0, "the suite has dashboards with KPI tiles");
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_checks_catch_what_they_look_for() {
    assert!(!problems("x", "2329.45799999999963").is_empty());
    assert!(!problems("x", "An option 81.75700000000001").is_empty());
    assert!(!problems("x", "Round to 16 decimal places.").is_empty());
    assert!(!problems("x", "0.1234567").is_empty());
    assert!(!problems("x", "NaN").is_empty());
    assert!(problems("x", "Round to two decimal places. 2329.458, $1,000.05").is_empty());
    assert!(prints_exactly("$1,234.50", 2).is_ok());
    assert!(prints_exactly("1.2", 2).is_err());
    assert!(prints_exactly("5e-3", 0).is_err());
}
