//! Item: one question on one chart image.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::answer::{Answer, AnswerKind};
use super::query::Query;
use super::spec::ChartKind;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetName {
    Original,
    /// An imported benchmark's question on the same table re-drawn in the
    /// plain original theme: what re-drawing alone does, apart from any
    /// declared change (`import-benchmark`).
    Control,
    ModifiedChart,
    ModifiedQuestion,
    ModifiedBoth,
    /// The same question family asked on another table's chart: a different
    /// fact, so not a pair of the robustness gap; reported on its own.
    Shifted,
}

impl SetName {
    pub const ALL: [SetName; 6] = [
        SetName::Original,
        SetName::Control,
        SetName::ModifiedChart,
        SetName::ModifiedQuestion,
        SetName::ModifiedBoth,
        SetName::Shifted,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            SetName::Original => "original",
            SetName::Control => "control",
            SetName::ModifiedChart => "modified_chart",
            SetName::ModifiedQuestion => "modified_question",
            SetName::ModifiedBoth => "modified_both",
            SetName::Shifted => "shifted",
        }
    }

    pub fn from_name(name: &str) -> Option<SetName> {
        SetName::ALL.into_iter().find(|s| s.name() == name.trim())
    }
}

/// Question types as in ChartQA Pro, plus CharXiv-style descriptive questions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuestionType {
    Factoid,
    MultipleChoice,
    FactCheck,
    Hypothetical,
    Conversational,
    Descriptive,
}

impl QuestionType {
    pub const ALL: [QuestionType; 6] = [
        QuestionType::Factoid,
        QuestionType::MultipleChoice,
        QuestionType::FactCheck,
        QuestionType::Hypothetical,
        QuestionType::Conversational,
        QuestionType::Descriptive,
    ];

    pub fn name(self) -> &'static str {
        match self {
            QuestionType::Factoid => "factoid",
            QuestionType::MultipleChoice => "multiple_choice",
            QuestionType::FactCheck => "fact_check",
            QuestionType::Hypothetical => "hypothetical",
            QuestionType::Conversational => "conversational",
            QuestionType::Descriptive => "descriptive",
        }
    }

    pub fn from_name(name: &str) -> Option<QuestionType> {
        let n = name.trim().to_ascii_lowercase().replace([' ', '-'], "_");
        QuestionType::ALL.into_iter().find(|t| t.name() == n)
    }
}

/// Which realizer produced the wording, from which template, with which transforms.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Realization {
    pub realizer: String,
    pub template_id: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transforms: Vec<String>,
}

/// One earlier turn of a conversational item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub question: String,
    pub answer: String,
}

/// What a change does to the task, measured on the charts: a stress change
/// keeps the fact and makes it no easier to read; an easing change prints
/// values the original made the reader estimate (or reads them more
/// precisely); a format change asks the same fact in another answer form
/// (free form ↔ choices, a claim to judge, a conversation turn),
/// whose chance floor differs, so it is reported apart from the wording
/// gap; a shift asks for another fact (another table's, or one the changed
/// chart or question no longer holds).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    #[default]
    Stress,
    Easing,
    Format,
    Shifted,
}

impl Change {
    pub const ALL: [Change; 4] = [
        Change::Stress,
        Change::Easing,
        Change::Format,
        Change::Shifted,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Change::Stress => "stress",
            Change::Easing => "easing",
            Change::Format => "format",
            Change::Shifted => "shifted",
        }
    }
}

/// A perturbation applied to make a modified item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Perturbation {
    pub axis: String,
    pub name: String,
    /// 1 (mild) ..= 5 (strong).
    pub severity: u8,
    #[serde(default)]
    pub change: Change,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, serde_json::Value>,
}

impl Perturbation {
    /// A record with only a ladder level among its parameters (for tests of
    /// code that reads suites).
    #[cfg(test)]
    pub(crate) fn at_level(
        (axis, name, severity, change, level): &(&str, &str, u8, Change, Option<u64>),
    ) -> Perturbation {
        Perturbation {
            axis: axis.to_string(),
            name: name.to_string(),
            severity: *severity,
            change: *change,
            params: level
                .map(|l| [("level".to_string(), serde_json::json!(l))].into())
                .unwrap_or_default(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    pub id: String,
    pub set: SetName,
    /// Id of the original item this one modifies (None for originals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    pub chart_id: String,
    /// Image path relative to the suite folder.
    pub image: String,
    pub table_id: String,
    pub chart_kind: ChartKind,
    pub question: String,
    pub question_type: QuestionType,
    /// Query family (e.g. `value_at`, `argmax`, `title`).
    pub family: String,
    pub query: Query,
    pub answer: Answer,
    /// `answer.to_text()`, stored for readers that do not parse `answer`.
    pub answer_text: String,
    pub answer_kind: AnswerKind,
    pub answerable: bool,
    /// Multiple-choice options in letter order (a..d).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<String>,
    /// Earlier turns of a conversational item.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<Turn>,
    /// Accompanying paragraph shown with the chart, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paragraph: Option<String>,
    pub realization: Realization,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub perturbations: Vec<Perturbation>,
    /// Visual distance of this item's image from its original's
    /// (`visual::distance`, 1 − MSSIM); absent when the image is the original's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visual_distance: Option<f64>,
    /// How the asked reading changed from the original item's, as the
    /// reader sees both images (`reader::precision`): the mean width of the
    /// intervals the reader estimates the asked marks within, here over
    /// there, a printed value counting 0 (above 1: read less precisely;
    /// below: more; 0: every value newly printed; 10: printed values now
    /// estimated). 1 when no mark is read (text questions); absent on
    /// originals and imported questions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading_change: Option<f64>,
}

impl Item {
    /// The item's change class: shifted if any perturbation asks about other
    /// data, else format if one changes the answer form, else easing if any
    /// eases the reading, else stress.
    pub fn change(&self) -> Change {
        self.perturbations
            .iter()
            .map(|p| p.change)
            .max()
            .unwrap_or_default()
    }

    /// blake3 (16 hex digits) of the item's canonical JSON: everything a
    /// model sees and the gold answer.
    pub fn content_hash(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_default();
        blake3::hash(json.as_bytes()).to_hex()[..16].to_string()
    }
}
