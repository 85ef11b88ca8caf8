//! Log scale on the value axis, only where valid (every drawn value positive)
//! and useful (the values span a factor of ten or more).

use super::util::ramp_axis;
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
                "logarithmic value axis (positive values spanning a factor of ten or more)",
                "log axis; grid lines removed",
                "log axis; no grid, at most 4 value ticks",
                "log axis; no grid, at most 4 ticks, no tick marks",
                "log axis; no grid, 3 ticks, no tick marks",
            ],
        }
    }

    fn not_for(&self, kind: ChartKind) -> Option<&'static str> {
        use ChartKind::*;
        match kind {
            Bar | HorizontalBar | GroupedBar | Lollipop | Line | Scatter => None,
            StackedBar | StackedArea | PercentStackedBar | Waterfall => {
                Some("stacked parts and running totals have no log reading")
            }
            Pie | Donut | Radar => Some("values grow from a centre: a log scale has no zero there"),
            DivergingBar => Some("values lie on both sides of zero"),
            Heatmap => Some("values are colours on a scale, with no value axis"),
            Histogram | BoxPlot | Violin | ErrorBar => {
                Some("counts, quartiles and intervals are drawn on a linear axis only")
            }
            Area | Bubble | Dumbbell | Slope => Some("drawn on a linear value axis only"),
            DualAxis => Some("its second axis is read linearly, beside the first"),
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
        if !kinds_ok
            || already
            || !super::util::all_drawn_values_positive(spec)
            || !spans_a_decade(spec)
        {
            return None;
        }
        let out = super::restyle(spec, |s| {
            s.log_scale = true;
            ramp_axis(s, level);
        });
        Some(Applied::new(out).param("log_scale", true))
    }
}

/// Whether the drawn values span a factor of ten or more: on a narrower
/// range a log axis prints a decade's ticks around data squeezed into one
/// band of it (75–95 on 20–100), a chart no analyst would draw.
fn spans_a_decade(spec: &ChartSpec) -> bool {
    let values = spec.panels().into_iter().flat_map(|p| {
        p.series
            .iter()
            .filter_map(|name| p.table.series(name))
            .flat_map(|col| col.cells.iter().filter_map(|c| c.as_f64()))
            .collect::<Vec<f64>>()
    });
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
        (a.min(v), b.max(v))
    });
    lo > 0.0 && hi / lo >= 10.0
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
        let decades = testing::single(
            testing::table("pop", &[("v", &[3.0, 50.0, 2.0, 800.0])], false),
            ChartKind::Bar,
        );
        assert!(LogScale.apply_spec(&decades, 1, &ctx).is_some());
        // 2 to 8 is no range for a log axis.
        assert!(LogScale.apply_spec(&testing::bar(), 1, &ctx).is_none());
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
