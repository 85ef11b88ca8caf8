//! Descriptive families (CharXiv's set), answered only from what the Scene says was drawn.

use std::collections::BTreeMap;

use super::data::{crossing, decimal_number, number};
use super::trend::classify_trend;
use super::{Ctx, Refusal, RefusalKind};
use crate::ir::decimal::{Decimal, parse_decimal};
use crate::ir::query::{Axis, Query};
use crate::ir::{Answer, ChartKind, MarkKind, PanelScene, Scene, Tick};

/// A chart element that is not drawn (no title, no legend, ticks that are
/// not numbers) cannot be read off the chart, like an entity that is not
/// drawn: one answer for both, so models are asked one thing.
fn not_applicable() -> Answer {
    Answer::Unanswerable
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

/// A tick label's number in decimal: "0.005", "5e-3", "1.25k", "-$1,000",
/// "20%". None when the label is not a number or its number is not the
/// tick's value (a unit read as a scale word, a rounded short label).
fn label_value(label: &str, value: Option<f64>) -> Option<Decimal> {
    let t = label.trim().replace('\u{2212}', "-");
    let (negative, rest) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.as_str()),
    };
    // A currency prefix, then the number itself.
    let rest = rest.trim_start_matches(|c: char| !c.is_ascii_digit() && c != '.');
    let end = rest
        .char_indices()
        .find(|&(i, c)| {
            let exponent = matches!(c, 'e' | 'E')
                && rest[i + 1..]
                    .trim_start_matches('-')
                    .starts_with(|d: char| d.is_ascii_digit());
            !(c.is_ascii_digit() || c == '.' || c == ',' || exponent || (c == '-' && i > 0))
        })
        .map_or(rest.len(), |(i, _)| i);
    let (number, after) = rest.split_at(end);
    let shift = match after.chars().next() {
        Some('k') => 3,
        Some('M') => 6,
        Some('B') => 9,
        Some('T') => 12,
        _ => 0,
    };
    let mut d = parse_decimal(number)?.times(Decimal::from_int(10i64.pow(shift)));
    if negative {
        d = d.negate();
    }
    match value {
        Some(v) if (d.to_f64() - v).abs() > 1e-9 * v.abs().max(1e-300) => None,
        _ => Some(d),
    }
}

/// Constant step between consecutive values: equal in decimal, or within a
/// millionth of each other when `tolerant` (values computed in binary).
fn constant_step(values: &[Decimal], tolerant: bool) -> Option<Decimal> {
    let steps: Vec<Decimal> = values.windows(2).map(|w| w[1].minus(w[0])).collect();
    let first = *steps.first()?;
    let same = |s: &Decimal| {
        if tolerant {
            (s.to_f64() - first.to_f64()).abs() <= 1e-6 * first.to_f64().abs()
        } else {
            s.cmp_value(&first) == std::cmp::Ordering::Equal
        }
    };
    (!first.is_zero() && steps.iter().all(same)).then(|| first.abs())
}

/// The step between ticks as their labels print them, in decimal (ticks 0,
/// 0.005, 0.01 step by 0.005). Labels rounded off their values ("1.13k" for
/// 1125) fall back to the recorded values, read as their shortest decimals.
fn tick_step(ticks: &[Tick]) -> Option<Decimal> {
    if ticks.len() < 2 {
        return None;
    }
    let labels: Option<Vec<Decimal>> = ticks
        .iter()
        .map(|t| {
            (t.value.is_some() || is_plain_number(&t.label))
                .then(|| label_value(&t.label, t.value))
                .flatten()
        })
        .collect();
    if let Some(step) = labels.as_deref().and_then(|l| constant_step(l, false)) {
        return Some(step);
    }
    // Labels that repeat ("0.0", "0.0") show no step, whatever the values.
    let printed: Vec<Decimal> = ticks
        .iter()
        .filter_map(|t| label_value(&t.label, None))
        .collect();
    if printed
        .windows(2)
        .any(|w| w[0].cmp_value(&w[1]) == std::cmp::Ordering::Equal)
    {
        return None;
    }
    let values: Option<Vec<Decimal>> = ticks
        .iter()
        .map(|t| {
            t.value
                .filter(|v| v.is_finite())
                .map(Decimal::from_f64)
                .or_else(|| {
                    is_plain_number(&t.label)
                        .then(|| label_value(&t.label, None))
                        .flatten()
                })
        })
        .collect();
    constant_step(&values?, true)
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
        Query::TickStep { axis, .. } => match tick_step(ticks(p, *axis)) {
            Some(step) => {
                let decimals = u8::try_from(step.decimals()).unwrap_or(u8::MAX);
                decimal_number(step, decimals, None)?
            }
            None => not_applicable(),
        },
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
            if !matches!(
                p.kind,
                ChartKind::Line | ChartKind::Bar | ChartKind::Area | ChartKind::Lollipop
            ) {
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
        // A dual-axis chart's series are read on the axis the scene records.
        Query::SeriesAxis { series, .. } => match &p.dual_axis {
            Some(d) if d.left_series == *series => text("left"),
            Some(d) if d.right_series == *series => text("right"),
            _ => not_applicable(),
        },
        Query::ColorbarTick { last, .. } => {
            let ticks = p.heatmap.as_ref().map(|h| &h.colorbar.ticks);
            let tick = ticks.and_then(|t| if *last { t.last() } else { t.first() });
            match tick {
                Some(t) => tick_answer(&t.label),
                None => not_applicable(),
            }
        }
        Query::Source { .. } => printed_after(scene, "source:"),
        Query::Note { .. } => printed_after(scene, "note:"),
        // A figure prints its subtitle once, under the figure title.
        Query::Subtitle { .. } => match p
            .subtitle
            .as_ref()
            .or(scene.figure.as_ref().and_then(|f| f.subtitle.as_ref()))
        {
            Some(t) if !t.text.trim().is_empty() => text(t.text.trim()),
            _ => Answer::Unanswerable,
        },
        other => {
            return Err(Refusal::new(
                RefusalKind::Unsupported,
                format!("{} is not a panel descriptive query", super::family(other)),
            ));
        }
    })
}

/// The text printed after `prefix` ("source:", "note:") under the figure,
/// as drawn; unanswerable when the figure prints none.
fn printed_after(scene: &Scene, prefix: &str) -> Answer {
    let found = scene.extra_text.iter().find_map(|t| {
        let lower = t.text.to_ascii_lowercase();
        lower
            .find(prefix)
            .map(|i| t.text[i + prefix.len()..].trim().to_string())
    });
    match found {
        Some(s) if !s.is_empty() => Answer::Text { value: s },
        _ => Answer::Unanswerable,
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::BBox;

    fn tick(label: &str, value: Option<f64>) -> Tick {
        Tick {
            label: label.into(),
            value,
            pos: 0.0,
            bbox: BBox::default(),
            category: None,
        }
    }

    fn step_text(ticks: &[Tick]) -> Option<String> {
        let step = tick_step(ticks)?;
        let decimals = u8::try_from(step.decimals()).unwrap();
        match decimal_number(step, decimals, None) {
            Ok(a) => Some(a.to_text()),
            Err(r) => panic!("refused: {r}"),
        }
    }

    #[test]
    fn tick_steps_print_the_decimals_they_need() {
        let t = [
            tick("0", Some(0.0)),
            tick("0.005", Some(0.005)),
            tick("0.01", Some(0.01)),
        ];
        assert_eq!(step_text(&t).as_deref(), Some("0.005"));
        // Labels padded to a common width: the step needs fewer decimals.
        let t = [
            tick("0.00", Some(0.0)),
            tick("0.25", Some(0.25)),
            tick("0.50", Some(0.5)),
        ];
        assert_eq!(step_text(&t).as_deref(), Some("0.25"));
        // Binary tick values (0.1 + 0.2) still step by 0.1 as printed.
        let t = [
            tick("0.1", Some(0.1)),
            tick("0.2", Some(0.2)),
            tick("0.3", Some(0.1 + 0.2)),
        ];
        assert_eq!(step_text(&t).as_deref(), Some("0.1"));
    }

    #[test]
    fn tick_steps_read_short_scientific_and_unit_labels() {
        let t = [
            tick("0", Some(0.0)),
            tick("5e-3", Some(0.005)),
            tick("1e-2", Some(0.01)),
        ];
        assert_eq!(step_text(&t).as_deref(), Some("0.005"));
        let t = [
            tick("0", Some(0.0)),
            tick("2.5k", Some(2500.0)),
            tick("5k", Some(5000.0)),
        ];
        assert_eq!(step_text(&t).as_deref(), Some("2500"));
        let t = [
            tick("-$1,000", Some(-1000.0)),
            tick("$0", Some(0.0)),
            tick("$1,000", Some(1000.0)),
        ];
        assert_eq!(step_text(&t).as_deref(), Some("1000"));
        let t = [tick("0.5%", Some(0.5)), tick("1.0%", Some(1.0))];
        assert_eq!(step_text(&t).as_deref(), Some("0.5"));
        // Short labels rounded off their values: the values decide.
        let t = [
            tick("1k", Some(1000.0)),
            tick("1.13k", Some(1125.0)),
            tick("1.25k", Some(1250.0)),
        ];
        assert_eq!(step_text(&t).as_deref(), Some("125"));
    }

    #[test]
    fn uneven_or_textual_ticks_have_no_step() {
        let t = [
            tick("1", Some(1.0)),
            tick("10", Some(10.0)),
            tick("100", Some(100.0)),
        ];
        assert_eq!(tick_step(&t).map(|d| d.to_string()), None);
        let t = [tick("North", None), tick("South", None)];
        assert!(tick_step(&t).is_none());
        let t = [tick("5", Some(5.0))];
        assert!(tick_step(&t).is_none());
        // Values too close for the labels to tell apart.
        let t = [
            tick("0.0", Some(0.0)),
            tick("0.0", Some(1e-9)),
            tick("0.0", Some(2e-9)),
        ];
        assert!(tick_step(&t).is_none());
    }
}
