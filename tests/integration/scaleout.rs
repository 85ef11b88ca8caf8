//! The Slurm recipe's job scripts, run as Slurm would run them (array task
//! variables set) but without a scheduler: the merged suite must equal an
//! unsharded `generate`. `scripts/slurm_single_node.sh` runs them under a
//! real one-node Slurm.

use std::path::Path;
use std::process::Command;

fn recipe(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/scaleout")
        .join(name)
}

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
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
