//! Whole-process fuzzing: batches of hostile tables (with hostile sidecars)
//! go through the real `generate` and `gallery`, hostile score records
//! through `score` under every metric. Each process must finish within its
//! time bound, peak under 1 GB, exit 0 or 1 (never a panic's 101 or a
//! signal), and write only finite numbers and no `inf`/`NaN` text into what
//! it accepted. `FUZZ_PROCESS_CASES=N` (default 120) sets the number of
//! tables and of score records.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::fuzz_support::*;
use serde_json::Value;

const TABLES_PER_BATCH: usize = 100;
const TIME_BOUND: Duration = Duration::from_secs(300);
const MEMORY_BOUND_KB: i64 = 1024 * 1024;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_chartstress"))
}

fn cases() -> usize {
    std::env::var("FUZZ_PROCESS_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(120)
}

/// Runs a command to the end within the time bound (killing it past that),
/// and checks how it ended and what it cost: its own peak memory, read from
/// `wait4`, not that of other processes the tests started.
// The child is reaped by `wait4` (for its own resource usage), not `Child::wait`.
#[allow(clippy::zombie_processes)]
fn bounded(what: &str, cmd: &mut Command, stats: &mut Stats) -> Output {
    let started = Instant::now();
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    // Drained on threads: a full pipe must not look like a hang.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut buf).map(|_| buf)
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut buf).map(|_| buf)
    });
    let (wait_status, peak_kb) = loop {
        let mut wait_status = 0;
        // SAFETY: wait4 only writes the two values it is given.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let done = unsafe { libc::wait4(pid, &mut wait_status, libc::WNOHANG, &mut usage) };
        assert!(done >= 0, "{what}: wait4 failed");
        if done == pid {
            break (wait_status, usage.ru_maxrss);
        }
        if started.elapsed() > TIME_BOUND {
            let _ = child.kill();
            panic!("{what}: still running after {TIME_BOUND:?} (a hang)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let status = std::os::unix::process::ExitStatusExt::from_raw(wait_status);
    let output = Output {
        status,
        stdout: out_reader.join().unwrap().unwrap(),
        stderr: err_reader.join().unwrap().unwrap(),
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        matches!(status.code(), Some(0 | 1)),
        "{what}: ended with {status:?}\n{}",
        stderr.chars().take(3000).collect::<String>()
    );
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    assert!(peak_kb < MEMORY_BOUND_KB, "{what}: peak {peak_kb} kB");
    stats.processes += 1;
    stats.peak_kb = stats.peak_kb.max(peak_kb);
    stats.slowest = stats.slowest.max(started.elapsed());
    output
}

#[derive(Default)]
struct Stats {
    processes: usize,
    peak_kb: i64,
    slowest: Duration,
    items: usize,
    images: usize,
    tables: usize,
    scored: usize,
}

/// `inf`/`NaN` printed as a number: a word, not part of one (`Inflation`
/// and `Nan` are names; `inf`, `$inf` and `NaN%` are overflows).
fn prints_non_finite(text: &str) -> bool {
    static PATTERN: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(^|[^A-Za-z])(-?inf|NaN)([^A-Za-z]|$)").unwrap()
    });
    PATTERN.is_match(text)
}

/// Every number in the suite's items and charts finite; no answer or option
/// printing `inf`/`NaN`.
fn check_suite(suite: &Path, stats: &mut Stats) {
    assert!(
        suite.join("suite.json").is_file(),
        "no suite.json in {}",
        suite.display()
    );
    let items = std::fs::read_to_string(suite.join("items.jsonl")).unwrap();
    for line in items.lines() {
        let item: Value = serde_json::from_str(line).unwrap();
        assert!(finite_json(&item), "non-finite number in {line}");
        let answer = item["answer_text"].as_str().unwrap_or_default();
        assert!(!prints_non_finite(answer), "answer `{answer}` in {line}");
        for choice in item["choices"].as_array().into_iter().flatten() {
            let choice = choice.as_str().unwrap_or_default();
            assert!(!prints_non_finite(choice), "option `{choice}` in {line}");
        }
        stats.items += 1;
    }
    let charts = std::fs::read_to_string(suite.join("charts.jsonl")).unwrap();
    for line in charts.lines() {
        let chart: Value = serde_json::from_str(line).unwrap();
        assert!(finite_json(&chart), "non-finite number in a chart record");
    }
}

#[test]
fn hostile_batches_through_generate_gallery_and_score_stay_bounded() {
    let n = cases();
    let dir = tempfile::tempdir().unwrap();
    let mut stats = Stats::default();
    let tables = samples(table_csv(), n, 7);
    let sidecars = samples(prop_sidecar(), n, 8);
    for (batch, chunk) in tables.chunks(TABLES_PER_BATCH).enumerate() {
        let input = dir.path().join(format!("tables-{batch}"));
        std::fs::create_dir_all(&input).unwrap();
        for (k, csv) in chunk.iter().enumerate() {
            let id = batch * TABLES_PER_BATCH + k;
            std::fs::write(input.join(format!("t{id:05}.csv")), csv).unwrap();
            if let Some(sidecar) = &sidecars[id] {
                std::fs::write(input.join(format!("t{id:05}.meta.json")), sidecar).unwrap();
            }
        }
        stats.tables += chunk.len();
        let suite = dir.path().join(format!("suite-{batch}"));
        bounded(
            &format!("generate batch {batch}"),
            bin()
                .arg("generate")
                .arg(&input)
                .arg("--out")
                .arg(&suite)
                .args(["--seed", &batch.to_string(), "--threads", "2"]),
            &mut stats,
        );
        check_suite(&suite, &mut stats);
        let gallery = dir.path().join(format!("gallery-{batch}"));
        bounded(
            &format!("gallery batch {batch}"),
            bin()
                .arg("gallery")
                .arg(&input)
                .arg("--output")
                .arg(&gallery)
                .args(["--themes", "classic,dark", "--quiet"]),
            &mut stats,
        );
        stats.images += std::fs::read_dir(gallery.join("images"))
            .map(|d| d.count())
            .unwrap_or(0);
        // What this batch wrote is checked; the disk is not kept busy with it.
        let _ = std::fs::remove_dir_all(&gallery);
        let _ = std::fs::remove_dir_all(&suite);
    }

    let records = samples(score_line(), n, 9);
    let input = dir.path().join("records.jsonl");
    // One line of invalid UTF-8 among them, as files from the wild have.
    let mut bytes = records.join("\n").into_bytes();
    bytes.extend_from_slice(b"\n{\"target\": \"\xff\xfe\", \"prediction\": \"1\"}\n");
    std::fs::write(&input, bytes).unwrap();
    for metric in [
        "relaxed",
        "chartqapro-reference",
        "chartqa",
        "exact",
        "anls",
    ] {
        let out = bounded(
            &format!("score --metric {metric}"),
            bin().arg("score").arg(&input).args(["--metric", metric]),
            &mut stats,
        );
        for line in String::from_utf8(out.stdout).unwrap().lines() {
            let record: Value = serde_json::from_str(line).unwrap();
            let score = record["score"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&score), "{metric}: {line}");
            stats.scored += 1;
        }
    }
    eprintln!(
        "{} tables and {} score records: {} processes, {} items, {} gallery images, {} scores; \
         slowest process {:.1} s, peak memory {} MB",
        stats.tables,
        records.len(),
        stats.processes,
        stats.items,
        stats.images,
        stats.scored,
        stats.slowest.as_secs_f64(),
        stats.peak_kb / 1024
    );
    assert!(stats.items > 0, "some hostile tables must yield items");
    assert!(stats.scored > 0);
}

/// A sidecar for about one table in three.
fn prop_sidecar() -> impl proptest::strategy::Strategy<Value = Option<String>> {
    use proptest::prelude::*;
    prop_oneof![2 => Just(None), 1 => sidecar_json().prop_map(Some)]
}
