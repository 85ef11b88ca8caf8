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

/// How often a rule the chart's domain words itself is taken from the
/// domain rather than from the shared wording: often enough to colour the
/// context, not so often that every question about money sounds alike.
const DOMAIN_SHARE: f64 = 0.75;

/// Rules nest a few levels at most; deeper means a cycle in the data.
const MAX_DEPTH: usize = 8;

/// Rules that each say who asks or why. One of them per item: a second one
/// expands to nothing, so a question never carries two unrelated contexts
/// ("Doing an op-ed ahead of the vote. … (Prepping a credit committee paper.)").
const ONE_CONTEXT_PER_ITEM: [&str; 5] = [
    "brief_lead",
    "brief_tail",
    "context_lead",
    "formal_context",
    "formal_context_tail",
];

/// Whether a recorded pick ("brief_lead3", "economy.role12") is one of a
/// context rule.
fn picked_context(pick: &str) -> bool {
    let name = pick.rsplit('.').next().unwrap_or(pick);
    ONE_CONTEXT_PER_ITEM.contains(&name.trim_end_matches(|c: char| c.is_ascii_digit()))
}

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
        let second_context =
            ONE_CONTEXT_PER_ITEM.contains(&name) && picks.iter().any(|p| picked_context(p));
        if source.mute.contains(&name) || second_context {
            rest = &after[end + 1..];
            continue;
        }
        let shared = rule(source.banks, name);
        let own = source
            .domain
            .and_then(|d| Some((d.name.as_str(), d.grammar.get(name)?)));
        let (options, tag) = match (own, shared) {
            (Some((d, o)), Some(_)) if rng.random_bool(DOMAIN_SHARE) => (o.as_slice(), d),
            (Some((d, o)), None) => (o.as_slice(), d),
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
    for c in s.chars() {
        if boundary && c.is_lowercase() {
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

    /// Who asks and why is said once: a lead that gave a context leaves the
    /// closing context out, also when the closer comes in a later expansion
    /// of the same item (a multiple-choice frame around its question).
    #[test]
    fn an_item_carries_one_context() {
        let source = Source {
            banks: &["lexical"],
            avoid: &[],
            domain: None,
            mute: &[],
        };
        let mut alone_with_context = 0;
        for seed in 0..200 {
            let mut rng = crate::seed::rng(seed, &["context"]);
            let mut picks = Vec::new();
            let lead = expand("{@brief_lead}|", &source, &mut rng, &mut picks).unwrap();
            assert!(lead.len() > 2, "no context in {lead:?}");
            let tail = expand("|{@brief_tail}", &source, &mut rng, &mut picks).unwrap();
            assert_eq!(tail, "|", "a second context after {lead:?}");
            // Without a context before it, the closer says who asks or why.
            let alone = expand("|{@brief_tail}", &source, &mut rng, &mut Vec::new()).unwrap();
            if alone.len() > 4 {
                alone_with_context += 1;
            }
        }
        assert!(alone_with_context > 150, "{alone_with_context}");
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
