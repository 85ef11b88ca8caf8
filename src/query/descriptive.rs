//! Descriptive families (CharXiv's set), answered only from what the Scene says was drawn.

use std::collections::BTreeMap;

use super::data::{crossing, number};
use super::trend::classify_trend;
use super::{Ctx, Refusal, RefusalKind};
use crate::ir::answer::NOT_APPLICABLE_TEXT;
use crate::ir::query::{Axis, Query};
use crate::ir::{Answer, ChartKind, MarkKind, PanelScene, Scene, Tick};

fn not_applicable() -> Answer {
    Answer::Text {
        value: NOT_APPLICABLE_TEXT.into(),
    }
}

fn text(value: &str) -> Answer {
    Answer::Text {
        value: value.trim().to_string(),
    }
}

/// Decimals printed in a numeric label ("2.50" → 2).
pub(crate) fn label_decimals(label: &str) -> u8 {
    label
        .split_once('.')
        .map(|(_, f)| f.chars().take_while(char::is_ascii_digit).count() as u8)
        .unwrap_or(0)
}

fn is_plain_number(label: &str) -> bool {
    let t = label.trim();
    !t.is_empty()
        && t.chars().any(|c| c.is_ascii_digit())
        && t.chars()
            .enumerate()
            .all(|(i, c)| c.is_ascii_digit() || c == '.' || c == ',' || (i == 0 && c == '-'))
}

/// A tick label as an answer: years as years, plain numbers as numbers, else text.
pub(crate) fn tick_answer(label: &str) -> Answer {
    let t = label.trim();
    if t.len() == 4
        && let Ok(y) = t.parse::<i32>()
        && (1800..=2100).contains(&y)
    {
        return Answer::Year { value: y };
    }
    if is_plain_number(t)
        && let Some(v) = super::parse_number(t)
    {
        return Answer::Number {
            value: v,
            decimals: label_decimals(t),
            unit: None,
        };
    }
    text(t)
}

fn ticks(scene: &PanelScene, axis: Axis) -> &[Tick] {
    match axis {
        Axis::X => &scene.x_ticks,
        Axis::Y => &scene.y_ticks,
    }
}

/// Values of each line series in drawing order left to right.
fn line_series(scene: &PanelScene) -> BTreeMap<String, Vec<(f32, f64)>> {
    let mut lines: BTreeMap<String, Vec<(f32, f64)>> = BTreeMap::new();
    for m in scene.marks.iter().filter(|m| m.kind == MarkKind::LinePoint) {
        lines
            .entry(m.series.clone())
            .or_default()
            .push((m.bbox.center().0, m.value));
    }
    for points in lines.values_mut() {
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    lines
}

fn is_line_kind(kind: ChartKind) -> bool {
    kind == ChartKind::Line
}

pub(crate) fn execute(query: &Query, ctx: &Ctx, scene: &Scene) -> Result<Answer, Refusal> {
    let p = ctx.scene;
    Ok(match query {
        Query::Title { .. } => match (&p.title, &scene.title) {
            (Some(t), _) => text(&t.text),
            (None, Some(t)) if scene.panels.len() == 1 => text(&t.text),
            _ => not_applicable(),
        },
        Query::AxisLabel { axis, .. } => {
            let label = match axis {
                Axis::X => &p.x_label,
                Axis::Y => &p.y_label,
            };
            match label {
                Some(t) if !t.text.trim().is_empty() => text(&t.text),
                _ => not_applicable(),
            }
        }
        Query::EdgeTick { axis, last, .. } => {
            let t = ticks(p, *axis);
            let tick = if *last { t.last() } else { t.first() };
            match tick {
                Some(t) => tick_answer(&t.label),
                None => not_applicable(),
            }
        }
        Query::TickStep { axis, .. } => {
            let t = ticks(p, *axis);
            let values: Option<Vec<f64>> = t
                .iter()
                .map(|t| {
                    // Numeric ticks carry their value ("20%", "1k"); plain labels parse.
                    t.value.or_else(|| {
                        is_plain_number(&t.label)
                            .then(|| super::parse_number(&t.label))
                            .flatten()
                    })
                })
                .collect();
            match values {
                Some(v) if v.len() >= 2 => {
                    let steps: Vec<f64> = v.windows(2).map(|w| w[1] - w[0]).collect();
                    let first = steps[0];
                    let constant = first.abs() > 1e-12
                        && steps
                            .iter()
                            .all(|s| (s - first).abs() <= 1e-6 * first.abs());
                    if constant {
                        let decimals = t
                            .iter()
                            .map(|t| label_decimals(&t.label))
                            .max()
                            .unwrap_or(0);
                        number(first.abs(), decimals, None)?
                    } else {
                        not_applicable()
                    }
                }
                _ => not_applicable(),
            }
        }
        Query::LineCount { .. } => {
            let n = if is_line_kind(p.kind) {
                line_series(p).len()
            } else {
                0
            };
            number(n as f64, 0, None)?
        }
        Query::LinesIntersect { .. } => {
            let lines = line_series(p);
            if !is_line_kind(p.kind) || lines.len() < 2 {
                not_applicable()
            } else {
                let series: Vec<Vec<f64>> = lines
                    .values()
                    .map(|pts| pts.iter().map(|x| x.1).collect())
                    .collect();
                let mut any = false;
                for i in 0..series.len() {
                    for j in i + 1..series.len() {
                        if series[i].len() != series[j].len() {
                            return Err(Refusal::new(
                                RefusalKind::NotDrawn,
                                "lines have different numbers of points",
                            ));
                        }
                        any |= crossing(&series[i], &series[j])?;
                    }
                }
                Answer::YesNo { value: any }
            }
        }
        Query::LegendCount { .. } => {
            if p.legend.is_empty() {
                not_applicable()
            } else {
                number(p.legend.len() as f64, 0, None)?
            }
        }
        Query::LegendLabels { .. } => {
            if p.legend.is_empty() {
                not_applicable()
            } else {
                Answer::List {
                    values: p
                        .legend
                        .iter()
                        .map(|e| e.label.trim().to_string())
                        .collect(),
                }
            }
        }
        Query::GeneralTrend { .. } => {
            if !matches!(p.kind, ChartKind::Line | ChartKind::Bar | ChartKind::Area) {
                return Err(Refusal::new(
                    RefusalKind::Unsupported,
                    "general trend is asked of vertical bars and lines",
                ));
            }
            let mut series: Vec<&str> = p.marks.iter().map(|m| m.series.as_str()).collect();
            series.sort();
            series.dedup();
            if series.len() != 1 {
                return Err(Refusal::new(
                    RefusalKind::Unsupported,
                    "general trend needs exactly one series",
                ));
            }
            let mut points: Vec<(f32, f64)> = p
                .marks
                .iter()
                .map(|m| (m.bbox.center().0, m.value))
                .collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            let values: Vec<f64> = points.iter().map(|x| x.1).collect();
            text(classify_trend(&values)?.label())
        }
        Query::TickCount { .. } => number((p.x_ticks.len() + p.y_ticks.len()) as f64, 0, None)?,
        Query::Source { .. } => {
            let found = scene.extra_text.iter().find_map(|t| {
                let lower = t.text.to_ascii_lowercase();
                lower
                    .find("source:")
                    .map(|i| t.text[i + "source:".len()..].trim().to_string())
            });
            match found {
                Some(s) if !s.is_empty() => Answer::Text { value: s },
                _ => Answer::Unanswerable,
            }
        }
        other => {
            return Err(Refusal::new(
                RefusalKind::Unsupported,
                format!("{} is not a panel descriptive query", super::family(other)),
            ));
        }
    })
}

pub(crate) fn figure(query: &Query, scene: &Scene) -> Result<Answer, Refusal> {
    Ok(match query {
        Query::SubplotLayout => Answer::Text {
            value: format!("{} by {}", scene.grid.0, scene.grid.1),
        },
        Query::SubplotCount => number(scene.panels.len() as f64, 0, None)?,
        Query::KpiValue { label } => {
            let tiles: Vec<_> = scene
                .kpis
                .iter()
                .filter(|k| k.label.trim().eq_ignore_ascii_case(label.trim()))
                .collect();
            match tiles.as_slice() {
                [] => Answer::Unanswerable,
                [one] => tick_answer(&one.value),
                _ => {
                    return Err(Refusal::new(
                        RefusalKind::Tie,
                        "several tiles share this caption",
                    ));
                }
            }
        }
        _ => {
            return Err(Refusal::new(
                RefusalKind::Unsupported,
                "not a figure-level query",
            ));
        }
    })
}
