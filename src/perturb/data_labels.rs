//! Data labels: value labels on the marks toggled (removed when the chart has
//! them, added otherwise), with fewer reading aids at higher levels.

use super::util::ramp;
use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::ChartSpec;

pub struct DataLabels;

impl Perturbation for DataLabels {
    fn info(&self) -> Info {
        Info {
            name: "data_labels",
            axis: "data_labels",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "value labels toggled (removed if shown, else added)",
                "value labels toggled; grid lines removed",
                "value labels toggled; no grid, no tick marks",
                "value labels toggled; no grid, no tick marks, open frame",
                "value labels toggled; no grid, no tick marks, open frame, thin axes",
            ],
        }
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let level = super::level("data_labels", severity).ok()?;
        let style = &spec.panels().first()?.style;
        let shown = style.data_labels;
        // Without its labels a chart drawn without a value axis shows no values.
        if shown && style.furniture.hide_value_axis {
            return None;
        }
        let out = super::restyle(spec, |s| {
            s.data_labels = !shown;
            ramp(s, level);
        });
        Some(Applied::new(out).param("data_labels", !shown))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perturb::util::testing;

    #[test]
    fn toggles_labels() {
        let ctx = ChartContext {
            seed: 0,
            themes: &[],
            distractors: &[],
        };
        let spec = testing::bar();
        let on = DataLabels.apply_spec(&spec, 1, &ctx).unwrap().value;
        assert!(testing::panel_style(&on).data_labels);
        let off = DataLabels.apply_spec(&on, 4, &ctx).unwrap().value;
        assert!(!testing::panel_style(&off).data_labels);
        assert!(!testing::panel_style(&off).tick_marks);
    }

    #[test]
    fn keeps_the_labels_of_a_chart_without_a_value_axis() {
        let ctx = ChartContext {
            seed: 0,
            themes: &[],
            distractors: &[],
        };
        let bare = crate::perturb::restyle(&testing::bar(), |s| {
            s.data_labels = true;
            s.furniture.hide_value_axis = true;
        });
        assert!(DataLabels.apply_spec(&bare, 1, &ctx).is_none());
    }
}
