//! Non-zero baseline: the value axis no longer starts at zero.

use super::util::ramp;
use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::ChartSpec;

pub struct Baseline;

impl Perturbation for Baseline {
    fn info(&self) -> Info {
        Info {
            name: "baseline",
            axis: "axis",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "value axis starts near the data minimum, not zero",
                "non-zero baseline; grid lines removed",
                "non-zero baseline; no grid, at most 4 value ticks",
                "non-zero baseline; no grid, at most 4 ticks, no tick marks",
                "non-zero baseline; no grid, 3 ticks, no tick marks",
            ],
        }
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let level = super::level("baseline", severity).ok()?;
        let panels = spec.panels();
        let first = panels.first()?;
        if !first.style.zero_baseline || !super::util::has_value_axis(first.kind) {
            return None;
        }
        let out = super::restyle(spec, |s| {
            s.zero_baseline = false;
            ramp(s, level);
        });
        Some(Applied::new(out).param("zero_baseline", false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perturb::util::testing;

    #[test]
    fn drops_zero_baseline() {
        let ctx = ChartContext {
            seed: 0,
            themes: &[],
            distractors: &[],
        };
        let out = Baseline.apply_spec(&testing::bar(), 3, &ctx).unwrap().value;
        let style = testing::panel_style(&out);
        assert!(!style.zero_baseline);
        assert!(style.tick_count <= 4);
        assert!(Baseline.apply_spec(&out, 1, &ctx).is_none());
    }
}
