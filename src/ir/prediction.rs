//! Prediction: one model answer for one item, as written to `predictions.jsonl`.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prediction {
    pub id: String,
    /// The model's raw text (empty on error).
    pub raw: String,
    /// The answer extracted from `raw`.
    pub answer: String,
    pub latency_ms: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// Set when the call failed; such a prediction is an error, not a wrong answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default)]
    pub attempts: u32,
    #[serde(default)]
    pub cached: bool,
    /// Hash of the item as it was when answered (`Item::content_hash`): a
    /// suite generated again under the same ids does not reuse answers to
    /// questions that have changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_hash: Option<String>,
}

impl Prediction {
    pub fn is_error(&self) -> bool {
        self.error.is_some()
    }
}
