//! The generated question: everything of an `ir::Item` except its suite identity.

use serde::{Deserialize, Serialize};

use crate::ir::query::Query;
use crate::ir::{Answer, AnswerKind, QuestionType, Realization, Turn};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Question {
    pub query: Query,
    pub question_type: QuestionType,
    pub family: String,
    pub text: String,
    pub answer: Answer,
    pub answer_kind: AnswerKind,
    pub answerable: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<Turn>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paragraph: Option<String>,
    pub realization: Realization,
}
