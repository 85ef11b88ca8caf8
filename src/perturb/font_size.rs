//! Font size: every text size scaled, alternately smaller and larger, further
//! from 1 with each level.

use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::ChartSpec;

pub struct FontSize;

const FACTORS: [f32; 5] = [0.9, 1.2, 0.75, 1.45, 0.6];

impl Perturbation for FontSize {
    fn info(&self) -> Info {
        Info {
            name: "font_size",
            axis: "font",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "all text ×0.9",
                "all text ×1.2",
                "all text ×0.75",
                "all text ×1.45",
                "all text ×0.6",
            ],
        }
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let factor = FACTORS[super::level("font_size", severity).ok()?];
        // Rounded to a tenth so specs (and chart ids) do not carry float noise.
        let scale = |v: f32| ((v * factor * 10.0).round() / 10.0).max(4.0);
        let out = super::restyle(spec, |s| {
            s.title_size = scale(s.title_size);
            s.label_size = scale(s.label_size);
            s.tick_size = scale(s.tick_size);
            s.legend_size = scale(s.legend_size);
            s.value_label_size = scale(s.value_label_size);
        });
        Some(Applied::new(out).param("factor", f64::from(factor)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perturb::util::testing;

    #[test]
    fn scales_every_size() {
        let ctx = ChartContext {
            seed: 0,
            themes: &[],
            distractors: &[],
        };
        let spec = testing::bar();
        let out = FontSize.apply_spec(&spec, 5, &ctx).unwrap().value;
        let (a, b) = (testing::panel_style(&spec), testing::panel_style(&out));
        assert!(b.tick_size < a.tick_size && b.title_size < a.title_size);
        let out = FontSize.apply_spec(&spec, 2, &ctx).unwrap().value;
        assert!(testing::panel_style(&out).label_size > a.label_size);
    }
}
