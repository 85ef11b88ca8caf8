//! `chartstress paraphrase` against a model server on 127.0.0.1: faithful
//! rewordings are kept as the `llm` realizer, unfaithful ones and wrong
//! answers given the table are rejected, the manifest follows, and a second
//! pass resumes without asking again.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::run_support::{Action, completion, serve};
use crate::support::{bin, run_ok};

fn prompt_of(body: &[u8]) -> (String, bool) {
    let v: serde_json::Value = serde_json::from_slice(body).unwrap();
    let content = &v["messages"][0]["content"];
    let has_image = content
        .as_array()
        .unwrap()
        .iter()
        .any(|part| part["type"] == "image_url");
    let text = content[0]["text"].as_str().unwrap().to_string();
    (text, has_image)
}

#[test]
fn verified_paraphrases_join_the_suite_as_their_own_realizer() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite");
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join("cloud_revenue_billions.csv");
    run_ok(
        bin()
            .arg("generate")
            .arg(&fixture)
            .arg("--out")
            .arg(&suite)
            .args(["--sets", "original", "--charts-per-table", "2"])
            .args(["--questions-per-chart", "6", "--quiet"]),
    );
    let items: Vec<serde_json::Value> = std::fs::read_to_string(suite.join("items.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The server knows each question's gold, to answer the check right for
    // some rewordings and wrong for others.
    let golds: BTreeMap<String, String> = items
        .iter()
        .map(|i| {
            (
                i["question"].as_str().unwrap().to_string(),
                i["answer_text"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let rewrites = Arc::new(Mutex::new(BTreeMap::<String, String>::new()));
    let images = Arc::new(AtomicUsize::new(0));
    let calls = Arc::new(AtomicUsize::new(0));
    let (rewrites_in, images_in, calls_in) = (rewrites.clone(), images.clone(), calls.clone());
    let url = serve(Arc::new(move |req| {
        calls_in.fetch_add(1, Ordering::SeqCst);
        let (prompt, has_image) = prompt_of(&req.body);
        if has_image {
            images_in.fetch_add(1, Ordering::SeqCst);
        }
        let question = prompt.rsplit("Question: ").next().unwrap().to_string();
        let reply = if prompt.starts_with("Rewrite") {
            let gold = &golds[&question];
            // Every third question loses its names and numbers and gains
            // one; the rest are reworded faithfully.
            let text = if gold.len() % 3 == 0 {
                "What is the value shown there for 12345?".to_string()
            } else {
                format!("Looking at the chart, I'd like to know this: {question}")
            };
            rewrites_in
                .lock()
                .unwrap()
                .insert(text.clone(), gold.clone());
            format!("\"{text}\"")
        } else {
            // The check: right for rewordings of questions with an even
            // gold length, wrong otherwise.
            let gold = rewrites_in.lock().unwrap().get(&question).cloned().unwrap();
            if gold.len() % 2 == 0 {
                gold
            } else {
                "Unanswerable-ish".into()
            }
        };
        Action::json(200, completion(serde_json::json!(reply)))
    }));
    let run = || {
        bin()
            .arg("paraphrase")
            .arg(&suite)
            .args([
                "--model",
                "local-test",
                "--base-url",
                &url,
                "--verify-answer",
                "--json",
            ])
            .env_remove("OPENAI_API_KEY")
            .output()
            .unwrap()
    };
    let out = run();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let originals: Vec<&serde_json::Value> = items
        .iter()
        .filter(|i| i["question_type"] != "conversational")
        .collect();
    assert_eq!(summary["asked"], originals.len());
    let expect_kept = originals
        .iter()
        .filter(|i| {
            let gold = i["answer_text"].as_str().unwrap();
            gold.len() % 3 != 0 && gold.len() % 2 == 0
        })
        .count();
    let expect_lost = originals
        .iter()
        .filter(|i| i["answer_text"].as_str().unwrap().len() % 3 == 0)
        .count();
    assert!(
        expect_kept > 0 && expect_lost > 0,
        "the fixture exercises both paths"
    );
    assert_eq!(summary["kept"], expect_kept, "{summary}");
    let rejected = &summary["rejected"];
    let unfaithful: u64 = ["lost a name", "lost a number", "added a number"]
        .iter()
        .map(|k| rejected[*k].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(unfaithful, expect_lost as u64, "{summary}");
    assert_eq!(
        rejected["answered wrongly"].as_u64().unwrap_or(0) as usize,
        originals.len() - expect_kept - expect_lost
    );
    assert_eq!(images.load(Ordering::SeqCst), 0, "text-only requests");

    let after: Vec<serde_json::Value> = std::fs::read_to_string(suite.join("items.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let added: Vec<&serde_json::Value> = after
        .iter()
        .filter(|i| i["realization"]["realizer"] == "llm")
        .collect();
    assert_eq!(added.len(), expect_kept);
    for item in &added {
        let origin = items
            .iter()
            .find(|o| o["id"] == item["origin"])
            .expect("origin in suite");
        assert_eq!(item["set"], "modified_question");
        assert_eq!(
            item["answer"], origin["answer"],
            "the gold is the original's"
        );
        assert_eq!(item["image"], origin["image"]);
        assert!(
            item["question"]
                .as_str()
                .unwrap()
                .starts_with("Looking at the chart")
        );
        let transforms = item["realization"]["transforms"].to_string();
        assert!(transforms.contains("model:local-test") && transforms.contains("verified:answer"));
        assert_eq!(item["perturbations"][0]["axis"], "llm");
    }
    // The manifest counts the new items.
    let stats = run_ok(bin().arg("stats").arg(&suite).arg("--json"));
    let stats: serde_json::Value = serde_json::from_str(&stats).unwrap();
    assert_eq!(
        stats["composition"]["manifest_agrees"], true,
        "{}",
        stats["composition"]
    );

    // A second pass asks nothing about items already reworded.
    let before = calls.load(Ordering::SeqCst);
    let again = run();
    assert!(again.status.success());
    let summary: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(summary["already_done"], expect_kept);
    assert_eq!(
        calls.load(Ordering::SeqCst) - before,
        2 * (originals.len() - expect_kept) - expect_lost,
        "only the rejected ones are asked again"
    );
}
