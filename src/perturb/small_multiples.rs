//! Small multiples: a chart of several like series redrawn as a lettered
//! figure, one panel per series in one kind on one shared value range, the
//! table's title as the figure title. Nothing else changes: same data,
//! style, source line. A question about one series moves to that series'
//! panel and names it by its letter ("Refer to panel (b).");
//! questions about several series at once have no panel and are not asked.

use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartSpec, Layout};
use crate::spec::multiples;

pub struct SmallMultiples;

impl Perturbation for SmallMultiples {
    fn info(&self) -> Info {
        Info {
            name: "small_multiples",
            axis: "subplots",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "one lettered panel per series, shared value axis, figure title",
                "lettered panels; grid lines removed",
                "lettered panels; no grid, at most 4 value ticks",
                "lettered panels; no grid, at most 4 ticks, no tick marks",
                "lettered panels; no grid, 3 ticks, no tick marks",
            ],
        }
    }

    fn not_for(&self, kind: crate::ir::ChartKind) -> Option<&'static str> {
        use crate::ir::ChartKind::*;
        match kind {
            Lollipop | DivergingBar | Waterfall | ErrorBar | Histogram | BoxPlot | Violin
            | Slope | Pie | Donut => {
                Some("draws one series (or two read as one): nothing to split")
            }
            DualAxis => Some("its two series differ in unit: panels could not share a value axis"),
            k if multiples::panel_kind(k).is_none() => {
                Some("its series are read against each other within each category")
            }
            _ => None,
        }
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let level = super::level("small_multiples", severity).ok()?;
        let Layout::Single { panel } = &spec.layout else {
            return None;
        };
        if !super::util::axis_can_be_pinned(panel) {
            return None;
        }
        // An untitled chart has no title (nor subtitle) for the figure to take.
        if panel.series.len() < 2
            || panel.annotation.is_some()
            || panel.style.title_placement == crate::ir::TitlePlacement::Hidden
        {
            return None;
        }
        let base = super::restyle(spec, |s| super::util::ramp_axis(s, level));
        let title = panel
            .title
            .clone()
            .or_else(|| panel.table.meta.title.clone());
        let mut out =
            multiples::small_multiples(&panel.table, panel.kind, &panel.series, &base.style, title)
                .ok()?;
        out.source_line = spec.source_line.clone();
        let mut applied = Applied::new(out)
            .param("panels", panel.series.len())
            .param("panel_kind", multiples::panel_kind(panel.kind)?.name());
        applied.series_panels = panel.series.clone();
        Some(applied)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perturb::util::{drawn, testing};

    #[test]
    fn one_lettered_panel_per_series_on_one_range() {
        assert!(
            SmallMultiples
                .apply_spec(&testing::bar(), 1, &testing::ctx())
                .is_none(),
            "a single series has no small multiples"
        );
        let mut spec = testing::lines();
        // Like series (one stated unit) make a figure.
        if let Layout::Single { panel } = &mut spec.layout {
            panel.table.meta.unit = Some("°C".into());
        }
        let out = SmallMultiples
            .apply_spec(&spec, 1, &testing::ctx())
            .unwrap();
        assert_eq!(out.series_panels, vec!["North", "South"]);
        let (_, scene) = drawn(&out.value).unwrap();
        let fig = scene.figure.as_ref().unwrap();
        let letters: Vec<&str> = fig.letters.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(letters, ["(a)", "(b)"]);
        let ticks = |i: usize| -> Vec<String> {
            scene.panels[i]
                .y_ticks
                .iter()
                .map(|t| t.label.clone())
                .collect()
        };
        assert_eq!(ticks(0), ticks(1));
        assert_eq!(fig.value_ticks, ticks(0));
        // Panel (b) draws South's values.
        let south: Vec<f64> = scene.panels[1].marks.iter().map(|m| m.value).collect();
        assert_eq!(south, [25.0, 27.0, 33.0]);
    }
}
