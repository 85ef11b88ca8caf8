//! Font size: every text size scaled down, further from 1 with each level.
//! Never up: with the frame pinned, larger text only makes the same chart
//! easier to read, which a stress must not do.

use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::ChartSpec;

pub struct FontSize;

const FACTORS: [f32; 5] = [0.9, 0.8, 0.72, 0.64, 0.56];

impl Perturbation for FontSize {
    fn info(&self) -> Info {
        Info {
            name: "font_size",
            axis: "font",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "all text ×0.9",
                "all text ×0.8",
                "all text ×0.72",
                "all text ×0.64",
                "all text ×0.56",
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
        for severity in 1..=5 {
            let out = FontSize.apply_spec(&spec, severity, &ctx).unwrap().value;
            assert!(testing::panel_style(&out).label_size < a.label_size);
        }
    }
}
