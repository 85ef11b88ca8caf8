//! Log scale on the value axis, only where valid (every drawn value positive).

use super::util::ramp;
use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartKind, ChartSpec};

pub struct LogScale;

impl Perturbation for LogScale {
    fn info(&self) -> Info {
        Info {
            name: "log_scale",
            axis: "axis",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "logarithmic value axis",
                "log axis; grid lines removed",
                "log axis; no grid, at most 4 value ticks",
                "log axis; no grid, at most 4 ticks, no tick marks",
                "log axis; no grid, 3 ticks, no tick marks",
            ],
        }
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let level = super::level("log_scale", severity).ok()?;
        // Stacks and slices have no meaningful log reading.
        let kinds_ok = spec.panels().iter().all(|p| {
            matches!(
                p.kind,
                ChartKind::Bar
                    | ChartKind::HorizontalBar
                    | ChartKind::GroupedBar
                    | ChartKind::Lollipop
                    | ChartKind::Line
                    | ChartKind::Scatter
            )
        });
        let already = spec.panels().first()?.style.log_scale;
        if !kinds_ok || already || !super::util::all_drawn_values_positive(spec) {
            return None;
        }
        let out = super::restyle(spec, |s| {
            s.log_scale = true;
            ramp(s, level);
        });
        Some(Applied::new(out).param("log_scale", true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perturb::util::testing;

    #[test]
    fn only_for_positive_values() {
        let ctx = ChartContext {
            seed: 0,
            themes: &[],
            distractors: &[],
        };
        assert!(LogScale.apply_spec(&testing::bar(), 1, &ctx).is_some());
        let negative = testing::single(
            testing::table("neg", &[("v", &[1.0, -2.0])], false),
            ChartKind::Bar,
        );
        assert!(LogScale.apply_spec(&negative, 1, &ctx).is_none());
        let stacked = testing::single(
            testing::table("st", &[("a", &[1.0, 2.0]), ("b", &[1.0, 2.0])], false),
            ChartKind::StackedBar,
        );
        assert!(LogScale.apply_spec(&stacked, 1, &ctx).is_none());
    }
}
