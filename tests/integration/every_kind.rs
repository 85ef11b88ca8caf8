//! A suite that names every kind (`--kinds all`) over the fixtures and one
//! synthesized table of each on-request shape draws every kind as an
//! original, and the readers built for the image answer all of it.

use std::process::{Command, Stdio};

fn chartstress() -> Command {
    Command::new(env!("CARGO_BIN_EXE_chartstress"))
}

#[test]
fn a_suite_naming_every_kind_draws_each_as_an_original() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    for shape in chartstress::synth::SynthKind::ON_REQUEST {
        let status = chartstress()
            .args([
                "synth",
                "--seed",
                "4",
                "--count",
                "2",
                "--kind",
                shape.name(),
                "-o",
            ])
            .arg(&tables)
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "synth --kind {}", shape.name());
    }
    let suite = dir.path().join("suite");
    let out = chartstress()
        .args(["generate", "fixtures"])
        .arg(&tables)
        .args([
            "--kinds",
            "all",
            "--charts-per-table",
            "3",
            "--seed",
            "2",
            "--out",
        ])
        .arg(&suite)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // Read items.jsonl directly rather than through the library's reader.
    let items = std::fs::read_to_string(suite.join("items.jsonl")).unwrap();
    let mut original_kinds = std::collections::BTreeMap::<String, usize>::new();
    for line in items.lines() {
        let item: serde_json::Value = serde_json::from_str(line).unwrap();
        if item["set"] == "original" {
            *original_kinds
                .entry(item["chart_kind"].as_str().unwrap().to_string())
                .or_default() += 1;
        }
    }
    for kind in chartstress::ir::ChartKind::ALL {
        assert!(
            original_kinds.contains_key(kind.name()),
            "no original {} in {original_kinds:?}",
            kind.name()
        );
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(suite.join("suite.json")).unwrap()).unwrap();
    for kind in chartstress::ir::ChartKind::ALL {
        assert!(
            manifest["counts"]["chart_kind"][kind.name()]
                .as_u64()
                .unwrap_or(0)
                > 0,
            "suite.json counts no {}",
            kind.name()
        );
    }
    let stats = chartstress().arg("stats").arg(&suite).output().unwrap();
    assert!(stats.status.success());
    let text = String::from_utf8_lossy(&stats.stdout);
    for kind in chartstress::ir::ChartKind::ALL {
        assert!(text.contains(kind.name()), "stats names no {}", kind.name());
    }
}

/// The shipped fixtures alone reach every kind: `gallery --one-per-kind`
/// over them writes one thumbnail per kind, so `demo` and `gallery` show
/// all of them.
#[test]
fn the_fixtures_alone_draw_every_kind() {
    let dir = tempfile::tempdir().unwrap();
    crate::support::run_ok(
        chartstress()
            .args(["gallery", "fixtures", "--one-per-kind", "-o"])
            .arg(dir.path())
            .current_dir(env!("CARGO_MANIFEST_DIR")),
    );
    for kind in chartstress::ir::ChartKind::ALL {
        let thumb = dir
            .path()
            .join("kinds")
            .join(format!("{}.png", kind.name()));
        assert!(
            thumb.is_file(),
            "no {} drawn from the fixtures",
            kind.name()
        );
    }
}
