//! Hugging Face and lmms-eval exports, read by the real `datasets` library
//! (scripts/setup.sh installs it); lmms-eval's samples files imported back:
//! the report must equal the report of the run itself.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::interop::{accuracies, chartstress, generate, ok};
use crate::support::{files, jsonl};

/// Run a Python script with `datasets` offline, its caches in `dir`.
fn python(dir: &Path, script: &str, args: &[&str]) -> String {
    let out = Command::new("python3")
        .args(["-c", script])
        .args(args)
        .env("HF_HOME", dir.join("hf-home"))
        .env("HF_DATASETS_OFFLINE", "1")
        .env("HF_HUB_OFFLINE", "1")
        .output()
        .expect("python3 is needed for this test");
    assert!(
        out.status.success(),
        "python failed (scripts/setup.sh installs datasets and Pillow): {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const CHECK_HF: &str = r#"
import json, sys
import datasets
from PIL import Image
import csv
root, suite, items_path, tsv = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
items = [json.loads(l) for l in open(items_path) if l.strip()]
csv.field_size_limit(1 << 30)
# The prompt VLMEvalKit's export sends, by id: the same text.
prompts = {r["id"]: r["question"] for r in csv.DictReader(open(tsv, newline=""), delimiter="\t")}
ds = datasets.load_dataset(root)
want = {}
for it in items:
    want.setdefault(it["set"], []).append(it)
assert sorted(ds.keys()) == sorted(want), (list(ds.keys()), list(want))
assert isinstance(ds["original"].features["image"], datasets.Image), ds["original"].features
for split, rows in want.items():
    d = ds[split]
    assert d.num_rows == len(rows), (split, d.num_rows, len(rows))
    for row, it in zip(d, rows):
        assert row["id"] == it["id"], (row["id"], it["id"])
        assert row["answer"] == it["answer_text"], (row["answer"], it["answer_text"])
        assert row["question"] == it["question"]
        assert row["set"] == split
        assert row["origin"] == it.get("origin"), (row["origin"], it.get("origin"))
        assert row["choices"] == it.get("choices", []), (row["choices"], it.get("choices"))
        assert row["answerable"] == it["answerable"]
        img = row["image"]
        assert isinstance(img, Image.Image), type(img)
        assert img.size == Image.open(suite + "/" + it["image"]).size
        # The VQA file holds the `direct` prompt of every item but the
        # multiple-choice ones, which VLMEvalKit words itself from A-D.
        if it["question_type"] != "multiple_choice":
            assert row["prompt"] == prompts[it["id"]], (row["prompt"], prompts[it["id"]])
        assert row["severity"] == max((p["severity"] for p in it.get("perturbations", [])), default=None)
print(json.dumps({k: ds[k].num_rows for k in ds}))
"#;

#[test]
fn hf_export_loads_with_datasets() {
    let dir = tempfile::tempdir().unwrap();
    let suite = generate(
        dir.path(),
        &[
            "browser_share_pie.csv",
            "ev_diesel_crossing.csv",
            "smartphone_shipments_grouped.csv",
        ],
        "5",
    );
    let s = suite.to_str().unwrap();
    let out = dir.path().join("hf");
    let printed = ok(chartstress(&[
        "export",
        s,
        "--format",
        "hf",
        "-o",
        out.to_str().unwrap(),
    ]));
    let items = jsonl(&suite.join("items.jsonl"));
    assert!(
        printed.contains(&format!("wrote {} items in 3 splits", items.len())),
        "{printed}"
    );
    // Deterministic: the same suite exported elsewhere gives the same bytes.
    let again = dir.path().join("hf-again");
    ok(chartstress(&[
        "export",
        s,
        "--format",
        "hf",
        "-o",
        again.to_str().unwrap(),
    ]));
    assert_eq!(files(&out), files(&again));
    let card = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(card.starts_with("---\nconfigs:"), "{card}");
    assert!(!card.contains(env!("CARGO_MANIFEST_DIR")), "{card}");

    let tsv = dir.path().join("ChartStress.tsv");
    ok(chartstress(&[
        "export",
        s,
        "--format",
        "vlmevalkit",
        "-o",
        tsv.to_str().unwrap(),
    ]));
    let counts = python(
        dir.path(),
        CHECK_HF,
        &[
            out.to_str().unwrap(),
            s,
            suite.join("items.jsonl").to_str().unwrap(),
            tsv.to_str().unwrap(),
        ],
    );
    let counts: Value = serde_json::from_str(counts.trim()).unwrap();
    let total: u64 = counts
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(total as usize, items.len(), "{counts}");
}

/// Loads every task YAML as lmms-eval does (`!function utils.NAME` resolved
/// in the task folder, `load_dataset(dataset_path, **dataset_kwargs)`), calls
/// the named functions on the rows, and prints each task's ids in doc order.
const CHECK_LMMS: &str = r#"
import glob, importlib.util, json, os, sys
import yaml, datasets
from PIL import Image
root = sys.argv[1]
spec = importlib.util.spec_from_file_location("utils", os.path.join(root, "utils.py"))
utils = importlib.util.module_from_spec(spec)
spec.loader.exec_module(utils)

class Function(str):
    pass
class Loader(yaml.SafeLoader):
    pass
Loader.add_constructor("!function", lambda l, n: Function(l.construct_scalar(n)))

order = {}
for path in sorted(glob.glob(os.path.join(root, "*.yaml"))):
    cfg = yaml.load(open(path), Loader=Loader)
    for key in ["task", "dataset_path", "dataset_kwargs", "test_split", "output_type",
                "doc_to_visual", "doc_to_text", "doc_to_target", "generation_kwargs",
                "process_results", "metric_list", "metadata"]:
        assert key in cfg, (path, key)
    assert cfg["output_type"] == "generate_until"
    fns = {}
    for key in ["doc_to_visual", "doc_to_text", "process_results"]:
        v = cfg[key]
        assert isinstance(v, Function) and v.startswith("utils."), (key, v)
        fns[key] = getattr(utils, v[len("utils."):])
    for m in cfg["metric_list"]:
        assert m["aggregation"] == "mean"
    ds = datasets.load_dataset(path=cfg["dataset_path"], **cfg["dataset_kwargs"])[cfg["test_split"]]
    ids = []
    for doc in ds:
        visual = fns["doc_to_visual"](doc)
        assert len(visual) == 1 and isinstance(visual[0], Image.Image) and visual[0].mode == "RGB"
        assert visual[0].size == doc["image"].size
        text = fns["doc_to_text"](doc, None)
        assert text == doc["prompt"] and text
        assert doc[cfg["doc_to_target"]] == doc["answer"]
        gold = fns["process_results"](doc, ["Answer: " + doc["answer"]])
        assert set(gold) == {m["metric"] for m in cfg["metric_list"]}, gold
        assert gold["relaxed_accuracy"] == 1.0, (doc["answer"], gold)
        ids.append(doc["id"])
    order[cfg["task"]] = ids
print(json.dumps(order))
"#;

/// One record of lmms-eval's samples file. `legacy`: as lmms-eval logged
/// them before it dropped `doc` (the doc's text fields, `resps` nested
/// per request); else as it logs them now (no `doc`, single responses
/// flattened, `input` the prompt).
fn sample(doc_id: usize, item: &Value, reply: &str, legacy: bool) -> Value {
    if legacy {
        json!({
            "doc_id": doc_id,
            "doc": {"id": item["id"], "question": item["question"], "answer": item["answer_text"]},
            "target": item["answer_text"],
            "arguments": [],
            "resps": [[reply]],
            "filtered_resps": [reply],
            "relaxed_accuracy": 0.0,
        })
    } else {
        json!({
            "doc_id": doc_id,
            "target": item["answer_text"],
            "filtered_resps": reply,
            "relaxed_accuracy": 0.0,
            "doc_hash": "0",
            "input": "prompt",
        })
    }
}

fn write_jsonl(path: &Path, records: &[Value]) {
    let text: String = records.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(path, text).unwrap();
}

#[test]
fn hf_lmms_eval_export_and_import_reproduce_the_run() {
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
    let tasks = dir.path().join("tasks");
    let printed = ok(chartstress(&[
        "export",
        s,
        "--format",
        "lmms-eval",
        "-o",
        tasks.to_str().unwrap(),
    ]));
    assert!(printed.contains("chartstress_original"), "{printed}");
    let order = python(dir.path(), CHECK_LMMS, &[tasks.to_str().unwrap()]);
    let order: Value = serde_json::from_str(order.trim()).unwrap();
    let order = order.as_object().unwrap();
    assert!(order.contains_key("chartstress"), "{order:?}");
    assert!(order.len() >= 4, "{order:?}");

    let items: std::collections::HashMap<String, Value> = jsonl(&suite.join("items.jsonl"))
        .into_iter()
        .map(|v| (v["id"].as_str().unwrap().to_string(), v))
        .collect();
    let raw: std::collections::HashMap<String, String> =
        jsonl(&suite.join("runs/blind/predictions.jsonl"))
            .iter()
            .map(|v| {
                (
                    v["id"].as_str().unwrap().to_string(),
                    v["raw"].as_str().unwrap().to_string(),
                )
            })
            .collect();
    let records = |task: &str, legacy: bool| -> Vec<Value> {
        order[task]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(k, id)| {
                let id = id.as_str().unwrap();
                sample(k, &items[id], &raw[id], legacy)
            })
            .collect()
    };
    let logs = dir.path().join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    // The all-sets task as lmms-eval logs it now: matched by doc_id.
    let all = logs.join("20261202_101010_samples_chartstress.jsonl");
    write_jsonl(&all, &records("chartstress", false));
    // One file per set, in the older layout with `doc`: matched by doc.id.
    let mut per_set = Vec::new();
    for task in order.keys().filter(|t| t.as_str() != "chartstress") {
        let f = logs.join(format!("20261202_101010_samples_{task}.jsonl"));
        write_jsonl(&f, &records(task, true));
        per_set.push(f.display().to_string());
    }
    let n = items.len();
    let printed = ok(chartstress(&[
        "import-run",
        s,
        "--from",
        "lmms-eval",
        all.to_str().unwrap(),
        "--name",
        "from_all",
    ]));
    assert!(
        printed.contains(&format!("imported {n} predictions")),
        "{printed}"
    );
    let mut args = vec!["import-run", s, "--from", "lmms-eval"];
    args.extend(per_set.iter().map(String::as_str));
    args.extend(["--name", "from_sets"]);
    let printed = ok(chartstress(&args));
    assert!(
        printed.contains(&format!("imported {n} predictions")),
        "{printed}"
    );

    let report = dir.path().join("report");
    ok(chartstress(&[
        "report",
        s,
        "--runs",
        "blind",
        "from_all",
        "from_sets",
        "-o",
        report.to_str().unwrap(),
    ]));
    let json = report.join("report.json");
    let want = accuracies(&json, "blind");
    assert!(want.len() >= 3, "{want:?}");
    for run in ["from_all", "from_sets"] {
        assert_eq!(accuracies(&json, run), want, "{run}");
    }
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
    assert_eq!(answers("from_all"), answers("blind"));
    assert_eq!(answers("from_sets"), answers("blind"));
    let info: Value =
        serde_json::from_slice(&std::fs::read(suite.join("runs/from_sets/run.json")).unwrap())
            .unwrap();
    assert_eq!(info["adapter"], "import:lmms-eval");
    assert_eq!(
        info["adapter_settings"]["files"].as_array().unwrap().len(),
        per_set.len()
    );
}

#[test]
fn hf_lmms_eval_import_reports_unknown_repeated_missing_and_bad_records() {
    let dir = tempfile::tempdir().unwrap();
    let suite = generate(dir.path(), &["browser_share_pie.csv"], "2");
    let s = suite.to_str().unwrap();
    let items = jsonl(&suite.join("items.jsonl"));
    assert!(items.len() >= 3);
    let id0 = items[0]["id"].as_str().unwrap();
    let file = dir.path().join("x_samples_chartstress.jsonl");
    write_jsonl(
        &file,
        &[
            sample(0, &items[0], "42", true),
            sample(0, &items[0], "43", true),
            sample(
                7,
                &json!({"id": "no-such-item", "answer_text": "1"}),
                "7",
                true,
            ),
            // doc_id past the task's docs.
            sample(100_000, &items[1], "5", false),
        ],
    );
    let out = chartstress(&[
        "import-run",
        s,
        "--from",
        "lmms-eval",
        file.to_str().unwrap(),
        "--name",
        "partial",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains("imported 1 predictions"), "{stdout}");
    assert!(
        stdout.contains(&format!("({} items without a record)", items.len() - 1)),
        "{stdout}"
    );
    assert!(stderr.contains("no-such-item matches no item"), "{stderr}");
    assert!(stderr.contains("line 4 matches no item"), "{stderr}");
    assert!(stderr.contains(&format!("{id0} given again")), "{stderr}");

    // A record without a reply is refused with the file and line.
    std::fs::write(
        &file,
        "{\"doc_id\": 0, \"filtered_resps\": \"1\"}\n{\"doc_id\": 1}\n",
    )
    .unwrap();
    let out = chartstress(&[
        "import-run",
        s,
        "--from",
        "lmms-eval",
        file.to_str().unwrap(),
        "--name",
        "bad",
    ]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("x_samples_chartstress.jsonl") && stderr.contains("line 2"),
        "{stderr}"
    );
}
