//! Legend removed: series named by direct labels next to their marks, or not
//! at all. Without any series names the item may become unanswerable.

use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartSpec, LegendPlacement};

pub struct LegendRemoved;

impl Perturbation for LegendRemoved {
    fn info(&self) -> Info {
        Info {
            name: "legend_removed",
            axis: "legend",
            stage: Stage::Spec,
            effect: AnswerEffect::Breaking,
            ladder: [
                "legend replaced by direct labels",
                "direct labels at 85% legend text size",
                "direct labels at 70% legend text size",
                "no legend and no direct labels",
                "no legend, no direct labels, grid lines removed",
            ],
        }
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let level = super::level("legend_removed", severity).ok()?;
        if !super::util::has_legend(spec) {
            return None;
        }
        let (place, size) = match level {
            0 => (LegendPlacement::Direct, 1.0),
            1 => (LegendPlacement::Direct, 0.85),
            2 => (LegendPlacement::Direct, 0.7),
            _ => (LegendPlacement::None, 1.0),
        };
        let out = super::restyle(spec, |s| {
            s.legend = place;
            s.legend_size = ((s.legend_size * size * 10.0).round() / 10.0).max(4.0);
            if level == 4 {
                s.grid = crate::ir::GridLines::None;
            }
        });
        let label = if place == LegendPlacement::Direct {
            "direct"
        } else {
            "none"
        };
        Some(Applied::new(out).param("legend", label))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perturb::util::testing;

    #[test]
    fn direct_then_none() {
        let ctx = ChartContext {
            seed: 0,
            themes: &[],
            distractors: &[],
        };
        let spec = testing::grouped_years();
        let direct = LegendRemoved.apply_spec(&spec, 2, &ctx).unwrap().value;
        assert_eq!(
            testing::panel_style(&direct).legend,
            LegendPlacement::Direct
        );
        let none = LegendRemoved.apply_spec(&spec, 4, &ctx).unwrap().value;
        assert_eq!(testing::panel_style(&none).legend, LegendPlacement::None);
    }
}
