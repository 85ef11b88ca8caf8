//! Text furniture perturbations: the subtitle, the note and the source line
//! (docs/charts.md "Text furniture") removed, moved or, for the subtitle,
//! added. Each records what it changed; what a change does to answers is
//! read off the new scene (a removed source line makes the source question
//! unanswerable, so `furniture_removed` is declared breaking).

use rand::seq::IndexedRandom;

use super::util::drawn;
use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartSpec, Layout, Scene};

/// The pieces of furniture a drawing prints, by name.
fn printed(scene: &Scene) -> Vec<&'static str> {
    let mut out = Vec::new();
    if scene.panels.iter().any(|p| p.subtitle.is_some())
        || scene.figure.as_ref().is_some_and(|f| f.subtitle.is_some())
    {
        out.push("subtitle");
    }
    let starts = |prefix: &str| {
        scene
            .extra_text
            .iter()
            .any(|t| t.text.to_ascii_lowercase().starts_with(prefix))
    };
    if starts("note:") {
        out.push("note");
    }
    if starts("source:") {
        out.push("source");
    }
    out
}

/// Furniture removed: one printed piece (seeded among the subtitle, the
/// note and the source line) is not drawn; higher levels also take away
/// reading aids, as `annotation_removed` does.
pub struct FurnitureRemoved;

impl Perturbation for FurnitureRemoved {
    fn info(&self) -> Info {
        Info {
            name: "furniture_removed",
            axis: "clutter",
            stage: Stage::Spec,
            effect: AnswerEffect::Breaking,
            ladder: [
                "subtitle, note or source line not drawn",
                "one piece of furniture not drawn; grid lines removed",
                "one piece not drawn; no grid, no tick marks",
                "one piece not drawn; no grid, no tick marks, open frame",
                "one piece not drawn; no grid, no tick marks, open frame, thin axes",
            ],
        }
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let level = super::level("furniture_removed", severity).ok()?;
        if !matches!(spec.layout, Layout::Single { .. } | Layout::Figure { .. }) {
            return None;
        }
        let (_, before) = drawn(spec)?;
        let shown = printed(&before);
        let piece = *shown.choose(&mut crate::seed::rng(ctx.seed, &["furniture_removed"]))?;
        let mut out = super::restyle(spec, |s| {
            super::util::ramp(s, level);
            match piece {
                "subtitle" => s.furniture.hide_subtitle = true,
                "note" => s.furniture.hide_note = true,
                _ => {}
            }
        });
        if piece == "source" {
            out.source_line = None;
        }
        let (_, after) = drawn(&out)?;
        if printed(&after).contains(&piece) {
            return None;
        }
        Some(Applied::new(out).param("removed", piece))
    }
}

/// Furniture moved: the note and the source line print in a strip above the
/// chart, right-aligned, instead of under it at the left.
pub struct FurnitureMoved;

impl Perturbation for FurnitureMoved {
    fn info(&self) -> Info {
        Info {
            name: "furniture_moved",
            axis: "clutter",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "note and source line printed at the top right",
                "note and source at the top right; grid lines removed",
                "moved; no grid, no tick marks",
                "moved; no grid, no tick marks, open frame",
                "moved; no grid, no tick marks, open frame, thin axes",
            ],
        }
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let level = super::level("furniture_moved", severity).ok()?;
        if !matches!(spec.layout, Layout::Single { .. } | Layout::Figure { .. })
            || spec.style.furniture.notes_on_top
        {
            return None;
        }
        let (_, before) = drawn(spec)?;
        let moved: Vec<&str> = printed(&before)
            .into_iter()
            .filter(|p| *p != "subtitle")
            .collect();
        if moved.is_empty() {
            return None;
        }
        let out = super::restyle(spec, |s| {
            super::util::ramp(s, level);
            s.furniture.notes_on_top = true;
        });
        Some(Applied::new(out).param("moved", moved.join(",")))
    }
}

/// Subtitle added: a chart printing none gets one stating what its table
/// says about itself — its unit ("In TWh") or, for an ordered index, the
/// span it covers ("2001–2010"). No answer depends on it.
pub struct SubtitleAdded;

impl Perturbation for SubtitleAdded {
    fn info(&self) -> Info {
        Info {
            name: "subtitle_added",
            axis: "clutter",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "a subtitle (the unit or the period covered) under the title",
                "subtitle added; grid lines removed",
                "subtitle added; no grid, no tick marks",
                "subtitle added; no grid, no tick marks, open frame",
                "subtitle added; no grid, no tick marks, open frame, thin axes",
            ],
        }
    }

    fn not_for(&self, kind: crate::ir::ChartKind) -> Option<&'static str> {
        (kind == crate::ir::ChartKind::Histogram)
            .then_some("a histogram counts observations in bins: no unit or period to state")
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let level = super::level("subtitle_added", severity).ok()?;
        let Layout::Single { panel } = &spec.layout else {
            return None;
        };
        if panel.subtitle_text().is_some() || panel.title.is_none() {
            return None;
        }
        let table = &panel.table;
        let text = match table.meta.unit.as_deref().map(str::trim) {
            Some(unit) if !unit.is_empty() => format!("In {unit}"),
            _ if crate::spec::is_ordered_index(table) && table.n_rows() >= 2 => {
                let labels = table.category_labels();
                format!("{}–{}", labels.first()?, labels.last()?)
            }
            _ => return None,
        };
        let mut out = super::restyle(spec, |s| {
            super::util::ramp(s, level);
            s.furniture.hide_subtitle = false;
        });
        if let Layout::Single { panel } = &mut out.layout {
            panel.subtitle = Some(text.clone());
        }
        let (_, after) = drawn(&out)?;
        if !printed(&after).contains(&"subtitle") {
            return None;
        }
        Some(Applied::new(out).param("subtitle", text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Answer, Query};
    use crate::perturb::util::testing;

    fn furnished() -> ChartSpec {
        let mut spec = testing::grouped_years();
        spec.source_line = Some("World Bank".into());
        if let Layout::Single { panel } = &mut spec.layout {
            panel.table.meta.subtitle = Some("Two regions".into());
            panel.table.meta.footnote = Some("Provisional figures".into());
        }
        spec
    }

    fn answer(q: &Query, spec: &ChartSpec) -> Answer {
        let (_, scene) = drawn(spec).unwrap();
        crate::query::execute(q, spec, &scene).unwrap_or(Answer::Unanswerable)
    }

    #[test]
    fn removing_each_piece_makes_only_its_question_unanswerable() {
        let spec = furnished();
        let questions = [
            ("subtitle", Query::Subtitle { panel: 0 }),
            ("note", Query::Note { panel: 0 }),
            ("source", Query::Source { panel: 0 }),
        ];
        for (_, q) in &questions {
            assert_ne!(answer(q, &spec), Answer::Unanswerable, "{q:?}");
        }
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..40 {
            let ctx = crate::perturb::ChartContext {
                seed,
                ..testing::ctx()
            };
            let out = FurnitureRemoved.apply_spec(&spec, 1, &ctx).unwrap();
            let removed = out.params["removed"].as_str().unwrap().to_string();
            for (name, q) in &questions {
                let now = answer(q, &out.value);
                if *name == removed {
                    assert_eq!(now, Answer::Unanswerable, "{name} removed");
                } else {
                    assert_eq!(now, answer(q, &spec), "{name} kept when {removed} goes");
                }
            }
            seen.insert(removed);
        }
        assert_eq!(seen.len(), 3, "every piece gets removed for some seed");
        assert!(
            FurnitureRemoved
                .apply_spec(&testing::bar(), 1, &testing::ctx())
                .is_none()
        );
    }

    #[test]
    fn moved_notes_print_above_the_plot_with_the_same_text() {
        let spec = furnished();
        let out = FurnitureMoved
            .apply_spec(&spec, 1, &testing::ctx())
            .unwrap();
        assert_eq!(out.params["moved"], "note,source");
        let (_, before) = drawn(&spec).unwrap();
        let (_, after) = drawn(&out.value).unwrap();
        let plot_top = after.panels[0].plot_area.y;
        for t in &after.extra_text {
            assert!(t.bbox.bottom() <= plot_top, "{} above the plot", t.text);
        }
        let texts = |s: &Scene| -> Vec<String> {
            let mut v: Vec<String> = s.extra_text.iter().map(|t| t.text.clone()).collect();
            v.sort();
            v
        };
        assert_eq!(texts(&before), texts(&after));
        for q in [Query::Note { panel: 0 }, Query::Source { panel: 0 }] {
            assert_eq!(answer(&q, &spec), answer(&q, &out.value));
        }
    }

    #[test]
    fn an_added_subtitle_states_the_period() {
        let spec = testing::grouped_years();
        let out = SubtitleAdded.apply_spec(&spec, 1, &testing::ctx()).unwrap();
        assert_eq!(out.params["subtitle"], "2000–2002");
        assert_eq!(
            answer(&Query::Subtitle { panel: 0 }, &out.value),
            Answer::Text {
                value: "2000–2002".into()
            }
        );
        assert!(
            SubtitleAdded
                .apply_spec(&furnished(), 1, &testing::ctx())
                .is_none()
        );
    }
}
