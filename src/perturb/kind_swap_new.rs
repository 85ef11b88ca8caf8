//! Chart-kind swap into the newer kinds, where every data answer survives:
//! bars → lollipops (the same values as stems), a signed series → diverging
//! bars, two like series over named categories → a dumbbell or a slope
//! chart, up to three like series over 3–12 named categories → a radar.
//! Opt-in (see `registry::OPT_IN`): `kind_swap` keeps the swaps suites drew
//! before these kinds existed, and this one adds the swaps into them.

use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartKind, ChartSpec, PanelSpec};

pub struct KindSwapNew;

/// Whether `kind` draws exactly the panel's series from its table, so every
/// value the panel shows stays on the chart.
fn draws_the_same(panel: &PanelSpec, kind: ChartKind) -> bool {
    crate::spec::shape::series_for(&panel.table, kind).is_ok_and(|s| s == panel.series)
}

/// Readable newer kinds for a panel of an older kind, closest first.
pub fn candidates(panel: &PanelSpec) -> Vec<ChartKind> {
    // An annotation is drawn on bars and lines only: swapping it away
    // would take its answers with it.
    if panel.annotation.is_some() || panel.style.log_scale {
        return Vec::new();
    }
    let suits = crate::spec::suitable_kinds(&panel.table);
    let mut out = Vec::new();
    match panel.kind {
        ChartKind::Bar => {
            if suits.contains(&ChartKind::Lollipop) && panel.series.len() == 1 {
                out.push(ChartKind::Lollipop);
            }
            if draws_the_same(panel, ChartKind::DivergingBar) {
                out.push(ChartKind::DivergingBar);
            }
        }
        ChartKind::HorizontalBar if draws_the_same(panel, ChartKind::DivergingBar) => {
            out.push(ChartKind::DivergingBar);
        }
        ChartKind::GroupedBar => {
            for kind in [ChartKind::Dumbbell, ChartKind::Slope, ChartKind::Radar] {
                if draws_the_same(panel, kind) {
                    out.push(kind);
                }
            }
        }
        _ => {}
    }
    if panel.series.len() <= 1 && super::kind_swap::is_bar(panel.kind) {
        out.retain(|k| !super::kind_swap::is_bar(*k));
    }
    out
}

impl Perturbation for KindSwapNew {
    fn info(&self) -> Info {
        Info {
            name: "kind_swap_new",
            axis: "chart_kind",
            stage: Stage::Spec,
            effect: AnswerEffect::Recomputing,
            ladder: [
                "closest newer kind drawing the same values (bar→lollipop, signed bar→diverging, two series→dumbbell)",
                "second newer kind if any (signed bar→diverging, two series→slope), else the closest",
                "third newer kind if any (up to three series→radar); grid lines removed",
                "furthest newer kind; no grid, at most 4 value ticks",
                "furthest newer kind; no grid, 3 ticks, no tick marks",
            ],
        }
    }

    fn not_for(&self, kind: ChartKind) -> Option<&'static str> {
        match kind {
            ChartKind::Bar | ChartKind::HorizontalBar | ChartKind::GroupedBar => None,
            ChartKind::DualAxis => {
                Some("any other kind puts both series on one axis, where the smaller lies flat")
            }
            k if k.is_opt_in() || k == ChartKind::Heatmap => {
                Some("already a newer kind: kind_swap swaps it among readable kinds")
            }
            _ => Some(
                "no newer kind draws the same values as lines, areas, stacks, slices or points",
            ),
        }
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let (mut out, to) = super::kind_swap::swapped("kind_swap_new", spec, severity, candidates)?;
        let target = out.panels_mut().into_iter().next()?;
        let from = target.kind;
        // The new kind's own axis titles (a dumbbell's value axis runs
        // across, a slope chart heads its two axes with the series), the
        // panel's table, style, title and subtitle.
        let built = crate::spec::panel(&target.table, to, &target.style).ok()?;
        if built.series != target.series {
            return None;
        }
        target.kind = to;
        target.x_label = built.x_label;
        target.y_label = built.y_label;
        Some(
            Applied::new(out)
                .param("from", from.name())
                .param("to", to.name()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perturb::util::testing::{self, ctx};

    #[test]
    fn bars_become_lollipops_and_keep_their_series() {
        let spec = testing::bar();
        assert_eq!(candidates(spec.panels()[0]), [ChartKind::Lollipop]);
        let out = KindSwapNew.apply_spec(&spec, 1, &ctx()).unwrap().value;
        let (was, now) = (spec.panels()[0], out.panels()[0]);
        assert_eq!(now.kind, ChartKind::Lollipop);
        assert_eq!(now.series, was.series);
        assert_eq!(now.table, was.table);
        // Lines have no newer kind that draws the same values.
        assert!(
            KindSwapNew
                .apply_spec(&testing::lines(), 1, &ctx())
                .is_none()
        );
    }
}
