//! Query executor over tables and scenes.
//!
//! Data families are answered from the panel's table (and checked against the
//! marks the renderer drew); descriptive families only from the Scene. The
//! executor refuses anything whose answer could be disputed (ties, ambiguous
//! trends, crossings at a tick, missing cells, values that round ambiguously),
//! so no question with a disputable answer is ever emitted.

pub mod annotation;
mod data;
mod descriptive;
pub mod dist;
pub mod figure;
pub mod paragraph;
pub mod reference;
mod slope;
pub mod testing;
pub mod trend;
pub mod wrappers;

use crate::ir::query::{Axis, Query};
use crate::ir::{Answer, AnswerKind, ChartSpec, PanelScene, Scene};

pub use data::{PanelData, SeriesData, display_number, parse_number};
pub use trend::{TrendShape, classify_trend};

/// Smallest relative gap between two values the executor treats as visibly
/// different (ties, comparisons, crossings): 1% of the larger magnitude.
pub const MIN_REL_GAP: f64 = 0.01;
/// A false claim is at least this far (relative) from the true value, well
/// beyond the 5% tolerance of relaxed accuracy.
pub const FALSE_CLAIM_REL_GAP: f64 = 0.10;

/// Why a query cannot be answered exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefusalKind {
    /// Two candidates (nearly) share the extreme value.
    Tie,
    /// The shape of a series is between two trend labels.
    AmbiguousTrend,
    /// Two lines meet (nearly) exactly at a tick.
    CrossingAtTick,
    /// A cell the query needs is missing.
    MissingCell,
    /// The answer lies (nearly) on a rounding boundary.
    AmbiguousRounding,
    /// Two compared values are too close to tell apart on the chart.
    TooClose,
    /// The table and what was drawn disagree, or a needed mark was not drawn.
    NotDrawn,
    /// The query does not fit this chart (no such panel, wrong chart kind, bad arguments).
    Unsupported,
}

/// A query the executor will not answer, with the reason.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{kind:?}: {detail}")]
pub struct Refusal {
    pub kind: RefusalKind,
    pub detail: String,
}

impl Refusal {
    pub fn new(kind: RefusalKind, detail: impl Into<String>) -> Refusal {
        Refusal {
            kind,
            detail: detail.into(),
        }
    }
}

/// Everything a query about one panel may look at.
pub(crate) struct Ctx<'a> {
    pub scene: &'a PanelScene,
    pub data: PanelData,
    /// False for hypothetical tables, whose values no longer match the marks.
    pub check_marks: bool,
}

pub(crate) fn panel_ctx<'a>(
    panel: usize,
    spec: &'a ChartSpec,
    scene: &'a Scene,
) -> Result<Ctx<'a>, Refusal> {
    let panels = spec.panels();
    let pspec = panels
        .get(panel)
        .copied()
        .ok_or_else(|| Refusal::new(RefusalKind::Unsupported, format!("no panel {panel}")))?;
    let pscene = scene
        .panels
        .iter()
        .find(|p| p.index == panel)
        .ok_or_else(|| {
            Refusal::new(
                RefusalKind::NotDrawn,
                format!("panel {panel} is not in the scene"),
            )
        })?;
    Ok(Ctx {
        scene: pscene,
        data: PanelData::from_panel(pspec),
        check_marks: true,
    })
}

/// Evaluates a query on a chart: data families on the panel's table,
/// descriptive families on the scene.
pub fn execute(query: &Query, spec: &ChartSpec, scene: &Scene) -> Result<Answer, Refusal> {
    match query {
        Query::MultipleChoice { .. }
        | Query::FactCheck { .. }
        | Query::Hypothetical { .. }
        | Query::Conversation { .. } => wrappers::execute_wrapper(query, spec, scene),
        Query::SubplotLayout | Query::SubplotCount | Query::KpiValue { .. } => {
            descriptive::figure(query, scene)
        }
        Query::PanelCount | Query::PanelExtreme { .. } => figure::execute(query, spec, scene),
        Query::Imported { benchmark } => Err(Refusal::new(
            RefusalKind::Unsupported,
            format!(
                "a question imported from {benchmark} has no query to execute; its gold is the benchmark's"
            ),
        )),
        Query::ParagraphValue { .. } | Query::ParagraphDifference { .. } => {
            let ctx = panel_ctx(query.panel(), spec, scene)?;
            paragraph::execute(query, &ctx, spec)
        }
        q if dist::is_dist(q) => dist::execute(q, spec, scene),
        q if annotation::is_annotation(q) => {
            let ctx = panel_ctx(q.panel(), spec, scene)?;
            annotation::execute(q, &ctx)
        }
        q if is_descriptive(q) => {
            let ctx = panel_ctx(q.panel(), spec, scene)?;
            descriptive::execute(q, &ctx, scene)
        }
        q => {
            let ctx = panel_ctx(q.panel(), spec, scene)?;
            data::execute(q, &ctx)
        }
    }
}

/// Executes a data query on an already-built (possibly modified) context.
pub(crate) fn execute_data(query: &Query, ctx: &Ctx) -> Result<Answer, Refusal> {
    data::execute(query, ctx)
}

/// Whether the (base) query is answered from the scene.
pub fn is_descriptive(query: &Query) -> bool {
    matches!(
        query.base(),
        Query::Title { .. }
            | Query::AxisLabel { .. }
            | Query::EdgeTick { .. }
            | Query::TickStep { .. }
            | Query::LineCount { .. }
            | Query::LinesIntersect { .. }
            | Query::LegendCount { .. }
            | Query::LegendLabels { .. }
            | Query::GeneralTrend { .. }
            | Query::TickCount { .. }
            | Query::ColorbarTick { .. }
            | Query::SeriesAxis { .. }
            | Query::SubplotLayout
            | Query::SubplotCount
            | Query::PanelCount
            | Query::KpiValue { .. }
            | Query::Source { .. }
            | Query::Subtitle { .. }
            | Query::Note { .. }
            | Query::ReferenceValue { .. }
            | Query::Highlighted { .. }
            | Query::ShadedPeriod { .. }
            | Query::CalloutTarget { .. }
    )
}

/// Families over the table's values.
pub const DATA_FAMILIES: &[&str] = &[
    "value_at",
    "argmax",
    "argmin",
    "max_value",
    "min_value",
    "difference",
    "ratio",
    "percent_change",
    "sum",
    "mean",
    "median",
    "count_above",
    "count_below",
    "compare",
    "rank",
    "trend",
    "largest_increase",
    "largest_decrease",
    "max_gap",
    "crosses",
    "share",
    "share_sum",
    "spread",
    "top_mean",
    // Asked only of the statistical kinds (see `dist`).
    "iqr",
    "outlier_count",
    "bin_range_count",
    "intervals_overlap",
    "largest_rise",
    "largest_fall",
];

/// Families that need a fact stated in the table's accompanying paragraph.
pub const PARAGRAPH_FAMILIES: &[&str] = &["paragraph_value", "paragraph_difference"];

/// Descriptive families generated on their own, answered from the Scene.
pub const DESCRIPTIVE_FAMILIES: &[&str] = &[
    "title",
    "x_label",
    "y_label",
    "leftmost_x_tick",
    "rightmost_x_tick",
    "lowest_y_tick",
    "highest_y_tick",
    "x_tick_step",
    "y_tick_step",
    "line_count",
    "lines_intersect",
    "legend_count",
    "legend_labels",
    "general_trend",
    "tick_count",
    "subplot_layout",
    "subplot_count",
    "kpi_value",
    "lowest_colorbar_tick",
    "highest_colorbar_tick",
    "series_axis",
];

/// Families about a chart's annotation, asked only of charts that draw one:
/// the reference line's value, how many values lie above it, the highlighted
/// category, the shaded period, the mark a callout points at.
pub const ANNOTATION_FAMILIES: &[&str] = &[
    "reference_value",
    "count_above_reference",
    "highlighted",
    "shaded_period",
    "callout_target",
];

/// Families about a lettered figure as a whole, asked only of figures: how
/// many panels it has, which panel shows the highest or lowest value.
pub const FIGURE_FAMILIES: &[&str] = &["panel_count", "highest_panel", "lowest_panel"];

/// Every family name, data families first (`source` is descriptive too, but
/// only asked about charts that print one).
pub static FAMILIES: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
    [
        DATA_FAMILIES,
        PARAGRAPH_FAMILIES,
        DESCRIPTIVE_FAMILIES,
        &["source", "subtitle", "note"],
        ANNOTATION_FAMILIES,
        FIGURE_FAMILIES,
    ]
    .concat()
});

/// The family name of a query (of its base, for question-type wrappers).
pub fn family(query: &Query) -> &'static str {
    use crate::ir::query::AggregateOp;
    match query.base() {
        Query::ValueAt { .. } => "value_at",
        Query::Argmax { .. } => "argmax",
        Query::Argmin { .. } => "argmin",
        Query::MaxValue { .. } => "max_value",
        Query::MinValue { .. } => "min_value",
        Query::Difference { .. } => "difference",
        Query::Ratio { .. } => "ratio",
        Query::PercentChange { .. } => "percent_change",
        Query::Aggregate { agg, .. } => match agg {
            AggregateOp::Sum => "sum",
            AggregateOp::Mean => "mean",
            AggregateOp::Median => "median",
        },
        Query::CountThreshold { above, .. } => {
            if *above {
                "count_above"
            } else {
                "count_below"
            }
        }
        Query::Compare { .. } => "compare",
        Query::Rank { .. } => "rank",
        Query::Trend { .. } => "trend",
        Query::LargestChange { increase, .. } => {
            if *increase {
                "largest_increase"
            } else {
                "largest_decrease"
            }
        }
        Query::MaxGap { .. } => "max_gap",
        Query::SlopeChange { rise, .. } => slope::family(*rise),
        Query::Crosses { .. } => "crosses",
        Query::Share { .. } => "share",
        Query::ShareSum { .. } => "share_sum",
        Query::Spread { .. } => "spread",
        Query::TopMean { .. } => "top_mean",
        Query::ParagraphValue { .. } => "paragraph_value",
        Query::ParagraphDifference { .. } => "paragraph_difference",
        Query::Title { .. } => "title",
        Query::AxisLabel { axis, .. } => match axis {
            Axis::X => "x_label",
            Axis::Y => "y_label",
        },
        Query::EdgeTick { axis, last, .. } => match (axis, last) {
            (Axis::X, false) => "leftmost_x_tick",
            (Axis::X, true) => "rightmost_x_tick",
            (Axis::Y, false) => "lowest_y_tick",
            (Axis::Y, true) => "highest_y_tick",
        },
        Query::TickStep { axis, .. } => match axis {
            Axis::X => "x_tick_step",
            Axis::Y => "y_tick_step",
        },
        Query::LineCount { .. } => "line_count",
        Query::LinesIntersect { .. } => "lines_intersect",
        Query::LegendCount { .. } => "legend_count",
        Query::LegendLabels { .. } => "legend_labels",
        Query::GeneralTrend { .. } => "general_trend",
        Query::TickCount { .. } => "tick_count",
        Query::SeriesAxis { .. } => "series_axis",
        Query::ColorbarTick { last, .. } => {
            if *last {
                "highest_colorbar_tick"
            } else {
                "lowest_colorbar_tick"
            }
        }
        Query::SubplotLayout => "subplot_layout",
        Query::SubplotCount => "subplot_count",
        Query::PanelCount => "panel_count",
        Query::PanelExtreme { max: true } => "highest_panel",
        Query::PanelExtreme { max: false } => "lowest_panel",
        Query::KpiValue { .. } => "kpi_value",
        Query::Source { .. } => "source",
        Query::Subtitle { .. } => "subtitle",
        Query::Note { .. } => "note",
        Query::ReferenceValue { .. } => "reference_value",
        Query::CountAboveReference { .. } => "count_above_reference",
        Query::Highlighted { .. } => "highlighted",
        Query::ShadedPeriod { .. } => "shaded_period",
        Query::CalloutTarget { .. } => "callout_target",
        Query::Iqr { .. } => "iqr",
        Query::OutlierCount { .. } => "outlier_count",
        Query::BinRangeCount { .. } => "bin_range_count",
        Query::IntervalsOverlap { .. } => "intervals_overlap",
        Query::Imported { .. } => "imported",
        // An empty conversation has no base; report it as such.
        Query::MultipleChoice { .. }
        | Query::FactCheck { .. }
        | Query::Hypothetical { .. }
        | Query::Conversation { .. } => "conversation",
    }
}

/// CharXiv's answer kind for an answer of this query.
pub fn answer_kind(query: &Query, answer: &Answer) -> AnswerKind {
    match query {
        Query::MultipleChoice { .. } | Query::FactCheck { .. } => {
            return AnswerKind::TextInGeneral;
        }
        Query::Hypothetical { .. } => return AnswerKind::NumberInGeneral,
        _ => {}
    }
    let base = query.base();
    match answer {
        Answer::Number { .. } => match base {
            Query::ValueAt { .. }
            | Query::MaxValue { .. }
            | Query::MinValue { .. }
            | Query::EdgeTick { .. }
            | Query::ColorbarTick { .. } => AnswerKind::NumberInChart,
            _ => AnswerKind::NumberInGeneral,
        },
        Answer::Year { .. } => AnswerKind::NumberInChart,
        Answer::Text { .. } | Answer::List { .. } => match base {
            Query::Trend { .. } | Query::GeneralTrend { .. } | Query::SubplotLayout => {
                AnswerKind::TextInGeneral
            }
            _ => AnswerKind::TextInChart,
        },
        _ => AnswerKind::TextInGeneral,
    }
}
