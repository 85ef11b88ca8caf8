//! Template grammar: `{@rule}` in a template stands for one alternative of the
//! named rule (the realizer's own `[grammar]`, else `common.toml`), picked with
//! the seeded rng. Alternatives may use rules themselves, so openers, verbs,
//! noun phrases and closers combine freely while staying data. An alternative
//! whose words name one of the chart's entities ("a YouTube explainer" on a
//! chart with a YouTube series) is passed over for the next one, so filler
//! never reads as a reference to the data.

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::bank::{Domain, rule};

/// Rules nest a few levels at most; deeper means a cycle in the data.
const MAX_DEPTH: usize = 8;

/// Where alternatives come from and which words they must not contain.
pub struct Source<'a> {
    /// Banks to look rules up in, first match wins (then `common.toml`).
    pub banks: &'a [&'a str],
    /// Entity names of the chart, matched as whole words.
    pub avoid: &'a [String],
    /// The chart's subject, whose rules stand in for shared ones of the same name.
    pub domain: Option<&'static Domain>,
    /// Rules that expand to nothing here (closers before a list of options).
    pub mute: &'a [&'a str],
}

/// `template` with every `{@rule}` replaced by a picked alternative, tidied;
/// None when a rule is unknown or nests too deeply (a data defect).
pub fn expand(
    template: &str,
    source: &Source,
    rng: &mut Xoshiro256PlusPlus,
    picks: &mut Vec<String>,
) -> Option<String> {
    if !template.contains("{@") {
        // Templates without rules stay byte-identical (the canonical wording).
        return Some(template.to_string());
    }
    let raw = expand_at(template, source, rng, picks, 0)?;
    Some(tidy(&raw))
}

/// Whether `text` contains `name` as a whole word (not inside a longer word).
pub fn names_word(text: &str, name: &str) -> bool {
    let is_word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric());
    !name.is_empty()
        && text.match_indices(name).any(|(i, _)| {
            !is_word(text[..i].chars().next_back())
                && !is_word(text[i + name.len()..].chars().next())
        })
}

fn expand_at(
    template: &str,
    source: &Source,
    rng: &mut Xoshiro256PlusPlus,
    picks: &mut Vec<String>,
    depth: usize,
) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(start) = rest.find("{@") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after.find('}')?;
        let name = &after[..end];
        if source.mute.contains(&name) {
            rest = &after[end + 1..];
            continue;
        }
        let shared = rule(source.banks, name);
        let own = source
            .domain
            .and_then(|d| Some((d.name.as_str(), d.grammar.get(name)?)));
        let (options, tag) = match (own, shared) {
            // A chart with a subject always takes its own roles and reasons:
            // shared ones (a teacher asking about bond yields) read as non-sequiturs.
            (Some((d, o)), _) => (o.as_slice(), d),
            (_, Some(s)) => (s, ""),
            (None, None) => return None,
        };
        if options.is_empty() {
            return None;
        }
        let first = rng.random_range(0..options.len());
        let mut chosen = None;
        for k in 0..options.len() {
            let i = (first + k) % options.len();
            let mark = picks.len();
            picks.push(format!(
                "{tag}{}{name}{i}",
                if tag.is_empty() { "" } else { "." }
            ));
            let text = expand_at(&options[i], source, rng, picks, depth + 1)?;
            // When every alternative names an entity, the last one stands.
            if k + 1 == options.len() || !source.avoid.iter().any(|a| names_word(&text, a)) {
                chosen = Some(text);
                break;
            }
            picks.truncate(mark);
        }
        out.push_str(&chosen?);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Some(out)
}

/// Spacing and capitals after optional parts were left empty: one space
/// between words, none before punctuation, a capital after a sentence ends.
/// Runs on templates (before slots are filled) so entity names keep their case.
pub fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            ' ' if out.ends_with(' ') || out.ends_with('\n') || out.is_empty() => {}
            ',' | '.' | '?' | '!' | ':' | ';' if out.ends_with(' ') => {
                out.pop();
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    let mut s = out.trim_end().to_string();
    for (from, to) in [
        (",,", ","),
        (",.", "."),
        (",?", "?"),
        ("?,", "?"),
        ("!,", "!"),
        (".,", "."),
        ("?.", "?"),
        ("..", "."),
    ] {
        while s.contains(from) {
            s = s.replace(from, to);
        }
    }
    capitalize_sentences(&s)
}

fn capitalize_sentences(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut boundary = false;
    let mut prev = ' ';
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        // "iPad" keeps its small letter: the capital after it says so.
        let camel = chars.peek().is_some_and(|n| n.is_uppercase());
        if boundary && c.is_lowercase() && !camel {
            out.extend(c.to_uppercase());
        } else {
            out.push(c);
        }
        if matches!(prev, '.' | '?' | '!') && c == ' ' {
            boundary = true;
        } else if c != ' ' {
            boundary = false;
        }
        prev = c;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Source, expand, names_word, tidy};

    #[test]
    fn alternatives_naming_an_entity_are_passed_over() {
        let avoid = vec!["YouTube".to_string()];
        let source = Source {
            banks: &["register"],
            avoid: &avoid,
            domain: None,
            mute: &[],
        };
        for seed in 0..300 {
            let mut rng = crate::seed::rng(seed, &["avoid"]);
            let text = expand("{@purpose}", &source, &mut rng, &mut Vec::new()).unwrap();
            assert!(!names_word(&text, "YouTube"), "{text}");
        }
        assert!(names_word("a YouTube explainer", "YouTube"));
        assert!(!names_word("YouTubers", "YouTube"));
    }

    /// A rewording changes the words only: who asks and why is the
    /// distractor-context change, so no other realizer's openers or closers
    /// carry it.
    #[test]
    fn rewordings_carry_no_context() {
        for bank in [
            "canonical",
            "lexical",
            "syntactic",
            "register",
            "visual",
            "noisy",
        ] {
            let source = Source {
                banks: &[bank],
                avoid: &[],
                domain: None,
                mute: &[],
            };
            for rule in [
                "brief_lead",
                "brief_tail",
                "context_lead",
                "formal_context",
                "formal_context_tail",
            ] {
                for seed in 0..50 {
                    let mut rng = crate::seed::rng(seed, &["context"]);
                    let text = expand(&format!("{{@{rule}}}"), &source, &mut rng, &mut Vec::new())
                        .unwrap_or_default();
                    assert!(text.trim().is_empty(), "{bank} {rule}: {text:?}");
                }
            }
        }
    }

    #[test]
    fn tidy_closes_gaps_left_by_empty_parts() {
        assert_eq!(tidy(" what is  {np} ?"), "what is {np}?");
        assert_eq!(
            tidy("Thanks. quick one , what is it?"),
            "Thanks. Quick one, what is it?"
        );
        assert_eq!(tidy("Hi,, there ."), "Hi, there.");
        // A closer that opens with a comma after a question mark.
        assert_eq!(tidy("{np}?, boss is waiting"), "{np}? Boss is waiting");
    }
}
