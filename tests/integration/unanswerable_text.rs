//! How much the text alone tells an unanswerable item from an answerable
//! one: a multinomial naive Bayes classifier over word unigrams, bigrams and
//! character trigrams of the question (its earlier turns and options
//! included), trained and scored in five folds grouped by original so twins
//! never straddle training and testing — written here, independently of the
//! generator, on a default suite of about 2,000 items.
//!
//! The bound is the goal, an AUC of 0.60: answerability is drawn after
//! the questions are chosen, so type, family and wording do not tell.
//! docs/questions.md lists what still tells on other seeds (the
//! modified-question set is unanswerable more often than the others; tick
//! questions have no unanswerable twin).

use std::collections::HashMap;

const AUC_CEILING: f64 = 0.60;

fn text_of(item: &serde_json::Value) -> String {
    let mut parts: Vec<&str> = item["history"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["question"].as_str())
        .collect();
    parts.push(item["question"].as_str().unwrap_or(""));
    parts.extend(
        item["choices"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c.as_str()),
    );
    parts.join(" ").to_lowercase()
}

fn features(text: &str) -> HashMap<String, f64> {
    let words: Vec<&str> = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let mut out: HashMap<String, f64> = HashMap::new();
    let mut add = |k: String| *out.entry(k).or_default() += 1.0;
    for w in &words {
        add((*w).to_string());
    }
    for pair in words.windows(2) {
        add(format!("{}_{}", pair[0], pair[1]));
    }
    let padded: Vec<char> = format!(" {text} ").chars().collect();
    for tri in padded.windows(3) {
        add(format!("#{}", tri.iter().collect::<String>()));
    }
    out
}

/// Area under the ROC curve of `scores` for `labels`, ties counted half.
fn auc(scores: &[f64], labels: &[bool]) -> f64 {
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|a, b| scores[*a].total_cmp(&scores[*b]));
    let mut ranks = vec![0.0; scores.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && scores[order[j + 1]] == scores[order[i]] {
            j += 1;
        }
        for k in i..=j {
            ranks[order[k]] = (i + j) as f64 / 2.0 + 1.0;
        }
        i = j + 1;
    }
    let pos = labels.iter().filter(|l| **l).count() as f64;
    let neg = labels.len() as f64 - pos;
    let rank_sum: f64 = ranks
        .iter()
        .zip(labels)
        .filter(|(_, l)| **l)
        .map(|(r, _)| r)
        .sum();
    (rank_sum - pos * (pos + 1.0) / 2.0) / (pos * neg)
}

fn fold_of(group: &str, folds: u64) -> u64 {
    group.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    }) % folds
}

/// Out-of-fold naive Bayes log-odds of "unanswerable" per item.
fn scores(items: &[serde_json::Value]) -> (Vec<f64>, Vec<bool>) {
    const FOLDS: u64 = 5;
    let feats: Vec<HashMap<String, f64>> = items.iter().map(|i| features(&text_of(i))).collect();
    let labels: Vec<bool> = items.iter().map(|i| i["answerable"] == false).collect();
    let groups: Vec<u64> = items
        .iter()
        .map(|i| fold_of(i["origin"].as_str().or(i["id"].as_str()).unwrap(), FOLDS))
        .collect();
    let mut out = vec![0.0; items.len()];
    for fold in 0..FOLDS {
        let mut counts: [HashMap<&str, f64>; 2] = [HashMap::new(), HashMap::new()];
        let mut docs = [0.0f64; 2];
        for k in (0..items.len()).filter(|k| groups[*k] != fold) {
            let class = usize::from(labels[k]);
            docs[class] += 1.0;
            for (f, n) in &feats[k] {
                *counts[class].entry(f.as_str()).or_default() += n;
            }
        }
        let vocab = counts[0]
            .keys()
            .chain(counts[1].keys())
            .collect::<std::collections::HashSet<_>>()
            .len() as f64;
        let totals = [
            counts[0].values().sum::<f64>() + vocab,
            counts[1].values().sum::<f64>() + vocab,
        ];
        let prior = (docs[1] / docs[0]).ln();
        for k in (0..items.len()).filter(|k| groups[*k] == fold) {
            out[k] = prior
                + feats[k]
                    .iter()
                    .filter(|(f, _)| {
                        counts[0].contains_key(f.as_str()) || counts[1].contains_key(f.as_str())
                    })
                    .map(|(f, n)| {
                        let p1 =
                            (counts[1].get(f.as_str()).copied().unwrap_or(0.0) + 1.0) / totals[1];
                        let p0 =
                            (counts[0].get(f.as_str()).copied().unwrap_or(0.0) + 1.0) / totals[0];
                        n * (p1.ln() - p0.ln())
                    })
                    .sum::<f64>();
        }
    }
    (out, labels)
}

#[test]
fn the_text_alone_hardly_tells_unanswerable_items() {
    let dir = tempfile::tempdir().unwrap();
    let items = crate::support::default_synth_suite(dir.path(), "4242");
    assert!(items.len() >= 1500, "{} items", items.len());
    let (scores, labels) = scores(&items);
    let unanswerable = labels.iter().filter(|l| **l).count();
    assert!(unanswerable >= 100, "{unanswerable} unanswerable items");
    let area = auc(&scores, &labels);
    assert!(area.is_finite() && area <= AUC_CEILING, "AUC {area:.3}");

    // Every realizer that can name an absent entity words unanswerable
    // items, in a share near the suite's (visual references point at marks,
    // and an absent entity has none).
    let overall = unanswerable as f64 / items.len() as f64;
    let mut per: HashMap<&str, [usize; 2]> = HashMap::new();
    for (item, l) in items.iter().zip(&labels) {
        let r = item["realization"]["realizer"].as_str().unwrap();
        per.entry(r).or_default()[usize::from(*l)] += 1;
    }
    // No family is mostly unanswerable (as "what does the note say?" once
    // was: 30 of 33), so a family's words do not tell.
    let mut families: HashMap<&str, [usize; 2]> = HashMap::new();
    for (item, l) in items.iter().zip(&labels) {
        families
            .entry(item["family"].as_str().unwrap())
            .or_default()[usize::from(*l)] += 1;
    }
    for (family, [answerable, unanswerable]) in families {
        if answerable + unanswerable >= 15 {
            assert!(
                unanswerable * 2 < answerable + unanswerable,
                "{family}: {unanswerable} of {} unanswerable",
                answerable + unanswerable
            );
        }
    }
    // Answerability is drawn after the questions are chosen, so every type
    // of question about data is unanswerable about as often (at the
    // configured 10 %); drawn while choosing, multiple-choice originals were
    // 29–31 % unanswerable and conversations 6 %.
    let mut types: HashMap<&str, [usize; 2]> = HashMap::new();
    for (item, l) in items.iter().zip(&labels) {
        let ty = item["question_type"].as_str().unwrap();
        if item["set"] == "original" && ty != "descriptive" {
            types.entry(ty).or_default()[usize::from(*l)] += 1;
        }
    }
    assert!(types.len() >= 4, "{types:?}");
    for (ty, [answerable, unanswerable]) in &types {
        let n = answerable + unanswerable;
        if n >= 50 {
            let share = *unanswerable as f64 / n as f64;
            assert!(
                (0.02..=0.2).contains(&share),
                "{ty}: {unanswerable} of {n} originals unanswerable"
            );
        }
    }
    for (realizer, [answerable, unanswerable]) in per {
        if realizer == "visual" || answerable + unanswerable < 50 {
            continue;
        }
        let share = unanswerable as f64 / (answerable + unanswerable) as f64;
        assert!(
            share >= overall / 2.0 && share <= overall * 2.0,
            "{realizer}: {unanswerable} of {} unanswerable, suite {overall:.2}",
            answerable + unanswerable
        );
    }
}

#[test]
fn auc_counts_ties_half_and_orders_scores() {
    assert_eq!(auc(&[0.1, 0.9], &[false, true]), 1.0);
    assert_eq!(auc(&[0.9, 0.1], &[false, true]), 0.0);
    assert_eq!(auc(&[0.5, 0.5], &[false, true]), 0.5);
    assert_eq!(
        auc(&[0.1, 0.4, 0.35, 0.8], &[false, false, true, true]),
        0.75
    );
}
