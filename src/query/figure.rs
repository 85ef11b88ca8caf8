//! Figure families: questions about a lettered figure as a whole, citing its
//! panels by the letters printed on them, as papers do.

use super::{Refusal, RefusalKind};
use crate::ir::{Answer, ChartSpec, Query, Scene};

fn unsupported(message: &str) -> Refusal {
    Refusal::new(RefusalKind::Unsupported, message.to_string())
}

/// The highest (or lowest) drawn value of each panel's series, in panel order.
pub fn panel_extremes(spec: &ChartSpec, max: bool) -> Vec<Option<f64>> {
    spec.panels()
        .iter()
        .map(|p| {
            let values = p
                .series
                .iter()
                .flat_map(|s| (0..p.table.n_rows()).filter_map(move |r| p.table.value(s, r)));
            values.fold(None, |acc: Option<f64>, v| {
                Some(match acc {
                    None => v,
                    Some(a) if max => a.max(v),
                    Some(a) => a.min(v),
                })
            })
        })
        .collect()
}

pub fn execute(query: &Query, spec: &ChartSpec, scene: &Scene) -> Result<Answer, Refusal> {
    let Some(figure) = &scene.figure else {
        return Err(unsupported("not a lettered figure"));
    };
    match query {
        Query::PanelCount => super::data::number(figure.letters.len() as f64, 0, None),
        Query::PanelExtreme { .. } if !figure.shared_values => Err(unsupported(
            "the panels have their own value axes (different units): their heights do not compare",
        )),
        Query::PanelExtreme { max } => {
            let extremes = panel_extremes(spec, *max);
            let mut best: Option<(usize, f64)> = None;
            let mut tie = false;
            for (i, v) in extremes.iter().enumerate() {
                let Some(v) = *v else { continue };
                match best {
                    Some((_, b)) if v == b => tie = true,
                    Some((_, b)) if (v > b) != *max => {}
                    _ => {
                        best = Some((i, v));
                        tie = false;
                    }
                }
            }
            let (panel, _) = best.ok_or_else(|| unsupported("no panel draws a value"))?;
            if tie {
                return Err(Refusal::new(
                    RefusalKind::Tie,
                    "two panels share the extreme value",
                ));
            }
            let letter = figure
                .letters
                .get(panel)
                .ok_or_else(|| unsupported("the panel has no printed letter"))?;
            Ok(Answer::Text {
                value: letter.text.clone(),
            })
        }
        other => Err(unsupported(&format!(
            "{} is not a figure query",
            super::family(other)
        ))),
    }
}
