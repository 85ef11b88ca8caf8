//! Plausible wrong answers: neighbouring values, other categories, the
//! off-by-one year, the other series' value, a unit misread. Every distractor
//! is clearly wrong (beyond the false-claim gap), so options never tie.

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::ir::query::Query;
use crate::ir::{Answer, Scene};
use crate::query::trend::TrendShape;
use crate::query::wrappers::states;
use crate::query::{PanelData, display_number};

/// The answer as an option or claim prints it (numbers with their unit).
pub fn display_answer(answer: &Answer) -> String {
    match answer {
        Answer::Number {
            value,
            decimals,
            unit,
        } => {
            let mut f = format_for(unit.as_deref());
            f.thousands = value.abs() >= 10_000.0;
            display_number(*value, *decimals, &f)
        }
        other => other.to_text(),
    }
}

pub fn format_for(unit: Option<&str>) -> crate::ir::NumberFormat {
    let mut f = crate::ir::NumberFormat::default();
    match unit {
        Some(u) if ["$", "€", "£", "¥"].contains(&u) => f.prefix = Some(u.to_string()),
        Some("%") => f.suffix = Some("%".into()),
        Some(u) => f.suffix = Some(format!(" {u}")),
        None => {}
    }
    f
}

fn number_candidates(value: f64, decimals: u8, data: Option<&PanelData>) -> Vec<f64> {
    let mut out: Vec<f64> = Vec::new();
    if let Some(d) = data {
        // Values from the chart of a comparable size: a rent of 2,500 is not
        // confused with an income of 71,673 (the ×10 misread is added below).
        let comparable =
            |v: f64| value == 0.0 || (v / value).abs() <= 5.0 && (v / value).abs() >= 0.2;
        for s in &d.series {
            out.extend(
                s.values
                    .iter()
                    .flatten()
                    .copied()
                    .filter(|v| comparable(*v)),
            );
        }
    }
    let step = 10f64.powi(-i32::from(decimals));
    for f in [1.2, 0.8, 1.5, 0.5, 1.25, 0.75, 10.0, 0.1, 2.0] {
        out.push(value * f);
    }
    if value.abs() < step * 5.0 {
        out.extend([step * 10.0, step * 20.0, -step * 10.0]);
    }
    // A sign slip is plausible only where the chart has negative values.
    let has_negative = data.is_some_and(|d| {
        d.series
            .iter()
            .flat_map(|s| s.values.iter().flatten())
            .any(|v| *v < 0.0)
    });
    if has_negative {
        out.push(-value);
    }
    // Rounded in decimal, as the option will print.
    out.into_iter()
        .map(|v| crate::ir::decimal::round_f64(v, decimals))
        .collect()
}

fn text_candidates(query: &Query, data: Option<&PanelData>, scene: &Scene) -> Vec<String> {
    let mut out = Vec::new();
    match query {
        Query::Trend { .. } | Query::GeneralTrend { .. } => {
            out.extend(TrendShape::ALL.iter().map(|t| t.label().to_string()));
        }
        Query::SubplotLayout => {
            let (r, c) = scene.grid;
            out.extend([
                format!("{c} by {r}"),
                format!("{} by {c}", r + 1),
                format!("{r} by {}", c + 1),
                format!("{} by {}", r.max(2) - 1, c + 1),
            ]);
        }
        // A wrong title or axis label is another title or label, never a tick
        // value ("The label of the y-axis is 80,000" fools nobody).
        Query::Title { .. } | Query::AxisLabel { .. } => {
            for p in &scene.panels {
                out.extend(p.title.iter().map(|t| t.text.clone()));
                out.extend(p.x_label.iter().map(|t| t.text.clone()));
                out.extend(p.y_label.iter().map(|t| t.text.clone()));
            }
            out.push(crate::ir::answer::NOT_APPLICABLE_TEXT.into());
        }
        // A wrong tick is another tick of the same axis.
        Query::EdgeTick { panel, axis, .. } => {
            for p in scene.panels.iter().filter(|p| p.index == *panel) {
                let ticks = match axis {
                    crate::ir::query::Axis::X => &p.x_ticks,
                    crate::ir::query::Axis::Y => &p.y_ticks,
                };
                out.extend(ticks.iter().map(|t| t.label.clone()));
            }
        }
        Query::LegendLabels { .. } => {
            for p in &scene.panels {
                out.extend(p.legend.iter().map(|e| e.label.clone()));
            }
            out.push(crate::ir::answer::NOT_APPLICABLE_TEXT.into());
        }
        _ => {
            // Other categories of the same axis (a series name would be a different kind).
            if let Some(d) = data {
                out.extend(d.categories.iter().cloned());
            }
        }
    }
    out
}

fn is_count(query: &Query) -> bool {
    matches!(
        query,
        Query::CountThreshold { .. }
            | Query::Rank { .. }
            | Query::LineCount { .. }
            | Query::LegendCount { .. }
            | Query::TickCount { .. }
            | Query::SubplotCount
    )
}

/// Share of the panel's largest magnitude that separates a wrong reading from
/// the true one: 1 vs 2 on an axis that runs to 336 look the same.
const READABLE_SHARE: f64 = 0.03;

/// Smallest distance between a wrong option and the truth for answers read off
/// the value axis (values, extremes, differences, aggregates); None for derived
/// quantities (ratios, percentages, counts) whose scale is not the axis.
fn readable_gap(answer: &Answer, query: &Query, data: Option<&PanelData>) -> Option<f64> {
    let on_axis = matches!(
        query,
        Query::ValueAt { .. }
            | Query::MaxValue { .. }
            | Query::MinValue { .. }
            | Query::Difference { .. }
            | Query::Spread { .. }
            | Query::Aggregate { .. }
            | Query::TopMean { .. }
    );
    if !on_axis || !matches!(answer, Answer::Number { .. }) {
        return None;
    }
    let scale = data?
        .series
        .iter()
        .flat_map(|s| s.values.iter().flatten())
        .fold(0f64, |m, v| m.max(v.abs()));
    (scale > 0.0).then_some(READABLE_SHARE * scale)
}

/// Up to `n` distinct wrong options, most plausible first, shuffled by `rng`.
pub fn distractors(
    answer: &Answer,
    query: &Query,
    data: Option<&PanelData>,
    scene: &Scene,
    n: usize,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<String> {
    let mut pool: Vec<String> = match answer {
        Answer::Number { value, .. } if is_count(query) => {
            // Counts and ranks: nearby whole numbers, never negative (ranks start at 1).
            let lowest = if matches!(query, Query::Rank { .. }) {
                1.0
            } else {
                0.0
            };
            [1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 4.0]
                .iter()
                .map(|d| value + d)
                .filter(|v| *v >= lowest)
                .map(|v| crate::ir::answer::format_number(v, 0))
                .collect()
        }
        Answer::Number {
            value,
            decimals,
            unit,
        } => {
            let mut f = format_for(unit.as_deref());
            f.thousands = value.abs() >= 10_000.0;
            number_candidates(*value, *decimals, data)
                .into_iter()
                .map(|v| display_number(v, *decimals, &f))
                .collect()
        }
        Answer::Year { value } => {
            let mut v: Vec<String> = [1, -1, 2, -2, 3, -3]
                .iter()
                .map(|d| (value + d).to_string())
                .collect();
            v.extend(text_candidates(query, data, scene));
            v
        }
        Answer::List { values } => {
            let mut v = Vec::new();
            let mut r = values.clone();
            r.reverse();
            v.push(r.join(", "));
            for k in 1..values.len() {
                let mut rot = values.clone();
                rot.rotate_left(k);
                v.push(rot.join(", "));
            }
            if values.len() >= 2 {
                let mut sw = values.clone();
                sw.swap(0, 1);
                v.push(sw.join(", "));
            }
            v
        }
        Answer::Text { .. } => text_candidates(query, data, scene),
        _ => Vec::new(),
    };
    // Keep clearly wrong, distinct options; numbers must also be far from each other.
    let mut chosen: Vec<String> = Vec::new();
    // Seeded shuffle so distractor order never follows table order.
    for i in (1..pool.len()).rev() {
        let j = rng.random_range(0..=i);
        pool.swap(i, j);
    }
    let min_gap = readable_gap(answer, query, data);
    for cand in pool {
        if chosen.len() >= n {
            break;
        }
        if states(answer, &cand) != Some(false) || cand.trim().is_empty() {
            continue;
        }
        // A value read off the chart must be told apart from the truth by eye.
        if let (Some(gap), Answer::Number { value, .. }) = (min_gap, answer)
            && crate::query::parse_number(&cand).is_some_and(|c| (c - value).abs() < gap)
        {
            continue;
        }
        let clash = chosen.iter().any(|c| {
            c.eq_ignore_ascii_case(&cand)
                || match (
                    crate::query::parse_number(c),
                    crate::query::parse_number(&cand),
                ) {
                    (Some(x), Some(y)) if matches!(answer, Answer::Number { .. }) => {
                        (x - y).abs() < 0.1 * x.abs().max(y.abs()).max(1e-9)
                    }
                    _ => false,
                }
        });
        if !clash {
            chosen.push(cand);
        }
    }
    chosen
}
