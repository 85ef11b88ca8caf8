//! Query: the question IR, a small semantic language over a table and its scene.
//! Realizers turn a Query into text; the executor evaluates it. Stages other
//! than the question stage treat a Query as opaque data.

use serde::{Deserialize, Serialize};

/// Which panel of a multi-panel figure a query is about (index in
/// `ChartSpec::panels()` order). Single charts use panel 0.
pub type PanelIndex = usize;

/// How a query names its target; the answer never depends on this, only the
/// wording does (visual references are resolved through the Scene).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Reference {
    Name {
        name: String,
    },
    Color {
        color: String,
    },
    /// 0-based position in reading order ("the third bar from the left").
    Position {
        position: usize,
        from_end: bool,
    },
    /// "the tallest bar" / "the largest slice".
    Extreme {
        largest: bool,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Query {
    ValueAt {
        panel: PanelIndex,
        series: String,
        category: String,
    },
    Argmax {
        panel: PanelIndex,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        series: Option<String>,
    },
    Argmin {
        panel: PanelIndex,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        series: Option<String>,
    },
    /// Descriptive: the chart title.
    Title { panel: PanelIndex },
}
