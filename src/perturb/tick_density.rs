//! Tick density: the number of value-axis ticks, further from the default with
//! each level. Applies only when the set of printed numeric ticks changes.

use super::util::{drawn, numeric_tick_labels};
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
                "about 8 value ticks (only where the printed ticks change)",
                "about 4 value ticks",
                "about 12 value ticks",
                "about 3 value ticks",
                "about 2 value ticks",
            ],
        }
    }

    fn not_for(&self, kind: crate::ir::ChartKind) -> Option<&'static str> {
        if kind == crate::ir::ChartKind::Heatmap {
            Some("a heatmap's axes name categories; its values are read on the colour bar")
        } else if kind.is_circular() {
            Some("slices have no numeric axis")
        } else {
            None
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
        if out == *spec {
            return None;
        }
        let (_, before) = drawn(spec)?;
        let (_, after) = drawn(&out)?;
        let changed = numeric_tick_labels(&after) != numeric_tick_labels(&before);
        changed.then(|| Applied::new(out).param("tick_count", count))
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
        // Every applied level prints another set of ticks.
        for spec in [testing::bar(), testing::grouped_years()] {
            let (_, a) = drawn(&spec).unwrap();
            for severity in 1..=5 {
                if let Some(out) = TickDensity.apply_spec(&spec, severity, &ctx) {
                    let (_, b) = drawn(&out.value).unwrap();
                    assert_ne!(numeric_tick_labels(&a), numeric_tick_labels(&b));
                }
            }
        }
    }
}
