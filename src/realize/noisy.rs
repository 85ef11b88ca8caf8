//! Noisy user text: casing and punctuation habits plus a bounded number of
//! seeded typos of several kinds (slipped keys, dropped, doubled and swapped
//! letters, dropped apostrophes, common misspellings), never inside entity
//! names or numbers. Kinds are drawn by weight first, so no single typo (like
//! one misspelled "the") dominates the set.

use std::collections::BTreeSet;

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::bank::Bank;

fn core(token: &str) -> &str {
    token.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
}

/// A token as compared with protected words: possessive and punctuation off
/// ("Diesel's" and "(US$)'s" guard like "Diesel" and "(US$)").
fn guard_key(token: &str) -> String {
    let base = token.split("'s").next().unwrap_or(token);
    base.trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase()
}

/// Words that carry the question's operation ("highest", "average", "how
/// many"): a slip there can turn "leads" into "least" and ask another
/// fact, so typos and case changes leave them alone. Stems of four letters
/// or more also guard their inflections ("increase", "increased").
const OPERATION_WORDS: &[&str] = &[
    "high", "low", "lowe", "larg", "small", "big", "tall", "short", "most", "least", "lead", "top",
    "bottom", "peak", "max", "min", "maximum", "minimum", "averag", "mean", "median", "total",
    "sum", "differ", "ratio", "percent", "chang", "increas", "decreas", "grow", "rise", "rose",
    "fall", "fell", "drop", "range", "spread", "gap", "share", "rank", "more", "less", "great",
    "fewer", "above", "below", "exceed", "before", "after", "first", "last", "second", "third",
    "many", "much", "count", "true", "false", "not", "same", "equal", "half", "double", "twice",
    "up", "down", "trend", "best", "worst", "than", "over", "under", "next", "previous",
];

/// Words naming what is asked for or how to give it ("the source", "the
/// tick labels", "legend entries", "round to the nearest whole number"): an
/// outside reader found a typo there ("souurce", "lable", "ronud") as
/// unnatural as one in an operation word, though a slip elsewhere read as
/// a person's.
const ASKED_FOR_WORDS: &[&str] = &[
    "sourc", "label", "tick", "legend", "entr", "titl", "subtitl", "note", "axis", "axes", "numb",
    "round", "nearest", "whole", "decimal", "interval", "step", "option", "choic",
];

fn carries_operation(token: &str) -> bool {
    let word = core(token).to_lowercase();
    // "x-axis", "year-on-year": each part on its own.
    word.split('-').any(|part| {
        OPERATION_WORDS
            .iter()
            .chain(ASKED_FOR_WORDS)
            .any(|w| part == *w || (w.len() >= 4 && part.starts_with(w)))
    })
}

fn habit(bank: &Bank, rng: &mut Xoshiro256PlusPlus, name: &str) -> bool {
    let p = bank.habits.get(name).copied().unwrap_or(0.0);
    rng.random_bool(p.clamp(0.0, 1.0))
}

/// One typo of `kind` in `word`; None when the kind does not apply.
fn typo(word: &str, kind: &str, bank: &Bank, rng: &mut Xoshiro256PlusPlus) -> Option<String> {
    let chars: Vec<char> = word.chars().collect();
    let n = chars.len();
    match kind {
        "word" => {
            // "a|b|c" lists several common misspellings of one word.
            let spellings: Vec<&str> = bank
                .typos
                .words
                .get(&word.to_lowercase())?
                .split('|')
                .collect();
            Some(spellings[rng.random_range(0..spellings.len())].to_string())
        }
        "apostrophe" => word.contains('\'').then(|| word.replace('\'', "")),
        _ if n < 4 || !chars.iter().all(|c| c.is_ascii_alphabetic()) => None,
        "neighbour" => {
            let j = rng.random_range(1..n);
            let lower = chars[j].to_ascii_lowercase().to_string();
            let near: Vec<char> = bank.keyboard.get(&lower)?.chars().collect();
            if near.is_empty() {
                return None;
            }
            let mut v = chars.clone();
            v[j] = near[rng.random_range(0..near.len())];
            Some(v.into_iter().collect())
        }
        "swap" => {
            let j = rng.random_range(1..n - 1);
            let mut v = chars.clone();
            v.swap(j, j + 1);
            Some(v.into_iter().collect())
        }
        "drop" => {
            let j = rng.random_range(1..n);
            let mut v = chars.clone();
            v.remove(j);
            Some(v.into_iter().collect())
        }
        "double" => {
            let j = rng.random_range(1..n);
            let mut v = chars.clone();
            v.insert(j, chars[j]);
            Some(v.into_iter().collect())
        }
        _ => None,
    }
}

fn weighted<'a>(kinds: &'a [(&'a str, u32)], rng: &mut Xoshiro256PlusPlus) -> Option<&'a str> {
    let total: u32 = kinds.iter().map(|k| k.1).sum();
    if total == 0 {
        return None;
    }
    let mut x = rng.random_range(0..total);
    for (k, w) in kinds {
        if x < *w {
            return Some(k);
        }
        x -= w;
    }
    None
}

pub fn apply(
    text: &str,
    protected: &[String],
    bank: &Bank,
    rng: &mut Xoshiro256PlusPlus,
    transforms: &mut Vec<String>,
) -> String {
    let guarded: BTreeSet<String> = protected
        .iter()
        .flat_map(|p| p.split_whitespace().map(guard_key))
        .filter(|w| !w.is_empty())
        .collect();
    let is_guarded = |t: &str| {
        let c = guard_key(t);
        c.is_empty() || guarded.contains(&c) || t.chars().any(|ch| ch.is_ascii_digit())
    };
    let keeps_spelling = |t: &str| is_guarded(t) || carries_operation(t);
    let mut tokens: Vec<String> = text.split(' ').map(str::to_string).collect();
    if habit(bank, rng, "lowercase") {
        for t in tokens.iter_mut() {
            if !is_guarded(t) {
                *t = t.to_lowercase();
            }
        }
        transforms.push("lowercase".into());
    } else if habit(bank, rng, "shout_word") {
        // One word typed in capitals for emphasis ("the HIGHEST value").
        let words: Vec<usize> = (0..tokens.len())
            .filter(|i| core(&tokens[*i]).len() >= 5 && !is_guarded(&tokens[*i]))
            .collect();
        if !words.is_empty() {
            let i = words[rng.random_range(0..words.len())];
            tokens[i] = tokens[i].to_uppercase();
            transforms.push("shout_word".into());
        }
    }
    let kinds: Vec<(&str, u32)> = bank
        .typo_kinds
        .iter()
        .map(|(k, w)| (k.as_str(), *w))
        .collect();
    let candidates: Vec<usize> = tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| core(t).chars().count() >= 2 && !keeps_spelling(t))
        .map(|(i, _)| i)
        .collect();
    // About one slip per eight words: three in "whats the gap between them"
    // is a garbled line, not a hurried one.
    let most = bank.max_typos.min(1 + candidates.len() / 8);
    let wanted = if most == 0 {
        0
    } else {
        rng.random_range(1..=most)
    };
    let mut used = BTreeSet::new();
    // A few tries per typo: a drawn kind may not fit the drawn word.
    let mut tries = wanted * 4;
    while used.len() < wanted && tries > 0 && !candidates.is_empty() {
        tries -= 1;
        let i = candidates[rng.random_range(0..candidates.len())];
        let Some(kind) = weighted(&kinds, rng) else {
            break;
        };
        if used.contains(&i) {
            continue;
        }
        let token = tokens[i].clone();
        let c = core(&token).to_string();
        let start = token.find(&c).unwrap_or(0);
        let (before, after) = (&token[..start], &token[start + c.len()..]);
        let Some(new) = typo(&c, kind, bank, rng) else {
            continue;
        };
        // "then The" must not become "the The": a typo never repeats a neighbour.
        let repeats = |j: Option<usize>| {
            j.and_then(|j| tokens.get(j))
                .is_some_and(|t| core(t).eq_ignore_ascii_case(&new))
        };
        if repeats(i.checked_sub(1)) || repeats(Some(i + 1)) {
            continue;
        }
        if new != c && !new.is_empty() {
            tokens[i] = format!("{before}{new}{after}");
            used.insert(i);
            transforms.push(format!("typo:{kind}"));
        }
    }
    let mut out = tokens.join(" ");
    let comma_in_name = protected.iter().any(|p| p.contains(", "));
    if habit(bank, rng, "no_commas") && out.contains(", ") && !comma_in_name {
        out = out.replace(", ", " ");
        transforms.push("no_commas".into());
    }
    if out.ends_with('?') && habit(bank, rng, "drop_question_mark") {
        out.pop();
        transforms.push("no_question_mark".into());
    } else if out.ends_with('.') && habit(bank, rng, "drop_full_stop") {
        out.pop();
        transforms.push("no_full_stop".into());
    } else if out.ends_with('?') && habit(bank, rng, "double_question_mark") {
        out.push('?');
        transforms.push("double_question_mark".into());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::carries_operation;

    #[test]
    fn comparatives_and_superlatives_carry_the_operation() {
        for w in [
            "lower",
            "lowest?",
            "higher",
            "Highest",
            "largest",
            "increased",
        ] {
            assert!(carries_operation(w), "{w}");
        }
        for w in ["value", "chart", "revenue"] {
            assert!(!carries_operation(w), "{w}");
        }
    }

    #[test]
    fn what_is_asked_for_keeps_its_spelling() {
        for w in [
            "source?", "labels", "entries", "round", "nearest", "number", "title", "x-axis",
        ] {
            assert!(carries_operation(w), "{w}");
        }
    }
}
