//! Legend entries reordered (reversed or alphabetical), with fewer reading
//! aids at higher levels; the legend stays where it was (moving it is
//! `legend_moved`'s change). Applies only where a legend of several entries
//! is drawn, and only when the drawn order really changes (alphabetical
//! order may be the data order: then the entries are reversed instead).

use super::util::{drawn, legend_labels};
use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartKind, ChartSpec, LegendOrder};

pub struct LegendReordered;

const LEVELS: [LegendOrder; 5] = [
    LegendOrder::Reversed,
    LegendOrder::Alphabetical,
    LegendOrder::Reversed,
    LegendOrder::Alphabetical,
    LegendOrder::Reversed,
];

impl Perturbation for LegendReordered {
    fn info(&self) -> Info {
        Info {
            name: "legend_reordered",
            axis: "legend",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "legend entries in reverse order",
                "legend entries in alphabetical order (reversed when that is the data order)",
                "reversed; no grid, no tick marks",
                "alphabetical (else reversed); no grid, no tick marks, open frame",
                "reversed; no grid, no tick marks, open frame, thin axes",
            ],
        }
    }

    fn not_for(&self, kind: ChartKind) -> Option<&'static str> {
        super::util::no_legend(kind).or((kind == ChartKind::Waterfall).then_some(
            "a waterfall's legend names its bars' roles (start, increase, decrease) in a fixed order",
        ))
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let level = super::level("legend_reordered", severity).ok()?;
        let order = LEVELS[level];
        let (_, before) = drawn(spec)?;
        let was = legend_labels(&before);
        if !was.iter().any(|l| l.len() >= 2) {
            return None;
        }
        let orders = [order, LegendOrder::Reversed];
        orders.iter().find_map(|&order| {
            let out = super::restyle(spec, |s| {
                s.legend_order = order;
                super::util::ramp(s, level);
            });
            let (_, after) = drawn(&out)?;
            let now = legend_labels(&after);
            // Every panel keeps its entries, and some panel shows them in another order.
            let same_sets = now.len() == was.len()
                && now.iter().zip(&was).all(|(a, b)| {
                    let (mut a, mut b) = (a.clone(), b.clone());
                    a.sort_unstable();
                    b.sort_unstable();
                    a == b
                });
            (same_sets && now != was).then(|| {
                Applied::new(out).param(
                    "legend_order",
                    serde_json::to_value(order).unwrap_or_default(),
                )
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perturb::util::testing;

    use crate::perturb::util::testing::ctx;

    #[test]
    fn reorders_what_is_drawn() {
        // "North", "South" is already alphabetical: reversed instead.
        let out = LegendReordered
            .apply_spec(&testing::grouped_years(), 2, &ctx())
            .unwrap();
        assert_eq!(
            testing::panel_style(&out.value).legend_order,
            LegendOrder::Reversed
        );
        let (_, scene) = drawn(&out.value).unwrap();
        assert_eq!(legend_labels(&scene)[0], vec!["South", "North"]);
        assert!(
            LegendReordered
                .apply_spec(&testing::bar(), 1, &ctx())
                .is_none()
        );
    }
}
