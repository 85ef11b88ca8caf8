//! Query: the question IR, a small semantic language over a table and its scene.
//! Realizers turn a Query into text; the executor evaluates it. Stages other
//! than the question stage treat a Query as opaque data.
//!
//! Arguments are always stored by name (series and category labels as printed);
//! visual references ("the orange line", "the third bar from the left") are a
//! matter of wording, resolved through the Scene by the visual realizer, so the
//! answer never depends on how an argument is referred to.

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

/// One cell of a panel's table: a series at a category.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellRef {
    pub series: String,
    pub category: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Axis {
    X,
    Y,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AggregateOp {
    Sum,
    Mean,
    Median,
}

/// A hypothetical edit of a panel's table: scale one cell (or a whole series
/// when `category` is None) by `1 + percent / 100`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Change {
    pub panel: PanelIndex,
    pub series: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// Signed percentage, e.g. 20 for "rose by 20%", -10 for "fell by 10%".
    pub percent: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Query {
    // ---- data families (answered from the panel's table) ----
    ValueAt {
        panel: PanelIndex,
        series: String,
        category: String,
    },
    /// Category with the highest value of `series`; over every drawn series when None.
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
    MaxValue {
        panel: PanelIndex,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        series: Option<String>,
    },
    MinValue {
        panel: PanelIndex,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        series: Option<String>,
    },
    /// `a - b`.
    Difference {
        panel: PanelIndex,
        a: CellRef,
        b: CellRef,
    },
    /// `a / b`.
    Ratio {
        panel: PanelIndex,
        a: CellRef,
        b: CellRef,
        decimals: u8,
    },
    /// `(to - from) / from * 100`.
    PercentChange {
        panel: PanelIndex,
        series: String,
        from: String,
        to: String,
        decimals: u8,
    },
    /// Sum, mean or median of `series` over `categories` (every category when empty).
    Aggregate {
        panel: PanelIndex,
        agg: AggregateOp,
        series: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        categories: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        decimals: Option<u8>,
    },
    /// Number of categories whose value is strictly above (or below) `threshold`.
    CountThreshold {
        panel: PanelIndex,
        series: String,
        threshold: f64,
        above: bool,
    },
    /// Is `a` greater than `b`?
    Compare {
        panel: PanelIndex,
        a: CellRef,
        b: CellRef,
    },
    /// 1-based rank of `category` within `series`, highest first.
    Rank {
        panel: PanelIndex,
        series: String,
        category: String,
    },
    Trend {
        panel: PanelIndex,
        series: String,
    },
    /// The category ending the largest step-to-step increase (or decrease).
    LargestChange {
        panel: PanelIndex,
        series: String,
        increase: bool,
    },
    /// The category where `a` and `b` differ the most (absolute difference).
    MaxGap {
        panel: PanelIndex,
        a: String,
        b: String,
    },
    /// The category whose value changes the most from series `from` to
    /// series `to` (a slope chart's left and right columns): the largest
    /// rise, or with `rise` false the largest fall.
    SlopeChange {
        panel: PanelIndex,
        from: String,
        to: String,
        rise: bool,
    },
    /// Do the lines of `a` and `b` cross?
    Crosses {
        panel: PanelIndex,
        a: String,
        b: String,
    },
    /// Percentage of `category` in the total of `series`.
    Share {
        panel: PanelIndex,
        series: String,
        category: String,
        decimals: u8,
    },
    /// Combined percentage of `categories` in the total of `series`.
    ShareSum {
        panel: PanelIndex,
        series: String,
        categories: Vec<String>,
        decimals: u8,
    },
    /// Two-step: highest minus lowest value of `series`.
    Spread {
        panel: PanelIndex,
        series: String,
    },
    /// Two-step: mean of the `k` highest values of `series`.
    TopMean {
        panel: PanelIndex,
        series: String,
        k: usize,
        decimals: u8,
    },

    // ---- paragraph families (answered from the accompanying text) ----
    /// A value stated only in the paragraph, for a category the chart does not show.
    ParagraphValue {
        panel: PanelIndex,
        series: String,
        category: String,
    },
    /// Paragraph value of `paragraph_category` minus the chart's value at `category`.
    ParagraphDifference {
        panel: PanelIndex,
        series: String,
        paragraph_category: String,
        category: String,
    },

    // ---- descriptive families (answered from the scene) ----
    /// Descriptive: the chart title.
    Title {
        panel: PanelIndex,
    },
    AxisLabel {
        panel: PanelIndex,
        axis: Axis,
    },
    /// Leftmost (`last = false`) / rightmost labeled x tick, or lowest / highest y tick.
    EdgeTick {
        panel: PanelIndex,
        axis: Axis,
        last: bool,
    },
    /// Constant difference between consecutive numeric tick labels.
    TickStep {
        panel: PanelIndex,
        axis: Axis,
    },
    LineCount {
        panel: PanelIndex,
    },
    LinesIntersect {
        panel: PanelIndex,
    },
    LegendCount {
        panel: PanelIndex,
    },
    LegendLabels {
        panel: PanelIndex,
    },
    /// General trend of the (single) series left to right, as drawn.
    GeneralTrend {
        panel: PanelIndex,
    },
    /// Labeled ticks on all axes of the panel.
    TickCount {
        panel: PanelIndex,
    },
    /// Which value axis (left or right) a dual-axis chart reads a series on.
    SeriesAxis {
        panel: PanelIndex,
        series: String,
    },
    /// The lowest (or highest) printed tick of a heatmap's colour bar:
    /// the ends of its range, as CharXiv asks of continuous legends.
    ColorbarTick {
        panel: PanelIndex,
        last: bool,
    },
    /// Subplot layout "n by m".
    SubplotLayout,
    SubplotCount,
    /// How many lettered panels a figure has ("How many panels does the
    /// figure have?"), counted by the letters printed.
    PanelCount,
    /// The printed letter ("(b)") of the figure panel whose series reaches
    /// the highest (`max`) or lowest value of all panels.
    PanelExtreme {
        max: bool,
    },
    /// The value printed on a dashboard's KPI tile with this caption.
    KpiValue {
        label: String,
    },
    /// Where the data come from: answerable only when the source is printed.
    Source {
        panel: PanelIndex,
    },
    /// The line printed under a panel's title.
    Subtitle {
        panel: PanelIndex,
    },
    /// What the note printed under the chart says.
    Note {
        panel: PanelIndex,
    },
    /// The value the dashed reference line marks, as its label prints it.
    ReferenceValue {
        panel: PanelIndex,
    },
    /// How many of `series`' values lie above the reference line.
    CountAboveReference {
        panel: PanelIndex,
        series: String,
    },
    /// The category drawn in the accent colour while the others are muted.
    Highlighted {
        panel: PanelIndex,
    },
    /// The first and last index labels of the shaded band.
    ShadedPeriod {
        panel: PanelIndex,
    },
    /// The category of the mark the callout's arrow points at.
    CalloutTarget {
        panel: PanelIndex,
    },
    /// Interquartile range (Q3 − Q1) of one group of a box or violin
    /// plot, as its box (or quartile bar) draws it.
    Iqr {
        panel: PanelIndex,
        group: String,
    },
    /// How many points a box plot draws beyond one group's whiskers
    /// (Tukey outliers).
    OutlierCount {
        panel: PanelIndex,
        group: String,
    },
    /// Observations of a histogram in whole bins from edge `from` to edge
    /// `to` (both as the axis prints them).
    BinRangeCount {
        panel: PanelIndex,
        from: String,
        to: String,
    },
    /// Do the error bars of groups `a` and `b` overlap?
    IntervalsOverlap {
        panel: PanelIndex,
        a: String,
        b: String,
    },
    /// A question brought from another benchmark with its human-written
    /// wording and gold (`import-benchmark`): there is nothing to execute,
    /// so the gold is the benchmark's and no stage may reword it.
    Imported {
        benchmark: String,
    },

    // ---- question-type wrappers ----
    /// Options in letter order; the answer is the letter of the option equal to `base`'s answer.
    MultipleChoice {
        base: Box<Query>,
        options: Vec<String>,
    },
    /// A claim that `base`'s answer is `claim`; answered True/False.
    FactCheck {
        base: Box<Query>,
        claim: String,
    },
    /// `base` evaluated on the table after `change`.
    Hypothetical {
        base: Box<Query>,
        change: Change,
    },
    /// Turns of a conversation; the last one is asked, earlier ones are history.
    Conversation {
        turns: Vec<Query>,
    },
}

impl Query {
    /// Every string field of the query at any depth, with its field name:
    /// the names it asks about (series, categories, claims, options) and its
    /// operation tags (`op`, `agg`, …).
    pub fn string_fields(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut stack = vec![(
            String::new(),
            serde_json::to_value(self).unwrap_or_default(),
        )];
        while let Some((key, value)) = stack.pop() {
            match value {
                serde_json::Value::String(s) => out.push((key, s)),
                serde_json::Value::Array(a) => {
                    stack.extend(a.into_iter().map(|v| (key.clone(), v)))
                }
                serde_json::Value::Object(o) => stack.extend(o),
                _ => {}
            }
        }
        out
    }

    /// The innermost data or descriptive query (unwrapping question-type wrappers;
    /// for conversations, the last turn).
    pub fn base(&self) -> &Query {
        match self {
            Query::MultipleChoice { base, .. }
            | Query::FactCheck { base, .. }
            | Query::Hypothetical { base, .. } => base.base(),
            Query::Conversation { turns } => match turns.last() {
                Some(last) => last.base(),
                None => self,
            },
            other => other,
        }
    }

    /// The fact asked, apart from the form it is asked in: the query inside
    /// a multiple-choice frame, a claim to judge or a conversation's last
    /// turn. Unlike [`Query::base`] it keeps a what-if, which asks another
    /// fact than its base.
    pub fn asked(&self) -> &Query {
        match self {
            Query::MultipleChoice { base, .. } | Query::FactCheck { base, .. } => base.asked(),
            Query::Conversation { turns } => match turns.last() {
                Some(last) => last.asked(),
                None => self,
            },
            other => other,
        }
    }

    /// Panel the query is about (0 for figure-level queries).
    pub fn panel(&self) -> PanelIndex {
        match self.base() {
            Query::ValueAt { panel, .. }
            | Query::Argmax { panel, .. }
            | Query::Argmin { panel, .. }
            | Query::MaxValue { panel, .. }
            | Query::MinValue { panel, .. }
            | Query::Difference { panel, .. }
            | Query::Ratio { panel, .. }
            | Query::PercentChange { panel, .. }
            | Query::Aggregate { panel, .. }
            | Query::CountThreshold { panel, .. }
            | Query::Compare { panel, .. }
            | Query::Rank { panel, .. }
            | Query::Trend { panel, .. }
            | Query::LargestChange { panel, .. }
            | Query::MaxGap { panel, .. }
            | Query::SlopeChange { panel, .. }
            | Query::Crosses { panel, .. }
            | Query::Share { panel, .. }
            | Query::ShareSum { panel, .. }
            | Query::Spread { panel, .. }
            | Query::TopMean { panel, .. }
            | Query::ParagraphValue { panel, .. }
            | Query::ParagraphDifference { panel, .. }
            | Query::Title { panel }
            | Query::AxisLabel { panel, .. }
            | Query::EdgeTick { panel, .. }
            | Query::TickStep { panel, .. }
            | Query::LineCount { panel }
            | Query::LinesIntersect { panel }
            | Query::LegendCount { panel }
            | Query::LegendLabels { panel }
            | Query::GeneralTrend { panel }
            | Query::TickCount { panel }
            | Query::SeriesAxis { panel, .. }
            | Query::Source { panel }
            | Query::Subtitle { panel }
            | Query::Note { panel }
            | Query::ReferenceValue { panel }
            | Query::CountAboveReference { panel, .. }
            | Query::Highlighted { panel }
            | Query::ShadedPeriod { panel }
            | Query::CalloutTarget { panel }
            | Query::Iqr { panel, .. }
            | Query::OutlierCount { panel, .. }
            | Query::BinRangeCount { panel, .. }
            | Query::IntervalsOverlap { panel, .. } => *panel,
            _ => 0,
        }
    }
}
