//! Noisy user text: lower case, missing punctuation and a bounded number of
//! seeded typos, never inside entity names or numbers.

use std::collections::BTreeSet;

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::bank::Bank;

fn core(token: &str) -> &str {
    token.trim_matches(|c: char| !c.is_alphanumeric())
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
        .flat_map(|p| p.split_whitespace().map(|w| core(w).to_lowercase()))
        .filter(|w| !w.is_empty())
        .collect();
    let is_guarded = |t: &str| {
        let c = core(t).to_lowercase();
        c.is_empty() || guarded.contains(&c) || c.chars().any(|ch| ch.is_ascii_digit())
    };
    let mut tokens: Vec<String> = text.split(' ').map(str::to_string).collect();
    if rng.random_bool(bank.lowercase_probability.clamp(0.0, 1.0)) {
        for t in tokens.iter_mut() {
            if !is_guarded(t) {
                *t = t.to_lowercase();
            }
        }
        transforms.push("lowercase".into());
    }
    let candidates: Vec<usize> = tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| {
            let c = core(t);
            c.chars().count() >= 3 && c.chars().all(|ch| ch.is_ascii_alphabetic()) && !is_guarded(t)
        })
        .map(|(i, _)| i)
        .collect();
    let wanted = if bank.max_typos == 0 {
        0
    } else {
        rng.random_range(1..=bank.max_typos)
    };
    let mut used = BTreeSet::new();
    for _ in 0..wanted.min(candidates.len()) {
        let i = candidates[rng.random_range(0..candidates.len())];
        if !used.insert(i) {
            continue;
        }
        let token = tokens[i].clone();
        let c = core(&token).to_string();
        let start = token.find(&c).unwrap_or(0);
        let (before, after) = (&token[..start], &token[start + c.len()..]);
        let (new, kind) = if let Some(r) = bank.typos.words.get(&c.to_lowercase()) {
            (r.clone(), "typo:word")
        } else if c.len() >= 4 {
            let chars: Vec<char> = c.chars().collect();
            let j = rng.random_range(1..chars.len() - 1);
            match rng.random_range(0..3) {
                0 => {
                    let mut v = chars.clone();
                    v.swap(j, j + 1);
                    (v.into_iter().collect(), "typo:swap")
                }
                1 => {
                    let mut v = chars.clone();
                    v.remove(j);
                    (v.into_iter().collect(), "typo:drop")
                }
                _ => {
                    let mut v = chars.clone();
                    v.insert(j, chars[j]);
                    (v.into_iter().collect(), "typo:double")
                }
            }
        } else {
            continue;
        };
        if new != c {
            tokens[i] = format!("{before}{new}{after}");
            transforms.push(kind.into());
        }
    }
    let mut out = tokens.join(" ");
    if out.ends_with('?') && rng.random_bool(bank.drop_question_mark_probability.clamp(0.0, 1.0)) {
        out.pop();
        transforms.push("no_question_mark".into());
    }
    out
}
