//! Non-zero baseline: the value axis of line charts and scatter plots starts
//! at a printed tick below the data minimum instead of at zero. Bars and
//! areas are left alone: their length or area encodes the value, so a cut
//! axis would misstate it.

use super::util::{drawn, marks_outside, ramp_axis, valued_ticks};
use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartKind, ChartSpec, PanelSpec, PinnedAxes, Scene};

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
        let (_, before) = drawn(spec)?;
        let mut out = super::restyle(spec, |s| ramp_axis(s, level));
        let mut starts = Vec::new();
        let mut panels = out.panels_mut();
        if panels.len() != before.panels.len() {
            return None;
        }
        for (panel, drawn_panel) in panels.iter_mut().zip(&before.panels) {
            let Some(values) = axis_values(panel) else {
                continue;
            };
            let (min, max) = values
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                    (a.min(*v), b.max(*v))
                });
            let printed = valued_ticks(&drawn_panel.y_ticks);
            // The upper levels print at most the theme's reduced tick count.
            let most = if level >= 2 {
                panel.style.tick_count as usize
            } else {
                printed.len()
            };
            let Some(ticks) = cut_ticks(&printed, min, max, most) else {
                continue;
            };
            let start = ticks[0].0;
            panel.style.zero_baseline = false;
            panel.style.value_start = Some(start);
            panel.pinned = Some(PinnedAxes {
                value: ticks,
                // A scatter plot's x axis stays as it was printed.
                x: if panel.kind == ChartKind::Scatter {
                    valued_ticks(&drawn_panel.x_ticks)
                } else {
                    Vec::new()
                },
                ..PinnedAxes::default()
            });
            starts.push(start);
        }
        drop(panels);
        let first = *starts.first()?;
        // The drawn axis starts there, ends on the tick it ended on, and
        // cuts no mark off.
        let (_, after) = drawn(&out)?;
        if marks_outside(&after) > marks_outside(&before) {
            return None;
        }
        let ends = |scene: &Scene| -> Vec<(Option<f64>, Option<f64>)> {
            scene
                .panels
                .iter()
                .map(|p| {
                    let v: Vec<f64> = p.y_ticks.iter().filter_map(|t| t.value).collect();
                    (v.first().copied(), v.last().copied())
                })
                .collect()
        };
        let (now, was) = (ends(&after), ends(&before));
        let kept = now
            .iter()
            .zip(&was)
            .all(|(n, w)| (n.0.is_some_and(|v| starts.contains(&v)) && n.1 == w.1) || n == w);
        (kept && now != was).then(|| Applied::new(out).param("value_start", first))
    }
}

/// The printed ticks from the highest one that still leaves the lowest point
/// a little above the axis line, thinned to at most `most` by keeping every
/// second from the top: the axis keeps its top tick and its step (or twice
/// it), and only its start moves up. None when no tick above zero fits.
fn cut_ticks(
    printed: &[(f64, String)],
    min: f64,
    max: f64,
    most: usize,
) -> Option<Vec<(f64, String)>> {
    let fits = |t: f64| t > 0.0 && t < min && min - t >= 0.03 * (max - t);
    let first = printed.iter().rposition(|(t, _)| fits(*t))?;
    let mut ticks: Vec<(f64, String)> = printed[first..].to_vec();
    while ticks.len() > most.max(3) {
        let n = ticks.len();
        ticks = ticks
            .into_iter()
            .enumerate()
            .filter(|(i, _)| (n - 1 - i) % 2 == 0)
            .map(|(_, t)| t)
            .collect();
    }
    // Fewer than three printed ticks leave too little to read values against.
    (ticks.len() >= 3 && ticks[0].0 <= min).then_some(ticks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perturb::util::testing;

    use crate::perturb::util::testing::ctx;

    #[test]
    fn a_cut_keeps_the_printed_ticks_above_its_start() {
        let printed: Vec<(f64, String)> = [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
            .iter()
            .map(|v| (*v, format!("{v}")))
            .collect();
        let values = |t: &[(f64, String)]| t.iter().map(|p| p.0).collect::<Vec<_>>();
        let cut = cut_ticks(&printed, 45.0, 97.0, 6).unwrap();
        assert_eq!(values(&cut), [40.0, 60.0, 80.0, 100.0]);
        // Thinned from the top: the top tick stays, the start still below the data.
        let cut = cut_ticks(&printed, 25.0, 97.0, 4).unwrap();
        assert_eq!(values(&cut), [20.0, 60.0, 100.0]);
        // A minimum too close to the first tick above zero leaves no cut.
        assert!(cut_ticks(&printed, 20.5, 97.0, 6).is_none());
        assert!(cut_ticks(&printed, 12.0, 97.0, 6).is_none());
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
        // Only the start moves: the axis keeps its top tick at every level.
        let (_, original) = drawn(&spec).unwrap();
        let top = |s: &Scene| {
            s.panels[0]
                .y_ticks
                .iter()
                .filter_map(|t| t.value)
                .next_back()
        };
        for severity in 1..=5 {
            let Some(cut) = Baseline.apply_spec(&spec, severity, &ctx()) else {
                continue;
            };
            let (_, scene) = drawn(&cut.value).unwrap();
            assert_eq!(top(&scene), top(&original), "severity {severity}");
        }
    }
}
