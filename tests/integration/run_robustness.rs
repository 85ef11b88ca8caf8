//! `chartstress run` when things go wrong around it, through the real
//! binary: two runs on one folder, a suite left by a stopped `generate`,
//! empty and JSON replies, workers outliving a `kill -9`, a server that is
//! not there or goes away, and long Retry-After waits.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::run_support::*;
use serde_json::{Value, json};

/// `chartstress run SUITE --adapter openai …` against `url`, quick retries.
fn openai(suite: &Path, url: &str, extra: &[&str]) -> Command {
    let mut cmd = bin();
    cmd.arg("run")
        .arg(suite)
        .args(["--adapter", "openai", "--base-url", url, "--model", "m"])
        .args(["--no-progress", "--retry-base-ms", "10"])
        .args(extra)
        .env_remove("CHARTSTRESS_CACHE")
        .env_remove("OPENAI_API_KEY");
    cmd
}

/// Every request's `[qK]` marker, in arrival order, with its arrival time.
type Calls = Arc<Mutex<Vec<(String, Instant)>>>;

fn record(calls: &Calls, req: &HttpRequest) -> (String, usize) {
    let body: Value = serde_json::from_slice(&req.body).unwrap();
    let prompt = body["messages"][0]["content"][0]["text"].as_str().unwrap();
    let id = marker(prompt).unwrap();
    let mut calls = calls.lock().unwrap();
    calls.push((id.clone(), Instant::now()));
    let n = calls.iter().filter(|(i, _)| *i == id).count();
    (id, n)
}

fn call_counts(calls: &Calls) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for (id, _) in calls.lock().unwrap().iter() {
        *out.entry(id.clone()).or_insert(0) += 1;
    }
    out
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn run_json(suite: &Path, run: &str) -> Value {
    let path = suite.join("runs").join(run).join("run.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn wait_for(what: &str, timeout: Duration, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + timeout;
    while !ready() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_second_run_on_a_busy_folder_is_refused_and_the_first_finishes_whole() {
    let dir = tempfile::tempdir().unwrap();
    let n = 8;
    let suite = tiny_suite(dir.path(), n);
    let calls: Calls = Arc::default();
    let seen = calls.clone();
    let url = serve(Arc::new(move |req: &HttpRequest| {
        let (id, _) = record(&seen, req);
        let ok = Action::json(200, completion(json!(format!("Answer: ok-{id}"))));
        Action::Delay(Duration::from_millis(400), Box::new(ok))
    }));
    let args = ["--concurrency", "2"];
    let first = openai(&suite, &url, &args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = first.id();
    // The first run holds the folder once its first request is in.
    wait_for(
        "the first run's first call",
        Duration::from_secs(30),
        || !calls.lock().unwrap().is_empty(),
    );

    let t0 = Instant::now();
    let second = openai(&suite, &url, &args).output().unwrap();
    let refused_in = t0.elapsed();
    let message = stderr(&second);
    assert_eq!(second.status.code(), Some(2), "{message}");
    assert!(
        message.contains(&format!("pid {pid}")) && message.contains("in use"),
        "{message}"
    );
    assert!(
        message.contains("runs/openai"),
        "names the folder: {message}"
    );
    assert!(
        refused_in < Duration::from_secs(2),
        "refused at once, took {refused_in:?}"
    );

    let first = first.wait_with_output().unwrap();
    assert!(first.status.success(), "{}", stderr(&first));
    let text = std::fs::read_to_string(suite.join("runs/openai/predictions.jsonl")).unwrap();
    assert_eq!(text.lines().count(), n, "one line per item:\n{text}");
    let preds = predictions(&suite, "openai");
    let ids: Vec<&str> = preds.iter().map(|p| p.id.as_str()).collect();
    let expected: Vec<String> = (0..n).map(|k| format!("q{k}")).collect();
    assert_eq!(ids, expected);
    for p in &preds {
        assert_eq!(p.answer, format!("ok-{}", p.id));
    }
    let counts = call_counts(&calls);
    assert_eq!(counts.len(), n);
    assert!(
        counts.values().all(|&c| c == 1),
        "each item called once: {counts:?}"
    );

    // The lock went with the process: the folder can be run again at once.
    let again = openai(&suite, &url, &args).output().unwrap();
    assert!(again.status.success(), "{}", stderr(&again));
}

#[test]
fn a_suite_without_a_complete_suite_json_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 2);
    let manifest = suite.join("suite.json");
    let blind = || {
        bin()
            .arg("run")
            .arg(&suite)
            .args(["--adapter", "blind", "--no-progress"])
            .output()
            .unwrap()
    };

    // What a `generate` stopped before its end leaves: items, no suite.json.
    std::fs::remove_file(&manifest).unwrap();
    let out = blind();
    let message = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{message}");
    assert!(message.contains(&suite.display().to_string()), "{message}");
    assert!(message.contains("no suite.json"), "{message}");
    assert!(!suite.join("runs").exists(), "nothing is written");

    std::fs::write(&manifest, "{\"tool_version\": \"0.1").unwrap();
    let out = blind();
    let message = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{message}");
    assert!(message.contains("incomplete suite.json"), "{message}");

    std::fs::write(&manifest, "{}\n").unwrap();
    let out = blind();
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn empty_replies_are_retried_never_stored_and_json_replies_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 6);
    let calls: Calls = Arc::default();
    let seen = calls.clone();
    let url = serve(Arc::new(move |req: &HttpRequest| {
        let (id, call) = record(&seen, req);
        let content = match (id.as_str(), call) {
            ("q0", 1) => json!(""),
            ("q0", _) => json!("42"),
            ("q1", _) => json!("  \n\t "),
            ("q2", _) => json!("{\"answer\": \"France\"}"),
            ("q3", _) => json!("Here it is:\n```json\n{\"answer\": 42}\n```"),
            ("q4", _) => Value::Null,
            _ => json!("{\"answer\": 7.5, \"unit\": \"%\"}"),
        };
        Action::json(200, completion(content))
    }));
    let out = openai(&suite, &url, &["--max-retries", "2", "--concurrency", "1"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "errors remain: {}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("empty_reply: 2"), "{}", stderr(&out));
    let preds = predictions(&suite, "openai");
    let by_id: BTreeMap<&str, _> = preds.iter().map(|p| (p.id.as_str(), p)).collect();
    assert_eq!(by_id["q0"].answer, "42");
    assert_eq!(by_id["q0"].attempts, 2);
    assert_eq!(by_id["q2"].answer, "France");
    assert_eq!(by_id["q3"].answer, "42");
    assert_eq!(by_id["q5"].answer, "7.5");
    for id in ["q1", "q4"] {
        let p = by_id[id];
        let error = p.error.as_deref().unwrap_or_default();
        assert!(error.starts_with("empty_reply: "), "{id}: {p:?}");
        assert_eq!((p.attempts, p.answer.as_str()), (3, ""), "{id}");
    }
    let counts = call_counts(&calls);
    assert_eq!((counts["q0"], counts["q1"], counts["q4"]), (2, 3, 3));

    // Never cached: another run name calls them again, the rest comes from the cache.
    let out = openai(&suite, &url, &["--max-retries", "0", "--name", "other"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let counts = call_counts(&calls);
    assert_eq!((counts["q0"], counts["q1"], counts["q4"]), (2, 4, 4));
    let other = predictions(&suite, "other");
    assert_eq!(other.iter().filter(|p| p.cached).count(), 4);
    // Recorded as errors, so --retry-errors calls them again.
    let out = openai(&suite, &url, &["--max-retries", "0", "--retry-errors"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let counts = call_counts(&calls);
    assert_eq!((counts["q1"], counts["q4"], counts["q2"]), (5, 5, 1));
}

#[test]
fn empty_command_replies_are_retried_and_recorded_as_errors() {
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 2);
    let log = dir.path().join("calls.log");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/echo_model.py");
    let out = bin()
        .arg("run")
        .arg(&suite)
        .args([
            "--adapter",
            "command",
            "--no-progress",
            "--max-retries",
            "2",
        ])
        .arg("--cmd")
        .arg(format!("python3 '{}'", script.display()))
        .env("ECHO_REPLY", " \\n ")
        .env("ECHO_CALL_LOG", &log)
        .env_remove("CHARTSTRESS_CACHE")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let preds = predictions(&suite, "command");
    assert_eq!(preds.len(), 2);
    for p in &preds {
        assert!(
            p.error.as_deref().unwrap().starts_with("empty_reply:"),
            "{p:?}"
        );
        assert_eq!(p.attempts, 3);
    }
    let calls = std::fs::read_to_string(&log).unwrap();
    assert_eq!(calls.lines().count(), 6, "{calls}");
}

/// Whether `pid` is still a live process (a zombie waiting for a reaper is not).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name in parentheses.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X'])),
        Err(_) => false,
    }
}

#[cfg(target_os = "linux")]
#[test]
fn command_workers_die_with_a_killed_run() {
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 3);
    let pids = dir.path().join("pids");
    // A model that never reads its stdin and leaves a child of its own:
    // neither notices the pipe closing when the run dies.
    let script = dir.path().join("hang.sh");
    std::fs::write(
        &script,
        "echo $$ >> \"$1\"\nsleep 300 &\necho $! >> \"$1\"\nexec sleep 300\n",
    )
    .unwrap();
    let cmd = format!(
        "echo $$ >> '{p}'; cd / && sh '{s}' '{p}'",
        p = pids.display(),
        s = script.display()
    );
    let start = || -> Child {
        bin()
            .arg("run")
            .arg(&suite)
            .args(["--adapter", "command", "--no-progress", "--workers", "2"])
            .args(["--timeout-secs", "120", "--cmd", &cmd])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    let read_pids = || -> Vec<u32> {
        std::fs::read_to_string(&pids)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    };
    let mut run = start();
    // Two workers, each: the `sh -c` wrapper, the script's shell, its child.
    wait_for("both workers to start", Duration::from_secs(30), || {
        read_pids().len() >= 6
    });
    let workers = read_pids();
    assert!(workers.iter().all(|&p| alive(p)), "{workers:?}");
    run.kill().unwrap(); // SIGKILL: no destructor, no cleanup code runs
    run.wait().unwrap();
    let t0 = Instant::now();
    wait_for("the workers to die", Duration::from_secs(5), || {
        workers.iter().all(|&p| !alive(p))
    });
    eprintln!("workers gone {:?} after the kill", t0.elapsed());

    // The run folder's lock died with the run too: a new run starts at once
    // (and is stopped the same way).
    std::fs::remove_file(&pids).unwrap();
    let mut run = start();
    wait_for("the new run's workers", Duration::from_secs(30), || {
        read_pids().len() >= 6
    });
    let workers = read_pids();
    run.kill().unwrap();
    run.wait().unwrap();
    wait_for("the new workers to die", Duration::from_secs(5), || {
        workers.iter().all(|&p| !alive(p))
    });
}

/// A port on 127.0.0.1 nothing listens on.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

#[test]
fn a_wrong_port_stops_the_run_in_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 40);
    let url = format!("http://127.0.0.1:{}/v1", closed_port());
    let t0 = Instant::now();
    // Default retries, backoff and limit: the settings a user would have.
    let out = bin()
        .arg("run")
        .arg(&suite)
        .args(["--adapter", "openai", "--base-url", &url, "--model", "m"])
        .arg("--no-progress")
        .env_remove("CHARTSTRESS_CACHE")
        .output()
        .unwrap();
    let took = t0.elapsed();
    let message = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{message}");
    assert!(
        message.contains(&format!(
            "stopped after 10 consecutive connection failures to {url}: connection refused"
        )),
        "{message}"
    );
    assert!(took < Duration::from_secs(10), "took {took:?}: {message}");
    let status = run_json(&suite, "openai");
    assert_eq!(status["status"], "stopped");
    assert!(
        status["counts"]["stop_reason"]
            .as_str()
            .unwrap()
            .contains("connection refused")
    );
    // No item was given up on: a rerun calls them all.
    assert!(predictions(&suite, "openai").is_empty());
}

#[test]
fn a_server_that_goes_away_stops_the_run_keeping_what_was_answered() {
    let dir = tempfile::tempdir().unwrap();
    let n = 10;
    let suite = tiny_suite(dir.path(), n);
    let calls: Calls = Arc::default();
    let seen = calls.clone();
    // Answers 4 requests, then drops every connection until `down` is cleared.
    let down = Arc::new(Mutex::new(true));
    let answered = Arc::new(Mutex::new(0));
    let (d, a) = (down.clone(), answered.clone());
    let url = serve(Arc::new(move |req: &HttpRequest| {
        let (id, _) = record(&seen, req);
        let mut answered = a.lock().unwrap();
        if *d.lock().unwrap() && *answered >= 4 {
            return Action::Drop;
        }
        *answered += 1;
        Action::json(200, completion(json!(format!("The answer is ok-{id}."))))
    }));
    let args = [
        "--concurrency",
        "1",
        "--max-retries",
        "5",
        "--max-consecutive-failures",
        "3",
    ];
    let out = openai(&suite, &url, &args).output().unwrap();
    let message = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{message}");
    assert!(
        message.contains(&format!(
            "stopped after 3 consecutive connection failures to {url}"
        )),
        "{message}"
    );
    assert!(
        message.contains("4 of 10 items have a prediction, kept"),
        "{message}"
    );
    let preds = predictions(&suite, "openai");
    let ids: Vec<&str> = preds.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["q0", "q1", "q2", "q3"]);
    assert!(preds.iter().all(|p| p.answer == format!("ok-{}", p.id)));
    assert_eq!(
        call_counts(&calls)["q4"],
        3,
        "three attempts, then the stop"
    );

    // The server is back: the same command finishes the rest, once each.
    *down.lock().unwrap() = false;
    let out = openai(&suite, &url, &args).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let preds = predictions(&suite, "openai");
    assert_eq!(preds.len(), n);
    assert!(preds.iter().all(|p| p.answer == format!("ok-{}", p.id)));
    let counts = call_counts(&calls);
    assert!((0..4).all(|k| counts[&format!("q{k}")] == 1), "{counts:?}");
    assert_eq!(run_json(&suite, "openai")["status"], "finished");
}

/// Seconds between the first and second call for `id`.
fn gap(calls: &Calls, id: &str) -> f64 {
    let calls = calls.lock().unwrap();
    let times: Vec<Instant> = calls
        .iter()
        .filter(|(i, _)| i == id)
        .map(|(_, t)| *t)
        .collect();
    assert_eq!(times.len(), 2, "{id}: one 429, one retry");
    (times[1] - times[0]).as_secs_f64()
}

#[test]
fn retry_after_is_honoured_up_to_its_cap() {
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 2);
    let calls: Calls = Arc::default();
    let seen = calls.clone();
    let url = serve(Arc::new(move |req: &HttpRequest| {
        let (id, call) = record(&seen, req);
        if call == 1 {
            let after = if id == "q0" { "1" } else { "30" };
            return Action::Respond {
                status: 429,
                headers: vec![("Retry-After".into(), after.into())],
                body: "{\"error\":\"slow down\"}".into(),
            };
        }
        Action::json(200, completion(json!("1")))
    }));
    let out = openai(
        &suite,
        &url,
        &["--max-retry-after", "2.5", "--concurrency", "2"],
    )
    .output()
    .unwrap();
    let message = stderr(&out);
    assert!(out.status.success(), "{message}");
    let (asked, capped) = (gap(&calls, "q0"), gap(&calls, "q1"));
    // Under the cap the server's wait is kept whole (the backoff is 10 ms);
    // over it, the cap is waited, not 30 s nor a fixed 60 s.
    assert!((0.95..2.2).contains(&asked), "q0 waited {asked} s for 1 s");
    assert!(
        (2.45..6.0).contains(&capped),
        "q1 waited {capped} s, capped at 2.5"
    );
    assert!(
        message.contains("asked to wait 30 s (Retry-After); waiting at most 2.5 s"),
        "{message}"
    );
    // The default cap is 300 s.
    let settings = &run_json(&suite, "openai")["adapter_settings"];
    assert_eq!(settings["max_retry_after_secs"], 2.5);
    let out = openai(&suite, &url, &["--name", "b", "--limit", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let settings = &run_json(&suite, "b")["adapter_settings"];
    assert_eq!(settings["max_retry_after_secs"], 300.0);
    assert_eq!(settings["max_consecutive_failures"], 10);
}
