//! Tick density: the number of value-axis ticks, further from the default with
//! each level.

use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::ChartSpec;

pub struct TickDensity;

const COUNTS: [u32; 5] = [8, 4, 12, 3, 2];

impl Perturbation for TickDensity {
    fn info(&self) -> Info {
        Info {
            name: "tick_density",
            axis: "axis",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "about 8 value ticks",
                "about 4 value ticks",
                "about 12 value ticks",
                "about 3 value ticks",
                "about 2 value ticks",
            ],
        }
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let count = COUNTS[super::level("tick_density", severity).ok()?];
        if !spec
            .panels()
            .iter()
            .any(|p| super::util::has_value_axis(p.kind))
        {
            return None;
        }
        let out = super::restyle(spec, |s| s.tick_count = count);
        (out != *spec).then(|| Applied::new(out).param("tick_count", count))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::ChartKind;
    use crate::perturb::util::testing;

    #[test]
    fn sets_tick_count_on_axis_charts_only() {
        let ctx = ChartContext {
            seed: 0,
            themes: &[],
            distractors: &[],
        };
        let out = TickDensity.apply_spec(&testing::bar(), 5, &ctx).unwrap();
        assert_eq!(testing::panel_style(&out.value).tick_count, 2);
        let mut pie = testing::shares();
        pie.panels_mut()[0].kind = ChartKind::Pie;
        assert!(TickDensity.apply_spec(&pie, 1, &ctx).is_none());
    }
}
