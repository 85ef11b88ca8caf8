//! Legend removed: series named by direct labels next to their marks, or not
//! at all. Without any series names the item may become unanswerable. Applies
//! only where a legend is drawn; direct labels only where the renderer draws
//! them (line charts and pies; elsewhere it keeps a legend).

use super::util::{drawn, draws_legend};
use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartKind, ChartSpec, LegendPlacement};

pub struct LegendRemoved;

impl Perturbation for LegendRemoved {
    fn info(&self) -> Info {
        Info {
            name: "legend_removed",
            axis: "legend",
            stage: Stage::Spec,
            effect: AnswerEffect::Breaking,
            ladder: [
                "legend replaced by direct labels (lines and pies only)",
                "direct labels at 85% legend text size (lines and pies only)",
                "direct labels at 70% legend text size (lines and pies only)",
                "no legend and no direct labels",
                "no legend, no direct labels, grid lines removed",
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
        let level = super::level("legend_removed", severity).ok()?;
        let (svg_before, before) = drawn(spec)?;
        if !draws_legend(&before) {
            return None;
        }
        let (place, size) = match level {
            0 => (LegendPlacement::Direct, 1.0),
            1 => (LegendPlacement::Direct, 0.85),
            2 => (LegendPlacement::Direct, 0.7),
            _ => (LegendPlacement::None, 1.0),
        };
        let out = super::restyle(spec, |s| {
            s.legend = place;
            s.legend_size = ((s.legend_size * size * 10.0).round() / 10.0).max(4.0);
            if level == 4 {
                s.grid = crate::ir::GridLines::None;
            }
        });
        let (svg_after, after) = drawn(&out)?;
        // The legend must really be gone, and direct labels really drawn.
        let direct = place == LegendPlacement::Direct;
        let labelled = |i: usize| {
            after
                .panels
                .get(i)
                .is_some_and(|p| !p.direct_labels.is_empty())
        };
        let gone = before.panels.iter().enumerate().all(|(i, p)| {
            p.legend.is_empty()
                || after.panels.get(i).is_some_and(|q| q.legend.is_empty())
                    && (!direct || labelled(i))
        });
        if !gone || svg_after == svg_before || !after.panels.iter().all(names_its_one_series) {
            return None;
        }
        let label = if direct { "direct" } else { "none" };
        Some(Applied::new(out).param("legend", label))
    }
}

/// A chart of one series still names it somewhere (a title, an axis title,
/// a direct label) once the legend is gone: a question asks about it by name.
fn names_its_one_series(p: &crate::ir::PanelScene) -> bool {
    // A pie's legend names its slices, not its series.
    if p.kind.is_circular() {
        return true;
    }
    let mut drawn: Vec<&str> = p.marks.iter().map(|m| m.series.as_str()).collect();
    drawn.sort();
    drawn.dedup();
    let [only] = drawn.as_slice() else {
        return true;
    };
    let only = only.trim().to_lowercase();
    [&p.title, &p.subtitle, &p.x_label, &p.y_label]
        .into_iter()
        .flatten()
        .chain(&p.direct_labels)
        .any(|t| t.text.to_lowercase().contains(&only))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::ChartKind;
    use crate::perturb::util::testing;

    use crate::perturb::util::testing::ctx;

    #[test]
    fn direct_labels_on_lines_none_anywhere() {
        let mut spec = testing::grouped_years();
        // Bars keep a legend when asked for direct labels: nothing to apply.
        assert!(LegendRemoved.apply_spec(&spec, 2, &ctx()).is_none());
        let none = LegendRemoved.apply_spec(&spec, 4, &ctx()).unwrap().value;
        let (_, scene) = drawn(&none).unwrap();
        assert!(scene.panels[0].legend.is_empty());
        assert!(scene.panels[0].direct_labels.is_empty());
        spec.panels_mut()[0].kind = ChartKind::Line;
        let direct = LegendRemoved.apply_spec(&spec, 2, &ctx()).unwrap().value;
        let (_, scene) = drawn(&direct).unwrap();
        assert!(scene.panels[0].legend.is_empty());
        assert_eq!(scene.panels[0].direct_labels.len(), 2);
        // One series draws no legend: nothing to remove.
        assert!(
            LegendRemoved
                .apply_spec(&testing::bar(), 4, &ctx())
                .is_none()
        );
    }
}
