//! Tick format: numbers printed plain, short (1k) or scientific (1e3).

use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartSpec, NumberStyle};

pub struct TickFormat;

const LEVELS: [(NumberStyle, Option<u32>); 5] = [
    (NumberStyle::Plain, None),
    (NumberStyle::Short, None),
    (NumberStyle::Scientific, None),
    (NumberStyle::Short, Some(4)),
    (NumberStyle::Scientific, Some(3)),
];

impl Perturbation for TickFormat {
    fn info(&self) -> Info {
        Info {
            name: "tick_format",
            axis: "axis",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "plain numbers (1000) instead of separators (1,000)",
                "short numbers (1k, 2.5M)",
                "scientific numbers (1e3)",
                "short numbers, about 4 ticks",
                "scientific numbers, about 3 ticks",
            ],
        }
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let (mut style, ticks) = LEVELS[super::level("tick_format", severity).ok()?];
        let current = spec.panels().first()?.style.number_style;
        if style == current {
            // Already printed that way: use the separators style instead.
            style = NumberStyle::Thousands;
        }
        let out = super::restyle(spec, |s| {
            s.number_style = style;
            if let Some(t) = ticks {
                s.tick_count = t;
            }
        });
        (out != *spec).then(|| {
            Applied::new(out).param(
                "number_style",
                serde_json::to_value(style).unwrap_or_default(),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perturb::util::testing;

    #[test]
    fn changes_number_style() {
        let ctx = ChartContext {
            seed: 0,
            themes: &[],
            distractors: &[],
        };
        for severity in 1..=5 {
            let out = TickFormat
                .apply_spec(&testing::bar(), severity, &ctx)
                .unwrap();
            assert_ne!(
                testing::panel_style(&out.value).number_style,
                NumberStyle::Thousands
            );
        }
    }
}
