//! Keys never land in a file: for each way of handing one over (an
//! environment variable, `user:password@` and `api-key=` in the base URL, an
//! auth field of `--extra-json`, an assignment, a flag or a header in
//! `--cmd`, a secret-named environment variable of the worker), a real
//! server or worker echoes it back in replies, error bodies and logs, and a
//! byte search of every file the run and the report write finds nothing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};

use crate::run_support::*;
use serde_json::{Value, json};

/// Every file under `dir`, recursively.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out
}

/// Fails naming each file (and the output streams) holding any secret.
fn assert_nowhere(secrets: &[&str], dirs: &[&Path], outputs: &[&Output]) {
    let mut found = Vec::new();
    for dir in dirs {
        for path in files(dir) {
            let bytes = std::fs::read(&path).unwrap();
            let text = String::from_utf8_lossy(&bytes);
            for s in secrets.iter().filter(|s| text.contains(**s)) {
                found.push(format!("{s} in {}", path.display()));
            }
        }
    }
    for (k, out) in outputs.iter().enumerate() {
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        for s in secrets.iter().filter(|s| text.contains(**s)) {
            found.push(format!("{s} in the output of command {k}"));
        }
    }
    assert!(found.is_empty(), "secrets written: {found:#?}");
}

fn report(suite: &Path, out: &Path) -> Output {
    bin()
        .arg("report")
        .arg(suite)
        .arg("--output")
        .arg(out)
        .output()
        .unwrap()
}

fn run_openai(suite: &Path, url: &str, extra: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd: Command = bin();
    cmd.arg("run")
        .arg(suite)
        .args(["--adapter", "openai", "--base-url", url, "--model", "m"])
        .args([
            "--no-progress",
            "--retry-base-ms",
            "5",
            "--max-retries",
            "1",
        ])
        .args(extra)
        .env_remove("CHARTSTRESS_CACHE")
        .env_remove("OPENAI_API_KEY");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// A server that answers item K by echoing back everything it was sent:
/// q0 gets a 401 whose body names the credential 290 bytes in (past the
/// point where error bodies are cut), q1 a 500 with it, the rest a 200
/// whose content repeats the credential, the URL and the request fields.
fn echoing_server(seen: Arc<Mutex<Vec<(String, String)>>>) -> String {
    serve(Arc::new(move |req: &HttpRequest| {
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        let prompt = body["messages"][0]["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        let id = marker(prompt).unwrap_or_default();
        let auth = req.header("authorization").unwrap_or("").to_string();
        seen.lock().unwrap().push((req.path.clone(), auth.clone()));
        let mut fields = body.clone();
        fields.as_object_mut().unwrap().remove("messages");
        let echo = format!("you sent {auth} to {} with {fields}", req.path);
        match id.as_str() {
            "q0" => Action::json(401, format!("{}{echo}", "x".repeat(290))),
            "q1" => Action::json(500, json!({ "detail": echo }).to_string()),
            _ => Action::json(200, completion(json!(format!("42. ({echo})")))),
        }
    }))
}

#[test]
fn keys_from_the_environment_url_and_extra_json_are_never_written() {
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 6);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let url = echoing_server(seen.clone());
    let base = url.trim_start_matches("http://");

    let env_key = "sk-live-7f3a9c1e7b2d40681a";
    let out_env = run_openai(
        &suite,
        &url,
        &["--name", "env", "--api-key-env", "MY_MODEL_CRED"],
        &[("MY_MODEL_CRED", env_key)],
    );
    assert_eq!(out_env.status.code(), Some(1), "q0 and q1 fail");

    let (user, password, query_key) = ("svc-user-0193", "pw%2Fsecret-5521", "qk-0a1b2c3d4e5f");
    let url_with_secrets =
        format!("http://{user}:{password}@{base}?api-version=1&api-key={query_key}");
    let out_url = run_openai(&suite, &url_with_secrets, &["--name", "url"], &[]);
    assert_eq!(out_url.status.code(), Some(1));

    let (field_key, header_token) = ("ej-field-00112233", "ej-bearer-44556677");
    let extra = json!({
        "api_key": field_key,
        "extra_headers": { "Authorization": format!("Bearer {header_token}") },
        "top_p": 1
    })
    .to_string();
    let out_json = run_openai(
        &suite,
        &url,
        &["--name", "json", "--extra-json", &extra],
        &[],
    );
    assert_eq!(out_json.status.code(), Some(1));

    // The credentials did reach the server, and the server did echo them.
    let seen = seen.lock().unwrap().clone();
    assert!(
        seen.iter()
            .any(|(_, auth)| auth == &format!("Bearer {env_key}"))
    );
    let basic = format!("{user}:pw/secret-5521");
    let basic = format!(
        "Basic {}",
        base64::Engine::encode(&base64::engine::general_purpose::STANDARD, basic)
    );
    assert!(seen.iter().any(|(_, auth)| *auth == basic), "{seen:?}");
    assert!(
        seen.iter()
            .any(|(path, _)| path
                == &format!("/v1/chat/completions?api-version=1&api-key={query_key}")),
        "{seen:?}"
    );
    let env_answers = predictions(&suite, "env");
    assert!(
        env_answers.iter().any(|p| p.raw.contains("[REDACTED]")),
        "the echo was recorded, redacted: {env_answers:?}"
    );
    assert_eq!(env_answers.iter().filter(|p| p.is_error()).count(), 2);

    let report_dir = dir.path().join("report");
    let out_report = report(&suite, &report_dir);
    assert!(out_report.status.success(), "{out_report:?}");
    let basic_secret = basic.trim_start_matches("Basic ").to_string();
    assert_nowhere(
        &[
            env_key,
            // A key cut where an error body is shortened would leave its start.
            &env_key[..10],
            user,
            password,
            "pw/secret-5521",
            query_key,
            field_key,
            header_token,
            &basic_secret,
        ],
        &[&suite, &report_dir],
        &[&out_env, &out_url, &out_json, &out_report],
    );
    // What is not secret is still shown.
    let info = std::fs::read_to_string(suite.join("runs/url/run.json")).unwrap();
    assert!(info.contains("api-version=1"), "{info}");
    let info = std::fs::read_to_string(suite.join("runs/json/run.json")).unwrap();
    assert!(info.contains("\"top_p\": 1"), "{info}");
}

#[test]
fn a_bad_base_url_or_extra_json_error_shows_no_secret() {
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 2);
    let out = run_openai(&suite, "ftp://u:pw-77665544@h/v1", &[], &[]);
    assert_eq!(out.status.code(), Some(2));
    let out_json = run_openai(
        &suite,
        "http://127.0.0.1:9/v1",
        &["--extra-json", "{\"api_key\": \"ej-6655443322\""],
        &[],
    );
    assert_eq!(out_json.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out_json.stderr).contains("--extra-json"));
    assert_nowhere(
        &["pw-77665544", "ej-6655443322"],
        &[&suite],
        &[&out, &out_json],
    );
}

#[test]
fn secrets_in_a_command_line_and_its_environment_are_never_written() {
    let dir = tempfile::tempdir().unwrap();
    let suite = tiny_suite(dir.path(), 4);
    // Prints every argument and secret-looking variable it was given into
    // its answers and onto stderr, as a careless wrapper might.
    let script = dir.path().join("leaky_worker.py");
    std::fs::write(
        &script,
        r#"import json, os, sys
leak = " ".join(sys.argv[1:] + [os.environ.get(k, "") for k in ("WORKER_TOKEN", "SERVICE_PASSWORD")])
for line in sys.stdin:
    req = json.loads(line)
    print("worker sees:", leak, file=sys.stderr, flush=True)
    print(json.dumps({"id": req["id"], "text": "42 " + leak}), flush=True)
"#,
    )
    .unwrap();
    let cmd = format!(
        "WORKER_TOKEN=wt-aa11bb22cc33 python3 '{}' --api-key cf-dd44ee55ff66 \
         -H 'Authorization: Bearer hb-0099887766'",
        script.display()
    );
    let out = bin()
        .arg("run")
        .arg(&suite)
        .args(["--adapter", "command", "--cmd", &cmd, "--no-progress"])
        .env_remove("CHARTSTRESS_CACHE")
        .env("SERVICE_PASSWORD", "sp-12345678abcd")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let answers = predictions(&suite, "command");
    assert_eq!(answers.len(), 4);
    assert!(
        answers
            .iter()
            .all(|p| p.raw.starts_with("42 ") && p.raw.contains("[REDACTED]"))
    );
    let log = std::fs::read_to_string(suite.join("runs/command/worker-0.stderr.log")).unwrap();
    assert!(log.contains("worker sees:"), "{log}");
    let report_dir = dir.path().join("report");
    let out_report = report(&suite, &report_dir);
    assert!(out_report.status.success(), "{out_report:?}");
    assert_nowhere(
        &[
            "wt-aa11bb22cc33",
            "cf-dd44ee55ff66",
            "hb-0099887766",
            "sp-12345678abcd",
        ],
        &[&suite, &report_dir],
        &[&out, &out_report],
    );
}
