//! Tick density: fewer value-axis ticks over the same span with each level
//! (more ticks would make the reading easier, not harder). Applies only when
//! the axes print fewer ticks on the same scale (the same range, every tick
//! where the original would place it) and every mark still fits the plot.

use super::util::{drawn, keep_spans, marks_outside, numeric_tick_labels, numeric_ticks};
use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::ChartSpec;

pub struct TickDensity;

const COUNTS: [u32; 5] = [5, 4, 3, 3, 2];

impl Perturbation for TickDensity {
    fn info(&self) -> Info {
        Info {
            name: "tick_density",
            axis: "axis",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "about 5 value ticks over the same span (only where fewer print)",
                "about 4 value ticks",
                "about 3 value ticks",
                "about 3 value ticks, the coarsest even step",
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
        let restyled = super::restyle(spec, |s| s.tick_count = count);
        if restyled == *spec {
            return None;
        }
        // The same axes at another density: each keeps its printed range.
        let (_, before) = drawn(spec)?;
        let out = keep_spans(&restyled, &before);
        let (_, after) = drawn(&out)?;
        let counts = |s: &crate::ir::Scene| -> Vec<usize> {
            numeric_ticks(s).iter().map(Vec::len).collect()
        };
        let (was, now) = (counts(&before), counts(&after));
        let fewer = was.len() == now.len()
            && now.iter().zip(&was).all(|(n, w)| n <= w)
            && now.iter().zip(&was).any(|(n, w)| n < w);
        let changed = numeric_tick_labels(&after) != numeric_tick_labels(&before);
        (changed
            && fewer
            && same_scale(&before, &after)
            && marks_outside(&after) <= marks_outside(&before))
        .then(|| {
            // What the chart shows, not what was asked of the tick chooser:
            // a span that fits no nice step at the asked count gets a nearby one.
            let drawn = now.iter().copied().max().unwrap_or(0);
            Applied::new(out)
                .param("tick_count", drawn)
                .param("requested", count)
        })
    }
}

/// Whether every numeric axis keeps its range: each tick of `after` sits
/// where `before`'s ticks place its value, as a share of the plot area
/// (which may grow a few pixels where an end label no longer prints).
fn same_scale(before: &crate::ir::Scene, after: &crate::ir::Scene) -> bool {
    let along = |p: &crate::ir::PanelScene, x: bool, pos: f32| {
        let a = &p.plot_area;
        if x {
            f64::from((pos - a.x) / a.w.max(1.0))
        } else {
            f64::from((pos - a.y) / a.h.max(1.0))
        }
    };
    let valued = |p: &crate::ir::PanelScene, x: bool| -> Vec<(f64, f64)> {
        let ticks = if x { &p.x_ticks } else { &p.y_ticks };
        ticks
            .iter()
            .filter_map(|t| t.value.map(|v| (v, along(p, x, t.pos))))
            .collect()
    };
    let keeps = |a: &crate::ir::PanelScene, b: &crate::ir::PanelScene, x: bool| {
        let (before, after) = (valued(a, x), valued(b, x));
        match (before.first(), before.last()) {
            _ if before.is_empty() && after.is_empty() => true,
            (Some(&(v0, f0)), Some(&(v1, f1))) if v1 > v0 => after
                .iter()
                .all(|(v, f)| (f0 + (v - v0) / (v1 - v0) * (f1 - f0) - f).abs() <= 0.01),
            _ => false,
        }
    };
    before.panels.len() == after.panels.len()
        && before
            .panels
            .iter()
            .zip(&after.panels)
            .all(|(a, b)| keeps(a, b, true) && keeps(a, b, false))
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
