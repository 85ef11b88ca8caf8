//! Legend entries reordered (reversed or alphabetical), moved at higher levels.

use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartSpec, LegendOrder, LegendPlacement};

pub struct LegendReordered;

const LEVELS: [(LegendOrder, Option<LegendPlacement>); 5] = [
    (LegendOrder::Reversed, None),
    (LegendOrder::Alphabetical, None),
    (LegendOrder::Reversed, Some(LegendPlacement::Right)),
    (LegendOrder::Alphabetical, Some(LegendPlacement::Bottom)),
    (LegendOrder::Reversed, Some(LegendPlacement::Top)),
];

impl Perturbation for LegendReordered {
    fn info(&self) -> Info {
        Info {
            name: "legend_reordered",
            axis: "legend",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "legend entries in reverse order",
                "legend entries in alphabetical order",
                "reversed, legend outside right",
                "alphabetical, legend outside below",
                "reversed, legend outside above",
            ],
        }
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let (order, place) = LEVELS[super::level("legend_reordered", severity).ok()?];
        let legend = spec.panels().first()?.style.legend;
        let shown = !matches!(legend, LegendPlacement::None | LegendPlacement::Direct);
        if !super::util::has_legend(spec) || !shown {
            return None;
        }
        let out = super::restyle(spec, |s| {
            s.legend_order = order;
            if let Some(p) = place {
                s.legend = p;
            }
        });
        (out != *spec).then(|| {
            Applied::new(out).param(
                "legend_order",
                serde_json::to_value(order).unwrap_or_default(),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perturb::util::testing;

    #[test]
    fn reorders() {
        let ctx = ChartContext {
            seed: 0,
            themes: &[],
            distractors: &[],
        };
        let out = LegendReordered
            .apply_spec(&testing::grouped_years(), 2, &ctx)
            .unwrap();
        assert_eq!(
            testing::panel_style(&out.value).legend_order,
            LegendOrder::Alphabetical
        );
    }
}
