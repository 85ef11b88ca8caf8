//! The `command` adapter with real worker processes: answers, a worker that
//! crashes on one item (restarted, item retried), one that always crashes
//! there (recorded as an error), SIGKILL of `run` mid-way and resume, and
//! program-of-thought execution and prompt templates through the protocol.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::run_support::*;

fn echo_cmd() -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/echo_model.py");
    format!("python3 '{}'", script.display())
}

fn command_run(suite: &Path, extra: &[&str], env: &[(&str, String)]) -> std::process::Command {
    let mut cmd = bin();
    cmd.arg("run")
        .arg(suite)
        .args([
            "--adapter",
            "command",
            "--cmd",
            &echo_cmd(),
            "--no-progress",
        ])
        .args(["--timeout-secs", "20"])
        .args(extra)
        .env_remove("CHARTSTRESS_CACHE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}

fn call_counts(log: &Path) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for id in std::fs::read_to_string(log).unwrap_or_default().lines() {
        *counts.entry(id.to_string()).or_insert(0) += 1;
    }
    counts
}

#[test]
fn workers_answer_and_log_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 8);
    succeed(&mut command_run(&suite, &["--workers", "2"], &[]));
    let preds = predictions(&suite, "command");
    assert_eq!(preds.len(), 8);
    for (p, item) in preds.iter().zip(items(&suite)) {
        let last = item
            .question
            .trim_end_matches('?')
            .rsplit(' ')
            .next()
            .unwrap()
            .to_string();
        assert_eq!(p.answer, last);
        assert_eq!(p.raw, format!("The answer is {last}."));
        assert!(p.usage.is_some());
    }
    let log = std::fs::read_to_string(suite.join("runs/command/worker-0.stderr.log")).unwrap();
    assert!(log.contains("echo model ready"));
    assert!(suite.join("runs/command/worker-1.stderr.log").exists());
}

#[test]
fn a_crashing_worker_is_restarted_and_the_item_retried() {
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 6);
    let log = dir.path().join("calls.log");
    let env = [
        ("ECHO_CRASH_ON", "[q2]".to_string()),
        (
            "ECHO_CRASH_MARK",
            dir.path().join("crashed").display().to_string(),
        ),
        ("ECHO_CALL_LOG", log.display().to_string()),
    ];
    succeed(&mut command_run(&suite, &[], &env));
    let preds = predictions(&suite, "command");
    assert_eq!(preds.len(), 6);
    assert!(preds.iter().all(|p| !p.is_error()));
    assert_eq!(preds[2].attempts, 2);
    let counts = call_counts(&log);
    assert_eq!(counts["q2"], 2);
    assert!(counts.iter().all(|(id, n)| id == "q2" || *n == 1));
    let stderr = std::fs::read_to_string(suite.join("runs/command/worker-0.stderr.log")).unwrap();
    assert!(stderr.contains("crashing on purpose on q2"));
}

#[test]
fn a_worker_that_always_crashes_on_an_item_gives_an_error_not_a_wrong_answer() {
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 4);
    let out = command_run(
        &suite,
        &["--max-retries", "2"],
        &[("ECHO_CRASH_ON", "[q1]".to_string())],
    )
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let preds = predictions(&suite, "command");
    assert_eq!(preds.len(), 4);
    let failed: Vec<_> = preds.iter().filter(|p| p.is_error()).collect();
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0].id, "q1");
    assert_eq!(failed[0].attempts, 3);
    assert!(failed[0].error.as_deref().unwrap().starts_with("worker:"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("worker: 1"));
}

#[test]
fn sigkill_mid_run_then_resume_gives_one_prediction_per_item() {
    let dir = tempfile::tempdir().unwrap();
    let n = 12;
    let suite = tiny_suite(dir.path(), n);
    let log = dir.path().join("calls.log");
    let env = [
        ("ECHO_SLEEP", "0.3".to_string()),
        ("ECHO_CALL_LOG", log.display().to_string()),
    ];
    let predictions_path = suite.join("runs/command/predictions.jsonl");
    let mut child = command_run(&suite, &[], &env)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let lines = std::fs::read_to_string(&predictions_path)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if lines >= 3 {
            break;
        }
        assert!(Instant::now() < deadline, "run made no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let done_before: Vec<String> = chartstress::run::read_predictions(&predictions_path)
        .unwrap()
        .into_iter()
        .map(|p| p.id)
        .collect();
    assert!(done_before.len() >= 3 && done_before.len() < n);
    // A write cut short by the kill, as a crash at the worst moment leaves it.
    let mut torn = std::fs::read(&predictions_path).unwrap();
    torn.extend_from_slice(br#"{"id":"q11","raw":"The ans"#);
    std::fs::write(&predictions_path, torn).unwrap();

    succeed(&mut command_run(&suite, &[], &env));
    let text = std::fs::read_to_string(&predictions_path).unwrap();
    assert_eq!(
        text.lines().count(),
        n,
        "exactly one line per item:\n{text}"
    );
    let preds = predictions(&suite, "command");
    let ids: Vec<String> = preds.iter().map(|p| p.id.clone()).collect();
    assert_eq!(ids, (0..n).map(|k| format!("q{k}")).collect::<Vec<_>>());
    assert!(preds.iter().all(|p| !p.is_error()));
    let counts = call_counts(&log);
    for id in &done_before {
        assert_eq!(
            counts[id], 1,
            "{id} was finished before the kill and called again"
        );
    }
    assert_eq!(counts.len(), n);
}

#[test]
fn program_of_thought_runs_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 2);
    let env = [("ECHO_REPLY", "```python\\nprint(6*7)\\n```".to_string())];
    succeed(&mut command_run(
        &suite,
        &["--prompt", "pot", "--execute-pot", "--name", "pot"],
        &env,
    ));
    let preds = predictions(&suite, "pot");
    assert!(preds.iter().all(|p| p.answer == "42"), "{preds:?}");
    assert!(preds[0].raw.contains("print(6*7)"));

    // Without --execute-pot the code is not run (and the reply comes from the cache).
    succeed(&mut command_run(
        &suite,
        &["--prompt", "pot", "--name", "pot-off"],
        &env,
    ));
    let preds = predictions(&suite, "pot-off");
    assert!(preds.iter().all(|p| p.answer != "42" && p.cached));

    // A cache tag is part of the key: fresh calls.
    succeed(&mut command_run(
        &suite,
        &[
            "--prompt",
            "pot",
            "--name",
            "pot-tag",
            "--cache-tag",
            "weights-v2",
        ],
        &env,
    ));
    assert!(predictions(&suite, "pot-tag").iter().all(|p| !p.cached));
}

#[test]
fn prompt_strategies_and_user_templates_reach_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 1);
    let env = [("ECHO_REPLY_PROMPT", "1".to_string())];
    succeed(&mut command_run(
        &suite,
        &["--prompt", "cot", "--name", "cot"],
        &env,
    ));
    let raw = &predictions(&suite, "cot")[0].raw;
    assert!(
        raw.contains("Question: [q0] What is the value of Sales for Asia?"),
        "{raw}"
    );
    assert!(raw.contains("step by step"), "{raw}");

    // Resuming a run folder with another configuration is refused.
    let out = command_run(&suite, &["--prompt", "direct", "--name", "cot"], &env)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("another --name"));

    let template = dir.path().join("mine.j2");
    std::fs::write(
        &template,
        "MINE {{ strategy }} {{ question_type }}: {{ question }}",
    )
    .unwrap();
    succeed(&mut command_run(
        &suite,
        &[
            "--prompt-template",
            template.to_str().unwrap(),
            "--name",
            "mine",
        ],
        &env,
    ));
    let raw = &predictions(&suite, "mine")[0].raw;
    assert_eq!(
        raw,
        "MINE direct factoid: [q0] What is the value of Sales for Asia?"
    );

    std::fs::write(&template, "{% if %}").unwrap();
    let out = command_run(
        &suite,
        &[
            "--prompt-template",
            template.to_str().unwrap(),
            "--name",
            "bad",
        ],
        &env,
    )
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("mine.j2"));
}

#[test]
fn a_command_that_cannot_run_stops_the_run_with_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 3);
    let out = bin()
        .arg("run")
        .arg(&suite)
        .args([
            "--adapter",
            "command",
            "--cmd",
            "chartstress-no-such-program-x1",
            "--no-progress",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("could not be run"), "{stderr}");
    let preds =
        chartstress::run::read_predictions(&suite.join("runs/command/predictions.jsonl")).unwrap();
    assert!(preds.is_empty(), "no item is scored for a broken command");
}
