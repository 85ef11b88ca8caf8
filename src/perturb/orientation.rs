//! Orientation swap: vertical bars become horizontal and back. The axis
//! titles travel with their axes: the category title stays on the category
//! axis and the value title on the value axis (the renderer draws `x_label`
//! at the bottom and `y_label` on the left whatever the orientation). The
//! value axis keeps its number format and grid (the renderer turns the grid
//! with the value axis).

use super::util::ramp;
use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartKind, ChartSpec};

pub struct Orientation;

impl Perturbation for Orientation {
    fn info(&self) -> Info {
        Info {
            name: "orientation",
            axis: "axis",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "bar ↔ horizontal bar",
                "orientation swapped; grid lines removed",
                "orientation swapped; no grid, at most 4 value ticks",
                "orientation swapped; no grid, at most 4 ticks, no tick marks",
                "orientation swapped; no grid, 3 ticks, no tick marks",
            ],
        }
    }

    fn not_for(&self, kind: ChartKind) -> Option<&'static str> {
        (!matches!(kind, ChartKind::Bar | ChartKind::HorizontalBar))
            .then_some("only bars have a kind drawing them turned by 90 degrees")
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let level = super::level("orientation", severity).ok()?;
        let mut out = super::restyle(spec, |s| ramp(s, level));
        let mut swapped = None;
        for panel in out.panels_mut() {
            let new = match panel.kind {
                ChartKind::Bar => ChartKind::HorizontalBar,
                ChartKind::HorizontalBar => ChartKind::Bar,
                _ => continue,
            };
            panel.kind = new;
            std::mem::swap(&mut panel.x_label, &mut panel.y_label);
            swapped.get_or_insert(new);
        }
        let kind = swapped?;
        Some(Applied::new(out).param("kind", kind.name()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perturb::util::testing;

    #[test]
    fn swaps_bars_only() {
        let ctx = ChartContext {
            seed: 0,
            themes: &[],
            distractors: &[],
        };
        let out = Orientation
            .apply_spec(&testing::bar(), 1, &ctx)
            .unwrap()
            .value;
        assert_eq!(out.panels()[0].kind, ChartKind::HorizontalBar);
        let back = Orientation.apply_spec(&out, 1, &ctx).unwrap().value;
        assert_eq!(back.panels()[0].kind, ChartKind::Bar);
        assert!(
            Orientation
                .apply_spec(&testing::grouped_years(), 1, &ctx)
                .is_none()
        );
    }

    #[test]
    fn axis_titles_follow_their_axes_in_the_scene() {
        let ctx = ChartContext {
            seed: 0,
            themes: &[],
            distractors: &[],
        };
        let mut spec = testing::bar();
        spec.panels_mut()[0].x_label = Some("Region".into());
        spec.panels_mut()[0].y_label = Some("Sales ($)".into());
        let title = |t: &Option<crate::ir::TextBox>| t.as_ref().map(|b| b.text.clone());
        for severity in 1..=5 {
            let out = Orientation.apply_spec(&spec, severity, &ctx).unwrap().value;
            let (_, scene) = crate::perturb::util::drawn(&out).unwrap();
            let p = &scene.panels[0];
            // Horizontal bars: values along the bottom, categories on the left.
            assert!(p.x_ticks.iter().all(|t| t.value.is_some()) && !p.x_ticks.is_empty());
            assert!(p.y_ticks.iter().all(|t| t.value.is_none()) && !p.y_ticks.is_empty());
            assert_eq!(title(&p.x_label).as_deref(), Some("Sales ($)"));
            assert_eq!(title(&p.y_label).as_deref(), Some("Region"));
            // And back again.
            let back = Orientation.apply_spec(&out, 1, &ctx).unwrap().value;
            let (_, scene) = crate::perturb::util::drawn(&back).unwrap();
            let p = &scene.panels[0];
            assert!(p.y_ticks.iter().all(|t| t.value.is_some()));
            assert_eq!(title(&p.x_label).as_deref(), Some("Region"));
            assert_eq!(title(&p.y_label).as_deref(), Some("Sales ($)"));
        }
    }
}
