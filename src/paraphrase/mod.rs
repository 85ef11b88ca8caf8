//! Verified model paraphrases: a language model rewords a set's questions;
//! a rewording is kept only when it keeps every name, every number and the
//! asked operation (`check`), and, when asked, when the same model given the
//! chart's table answers it with the gold. Kept wordings join the suite as
//! their own realizer (`llm`) with the model and prompt version recorded, so
//! the suite stays reproducible without the model.

pub mod check;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::adapter::{Adapter, Request};
use crate::ir::{Change, Item, Perturbation, Prediction, QuestionType, Realization, SetName};
use crate::score::{Metric, score_item};
use crate::suite::{Counts, SuiteError, read_items, read_manifest, write_manifest};
pub use check::{Rejection, check};

/// Bumped whenever the prompts change: recorded with every kept wording.
pub const PROMPT_VERSION: &str = "paraphrase-v1";

#[derive(Debug, thiserror::Error)]
pub enum ParaphraseError {
    #[error(transparent)]
    Suite(#[from] SuiteError),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("paraphrases are written for the original or modified_chart set, not {0}")]
    Set(String),
}

#[derive(Debug, Clone)]
pub struct ParaphraseOptions {
    /// The set whose questions are reworded.
    pub from_set: SetName,
    /// Reword at most this many items (in file order).
    pub limit: Option<usize>,
    /// Also require the model, given the table, to answer the rewording right.
    pub verify_answer: bool,
    /// The model name recorded with kept wordings.
    pub model: String,
    /// Requests in flight at once.
    pub concurrency: usize,
}

/// What a paraphrase pass did.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Summary {
    pub asked: usize,
    pub kept: usize,
    /// Already paraphrased by this model in an earlier pass.
    pub already_done: usize,
    /// Rejected rewordings by reason ("lost a name", "added a number"…).
    pub rejected: BTreeMap<String, usize>,
    /// Up to three rejected rewordings per reason: (item id, what was wrong).
    pub rejected_examples: BTreeMap<String, Vec<(String, String)>>,
    /// Failed model calls: (item id, error).
    pub failed: Vec<(String, String)>,
}

/// The request for a rewording.
pub fn rewrite_prompt(item: &Item) -> String {
    let mut prompt = String::from(
        "Rewrite the question below about a chart the way a different person would ask it: \
change the wording and sentence structure freely, but keep every name, label and number \
exactly as written, ask for exactly the same thing, and keep any answer options and rounding \
instruction. Reply with the rewritten question only.\n\nQuestion: ",
    );
    prompt.push_str(&item.question);
    prompt
}

/// The request that checks a rewording against the chart's data.
pub fn answer_prompt(question: &str, table_csv: &str) -> String {
    format!(
        "Here is the data behind a chart, as CSV:\n\n{table_csv}\nAnswer the question from \
this data. If it cannot be answered from the data, reply \"Unanswerable\". Reply with the \
answer only.\n\nQuestion: {question}"
    )
}

/// The id of `source`'s paraphrase by `model`.
fn paraphrase_id(source: &Item, model: &str) -> String {
    let tag = blake3::hash(model.as_bytes()).to_hex();
    format!("{}-llm{}", source.id, &tag[..6])
}

/// A reply reduced to the question: reasoning, quotes and labels removed.
fn reply_question(raw: &str) -> String {
    let text = crate::extract::strip_reasoning(raw);
    let text = text.trim();
    let text = text
        .strip_prefix("Question:")
        .or_else(|| text.strip_prefix("Rewritten question:"))
        .unwrap_or(text)
        .trim();
    let quoted = ['"', '“', '”', '\''];
    text.trim_start_matches(quoted)
        .trim_end_matches(quoted)
        .trim()
        .to_string()
}

/// The severity of a rewording from its edit distance to the original: the
/// same scale as the template realizers' distance parameter.
fn severity(distance: f64) -> u8 {
    match distance {
        d if d < 0.2 => 1,
        d if d < 0.35 => 2,
        d if d < 0.5 => 3,
        d if d < 0.65 => 4,
        _ => 5,
    }
}

fn table_csv(suite: &Path, table_id: &str) -> Option<String> {
    ["csv", "tsv"].iter().find_map(|ext| {
        std::fs::read_to_string(suite.join("tables").join(format!("{table_id}.{ext}"))).ok()
    })
}

fn request(item: &Item, prompt: String) -> Request {
    Request {
        item_id: item.id.clone(),
        // No image: the rewording and the check work from text alone.
        image_png: Arc::new(Vec::new()),
        question: item.question.clone(),
        prompt,
        question_type: item.question_type,
        history: Vec::new(),
        paragraph: None,
        choices: Vec::new(),
        item: Arc::new(item.clone()),
    }
}

enum Outcome {
    Kept(Box<Item>),
    Rejected(Rejection),
    Failed(String),
}

fn paraphrase_one(
    tables: &BTreeMap<&str, Option<String>>,
    adapter: &dyn Adapter,
    source: &Item,
    opts: &ParaphraseOptions,
) -> Outcome {
    let reply = match adapter.answer(&request(source, rewrite_prompt(source))) {
        Ok(r) => r,
        Err(e) => return Outcome::Failed(e.to_string()),
    };
    let question = reply_question(&reply.text);
    if let Err(why) = check(source, &question) {
        return Outcome::Rejected(why);
    }
    let mut item = source.clone();
    item.question = question.clone();
    let mut transforms = vec![
        format!("model:{}", opts.model),
        format!("prompt:{PROMPT_VERSION}"),
    ];
    if opts.verify_answer {
        let Some(csv) = tables
            .get(source.table_id.as_str())
            .and_then(Option::as_ref)
        else {
            return Outcome::Failed(format!("tables/{}.csv: not in the suite", source.table_id));
        };
        let answered = match adapter.answer(&request(source, answer_prompt(&question, csv))) {
            Ok(r) => r,
            Err(e) => return Outcome::Failed(e.to_string()),
        };
        let prediction = Prediction {
            id: item.id.clone(),
            answer: crate::extract::extract(&answered.text),
            raw: answered.text.clone(),
            latency_ms: 0.0,
            usage: None,
            error: None,
            attempts: 1,
            cached: false,
            item_hash: None,
        };
        if score_item(Metric::Relaxed, &item, &prediction) < 1.0 {
            return Outcome::Rejected(Rejection::WrongAnswer(prediction.answer));
        }
        transforms.push("verified:answer".into());
    }
    let distance = 1.0 - strsim::normalized_levenshtein(&source.question, &question);
    let (set, origin) = match source.set {
        SetName::ModifiedChart => (SetName::ModifiedBoth, source.origin.clone()),
        _ => (SetName::ModifiedQuestion, Some(source.id.clone())),
    };
    item.id = paraphrase_id(source, &opts.model);
    item.set = set;
    item.origin = origin;
    item.realization = Realization {
        realizer: "llm".into(),
        template_id: format!("llm/{}/{PROMPT_VERSION}", opts.model),
        transforms,
    };
    let mut params = BTreeMap::new();
    params.insert("realizer".into(), serde_json::json!("llm"));
    params.insert("model".into(), serde_json::json!(opts.model));
    params.insert(
        "distance".into(),
        serde_json::json!((distance * 1000.0).round() / 1000.0),
    );
    item.perturbations.push(Perturbation {
        axis: "llm".into(),
        name: "llm".into(),
        severity: severity(distance),
        change: Change::Stress,
        params,
    });
    Outcome::Kept(Box::new(item))
}

/// Rewords the `from_set` items of `suite` with `adapter` and appends the
/// kept wordings to its items file, then rewrites its manifest. Items this
/// model already reworded are skipped, so an interrupted pass resumes.
pub fn paraphrase_suite(
    suite: &Path,
    adapter: &dyn Adapter,
    opts: &ParaphraseOptions,
) -> Result<Summary, ParaphraseError> {
    if !matches!(opts.from_set, SetName::Original | SetName::ModifiedChart) {
        return Err(ParaphraseError::Set(opts.from_set.name().to_string()));
    }
    let manifest = read_manifest(suite)?;
    let items = read_items(suite)?;
    let ids: BTreeSet<&str> = items.iter().map(|i| i.id.as_str()).collect();
    let mut summary = Summary::default();
    let sources: Vec<&Item> = items
        .iter()
        .filter(|i| i.set == opts.from_set && i.question_type != QuestionType::Conversational)
        .filter(|i| {
            let done = ids.contains(paraphrase_id(i, &opts.model).as_str());
            summary.already_done += usize::from(done);
            !done
        })
        .take(opts.limit.unwrap_or(usize::MAX))
        .collect();
    summary.asked = sources.len();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.concurrency.max(1))
        .build()
        .map_err(|e| ParaphraseError::Io {
            path: suite.to_path_buf(),
            source: std::io::Error::other(e.to_string()),
        })?;
    // Each table read once, not once per question about it.
    let tables: BTreeMap<&str, Option<String>> = if opts.verify_answer {
        let ids: BTreeSet<&str> = sources.iter().map(|s| s.table_id.as_str()).collect();
        ids.into_iter()
            .map(|id| (id, table_csv(suite, id)))
            .collect()
    } else {
        BTreeMap::new()
    };
    let outcomes: Vec<Outcome> = pool.install(|| {
        sources
            .par_iter()
            .map(|s| paraphrase_one(&tables, adapter, s, opts))
            .collect()
    });
    let mut kept = Vec::new();
    for (source, outcome) in sources.iter().zip(outcomes) {
        match outcome {
            Outcome::Kept(item) => kept.push(*item),
            Outcome::Rejected(why) => {
                let kind = rejection_kind(&why).to_string();
                let examples = summary.rejected_examples.entry(kind.clone()).or_default();
                if examples.len() < 3 {
                    examples.push((source.id.clone(), why.to_string()));
                }
                *summary.rejected.entry(kind).or_default() += 1;
            }
            Outcome::Failed(e) => summary
                .failed
                .push((source.id.clone(), adapter.secrets().redact(&e).into_owned())),
        }
    }
    summary.kept = kept.len();
    if !kept.is_empty() {
        append_items(suite, &kept)?;
        let mut counts = Counts(manifest.counts.clone());
        for item in &kept {
            counts.add_item(item);
        }
        write_manifest(
            suite,
            manifest.config.clone(),
            manifest.seed,
            &counts,
            manifest.shard,
        )?;
    }
    Ok(summary)
}

fn rejection_kind(why: &Rejection) -> &'static str {
    match why {
        Rejection::Empty => "empty",
        Rejection::Unchanged => "unchanged",
        Rejection::Rambling => "rambling",
        Rejection::MissingEntity(_) => "lost a name",
        Rejection::MissingNumber(_) => "lost a number",
        Rejection::AddedNumber(_) => "added a number",
        Rejection::LostOperation(_) => "lost the operation",
        Rejection::WrongAnswer(_) => "answered wrongly",
    }
}

fn append_items(suite: &Path, items: &[Item]) -> Result<(), ParaphraseError> {
    use std::io::Write;
    let path = suite.join(crate::ir::suite::ITEMS_FILE);
    let io = |source| ParaphraseError::Io {
        path: path.clone(),
        source,
    };
    let mut text = String::new();
    for item in items {
        text.push_str(&serde_json::to_string(item).expect("items serialize"));
        text.push('\n');
    }
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .map_err(io)?;
    file.write_all(text.as_bytes()).map_err(io)?;
    file.sync_all().map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_lose_labels_quotes_and_reasoning() {
        assert_eq!(
            reply_question("<think>hmm</think>Question: \"How big was North in 2020?\""),
            "How big was North in 2020?"
        );
        assert_eq!(reply_question("  plain?  "), "plain?");
    }

    #[test]
    fn severity_rises_with_distance() {
        let levels: Vec<u8> = [0.1, 0.3, 0.4, 0.6, 0.9]
            .iter()
            .map(|d| severity(*d))
            .collect();
        assert_eq!(levels, [1, 2, 3, 4, 5]);
    }
}
