//! Harness round trips: a suite exported for VLMEvalKit, the predictions of a
//! run written back in VLMEvalKit's result layout (TSV, and XLSX as pandas
//! writes it through openpyxl), imported again: the report must equal the
//! report of the run itself.

use std::path::Path;
use std::process::{Command, Output};

use crate::support::jsonl;

pub(crate) fn chartstress(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chartstress"))
        .args(args)
        .output()
        .unwrap()
}

pub(crate) fn ok(out: Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
        .display()
        .to_string()
}

/// Rows of the exported TSV with a `prediction` column: the raw reply the
/// run recorded for each id. VLMEvalKit's result drops the image column.
fn result_rows(export: &Path, predictions: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let raw: std::collections::HashMap<String, String> = jsonl(predictions)
        .iter()
        .map(|v| {
            (
                v["id"].as_str().unwrap().to_string(),
                v["raw"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let mut r = csv::ReaderBuilder::new()
        .delimiter(b'\t')
        .from_path(export)
        .unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    let image = header.iter().position(|h| h == "image").unwrap();
    let id = header.iter().position(|h| h == "id").unwrap();
    let mut out_header: Vec<String> = header
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != image)
        .map(|(_, h)| h.clone())
        .collect();
    out_header.push("prediction".into());
    let rows = r
        .records()
        .map(|rec| {
            let rec = rec.unwrap();
            let mut row: Vec<String> = rec
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != image)
                .map(|(_, c)| c.to_string())
                .collect();
            row.push(raw[&rec[id]].clone());
            row
        })
        .collect();
    (out_header, rows)
}

fn write_tsv(path: &Path, header: &[String], rows: &[Vec<String>]) {
    let mut w = csv::WriterBuilder::new()
        .delimiter(b'\t')
        .from_path(path)
        .unwrap();
    w.write_record(header).unwrap();
    for r in rows {
        w.write_record(r).unwrap();
    }
    w.flush().unwrap();
}

fn write_xlsx(path: &Path, header: &[String], rows: &[Vec<String>]) {
    let data = serde_json::to_string(&serde_json::json!({"header": header, "rows": rows})).unwrap();
    let json_path = path.with_extension("json");
    std::fs::write(&json_path, data).unwrap();
    // Numbers stay numbers, as pandas writes an int `index` column.
    let script = r#"
import json, sys
import openpyxl
d = json.load(open(sys.argv[1]))
wb = openpyxl.Workbook()
ws = wb.active
ws.append(d["header"])
for r in d["rows"]:
    ws.append([int(c) if h == "index" else c for h, c in zip(d["header"], r)])
wb.save(sys.argv[2])
"#;
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(&json_path)
        .arg(path)
        .output()
        .expect("python3 is needed for this test (the README's test command installs it)");
    assert!(
        out.status.success(),
        "openpyxl is needed for this test (scripts/setup.sh installs it): {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

pub(crate) fn accuracies(report_json: &Path, run: &str) -> Vec<(String, f64, u64)> {
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(report_json).unwrap()).unwrap();
    let runs = report["runs"].as_array().unwrap();
    let r = runs.iter().find(|r| r["name"] == run).unwrap();
    r["sets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["set"].as_str().unwrap_or_default().to_string(),
                s["accuracy"].as_f64().unwrap(),
                s["n"].as_u64().unwrap_or_default(),
            )
        })
        .collect()
}

/// A suite of the named fixtures in `dir/suite`.
pub(crate) fn generate(dir: &Path, fixtures: &[&str], seed: &str) -> std::path::PathBuf {
    let suite = dir.join("suite");
    let mut args: Vec<String> = vec!["generate".into()];
    args.extend(fixtures.iter().map(|f| fixture(f)));
    args.extend([
        "--out".into(),
        suite.display().to_string(),
        "--seed".into(),
        seed.into(),
        "--quiet".into(),
    ]);
    ok(chartstress(
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
    ));
    suite
}

/// VLMEvalKit's custom multiple-choice layout: `A`–`D` hold the item's
/// options, `answer` the capital letter of the gold, `question` the item's
/// wording; the VQA file holds no multiple-choice item.
fn mcq_file_follows_vlmevalkit_layout(mcq_tsv: &Path, items: &[serde_json::Value]) {
    let mut r = csv::ReaderBuilder::new()
        .delimiter(b'\t')
        .from_path(mcq_tsv)
        .unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    assert_eq!(header, chartstress::interop::vlmevalkit::MCQ_COLUMNS);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let mut n = 0;
    for rec in r.records() {
        let rec = rec.unwrap();
        let item = items.iter().find(|i| i["id"] == rec[col("id")]).unwrap();
        assert_eq!(item["question_type"], "multiple_choice");
        assert_eq!(&rec[col("question")], item["question"].as_str().unwrap());
        let choices = item["choices"].as_array().unwrap();
        for (k, letter) in ["A", "B", "C", "D"].iter().enumerate() {
            let want = choices.get(k).and_then(|c| c.as_str()).unwrap_or("");
            assert_eq!(&rec[col(letter)], want);
        }
        let gold = item["answer_text"].as_str().unwrap().to_uppercase();
        assert_eq!(&rec[col("answer")], gold.as_str());
        assert!(["A", "B", "C", "D"].contains(&gold.as_str()));
        n += 1;
    }
    assert!(n > 0);
    let mut main = csv::ReaderBuilder::new()
        .delimiter(b'\t')
        .from_path(mcq_tsv.with_file_name("ChartStress.tsv"))
        .unwrap();
    for rec in main.records() {
        let rec = rec.unwrap();
        let item = items.iter().find(|i| i["id"] == rec[1]).unwrap();
        assert!(
            item["question_type"] != "multiple_choice" || item["answerable"] == false,
            "answerable MCQ item in the VQA file"
        );
    }
}

#[test]
fn vlmevalkit_export_and_import_reproduce_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let suite = generate(
        dir.path(),
        &[
            "ev_diesel_crossing.csv",
            "browser_share_pie.csv",
            "smartphone_shipments_grouped.csv",
        ],
        "5",
    );
    let s = suite.to_str().unwrap();
    ok(chartstress(&["run", s, "--adapter", "blind"]));
    let tsv = dir.path().join("ChartStress.tsv");
    let mcq_tsv = dir.path().join("ChartStress_MCQ.tsv");
    let printed = ok(chartstress(&[
        "export",
        s,
        "--format",
        "vlmevalkit",
        "-o",
        tsv.to_str().unwrap(),
    ]));
    let all_items = jsonl(&suite.join("items.jsonl"));
    let items = all_items.len();
    // An unanswerable multiple-choice item has no gold letter: it is a VQA row.
    let mcq_items = all_items
        .iter()
        .filter(|i| i["question_type"] == "multiple_choice" && i["answerable"] == true)
        .count();
    assert!(mcq_items > 0, "the fixtures yield multiple-choice items");
    assert!(
        printed.contains(&format!(
            "wrote {} items to {}",
            items - mcq_items,
            tsv.display()
        )) && printed.contains(&format!("wrote {mcq_items} items to {}", mcq_tsv.display())),
        "{printed}"
    );
    mcq_file_follows_vlmevalkit_layout(&mcq_tsv, &all_items);

    let predictions = suite.join("runs/blind/predictions.jsonl");
    let results = [&tsv, &mcq_tsv].map(|export| result_rows(export, &predictions));
    assert_eq!(results.iter().map(|(_, r)| r.len()).sum::<usize>(), items);
    let mut files: Vec<(&str, Vec<std::path::PathBuf>)> = Vec::new();
    for (name, ext) in [
        ("from_tsv", "tsv"),
        ("from_xlsx", "xlsx"),
        ("by_index", "tsv"),
    ] {
        let mut written = Vec::new();
        for (k, (header, rows)) in results.iter().enumerate() {
            let path = dir.path().join(format!("{name}_{k}.{ext}"));
            if name == "by_index" {
                // Without the id column, rows are matched by index.
                let id = header.iter().position(|h| h == "id").unwrap();
                let strip = |r: &Vec<String>| -> Vec<String> {
                    r.iter()
                        .enumerate()
                        .filter(|(i, _)| *i != id)
                        .map(|(_, c)| c.clone())
                        .collect()
                };
                write_tsv(
                    &path,
                    &strip(header),
                    &rows.iter().map(strip).collect::<Vec<_>>(),
                );
            } else if ext == "xlsx" {
                write_xlsx(&path, header, rows);
            } else {
                write_tsv(&path, header, rows);
            }
            written.push(path);
        }
        files.push((name, written));
    }

    for (name, written) in &files {
        let mut args = vec!["import-run", s, "--from", "vlmevalkit"];
        args.extend(written.iter().map(|p| p.to_str().unwrap()));
        args.extend(["--name", name]);
        let printed = ok(chartstress(&args));
        assert!(
            printed.contains(&format!("imported {items} predictions")),
            "{printed}"
        );
    }
    let report = dir.path().join("report");
    ok(chartstress(&[
        "report",
        s,
        "--runs",
        "blind",
        "from_tsv",
        "from_xlsx",
        "by_index",
        "-o",
        report.to_str().unwrap(),
    ]));
    let json = report.join("report.json");
    let want = accuracies(&json, "blind");
    assert!(want.len() >= 3, "{want:?}");
    assert!(
        want.iter().any(|(_, a, _)| *a > 0.0 && *a < 100.0),
        "{want:?}"
    );
    for run in ["from_tsv", "from_xlsx", "by_index"] {
        assert_eq!(accuracies(&json, run), want, "{run}");
    }
    // Same extracted answers, item by item.
    let answers = |run: &str| -> Vec<(String, String)> {
        jsonl(&suite.join("runs").join(run).join("predictions.jsonl"))
            .iter()
            .map(|v| {
                (
                    v["id"].as_str().unwrap().into(),
                    v["answer"].as_str().unwrap().into(),
                )
            })
            .collect()
    };
    assert_eq!(answers("from_xlsx"), answers("blind"));
}

#[test]
fn import_reports_unknown_repeated_and_missing_records() {
    let dir = tempfile::tempdir().unwrap();
    let suite = generate(dir.path(), &["browser_share_pie.csv"], "2");
    let s = suite.to_str().unwrap();
    let ids: Vec<String> = jsonl(&suite.join("items.jsonl"))
        .iter()
        .map(|v| v["id"].as_str().unwrap().to_string())
        .collect();
    assert!(ids.len() >= 3);
    let file = dir.path().join("result.tsv");
    let mut text = String::from("index\tid\tprediction\n");
    text.push_str(&format!("1\t{}\t42\n", ids[0]));
    text.push_str(&format!("1\t{}\t43\n", ids[0]));
    text.push_str("9\tno-such-item\t7\n");
    std::fs::write(&file, text).unwrap();
    let out = chartstress(&[
        "import-run",
        s,
        "--from",
        "vlmevalkit",
        file.to_str().unwrap(),
        "--name",
        "partial",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains("imported 1 predictions"), "{stdout}");
    assert!(
        stdout.contains(&format!("({} items without a record)", ids.len() - 1)),
        "{stdout}"
    );
    assert!(stderr.contains("no-such-item matches no item"), "{stderr}");
    assert!(
        stderr.contains(&format!("{} given again", ids[0])),
        "{stderr}"
    );
    let kept = std::fs::read_to_string(suite.join("runs/partial/predictions.jsonl")).unwrap();
    assert!(kept.contains("\"raw\":\"42\""), "{kept}");

    // A file without a prediction column is refused with its name.
    std::fs::write(&file, "index\tid\n1\tx\n").unwrap();
    let out = chartstress(&[
        "import-run",
        s,
        "--from",
        "vlmevalkit",
        file.to_str().unwrap(),
        "--name",
        "bad",
    ]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("result.tsv") && stderr.contains("prediction"),
        "{stderr}"
    );
}
