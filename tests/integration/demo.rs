//! End-to-end: `chartstress demo` generates a suite, runs the built-in
//! baselines, writes the report, and the oracle scores 100%.

use std::path::Path;
use std::process::Command;

fn fixtures(names: &[&str]) -> Vec<String> {
    names
        .iter()
        .map(|n| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("fixtures")
                .join(n)
                .display()
                .to_string()
        })
        .collect()
}

#[test]
fn demo_runs_the_whole_pipeline() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("demo");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_chartstress"));
    cmd.arg("demo")
        .arg("-o")
        .arg(&out)
        .args([
            "--quiet",
            "--charts-per-table",
            "1",
            "--questions-per-chart",
            "3",
        ])
        .args(["--ocr-pairs", "2"])
        .args(fixtures(&[
            "ev_diesel_crossing.csv",
            "browser_share_pie.csv",
            "smartphone_shipments_grouped.csv",
        ]));
    let result = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&result.stdout);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "demo failed:\n{stdout}\n{stderr}");

    for file in ["report.html", "report.md", "report.json", "junit.xml"] {
        assert!(out.join("report").join(file).is_file(), "{file} missing");
    }
    for run in ["oracle", "blind"] {
        assert!(
            out.join("suite/runs")
                .join(run)
                .join("predictions.jsonl")
                .is_file(),
            "{run} predictions missing"
        );
    }
    assert!(stdout.contains("report: "), "{stdout}");

    // The oracle's accuracy, read from the report itself, is 100 on every set.
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("report/report.json")).unwrap()).unwrap();
    let runs = report["runs"].as_array().unwrap();
    let oracle = runs.iter().find(|r| r["name"] == "oracle").unwrap();
    let sets = oracle["sets"].as_array().unwrap();
    assert!(sets.len() >= 3, "{sets:?}");
    for set in sets {
        assert_eq!(set["accuracy"].as_f64(), Some(100.0), "{set}");
    }
}

#[test]
fn run_pairs_selects_whole_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite");
    let status = Command::new(env!("CARGO_BIN_EXE_chartstress"))
        .arg("generate")
        .arg("--out")
        .arg(&suite)
        .args([
            "--quiet",
            "--charts-per-table",
            "1",
            "--questions-per-chart",
            "4",
        ])
        .args(fixtures(&[
            "ev_diesel_crossing.csv",
            "city_budget_millions.csv",
        ]))
        .status()
        .unwrap();
    assert!(status.success());
    let status = Command::new(env!("CARGO_BIN_EXE_chartstress"))
        .arg("run")
        .arg(&suite)
        .args(["--adapter", "blind", "--pairs", "3", "--no-progress"])
        .status()
        .unwrap();
    assert!(status.success());

    let items: Vec<serde_json::Value> = std::fs::read_to_string(suite.join("items.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let predicted: std::collections::HashSet<String> =
        std::fs::read_to_string(suite.join("runs/blind/predictions.jsonl"))
            .unwrap()
            .lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect();
    let root = |i: &serde_json::Value| {
        i["origin"]
            .as_str()
            .unwrap_or(i["id"].as_str().unwrap())
            .to_string()
    };
    let roots: std::collections::HashSet<String> = items
        .iter()
        .filter(|i| predicted.contains(i["id"].as_str().unwrap()))
        .map(root)
        .collect();
    assert_eq!(roots.len(), 3, "three originals chosen");
    // Every item of a chosen pair was run, and nothing else.
    for item in &items {
        let chosen = roots.contains(&root(item));
        assert_eq!(
            chosen,
            predicted.contains(item["id"].as_str().unwrap()),
            "{item}"
        );
    }
}

/// An installed binary has no source tree beside it: from an empty folder,
/// `demo` and `gallery` use the fixtures built into the binary.
#[test]
fn demo_and_gallery_work_from_an_empty_folder() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let result = Command::new(env!("CARGO_BIN_EXE_chartstress"))
            .current_dir(dir.path())
            .args(args)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&result.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&result.stderr).into_owned();
        assert!(
            result.status.success(),
            "{args:?} failed:\n{stdout}\n{stderr}"
        );
        (stdout, stderr)
    };
    let shipped = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            [".csv", ".tsv", ".json"].iter().any(|x| name.ends_with(x))
                && !name.ends_with(".meta.json")
        })
        .count();

    let (stdout, _) = run(&[
        "demo",
        "--no-ocr",
        "--quiet",
        "--charts-per-table",
        "1",
        "--questions-per-chart",
        "1",
    ]);
    assert!(stdout.contains("report: "), "{stdout}");
    assert!(
        stdout.contains(&format!("from {shipped} tables")),
        "{stdout}"
    );
    assert!(dir.path().join("out/demo/report/report.html").is_file());

    let (stdout, stderr) = run(&[
        "gallery", "-o", "g", "--kinds", "bar", "--themes", "classic",
    ]);
    assert!(
        stdout.contains(&format!("from {shipped} tables")),
        "{stdout}"
    );
    assert!(
        !stderr.contains("/tmp"),
        "messages name a temporary folder: {stderr}"
    );
    let images = std::fs::read_dir(dir.path().join("g/images"))
        .unwrap()
        .count();
    assert!(images > 0, "gallery drew nothing");
    // Nothing besides the outputs was left behind in the folder.
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["g", "out"]);
}
