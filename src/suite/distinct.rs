//! Suite-wide distinct wordings of the modified-question set.
//!
//! Each table's rewordings are drawn independently, and a question about the
//! chart's furniture ("What is the label of the x-axis?") names nothing of
//! its table: two tables' rewordings of it often came out word for word the
//! same (6–7 % of the set), so the set tested fewer wordings than it has
//! items. This pass runs once over the written `items.jsonl` (after
//! `generate` and after `merge`, before the claim and letter balances) and
//! re-draws a rewording whose text an earlier item of the set already has,
//! from the same realizer on the same original, preferring the candidates
//! no item of the set uses. It depends only on the written items and charts,
//! in file order, so a merged suite gets the wordings of an unsharded one.
//!
//! Only rewordings that keep the original's query and answer are re-drawn:
//! the new text asks the same fact of the same picture, so the executor's
//! answer, the reader's verdict and the reading change stay those checked
//! when the item was made.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::SuiteError;
use super::io::{JsonLines, rewrite_lines};
use crate::ir::suite::{CHARTS_FILE, ITEMS_FILE};
use crate::ir::{ChartRecord, Item, SetName};
use crate::perturb::{self, AnswerEffect};
use crate::questions::Question;

/// Seeded rounds of candidate rewordings tried for one repeat.
const REDRAW_ROUNDS: u8 = 6;

/// The text a model reads for an item: earlier turns first.
fn wording(history: &[crate::ir::Turn], question: &str) -> String {
    history
        .iter()
        .map(|t| t.question.as_str())
        .chain(std::iter::once(question))
        .collect::<Vec<_>>()
        .join(" / ")
}

fn question_of(item: &Item) -> Question {
    Question {
        query: item.query.clone(),
        question_type: item.question_type,
        family: item.family.clone(),
        text: item.question.clone(),
        answer: item.answer.clone(),
        answer_kind: item.answer_kind,
        answerable: item.answerable,
        choices: item.choices.clone(),
        history: item.history.clone(),
        paragraph: item.paragraph.clone(),
        realization: item.realization.clone(),
    }
}

/// The one rewording record of a modified-question item that keeps its
/// original's fact, if that is what the item is.
fn rewording(item: &Item) -> Option<&crate::ir::Perturbation> {
    if item.set != SetName::ModifiedQuestion || item.origin.is_none() {
        return None;
    }
    let [p] = item.perturbations.as_slice() else {
        return None;
    };
    perturb::question::info(&p.name)
        .is_some_and(|i| i.effect == AnswerEffect::Preserving)
        .then_some(p)
}

/// Re-draws repeated rewordings; returns how many were re-drawn.
pub(crate) fn distinct_wordings(suite: &Path, seed: u64) -> Result<usize, SuiteError> {
    let path = suite.join(ITEMS_FILE);
    // Every wording of the set, and the repeats that can be re-drawn.
    let mut used: HashSet<String> = HashSet::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut repeats: Vec<(usize, Item)> = Vec::new();
    for (line, item) in JsonLines::<Item>::open(&path)?.enumerate() {
        let item = item?;
        if item.set != SetName::ModifiedQuestion {
            continue;
        }
        let text = wording(&item.history, &item.question);
        used.insert(text.clone());
        if !seen.insert(text) && rewording(&item).is_some() {
            repeats.push((line, item));
        }
    }
    if repeats.is_empty() {
        return Ok(0);
    }
    let origins: HashSet<&str> = repeats
        .iter()
        .filter_map(|(_, i)| i.origin.as_deref())
        .collect();
    let mut originals: HashMap<String, Item> = HashMap::new();
    for item in JsonLines::<Item>::open(&path)? {
        let item = item?;
        if origins.contains(item.id.as_str()) {
            originals.insert(item.id.clone(), item);
        }
    }
    let wanted: HashSet<&str> = repeats.iter().map(|(_, i)| i.chart_id.as_str()).collect();
    let mut charts: HashMap<String, ChartRecord> = HashMap::new();
    for chart in JsonLines::<ChartRecord>::open(&suite.join(CHARTS_FILE))? {
        let chart = chart?;
        if wanted.contains(chart.id.as_str()) {
            charts.insert(chart.id.clone(), chart);
        }
    }
    let mut redrawn: HashMap<usize, Item> = HashMap::new();
    for (line, item) in &repeats {
        let (Some(original), Some(chart), Some(record)) = (
            item.origin.as_deref().and_then(|o| originals.get(o)),
            charts.get(&item.chart_id),
            rewording(item),
        ) else {
            continue;
        };
        let q = question_of(original);
        let fresh = |c: &Question| !used.contains(&wording(&c.history, &c.text));
        // The same fact, newly worded: anything else keeps the repeat.
        let keeps_fact = |c: &Question| {
            fresh(c)
                && c.query == q.query
                && c.answer == q.answer
                && c.question_type == item.question_type
        };
        // A furniture question has few wordings per realizer: a few seeded
        // rounds of candidates find the ones no item uses.
        let Some(applied) = (0..REDRAW_ROUNDS).find_map(|round| {
            perturb::question::apply_preferring(
                &record.name,
                &q,
                &chart.spec,
                &chart.scene,
                record.severity,
                crate::seed::derive(seed, &["distinct", &item.id, &round.to_string()]),
                &keeps_fact,
            )
            .filter(|a| keeps_fact(&a.value))
        }) else {
            continue;
        };
        let new = applied.value;
        used.insert(wording(&new.history, &new.text));
        let mut out = item.clone();
        out.question = new.text;
        out.history = new.history;
        out.choices = new.choices;
        out.realization = new.realization;
        out.perturbations[0].params = applied.params;
        redrawn.insert(*line, out);
    }
    let count = redrawn.len();
    if count > 0 {
        rewrite_lines(&path, |line, raw| match redrawn.get(&line) {
            Some(item) => serde_json::to_string(item)
                .map(Some)
                .map_err(|e| SuiteError::Stage(format!("writing item {}: {e}", item.id))),
            None => Ok(Some(raw.to_string())),
        })?;
    }
    Ok(count)
}
