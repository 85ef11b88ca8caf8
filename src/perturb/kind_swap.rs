//! Chart-kind swap that keeps the data readable: bar ↔ line only for ordered
//! x, grouped ↔ stacked, bar → pie only for shares of a whole. What the kind
//! shows changes (descriptive answers), so the answer is recomputed.

use super::util::ramp;
use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartKind, ChartSpec, ColumnType, PanelSpec};

/// The chart with its reading aids ramped down for `severity`, and the kind
/// its first panel swaps to: the mildest of `candidates` at level 0, further
/// ones as the level rises, the furthest from level 3 on. Shared by every
/// kind swap.
pub(super) fn swapped(
    name: &'static str,
    spec: &ChartSpec,
    severity: u8,
    candidates: fn(&PanelSpec) -> Vec<ChartKind>,
) -> Option<(ChartSpec, ChartKind)> {
    let level = super::level(name, severity).ok()?;
    let ramp_level = match level {
        0 | 1 => 0,
        2 => 1,
        3 => 2,
        _ => 4,
    };
    let mut out = super::restyle(spec, |s| ramp(s, ramp_level));
    let target = out.panels_mut().into_iter().next()?;
    let options = candidates(target);
    let last = options.len().checked_sub(1)?;
    let pick = if level >= 3 { last } else { level.min(last) };
    let to = options[pick];
    Some((out, to))
}

pub struct KindSwap;

fn ordered_x(panel: &PanelSpec) -> bool {
    matches!(
        panel.table.index.ctype,
        ColumnType::Year | ColumnType::Date | ColumnType::Number
    )
}

/// One series of positive values that add up to a whole (100 or a percent column).
fn shares_of_whole(panel: &PanelSpec) -> bool {
    let [name] = panel.series.as_slice() else {
        return false;
    };
    let Some(col) = panel.table.series(name) else {
        return false;
    };
    let values: Option<Vec<f64>> = col.cells.iter().map(|c| c.as_f64()).collect();
    let Some(values) = values else { return false };
    let total: f64 = values.iter().sum();
    values.len() >= 2
        && values.iter().all(|v| *v > 0.0)
        && ((total - 100.0).abs() <= 1.0 || (total - 1.0).abs() <= 0.01)
}

/// Several like series over a few categories, with no annotation (a
/// heatmap draws none): the grid prints every value.
fn heatmap_fits(panel: &PanelSpec) -> bool {
    panel.series.len() >= 2
        && (2..=crate::spec::HEATMAP_MAX_SIDE).contains(&panel.table.n_rows())
        && panel.annotation.is_none()
}

/// Readable replacements for a panel's kind, closest first.
pub fn candidates(panel: &PanelSpec) -> Vec<ChartKind> {
    let ordered = ordered_x(panel);
    let shares = shares_of_whole(panel);
    let mut out = Vec::new();
    match panel.kind {
        ChartKind::Bar => {
            if ordered {
                out.push(ChartKind::Line);
            }
            if shares {
                out.push(ChartKind::Pie);
                out.push(ChartKind::Donut);
            }
            if ordered {
                out.push(ChartKind::Area);
            }
        }
        ChartKind::HorizontalBar => {
            if shares {
                out.push(ChartKind::Pie);
            }
        }
        ChartKind::Line => {
            out.push(ChartKind::Area);
            out.push(if panel.series.len() > 1 {
                ChartKind::GroupedBar
            } else {
                ChartKind::Bar
            });
        }
        ChartKind::Area => {
            out.push(ChartKind::Line);
            if panel.series.len() == 1 {
                out.push(ChartKind::Bar);
            }
        }
        ChartKind::GroupedBar => {
            out.push(ChartKind::StackedBar);
            if ordered {
                out.push(ChartKind::Line);
            }
            if heatmap_fits(panel) {
                out.push(ChartKind::Heatmap);
            }
        }
        ChartKind::StackedBar => {
            out.push(ChartKind::GroupedBar);
            if ordered {
                out.push(ChartKind::StackedArea);
            }
        }
        ChartKind::StackedArea => out.push(ChartKind::StackedBar),
        ChartKind::Pie => {
            out.push(ChartKind::Donut);
            out.push(ChartKind::Bar);
        }
        ChartKind::Donut => {
            out.push(ChartKind::Pie);
            out.push(ChartKind::Bar);
        }
        // Swaps into the newer kinds are left out so that suites drawn
        // before them keep their swaps; their table is the one drawn, so
        // swapping out of them keeps every answer.
        ChartKind::Lollipop => {
            out.push(ChartKind::Bar);
            if ordered {
                out.push(ChartKind::Line);
            }
        }
        // The panel's table holds the shares: side-by-side or stacked bars
        // draw the same shares.
        // Stacked, they would draw the same share stacks on a taller axis.
        ChartKind::PercentStackedBar => out.push(ChartKind::GroupedBar),
        // The panel's table holds the steps and their running total: bars
        // side by side (or lines over ordered steps) draw both, so every
        // answer stays on the chart.
        ChartKind::Waterfall => {
            out.push(ChartKind::GroupedBar);
            if ordered {
                out.push(ChartKind::Line);
            }
        }
        // Two series in different units or scales: on grouped bars or one
        // line chart they would share one axis and the smaller series would
        // lie flat along the bottom, so no other kind keeps every value
        // readable.
        ChartKind::DualAxis => {}
        // An interval is drawn only as error bars: bars or lines of its
        // bounds would chart an uncertainty as a measurement.
        ChartKind::ErrorBar => {}
        ChartKind::Scatter | ChartKind::Bubble => {}
        // Boxes and violins draw the same groups on the same value axis
        // from the same observations: every median stays where it was.
        ChartKind::BoxPlot
            if panel
                .samples
                .as_ref()
                .is_some_and(crate::spec::stat::is_samples) =>
        {
            out.push(ChartKind::Violin)
        }
        ChartKind::Violin => out.push(ChartKind::BoxPlot),
        ChartKind::BoxPlot | ChartKind::Histogram => {}
        // One signed series: plain bars would draw the same bars.
        ChartKind::DivergingBar => {}
        // Two series per category: the other two-value kind or grouped bars.
        ChartKind::Dumbbell | ChartKind::Slope => {
            let other = if panel.kind == ChartKind::Dumbbell {
                ChartKind::Slope
            } else {
                ChartKind::Dumbbell
            };
            if crate::spec::shape::series_for(&panel.table, other).is_ok() {
                out.push(other);
            }
            out.push(ChartKind::GroupedBar);
        }
        ChartKind::Radar => out.push(if panel.series.len() > 1 {
            ChartKind::GroupedBar
        } else {
            ChartKind::Bar
        }),
        ChartKind::Heatmap => {
            out.push(ChartKind::GroupedBar);
            if ordered {
                out.push(ChartKind::Line);
            }
        }
    }
    // One series drawn as another kind of bar is the same picture (grouped
    // and stacked bars of one series coincide) or an orientation change
    // under another name.
    if panel.series.len() <= 1 && is_bar(panel.kind) {
        out.retain(|k| !is_bar(*k));
    }
    // A stack adds its series up: only parts of one whole are stacked,
    // whatever kind the chart had (rates side by side are not).
    let names: Vec<&str> = panel.series.iter().map(String::as_str).collect();
    if !crate::spec::is_stackable(&panel.table, &names) {
        out.retain(|k| !k.is_stacked());
    }
    out
}

pub(super) fn is_bar(kind: ChartKind) -> bool {
    matches!(
        kind,
        ChartKind::Bar
            | ChartKind::HorizontalBar
            | ChartKind::GroupedBar
            | ChartKind::StackedBar
            | ChartKind::PercentStackedBar
            | ChartKind::DivergingBar
    )
}

impl Perturbation for KindSwap {
    fn info(&self) -> Info {
        Info {
            name: "kind_swap",
            axis: "chart_kind",
            stage: Stage::Spec,
            effect: AnswerEffect::Recomputing,
            ladder: [
                "closest readable kind (bar→line for ordered x, grouped→stacked, line→area, pie→donut, shares→pie)",
                "second readable kind if any, else the closest",
                "third readable kind if any; grid lines removed",
                "furthest readable kind; no grid, at most 4 value ticks",
                "furthest readable kind; no grid, 3 ticks, no tick marks",
            ],
        }
    }

    fn not_for(&self, kind: ChartKind) -> Option<&'static str> {
        match kind {
            ChartKind::Histogram => Some(
                "no other kind reads a distribution's bins: bars of them draw the same picture",
            ),
            ChartKind::DualAxis => {
                Some("any other kind puts both series on one axis, where the smaller lies flat")
            }
            ChartKind::ErrorBar => Some(
                "an interval is drawn only as error bars: bars or lines of its bounds chart an uncertainty as a measurement",
            ),
            ChartKind::DivergingBar => Some(
                "one signed series: as plain or horizontal bars it draws the same bars (an orientation change at most)",
            ),
            _ => None,
        }
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let (mut out, to) = swapped("kind_swap", spec, severity, candidates)?;
        let target = out.panels_mut().into_iter().next()?;
        let from = target.kind;
        // A heatmap names only its index axis (its series are named cell
        // row by row): the axis titles move with the kind.
        if to == ChartKind::Heatmap {
            let index = target.x_label.take();
            target.y_label = None;
            if crate::spec::heatmap_series_on_rows(&target.table) {
                target.x_label = index;
            } else {
                target.y_label = index;
            }
        } else if from == ChartKind::Heatmap {
            let index = target.x_label.take().or_else(|| target.y_label.take());
            target.x_label = index;
            target.y_label = crate::spec::panel(&target.table, to, &target.style)
                .ok()
                .and_then(|p| p.y_label);
        }
        // A pie names no value axis; bars of its shares get the one that
        // kind draws for the table.
        if from.is_circular() && !to.is_circular() && target.y_label.is_none() {
            target.y_label = crate::spec::panel(&target.table, to, &target.style)
                .ok()
                .and_then(|p| p.y_label);
        }
        target.kind = to;
        // A heatmap prints its values in its cells, as the suite's original
        // heatmaps do (colour alone is read only coarsely).
        if to == ChartKind::Heatmap {
            target.style.data_labels = true;
        }
        // A slice's share cannot be judged to 5% by its angle: pies print
        // their percentages, as the suite's original pies do. Whether that
        // eases the item is measured on the scenes by the suite.
        if to.is_circular() {
            target.style.data_labels = true;
        }
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
    use crate::perturb::util::testing;

    use crate::perturb::util::testing::ctx;

    #[test]
    fn unordered_bars_only_become_pies_when_shares() {
        assert!(KindSwap.apply_spec(&testing::bar(), 1, &ctx()).is_none());
        let out = KindSwap.apply_spec(&testing::shares(), 1, &ctx()).unwrap();
        assert_eq!(out.value.panels()[0].kind, ChartKind::Pie);
    }

    #[test]
    fn grouped_becomes_stacked_line_or_heatmap() {
        let mut table = testing::table(
            "generation",
            &[("North", &[1.0, 2.0, 3.0]), ("South", &[2.0, 1.5, 4.0])],
            true,
        );
        table.meta.unit = Some("TWh".into());
        let spec = testing::single(table, ChartKind::GroupedBar);
        let mild = KindSwap.apply_spec(&spec, 1, &ctx()).unwrap().value;
        assert_eq!(mild.panels()[0].kind, ChartKind::StackedBar);
        assert_eq!(
            candidates(spec.panels()[0]),
            [ChartKind::StackedBar, ChartKind::Line, ChartKind::Heatmap]
        );
        // The furthest readable kind: the same grid of values as coloured
        // cells, each printing its value.
        let strong = KindSwap.apply_spec(&spec, 5, &ctx()).unwrap().value;
        let p = strong.panels()[0];
        assert_eq!(p.kind, ChartKind::Heatmap);
        assert!(p.style.data_labels);
        assert_eq!(p.series, spec.panels()[0].series);
        let back = KindSwap.apply_spec(&strong, 1, &ctx()).unwrap().value;
        assert_eq!(back.panels()[0].kind, ChartKind::GroupedBar);
    }

    #[test]
    fn rates_are_never_stacked_and_intervals_never_swapped() {
        // Growth rates side by side stay side by side.
        let rates = testing::grouped_years();
        assert_eq!(
            candidates(rates.panels()[0]),
            [ChartKind::Line, ChartKind::Heatmap]
        );
        assert!(KindSwap.not_for(ChartKind::ErrorBar).is_some());
    }
}
