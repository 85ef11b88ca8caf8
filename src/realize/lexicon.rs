//! The lexical realizer's one change: words of the canonical templates
//! swapped for synonyms (`templates/questions/lexical.toml`), where they
//! stand, before any slot is filled — so the sentence keeps its shape and
//! no entity name, number or option is ever touched.

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The lexical bank's lexicon as (phrase, alternatives), longest phrase
/// first so that "highest value" is tried before "highest"; built once.
pub fn lexicon() -> &'static [(&'static str, &'static [String])] {
    static LEXICON: std::sync::OnceLock<Vec<(&'static str, &'static [String])>> =
        std::sync::OnceLock::new();
    LEXICON.get_or_init(|| entries(&super::bank::bank("lexical").lexicon))
}

/// `table` as (phrase, alternatives), longest phrase first.
fn entries(table: &std::collections::BTreeMap<String, Vec<String>>) -> Vec<(&str, &[String])> {
    let mut v: Vec<(&str, &[String])> = table
        .iter()
        .map(|(k, alts)| (k.as_str(), alts.as_slice()))
        .collect();
    v.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(b.0)));
    v
}

/// Chance that a phrase the lexicon knows is swapped where it occurs: a
/// twin usually swaps one or two words, and candidates drawn with several
/// seeds span from one swap to many.
const SWAP_PROBABILITY: f64 = 0.6;

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '\'' || c == '-'
}

/// `template` with lexicon phrases outside `{slots}` swapped, each with
/// probability `SWAP_PROBABILITY`; every swap is recorded in `transforms`
/// as `lex:{phrase}>{synonym}`.
pub fn rewrite(
    template: &str,
    lexicon: &[(&str, &[String])],
    rng: &mut Xoshiro256PlusPlus,
    transforms: &mut Vec<String>,
) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    let mut prev: Option<char> = None;
    while let Some(c) = rest.chars().next() {
        if c == '{' {
            // A slot or rule passes through whole.
            let end = rest.find('}').map_or(rest.len(), |i| i + 1);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
            prev = Some('}');
            continue;
        }
        let at_word_start = prev.is_none_or(|p| !is_word_char(p) && p != '}');
        if at_word_start && let Some((len, phrase, alts)) = matching(rest, lexicon) {
            let matched = &rest[..len];
            if !alts.is_empty() && rng.random_bool(SWAP_PROBABILITY) {
                let alt = &alts[rng.random_range(0..alts.len())];
                transforms.push(format!("lex:{phrase}>{alt}"));
                out.push_str(&match_case(matched, alt));
            } else {
                out.push_str(matched);
            }
            prev = matched.chars().last();
            rest = &rest[len..];
            continue;
        }
        out.push(c);
        prev = Some(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The longest lexicon phrase `text` opens with, as a whole word sequence.
fn matching<'a>(
    text: &str,
    lexicon: &[(&'a str, &'a [String])],
) -> Option<(usize, &'a str, &'a [String])> {
    lexicon.iter().find_map(|(phrase, alts)| {
        let len = phrase.len();
        let head = text.get(..len)?;
        let ends_word = text[len..].chars().next().is_none_or(|c| !is_word_char(c));
        (head.eq_ignore_ascii_case(phrase) && ends_word).then_some((len, *phrase, *alts))
    })
}

/// `alt` capitalised as `matched` is ("Highest" → "Largest").
fn match_case(matched: &str, alt: &str) -> String {
    if matched.chars().next().is_some_and(char::is_uppercase) {
        super::slots::capitalize(alt)
    } else {
        alt.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn table() -> BTreeMap<String, Vec<String>> {
        BTreeMap::from([
            ("highest".to_string(), vec!["largest".to_string()]),
            ("highest value".to_string(), vec!["peak value".to_string()]),
            ("chart".to_string(), vec!["graph".to_string()]),
            (
                "the x-axis".to_string(),
                vec!["the horizontal axis".to_string()],
            ),
        ])
    }

    #[test]
    fn synonyms_replace_whole_words_outside_slots() {
        let t = table();
        let lexicon = entries(&t);
        let mut swapped_any = false;
        for seed in 0..64 {
            let mut rng = crate::seed::rng(seed, &["lexicon"]);
            let mut transforms = Vec::new();
            let out = rewrite(
                "Highest value of {highest} in the chart, charted on the x-axis?",
                &lexicon,
                &mut rng,
                &mut transforms,
            );
            // Slots and longer words are never touched.
            assert!(out.contains("{highest}"), "{out}");
            assert!(out.contains("charted"), "{out}");
            assert!(
                out.starts_with("Highest value") || out.starts_with("Peak value"),
                "{out}"
            );
            assert!(out.contains(" chart,") || out.contains(" graph,"), "{out}");
            assert_eq!(transforms.len(), {
                let mut n = 0;
                n += usize::from(out.starts_with("Peak"));
                n += usize::from(out.contains(" graph,"));
                n += usize::from(out.contains("horizontal"));
                n
            });
            swapped_any |= !transforms.is_empty();
        }
        assert!(swapped_any);
    }
}
