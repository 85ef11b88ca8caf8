//! Which benchmark questions survive re-drawing their chart. A question that
//! names a colour, a position or a piece of chart furniture ("the red bar",
//! "the leftmost column", "according to the legend") is about one picture,
//! and one that cites text the table does not hold (a title, a year, a
//! name) cannot be answered from a chart drawn from the table: both stay in
//! the original set and are left out of the re-drawn sets, counted.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

/// Why a question is left out of the re-drawn sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exclusion {
    /// The words that refer to the picture rather than the data.
    VisualReference(String),
    /// The question's words that the chart's text does not hold.
    TextAbsent(String),
}

impl Exclusion {
    pub fn reason(&self) -> &'static str {
        match self {
            Exclusion::VisualReference(_) => "visual_reference",
            Exclusion::TextAbsent(_) => "text_absent",
        }
    }

    pub fn detail(&self) -> &str {
        match self {
            Exclusion::VisualReference(s) | Exclusion::TextAbsent(s) => s,
        }
    }
}

static COLOUR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(red|orange|yellow|green|blue|purple|violet|pink|brown|black|white|gr[ae]y|navy|teal|maroon|cyan|magenta|turquoise|beige|olive|golden|silver|lavender|colou?r(?:s|ed)?)\b",
    )
    .expect("colour regex")
});

static POSITION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)
        \b(?:leftmost|rightmost|topmost|bottommost|uppermost|lowermost)\b
        | \b(?:from|on|at|to|in)\ the\ (?:far\ )?(?:left|right|top|bottom)\b
        | \b(?:first|second|third|fourth|fifth|sixth|last|top|bottom|middle|upper|lower|left|right)
          \s+(?:bars?|lines?|columns?|slices?|segments?|sections?|dots?|points?|rows?|half|side|portion)\b",
    )
    .expect("position regex")
});

/// Furniture a re-drawn chart may lay out differently or not print.
static FURNITURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(legend|title|subtitle|caption|dotted|dashed|shaded|highlighted|x-axis|y-axis|axis|axes|gridlines?)\b",
    )
    .expect("furniture regex")
});

static WORD: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[\p{L}\p{N}]+").expect("word regex"));

/// Lower-cased words of a text.
fn words(text: &str) -> HashSet<String> {
    WORD.find_iter(text)
        .map(|m| m.as_str().to_lowercase())
        .collect()
}

/// Why `question` cannot be asked on a chart re-drawn from a table whose
/// printed text (labels, names, numbers, title) is `chart_text`; None when
/// it can.
pub fn screen(question: &str, chart_text: &str) -> Option<Exclusion> {
    let known = words(chart_text);
    // A colour word the table itself holds ("Black adults", "Orange") is a
    // name, not a reference to a colour.
    let visual: Vec<String> = COLOUR
        .find_iter(question)
        .map(|m| m.as_str().to_string())
        .filter(|w| !known.contains(&w.to_lowercase()))
        .chain(POSITION.find_iter(question).map(|m| m.as_str().to_string()))
        .chain(
            FURNITURE
                .find_iter(question)
                .map(|m| m.as_str().to_string())
                .filter(|w| !known.contains(&w.to_lowercase())),
        )
        .collect();
    if !visual.is_empty() {
        return Some(Exclusion::VisualReference(visual.join(", ")));
    }
    let absent: Vec<&str> = cited_words(question)
        .into_iter()
        .filter(|w| !known.contains(&w.to_lowercase()))
        .collect();
    (!absent.is_empty()).then(|| Exclusion::TextAbsent(absent.join(", ")))
}

/// Words a question cites from its chart: capitalized words not opening a
/// sentence (names) and four-digit years.
pub fn cited_words(question: &str) -> Vec<&str> {
    static YEAR: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^(1[89]|20)\d\d$").expect("year regex"));
    let mut out = Vec::new();
    let mut sentence_start = true;
    for raw in question.split_whitespace() {
        let word = raw.trim_matches(|c: char| !c.is_alphanumeric());
        let word = word
            .strip_suffix("'s")
            .or_else(|| word.strip_suffix("’s"))
            .unwrap_or(word);
        let opens = sentence_start;
        sentence_start = raw.ends_with(['.', '?', '!', ':']);
        if word.is_empty() {
            continue;
        }
        if YEAR.is_match(word) {
            out.push(word);
            continue;
        }
        let capitalized = word.chars().next().is_some_and(char::is_uppercase);
        if capitalized && !opens && word != "I" && word.chars().all(char::is_alphabetic) {
            out.push(word);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "Country,Share of adults\nUnited States,45\nBlack adults,30\nChina,2019";

    #[test]
    fn colours_positions_and_furniture_are_visual_references() {
        for q in [
            "What is the value of the red bar?",
            "What's the value of the leftmost bar?",
            "What is the second bar from the top?",
            "What is the value of the top bar?",
            "Which colour has the largest share?",
            "What does the legend say about China?",
            "What is the value in the first column?",
        ] {
            let e = screen(q, TEXT).unwrap_or_else(|| panic!("{q}"));
            assert_eq!(e.reason(), "visual_reference", "{q}: {e:?}");
        }
    }

    #[test]
    fn names_the_table_holds_are_not_references() {
        for q in [
            "What is the share of Black adults?",
            "What is the share of United States?",
            "Which country has the highest share?",
            "What is the difference between China and United States?",
            "is the value of China greater than 40?",
        ] {
            assert_eq!(screen(q, TEXT), None, "{q}");
        }
    }

    #[test]
    fn names_and_years_the_table_lacks_are_absent_text() {
        let e = screen("What was the share in Germany?", TEXT).unwrap();
        assert_eq!(e, Exclusion::TextAbsent("Germany".into()));
        let e = screen("What was the share in 2007?", TEXT).unwrap();
        assert_eq!(e.reason(), "text_absent");
        // A year the table holds is fine; so is an opening capital.
        assert_eq!(screen("Which value is in 2019?", TEXT), None);
        assert_eq!(screen("How many countries are shown?", TEXT), None);
    }
}
