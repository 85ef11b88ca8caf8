//! Tick format: numbers printed plain, short (1k) or scientific (1e3).
//! Applies only to panels with a numeric axis whose printed tick labels the
//! new format really changes (below 1,000 "plain" and "thousands" print the
//! same; pies have no numeric axis).

use super::util::{drawn, numeric_tick_labels};
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
                "plain numbers (1000) instead of separators (1,000); only where a tick label changes",
                "short numbers (1k, 2.5M)",
                "scientific numbers (1e3)",
                "short numbers, about 4 ticks",
                "scientific numbers, about 3 ticks",
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
        let (mut style, ticks) = LEVELS[super::level("tick_format", severity).ok()?];
        let current = spec.panels().first()?.style.number_style;
        if style == current {
            // Already printed that way: use the separators style instead.
            style = NumberStyle::Thousands;
        }
        // The format alone must change some printed tick label; a new tick
        // count on top of it is not what this perturbation is about.
        let (_, before) = drawn(spec)?;
        let was = numeric_tick_labels(&before);
        if was.iter().all(|l| l.is_empty()) {
            return None;
        }
        let reformatted = super::restyle(spec, |s| s.number_style = style);
        let (_, after) = drawn(&reformatted)?;
        if numeric_tick_labels(&after) == was {
            return None;
        }
        let out = super::restyle(&reformatted, |s| {
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
    fn only_where_a_printed_tick_changes() {
        let ctx = ChartContext {
            seed: 0,
            themes: &[],
            distractors: &[],
        };
        // Ticks 0..8: plain and thousands print alike, short too.
        assert!(TickFormat.apply_spec(&testing::bar(), 1, &ctx).is_none());
        assert!(TickFormat.apply_spec(&testing::bar(), 2, &ctx).is_none());
        let big = testing::single(
            testing::table("big", &[("Sales", &[3000.0, 5200.0, 2100.0])], false),
            crate::ir::ChartKind::Bar,
        );
        for severity in 1..=5 {
            let out = TickFormat.apply_spec(&big, severity, &ctx).unwrap();
            assert_ne!(
                testing::panel_style(&out.value).number_style,
                NumberStyle::Thousands
            );
            let (_, a) = drawn(&big).unwrap();
            let (_, b) = drawn(&out.value).unwrap();
            assert_ne!(numeric_tick_labels(&a), numeric_tick_labels(&b));
        }
        let mut pie = big.clone();
        pie.panels_mut()[0].kind = crate::ir::ChartKind::Pie;
        assert!(TickFormat.apply_spec(&pie, 3, &ctx).is_none());
    }
}
