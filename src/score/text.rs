//! Text normalization, ANLS, abstention phrases, choice letters and verdicts.

/// Lower case, trimmed, inner whitespace collapsed, curly quotes straightened,
/// surrounding quotes/backticks and trailing sentence punctuation removed.
pub fn normalize(text: &str) -> String {
    let straight: String = text
        .chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' => '\'',
            '\u{201c}' | '\u{201d}' => '"',
            c => c,
        })
        .collect();
    let mut s = straight
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    loop {
        let before = s.len();
        let trimmed = s
            .trim_matches(|c| c == '"' || c == '`' || c == '*')
            .trim_end_matches(['.', '!', ';'])
            .trim();
        // Only strip single quotes when they wrap the whole text ('Paris').
        let trimmed = if trimmed.len() >= 2 && trimmed.starts_with('\'') && trimmed.ends_with('\'')
        {
            &trimmed[1..trimmed.len() - 1]
        } else {
            trimmed
        };
        s = trimmed.to_string();
        if s.len() == before {
            return s;
        }
    }
}

/// Normalized text with "n/a" read as CharXiv's "Not Applicable" answer.
pub fn normalize_text_answer(text: &str) -> String {
    let n = normalize(text);
    if n == "n/a" || n == "na" {
        "not applicable".into()
    } else {
        n
    }
}

/// ANLS similarity with threshold 0.5: `1 − NL` when the normalized
/// Levenshtein distance NL is below 0.5, else 0 (the DocVQA definition).
pub fn anls(gold: &str, prediction: &str) -> f64 {
    let similarity = strsim::normalized_levenshtein(gold, prediction);
    if 1.0 - similarity < 0.5 {
        similarity
    } else {
        0.0
    }
}

/// Phrases that mean "I cannot answer this from the chart". A prediction
/// abstains when its normalized form starts with one of them at a word
/// boundary. "Not Applicable" / "N/A" are deliberately absent: CharXiv uses
/// "Not Applicable" as a real answer for descriptive questions about chart
/// elements that do not exist.
pub const ABSTENTIONS: &[&str] = &[
    "unanswerable",
    "not answerable",
    "cannot be answered",
    "can't be answered",
    "can not be answered",
    "cannot answer",
    "can't answer",
    "i cannot answer",
    "i can't answer",
    "i am unable to answer",
    "i'm unable to answer",
    "unable to answer",
    "cannot be determined",
    "can't be determined",
    "cannot determine",
    "can't determine",
    "unable to determine",
    "it cannot be determined",
    "it is not possible to determine",
    "not possible to determine",
    "not enough information",
    "there is not enough information",
    "there isn't enough information",
    "insufficient information",
    "there is insufficient information",
    "the chart does not show",
    "the chart doesn't show",
    "the chart does not provide",
    "the chart does not contain",
    "the question cannot be answered",
    "this question cannot be answered",
    "the question is unanswerable",
    "this question is unanswerable",
];

/// Whether a prediction abstains (see [`ABSTENTIONS`]).
pub fn is_abstention(text: &str) -> bool {
    let mut n = normalize(text);
    for lead in ["final answer:", "answer:"] {
        if let Some(rest) = n.strip_prefix(lead) {
            n = rest.trim().to_string();
        }
    }
    ABSTENTIONS.iter().any(|phrase| {
        n.strip_prefix(phrase)
            .is_some_and(|rest| !rest.chars().next().is_some_and(char::is_alphanumeric))
    })
}

/// A multiple-choice letter in the forms "a", "A", "(a)", "a)", "a.", "a:",
/// "(a) text", "a) text", "a. text", "a: text", "option a".
pub fn choice_letter(text: &str) -> Option<char> {
    let mut n = normalize(text);
    for lead in ["option ", "answer: ", "answer "] {
        if let Some(rest) = n.strip_prefix(lead) {
            n = rest.to_string();
        }
    }
    let chars: Vec<char> = n.chars().collect();
    let letter_ok = |c: char| c.is_ascii_lowercase() && c <= 'h';
    match chars.as_slice() {
        [c] if letter_ok(*c) => Some(*c),
        ['(', c, ')', ..] if letter_ok(*c) => Some(*c),
        [c, ')' | '.' | ':', rest @ ..]
            if letter_ok(*c) && rest.first().is_none_or(|r| r.is_whitespace()) =>
        {
            Some(*c)
        }
        _ => None,
    }
}

/// `true`/`false` with any case and an optional period.
pub fn verdict(text: &str) -> Option<bool> {
    match normalize(text).as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// `yes`/`no` with any case and an optional period.
pub fn yes_no(text: &str) -> Option<bool> {
    match normalize(text).as_str() {
        "yes" => Some(true),
        "no" => Some(false),
        _ => None,
    }
}

/// Splits a predicted list: a Python/JSON list literal, or text separated by
/// semicolons, newlines or commas (not thousands separators); a leading
/// "and " of an element is dropped ("a, b, and c").
pub fn split_list(text: &str) -> Vec<String> {
    split_list_readings(text).swap_remove(0)
}

/// The readings of a predicted list: first without, then (when it differs)
/// with splitting on " and " — names like "Recreation and culture" and
/// lists like "a, b and c" both occur, so the scorer tries both.
pub fn split_list_readings(text: &str) -> Vec<Vec<String>> {
    if let Some(items) = super::pylit::parse_to_list(text.trim()) {
        return vec![items];
    }
    let t = text.trim();
    let t = t
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .unwrap_or(t);
    let chars: Vec<char> = t.chars().collect();
    let mut parts = Vec::new();
    let mut current = String::new();
    let separator_is_semicolon = t.contains(';');
    for (i, &c) in chars.iter().enumerate() {
        let is_sep = if separator_is_semicolon {
            c == ';'
        } else if c == ',' {
            // "1,234": a comma between a digit and exactly three digits separates thousands.
            let thousands = i > 0
                && chars[i - 1].is_ascii_digit()
                && chars
                    .get(i + 1..i + 4)
                    .is_some_and(|g| g.iter().all(char::is_ascii_digit))
                && !chars.get(i + 4).is_some_and(char::is_ascii_digit);
            !thousands
        } else {
            c == '\n'
        };
        if is_sep {
            parts.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    parts.push(current);
    let clean = |piece: &str| -> Option<String> {
        let piece = piece.trim();
        let piece = piece.strip_prefix("and ").unwrap_or(piece).trim();
        let piece = piece.trim_matches(|c| c == '\'' || c == '"');
        (!piece.is_empty()).then(|| piece.to_string())
    };
    let plain: Vec<String> = parts.iter().filter_map(|p| clean(p)).collect();
    let split_and: Vec<String> = parts
        .iter()
        .flat_map(|p| p.split(" and ").map(str::to_string).collect::<Vec<_>>())
        .filter_map(|p| clean(&p))
        .collect();
    if split_and == plain {
        vec![plain]
    } else {
        vec![plain, split_and]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abstentions_are_recognized_and_kept_apart_from_not_applicable() {
        assert!(is_abstention("Unanswerable."));
        assert!(is_abstention("The chart does not show data for 2020"));
        assert!(is_abstention("  cannot be determined from the chart"));
        assert!(is_abstention("I can’t answer that"));
        assert!(is_abstention("Answer: Not enough information"));
        assert!(!is_abstention("Not Applicable"));
        assert!(!is_abstention("N/A"));
        assert!(!is_abstention("unanswerableness"));
        assert!(!is_abstention("42"));
        assert_eq!(normalize_text_answer("N/A"), "not applicable");
    }

    #[test]
    fn choice_letters() {
        for form in [
            "a",
            "A",
            "(a)",
            "a)",
            "a.",
            "A. Paris",
            "(A) Paris",
            "a) x",
            "Option A",
            "a: x",
        ] {
            assert_eq!(choice_letter(form), Some('a'), "{form}");
        }
        assert_eq!(choice_letter("a Paris"), None);
        assert_eq!(choice_letter("ab"), None);
        assert_eq!(choice_letter("z"), None);
    }

    #[test]
    fn anls_threshold() {
        assert_eq!(anls("paris", "paris"), 1.0);
        assert!((anls("paris", "pariss") - 5.0 / 6.0).abs() < 1e-12);
        assert_eq!(anls("ab", "ac"), 0.0); // NL = 0.5 is not below the threshold
        assert_eq!(anls("", ""), 1.0);
    }

    #[test]
    fn list_splitting() {
        assert_eq!(split_list("a, b, and c"), vec!["a", "b", "c"]);
        assert_eq!(
            split_list_readings("a, b and c"),
            vec![vec!["a", "b and c"], vec!["a", "b", "c"]]
        );
        assert_eq!(
            split_list("Recreation and culture, Health"),
            vec!["Recreation and culture", "Health"]
        );
        assert_eq!(split_list("1,234, 5,678"), vec!["1,234", "5,678"]);
        assert_eq!(split_list("['x', 'y']"), vec!["x", "y"]);
        assert_eq!(split_list("[x; y]"), vec!["x", "y"]);
    }
}
