//! `import-benchmark chartqa` on tests/data/chartqa/test (ChartQA's layout,
//! built by scripts/make_chartqa_sample.py from real tables): the three sets,
//! the excluded questions, golds equal to the benchmark's labels, re-drawn
//! charts that print the asked values, one declared visible change per
//! modified chart, and a report with original, control and modified.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::{bin, jsonl, run_ok};

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/chartqa/test")
}

/// The benchmark's questions as its files hold them: (question, label, picture).
fn benchmark_questions(dir: &Path) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for file in ["test_augmented.json", "test_human.json"] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let records: Vec<Value> = serde_json::from_str(&text).unwrap();
        for r in records {
            out.push((
                r["query"].as_str().unwrap().to_string(),
                r["label"].as_str().unwrap().to_string(),
                r["imgname"].as_str().unwrap().to_string(),
            ));
        }
    }
    out
}

fn import(dir: &Path, out: &Path) -> std::process::Output {
    bin()
        .args(["import-benchmark", "chartqa"])
        .arg(dir)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// Every string printed in a scene (titles, ticks, labels, legend).
fn printed(scene: &Value, out: &mut Vec<String>) {
    match scene {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|v| printed(v, out)),
        Value::Object(o) => o.values().for_each(|v| printed(v, out)),
        _ => {}
    }
}

fn number(text: &str) -> Option<f64> {
    text.trim()
        .trim_end_matches('%')
        .replace(',', "")
        .parse::<f64>()
        .ok()
}

#[test]
fn chartqa_folder_becomes_original_control_and_modified_sets() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite");
    let out = import(&sample(), &suite);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("kept in original only: 5 questions (visual_reference 5)"),
        "{stdout}"
    );

    let questions = benchmark_questions(&sample());
    let items = jsonl(&suite.join("items.jsonl"));
    let of_set = |set: &str| -> Vec<&Value> { items.iter().filter(|i| i["set"] == set).collect() };
    let originals = of_set("original");
    assert_eq!(originals.len(), questions.len());

    // Every original is the benchmark's question with its label as gold, on
    // its own picture, byte for byte.
    for (q, label, picture) in &questions {
        let item = originals
            .iter()
            .find(|i| i["question"] == q.as_str())
            .unwrap_or_else(|| panic!("no original for {q}"));
        assert_eq!(item["answer_text"], label.as_str(), "{q}");
        let copied = std::fs::read(suite.join(item["image"].as_str().unwrap())).unwrap();
        assert_eq!(
            copied,
            std::fs::read(sample().join("png").join(picture)).unwrap()
        );
    }

    // The questions about one picture stay out of the re-drawn sets.
    let visual: BTreeSet<&str> = [
        "What is the value of the blue line in 2012?",
        "What is the value of the top bar?",
        "Which source is shown in green?",
        "What is the value of the dashed line in 1995?",
        "What is the share of the light blue segment?",
    ]
    .into();
    let redrawn: BTreeSet<&str> = of_set("control")
        .iter()
        .map(|i| i["question"].as_str().unwrap())
        .collect();
    let expected: BTreeSet<&str> = questions
        .iter()
        .map(|(q, _, _)| q.as_str())
        .filter(|q| !visual.contains(q))
        .collect();
    assert_eq!(redrawn, expected);
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(suite.join("suite.json")).unwrap()).unwrap();
    assert_eq!(manifest["counts"]["excluded"]["visual_reference"], 5);
    assert_eq!(manifest["counts"]["set"]["control"], expected.len());
    assert_eq!(manifest["counts"]["set"]["modified_chart"], expected.len());

    let by_id: BTreeMap<&str, &Value> = items
        .iter()
        .map(|i| (i["id"].as_str().unwrap(), i))
        .collect();
    let charts: BTreeMap<String, Value> = jsonl(&suite.join("charts.jsonl"))
        .into_iter()
        .map(|c| (c["id"].as_str().unwrap().to_string(), c))
        .collect();
    for control in of_set("control") {
        let original = by_id[control["origin"].as_str().unwrap()];
        // Same question and gold, another picture, no declared change.
        assert_eq!(control["question"], original["question"]);
        assert_eq!(control["answer"], original["answer"]);
        assert_ne!(control["image"], original["image"]);
        assert!(control.get("perturbations").is_none());
        // A number the table holds is printed on the re-drawn chart: read
        // the scene, not the spec.
        if let Some(gold) = number(control["answer_text"].as_str().unwrap()) {
            let table = std::fs::read_to_string(
                sample()
                    .join("tables")
                    .join(format!("{}.csv", control["table_id"].as_str().unwrap())),
            )
            .unwrap();
            let in_table = table
                .lines()
                .skip(1)
                .flat_map(|l| l.rsplit(',').map(str::to_string).collect::<Vec<_>>())
                .any(|cell| number(&cell) == Some(gold));
            if in_table {
                let mut texts = Vec::new();
                printed(
                    &charts[control["chart_id"].as_str().unwrap()]["scene"],
                    &mut texts,
                );
                assert!(
                    texts.iter().any(|t| number(t) == Some(gold)),
                    "{}: {gold} not printed on the control chart",
                    control["question"]
                );
            }
        }
    }
    for modified in of_set("modified_chart") {
        let control = of_set("control")
            .into_iter()
            .find(|c| c["origin"] == modified["origin"])
            .unwrap();
        assert_eq!(modified["answer"], control["answer"]);
        let perturbations = modified["perturbations"].as_array().unwrap();
        assert_eq!(perturbations.len(), 1, "{modified}");
        let name = perturbations[0]["name"].as_str().unwrap();
        assert!(
            chartstress::suite::BENCHMARK_PERTURBATIONS.contains(&name),
            "{name}"
        );
        // A visible change: the pictures differ in pixels.
        let a = image::open(suite.join(control["image"].as_str().unwrap()))
            .unwrap()
            .to_rgb8();
        let b = image::open(suite.join(modified["image"].as_str().unwrap()))
            .unwrap()
            .to_rgb8();
        assert!(
            a.dimensions() != b.dimensions() || a.as_raw() != b.as_raw(),
            "{name}"
        );
    }
}

#[test]
fn imported_suites_are_reproducible_and_report_against_the_control() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one");
    let two = dir.path().join("two");
    assert!(import(&sample(), &one).status.success());
    let out = bin()
        .env("RAYON_NUM_THREADS", "1")
        .args(["import-benchmark", "chartqa"])
        .arg(sample())
        .arg("--out")
        .arg(&two)
        .output()
        .unwrap();
    assert!(out.status.success());
    let manifest = |p: &Path| std::fs::read_to_string(p.join("suite.json")).unwrap();
    assert_eq!(manifest(&one), manifest(&two));

    run_ok(
        bin()
            .args(["run"])
            .arg(&one)
            .args(["--adapter", "blind", "--name", "blind"]),
    );
    run_ok(bin().args(["report"]).arg(&one));
    let md = std::fs::read_to_string(one.join("report/report.md")).unwrap();
    assert!(
        md.contains("| run | adapter | original | control | modified_chart |")
            || md.contains("| control | "),
        "{md}"
    );
    assert!(md.contains("| original | 25 |"), "{md}");
    assert!(md.contains("| control | 20 |"), "{md}");
    assert!(
        md.contains("| modified_chart vs control | stress | 20 |"),
        "{md}"
    );
}

#[test]
fn unusable_records_pictures_and_tables_are_named_and_change_the_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let bench = dir.path().join("test");
    for sub in ["png", "tables"] {
        std::fs::create_dir_all(bench.join(sub)).unwrap();
        for entry in std::fs::read_dir(sample().join(sub)).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), bench.join(sub).join(entry.file_name())).unwrap();
        }
    }
    std::fs::remove_file(bench.join("tables/two_col_co2.csv")).unwrap();
    std::fs::write(
        bench.join("test_human.json"),
        r#"[
 {"imgname": "two_col_co2.png", "query": "What was the CO2 concentration in 2015?", "label": "400.89"},
 {"imgname": "two_col_disasters.png", "query": "How many people died in floods?"},
 {"imgname": "missing.png", "query": "What is it?", "label": "3"},
 {"imgname": "two_col_disasters.png", "query": "How many people died in floods?", "label": "8356"}
]"#,
    )
    .unwrap();
    std::fs::write(
        bench.join("test_augmented.json"),
        "[{\"imgname\": \"x.png\",",
    )
    .unwrap();
    let suite = dir.path().join("suite");
    let out = import(&bench, &suite);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("test_human.json: record 1: needs non-empty"),
        "{stderr}"
    );
    assert!(
        stderr.contains("test_human.json: record 2: picture `png/missing.png` not found"),
        "{stderr}"
    );
    assert!(
        stderr.contains("test_augmented.json: line 1, column"),
        "{stderr}"
    );
    assert!(
        stderr.contains("chart `two_col_co2`: not re-drawn (no table `tables/two_col_co2.csv`)"),
        "{stderr}"
    );
    let items = jsonl(&suite.join("items.jsonl"));
    let sets: Vec<&str> = items.iter().map(|i| i["set"].as_str().unwrap()).collect();
    // The chart without a table keeps its original; the good one all three.
    assert_eq!(sets, ["original", "original", "control", "modified_chart"]);
}

/// The verified paraphrase stage adds `modified_question` to an imported
/// suite: a rewording that keeps the question's names, numbers and named
/// operation is kept, one that drops the operation is not.
#[test]
fn imported_questions_take_verified_paraphrases() {
    use crate::run_support::{Action, completion, serve};
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite");
    assert!(import(&sample(), &suite).status.success());
    let url = serve(std::sync::Arc::new(|req| {
        let v: Value = serde_json::from_slice(&req.body).unwrap();
        let prompt = v["messages"][0]["content"][0]["text"]
            .as_str()
            .unwrap()
            .to_string();
        let question = prompt
            .rsplit("Question: ")
            .next()
            .unwrap()
            .trim()
            .to_string();
        let reply = if question.contains("average") {
            question.replace("average ", "")
        } else {
            format!("Quick one about this chart: {question}")
        };
        Action::json(200, completion(serde_json::json!(reply)))
    }));
    let out = bin()
        .arg("paraphrase")
        .arg(&suite)
        .args(["--model", "local-test", "--base-url", &url, "--json"])
        .env_remove("OPENAI_API_KEY")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    let questions = benchmark_questions(&sample());
    assert_eq!(summary["asked"], questions.len());
    assert_eq!(summary["kept"], questions.len() - 1, "{summary}");
    assert_eq!(summary["rejected"]["lost the operation"], 1, "{summary}");
    let items = jsonl(&suite.join("items.jsonl"));
    for item in items.iter().filter(|i| i["set"] == "modified_question") {
        let origin = items.iter().find(|o| o["id"] == item["origin"]).unwrap();
        assert_eq!(origin["set"], "original");
        assert_eq!(item["answer"], origin["answer"]);
        assert_eq!(item["image"], origin["image"]);
        assert!(item["question"].as_str().unwrap().starts_with("Quick one"));
    }
}
