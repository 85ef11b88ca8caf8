//! Runs the real `chartstress synth` binary.

use assert_cmd::Command;
use chartstress::ir::Table;
use chartstress::table::load_tables;
use std::collections::BTreeMap;
use std::path::Path;

fn synth(dir: &Path, args: &[&str]) {
    Command::new(env!("CARGO_BIN_EXE_chartstress"))
        .arg("synth")
        .args(args)
        .arg("-o")
        .arg(dir)
        .assert()
        .success();
}

/// Every file of a folder by name, with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| {
            let path = e.expect("entry").path();
            let name = path
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            (name, std::fs::read(&path).expect("read"))
        })
        .collect()
}

#[test]
fn same_seed_same_bytes() {
    let a = tempfile::tempdir().expect("tempdir");
    let b = tempfile::tempdir().expect("tempdir");
    synth(a.path(), &["--seed", "11", "--count", "18"]);
    synth(b.path(), &["--seed", "11", "--count", "18"]);
    let (fa, fb) = (files(a.path()), files(b.path()));
    assert_eq!(fa.keys().filter(|k| k.ends_with(".csv")).count(), 18);
    assert_eq!(fa, fb);

    // A different seed gives different tables with the same ids.
    let c = tempfile::tempdir().expect("tempdir");
    synth(c.path(), &["--seed", "12", "--count", "18"]);
    let fc = files(c.path());
    assert!(
        fa.keys()
            .filter(|k| k.ends_with(".csv"))
            .all(|k| fc.contains_key(k))
    );
    assert_ne!(fa, fc);
}

#[test]
fn more_tables_keep_the_first_ones() {
    let a = tempfile::tempdir().expect("tempdir");
    let b = tempfile::tempdir().expect("tempdir");
    synth(a.path(), &["--seed", "5", "--count", "4"]);
    synth(b.path(), &["--seed", "5", "--count", "7"]);
    let (fa, fb) = (files(a.path()), files(b.path()));
    for (name, bytes) in &fa {
        assert_eq!(Some(bytes), fb.get(name), "{name}");
    }
}

#[test]
fn written_tables_load_and_kinds_filter() {
    let dir = tempfile::tempdir().expect("tempdir");
    synth(
        dir.path(),
        &["--seed", "3", "--count", "6", "--kind", "shares"],
    );
    let (tables, errors) = load_tables(&[dir.path().to_path_buf()], true);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(tables.len(), 6);
    for t in &tables {
        assert!(t.id.ends_with("-shares"), "{}", t.id);
        let units: f64 = t.series[0].values().into_iter().flatten().sum();
        assert!((units - 100.0).abs() < 1e-6, "{}: {units}", t.id);
    }
    let all = tempfile::tempdir().expect("tempdir");
    synth(all.path(), &["--seed", "3", "--count", "9"]);
    let (tables, errors) = load_tables(&[all.path().to_path_buf()], true);
    assert!(errors.is_empty(), "{errors:?}");
    let kinds: Vec<&str> = tables
        .iter()
        .map(|t: &Table| t.id.rsplit('-').next().unwrap_or(""))
        .collect();
    assert_eq!(
        kinds,
        vec![
            "categories",
            "ranking",
            "grouped",
            "stacked",
            "trend",
            "monthly",
            "shares",
            "scatter",
            "bubble"
        ]
    );
}

#[test]
fn bad_kind_is_rejected_and_help_has_examples() {
    Command::new(env!("CARGO_BIN_EXE_chartstress"))
        .args(["synth", "--kind", "spiral", "-o", "unused"])
        .assert()
        .failure();
    assert!(!Path::new("unused").exists());
    let out = Command::new(env!("CARGO_BIN_EXE_chartstress"))
        .args(["synth", "--help"])
        .output()
        .expect("help");
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("chartstress synth --seed 7 --count 18 -o out/tables"),
        "{help}"
    );
    assert!(help.contains("shares"));
}
