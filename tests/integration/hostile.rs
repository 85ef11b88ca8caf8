//! Hostile but fair input through the real binary: numbers near the float
//! limits, control characters and huge labels, odd file names, and one bad
//! table among good ones. Nothing panics or hangs; bad tables are named with
//! their line and column and never stop the others.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::support::bin;

fn write(dir: &Path, name: &str, content: &str) {
    std::fs::write(dir.join(name), content).unwrap();
}

#[test]
fn numbers_beyond_the_chartable_range_are_refused_with_their_cell() {
    let dir = tempfile::tempdir().unwrap();
    for (name, csv, line, value) in [
        ("huge.csv", "k,v\na,1e308\nb,-1e308\n", 2, "1e308"),
        ("big.csv", "k,v\na,1\nb,1e300\n", 3, "1e300"),
        ("tiny.csv", "k,v\na,1e-300\nb,2\n", 2, "1e-300"),
    ] {
        write(dir.path(), name, csv);
        let out = bin()
            .arg("render")
            .arg(dir.path().join(name))
            .arg("-o")
            .arg(dir.path().join("x.png"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{name}");
        assert!(
            stderr.contains(&format!(
                "{name}: line {line}, column 2 (\"v\"): value \"{value}\" is outside the range a chart can show"
            )),
            "{name}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn control_characters_and_huge_labels_render_quickly_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "ctrl.csv", "k,v\na\u{1}b\u{7f},1\nc,2\n");
    let long = "x".repeat(100_000);
    write(dir.path(), "long.csv", &format!("k,v\n{long},1\nb,2\n"));
    for (name, note) in [
        ("ctrl", "1 cells had control characters, replaced by spaces"),
        ("long", "1 cells longer than 200 characters were shortened"),
    ] {
        let start = Instant::now();
        let out = bin()
            .arg("render")
            .arg(dir.path().join(format!("{name}.csv")))
            .arg("-o")
            .arg(dir.path().join(format!("{name}.png")))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{name}: {stderr}");
        assert!(stderr.contains(note), "{name}: {stderr}");
        // Not a timing assertion on speed, a bound on a hang.
        assert!(start.elapsed() < Duration::from_secs(60), "{name} hung");
        let scene = std::fs::read_to_string(dir.path().join(format!("{name}.scene.json"))).unwrap();
        assert!(
            !scene.contains('\u{1}'),
            "control character reached the scene"
        );
        let svg = std::fs::read_to_string(dir.path().join(format!("{name}.svg"))).unwrap();
        assert!(
            svg.len() < 200_000,
            "{name}: label not shortened before layout"
        );
    }
}

#[test]
fn one_bad_table_never_stops_the_batch() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "good.csv",
        "Region,Sales\nNorth,10\nSouth,12\nEast,7\nWest,9\n",
    );
    write(dir.path(), "huge.csv", "k,v\na,1e308\nb,1\n");
    write(dir.path(), "...csv", "k,v\na,1\nb,2\n");
    write(dir.path(), "ctrl.csv", "k,v\nA\u{1b}[31m,4\nB,5\nC,6\n");
    let suite = tempfile::tempdir().unwrap();
    let out = bin()
        .args(["generate"])
        .arg(dir.path())
        .arg("-o")
        .arg(suite.path())
        .args(["--seed", "9", "--charts-per-table", "2", "--quiet"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "errors change the exit code: {stderr}"
    );
    assert!(
        stderr.contains("...csv: the file name gives no usable table id"),
        "{stderr}"
    );
    assert!(
        stderr.contains("huge.csv: line 2, column 2 (\"v\")"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    // The good tables' items and a complete manifest are written.
    assert!(suite.path().join("suite.json").exists());
    let items = std::fs::read_to_string(suite.path().join("items.jsonl")).unwrap();
    for id in ["good", "ctrl"] {
        assert!(
            items.contains(&format!("\"table_id\":\"{id}\"")),
            "no items from {id}"
        );
    }
    for token in ["inf", "NaN"] {
        assert!(
            !items
                .lines()
                .any(|l| l.contains(&format!("\"{token}\"")) || l.contains(&format!("${token}"))),
            "{token} in items"
        );
    }
}

#[test]
fn log_scale_of_large_values_is_bounded() {
    // The largest accepted magnitude on every perturbation generate draws,
    // log scale included, over several seeds.
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "wide.csv",
        "k,v\na,999999999999999\nb,0.000001\nc,1\n",
    );
    for seed in 1..=4 {
        let suite = tempfile::tempdir().unwrap();
        let start = Instant::now();
        let out = bin()
            .args(["generate"])
            .arg(dir.path())
            .arg("-o")
            .arg(suite.path())
            .args(["--seed", &seed.to_string(), "--quiet"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "seed {seed}: {stderr}");
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "seed {seed} hung"
        );
    }
}
