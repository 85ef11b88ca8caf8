//! Annotation questions as a careful reader answers them: the reference
//! line's value from its printed label, the highlighted bar as the one bar in
//! a colour of its own, the shaded period from the printed ticks inside the
//! band, the callout's target as the mark under its arrow's tip; categories
//! only through their printed tick labels.

use super::{Stop, Value, unreadable};
use crate::ir::query::Query;
use crate::ir::{Answer, BBox, PanelScene};

use super::view::View;

fn legible(view: &View, b: &BBox) -> Result<(), Stop> {
    if view.legible(b) {
        Ok(())
    } else {
        Err(unreadable(
            "text_illegible",
            "the annotation's text is too small to read",
        ))
    }
}

/// The printed x tick naming the mark at pixel `x`, legible.
fn tick_at(p: &PanelScene, view: &View, x: f32, half_slot: f32) -> Result<String, Stop> {
    let tick = p
        .x_ticks
        .iter()
        .filter(|t| (t.pos - x).abs() <= half_slot)
        .min_by(|a, b| (a.pos - x).abs().total_cmp(&(b.pos - x).abs()))
        .ok_or_else(|| unreadable("category_unlabelled", "no printed label under the mark"))?;
    legible(view, &tick.bbox)?;
    Ok(tick.label.clone())
}

fn absent() -> Stop {
    Stop::Absent("the chart draws no such annotation".into())
}

pub(super) fn evaluate(query: &Query, p: &PanelScene, view: &View) -> Result<Value, Stop> {
    let a = p.annotation.as_ref();
    match query {
        Query::ReferenceValue { .. } => {
            let label = a
                .filter(|a| a.kind == "reference_line")
                .and_then(|a| a.label.as_ref())
                .ok_or_else(absent)?;
            legible(view, &label.bbox)?;
            let (value, decimals) = crate::query::annotation::printed_value(&label.text)
                .ok_or_else(|| unreadable("unsupported", "the label prints no number"))?;
            Ok(Value::Exact(Answer::Number {
                value,
                decimals,
                unit: None,
            }))
        }
        Query::Highlighted { .. } => {
            if a.is_none_or(|a| a.kind != "highlight") {
                return Err(absent());
            }
            // The one mark whose colour no other mark shares, all others alike.
            let alone: Vec<_> = p
                .marks
                .iter()
                .filter(|m| {
                    p.marks
                        .iter()
                        .filter(|o| o.color.hex == m.color.hex)
                        .count()
                        == 1
                })
                .collect();
            let others_alike = p
                .marks
                .iter()
                .filter(|m| alone.first().is_none_or(|a| a.color.hex != m.color.hex))
                .map(|m| &m.color.hex)
                .collect::<std::collections::BTreeSet<_>>()
                .len()
                == 1;
            match alone.as_slice() {
                [m] if others_alike => {
                    let (cx, _) = m.bbox.center();
                    Ok(Value::Cat(tick_at(p, view, cx, slot_half(p))?))
                }
                _ => Err(unreadable(
                    "not_singled_out",
                    "no single bar stands out by colour",
                )),
            }
        }
        Query::CalloutTarget { .. } => {
            let a = a.filter(|a| a.kind == "callout").ok_or_else(absent)?;
            if let Some(l) = &a.label {
                legible(view, &l.bbox)?;
            }
            let (tx, ty) = a
                .tip
                .ok_or_else(|| unreadable("unsupported", "an arrow without a tip"))?;
            // The mark straight under the tip.
            let m = p
                .marks
                .iter()
                .filter(|m| {
                    tx >= m.bbox.x - 1.0 && tx <= m.bbox.right() + 1.0 && m.bbox.y >= ty - 2.0
                })
                .min_by(|a, b| (a.bbox.y - ty).total_cmp(&(b.bbox.y - ty)))
                .ok_or_else(|| unreadable("no_target", "the arrow points at no mark"))?;
            let (cx, _) = m.bbox.center();
            Ok(Value::Cat(tick_at(p, view, cx, slot_half(p))?))
        }
        Query::ShadedPeriod { .. } => {
            let a = a.filter(|a| a.kind == "band").ok_or_else(absent)?;
            let b = a.bbox;
            let inside = |x: f32| x > b.x && x < b.right();
            let ticks: Vec<_> = p.x_ticks.iter().filter(|t| inside(t.pos)).collect();
            // Every slot under the band must carry its printed label.
            let mut slots: Vec<i64> = p
                .marks
                .iter()
                .map(|m| (m.bbox.center().0 * 2.0).round() as i64)
                .filter(|x| inside(*x as f32 / 2.0))
                .collect();
            slots.sort_unstable();
            slots.dedup_by(|x, y| (*x - *y).abs() <= 2);
            match (ticks.first(), ticks.last()) {
                (Some(first), Some(last)) if ticks.len() == slots.len() => {
                    legible(view, &first.bbox)?;
                    legible(view, &last.bbox)?;
                    Ok(Value::Exact(Answer::List {
                        values: vec![first.label.clone(), last.label.clone()],
                    }))
                }
                _ => Err(unreadable(
                    "category_unlabelled",
                    "the band's ends are not both labelled",
                )),
            }
        }
        _ => Err(unreadable("unsupported", "not an annotation question")),
    }
}

/// Half the spacing of the printed x ticks (a category's slot).
fn slot_half(p: &PanelScene) -> f32 {
    let gaps: Vec<f32> = p
        .x_ticks
        .windows(2)
        .map(|w| (w[1].pos - w[0].pos).abs())
        .collect();
    gaps.into_iter()
        .fold(f32::INFINITY, f32::min)
        .min(p.plot_area.w)
        / 2.0
}

/// The threshold a count above the reference line is read against: the
/// value its label prints.
pub(super) fn reference_threshold(p: &PanelScene, view: &View) -> Result<f64, Stop> {
    match evaluate(&Query::ReferenceValue { panel: p.index }, p, view)? {
        Value::Exact(Answer::Number { value, .. }) => Ok(value),
        _ => Err(absent()),
    }
}
