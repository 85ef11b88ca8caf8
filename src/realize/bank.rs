//! Wordings loaded from `templates/questions/*.toml`, embedded in the binary.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

/// A template slot holding one wording or a list of alternatives.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Strs {
    One(String),
    Many(Vec<String>),
}

impl Strs {
    pub fn all(&self) -> Vec<&str> {
        match self {
            Strs::One(s) => vec![s.as_str()],
            Strs::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct Frames {
    pub wh: Vec<String>,
    pub yn: Vec<String>,
    pub round: Vec<String>,
    pub claim: Vec<String>,
    pub fact: Vec<String>,
    pub mcq: Vec<String>,
    pub options: String,
    pub hypo: Vec<String>,
    pub target_cell: Vec<String>,
    /// The changed cell when its series is named like an entity or a year
    /// ("the value for Egypt in 2009", not "Egypt for 2009").
    #[serde(default)]
    pub target_cell_awkward: Vec<String>,
    pub target_series: Vec<String>,
    /// A whole series changed when its name is an entity's or a year's
    /// ("every value for Prague", not "Prague for every year").
    #[serde(default)]
    pub target_series_awkward: Vec<String>,
    pub up: Vec<String>,
    pub down: Vec<String>,
    pub followup_category: Vec<String>,
    pub followup_series: Vec<String>,
    pub followup_its_value: Vec<String>,
    pub followup_difference: Vec<String>,
    /// "And the year after?" (years only; falls back to `followup_category`).
    #[serde(default)]
    pub followup_next: Vec<String>,
    #[serde(default)]
    pub followup_previous: Vec<String>,
    pub panel: Vec<String>,
    #[serde(default)]
    pub panel_grid: Vec<String>,
    /// "In panel {letter}, ": a lettered figure's panel named by its letter.
    #[serde(default)]
    pub panel_letter: Vec<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Typos {
    #[serde(default)]
    pub words: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Bank {
    #[serde(default)]
    pub question: BTreeMap<String, String>,
    /// Canonical questions for series named by a year, band, date or code,
    /// wrapped as a noun phrase ("the 2020 series"): the plain template uses
    /// the name as a modifier ("the highest {series}").
    #[serde(default)]
    pub question_awkward: BTreeMap<String, String>,
    /// Canonical questions whose measure is a plural ("What are the sales
    /// for …?").
    #[serde(default)]
    pub question_plural: BTreeMap<String, String>,
    /// Canonical questions whose measure counts things ("Which sector has
    /// the most job vacancies?").
    #[serde(default)]
    pub question_count: BTreeMap<String, String>,
    #[serde(default)]
    pub np: BTreeMap<String, Strs>,
    /// Canonical noun phrases for measures that count things, as above.
    #[serde(default)]
    pub np_count: BTreeMap<String, Strs>,
    /// Canonical noun phrases for wrapped awkward series names, as above.
    #[serde(default)]
    pub np_awkward: BTreeMap<String, Strs>,
    #[serde(default)]
    pub clause: BTreeMap<String, Strs>,
    /// A claim said as people say it ("Peru has the highest GDP") where
    /// "{np} is {answer}" reads like a form; `{answer}` is the claimed value.
    #[serde(default)]
    pub claim_sentence: BTreeMap<String, String>,
    /// The same for wrapped awkward series names.
    #[serde(default)]
    pub claim_sentence_awkward: BTreeMap<String, String>,
    /// The same for measures that count things.
    #[serde(default)]
    pub claim_sentence_count: BTreeMap<String, String>,
    #[serde(default)]
    pub clause_no: BTreeMap<String, Strs>,
    /// Clauses for wrapped awkward series names ("the share for Email is
    /// higher in Chad than in Peru").
    #[serde(default)]
    pub clause_awkward: BTreeMap<String, Strs>,
    #[serde(default)]
    pub clause_no_awkward: BTreeMap<String, Strs>,
    /// Clauses for measures that count things ("there are more job
    /// vacancies in Tobacco than in Fishery").
    #[serde(default)]
    pub clause_count: BTreeMap<String, Strs>,
    #[serde(default)]
    pub clause_no_count: BTreeMap<String, Strs>,
    pub frames: Option<Frames>,
    #[serde(default)]
    pub refs: BTreeMap<String, Strs>,
    /// The lexical realizer's synonyms: a phrase of the canonical templates
    /// and the words that may stand in its place.
    #[serde(default)]
    pub lexicon: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    pub prefaces: Vec<String>,
    #[serde(default)]
    pub asides: Vec<String>,
    #[serde(default)]
    pub max_typos: usize,
    #[serde(default)]
    pub lowercase_probability: f64,
    #[serde(default)]
    pub drop_question_mark_probability: f64,
    #[serde(default)]
    pub typos: Typos,
    /// Named lists of alternatives that templates pull in with `{@name}`;
    /// independent choices multiply instead of listing whole sentences.
    #[serde(default)]
    pub grammar: BTreeMap<String, Vec<String>>,
    /// Weights of the noisy realizer's typo kinds, by kind name.
    #[serde(default)]
    pub typo_kinds: BTreeMap<String, u32>,
    /// Keys near each key on a QWERTY keyboard, for slipped-finger typos.
    #[serde(default)]
    pub keyboard: BTreeMap<String, String>,
    /// Probability of each casing/punctuation habit of the noisy realizer.
    #[serde(default)]
    pub habits: BTreeMap<String, f64>,
}

/// The template files, by realizer name.
pub const FILES: &[(&str, &str)] = &[
    (
        "canonical",
        include_str!("../../templates/questions/canonical.toml"),
    ),
    (
        "lexical",
        include_str!("../../templates/questions/lexical.toml"),
    ),
    (
        "syntactic",
        include_str!("../../templates/questions/syntactic.toml"),
    ),
    (
        "register",
        include_str!("../../templates/questions/register.toml"),
    ),
    (
        "visual",
        include_str!("../../templates/questions/visual.toml"),
    ),
    (
        "distractor",
        include_str!("../../templates/questions/distractor.toml"),
    ),
    (
        "noisy",
        include_str!("../../templates/questions/noisy.toml"),
    ),
    // Shared grammar rules every paraphrase realizer may use; not a realizer.
    (
        "common",
        include_str!("../../templates/questions/common.toml"),
    ),
];

/// Wording for charts about one subject (money, weather, housing…): who
/// asks, why and in what situation. Picked by words of the chart's title,
/// series, axis and unit, so context reads as if the asker cared about the
/// subject; it never states anything about the data.
#[derive(Debug, Clone, Deserialize)]
pub struct Domain {
    pub name: String,
    /// Lower-case words that mark a chart as this domain's.
    pub words: Vec<String>,
    /// Rules used in place of the shared ones of the same name, some of the time.
    pub grammar: BTreeMap<String, Vec<String>>,
}

#[derive(Debug, Deserialize)]
struct DomainFile {
    domain: Vec<Domain>,
}

pub const DOMAINS_FILE: &str = include_str!("../../templates/questions/domains.toml");

/// Every domain, in file order (earlier wins a tie).
pub fn domains() -> &'static [Domain] {
    static DOMAINS: OnceLock<Vec<Domain>> = OnceLock::new();
    DOMAINS.get_or_init(|| {
        toml::from_str::<DomainFile>(DOMAINS_FILE)
            .unwrap_or_else(|e| panic!("templates/questions/domains.toml does not parse: {e}"))
            .domain
    })
}

/// The domain whose marker words occur most often among the words of
/// `text` (the chart's titles, names and units); None when none occurs.
pub fn domain_for(text: &str) -> Option<&'static Domain> {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let mut best: Option<(&'static Domain, usize)> = None;
    for d in domains() {
        let hits = words
            .iter()
            .filter(|w| d.words.iter().any(|m| m == *w))
            .count();
        if hits > 0 && best.is_none_or(|(_, b)| hits > b) {
            best = Some((d, hits));
        }
    }
    best.map(|(d, _)| d)
}

/// Every bank, parsed once. The files ship with the binary and are checked by
/// tests, so a parse failure is a build defect, reported with the file name.
pub fn banks() -> &'static BTreeMap<&'static str, Bank> {
    static BANKS: OnceLock<BTreeMap<&'static str, Bank>> = OnceLock::new();
    BANKS.get_or_init(|| {
        FILES
            .iter()
            .map(|(name, text)| {
                let bank: Bank = toml::from_str(text).unwrap_or_else(|e| {
                    panic!("templates/questions/{name}.toml does not parse: {e}")
                });
                (*name, bank)
            })
            .collect()
    })
}

pub fn bank(name: &str) -> &'static Bank {
    &banks()[name]
}

/// The alternatives of grammar rule `name`, from the first of `from` (bank
/// names) that has it, else from the shared `common` bank.
pub fn rule(from: &[&str], name: &str) -> Option<&'static [String]> {
    from.iter()
        .copied()
        .chain(["common"])
        .filter_map(|b| banks().get(b))
        .find_map(|b| b.grammar.get(name))
        .map(Vec::as_slice)
}

#[cfg(test)]
mod domain_tests {
    use super::{banks, domain_for, domains};

    fn domain_of(text: &str) -> Option<&'static str> {
        domain_for(text).map(|d| d.name.as_str())
    }

    #[test]
    fn charts_are_assigned_the_subject_their_words_name() {
        for (text, want) in [
            (
                "Average monthly rent for a one-bedroom flat, 2023 City Average rent",
                Some("housing"),
            ),
            (
                "Electricity generated from solar power Year Solar generation TWh",
                Some("energy"),
            ),
            (
                "Income and life expectancy Country Life expectancy",
                Some("health"),
            ),
            (
                "Annual rainfall, 2021 City Annual rainfall mm",
                Some("weather"),
            ),
            (
                "Paying subscribers Month Subscribers million",
                Some("digital"),
            ),
            (
                "Deals closed per sales representative Sales representative Deals closed",
                Some("labour"),
            ),
            ("Widgets by colour Colour Count", None),
        ] {
            assert_eq!(domain_of(text), want, "{text}");
        }
    }

    #[test]
    fn domain_wording_only_sets_the_scene() {
        assert!(!domains().is_empty());
        for d in domains() {
            assert!(!d.words.is_empty(), "{}: no marker words", d.name);
            for w in &d.words {
                assert_eq!(
                    w,
                    &w.to_lowercase(),
                    "{}: marker {w} must be lower-case",
                    d.name
                );
            }
            for (rule, items) in &d.grammar {
                // It stands in for a shared rule, so every template that uses
                // the rule reads the same with either wording.
                let shared = banks().values().any(|b| b.grammar.contains_key(rule));
                assert!(shared, "{}: rule {rule} has no shared counterpart", d.name);
                assert!(
                    items.len() >= 5,
                    "{}: rule {rule} has too few alternatives",
                    d.name
                );
                for t in items {
                    // Slots could name entities or numbers; digits could read as data.
                    assert!(!t.contains('{'), "{}: {rule} uses a slot: {t:?}", d.name);
                    assert!(
                        !t.chars().any(|c| c.is_ascii_digit()),
                        "{}: {rule} has a digit: {t:?}",
                        d.name
                    );
                }
            }
        }
    }

    #[test]
    fn a_chart_with_a_subject_takes_only_its_own_roles() {
        let housing = domains().iter().find(|d| d.name == "housing").unwrap();
        let own = &housing.grammar["role"];
        let source = super::super::grammar::Source {
            banks: &["register"],
            avoid: &[],
            domain: Some(housing),
            mute: &[],
        };
        for seed in 0..200 {
            let mut rng = crate::seed::rng(seed, &["domain-mix"]);
            let mut picks = Vec::new();
            let text =
                super::super::grammar::expand("{@role}", &source, &mut rng, &mut picks).unwrap();
            assert!(picks[0].starts_with("housing."), "{picks:?}");
            assert!(own.contains(&text), "{text}");
        }
    }
}
