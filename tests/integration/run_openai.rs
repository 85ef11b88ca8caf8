//! The `openai` adapter against a real chat-completions server on 127.0.0.1
//! that checks every request and injects faults: 500s, 429 + Retry-After,
//! answers slower than the timeout, malformed JSON, dropped connections, null
//! content, permanent failures. Asserts predictions and the calls the server saw.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::run_support::*;
use base64::Engine;
use serde_json::{Value, json};

const KEY: &str = "sk-test-secret-5f1c";

#[derive(Default)]
struct Seen {
    calls: HashMap<String, u32>,
    problems: Vec<String>,
}

fn check_request(
    req: &HttpRequest,
    suite_pngs: &HashMap<String, Vec<u8>>,
) -> Result<(String, Value), String> {
    if req.path != "/v1/chat/completions" {
        return Err(format!("path {}", req.path));
    }
    if req.header("authorization") != Some(&format!("Bearer {KEY}")) {
        return Err("missing or wrong Authorization header".into());
    }
    let body: Value = serde_json::from_slice(&req.body).map_err(|e| e.to_string())?;
    if body["model"] != "test-model" {
        return Err(format!("model {}", body["model"]));
    }
    if body["temperature"].as_f64() != Some(0.0) {
        return Err(format!("temperature {}", body["temperature"]));
    }
    if body["max_tokens"] != 64 || body["top_p"] != 1 {
        return Err("max_tokens / extra json missing".into());
    }
    let content = &body["messages"][0]["content"];
    let prompt = content[0]["text"].as_str().ok_or("no text part")?;
    let id = marker(prompt).ok_or("no marker in prompt")?;
    if !prompt.contains("What is") || !prompt.contains("Question:") {
        return Err(format!("{id}: prompt lacks the question: {prompt}"));
    }
    let url = content[1]["image_url"]["url"]
        .as_str()
        .ok_or("no image part")?;
    let b64 = url
        .strip_prefix("data:image/png;base64,")
        .ok_or("image is not a PNG data URL")?;
    let png = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .map_err(|e| e.to_string())?;
    let k: usize = id[1..].parse().unwrap();
    let chart = if k % 2 == 0 { "c1" } else { "c2" };
    if &png != suite_pngs.get(chart).unwrap() {
        return Err(format!(
            "{id}: image bytes differ from the suite's {chart}.png"
        ));
    }
    Ok((id, body))
}

fn fault(id: &str, call: u32) -> Action {
    let ok = || {
        Action::json(
            200,
            completion(json!(format!("<think>hmm</think>The answer is ok-{id}."))),
        )
    };
    match (id, call) {
        ("q1", 1) => Action::json(500, "{\"error\":\"boom\"}".into()),
        ("q2", 1) => Action::Respond {
            status: 429,
            headers: vec![("Retry-After".into(), "1".into())],
            body: "{\"error\":\"slow down\"}".into(),
        },
        ("q3", 1) => Action::Delay(Duration::from_secs(8), Box::new(ok())),
        ("q4", 1) => Action::json(200, "{\"choices\": [ {\"mess".into()),
        ("q5", 1) => Action::Drop,
        ("q6", 1) => Action::json(200, completion(Value::Null)),
        ("q7", _) => Action::json(503, "{\"error\":\"down\"}".into()),
        ("q8", _) => Action::json(400, "{\"error\":\"bad request\"}".into()),
        ("q9", _) => Action::json(
            200,
            json!({
                "choices": [{ "message": {
                    "content": [{ "type": "text", "text": "Answer: " }, { "type": "text", "text": "ok-q9" }],
                    "reasoning_content": "The answer is wrong-q9"
                }}]
            })
            .to_string(),
        ),
        _ => ok(),
    }
}

fn run(suite: &Path, base_url: &str, extra: &[&str]) -> std::process::Output {
    let defaults = [
        ("--max-tokens", "64"),
        ("--extra-json", "{\"top_p\": 1}"),
        ("--timeout-secs", "3"),
        ("--max-retries", "3"),
        ("--retry-base-ms", "20"),
        ("--concurrency", "4"),
    ];
    let mut cmd = bin();
    cmd.arg("run")
        .arg(suite)
        .args([
            "--adapter",
            "openai",
            "--base-url",
            base_url,
            "--model",
            "test-model",
        ])
        .args(["--api-key-env", "CHARTSTRESS_TEST_KEY", "--no-progress"]);
    for (flag, value) in defaults {
        if !extra.contains(&flag) {
            cmd.args([flag, value]);
        }
    }
    cmd.args(extra)
        .env("CHARTSTRESS_TEST_KEY", KEY)
        .env_remove("CHARTSTRESS_CACHE");
    cmd.output().unwrap()
}

fn calls(seen: &Mutex<Seen>) -> BTreeMap<String, u32> {
    seen.lock()
        .unwrap()
        .calls
        .iter()
        .map(|(k, v)| (k.clone(), *v))
        .collect()
}

fn assert_no_secret(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            assert_no_secret(&path);
        } else if let Ok(text) = std::fs::read_to_string(&path) {
            assert!(
                !text.contains(KEY),
                "the API key leaked into {}",
                path.display()
            );
        }
    }
}

#[test]
fn faults_are_retried_errors_recorded_and_calls_counted() {
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 10);
    let pngs: HashMap<String, Vec<u8>> = ["c1", "c2"]
        .iter()
        .map(|c| {
            (
                c.to_string(),
                std::fs::read(suite.join(format!("images/{c}.png"))).unwrap(),
            )
        })
        .collect();
    let seen = Arc::new(Mutex::new(Seen::default()));
    let handler_seen = seen.clone();
    let url = serve(Arc::new(move |req: &HttpRequest| {
        match check_request(req, &pngs) {
            Ok((id, _)) => {
                let call = {
                    let mut s = handler_seen.lock().unwrap();
                    let n = s.calls.entry(id.clone()).or_insert(0);
                    *n += 1;
                    *n
                };
                fault(&id, call)
            }
            Err(problem) => {
                handler_seen.lock().unwrap().problems.push(problem.clone());
                Action::json(422, json!({ "error": problem }).to_string())
            }
        }
    }));

    let out = run(&suite, &url, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "errors remain, so exit 1: {stderr}"
    );
    assert!(
        seen.lock().unwrap().problems.is_empty(),
        "{:?}",
        seen.lock().unwrap().problems
    );
    let expected: BTreeMap<String, u32> = [
        ("q0", 1),
        ("q1", 2),
        ("q2", 2),
        ("q3", 2),
        ("q4", 2),
        ("q5", 2),
        ("q6", 2),
        ("q7", 4),
        ("q8", 1),
        ("q9", 1),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), *v))
    .collect();
    assert_eq!(calls(&seen), expected);

    let preds = predictions(&suite, "openai");
    assert_eq!(preds.len(), 10);
    let ids: Vec<&str> = preds.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(
        ids,
        (0..10).map(|k| format!("q{k}")).collect::<Vec<_>>(),
        "suite order"
    );
    for p in &preds {
        match p.id.as_str() {
            "q7" => {
                let e = p.error.as_deref().unwrap();
                assert!(e.starts_with("server_error: HTTP 503 after 4"), "{e}");
                assert_eq!(p.attempts, 4);
                assert_eq!(p.answer, "");
            }
            "q8" => {
                assert!(p.error.as_deref().unwrap().starts_with("http: HTTP 400"));
                assert_eq!(p.attempts, 1);
            }
            id => {
                assert_eq!(p.error, None, "{id}");
                assert_eq!(p.answer, format!("ok-{id}"), "{id}: raw {}", p.raw);
                assert_eq!(p.attempts, expected[id]);
                assert!(!p.cached);
            }
        }
    }
    let q0 = &preds[0];
    assert_eq!(q0.raw, "<think>hmm</think>The answer is ok-q0.");
    assert_eq!(q0.usage.unwrap().prompt_tokens, 10);

    let run_json: Value =
        serde_json::from_str(&std::fs::read_to_string(suite.join("runs/openai/run.json")).unwrap())
            .unwrap();
    assert_eq!(run_json["status"], "finished");
    assert_eq!(run_json["tool_version"], chartstress::VERSION);
    assert_eq!(run_json["adapter_settings"]["model"], "test-model");
    assert_eq!(
        run_json["adapter_settings"]["api_key_env"],
        "CHARTSTRESS_TEST_KEY"
    );
    assert_eq!(run_json["counts"]["errors"], 2);
    assert_eq!(run_json["counts"]["answered"], 8);
    assert_eq!(run_json["counts"]["error_counts"]["server_error"], 1);
    assert_eq!(run_json["counts"]["error_counts"]["http"], 1);

    // Resume: nothing left to do (errors stay until --retry-errors).
    let out = run(&suite, &url, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(calls(&seen), expected);

    // --retry-errors calls only the failed items again.
    let out = run(&suite, &url, &["--retry-errors"]);
    assert_eq!(out.status.code(), Some(1));
    let mut after = expected.clone();
    *after.get_mut("q7").unwrap() += 4;
    *after.get_mut("q8").unwrap() += 1;
    assert_eq!(calls(&seen), after);
    let preds = predictions(&suite, "openai");
    assert_eq!(preds.len(), 10, "no duplicated lines");
    let lines = std::fs::read_to_string(suite.join("runs/openai/predictions.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 10);

    // Another run with other concurrency and retry settings is served from
    // the cache; only the failures (never cached) are called.
    let out = run(
        &suite,
        &url,
        &[
            "--name",
            "again",
            "--concurrency",
            "2",
            "--max-retries",
            "0",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut again = after.clone();
    *again.get_mut("q7").unwrap() += 1;
    *again.get_mut("q8").unwrap() += 1;
    assert_eq!(calls(&seen), again);
    let preds = predictions(&suite, "again");
    assert_eq!(preds.iter().filter(|p| p.cached).count(), 8);
    assert_eq!(preds[3].answer, "ok-q3");

    // A generation parameter is part of the key: --max-tokens 64 → 32 would
    // be rejected by this server, so use --no-cache to force fresh calls.
    let out = run(
        &suite,
        &url,
        &["--name", "fresh", "--no-cache", "--limit", "1"],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(calls(&seen)["q0"], 2);

    assert_no_secret(&suite);
}

#[test]
fn no_retry_gives_up_after_one_call_and_sets_filter() {
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 4);
    let count = Arc::new(Mutex::new(0u32));
    let c = count.clone();
    let url = serve(Arc::new(move |_req: &HttpRequest| {
        *c.lock().unwrap() += 1;
        Action::json(500, "{}".into())
    }));
    let out = run(&suite, &url, &["--no-retry", "--sets", "original"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        *count.lock().unwrap(),
        2,
        "two original items, one call each"
    );
    let preds = predictions(&suite, "openai");
    assert_eq!(preds.len(), 2);
    assert!(preds.iter().all(|p| p.is_error() && p.attempts == 1));
}

#[test]
fn missing_model_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 1);
    let out = bin()
        .args(["run"])
        .arg(&suite)
        .args(["--adapter", "openai"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--model"));
}
