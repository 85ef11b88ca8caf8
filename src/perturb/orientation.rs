//! Orientation swap: vertical bars become horizontal and back.

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
}
