//! Legend moved to another corner or outside the plot. The renderer resolves
//! some requests its own way (corners it keeps free of data, side legends put
//! on top of narrow panels, pies never inside), so the move is judged on the
//! drawing: the legend must land somewhere it was not.

use super::util::{drawn, draws_legend, legend_place, placement_name};
use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartKind, ChartSpec, LegendPlacement, Scene};

pub struct LegendMoved;

const PLACES: [LegendPlacement; 5] = [
    LegendPlacement::TopLeft,
    LegendPlacement::BottomRight,
    LegendPlacement::Right,
    LegendPlacement::Bottom,
    LegendPlacement::Top,
];

/// Where each panel's legend is drawn (panels without one are skipped).
fn places(scene: &Scene) -> Vec<(usize, LegendPlacement)> {
    scene
        .panels
        .iter()
        .filter(|p| !p.legend.is_empty())
        .map(|p| (p.index, legend_place(p)))
        .collect()
}

impl Perturbation for LegendMoved {
    fn info(&self) -> Info {
        Info {
            name: "legend_moved",
            axis: "legend",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "legend to the top-left corner of the plot (else the next place down this ladder that is drawn elsewhere)",
                "legend to the bottom-right corner of the plot, where it is free of data (else as above)",
                "legend outside, right of the plot (else as above)",
                "legend outside, below the plot, horizontal (else as above)",
                "legend outside, above the plot, horizontal (else as above)",
            ],
        }
    }

    fn not_for(&self, kind: ChartKind) -> Option<&'static str> {
        super::util::no_legend(kind)
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let level = super::level("legend_moved", severity).ok()?;
        let (_, before) = drawn(spec)?;
        if !draws_legend(&before) {
            return None;
        }
        let was = places(&before);
        // The ladder's place, or the next one the renderer draws elsewhere.
        (0..PLACES.len()).find_map(|i| {
            let place = PLACES[(level + i) % PLACES.len()];
            let out = super::restyle(spec, |s| s.legend = place);
            if out == *spec {
                return None;
            }
            let (_, after) = drawn(&out)?;
            let now = places(&after);
            let moved = now.len() == was.len()
                && now.iter().zip(&was).all(|(a, b)| a.0 == b.0 && a.1 != b.1);
            let shown = now.first()?.1;
            moved.then(|| Applied::new(out).param("legend", placement_name(shown)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perturb::util::testing;

    use crate::perturb::util::testing::ctx;

    #[test]
    fn moves_only_drawn_legends() {
        assert!(LegendMoved.apply_spec(&testing::bar(), 1, &ctx()).is_none());
        let out = LegendMoved
            .apply_spec(&testing::grouped_years(), 3, &ctx())
            .unwrap();
        assert_eq!(
            testing::panel_style(&out.value).legend,
            LegendPlacement::Right
        );
        assert_eq!(out.params["legend"], "right");
    }

    #[test]
    fn every_level_lands_where_the_legend_was_not() {
        let spec = testing::grouped_years();
        let (_, before) = drawn(&spec).unwrap();
        let was = legend_place(&before.panels[0]);
        for severity in 1..=5 {
            let out = LegendMoved.apply_spec(&spec, severity, &ctx()).unwrap();
            let (_, after) = drawn(&out.value).unwrap();
            let now = legend_place(&after.panels[0]);
            assert_ne!(now, was, "severity {severity}");
            assert_eq!(out.params["legend"], placement_name(now));
        }
    }
}
