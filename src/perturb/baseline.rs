//! Non-zero baseline: the value axis of line charts and scatter plots starts
//! at a printed tick below the data minimum instead of at zero. Bars and
//! areas are left alone: their length or area encodes the value, so a cut
//! axis would misstate it.

use super::util::{drawn, ramp_axis};
use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartKind, ChartSpec, PanelSpec, Scene};
use crate::spec::format::nice_ticks;

pub struct Baseline;

/// The drawn values on a panel's value axis, when a cut axis is legitimate there.
fn axis_values(panel: &PanelSpec) -> Option<Vec<f64>> {
    let columns: &[String] = match panel.kind {
        ChartKind::Line => &panel.series,
        ChartKind::Scatter => panel.series.get(1..2)?,
        _ => return None,
    };
    if panel.style.log_scale {
        return None;
    }
    let values: Vec<f64> = columns
        .iter()
        .filter_map(|name| panel.table.series(name))
        .flat_map(|col| col.cells.iter().filter_map(|c| c.as_f64()))
        .filter(|v| v.is_finite())
        .collect();
    (!values.is_empty()).then_some(values)
}

/// A nice start strictly below `min` and above zero: the largest multiple of
/// the step the axis would use (or of a finer nice step) that leaves the
/// lowest point a little above the axis line.
pub fn start_below(min: f64, max: f64, count: u32) -> Option<f64> {
    if !(min > 0.0 && max > min) {
        return None;
    }
    let (ticks, _) = nice_ticks(min, max, count);
    let step = match ticks.as_slice() {
        [a, b, ..] => b - a,
        _ => return None,
    };
    let mag = 10f64.powf(step.log10().floor());
    let candidates = [1.0, 0.1, 0.01].into_iter().flat_map(|m| {
        [10.0, 5.0, 2.5, 2.0, 1.0]
            .into_iter()
            .map(move |n| n * mag * m)
    });
    for st in candidates.filter(|st| *st <= step * (1.0 + 1e-9)) {
        let mut k = (min / st - 1e-9).floor();
        // Keep the lowest point visibly above the axis line.
        while k > 0.0 && min - k * st < 0.03 * (max - k * st) {
            k -= 1.0;
        }
        let start = (k * st * 1e9).round() / 1e9;
        if start > 0.0 {
            return Some(start);
        }
    }
    None
}

/// First printed value tick of each panel.
fn first_ticks(scene: &Scene) -> Vec<Option<f64>> {
    scene
        .panels
        .iter()
        .map(|p| p.y_ticks.first().and_then(|t| t.value))
        .collect()
}

impl Perturbation for Baseline {
    fn info(&self) -> Info {
        Info {
            name: "baseline",
            axis: "axis",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "value axis of lines and scatter plots starts at a tick below the data minimum, not zero (never bars or areas)",
                "non-zero baseline; grid lines removed",
                "non-zero baseline; no grid, at most 4 value ticks",
                "non-zero baseline; no grid, at most 4 ticks, no tick marks",
                "non-zero baseline; no grid, 3 ticks, no tick marks",
            ],
        }
    }

    fn not_for(&self, kind: ChartKind) -> Option<&'static str> {
        use ChartKind::*;
        match kind {
            Line | Scatter => None,
            Dumbbell | Slope | BoxPlot | Violin | Bubble => {
                Some("its value axis already spans the data, not zero")
            }
            Radar | Pie | Donut => Some("values grow from a centre: a cut would misstate them"),
            Heatmap => Some("values are colours on a scale, with no value axis to cut"),
            _ => Some("a bar's or area's length from zero encodes its value"),
        }
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let level = super::level("baseline", severity).ok()?;
        let mut out = super::restyle(spec, |s| ramp_axis(s, level));
        let mut starts = Vec::new();
        for panel in out.panels_mut() {
            let Some(values) = axis_values(panel) else {
                continue;
            };
            let (min, max) = values
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                    (a.min(*v), b.max(*v))
                });
            if let Some(start) = start_below(min, max, panel.style.tick_count) {
                panel.style.zero_baseline = false;
                panel.style.value_start = Some(start);
                starts.push(start);
            }
        }
        let first = *starts.first()?;
        // The drawn axis must start there, and not where it started before.
        let (_, before) = drawn(spec)?;
        let (_, after) = drawn(&out)?;
        let moved = first_ticks(&after)
            .iter()
            .zip(first_ticks(&before))
            .any(|(now, was)| now.is_some_and(|v| v != 0.0 && starts.contains(&v)) && *now != was);
        moved.then(|| Applied::new(out).param("value_start", first))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perturb::util::testing;

    use crate::perturb::util::testing::ctx;

    #[test]
    fn starts_are_nice_and_below_the_minimum() {
        assert_eq!(start_below(20.0, 90.0, 6), Some(10.0));
        assert_eq!(start_below(53.0, 61.0, 6), Some(52.0));
        assert_eq!(start_below(1000.0, 1800.0, 6), Some(800.0));
        assert!(start_below(0.0, 10.0, 6).is_none());
        assert!(start_below(-5.0, 10.0, 6).is_none());
        // A minimum close to zero leaves no cut worth drawing.
        assert!(start_below(120.0, 4000.0, 6).is_none());
        for (lo, hi) in [(0.3, 0.9), (7.0, 7.5), (1200.0, 4000.0), (0.001, 0.002)] {
            let s = start_below(lo, hi, 4).unwrap();
            assert!(s > 0.0 && s < lo, "{lo}..{hi}: {s}");
        }
    }

    #[test]
    fn lines_get_a_cut_axis_bars_do_not() {
        assert!(Baseline.apply_spec(&testing::bar(), 1, &ctx()).is_none());
        let spec = testing::lines();
        let out = Baseline.apply_spec(&spec, 3, &ctx()).unwrap().value;
        let style = testing::panel_style(&out);
        assert!(style.tick_count <= 4);
        let (_, scene) = drawn(&out).unwrap();
        let first = scene.panels[0].y_ticks[0].value.unwrap();
        assert!(first > 0.0 && first < 21.0, "{first}");
    }
}
