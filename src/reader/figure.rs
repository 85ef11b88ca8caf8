//! Figure questions read off the picture: which lettered panel reaches the
//! highest or lowest value, from each panel's marks read through its own
//! printed ticks, named by the letter printed on it.

use super::sight::{Edit, Sight};
use super::{Interval, Stop, Value, View, unreadable};
use crate::ir::Scene;

/// The letter of the panel whose series reaches the highest (`max`) or
/// lowest reading, when its reading clears every other panel's.
pub(super) fn extreme_panel(
    max: bool,
    scene: &Scene,
    view: &View,
    edit: Option<Edit>,
) -> Result<Value, Stop> {
    if edit.is_some() {
        return Err(unreadable("unsupported", "a changed figure"));
    }
    let figure = scene
        .figure
        .as_ref()
        .ok_or_else(|| unreadable("unsupported", "not a lettered figure"))?;
    if !figure.shared_values {
        return Err(unreadable(
            "unsupported",
            "panels in different units do not compare",
        ));
    }
    let mut readings: Vec<(usize, Interval)> = Vec::new();
    for p in &scene.panels {
        let sight = Sight::new(p, view);
        let mut extreme: Option<Interval> = None;
        for series in sight.drawn() {
            for (_, v) in sight.column(series)? {
                extreme = Some(match extreme {
                    None => v,
                    Some(e) if max => e.max(v),
                    Some(e) => e.min(v),
                });
            }
        }
        if let Some(e) = extreme {
            readings.push((p.index, e));
        }
    }
    let beats = |a: Interval, b: Interval| if max { a.above(b) } else { b.above(a) };
    let winner = readings
        .iter()
        .find(|(i, v)| readings.iter().all(|(j, o)| i == j || beats(*v, *o)))
        .ok_or_else(|| {
            unreadable(
                "too_close",
                "two panels' extremes cannot be told apart at reading precision",
            )
        })?;
    let letter = figure
        .letters
        .get(winner.0)
        .filter(|l| view.legible(&l.bbox))
        .ok_or_else(|| unreadable("text_illegible", "the panel letter cannot be read"))?;
    Ok(Value::Text(letter.text.clone()))
}
