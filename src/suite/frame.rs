//! The original's frame, kept by every change that is not about it.
//!
//! A chart perturbation that is not about axes, layout or kind (a theme, a
//! palette, a font, data labels, a legend, clutter) is drawn on its
//! original's value axes ([`pin`]), and its drawing is then compared with
//! the original's, scene against scene ([`undeclared_change`]): value ticks,
//! categories and their order, the marks' values, the printed values, the
//! legend and the titles must match wherever the declaration does not name
//! them. A variant that still differs is not kept.

use std::collections::BTreeSet;

use crate::ir::{ChartKind, ChartSpec, PanelScene, PanelSpec, PinnedAxes, Scene};
use crate::perturb::valued_ticks as valued;

/// Axes whose perturbations may change the frame: they are about it.
const FRAME_AXES: [&str; 6] = [
    "axis",
    "chart_kind",
    "subplots",
    "dashboard",
    "data",
    "image",
];

/// Whether a perturbation on `axis` keeps its original's frame.
pub(super) fn keeps_frame(axis: &str) -> bool {
    !FRAME_AXES.contains(&axis)
}

fn is_xy(kind: ChartKind) -> bool {
    matches!(kind, ChartKind::Scatter | ChartKind::Bubble)
}

/// The value axes `panel` printed, to draw again.
fn axes_of(panel: &PanelScene) -> PinnedAxes {
    let (y, x) = (valued(&panel.y_ticks), valued(&panel.x_ticks));
    let right = panel
        .dual_axis
        .as_ref()
        .map(|d| valued(&d.right_ticks))
        .unwrap_or_default();
    // A heatmap's values are read on its colour bar.
    if let Some(h) = &panel.heatmap {
        return PinnedAxes {
            value: valued(&h.colorbar.ticks),
            ..PinnedAxes::default()
        };
    }
    if is_xy(panel.kind) {
        PinnedAxes {
            value: y,
            x,
            right,
            spans: None,
        }
    } else {
        PinnedAxes {
            value: if y.is_empty() { x } else { y },
            x: Vec::new(),
            right,
            spans: None,
        }
    }
}

/// Draws every panel of `spec` on the value axes its counterpart in `base`
/// printed (when the two have the same panels of the same kinds).
pub(super) fn pin(spec: &mut ChartSpec, base: &Scene) {
    let mut panels = spec.panels_mut();
    if panels.len() != base.panels.len() {
        return;
    }
    for (panel, drawn) in panels.iter_mut().zip(&base.panels) {
        pin_to(panel, drawn);
    }
}

/// Draws `panel` on the value axes `drawn` printed, when it is of the same kind.
fn pin_to(panel: &mut PanelSpec, drawn: &PanelScene) {
    if panel.kind != drawn.kind {
        return;
    }
    let axes = axes_of(drawn);
    if axes != PinnedAxes::default() {
        panel.pinned = Some(axes);
    }
}

/// Draws panel `index` of `spec` (a grid or dashboard holding the chart
/// `base` drew alone) on the value axes `base` printed.
pub(super) fn pin_panel(spec: &mut ChartSpec, index: usize, base: &Scene) {
    let [drawn] = base.panels.as_slice() else {
        return;
    };
    if let Some(panel) = spec.panels_mut().get_mut(index) {
        pin_to(panel, drawn);
    }
}

/// Kinds that read values on one linear axis from a zero baseline.
const LINEAR_VALUE_KINDS: [ChartKind; 8] = [
    ChartKind::Bar,
    ChartKind::HorizontalBar,
    ChartKind::GroupedBar,
    ChartKind::StackedBar,
    ChartKind::Line,
    ChartKind::Area,
    ChartKind::StackedArea,
    ChartKind::Lollipop,
];

/// Draws the single panel of `spec` (the same data in another kind or
/// orientation) on the value ticks `base` printed, when both kinds read
/// values on one linear axis. Whether it was pinned.
pub(super) fn pin_value_axis(spec: &mut ChartSpec, base: &Scene) -> bool {
    let [drawn] = base.panels.as_slice() else {
        return false;
    };
    let mut panels = spec.panels_mut();
    let [panel] = panels.as_mut_slice() else {
        return false;
    };
    let axes = axes_of(drawn);
    let linear = |k: ChartKind| LINEAR_VALUE_KINDS.contains(&k);
    if !(linear(drawn.kind) && linear(panel.kind)) || drawn.log_y || axes.value.len() < 2 {
        return false;
    }
    // Bars and areas grow from zero: an axis that does not reach it is kept
    // only for a line.
    let reaches_zero = axes.value.first().is_some_and(|t| t.0 <= 0.0)
        && axes.value.last().is_some_and(|t| t.0 >= 0.0);
    if !reaches_zero && panel.kind != ChartKind::Line {
        return false;
    }
    panel.pinned = Some(PinnedAxes {
        value: axes.value,
        ..PinnedAxes::default()
    });
    true
}

/// The reading aids a variant took away besides its declared change (the
/// ramp of the on/off perturbations: grid lines, tick marks, the closed
/// frame, axis-line weight), compared on the first panel's style, so the
/// item's record names them. A theme replaces the whole style: its record
/// names the theme.
pub(super) fn aids_removed(base: &ChartSpec, variant: &ChartSpec, axis: &str) -> Vec<&'static str> {
    let (before, after) = (base.panels(), variant.panels());
    let (Some(a), Some(b)) = (before.first(), after.first()) else {
        return Vec::new();
    };
    if axis == "theme" {
        return Vec::new();
    }
    let (a, b) = (&a.style, &b.style);
    let mut out = Vec::new();
    if a.grid != crate::ir::GridLines::None && b.grid == crate::ir::GridLines::None {
        out.push("grid");
    }
    // Pies and radars draw no tick marks to take away.
    let kind = before.first().map(|p| p.kind);
    let has_tick_marks = kind.is_some_and(|k| !k.is_circular() && k != ChartKind::Radar);
    if a.tick_marks && !b.tick_marks && has_tick_marks {
        out.push("tick_marks");
    }
    if a.box_frame && !b.box_frame {
        out.push("closed_frame");
    }
    if b.axis_line_width < a.axis_line_width {
        out.push("axis_weight");
    }
    out
}

/// The categories in the order the marks first show them.
fn categories(panel: &PanelScene) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for m in &panel.marks {
        if let Some(c) = m.category.as_deref()
            && !out.contains(&c)
        {
            out.push(c);
        }
    }
    out
}

fn printed_categories(panel: &PanelScene) -> Vec<&str> {
    panel
        .x_ticks
        .iter()
        .chain(&panel.y_ticks)
        .filter(|t| t.value.is_none())
        .map(|t| t.label.as_str())
        .collect()
}

/// Marks as (series, category, value bits), sorted: what is drawn, not in
/// which order it is drawn (a reordered legend redraws series in its order).
fn mark_values(panel: &PanelScene) -> Vec<(&str, Option<&str>, u64)> {
    let mut out: Vec<_> = panel
        .marks
        .iter()
        .map(|m| (m.series.as_str(), m.category.as_deref(), m.value.to_bits()))
        .collect();
    out.sort();
    out
}

fn printed_values(panel: &PanelScene) -> Vec<(&str, Option<&str>, &str)> {
    let mut out: Vec<_> = panel
        .marks
        .iter()
        .filter_map(|m| {
            m.label
                .as_ref()
                .map(|l| (m.series.as_str(), m.category.as_deref(), l.text.as_str()))
        })
        .collect();
    out.sort();
    out
}

/// Whether the panel's legend sits inside its plot area (None without a
/// legend): a legend moved out of the plot or into it is a legend change.
fn legend_inside(p: &PanelScene) -> Option<bool> {
    let first = p.legend.first()?;
    let (a, b) = (&p.plot_area, &first.bbox);
    let (cx, cy) = (b.x + b.w / 2.0, b.y + b.h / 2.0);
    Some(cx >= a.x && cx <= a.x + a.w && cy >= a.y && cy <= a.y + a.h)
}

/// The panel's legend placement: inside its plot area or not, and on which
/// side and half (None without a legend).
fn legend_corner(p: &PanelScene) -> Option<(bool, bool, bool)> {
    let inside = legend_inside(p)?;
    let b = &p.legend.first()?.bbox;
    let a = &p.plot_area;
    let (cx, cy) = (b.x + b.w / 2.0, b.y + b.h / 2.0);
    Some((inside, cx < a.x + a.w / 2.0, cy < a.y + a.h / 2.0))
}

/// Whether a change of the axes alone (their labels' format, their density,
/// a date style, a log scale, the baseline) moved the legend to another
/// corner or out of the plot: the labels' widths reshape the plot and a new
/// scale reshapes the marks, and a legend placed where the marks leave room
/// may then pick another place, a second change the declaration does not
/// name.
pub(super) fn legend_moved(base: &Scene, variant: &Scene, name: &str) -> bool {
    if !matches!(
        name,
        "tick_format" | "date_format" | "tick_density" | "log_scale" | "baseline"
    ) {
        return false;
    }
    match (base.panels.as_slice(), variant.panels.as_slice()) {
        ([a], [b]) => legend_corner(a) != legend_corner(b),
        _ => false,
    }
}

fn text(b: &Option<crate::ir::TextBox>) -> Option<&str> {
    b.as_ref().map(|b| b.text.as_str())
}

/// What `variant` (drawn by a perturbation on `axis`) changed of `base`
/// that the declaration does not name, panel by panel; None when nothing.
pub(super) fn undeclared_change(base: &Scene, variant: &Scene, axis: &str) -> Option<&'static str> {
    if !keeps_frame(axis) {
        return None;
    }
    if base.panels.len() != variant.panels.len() {
        return Some("panels");
    }
    for (a, b) in base.panels.iter().zip(&variant.panels) {
        if axes_of(a) != axes_of(b) {
            return Some("value_ticks");
        }
        if categories(a) != categories(b) {
            return Some("categories");
        }
        if printed_categories(a) != printed_categories(b) {
            return Some("category_labels");
        }
        if mark_values(a) != mark_values(b) {
            return Some("marks");
        }
        if axis != "data_labels" && printed_values(a) != printed_values(b) {
            return Some("printed_values");
        }
        let legend =
            |p: &PanelScene| -> Vec<String> { p.legend.iter().map(|e| e.label.clone()).collect() };
        if axis != "legend" && (legend(a) != legend(b) || legend_inside(a) != legend_inside(b)) {
            return Some("legend");
        }
        if axis != "clutter"
            && (text(&a.title) != text(&b.title)
                || text(&a.x_label) != text(&b.x_label)
                || text(&a.y_label) != text(&b.y_label))
        {
            return Some("titles");
        }
    }
    None
}

/// Why a variant drawn by the perturbation `info` (its asked panel at
/// `target` when a layout moved it) is not kept: the first thing it changed
/// beyond its declaration, as the drop reason; None when it is clean.
pub(super) fn unkept(
    base: &Scene,
    variant: &Scene,
    info: &crate::perturb::Info,
    target: Option<usize>,
) -> Option<String> {
    let what = undeclared_change(base, variant, info.axis)
        .or_else(|| annotation_lost(base, variant, info.name).then_some("annotation"))
        .or_else(|| category_labels_moved(base, variant, info.name).then_some("category_labels"))
        .or_else(|| legend_moved(base, variant, info.name).then_some("legend"))
        .or_else(|| printed_values_differ(base, variant, info.name).then_some("printed_values"))
        .or_else(|| marks_vanish(base, variant, target).then_some("marks"))
        .or_else(|| layout_changed(base, variant, target))?;
    Some(format!("undeclared_change:{what}"))
}

/// Whether `variant` lost the annotation (reference line, highlight, band,
/// callout) its single-panel original drew, under any change but the one
/// that removes it: a kind or orientation that cannot draw it takes away a
/// printed fact the declaration does not name.
pub(super) fn annotation_lost(base: &Scene, variant: &Scene, name: &str) -> bool {
    name != "annotation_removed"
        && matches!(base.panels.as_slice(), [p] if p.annotation.is_some())
        && variant.panels.iter().all(|p| p.annotation.is_none())
}

/// What a layout (subplots, dashboard) changed of the target panel beyond
/// its size and company: the panel prints the category names and the
/// values its single-panel original printed, no fewer (a heatmap whose
/// cells lost their printed values, a bar chart printing every second
/// name, is a data-labels or tick change the layout does not declare) and
/// no more (an easier chart); its legend keeps its place; and the
/// original's source line stays printed. None when nothing.
pub(super) fn layout_changed(
    base: &Scene,
    variant: &Scene,
    target: Option<usize>,
) -> Option<&'static str> {
    let target = target?;
    let [original] = base.panels.as_slice() else {
        return None;
    };
    let panel = variant.panels.iter().find(|p| p.index == target)?;
    let names = |p: &PanelScene| -> BTreeSet<String> {
        printed_categories(p)
            .into_iter()
            .map(str::to_string)
            .collect()
    };
    if names(original) != names(panel) {
        return Some("category_labels");
    }
    if printed_values(original) != printed_values(panel) {
        return Some("printed_values");
    }
    // A legend the smaller panel moves (out of the plot, to another corner)
    // is a legend change the layout does not declare.
    if legend_corner(original) != legend_corner(panel) {
        return Some("legend");
    }
    let source = |s: &Scene| {
        s.extra_text
            .iter()
            .any(|t| t.text.trim_start().to_lowercase().starts_with("source"))
    };
    if source(base) && !source(variant) {
        return Some("source_line");
    }
    None
}

/// Whether another kind or orientation of a single-panel chart prints other
/// values than the original: a heatmap printing all 38 cells redrawn as
/// grouped bars printing half of them (the rest colliding) is a
/// data-labels change the swap does not declare. Same marks, same printed
/// values, or the variant is not kept.
pub(super) fn printed_values_differ(base: &Scene, variant: &Scene, name: &str) -> bool {
    if !matches!(name, "kind_swap" | "kind_swap_new" | "orientation") {
        return false;
    }
    match (base.panels.as_slice(), variant.panels.as_slice()) {
        ([a], [b]) => printed_values(a) != printed_values(b),
        _ => false,
    }
}

/// Whether a change of the value axis alone (its tick labels' format, its
/// start, a log scale) changed which category names the other axis prints:
/// longer tick labels narrow the plot, and a date axis printing every week
/// may then print every second one, which drops the label an item reads.
pub(super) fn category_labels_moved(base: &Scene, variant: &Scene, name: &str) -> bool {
    if !matches!(name, "tick_format" | "baseline" | "log_scale") {
        return false;
    }
    // The axis across the value axis, dates included (a time axis's ticks
    // carry values too); a scatter plot's x axis is a value axis itself.
    let across = |p: &PanelScene| -> Vec<String> {
        let ticks = if p.kind.is_horizontal() {
            &p.y_ticks
        } else {
            &p.x_ticks
        };
        ticks.iter().map(|t| t.label.clone()).collect()
    };
    match (base.panels.as_slice(), variant.panels.as_slice()) {
        ([a], [b]) if !is_xy(a.kind) => across(a) != across(b),
        _ => false,
    }
}

/// Bars narrower than a pixel are not drawn at all (a line of 58 years ×
/// 9 series swapped to grouped bars; fifty bars in a small panel): a
/// variant whose asked panel draws such bars where its original drew every
/// bar a pixel wide or more has lost marks its declaration does not name,
/// and one that redraws such bars anywhere else draws other bars.
pub(super) fn marks_vanish(base: &Scene, variant: &Scene, target: Option<usize>) -> bool {
    let vanishing = |p: &PanelScene| {
        let horizontal = p.kind.is_horizontal();
        p.marks.iter().any(|m| {
            let thickness = if horizontal { m.bbox.h } else { m.bbox.w };
            m.kind == crate::ir::MarkKind::Bar && thickness < 1.0
        })
    };
    // Where the bars sit, to a tenth of a pixel.
    let bars = |p: &PanelScene| -> Vec<[i64; 4]> {
        p.marks
            .iter()
            .filter(|m| m.kind == crate::ir::MarkKind::Bar)
            .map(|m| {
                let b = &m.bbox;
                [b.x, b.y, b.w, b.h].map(|v| (f64::from(v) * 10.0).round() as i64)
            })
            .collect()
    };
    let asked = target.unwrap_or(0);
    let Some(after) = variant.panels.iter().find(|p| p.index == asked) else {
        return false;
    };
    let before = base.panels.iter().any(vanishing);
    // Bars under a pixel are drawn by antialiasing alone: redrawn at any
    // other place or size they come out as other bars (an outside reader saw
    // a bar twice the height of any other appear under a removed legend).
    let redrawn = base.panels.first().is_none_or(|b| bars(b) != bars(after));
    vanishing(after) && (!before || redrawn)
}

/// Whether a data-labels change left every printed value as it was (a
/// kind whose points already carry names, or labels that find no room):
/// the declared change did not happen, whatever else moved.
pub(super) fn labels_unchanged(base: &Scene, variant: &Scene, axis: &str) -> bool {
    axis == "data_labels"
        && base.panels.len() == variant.panels.len()
        && base
            .panels
            .iter()
            .zip(&variant.panels)
            .all(|(a, b)| printed_values(a) == printed_values(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::testing as t;

    fn drawn(spec: &ChartSpec) -> Scene {
        crate::render::render_svg(spec).expect("renders").1
    }

    /// One series of sales over three cities.
    fn three_cities() -> crate::ir::Table {
        t::category_table(
            "t",
            "City",
            &["Oslo", "Lima", "Kyiv"],
            vec![t::series("Sales", &[Some(3.0), Some(5.0), Some(4.0)], 0)],
        )
    }

    #[test]
    fn a_pinned_drawing_keeps_the_original_ticks_under_another_tick_count() {
        let table = t::category_table(
            "t",
            "City",
            &["Oslo", "Lima", "Kyiv"],
            vec![t::series("Sales", &[Some(12.0), Some(47.0), Some(31.0)], 0)],
        );
        let original = t::single(&table, ChartKind::Bar);
        let base = drawn(&original);
        let denser = crate::perturb::restyle(&original, |s| s.tick_count = 12);
        assert!(
            undeclared_change(&base, &drawn(&denser), "theme").is_some(),
            "another tick count re-ranges the axis unpinned"
        );
        let mut pinned = denser.clone();
        pin(&mut pinned, &base);
        let again = drawn(&pinned);
        assert_eq!(undeclared_change(&base, &again, "theme"), None);
        assert_eq!(axes_of(&again.panels[0]), axes_of(&base.panels[0]));
    }

    #[test]
    fn declared_changes_are_allowed_and_others_are_named() {
        let table = t::category_table(
            "t",
            "City",
            &["Oslo", "Lima"],
            vec![t::series("Sales", &[Some(3.0), Some(5.0)], 0)],
        );
        let original = t::single(&table, ChartKind::Bar);
        let base = drawn(&original);
        let mut labelled = crate::perturb::restyle(&original, |s| s.data_labels = true);
        pin(&mut labelled, &base);
        let with_labels = drawn(&labelled);
        assert_eq!(undeclared_change(&base, &with_labels, "data_labels"), None);
        assert_eq!(
            undeclared_change(&base, &with_labels, "theme"),
            Some("printed_values")
        );
        // Axes, kinds and layouts are about the frame: never judged here.
        assert_eq!(undeclared_change(&base, &with_labels, "axis"), None);
    }

    #[test]
    fn another_kind_prints_the_same_values_or_is_not_kept() {
        let table = three_cities();
        let labelled =
            |kind| crate::perturb::restyle(&t::single(&table, kind), |s| s.data_labels = true);
        let bars = drawn(&labelled(ChartKind::Bar));
        let sideways = drawn(&labelled(ChartKind::HorizontalBar));
        assert!(!printed_values_differ(&bars, &sideways, "orientation"));
        let bare = drawn(&t::single(&table, ChartKind::HorizontalBar));
        assert!(printed_values_differ(&bars, &bare, "orientation"));
        assert!(printed_values_differ(&bars, &bare, "kind_swap"));
        // Other changes are judged by the frame checks, not here.
        assert!(!printed_values_differ(&bars, &bare, "data_labels"));
    }

    #[test]
    fn a_value_axis_change_keeps_the_category_labels() {
        let table = three_cities();
        let base = drawn(&t::single(&table, ChartKind::Bar));
        assert!(!category_labels_moved(&base, &base, "tick_format"));
        let mut thinned = base.clone();
        thinned.panels[0].x_ticks.remove(1);
        assert!(category_labels_moved(&base, &thinned, "tick_format"));
        assert!(category_labels_moved(&base, &thinned, "baseline"));
        // Other changes are judged elsewhere.
        assert!(!category_labels_moved(&base, &thinned, "font_size"));
    }

    #[test]
    fn a_label_format_change_keeps_the_legend_in_its_corner() {
        let table = t::category_table(
            "t",
            "City",
            &["Oslo", "Lima", "Kyiv"],
            vec![
                t::series("Sales", &[Some(3.0), Some(5.0), Some(4.0)], 0),
                t::series("Costs", &[Some(2.0), Some(1.0), Some(2.5)], 0),
            ],
        );
        let base = drawn(&t::single(&table, ChartKind::GroupedBar));
        assert!(legend_corner(&base.panels[0]).is_some());
        assert!(!legend_moved(&base, &base, "date_format"));
        // The same legend across the plot: another corner.
        let mut moved = base.clone();
        let (area, entries) = (moved.panels[0].plot_area, &mut moved.panels[0].legend);
        for e in entries.iter_mut() {
            e.bbox.x = area.x + area.w - (e.bbox.x - area.x) - e.bbox.w;
        }
        assert!(legend_moved(&base, &moved, "date_format"));
        assert!(legend_moved(&base, &moved, "tick_format"));
        // A layout's target panel keeps its legend's place too.
        let target = Some(base.panels[0].index);
        assert_eq!(layout_changed(&base, &base, target), None);
        assert_eq!(layout_changed(&base, &moved, target), Some("legend"));
        // A change about the legend, or a kind swap redrawing the whole picture, is judged elsewhere.
        assert!(!legend_moved(&base, &moved, "legend_moved"));
        assert!(legend_moved(&base, &moved, "log_scale"));
        assert!(!legend_moved(&base, &moved, "kind_swap"));
    }
}
