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
    pub target_series: Vec<String>,
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
    #[serde(default)]
    pub np: BTreeMap<String, Strs>,
    /// Search-query fragments per family ("North 2020 value").
    #[serde(default)]
    pub terse: BTreeMap<String, Strs>,
    #[serde(default)]
    pub clause: BTreeMap<String, Strs>,
    #[serde(default)]
    pub clause_no: BTreeMap<String, Strs>,
    pub frames: Option<Frames>,
    #[serde(default)]
    pub refs: BTreeMap<String, Strs>,
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
/// names) that has it, else from `lexical` (whose noun phrases every
/// paraphrase borrows), else from the shared `common` bank.
pub fn rule(from: &[&str], name: &str) -> Option<&'static [String]> {
    from.iter()
        .copied()
        .chain(["lexical", "common"])
        .filter_map(|b| banks().get(b))
        .find_map(|b| b.grammar.get(name))
        .map(Vec::as_slice)
}
