//! Legend moved to another corner or outside the plot.

use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartSpec, LegendPlacement};

pub struct LegendMoved;

const PLACES: [LegendPlacement; 5] = [
    LegendPlacement::TopLeft,
    LegendPlacement::BottomRight,
    LegendPlacement::Right,
    LegendPlacement::Bottom,
    LegendPlacement::Top,
];

fn name(p: LegendPlacement) -> String {
    serde_json::to_value(p)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

impl Perturbation for LegendMoved {
    fn info(&self) -> Info {
        Info {
            name: "legend_moved",
            axis: "legend",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "legend in the top-left corner of the plot",
                "legend in the bottom-right corner of the plot",
                "legend outside, right of the plot",
                "legend outside, below the plot, horizontal",
                "legend outside, above the plot, horizontal",
            ],
        }
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let level = super::level("legend_moved", severity).ok()?;
        if !super::util::has_legend(spec) {
            return None;
        }
        let current = spec.panels().first()?.style.legend;
        // The next place on the ladder when the chart already has this one.
        let place = (0..5)
            .map(|i| PLACES[(level + i) % 5])
            .find(|p| *p != current)?;
        let out = super::restyle(spec, |s| s.legend = place);
        Some(Applied::new(out).param("legend", name(place)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perturb::util::testing;

    #[test]
    fn moves_only_existing_legends() {
        let ctx = ChartContext {
            seed: 0,
            themes: &[],
            distractors: &[],
        };
        assert!(LegendMoved.apply_spec(&testing::bar(), 1, &ctx).is_none());
        let out = LegendMoved
            .apply_spec(&testing::grouped_years(), 3, &ctx)
            .unwrap();
        assert_eq!(
            testing::panel_style(&out.value).legend,
            LegendPlacement::Right
        );
        assert_eq!(out.params["legend"], "right");
    }
}
