//! The Slurm recipe's job scripts, run as Slurm would run them (array task
//! variables set) but without a scheduler: the merged suite must equal an
//! unsharded `generate`. `scripts/slurm_single_node.sh` runs them under a
//! real one-node Slurm.

use std::path::Path;
use std::process::Command;

use crate::support::{files, jsonl};

fn recipe(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/scaleout")
        .join(name)
}

#[test]
fn slurm_job_scripts_shard_and_merge_into_the_unsharded_suite() {
    let dir = tempfile::tempdir().unwrap();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_chartstress"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let tables = format!(
        "{} {}",
        fixtures.join("ev_diesel_crossing.csv").display(),
        fixtures.join("browser_share_pie.csv").display()
    );
    let shards = 2;
    for k in 1..=shards {
        let out = Command::new("bash")
            .arg(recipe("slurm-generate.sbatch"))
            .current_dir(dir.path())
            .env("PATH", &path)
            .env("SLURM_ARRAY_TASK_ID", k.to_string())
            .env("SLURM_ARRAY_TASK_COUNT", shards.to_string())
            .env("TABLES", &tables)
            .env("SEED", "3")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "shard {k}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let out = Command::new("bash")
        .arg(recipe("slurm-merge.sbatch"))
        .current_dir(dir.path())
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "merge: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    let whole = dir.path().join("whole");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_chartstress"));
    cmd.arg("generate")
        .args(tables.split(' '))
        .args(["--seed", "3", "--quiet", "--out"])
        .arg(&whole);
    assert!(cmd.output().unwrap().status.success());
    let merged = files(&dir.path().join("suite"));
    assert!(merged.iter().any(|(n, _)| n == "items.jsonl"));
    assert_eq!(merged, files(&whole));
}

fn answers(suite: &Path, run: &str) -> Vec<(String, String, String)> {
    jsonl(&suite.join("runs").join(run).join("predictions.jsonl"))
        .iter()
        .map(|v| {
            let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
            (s("id"), s("raw"), s("answer"))
        })
        .collect()
}

#[test]
fn runs_of_suite_parts_merge_into_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite");
    let s = suite.to_str().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let bin = env!("CARGO_BIN_EXE_chartstress");
    let ok = |args: &[&str]| {
        let out = Command::new(bin).args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    ok(&[
        "generate",
        fixtures.join("ev_diesel_crossing.csv").to_str().unwrap(),
        fixtures.join("browser_share_pie.csv").to_str().unwrap(),
        "--seed",
        "4",
        "--quiet",
        "--out",
        s,
    ]);
    ok(&["run", s, "--adapter", "blind", "--name", "whole"]);
    let mut sizes = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let name = format!("part-{k}");
        ok(&[
            "run",
            s,
            "--adapter",
            "blind",
            "--shard",
            &shard,
            "--name",
            &name,
        ]);
        let part = answers(&suite, &name);
        // Whole pairs stay in one part.
        let items = jsonl(&suite.join("items.jsonl"));
        let root = |id: &str| {
            let item = items.iter().find(|i| i["id"] == id).unwrap();
            item["origin"].as_str().unwrap_or(id).to_string()
        };
        let roots: std::collections::HashSet<String> = part.iter().map(|p| root(&p.0)).collect();
        for item in &items {
            let id = item["id"].as_str().unwrap();
            assert_eq!(
                roots.contains(&root(id)),
                part.iter().any(|p| p.0 == id),
                "item {id} split from its pair"
            );
        }
        sizes.push(part.len());
    }
    let whole = answers(&suite, "whole");
    assert_eq!(sizes.iter().sum::<usize>(), whole.len());
    assert!(sizes.iter().all(|n| *n > 0), "{sizes:?}");
    let printed = ok(&[
        "merge-runs",
        s,
        "--name",
        "merged",
        "part-1",
        "part-2",
        "part-3",
    ]);
    assert!(
        printed.contains(&format!("{} predictions", whole.len())),
        "{printed}"
    );
    assert_eq!(answers(&suite, "merged"), whole);

    // Parts that overlap, or that come from another model, are refused.
    let refused = |args: &[&str], why: &str| {
        let out = Command::new(bin).args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && stderr.contains(why),
            "{args:?}: {stderr}"
        );
    };
    refused(
        &["merge-runs", s, "--name", "twice", "part-1", "whole"],
        "overlap",
    );
    ok(&[
        "run",
        s,
        "--adapter",
        "oracle",
        "--shard",
        "2/3",
        "--name",
        "oracle-2",
    ]);
    refused(
        &["merge-runs", s, "--name", "mixed", "part-1", "oracle-2"],
        "other adapter or prompt settings",
    );
}
