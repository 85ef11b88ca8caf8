//! Suite-wide balance of true and false claims per family.
//!
//! Tables are generated independently, and a family has few fact checks in
//! any one table, so per-table balancing leaves a family's claims leaning
//! one way over the suite (every "difference" claim false, say), and a
//! text-only rule "say False to difference claims" beats chance. This pass
//! runs once over the written `items.jsonl` (after `generate` and after
//! `merge`, like the letter balance) and re-states claims so each family's
//! true and false claims are even within every set.
//!
//! An original and the twins that ask its very claim (paraphrases, chart
//! changes) form a group and are re-stated together, so pairs stay pairs.
//! A group's truth is chosen from the counts of the groups before it in a
//! seeded order, never from its current truth, so a merged suite gets the
//! claims of an unsharded one. A re-stated claim is computed by the
//! generator's own rule on the group's first chart, checked on every
//! member's chart by the executor and by the reader that gates items (as
//! that member's picture is seen), and put into each member's wording in
//! place of the old claim; a group where any of that fails keeps its claim.
//! A comparison's claim ("X is higher in A than in B") states no value: it
//! takes the other truth by asking the other way round, its two names
//! trading places in the query and the wording.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use super::SuiteError;
use super::io::{JsonLines, rewrite_lines};
use crate::ir::suite::{CHARTS_FILE, ITEMS_FILE};
use crate::ir::{Answer, ChartRecord, Item, Query, SetName};

/// One fact check of the suite: an answerable one, or the unanswerable
/// twin of one, which states the same claim of an entity the chart lacks and
/// is re-stated with its origin so the pair still differs in that entity only.
struct Claim {
    line: usize,
    item: Item,
    claim: String,
    /// None for an unanswerable claim.
    truth: Option<bool>,
}

/// Where `needle` stands in `text` as a whole token (not inside a longer
/// word or number); None unless exactly once.
fn sole_token(text: &str, needle: &str) -> Option<usize> {
    let inside = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '.' || c == ',');
    let mut found = text.match_indices(needle).filter(|(at, _)| {
        let mut back = text[..*at].chars().rev();
        let before = back.next();
        // "1,052" holds "052" inside one number.
        let before_is_part = match before {
            Some('.' | ',') => back.next().is_some_and(|c| c.is_ascii_digit()),
            other => other.is_some_and(char::is_alphanumeric),
        };
        let after_text = &text[at + needle.len()..];
        let mut after = after_text.chars();
        let next = after.next();
        // A sentence's closing full stop or a list's comma is not part of
        // the token; a decimal point or thousands comma is.
        let next_is_part = match next {
            Some('.' | ',') => after.next().is_some_and(|c| c.is_ascii_digit()),
            other => inside(other),
        };
        !(before_is_part || next_is_part)
    });
    let (at, _) = found.next()?;
    found.next().is_none().then_some(at)
}

fn claim_of(item: &Item) -> Option<(String, Option<bool>)> {
    match (&item.query, &item.answer) {
        (Query::FactCheck { claim, .. }, Answer::TrueFalse { value }) => {
            Some((claim.clone(), Some(*value)))
        }
        (Query::FactCheck { claim, .. }, Answer::Unanswerable) if item.origin.is_some() => {
            Some((claim.clone(), None))
        }
        _ => None,
    }
}

/// The answer `item` has once its claim is asked with the given truth: an
/// unanswerable item stays unanswerable.
fn verdict(item: &Item, truth: bool) -> Answer {
    match item.answer {
        Answer::Unanswerable => Answer::Unanswerable,
        _ => Answer::TrueFalse { value: truth },
    }
}

/// `item` asking `claim` of the given truth instead, if the claim stands
/// once in its wording and once after, and its chart reads it so.
/// Whether `claim` can stand where `old` stood without changing its verb.
fn said_alike(old: &str, claim: &str) -> bool {
    old.contains(" then ") == claim.contains(" then ")
}

fn restated(item: &Item, old: &str, claim: &str, truth: bool, chart: &ChartRecord) -> Option<Item> {
    let Query::FactCheck { base, .. } = &item.query else {
        return None;
    };
    // A trend said as a state ("is rising") and one said as a sequence
    // ("increases then decreases") take different verbs: "is increases
    // then decreases" is no sentence.
    if !said_alike(old, claim) {
        return None;
    }
    let at = sole_token(&item.question, old)?;
    let mut question = item.question.clone();
    question.replace_range(at..at + old.len(), claim);
    sole_token(&question, claim)?;
    let query = Query::FactCheck {
        base: base.clone(),
        claim: claim.to_string(),
    };
    let mut out = reworded(item, question, query, verdict(item, truth), chart)?;
    if out.choices == [old.to_string()] {
        out.choices = vec![claim.to_string()];
    }
    Some(out)
}

/// `item` asking `query` in the words `question`, if its chart gives
/// `answer` by the executor and by the reader as the item's picture is seen.
fn reworded(
    item: &Item,
    question: String,
    query: Query,
    answer: Answer,
    chart: &ChartRecord,
) -> Option<Item> {
    if crate::query::execute(&query, &chart.spec, &chart.scene).ok()? != answer {
        return None;
    }
    let view = crate::reader::View::for_item(&item.perturbations, item.paragraph.is_some());
    let reading = crate::reader::answer(&query, &chart.spec, &chart.scene, &view);
    if !crate::reader::agrees(&answer, &reading) {
        return None;
    }
    let mut out = item.clone();
    out.question = question;
    out.query = query;
    out.answer_text = answer.to_text();
    out.answer = answer;
    Some(out)
}

/// `text` with the names `x` and `y` trading places, each standing once.
fn swap_names(text: &str, x: &str, y: &str) -> Option<String> {
    if x.contains(y) || y.contains(x) {
        return None;
    }
    let (at_x, at_y) = (sole_token(text, x)?, sole_token(text, y)?);
    let (first, first_len, second, second_len, a, b) = if at_x < at_y {
        (at_x, x.len(), at_y, y.len(), y, x)
    } else {
        (at_y, y.len(), at_x, x.len(), x, y)
    };
    Some(format!(
        "{}{a}{}{b}{}",
        &text[..first],
        &text[first + first_len..second],
        &text[second + second_len..]
    ))
}

/// A comparison's claim ("X is higher in A than in B") made of the other
/// truth by asking it the other way round: its two operands trade places,
/// in the query and in the wording; None unless the item reads so.
fn swapped(item: &Item, chart: &ChartRecord) -> Option<Item> {
    let Query::FactCheck { base, claim } = &item.query else {
        return None;
    };
    let Query::Compare { panel, a, b } = base.as_ref() else {
        return None;
    };
    // Names as the wording holds them: "in the United States", so the swap
    // never leaves "the France".
    let named = crate::realize::slots::with_article;
    let question = match (a.series == b.series, a.category == b.category) {
        (true, false) => swap_names(&item.question, &named(&a.category), &named(&b.category))?,
        // "Are exports higher than the trade balance" cannot turn round
        // without its verb.
        (false, true)
            if crate::realize::slots::reads_plural(&a.series)
                == crate::realize::slots::reads_plural(&b.series) =>
        {
            swap_names(&item.question, &named(&a.series), &named(&b.series))?
        }
        _ => return None,
    };
    let query = Query::FactCheck {
        base: Box::new(Query::Compare {
            panel: *panel,
            a: b.clone(),
            b: a.clone(),
        }),
        claim: claim.clone(),
    };
    let answer = match item.answer {
        Answer::TrueFalse { value } => Answer::TrueFalse { value: !value },
        Answer::Unanswerable => Answer::Unanswerable,
        _ => return None,
    };
    reworded(item, question, query, answer, chart)
}

/// The members of a group re-stated with the given truth, or None.
/// `reshaped` holds the ids of items that have a twin asking their base
/// query in another form (a conversation, options, a plain question).
fn group_restated(
    members: &[&Claim],
    truth: bool,
    charts: &HashMap<String, ChartRecord>,
    reshaped: &HashSet<String>,
    seed: u64,
) -> Option<Vec<Item>> {
    let root = members.first()?;
    let Query::FactCheck { base, .. } = &root.item.query else {
        return None;
    };
    if matches!(root.claim.as_str(), "Yes" | "No") {
        if root.truth == Some(truth) {
            return Some(members.iter().map(|m| m.item.clone()).collect());
        }
        // Its twin in another form asks the comparison the original way
        // round; asked the other way here, the pair would read as two
        // questions (an outside reader, seed 33391).
        if reshaped.contains(&root.item.id) {
            return None;
        }
        return members
            .iter()
            .map(|m| swapped(&m.item, charts.get(&m.item.chart_id)?))
            .collect();
    }
    let chart = charts.get(&root.item.chart_id)?;
    let restate = |claim: &str| -> Option<Vec<Item>> {
        members
            .iter()
            .map(|m| {
                restated(
                    &m.item,
                    &m.claim,
                    claim,
                    truth,
                    charts.get(&m.item.chart_id)?,
                )
            })
            .collect()
    };
    // A false claim is a near miss: of a few seeded draws that every member
    // reads as false, the one nearest the truth.
    let answer = crate::query::execute(base, &chart.spec, &chart.scene).ok()?;
    let truth_value = crate::query::parse_number(&answer.to_text());
    let miss = |claim: &str| match (truth_value, crate::query::parse_number(claim)) {
        (Some(t), Some(c)) => (c - t).abs(),
        _ => 0.0,
    };
    let draws = if truth { 1 } else { FALSE_DRAWS };
    (0..draws)
        .filter_map(|draw| {
            let mut rng = crate::seed::rng(seed, &["claims", &root.item.id, &draw.to_string()]);
            let claim = crate::questions::claim_of_truth(
                base,
                &answer,
                truth,
                &chart.spec,
                &chart.scene,
                &mut rng,
            )?;
            Some((miss(&claim), restate(&claim)?))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, items)| items)
}

/// Seeded draws of a false claim, the nearest kept.
const FALSE_DRAWS: usize = 3;

/// Imbalance of a family's claims: |true − false| within each set, summed,
/// plus |true − false| over all sets together.
fn imbalance(counts: &BTreeMap<(SetName, bool), i64>) -> i64 {
    let diff = |s: &SetName| {
        let n = |v: bool| counts.get(&(*s, v)).copied().unwrap_or(0);
        n(true) - n(false)
    };
    SetName::ALL.iter().map(|s| diff(s).abs()).sum::<i64>()
        + SetName::ALL.iter().map(diff).sum::<i64>().abs()
}

/// Re-states the claims of `suite`'s items in place so each family's true
/// and false claims are even within every set. Returns how many items changed.
pub(crate) fn balance_claims(suite: &Path, seed: u64) -> Result<usize, SuiteError> {
    let path = suite.join(ITEMS_FILE);
    let mut claims: Vec<Claim> = Vec::new();
    let mut reshaped: HashSet<String> = HashSet::new();
    for (line, item) in JsonLines::<Item>::open(&path)?.enumerate() {
        let item = item?;
        if let Some(origin) = &item.origin
            && !matches!(item.query, Query::FactCheck { .. })
        {
            reshaped.insert(origin.clone());
        }
        if let Some((claim, truth)) = claim_of(&item) {
            claims.push(Claim {
                line,
                item,
                claim,
                truth,
            });
        }
    }
    if claims.is_empty() {
        return Ok(0);
    }
    // Groups: a twin asking its origin's claim joins the origin's group.
    let index: HashMap<&str, usize> = claims
        .iter()
        .enumerate()
        .map(|(i, c)| (c.item.id.as_str(), i))
        .collect();
    let root_of = |i: usize| -> usize {
        let c = &claims[i];
        c.item
            .origin
            .as_deref()
            .and_then(|o| index.get(o).copied())
            .filter(|&o| claims[o].claim == c.claim && claims[o].item.family == c.item.family)
            .unwrap_or(i)
    };
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..claims.len() {
        // An unanswerable claim is re-stated only with its origin's.
        let mut root = i;
        // Twins of twins are not made, but follow the chain all the same.
        for _ in 0..4 {
            let up = root_of(root);
            if up == root {
                break;
            }
            root = up;
        }
        if claims[root].truth.is_some() {
            groups.entry(root).or_default().push(i);
        }
    }
    let wanted: HashSet<&str> = claims.iter().map(|c| c.item.chart_id.as_str()).collect();
    let mut charts: HashMap<String, ChartRecord> = HashMap::new();
    for chart in JsonLines::<ChartRecord>::open(&suite.join(CHARTS_FILE))? {
        let chart = chart?;
        if wanted.contains(chart.id.as_str()) {
            charts.insert(chart.id.clone(), chart);
        }
    }
    // Big groups first, in a seeded order; the small ones (a lone reshaped
    // twin) come last, where they can still even out the set they sit in.
    let mut order: Vec<(std::cmp::Reverse<usize>, u64, usize)> = groups
        .iter()
        .map(|(&r, members)| {
            (
                std::cmp::Reverse(members.len()),
                crate::seed::derive(seed, &["claims", &claims[r].item.id]),
                r,
            )
        })
        .collect();
    order.sort();
    let mut counts: BTreeMap<String, BTreeMap<(SetName, bool), i64>> = BTreeMap::new();
    let mut changes: HashMap<usize, Item> = HashMap::new();
    let mut settled: Vec<(usize, bool)> = Vec::new();
    for &(_, tie, root) in &order {
        let members: Vec<&Claim> = groups[&root].iter().map(|&i| &claims[i]).collect();
        let family = counts.entry(claims[root].item.family.clone()).or_default();
        let answerable = || members.iter().filter(|m| m.truth.is_some());
        let cost = |truth: bool| {
            let mut c = family.clone();
            for m in answerable() {
                *c.entry((m.item.set, truth)).or_default() += 1;
            }
            imbalance(&c)
        };
        // The truth that evens the family out; on a tie, a seeded one.
        let first = match cost(true).cmp(&cost(false)) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => tie % 2 == 0,
        };
        let Some(mut chosen) = claims[root].truth else {
            continue;
        };
        for truth in [first, !first] {
            if let Some(items) = group_restated(&members, truth, &charts, &reshaped, seed) {
                for (m, item) in members.iter().zip(items) {
                    if item != m.item {
                        changes.insert(m.line, item);
                    }
                }
                chosen = truth;
                break;
            }
        }
        for m in answerable() {
            *family.entry((m.item.set, chosen)).or_default() += 1;
        }
        settled.push((root, chosen));
    }
    // A group that could only be stated one way may leave a set uneven
    // after the groups that could have evened it were settled: one more
    // pass turns any group whose other truth now evens its family.
    for (root, chosen) in settled {
        let members: Vec<&Claim> = groups[&root].iter().map(|&i| &claims[i]).collect();
        let family = counts.entry(claims[root].item.family.clone()).or_default();
        let mut turned = family.clone();
        for m in members.iter().filter(|m| m.truth.is_some()) {
            *turned.entry((m.item.set, chosen)).or_default() -= 1;
            *turned.entry((m.item.set, !chosen)).or_default() += 1;
        }
        if imbalance(&turned) >= imbalance(family) {
            continue;
        }
        if let Some(items) = group_restated(&members, !chosen, &charts, &reshaped, seed) {
            for (m, item) in members.iter().zip(items) {
                if item == m.item {
                    changes.remove(&m.line);
                } else {
                    changes.insert(m.line, item);
                }
            }
            *family = turned;
        }
    }
    let changed = changes.len();
    if changes.is_empty() {
        return Ok(0);
    }
    rewrite_lines(&path, |line, _| {
        changes
            .get(&line)
            .map(|item| {
                serde_json::to_string(item)
                    .map_err(|e| SuiteError::Stage(format!("item {}: {e}", item.id)))
            })
            .transpose()
    })?;
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claim_is_found_only_as_a_whole_token_standing_once() {
        let q = "Is it true that the highest value of Coal is 52?";
        assert_eq!(sole_token(q, "52"), Some(q.find("52").unwrap()));
        // Inside a longer number, or twice: not a place to re-state it.
        assert_eq!(sole_token("Is the 2052 figure 52.5?", "52"), None);
        assert_eq!(sole_token("Is 52 above 52?", "52"), None);
        assert_eq!(sole_token("Is it 1,052?", "052"), None);
        // A closing full stop or a list's comma does not join the token.
        assert!(sole_token("The sum is 52.", "52").is_some());
        assert!(sole_token("Paris, Lyon", "Paris").is_some());
        assert_eq!(sole_token("Parisian art", "Paris"), None);
    }

    #[test]
    fn two_names_trade_places_only_when_each_stands_once() {
        let q = "Is it true that Coal is higher in 2019 than in 2020?";
        assert_eq!(
            swap_names(q, "2019", "2020").as_deref(),
            Some("Is it true that Coal is higher in 2020 than in 2019?")
        );
        assert_eq!(
            swap_names(q, "2020", "2019").as_deref(),
            Some("Is it true that Coal is higher in 2020 than in 2019?")
        );
        assert_eq!(swap_names(q, "Coal", "Gas"), None);
        assert_eq!(
            swap_names("Is Asia higher than East Asia?", "Asia", "East Asia"),
            None
        );
    }

    #[test]
    fn a_trend_said_as_a_sequence_does_not_replace_one_said_as_a_state() {
        assert!(!said_alike("rising", "increases then decreases"));
        assert!(said_alike("rising", "falling"));
        assert!(said_alike("1,204", "1,310"));
    }

    #[test]
    fn imbalance_counts_each_set_apart() {
        let mut c = BTreeMap::new();
        c.insert((SetName::Original, true), 3);
        c.insert((SetName::Original, false), 1);
        c.insert((SetName::ModifiedChart, false), 2);
        assert_eq!(imbalance(&c), 4);
    }
}
