//! Reports and the CI gate on hand-built suites: numbers recomputed here
//! from the predictions the test wrote, determinism, escaping, exit codes.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Command;

use chartstress::ir::{
    Answer, AnswerKind, ChartKind, Item, Perturbation, Prediction, Query, QuestionType,
    Realization, SetName,
};

const HOSTILE_Q: &str = "What is <script>alert('q')</script> the title?";
const HOSTILE_P: &str = "<img src=x onerror=alert(1)>";

struct Expect {
    /// id → Some(right) for scored items, None for errors.
    outcome: BTreeMap<String, Option<bool>>,
    items: Vec<Item>,
}

fn base_item(id: &str, set: SetName, origin: Option<&str>, chart: usize, title: bool) -> Item {
    let (query, answer, family, kind) = if title {
        (
            Query::Title { panel: 0 },
            Answer::Text {
                value: format!("Sales of region {chart}"),
            },
            "title",
            AnswerKind::TextInChart,
        )
    } else {
        (
            Query::ValueAt {
                panel: 0,
                series: "sales".into(),
                category: format!("cat{chart}"),
            },
            Answer::Number {
                value: 10.0 + chart as f64,
                decimals: 0,
                unit: None,
            },
            "value_at",
            AnswerKind::NumberInChart,
        )
    };
    Item {
        id: id.into(),
        set,
        origin: origin.map(str::to_string),
        chart_id: format!("c{chart:02}"),
        image: format!("images/c{chart:02}.png"),
        table_id: format!("t{chart:02}"),
        chart_kind: if chart % 2 == 0 {
            ChartKind::Bar
        } else {
            ChartKind::Line
        },
        question: if title && chart == 0 {
            HOSTILE_Q.into()
        } else {
            format!("Question {id}?")
        },
        question_type: QuestionType::Factoid,
        family: family.into(),
        query,
        answer_text: answer.to_text(),
        answer,
        answer_kind: kind,
        answerable: true,
        choices: vec![],
        history: vec![],
        paragraph: None,
        realization: Realization {
            realizer: if set == SetName::ModifiedQuestion {
                "lexical"
            } else {
                "canonical"
            }
            .into(),
            template_id: "t".into(),
            transforms: vec![],
        },
        perturbations: vec![],
        visual_distance: None,
        reading_change: None,
    }
}

fn perturbation(axis: &str, severity: u8) -> Perturbation {
    Perturbation {
        axis: axis.into(),
        name: format!("{axis}_x"),
        severity,
        change: Default::default(),
        params: Default::default(),
    }
}

/// 12 charts × 2 originals, each with a modified_chart (axis theme) and a
/// modified_question (axis lexical) item. Right/wrong follows fixed rules.
fn build_suite(dir: &Path) -> Expect {
    fs::create_dir_all(dir.join("images")).unwrap();
    let mut items = Vec::new();
    for chart in 0..12 {
        let mut img = image::RgbImage::new(4, 4);
        img.put_pixel(0, 0, image::Rgb([chart as u8 * 20, 0, 0]));
        img.save(dir.join(format!("images/c{chart:02}.png")))
            .unwrap();
        for title in [false, true] {
            let oid = format!("o{chart:02}{}", u8::from(title));
            items.push(base_item(&oid, SetName::Original, None, chart, title));
            let mut mc = base_item(
                &format!("m{chart:02}{}", u8::from(title)),
                SetName::ModifiedChart,
                Some(&oid),
                chart,
                title,
            );
            mc.perturbations = vec![perturbation("theme", (chart % 3) as u8 + 1)];
            items.push(mc);
            let mut mq = base_item(
                &format!("q{chart:02}{}", u8::from(title)),
                SetName::ModifiedQuestion,
                Some(&oid),
                chart,
                title,
            );
            mq.perturbations = vec![perturbation("lexical", (chart % 5) as u8 + 1)];
            items.push(mq);
        }
    }
    let mut lines = String::new();
    for item in &items {
        lines.push_str(&serde_json::to_string(item).unwrap());
        lines.push('\n');
    }
    fs::write(dir.join("items.jsonl"), lines).unwrap();
    fs::write(
        dir.join("suite.json"),
        r#"{"tool_version":"test","seed":42,"config":{},"counts":{},"fingerprint":"abc"}"#,
    )
    .unwrap();
    Expect {
        outcome: BTreeMap::new(),
        items,
    }
}

fn gold_or_wrong(item: &Item, right: bool) -> String {
    if right {
        item.answer_text.clone()
    } else if item.chart_id == "c00" && item.family == "title" {
        HOSTILE_P.into()
    } else {
        match &item.answer {
            Answer::Number { value, .. } => format!("{}", value * 2.0),
            _ => "something else entirely".into(),
        }
    }
}

/// Writes a run whose right/wrong pattern is `rule(item index)`; item 5 is an
/// error, item 7 has no prediction, the file ends in a torn line.
fn write_run(dir: &Path, name: &str, expect: &mut Expect, rule: impl Fn(usize, &Item) -> bool) {
    let run = dir.join("runs").join(name);
    fs::create_dir_all(&run).unwrap();
    let mut out = String::new();
    expect.outcome.clear();
    for (i, item) in expect.items.iter().enumerate() {
        if i == 7 {
            continue;
        }
        let right = rule(i, item);
        let mut p = Prediction {
            id: item.id.clone(),
            raw: format!("Answer: {}", gold_or_wrong(item, right)),
            answer: gold_or_wrong(item, right),
            latency_ms: 3.0,
            usage: None,
            error: None,
            attempts: 1,
            cached: false,
            item_hash: None,
        };
        if i == 5 {
            p.error = Some("HTTP 500".into());
            p.answer.clear();
            p.raw.clear();
            expect.outcome.insert(item.id.clone(), None);
        } else {
            expect.outcome.insert(item.id.clone(), Some(right));
        }
        out.push_str(&serde_json::to_string(&p).unwrap());
        out.push('\n');
    }
    out.push_str("{\"id\":\"o0000\",\"raw\":\"tor");
    fs::write(run.join("predictions.jsonl"), out).unwrap();
    fs::write(
        run.join("run.json"),
        format!(r#"{{"adapter":"{name}-adapter"}}"#),
    )
    .unwrap();
}

/// Items come in triples (original, modified_chart, modified_question), so
/// the rules work on the triple's index.
fn strong_rule(i: usize, item: &Item) -> bool {
    let idx = i / 3;
    match item.set {
        SetName::Original => idx % 7 != 3,
        SetName::ModifiedChart => idx % 4 != 1,
        _ => idx % 2 == 0,
    }
}

fn weak_rule(i: usize, item: &Item) -> bool {
    let idx = i / 3;
    match item.set {
        SetName::Original => idx % 3 != 0,
        SetName::ModifiedChart => idx % 3 == 1,
        _ => idx % 5 < 2,
    }
}

fn binom_p(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    let choose = |n: u64, k: u64| -> f64 {
        (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
    };
    let tail: f64 = (0..=b.min(c)).map(|k| choose(n, k)).sum::<f64>() / 2f64.powi(n as i32);
    (2.0 * tail).min(1.0)
}

fn wilson(k: f64, n: f64) -> (f64, f64) {
    let z: f64 = 1.959_963_984_540_054;
    let p = k / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z / d * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    (100.0 * (c - h).max(0.0), 100.0 * (c + h).min(1.0))
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_chartstress"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn report_numbers_match_an_independent_recount() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("suite");
    let mut expect = build_suite(&suite);
    write_run(&suite, "strong", &mut expect, strong_rule);
    let strong = expect.outcome.clone();
    write_run(&suite, "weak", &mut expect, weak_rule);
    let weak = expect.outcome.clone();

    let status = bin().arg("report").arg(&suite).output().unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(suite.join("report/report.json")).unwrap())
            .unwrap();
    assert_eq!(json["metric"], "relaxed");
    assert_eq!(json["bootstrap_seed"], 42);
    let runs = json["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    for (run, outcome) in runs.iter().zip([&strong, &weak]) {
        assert_eq!(run["items"], 72);
        assert_eq!(run["errors"], 1);
        assert_eq!(run["missing"], 1);
        assert_eq!(run["scored"], 70);
        assert!(
            run["warnings"][0]
                .as_str()
                .unwrap()
                .contains("torn last line")
        );
        for set in &[
            SetName::Original,
            SetName::ModifiedChart,
            SetName::ModifiedQuestion,
        ] {
            let ids: Vec<&Item> = expect.items.iter().filter(|i| i.set == *set).collect();
            let scored: Vec<bool> = ids
                .iter()
                .filter_map(|i| outcome.get(&i.id).copied().flatten())
                .collect();
            let k = scored.iter().filter(|r| **r).count() as f64;
            let n = scored.len() as f64;
            let s = run["sets"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["set"] == set.name())
                .unwrap();
            assert_eq!(s["scored"].as_u64().unwrap() as f64, n, "{}", set.name());
            assert!(
                close(s["accuracy"].as_f64().unwrap(), 100.0 * k / n),
                "{} accuracy",
                set.name()
            );
            let (lo, hi) = wilson(k, n);
            assert!(
                close(s["ci"]["low"].as_f64().unwrap(), lo)
                    && close(s["ci"]["high"].as_f64().unwrap(), hi)
            );
        }
        for set in [SetName::ModifiedChart, SetName::ModifiedQuestion] {
            let (mut b, mut c, mut diff, mut pairs) = (0u64, 0u64, 0.0, 0usize);
            for item in expect.items.iter().filter(|i| i.set == set) {
                let origin = item.origin.as_ref().unwrap();
                let (Some(Some(o)), Some(Some(m))) = (outcome.get(origin), outcome.get(&item.id))
                else {
                    continue;
                };
                pairs += 1;
                diff += f64::from(u8::from(*o)) - f64::from(u8::from(*m));
                match (o, m) {
                    (true, false) => b += 1,
                    (false, true) => c += 1,
                    _ => {}
                }
            }
            let g = run["gaps"]
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["name"] == set.name())
                .unwrap();
            assert_eq!(g["pairs"].as_u64().unwrap() as usize, pairs);
            let gap = g["gap"].as_f64().unwrap();
            assert!(
                close(gap, 100.0 * diff / pairs as f64),
                "{} gap",
                set.name()
            );
            assert_eq!(g["flips"]["right_to_wrong"], b);
            assert_eq!(g["flips"]["wrong_to_right"], c);
            assert!((g["mcnemar_p"].as_f64().unwrap() - binom_p(b, c)).abs() < 1e-9);
            let (lo, hi) = (
                g["ci"]["low"].as_f64().unwrap(),
                g["ci"]["high"].as_f64().unwrap(),
            );
            assert!(lo <= gap && gap <= hi, "{lo} {gap} {hi}");
        }
        // Axis "theme" is exactly the modified_chart set here.
        let theme = run["axes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["axis"] == "theme")
            .unwrap();
        let chart_gap = run["gaps"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["name"] == "modified_chart")
            .unwrap();
        assert_eq!(theme["gap"]["gap"], chart_gap["gap"]);
        // Same pairs, same seed stream: the same interval.
        assert_eq!(theme["gap"]["ci"], chart_gap["ci"]);
        let curve = theme["curve"].as_array().unwrap();
        let severities: Vec<u64> = curve
            .iter()
            .map(|p| p["severity"].as_u64().unwrap())
            .collect();
        assert_eq!(severities, vec![0, 1, 2, 3]);
        let total: u64 = curve[1..].iter().map(|p| p["n"].as_u64().unwrap()).sum();
        assert_eq!(total, chart_gap["pairs"].as_u64().unwrap());
    }
    for name in ["report.md", "report.html", "junit.xml"] {
        assert!(suite.join("report").join(name).is_file(), "{name}");
    }
}

#[test]
fn report_is_deterministic() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("suite");
    let mut expect = build_suite(&suite);
    write_run(&suite, "strong", &mut expect, strong_rule);
    let mut outputs = Vec::new();
    for out in ["a", "b"] {
        let status = bin()
            .arg("report")
            .arg(&suite)
            .arg("-o")
            .arg(tmp.path().join(out))
            .output()
            .unwrap();
        assert!(status.status.success());
        outputs.push((
            fs::read(tmp.path().join(out).join("report.json")).unwrap(),
            fs::read(tmp.path().join(out).join("report.html")).unwrap(),
        ));
    }
    assert_eq!(outputs[0], outputs[1]);
}

#[test]
fn html_is_self_contained_and_escapes_hostile_strings() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("suite");
    let mut expect = build_suite(&suite);
    // The hostile title item on chart 0 is right on the original, wrong when modified.
    write_run(&suite, "strong", &mut expect, |i, item| {
        if item.chart_id == "c00" && item.family == "title" {
            item.set == SetName::Original
        } else {
            strong_rule(i, item)
        }
    });
    write_run(&suite, "weak", &mut expect, weak_rule);
    let status = bin().arg("report").arg(&suite).output().unwrap();
    assert!(status.status.success());
    let html = fs::read_to_string(suite.join("report/report.html")).unwrap();
    assert!(
        !html.contains("<script"),
        "a script tag leaked into the HTML"
    );
    assert!(
        !html.contains("<img src=x"),
        "a hostile prediction leaked into the HTML"
    );
    assert!(html.contains("&lt;script&gt;"));
    assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"));
    assert!(html.contains("data:image/png;base64,"));
    for fetch in [
        "src=\"http",
        "href=\"http",
        "url(http",
        "@import",
        "<link",
        "<script",
    ] {
        assert!(
            !html.contains(fetch),
            "the page must not reach the network: {fetch}"
        );
    }
    assert!(!html.contains("<svg"), "plots are rendered to PNG");
    assert!(
        html.contains("alt=\"Original vs modified accuracy"),
        "several runs get the scatter plot"
    );
    assert!(html.contains("alt=\"Robustness curves"));
    let md = fs::read_to_string(suite.join("report/report.md")).unwrap();
    assert!(!md.contains("<script"));
    let junit = fs::read_to_string(suite.join("report/junit.xml")).unwrap();
    assert!(junit.contains("<testcase classname=\"strong.accuracy\" name=\"original\">"));
}

#[test]
fn check_exit_codes() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("suite");
    let mut expect = build_suite(&suite);
    write_run(&suite, "weak", &mut expect, weak_rule);
    let code = |args: &[&str]| {
        let out = bin().arg("check").arg(&suite).args(args).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (c, out) = code(&["--run", "weak", "--max-gap", "95", "--min-accuracy", "1"]);
    assert_eq!(c, Some(0), "{out}");
    assert!(out.contains("passed"));
    let (c, out) = code(&["--run", "weak", "--max-gap", "5"]);
    assert_eq!(c, Some(1), "{out}");
    assert!(
        out.contains("FAIL") && out.contains("gap modified_chart"),
        "{out}"
    );
    // The point estimate passes where the bound fails.
    let point_gap: f64 = {
        let report =
            chartstress::report::build_report(&suite, &["weak".into()], Default::default())
                .unwrap();
        report.runs[0]
            .gaps
            .iter()
            .filter_map(|g| g.gap)
            .fold(f64::MIN, f64::max)
    };
    let limit = format!("{}", point_gap + 0.5);
    let (c, _) = code(&["--run", "weak", "--max-gap", &limit]);
    assert_eq!(c, Some(1));
    let (c, _) = code(&["--run", "weak", "--max-gap", &limit, "--bound", "point"]);
    assert_eq!(c, Some(0));
    let (c, out) = code(&["--run", "weak", "--max-gap-axis", "theme=5"]);
    assert_eq!(c, Some(1), "{out}");
    let (c, out) = code(&["--run", "weak", "--max-gap-axis", "nope=5"]);
    assert_eq!(c, Some(2), "{out}");
    assert!(out.contains("no axis `nope`"), "{out}");
    let (c, _) = code(&["--run", "missing-run", "--max-gap", "5"]);
    assert_eq!(c, Some(2));
    let (c, out) = code(&["--run", "weak", "--min-accuracy", "99"]);
    assert_eq!(c, Some(1), "{out}");
    let out = bin()
        .args(["check", "/nonexistent/suite", "--run", "x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    fs::write(suite.join("items.jsonl"), "").unwrap();
    let (c, _) = code(&["--run", "weak"]);
    assert_eq!(c, Some(2));
}

#[test]
fn runs_can_be_selected_and_unknown_runs_fail() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("suite");
    let mut expect = build_suite(&suite);
    write_run(&suite, "strong", &mut expect, strong_rule);
    write_run(&suite, "weak", &mut expect, weak_rule);
    let report = chartstress::report::build_report(
        &suite,
        &["weak".into()],
        chartstress::score::Metric::Exact,
    )
    .unwrap();
    assert_eq!(report.runs.len(), 1);
    assert_eq!(report.runs[0].adapter, "weak-adapter");
    assert_eq!(report.metric, "exact");
    let err = chartstress::report::build_report(&suite, &["nope".into()], Default::default())
        .unwrap_err();
    assert!(err.to_string().contains("run `nope` not found"), "{err}");
}

#[test]
fn markdown_report_snapshot() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("suite");
    let mut expect = build_suite(&suite);
    write_run(&suite, "strong", &mut expect, strong_rule);
    let report = chartstress::report::build_report(&suite, &[], Default::default()).unwrap();
    chartstress::report::write_report(
        &report,
        &suite,
        &tmp.path().join("out"),
        &Default::default(),
    )
    .unwrap();
    let md = fs::read_to_string(tmp.path().join("out/report.md")).unwrap();
    insta::assert_snapshot!(md);
}

#[test]
fn a_run_of_only_errors_reports_and_is_unusable_for_check() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("suite");
    let expect = build_suite(&suite);
    let run = suite.join("runs/down");
    fs::create_dir_all(&run).unwrap();
    let lines: Vec<String> = expect
        .items
        .iter()
        .map(|i| {
            format!(
                r#"{{"id":"{}","raw":"","answer":"","latency_ms":0,"error":"connection refused"}}"#,
                i.id
            )
        })
        .collect();
    fs::write(run.join("predictions.jsonl"), lines.join("\n") + "\n").unwrap();
    let out = bin().arg("report").arg(&suite).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(suite.join("report/report.json")).unwrap())
            .unwrap();
    assert_eq!(json["runs"][0]["errors"], 72);
    assert_eq!(json["runs"][0]["scored"], 0);
    assert!(json["runs"][0]["sets"][0]["accuracy"].is_null());
    assert_eq!(
        json["runs"][0]["adapter"], "down",
        "without run.json the run name stands in"
    );
    let junit = fs::read_to_string(suite.join("report/junit.xml")).unwrap();
    assert!(junit.contains("<failure message=\"no scored items (24 errors, 0 missing)\">"));
    let out = bin()
        .arg("check")
        .arg(&suite)
        .args(["--run", "down", "--max-gap", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stdout).contains("no scored predictions"));
}

#[test]
fn a_malformed_prediction_line_is_reported_and_changes_the_exit_code() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("suite");
    let mut expect = build_suite(&suite);
    write_run(&suite, "strong", &mut expect, strong_rule);
    let path = suite.join("runs/strong/predictions.jsonl");
    let text = fs::read_to_string(&path).unwrap();
    let mut lines: Vec<&str> = text.split('\n').collect();
    lines.insert(3, "{not json");
    fs::write(&path, lines.join("\n")).unwrap();
    let out = bin().arg("report").arg(&suite).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("runs/strong/predictions.jsonl:4:2: skipped malformed prediction"),
        "{stderr}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(suite.join("report/report.json")).unwrap())
            .unwrap();
    assert_eq!(json["runs"][0]["malformed_lines"], 1);
    assert_eq!(json["runs"][0]["scored"], 70);
}

/// An unanswerable rewrite of an answerable question asks for a fact the
/// chart does not hold: tagged `shifted`, reported in its own row and never
/// judged as a robustness gap, so abstaining cannot pass for robustness.
#[test]
fn questions_rewritten_to_missing_facts_are_reported_apart() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite");
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    crate::support::run_ok(
        crate::support::bin()
            .arg("generate")
            .arg(&fixtures)
            .arg("--out")
            .arg(&suite)
            .args([
                "--sets",
                "original,modified_question",
                "--axes",
                "unanswerable,lexical",
            ])
            .arg("--quiet"),
    );
    let items = crate::support::jsonl(&suite.join("items.jsonl"));
    let by_id: std::collections::HashMap<&str, &serde_json::Value> = items
        .iter()
        .map(|i| (i["id"].as_str().unwrap(), i))
        .collect();
    let mut gone = 0;
    for item in items.iter().filter(|i| i["set"] == "modified_question") {
        let origin = by_id[item["origin"].as_str().unwrap()];
        let lost = origin["answerable"] == true && item["answer_text"] == "Unanswerable";
        let tagged = item["perturbations"][0]["change"] == "shifted";
        assert_eq!(lost, tagged, "{}", item["question"]);
        gone += usize::from(lost);
    }
    assert!(gone > 0, "the fixtures yield unanswerable rewrites");
    crate::support::run_ok(crate::support::bin().arg("run").arg(&suite).args([
        "--adapter",
        "blind",
        "--name",
        "blind",
    ]));
    crate::support::run_ok(crate::support::bin().arg("report").arg(&suite));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(suite.join("report/report.json")).unwrap())
            .unwrap();
    let gaps = report["runs"][0]["gaps"].as_array().unwrap();
    let row = |name: &str| gaps.iter().find(|g| g["name"] == name).cloned();
    let shifted = row("modified_question/shifted").expect("a row of their own");
    assert_eq!(shifted["pairs"], gone);
    assert_eq!(shifted["change"], "shifted");
    let stress = row("modified_question").unwrap();
    let stress_items = items
        .iter()
        .filter(|i| i["set"] == "modified_question")
        .count()
        - gone;
    assert_eq!(stress["pairs"], stress_items);
    let check = crate::support::bin()
        .arg("check")
        .arg(&suite)
        .args(["--run", "blind", "--max-gap", "100"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&check.stdout);
    assert!(
        text.contains("info  gap modified_question/shifted (shifted change)"),
        "{text}"
    );
}
