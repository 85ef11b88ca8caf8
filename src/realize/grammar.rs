//! Template grammar: `{@rule}` in a template stands for one alternative of the
//! named rule (the realizer's own `[grammar]`, else `common.toml`), picked with
//! the seeded rng. Alternatives may use rules themselves, so openers, verbs,
//! noun phrases and closers combine freely while staying data.

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::bank::rule;

/// Rules nest a few levels at most; deeper means a cycle in the data.
const MAX_DEPTH: usize = 8;

/// `template` with every `{@rule}` replaced by a picked alternative, tidied;
/// None when a rule is unknown or nests too deeply (a data defect).
pub fn expand(
    template: &str,
    from: &[&str],
    rng: &mut Xoshiro256PlusPlus,
    picks: &mut Vec<String>,
) -> Option<String> {
    if !template.contains("{@") {
        // Templates without rules stay byte-identical (the canonical wording).
        return Some(template.to_string());
    }
    let raw = expand_at(template, from, rng, picks, 0)?;
    Some(tidy(&raw))
}

fn expand_at(
    template: &str,
    from: &[&str],
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
        let options = rule(from, name)?;
        if options.is_empty() {
            return None;
        }
        let i = rng.random_range(0..options.len());
        picks.push(format!("{name}{i}"));
        out.push_str(&expand_at(&options[i], from, rng, picks, depth + 1)?);
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
    use super::tidy;

    #[test]
    fn tidy_closes_gaps_left_by_empty_parts() {
        assert_eq!(tidy(" what is  {np} ?"), "what is {np}?");
        assert_eq!(
            tidy("Thanks. quick one , what is it?"),
            "Thanks. Quick one, what is it?"
        );
        assert_eq!(tidy("Hi,, there ."), "Hi, there.");
    }
}
