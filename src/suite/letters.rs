//! Suite-wide balance of multiple-choice letters.
//!
//! Tables are generated independently (in parallel, in shards), so per-table
//! balancing leaves the letters of a whole set uneven. This pass runs once
//! over the written `items.jsonl` (after `generate` and after `merge`) and
//! moves the correct option of each multiple-choice item to the letter its
//! set uses least. It depends only on the items, not on their current
//! letters, so a merged suite gets exactly the letters of an unsharded one.
//!
//! An item that asks the same question as its original (a paraphrase, a
//! chart change that keeps the answer) keeps the original's letter, so pairs
//! stay pairs; only items with options of their own (format shifts, data
//! shifts) are placed freely, and they even out their set.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use super::SuiteError;
use super::io::{Counts, JsonLines, rewrite_lines};
use crate::ir::suite::ITEMS_FILE;
use crate::ir::{Answer, Item, Query, SetName};

struct Entry {
    line: usize,
    id: String,
    set: SetName,
    origin: Option<String>,
    options: Vec<String>,
    correct: usize,
    /// The question text can be re-printed for another option order.
    movable: bool,
}

fn choice_of(item: &Item) -> Option<(Vec<String>, usize)> {
    let (Query::MultipleChoice { options, .. }, Answer::Choice { letter, .. }) =
        (&item.query, &item.answer)
    else {
        return None;
    };
    let correct = (*letter as usize).checked_sub('a' as usize)?;
    (correct < options.len()).then(|| (options.clone(), correct))
}

fn sorted(options: &[String]) -> Vec<&String> {
    let mut v: Vec<&String> = options.iter().collect();
    v.sort();
    v
}

/// The options with the correct one moved to `target`, the others keeping
/// their relative order (so the result does not depend on where it was).
fn placed(options: &[String], correct: usize, target: usize) -> Vec<String> {
    let mut rest = options.to_vec();
    let answer = rest.remove(correct);
    rest.insert(target.min(rest.len()), answer);
    rest
}

/// Chooses every entry's letter: entries of the original set first, then each
/// modified set; inherited letters are counted before free ones are placed.
fn assign(entries: &[Entry], seed: u64) -> Vec<usize> {
    let by_id: HashMap<&str, usize> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.id.as_str(), i))
        .collect();
    // The entry whose letter an entry must share: its origin when that asks
    // the very same options and both can be re-printed.
    let parent = |i: usize| -> Option<usize> {
        let e = &entries[i];
        let &p = by_id.get(e.origin.as_deref()?)?;
        (sorted(&entries[p].options) == sorted(&e.options)).then_some(p)
    };
    // A group moves only when every member can be re-printed.
    let mut group_movable = vec![true; entries.len()];
    for (i, e) in entries.iter().enumerate() {
        let root = parent(i).unwrap_or(i);
        group_movable[root] &= e.movable && entries[root].movable;
    }
    let mut letter: Vec<Option<usize>> = vec![None; entries.len()];
    for set in SetName::ALL {
        let members: Vec<usize> = (0..entries.len())
            .filter(|&i| entries[i].set == set)
            .collect();
        let mut used: BTreeMap<usize, u64> = BTreeMap::new();
        let mut free = Vec::new();
        for &i in &members {
            let root = parent(i).unwrap_or(i);
            let fixed = if !group_movable[root] {
                Some(entries[i].correct)
            } else if root != i {
                letter[root]
            } else {
                None
            };
            match fixed {
                Some(l) => {
                    letter[i] = Some(l);
                    *used.entry(l).or_default() += 1;
                }
                None => free.push(i),
            }
        }
        free.sort_by(|&a, &b| entries[a].id.cmp(&entries[b].id));
        for i in free {
            let n = entries[i].options.len();
            let least = (0..n)
                .map(|l| used.get(&l).copied().unwrap_or(0))
                .min()
                .unwrap_or(0);
            let ties: Vec<usize> = (0..n)
                .filter(|l| used.get(l).copied().unwrap_or(0) == least)
                .collect();
            // Ties are broken per item, so no letter is favoured first.
            let pick = crate::seed::derive(seed, &["letter", &entries[i].id]) as usize % ties.len();
            let l = ties[pick];
            letter[i] = Some(l);
            *used.entry(l).or_default() += 1;
        }
    }
    letter
        .into_iter()
        .zip(entries)
        .map(|(l, e)| l.unwrap_or(e.correct))
        .collect()
}

/// `item` with its options printed in the order `new` (the question text,
/// the query and the choices); None when the wording cannot be re-printed.
fn reprinted(mut item: Item, new: &[String]) -> Option<Item> {
    let Query::MultipleChoice { options, .. } = &mut item.query else {
        return None;
    };
    item.question = crate::realize::reorder_options(&item.question, options, new)?;
    if item.choices == *options {
        item.choices = new.to_vec();
    }
    *options = new.to_vec();
    Some(item)
}

fn relettered(item: Item, target: usize) -> Option<Item> {
    let (options, correct) = choice_of(&item)?;
    let new = placed(&options, correct, target);
    let mut item = reprinted(item, &new)?;
    let letter = (b'a' + target as u8) as char;
    item.answer = Answer::Choice {
        letter,
        text: new[target].clone(),
    };
    item.answer_text = item.answer.to_text();
    Some(item)
}

/// Rebalances the letters of `suite`'s items in place and updates the
/// `choice_letter` counts.
pub(crate) fn balance_letters(
    suite: &Path,
    seed: u64,
    counts: &mut Counts,
) -> Result<(), SuiteError> {
    let path = suite.join(ITEMS_FILE);
    let mut entries = Vec::new();
    // Unanswerable twins of a multiple-choice item: no letter of their own,
    // but the original's options in the original's order.
    let mut followers: Vec<(usize, String, Vec<String>)> = Vec::new();
    for (line, item) in JsonLines::<Item>::open(&path)?.enumerate() {
        let item = item?;
        if let (Query::MultipleChoice { options, .. }, Answer::Unanswerable, Some(origin)) =
            (&item.query, &item.answer, &item.origin)
        {
            followers.push((line, origin.clone(), options.clone()));
        }
        if let Some((options, correct)) = choice_of(&item) {
            let movable =
                crate::realize::reorder_options(&item.question, &options, &options).is_some();
            entries.push(Entry {
                line,
                id: item.id,
                set: item.set,
                origin: item.origin,
                options,
                correct,
                movable,
            });
        }
    }
    let letters = assign(&entries, seed);
    let changes: HashMap<usize, usize> = entries
        .iter()
        .zip(&letters)
        .filter(|(e, l)| e.correct != **l)
        .map(|(e, l)| (e.line, *l))
        .collect();
    counts.0.remove("choice_letter");
    for l in &letters {
        counts.bump("choice_letter", &((b'a' + *l as u8) as char).to_string(), 1);
    }
    let final_order: HashMap<&str, Vec<String>> = entries
        .iter()
        .zip(&letters)
        .map(|(e, &l)| (e.id.as_str(), placed(&e.options, e.correct, l)))
        .collect();
    let follow: HashMap<usize, Vec<String>> = followers
        .into_iter()
        .filter_map(|(line, origin, options)| {
            let order = final_order.get(origin.as_str())?;
            (sorted(order) == sorted(&options) && *order != options).then(|| (line, order.clone()))
        })
        .collect();
    if changes.is_empty() && follow.is_empty() {
        return Ok(());
    }
    rewrite_lines(&path, |line, raw| {
        let (order, target) = (follow.get(&line), changes.get(&line));
        if order.is_none() && target.is_none() {
            return Ok(None);
        }
        let item: Item = serde_json::from_str(raw).map_err(|e| SuiteError::Record {
            path: path.clone(),
            line: line + 1,
            message: e.to_string(),
        })?;
        let id = item.id.clone();
        let new = match (order, target) {
            // A wording that cannot be re-printed (typos in the options
            // block) keeps its order: the twin has no letter to keep even.
            (Some(order), _) => match reprinted(item, order) {
                Some(new) => new,
                None => return Ok(None),
            },
            (None, Some(&target)) => relettered(item, target).ok_or_else(|| {
                SuiteError::Stage(format!("item {id}: its options could not be reordered"))
            })?,
            (None, None) => return Ok(None),
        };
        serde_json::to_string(&new)
            .map(Some)
            .map_err(|e| SuiteError::Stage(format!("item {id}: {e}")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, set: SetName, origin: Option<&str>, correct: usize) -> Entry {
        Entry {
            line: 0,
            id: id.into(),
            set,
            origin: origin.map(str::to_string),
            options: ["w", "x", "y", "z"].map(String::from).to_vec(),
            correct,
            movable: true,
        }
    }

    #[test]
    fn placing_is_independent_of_the_current_position() {
        let a: Vec<String> = ["r", "s", "t", "u"].map(String::from).to_vec();
        let b = placed(&a, 2, 0);
        assert_eq!(b, ["t", "r", "s", "u"]);
        // From any position, the same target gives the same order.
        assert_eq!(placed(&b, 0, 3), placed(&a, 2, 3));
        assert_eq!(placed(&a, 2, 3), ["r", "s", "u", "t"]);
    }

    #[test]
    fn letters_are_even_within_each_set_and_pairs_share_them() {
        let mut entries = Vec::new();
        for i in 0..22 {
            // Every original starts on `a`: the worst case.
            entries.push(entry(&format!("o{i:02}"), SetName::Original, None, 0));
            entries.push(entry(
                &format!("o{i:02}-c0"),
                SetName::ModifiedChart,
                Some(&format!("o{i:02}")),
                0,
            ));
        }
        for i in 0..10 {
            // Paraphrases of originals (inherit) and format shifts (free).
            entries.push(entry(
                &format!("o{i:02}-q0"),
                SetName::ModifiedQuestion,
                Some(&format!("o{i:02}")),
                0,
            ));
            let mut shift = entry(
                &format!("p{i:02}-q0"),
                SetName::ModifiedQuestion,
                Some("none"),
                1,
            );
            shift.options = ["k", "l", "m", "n"].map(String::from).to_vec();
            entries.push(shift);
        }
        let letters = assign(&entries, 7);
        for set in [
            SetName::Original,
            SetName::ModifiedChart,
            SetName::ModifiedQuestion,
        ] {
            let mut n = [0u32; 4];
            for (e, l) in entries.iter().zip(&letters) {
                if e.set == set {
                    n[*l] += 1;
                }
            }
            let (lo, hi) = (n.iter().min().unwrap(), n.iter().max().unwrap());
            assert!(hi - lo <= 1, "{set:?}: {n:?}");
        }
        for (i, e) in entries.iter().enumerate() {
            if let Some(o) = entries
                .iter()
                .position(|p| Some(&p.id) == e.origin.as_ref())
            {
                assert_eq!(
                    letters[i], letters[o],
                    "{} shares its original's letter",
                    e.id
                );
            }
        }
        // Deterministic, and independent of where the answers were.
        let mut moved = entries;
        for e in &mut moved {
            e.correct = 3;
        }
        assert_eq!(assign(&moved, 7), letters);
    }

    #[test]
    fn unmovable_groups_keep_their_letters() {
        let mut o = entry("o", SetName::Original, None, 2);
        o.movable = false;
        let c = entry("o-c0", SetName::ModifiedChart, Some("o"), 2);
        assert_eq!(assign(&[o, c], 1), [2, 2]);
    }
}
