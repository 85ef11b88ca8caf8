//! The `reader`: a careful person with perfect eyesight who answers only from
//! what the image shows. It reads printed text (titles, axis titles, tick
//! labels, legend entries, value labels, KPI tiles, and the paragraph when
//! the prompt carries it) and mark geometry (bar ends, point centres)
//! converted to values through the printed ticks, each geometric reading
//! known only to ± [`view::BASE_PRECISION_PX`] (scaled by image corruptions).
//! Series are identified only through a legend or direct labels, categories
//! only through printed labels. Every query is computed on intervals; when
//! readings consistent with the picture disagree at the metric's tolerance
//! the reader says it cannot determine the answer.
//!
//! Mark values, tick values and the table are never looked at: only text as
//! printed and pixel positions. Descriptive and paragraph questions, whose
//! answer is printed text, are answered once the text involved is legible.

mod annotation;
mod axis;
mod data;
mod dist;
mod figure;
mod interval;
pub mod precision;
pub(crate) mod sight;
mod timeline;
pub mod view;

use crate::ir::answer::UNANSWERABLE_TEXT;
use crate::ir::query::Query;
use crate::ir::{Answer, BBox, ChartSpec, Scene};

pub use axis::parse_printed;
pub use interval::Interval;
pub use view::View;

use sight::{Edit, Sight};

/// Relative tolerance of free-form numbers under relaxed accuracy.
pub const NUMBER_TOLERANCE: f64 = 0.05;
/// A false claim is at least this far (relative) from the truth.
const FALSE_CLAIM_GAP: f64 = 0.10;
/// What the reader says when the picture does not settle the answer.
pub const CANNOT_DETERMINE: &str = "Cannot determine from the chart";

/// What the reader concluded.
#[derive(Debug, Clone, PartialEq)]
pub enum Reading {
    Answer(String),
    /// The question is about something the chart visibly does not show.
    Unanswerable(String),
    /// The picture does not settle the answer; `reason` is a short kind name.
    Undetermined {
        reason: &'static str,
        detail: String,
    },
}

impl Reading {
    /// The reader's reply as a model would give it.
    pub fn text(&self) -> String {
        match self {
            Reading::Answer(t) => t.clone(),
            Reading::Unanswerable(_) => UNANSWERABLE_TEXT.to_string(),
            Reading::Undetermined { reason, detail } => {
                format!("{CANNOT_DETERMINE} ({reason}: {detail})")
            }
        }
    }
}

/// Why evaluation stopped.
#[derive(Debug, Clone, PartialEq)]
pub enum Stop {
    Absent(String),
    Unreadable {
        reason: &'static str,
        detail: String,
    },
}

pub(crate) fn unreadable(reason: &'static str, detail: impl Into<String>) -> Stop {
    Stop::Unreadable {
        reason,
        detail: detail.into(),
    }
}

/// A reading before it is put into words.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Num(Interval),
    /// A whole count known to lie in `lo..=hi`.
    Count(usize, usize),
    Cat(String),
    Text(String),
    YesNo(bool),
    TrueFalse(bool),
    Letter(char),
    /// Printed text read as it stands (descriptive answers).
    Exact(Answer),
}

/// Answers a query on a chart as the reader sees it.
pub fn answer(query: &Query, spec: &ChartSpec, scene: &Scene, view: &View) -> Reading {
    match evaluate(query, spec, scene, view, None).and_then(|v| words(&v)) {
        Ok(text) => Reading::Answer(text),
        Err(Stop::Absent(d)) => Reading::Unanswerable(d),
        Err(Stop::Unreadable { reason, detail }) => Reading::Undetermined { reason, detail },
    }
}

/// Whether a reading is right for a gold answer (relaxed accuracy: 5% for
/// numbers other than years and counts, exact otherwise).
pub fn agrees(gold: &Answer, reading: &Reading) -> bool {
    let text = match (gold, reading) {
        (Answer::Unanswerable, r) => return matches!(r, Reading::Unanswerable(_)),
        (_, Reading::Answer(t)) => t.trim(),
        _ => return false,
    };
    let same = |s: &str| s.trim().eq_ignore_ascii_case(text);
    match gold {
        Answer::Number {
            value, decimals, ..
        } => {
            let Some((p, _)) = parse_printed(text) else {
                return false;
            };
            let printed: f64 = crate::ir::answer::format_number(*value, *decimals)
                .parse()
                .unwrap_or(*value);
            [*value, printed].iter().any(|g| {
                if *g == 0.0 {
                    p.abs() <= 0.5 * 10f64.powi(-i32::from(*decimals))
                } else {
                    (p - g).abs() <= NUMBER_TOLERANCE * g.abs()
                }
            })
        }
        Answer::Year { value } => text.parse::<i32>().ok() == Some(*value),
        Answer::Text { value } => same(value),
        Answer::List { values } => same(&values.join(", ")),
        Answer::YesNo { value } => same(if *value { "Yes" } else { "No" }),
        Answer::TrueFalse { value } => same(if *value { "True" } else { "False" }),
        Answer::Choice { letter, .. } => same(&letter.to_string()),
        Answer::Unanswerable => false,
    }
}

/// A number printed with six significant digits, never in exponent form.
fn plain(v: f64) -> String {
    let mag = if v == 0.0 {
        0
    } else {
        v.abs().log10().floor() as i32
    };
    let decimals = (5 - mag).clamp(0, 12) as usize;
    let s = format!("{v:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" { "0".into() } else { s }
}

fn words(v: &Value) -> Result<String, Stop> {
    Ok(match v {
        Value::Num(iv) => plain(iv.tolerant_point(NUMBER_TOLERANCE).ok_or_else(|| {
            unreadable(
                "value_precision",
                format!(
                    "the value lies in [{}, {}]: wider than the tolerance",
                    plain(iv.lo),
                    plain(iv.hi)
                ),
            )
        })?),
        Value::Count(lo, hi) if lo == hi => lo.to_string(),
        Value::Count(lo, hi) => {
            return Err(unreadable(
                "too_close",
                format!("the count is between {lo} and {hi} at reading precision"),
            ));
        }
        Value::Cat(s) | Value::Text(s) => s.clone(),
        Value::YesNo(b) => if *b { "Yes" } else { "No" }.into(),
        Value::TrueFalse(b) => if *b { "True" } else { "False" }.into(),
        Value::Letter(c) => c.to_ascii_uppercase().to_string(),
        Value::Exact(a) => match a {
            Answer::Unanswerable => return Err(Stop::Absent("not shown".into())),
            other => other.to_text(),
        },
    })
}

fn panel_sight<'a>(
    panel: usize,
    scene: &'a Scene,
    view: &'a View,
    edit: Option<Edit>,
) -> Result<Sight<'a>, Stop> {
    let p = scene
        .panels
        .iter()
        .find(|p| p.index == panel)
        .ok_or_else(|| unreadable("unsupported", format!("no panel {panel} on the image")))?;
    let mut sight = Sight::new(p, view);
    sight.edit = edit;
    Ok(sight)
}

fn evaluate(
    query: &Query,
    spec: &ChartSpec,
    scene: &Scene,
    view: &View,
    edit: Option<Edit>,
) -> Result<Value, Stop> {
    match query {
        Query::MultipleChoice { base, options } => {
            let truth = evaluate(base, spec, scene, view, edit)?;
            let fits: Vec<usize> = options
                .iter()
                .enumerate()
                .filter(|(_, o)| consistent(&truth, o))
                .map(|(i, _)| i)
                .collect();
            match fits.as_slice() {
                [i] => Ok(Value::Letter((b'a' + *i as u8) as char)),
                [] => Err(unreadable("no_option", "no option matches the reading")),
                _ => Err(unreadable("too_close", "several options match the reading")),
            }
        }
        Query::FactCheck { base, claim } => {
            let truth = evaluate(base, spec, scene, view, edit)?;
            verdict(&truth, claim).map(Value::TrueFalse)
        }
        Query::Hypothetical { base, change } => {
            let edit = Edit {
                series: change.series.clone(),
                category: change.category.clone(),
                factor: 1.0 + change.percent / 100.0,
            };
            if let Some(c) = &change.category {
                // The edited cell must itself be identifiable.
                panel_sight(change.panel, scene, view, None)?.cell(&change.series, c)?;
            }
            evaluate(base, spec, scene, view, Some(edit))
        }
        Query::Conversation { turns } => match turns.last() {
            Some(last) => evaluate(last, spec, scene, view, edit),
            None => Err(unreadable("unsupported", "an empty conversation")),
        },
        Query::GeneralTrend { panel } => {
            let sight = panel_sight(*panel, scene, view, edit)?;
            match sight.drawn() {
                [one] => Ok(Value::Text(data::trend(
                    &sight
                        .column(one)?
                        .into_iter()
                        .map(|(_, v)| v)
                        .collect::<Vec<_>>(),
                )?)),
                _ => Err(unreadable(
                    "series_unnamed",
                    "a general trend of several series",
                )),
            }
        }
        Query::ParagraphValue { .. } | Query::ParagraphDifference { .. } if !view.paragraph => Err(
            unreadable("no_paragraph", "the prompt does not carry the paragraph"),
        ),
        Query::ParagraphDifference {
            panel,
            series,
            paragraph_category,
            category,
        } => {
            let stated = Query::ParagraphValue {
                panel: *panel,
                series: series.clone(),
                category: paragraph_category.clone(),
            };
            let Ok(Answer::Number {
                value, decimals, ..
            }) = crate::query::execute(&stated, spec, scene)
            else {
                return Err(Stop::Absent("the paragraph states no such value".into()));
            };
            let half = 0.5 * 10f64.powi(-i32::from(decimals));
            let chart = panel_sight(*panel, scene, view, edit)?.cell(series, category)?;
            Ok(Value::Num(Interval::around(value, half) - chart))
        }
        Query::CountAboveReference { panel, series } => {
            let sight = panel_sight(*panel, scene, view, edit)?;
            let p = scene
                .panels
                .iter()
                .find(|p| p.index == *panel)
                .ok_or_else(|| unreadable("unsupported", format!("no panel {panel}")))?;
            let threshold = annotation::reference_threshold(p, view)?;
            let count = Query::CountThreshold {
                panel: *panel,
                series: series.clone(),
                threshold,
                above: true,
            };
            data::evaluate(&count, &sight)
        }
        q if crate::query::annotation::is_annotation(q) => {
            let p = scene
                .panels
                .iter()
                .find(|p| p.index == q.panel())
                .ok_or_else(|| unreadable("unsupported", format!("no panel {}", q.panel())))?;
            annotation::evaluate(q, p, view)
        }
        q if crate::query::is_descriptive(q)
            || matches!(
                q,
                Query::ParagraphValue { .. }
                    | Query::SubplotLayout
                    | Query::SubplotCount
                    | Query::KpiValue { .. }
            ) =>
        {
            printed(q, scene, view)?;
            match crate::query::execute(q, spec, scene) {
                Ok(a) => Ok(Value::Exact(a)),
                Err(r) => Err(unreadable("unsupported", r.to_string())),
            }
        }
        Query::PanelExtreme { max } => figure::extreme_panel(*max, scene, view, edit),
        q if crate::query::dist::is_dist(q) => dist::evaluate(q, scene, view, edit),
        q => data::evaluate(q, &panel_sight(q.panel(), scene, view, edit)?),
    }
}

/// Checks that the printed text a descriptive question is about is legible.
fn printed(query: &Query, scene: &Scene, view: &View) -> Result<(), Stop> {
    use crate::ir::query::Axis;
    let panel = scene.panels.iter().find(|p| p.index == query.panel());
    let mut boxes: Vec<BBox> = Vec::new();
    if let Some(p) = panel {
        match query {
            Query::Title { .. } => {
                boxes.extend(p.title.as_ref().or(scene.title.as_ref()).map(|t| t.bbox))
            }
            Query::AxisLabel { axis, .. } => boxes.extend(
                match axis {
                    Axis::X => &p.x_label,
                    Axis::Y => &p.y_label,
                }
                .as_ref()
                .map(|t| t.bbox),
            ),
            Query::EdgeTick { axis, .. } | Query::TickStep { axis, .. } => boxes.extend(
                match axis {
                    Axis::X => &p.x_ticks,
                    Axis::Y => &p.y_ticks,
                }
                .iter()
                .map(|t| t.bbox),
            ),
            Query::TickCount { .. } => {
                boxes.extend(p.x_ticks.iter().chain(&p.y_ticks).map(|t| t.bbox))
            }
            Query::ColorbarTick { .. } => boxes.extend(
                p.heatmap
                    .iter()
                    .flat_map(|h| &h.colorbar.ticks)
                    .map(|t| t.bbox),
            ),
            // Which axis reads a series: its title (in the series' name and
            // colour) on that side.
            Query::SeriesAxis { .. } => boxes.extend(
                p.y_label
                    .iter()
                    .chain(p.dual_axis.iter().flat_map(|d| &d.right_label))
                    .map(|t| t.bbox),
            ),
            Query::LegendCount { .. } | Query::LegendLabels { .. } => {
                boxes.extend(p.legend.iter().map(|e| e.bbox))
            }
            _ => {}
        }
    }
    match query {
        Query::KpiValue { label } => boxes.extend(
            scene
                .kpis
                .iter()
                .filter(|k| k.label.trim().eq_ignore_ascii_case(label.trim()))
                .map(|k| k.bbox),
        ),
        Query::Source { .. } | Query::Note { .. } => {
            boxes.extend(scene.extra_text.iter().map(|t| t.bbox))
        }
        Query::PanelCount => {
            boxes.extend(scene.figure.iter().flat_map(|f| &f.letters).map(|t| t.bbox))
        }
        Query::Subtitle { panel } => boxes.extend(
            scene
                .panels
                .get(*panel)
                .and_then(|p| p.subtitle.as_ref())
                .or(scene.figure.as_ref().and_then(|f| f.subtitle.as_ref()))
                .map(|t| t.bbox),
        ),
        _ => {}
    }
    if boxes.iter().all(|b| view.legible(b)) {
        Ok(())
    } else {
        Err(unreadable(
            "text_illegible",
            "the text the question is about is too small to read",
        ))
    }
}

/// Whether a multiple-choice option could be the answer read.
fn consistent(truth: &Value, option: &str) -> bool {
    let o = option.trim();
    match truth {
        Value::Num(iv) => parse_printed(o)
            .is_some_and(|(c, step)| c >= iv.lo - step / 2.0 && c <= iv.hi + step / 2.0),
        Value::Count(lo, hi) => o.parse::<usize>().is_ok_and(|n| (*lo..=*hi).contains(&n)),
        Value::Cat(s) | Value::Text(s) => {
            s.trim().eq_ignore_ascii_case(o) || crate::spec::dates::names_period(o, s)
        }
        Value::YesNo(b) => o.eq_ignore_ascii_case(if *b { "yes" } else { "no" }),
        Value::TrueFalse(b) => o.eq_ignore_ascii_case(if *b { "true" } else { "false" }),
        Value::Letter(c) => o.eq_ignore_ascii_case(&c.to_string()),
        Value::Exact(a) => crate::query::wrappers::states(a, o) == Some(true),
    }
}

/// The verdict on a claim about a reading, when the picture settles it.
fn verdict(truth: &Value, claim: &str) -> Result<bool, Stop> {
    let undecided = || unreadable("too_close", "the claim is within reading precision");
    match truth {
        Value::Num(iv) => {
            let (c, step) = parse_printed(claim).ok_or_else(undecided)?;
            if !consistent(truth, claim) {
                return Ok(false);
            }
            // Claims are either right or at least 10% off: a claim within
            // 10% of every possible reading can only be the right one.
            let near = |t: f64| (t - c).abs() < FALSE_CLAIM_GAP * t.abs().max(step);
            if near(iv.lo) && near(iv.hi) {
                Ok(true)
            } else {
                Err(undecided())
            }
        }
        Value::Count(lo, hi) => {
            let n: usize = claim.trim().parse().map_err(|_| undecided())?;
            if !(*lo..=*hi).contains(&n) {
                Ok(false)
            } else if lo == hi {
                Ok(true)
            } else {
                Err(undecided())
            }
        }
        Value::Exact(a) => crate::query::wrappers::states(a, claim).ok_or_else(undecided),
        other => Ok(consistent(other, claim)),
    }
}

#[cfg(test)]
mod tests;
