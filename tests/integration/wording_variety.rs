//! The modified-question set words its questions distinctly: a question
//! about the chart's furniture names nothing of its table, and rewordings
//! drawn table by table repeated each other word for word until the suite
//! re-drew the repeats. Checked on the written items, apart from the code
//! that re-draws them: the share of distinct wordings, and that every
//! rewording still asks its original's query with its original's answer.

use std::collections::{HashMap, HashSet};

fn wording(item: &serde_json::Value) -> String {
    let mut turns: Vec<&str> = item["history"]
        .as_array()
        .map(|h| h.iter().filter_map(|t| t["question"].as_str()).collect())
        .unwrap_or_default();
    turns.push(item["question"].as_str().unwrap());
    turns.join(" / ")
}

#[test]
fn rewordings_are_distinct_and_keep_their_originals_fact() {
    let dir = tempfile::tempdir().unwrap();
    let items = crate::support::default_synth_suite(dir.path(), "5353");
    let by_id: HashMap<&str, &serde_json::Value> = items
        .iter()
        .map(|i| (i["id"].as_str().unwrap(), i))
        .collect();
    let reworded: Vec<&serde_json::Value> = items
        .iter()
        .filter(|i| i["set"] == "modified_question")
        .collect();
    assert!(reworded.len() >= 500, "{} reworded items", reworded.len());
    let texts: HashSet<String> = reworded.iter().map(|i| wording(i)).collect();
    let share = texts.len() as f64 / reworded.len() as f64;
    assert!(
        share >= 0.95,
        "{} distinct wordings of {} ({share:.3})",
        texts.len(),
        reworded.len()
    );
    // Paraphrase axes keep the fact: same query, same gold, another text.
    const PARAPHRASES: [&str; 5] = [
        "lexical",
        "syntactic",
        "register",
        "noisy_text",
        "visual_reference",
    ];
    let mut checked = 0;
    for item in &reworded {
        let axis = item["perturbations"][0]["axis"].as_str().unwrap();
        if !PARAPHRASES.contains(&axis) {
            continue;
        }
        let origin = by_id[item["origin"].as_str().unwrap()];
        assert_eq!(item["query"], origin["query"], "{}", item["id"]);
        assert_eq!(item["answer"], origin["answer"], "{}", item["id"]);
        assert_eq!(item["chart_id"], origin["chart_id"], "{}", item["id"]);
        assert_ne!(wording(item), wording(origin), "{}", item["id"]);
        checked += 1;
    }
    assert!(checked >= 300, "{checked} paraphrases checked");
}
