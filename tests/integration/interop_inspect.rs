//! inspect_ai round trip: a suite exported as an inspect task folder, run by
//! the real inspect_ai with its mock model replaying a `blind` run's replies,
//! the eval log (`.eval` and JSON) imported again: the report must equal the
//! report of the run itself.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::interop::{accuracies, chartstress, generate, ok};
use crate::support::jsonl;

/// Runs the task with `mockllm/model` answering `replies` in dataset order
/// (one sample at a time, so the order holds); returns the log's path.
const DRIVER: &str = r#"
import json, sys
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model

task_file, replies_file, log_dir, log_format, subset = sys.argv[1:6]
# `FILE@TASK`: inspect reads a bare absolute path as a glob and refuses it.
task_file += "@chartstress"

def output(text):
    out = ModelOutput.from_content(model="mockllm/model", content=text)
    # Usage given: mockllm would otherwise count tokens with tiktoken, which
    # downloads its encoding.
    out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return out

replies = json.load(open(replies_file))
model = get_model("mockllm/model", custom_outputs=[output(r) for r in replies])
args = {} if subset == "all" else {"set": subset}
log = inspect_eval(task_file, model=model, task_args=args, log_dir=log_dir,
                   log_format=log_format, max_samples=1, display="none")[0]
if log.status != "success":
    sys.exit(f"inspect eval failed: {log.error}")
print(log.location)
"#;

fn inspect_ai_available() {
    let out = Command::new("python3")
        .args(["-c", "import inspect_ai"])
        .output();
    let ok = out.as_ref().is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "python3 with inspect_ai is needed for this test: run scripts/setup.sh ({})",
        out.map_or_else(
            |e| e.to_string(),
            |o| String::from_utf8_lossy(&o.stderr).into_owned()
        )
    );
}

/// `inspect eval` on the task folder; the path of the log it wrote.
fn inspect_eval(
    task_dir: &Path,
    replies: &[String],
    logs: &Path,
    format: &str,
    subset: &str,
) -> PathBuf {
    let replies_file = logs.with_extension(format!("{format}-{subset}.json"));
    std::fs::write(&replies_file, serde_json::to_string(replies).unwrap()).unwrap();
    let out = Command::new("python3")
        .args(["-c", DRIVER])
        .arg(task_dir.join("chartstress_task.py"))
        .arg(&replies_file)
        .arg(logs)
        .args([format, subset])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "inspect eval failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let location = stdout.lines().last().unwrap().trim();
    PathBuf::from(location.strip_prefix("file://").unwrap_or(location))
}

/// A copy of an `.eval` log with every member deflate-compressed.
fn deflate_copy(log: &Path, out: &Path) {
    // inspect's module teaches the standard zipfile to read zstd members.
    let script = r#"
import sys, zipfile
import inspect_ai._util.zipfile  # noqa: F401
with zipfile.ZipFile(sys.argv[1]) as src, zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as dst:
    for info in src.infolist():
        dst.writestr(info.filename, src.read(info))
with zipfile.ZipFile(sys.argv[2]) as z:
    assert {i.compress_type for i in z.infolist()} == {zipfile.ZIP_DEFLATED}
"#;
    let out_ = Command::new("python3")
        .args(["-c", script])
        .arg(log)
        .arg(out)
        .output()
        .unwrap();
    assert!(
        out_.status.success(),
        "{}",
        String::from_utf8_lossy(&out_.stderr)
    );
}

/// Every file under `dir` with its bytes, by relative path.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.insert(
                    path.strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(&path).unwrap(),
                );
            }
        }
    }
    out
}

fn raw_by_id(predictions: &Path) -> BTreeMap<String, (String, String)> {
    jsonl(predictions)
        .iter()
        .map(|v| {
            (
                v["id"].as_str().unwrap().to_string(),
                (
                    v["raw"].as_str().unwrap().to_string(),
                    v["answer"].as_str().unwrap().to_string(),
                ),
            )
        })
        .collect()
}

/// Items where the task's Python scorer (an approximation of `relaxed`)
/// scores the reply in a JSON log differently from chartstress, with both
/// scores.
pub(crate) fn scorer_disagreements(
    suite: &Path,
    run: &str,
    json_log: &Path,
) -> Vec<(String, f64, f64)> {
    use chartstress::ir::{Item, Prediction};
    use chartstress::score::{Metric, score_item};
    let items: Vec<Item> = chartstress::run::suite_files::read_items(suite).unwrap();
    let predictions: BTreeMap<String, Prediction> =
        chartstress::run::read_predictions(&suite.join("runs").join(run).join("predictions.jsonl"))
            .unwrap()
            .into_iter()
            .map(|p| (p.id.clone(), p))
            .collect();
    let log: serde_json::Value = serde_json::from_slice(&std::fs::read(json_log).unwrap()).unwrap();
    let approx: BTreeMap<&str, f64> = log["samples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["id"].as_str().unwrap(),
                s["scores"]["relaxed_approx"]["value"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(approx.len(), items.len());
    items
        .iter()
        .filter_map(|item| {
            let ours = score_item(Metric::Relaxed, item, &predictions[&item.id]);
            let theirs = approx[item.id.as_str()];
            ((ours - theirs).abs() > 1e-9).then(|| (item.id.clone(), ours, theirs))
        })
        .collect()
}

#[test]
fn inspect_export_eval_and_import_reproduce_the_run() {
    inspect_ai_available();
    let dir = tempfile::tempdir().unwrap();
    let suite = generate(
        dir.path(),
        &["browser_share_pie.csv", "smartphone_shipments_grouped.csv"],
        "5",
    );
    let s = suite.to_str().unwrap();
    ok(chartstress(&["run", s, "--adapter", "blind"]));
    let items = jsonl(&suite.join("items.jsonl"));

    // Default folder; a second export elsewhere is byte-identical.
    let printed = ok(chartstress(&["export", s, "--format", "inspect"]));
    assert!(
        printed.contains(&format!("wrote {} items", items.len())),
        "{printed}"
    );
    let again = dir.path().join("again");
    ok(chartstress(&[
        "export",
        s,
        "--format",
        "inspect",
        "-o",
        again.to_str().unwrap(),
    ]));
    let first = tree(&suite.join("export/inspect"));
    assert!(first.keys().any(|p| p.starts_with("images")), "{first:?}");
    assert_eq!(first, tree(&again));

    // The folder is movable: run it from somewhere else.
    let task_dir = dir.path().join("moved");
    std::fs::rename(suite.join("export/inspect"), &task_dir).unwrap();
    let dataset = jsonl(&task_dir.join("dataset.jsonl"));
    assert_eq!(dataset.len(), items.len());
    let blind = raw_by_id(&suite.join("runs/blind/predictions.jsonl"));
    let replies: Vec<String> = dataset
        .iter()
        .map(|r| blind[r["id"].as_str().unwrap()].0.clone())
        .collect();

    let logs = dir.path().join("logs");
    let mut runs = Vec::new();
    let mut imports = Vec::new();
    for format in ["eval", "json"] {
        let log = inspect_eval(&task_dir, &replies, &logs, format, "all");
        imports.push((format!("from_{format}"), log));
    }
    // Older inspect versions wrote `.eval` members with deflate, not zstd.
    let deflated = dir.path().join("deflated.eval");
    deflate_copy(&imports[0].1, &deflated);
    imports.push(("from_deflated_eval".into(), deflated));
    for (name, log) in &imports {
        let printed = ok(chartstress(&[
            "import-run",
            s,
            "--from",
            "inspect",
            log.to_str().unwrap(),
            "--name",
            name,
        ]));
        assert!(
            printed.contains(&format!("imported {} predictions", items.len())),
            "{printed}"
        );
        runs.push(name.clone());
    }
    let report = dir.path().join("report");
    let mut args = vec!["report", s, "--runs", "blind"];
    args.extend(runs.iter().map(String::as_str));
    args.extend(["-o", report.to_str().unwrap()]);
    ok(chartstress(&args));
    let json = report.join("report.json");
    let want = accuracies(&json, "blind");
    assert!(want.len() >= 3, "{want:?}");
    assert!(
        want.iter().any(|(_, a, _)| *a > 0.0 && *a < 100.0),
        "{want:?}"
    );
    for run in &runs {
        assert_eq!(accuracies(&json, run), want, "{run}");
        // Same raw replies and extracted answers, item by item.
        let got = raw_by_id(&suite.join("runs").join(run).join("predictions.jsonl"));
        assert_eq!(got, blind, "{run}");
    }
    // The task's own scorer is an approximation; on these replies it agrees
    // with chartstress item by item.
    let json_log = std::fs::read_dir(&logs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "json"))
        .unwrap();
    assert_eq!(
        scorer_disagreements(&suite, "from_json", &json_log),
        vec![],
        "(item, chartstress, inspect scorer)"
    );

    // `-T set=original` keeps one set; importing it leaves the others missing.
    let originals: Vec<String> = dataset
        .iter()
        .zip(&replies)
        .filter(|(r, _)| r["metadata"]["set"] == "original")
        .map(|(_, reply)| reply.clone())
        .collect();
    assert!(!originals.is_empty() && originals.len() < items.len());
    let log = inspect_eval(&task_dir, &originals, &logs, "eval", "original");
    let out = chartstress(&[
        "import-run",
        s,
        "--from",
        "inspect",
        log.to_str().unwrap(),
        "--name",
        "originals",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "imported {} predictions into {} ({} items without a record)",
            originals.len(),
            suite.join("runs/originals").display(),
            items.len() - originals.len()
        )),
        "{stdout}"
    );
}

#[test]
fn inspect_import_names_the_file_and_sample_of_a_bad_log() {
    let dir = tempfile::tempdir().unwrap();
    let suite = generate(dir.path(), &["browser_share_pie.csv"], "2");
    let s = suite.to_str().unwrap();
    let ids: Vec<String> = jsonl(&suite.join("items.jsonl"))
        .iter()
        .map(|v| v["id"].as_str().unwrap().to_string())
        .collect();
    let import = |log: &Path, name: &str| {
        chartstress(&[
            "import-run",
            s,
            "--from",
            "inspect",
            log.to_str().unwrap(),
            "--name",
            name,
        ])
    };
    // A JSON log as inspect writes it, cut to what the import reads: one
    // sample repeated in epoch 1, one of epoch 2 (ignored), an unknown id.
    let sample = |id: &str, epoch: u64, reply: &str| {
        serde_json::json!({"id": id, "epoch": epoch, "output": {"completion": reply},
            "messages": [{"role": "assistant", "content": reply}]})
    };
    let log = dir.path().join("log.json");
    let write = |samples: Vec<serde_json::Value>| {
        let text = serde_json::json!({"eval": {"task": "chartstress"}, "samples": samples});
        std::fs::write(&log, text.to_string()).unwrap();
    };
    write(vec![
        sample(&ids[0], 2, "late"),
        sample(&ids[0], 1, "42"),
        sample(&ids[0], 1, "43"),
        sample("no-such-item", 1, "7"),
        serde_json::json!({"id": ids[1], "epoch": 1, "error": {"message": "rate limited"}}),
    ]);
    let out = import(&log, "partial");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains("imported 2 predictions"), "{stdout}");
    assert!(stderr.contains("no-such-item matches no item"), "{stderr}");
    assert!(
        stderr.contains(&format!("{} given again", ids[0])),
        "{stderr}"
    );
    let kept = std::fs::read_to_string(suite.join("runs/partial/predictions.jsonl")).unwrap();
    assert!(kept.contains("\"raw\":\"42\""), "{kept}");
    // A sample inspect gave up on is an errored prediction, not a wrong one.
    let errored = jsonl(&suite.join("runs/partial/predictions.jsonl"))
        .into_iter()
        .find(|p| p["id"] == ids[1].as_str())
        .unwrap();
    assert_eq!(errored["error"], "rate limited", "{errored}");
    let info: serde_json::Value =
        serde_json::from_slice(&std::fs::read(suite.join("runs/partial/run.json")).unwrap())
            .unwrap();
    assert_eq!(info["counts"]["errors"], 1, "{info}");

    // A sample without an id: the error names the file and the sample.
    let mut bad = sample(&ids[1], 1, "1");
    bad.as_object_mut().unwrap().remove("id");
    write(vec![sample(&ids[0], 1, "42"), bad]);
    let out = import(&log, "bad");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("log.json") && stderr.contains("sample #2") && stderr.contains("id"),
        "{stderr}"
    );
    // Not a log at all.
    std::fs::write(&log, "{\"samples\": [").unwrap();
    let out = import(&log, "bad");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("log.json"), "{stderr}");
    assert!(!suite.join("runs/bad").exists());
}
