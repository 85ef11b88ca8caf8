//! Bar, horizontal bar, grouped, stacked, line, area, stacked area, scatter
//! and bubble panels: axes, ticks, grid, marks, value labels and legends.

use super::canvas::{Canvas, TextSpec, text_bbox};
use super::common::*;
use super::fonts::text_width;
use super::text::{shrink_to_fit, truncate, wrap};
use super::time_axis::TimeAxis;
use super::{PanelFrame, RenderError};
use crate::ir::{
    Align, AnnotationMark, AnnotationScene, BBox, ChartKind, GridLines, LegendPlacement, Mark,
    MarkKind, NamedColor, NumberFormat, PanelScene, PanelSpec, Style, TextBox, Tick,
};
use crate::spec::dates::IndexDates;
use crate::spec::format::{
    decimals_for, format_number, log_ticks, nice_ticks, span_ticks, ticks_from,
};

type Cand = (f32, f32, Align, String);

struct Series {
    name: String,
    values: Vec<Option<f64>>,
    color: NamedColor,
    format: NumberFormat,
    dash: Option<&'static str>,
}

/// A numeric axis: range, printed ticks.
#[derive(Clone)]
pub struct NumAxis {
    pub lo: f64,
    pub hi: f64,
    pub log: bool,
    pub ticks: Vec<(f64, String)>,
}

impl NumAxis {
    pub fn frac(&self, v: f64) -> f64 {
        if self.log {
            let v = v.max(self.lo);
            (v.log10() - self.lo.log10()) / (self.hi.log10() - self.lo.log10())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        }
    }

    /// The value bars grow from: zero when it is in range, else the nearer end.
    fn baseline(&self) -> f64 {
        if self.log {
            self.lo
        } else {
            0f64.clamp(self.lo, self.hi)
        }
    }
}

/// Build a numeric axis over data extents [lo, hi].
pub fn num_axis(
    lo: f64,
    hi: f64,
    style: &Style,
    log: bool,
    unit: &NumberFormat,
    include_zero: bool,
) -> NumAxis {
    if log {
        // A bar starts at the axis floor: a value on it (0.001 on an axis
        // from 0.001) would have no length, so the floor keeps below it.
        let lo = if lo > 0.0 {
            lo / 1.5
        } else {
            hi.max(1.0) / 10.0
        };
        let hi = hi.max(lo);
        let ticks = log_ticks(lo, hi);
        let a = ticks.first().copied().unwrap_or(lo).min(lo);
        let b = ticks.last().copied().unwrap_or(hi).max(hi);
        let labels = ticks
            .iter()
            .map(|t| {
                (
                    *t,
                    format_number(*t, style.number_style, decimals_for(*t), unit),
                )
            })
            .collect();
        return NumAxis {
            lo: a,
            hi: b,
            log: true,
            ticks: labels,
        };
    }
    let (mut lo, mut hi) = (lo, hi);
    if include_zero {
        lo = lo.min(0.0);
        hi = hi.max(0.0);
    } else {
        let pad = (hi - lo).abs().max(hi.abs() * 0.02).max(1e-9) * 0.06;
        // Padding never takes non-negative data below zero.
        lo = if lo >= 0.0 {
            (lo - pad).max(0.0)
        } else {
            lo - pad
        };
        hi += pad;
    }
    let (ticks, decimals) = nice_ticks(lo, hi, style.tick_count);
    let a = ticks.first().copied().unwrap_or(lo);
    let b = ticks.last().copied().unwrap_or(hi);
    NumAxis {
        lo: a,
        hi: b,
        log: false,
        ticks: ticks
            .into_iter()
            .map(|t| (t, format_number(t, style.number_style, decimals, unit)))
            .collect(),
    }
}

/// A linear axis printing exactly `ticks` (an earlier drawing's), spanning
/// the first to the last, as [`num_axis`] and [`start_axis`] span theirs.
pub(super) fn pinned_axis(ticks: &[(f64, String)]) -> Option<NumAxis> {
    let mut ticks = ticks.to_vec();
    ticks.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (lo, hi) = (ticks.first()?.0, ticks.last()?.0);
    (ticks.len() >= 2 && lo < hi && lo.is_finite() && hi.is_finite()).then_some(NumAxis {
        lo,
        hi,
        log: false,
        ticks,
    })
}

/// A linear axis over exactly an earlier drawing's span, at this style's
/// tick density.
pub(super) fn span_axis(
    span: Option<(f64, f64)>,
    style: &Style,
    unit: &NumberFormat,
) -> Option<NumAxis> {
    let (lo, hi) = span?;
    let (ticks, decimals) = span_ticks(lo, hi, style.tick_count)?;
    Some(NumAxis {
        lo,
        hi,
        log: false,
        ticks: ticks
            .into_iter()
            .map(|t| (t, format_number(t, style.number_style, decimals, unit)))
            .collect(),
    })
}

/// A linear axis that starts exactly at `start`, its first printed tick.
fn start_axis(start: f64, hi: f64, style: &Style, unit: &NumberFormat) -> NumAxis {
    let hi = hi + (hi - start).abs().max(1e-9) * 0.06;
    let (ticks, decimals) = ticks_from(start, hi, style.tick_count);
    NumAxis {
        lo: start,
        hi: ticks.last().copied().unwrap_or(hi),
        log: false,
        ticks: ticks
            .into_iter()
            .map(|t| (t, format_number(t, style.number_style, decimals, unit)))
            .collect(),
    }
}

/// One point of a line, as the Scene records it.
struct LinePoint<'a> {
    series: &'a Series,
    category: &'a str,
    value: f64,
    at: (f32, f32),
    /// Half the side of its box around `at`.
    half: f32,
}

impl LinePoint<'_> {
    /// Its mark, and with data labels its label's places above and below
    /// it, in the colour `color_at` gives for a label's top edge.
    fn record(
        &self,
        scene: &mut PanelScene,
        label_jobs: &mut Vec<(usize, String, Vec<Cand>)>,
        st: &Style,
        color_at: impl Fn(f32) -> String,
    ) {
        let ((x, y), half) = (self.at, self.half);
        let idx = scene.marks.len();
        scene.marks.push(Mark::new(
            MarkKind::LinePoint,
            self.series.name.clone(),
            Some(self.category.to_string()),
            self.value,
            self.series.color.clone(),
            BBox {
                x: x - half,
                y: y - half,
                w: 2.0 * half,
                h: 2.0 * half,
            },
        ));
        if st.data_labels {
            let text = value_label(self.value, st, self.series);
            let (above, below) = (y - half - st.value_label_size - 3.0, y + half + 3.0);
            let cands = vec![
                (x, above, Align::Center, color_at(above)),
                (x, below, Align::Center, color_at(below)),
            ];
            label_jobs.push((idx, text, cands));
        }
    }
}

fn value_label(v: f64, style: &Style, s: &Series) -> String {
    let decimals = if v.fract() == 0.0 {
        0
    } else {
        usize::from(s.format.decimals.max(1)).min(4)
    };
    let decimals = decimals.max(usize::from(s.format.decimals));
    format_number(v, style.number_style, decimals, &s.format)
}

/// How category labels are printed along the x axis.
enum CatMode {
    Flat,
    /// Wrapped on up to two lines.
    Wrapped(Vec<Vec<String>>),
    /// Rotated by -45°, truncated labels, every `step`-th shown.
    Rotated {
        labels: Vec<String>,
        step: usize,
    },
}

/// Draws a cartesian panel. An inside legend that finds no corner free of
/// data is moved (bottom corner → top corner with headroom → above the plot)
/// and the panel is redrawn from a snapshot of the canvas.
pub fn draw(
    canvas: &mut Canvas,
    panel: &PanelSpec,
    frame: &PanelFrame,
) -> Result<PanelScene, RenderError> {
    let bare;
    let (panel, frame) = match without_value_axis(panel, frame) {
        Some(drawn) => {
            bare = drawn;
            (&bare.0, &bare.1)
        }
        None => (panel, frame),
    };
    let mut forced = None;
    loop {
        let snapshot = canvas.clone();
        match draw_once(canvas, panel, frame, forced)? {
            Drawn::Done(scene) => return Ok(*scene),
            Drawn::Retry(place) => {
                *canvas = snapshot;
                forced = Some(place);
            }
        }
    }
}

/// A bar chart that prints its values drawn without its value axis (the
/// `hide_value_axis` furniture): the axis' tick labels and title are left
/// off as a shared grid axis is, and tick marks and gridlines with them.
fn without_value_axis(panel: &PanelSpec, frame: &PanelFrame) -> Option<(PanelSpec, PanelFrame)> {
    let st = &panel.style;
    let bars = matches!(
        panel.kind,
        ChartKind::Bar | ChartKind::HorizontalBar | ChartKind::GroupedBar
    );
    if !(st.furniture.hide_value_axis && st.data_labels && bars) {
        return None;
    }
    let mut panel = panel.clone();
    panel.style.grid = GridLines::None;
    panel.style.tick_marks = false;
    let mut frame = frame.clone();
    if panel.kind.is_horizontal() {
        frame.hide_x_labels = true;
    } else {
        frame.hide_y_labels = true;
    }
    Some((panel, frame))
}

enum Drawn {
    Done(Box<PanelScene>),
    /// No inside corner was free: draw again with this placement.
    Retry(LegendPlacement),
}

fn draw_once(
    canvas: &mut Canvas,
    panel: &PanelSpec,
    frame: &PanelFrame,
    forced: Option<LegendPlacement>,
) -> Result<Drawn, RenderError> {
    let st = &panel.style;
    let kind = panel.kind;
    let table = &panel.table;
    let cats = table.category_labels();
    // Index labels as printed (`Jan 2023` for `2023-01`); marks keep `cats`.
    let dates = IndexDates::of_panel(panel);
    let shown = dates.labels(table);
    // The table's label a printed one stands for, where the two differ.
    let source = |i: usize| (shown[i] != cats[i]).then(|| cats[i].clone());
    let n = cats.len();
    // A dual-axis chart's right axis is read linearly; a log left axis
    // would leave the two axes' gridlines meaning different things.
    let dual = kind == ChartKind::DualAxis;
    let log = st.log_scale && !dual;
    let series: Vec<Series> = panel
        .series
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let col = table.series(name).ok_or_else(|| {
                RenderError::Spec(format!("table {:?} has no series {name:?}", table.id))
            })?;
            Ok(Series {
                name: name.clone(),
                values: col
                    .cells
                    .iter()
                    .map(|c| c.as_f64().filter(|v| v.is_finite() && (!log || *v > 0.0)))
                    .collect(),
                color: color_of(st, i),
                format: col.format.clone(),
                dash: dash_for(st, i),
            })
        })
        .collect::<Result<_, RenderError>>()?;
    if series.is_empty() {
        return Err(RenderError::Spec(format!(
            "panel on {:?} draws no series",
            table.id
        )));
    }
    let xy = matches!(kind, ChartKind::Scatter | ChartKind::Bubble);
    let horizontal = kind.is_horizontal();
    let stacked = kind.is_stacked();
    let percent = kind == ChartKind::PercentStackedBar;
    let lollipop = kind == ChartKind::Lollipop;
    let diverging = kind == ChartKind::DivergingBar;
    let dumbbell = kind == ChartKind::Dumbbell;
    let is_line = matches!(
        kind,
        ChartKind::Line | ChartKind::Area | ChartKind::StackedArea
    );
    // Lines and areas over unevenly spaced times place points by time.
    let time = if is_line && !horizontal {
        TimeAxis::detect(&table.index)
    } else {
        None
    };
    // Every listed series is drawn: several on a plain bar chart are grouped,
    // several on an area chart overlap (translucent), so the picture never
    // hides data the spec (and hence the questions) refer to.
    let drawn_series: Vec<&Series> = if xy {
        Vec::new()
    } else {
        series.iter().collect()
    };

    // Legend items.
    let legend_items: Vec<LegendItem> = if drawn_series.len() >= 2 {
        order_items(
            drawn_series
                .iter()
                .enumerate()
                .map(|(i, s)| LegendItem {
                    label: s.name.clone(),
                    category: None,
                    color: s.color.clone(),
                    swatch: if kind == ChartKind::Line || (dual && i == 1) {
                        Swatch::Line {
                            dash: s.dash,
                            marker: st.markers,
                            shape: if st.dashes { i } else { 0 },
                        }
                    } else {
                        Swatch::Box
                    },
                })
                .collect(),
            st.legend_order,
        )
    } else {
        Vec::new()
    };
    // A waterfall's colours say which way each step goes, not which series.
    let waterfall = kind == ChartKind::Waterfall;
    // An error-bar chart draws one series: its bounds are whiskers, not
    // series of their own.
    let error_bars = kind == ChartKind::ErrorBar;
    let legend_items = if waterfall {
        super::waterfall::legend_items(st)
    } else if error_bars {
        Vec::new()
    } else {
        legend_items
    };
    let placement = match forced.unwrap_or(st.legend) {
        _ if legend_items.is_empty() => LegendPlacement::None,
        p if forced.is_some() => p,
        // Inside corners would sit over one axis' data, and the right side
        // belongs to the second value axis: the legend goes above or below.
        LegendPlacement::None | LegendPlacement::Top | LegendPlacement::Bottom if dual => {
            forced.unwrap_or(st.legend)
        }
        _ if dual => LegendPlacement::Top,
        LegendPlacement::Auto => LegendPlacement::Top,
        LegendPlacement::Direct if !is_line => LegendPlacement::Top,
        // Bars grow along x from the left: an inside corner would cover the
        // top bars; percent stacks fill the whole plot.
        LegendPlacement::TopLeft
        | LegendPlacement::TopRight
        | LegendPlacement::BottomLeft
        | LegendPlacement::BottomRight
            if horizontal || percent =>
        {
            LegendPlacement::Top
        }
        // A tall legend in a top corner would need headroom as tall as
        // itself: ten series would double the value axis. It goes above.
        LegendPlacement::TopLeft | LegendPlacement::TopRight
            if vertical_legend_size(&legend_items, st).1 > frame.rect.h * 0.25 =>
        {
            LegendPlacement::Top
        }
        // A side legend would squeeze a narrow panel: put it on top instead.
        LegendPlacement::Right
            if vertical_legend_size(&legend_items, st).0 > frame.rect.w * 0.28 =>
        {
            LegendPlacement::Top
        }
        p => p,
    };

    // Annotations are drawn on vertical category charts with a linear axis.
    let annot = panel
        .annotation
        .as_ref()
        .filter(|_| !xy && !horizontal && !log && !dual);
    let ref_line = match annot.map(|a| &a.mark) {
        Some(AnnotationMark::ReferenceLine { value, label, .. }) if value.is_finite() => {
            Some((*value, label.as_str()))
        }
        _ => None,
    };
    let highlight = match annot.map(|a| &a.mark) {
        Some(AnnotationMark::Highlight { category })
            if drawn_series.len() == 1
                && matches!(kind, ChartKind::Bar | ChartKind::GroupedBar) =>
        {
            cats.iter().position(|c| c == category)
        }
        _ => None,
    };
    let band = match annot.map(|a| &a.mark) {
        Some(AnnotationMark::Band { from, to, label }) => {
            match (
                cats.iter().position(|c| c == from),
                cats.iter().position(|c| c == to),
            ) {
                (Some(a), Some(b)) if a <= b => Some((a, b, label.as_str())),
                _ => None,
            }
        }
        _ => None,
    };
    let callout = match annot.map(|a| &a.mark) {
        Some(AnnotationMark::Callout {
            series,
            category,
            text,
        }) => Some((series.as_str(), category.as_str(), text.as_str())),
        _ => None,
    };
    let annot_moved = annot.is_some_and(|a| a.moved);

    let mut scene = PanelScene::blank(frame.index, frame.row, frame.col, kind, &table.id);
    scene.log_y = log && !horizontal;

    let inner = inset(frame.rect, st.margin as f32);
    let (title, subtitle, title_h) = draw_titles(
        canvas,
        panel.title.as_deref(),
        panel.subtitle_text(),
        st,
        inner,
    );
    scene.title = title;
    scene.subtitle = subtitle;
    let mut top = inner.y + title_h;
    let mut bottom = inner.bottom();
    let left0 = inner.x;
    let mut right = inner.right();

    // Outside legends take their space first.
    let mut legend_top_y = None;
    match placement {
        LegendPlacement::Top => {
            let h = horizontal_legend_height(&legend_items, st, inner.w);
            legend_top_y = Some(top);
            top += h + 6.0;
        }
        LegendPlacement::Bottom => {
            let h = horizontal_legend_height(&legend_items, st, inner.w);
            bottom -= h + 4.0;
            legend_top_y = Some(bottom + 4.0);
        }
        LegendPlacement::Right => {
            let (w, _) = vertical_legend_size(&legend_items, st);
            right -= w + 8.0;
        }
        _ => {}
    }
    // Direct labels need a right margin.
    if placement == LegendPlacement::Direct {
        let w = drawn_series
            .iter()
            .map(|s| text_width(&s.name, &st.font_family, st.legend_size, false))
            .fold(0.0f32, f32::max);
        right -= (w + 12.0).min(inner.w * 0.3);
    }

    // Axis titles.
    let label_h = st.label_size * 1.0;
    let has_ylabel = panel
        .y_label
        .as_deref()
        .is_some_and(|l| !l.trim().is_empty());
    let has_xlabel = panel
        .x_label
        .as_deref()
        .is_some_and(|l| !l.trim().is_empty());
    let left_title_w = if has_ylabel { label_h + 8.0 } else { 0.0 };
    if has_xlabel && !frame.hide_x_labels {
        bottom -= label_h + 8.0;
    }
    // Outward space the tick marks take (inward ticks take none).
    let tick_len = if st.tick_marks && !st.ticks_inward {
        TICK_LEN
    } else {
        0.0
    };
    let tick_h = st.tick_size;

    // Value extents.
    let mut vlo = f64::INFINITY;
    let mut vhi = f64::NEG_INFINITY;
    let mut xlo = f64::INFINITY;
    let mut xhi = f64::NEG_INFINITY;
    if xy {
        for r in 0..n {
            if let (Some(x), Some(y)) = (series[0].values[r], series[1].values[r]) {
                xlo = xlo.min(x);
                xhi = xhi.max(x);
                vlo = vlo.min(y);
                vhi = vhi.max(y);
            }
        }
    } else if stacked {
        for r in 0..n {
            let (mut pos, mut neg) = (0.0, 0.0);
            for s in &drawn_series {
                if let Some(v) = s.values[r] {
                    if v >= 0.0 { pos += v } else { neg += v }
                }
            }
            vlo = vlo.min(neg).min(pos);
            vhi = vhi.max(pos).max(neg);
        }
    } else if error_bars {
        // Whiskers reach the bounds; bars grow from the baseline.
        for s in series.iter().skip(1).take(2) {
            for v in s.values.iter().flatten() {
                vlo = vlo.min(*v);
                vhi = vhi.max(*v);
            }
        }
        for v in series[0].values.iter().flatten() {
            vlo = vlo.min(*v);
            vhi = vhi.max(*v);
        }
    } else if dual {
        // The left axis reads the bars only; the line has its own axis.
        for v in series[0].values.iter().flatten() {
            vlo = vlo.min(*v);
            vhi = vhi.max(*v);
        }
    } else if waterfall {
        // Every bar runs between two running totals (the first from zero).
        for v in series
            .get(1)
            .map(|s| s.values.as_slice())
            .unwrap_or_default()
            .iter()
            .flatten()
            .chain([&0.0])
        {
            vlo = vlo.min(*v);
            vhi = vhi.max(*v);
        }
    } else {
        for s in &drawn_series {
            for v in s.values.iter().flatten() {
                vlo = vlo.min(*v);
                vhi = vhi.max(*v);
            }
        }
    }
    if !vlo.is_finite() {
        (vlo, vhi) = (0.0, 1.0);
    }
    if !xlo.is_finite() {
        (xlo, xhi) = (0.0, 1.0);
    }
    if let Some((v, _)) = ref_line {
        vlo = vlo.min(v);
        vhi = vhi.max(v);
    }
    if let Some((a, b)) = frame.shared_values {
        vlo = vlo.min(a);
        vhi = vhi.max(b);
    }
    let unit = series[if xy { 1 } else { 0 }].format.clone();
    // Scatter axes follow the data; bubbles need extra room for their radius.
    // Diverging bars grow from zero whatever the theme; a dumbbell's dots
    // are read as positions, so its axis follows the data.
    let include_zero = (st.zero_baseline || diverging) && !log && !xy && !dumbbell;
    if kind == ChartKind::Bubble {
        let (px, py) = (
            (xhi - xlo).abs().max(1e-9) * 0.1,
            (vhi - vlo).abs().max(1e-9) * 0.1,
        );
        // Non-negative data keeps a non-negative axis; bubbles are clipped to the plot.
        let floor = |lo: f64, pad: f64| {
            if lo >= 0.0 {
                (lo - pad).max(0.0)
            } else {
                lo - pad
            }
        };
        (xlo, xhi) = (floor(xlo, px), xhi + px);
        if !log {
            (vlo, vhi) = (floor(vlo, py), vhi + py);
        }
    }

    // Headroom on the value axis for value labels and inside legends.
    let inside_legend = matches!(
        placement,
        LegendPlacement::TopLeft
            | LegendPlacement::TopRight
            | LegendPlacement::BottomLeft
            | LegendPlacement::BottomRight
    );
    // Top corners get headroom above the data; bottom corners are used only
    // where the data leaves them free.
    let inside_top = matches!(
        placement,
        LegendPlacement::TopLeft | LegendPlacement::TopRight
    );
    let (leg_w, leg_h) = if inside_legend {
        vertical_legend_size(&legend_items, st)
    } else {
        (0.0, 0.0)
    };
    // A requested axis start holds only while all the data lies above it.
    let start = st
        .value_start
        .filter(|s| !log && !diverging && !dual && s.is_finite() && *s <= vlo && *s < vhi);
    let value_axis_in = |plot_len: f32, vlo: f64, vhi: f64, unit: &NumberFormat| -> NumAxis {
        // Shares fill the plot; their labels sit inside the segments.
        if percent {
            return super::lollipop::percent_axis(st, unit);
        }
        let mut need = 0.0f32;
        if st.data_labels && !horizontal {
            need += st.value_label_size * 1.4;
        }
        if inside_top && !horizontal {
            need += leg_h + 12.0;
        }
        if horizontal && st.data_labels {
            need += st.value_label_size * 4.0;
        }
        // A band's label sits above the data; a callout's text and arrow
        // above its mark.
        if band.is_some() {
            need += annotation_size(st) * 1.8;
        }
        if callout.is_some() {
            need += annotation_size(st) * 1.4 + CALLOUT_RISE;
        }
        let frac = (need / plot_len.max(50.0)).min(0.6) as f64;
        let (mut lo, mut hi) = (vlo, vhi);
        if frac > 0.0 {
            if log {
                let span = hi.max(1e-300).log10() - lo.max(1e-300).log10();
                hi = 10f64.powf(hi.log10() + span.max(1.0) * frac / (1.0 - frac));
            } else {
                let base = match start {
                    Some(s) => s,
                    None if include_zero => lo.min(0.0),
                    None => lo,
                };
                let top = if include_zero { hi.max(0.0) } else { hi };
                hi = base + (top - base) / (1.0 - frac);
                if vhi <= 0.0 && include_zero {
                    hi = vhi.max(0.0) + (top - base) * frac;
                }
                lo = lo.min(base);
                // Labels sit outside both ends of diverging bars and dumbbells.
                if (diverging || dumbbell) && st.data_labels {
                    let room = st.value_label_size * 4.0;
                    let wider = lo - (hi - lo) * f64::from((room / plot_len.max(50.0)).min(0.3));
                    // Amounts that cannot be negative keep an axis from zero.
                    lo = if vlo >= 0.0 { wider.max(0.0) } else { wider };
                }
            }
        }
        match start {
            Some(s) => start_axis(s, hi, st, unit),
            None => num_axis(lo, hi, st, log, unit, include_zero),
        }
    };
    let pinned = panel.pinned.as_ref().filter(|_| !log);
    let spans = pinned.and_then(|p| p.spans.clone()).unwrap_or_default();
    let value_axis = |plot_len: f32, vlo: f64, vhi: f64| {
        pinned
            .and_then(|p| pinned_axis(&p.value))
            .or_else(|| span_axis(spans.value, st, &unit))
            .unwrap_or_else(|| value_axis_in(plot_len, vlo, vhi, &unit))
    };
    // The right axis of a dual-axis chart: the line's extent, with the same
    // headroom for labels and legends as the left one.
    let right_extent = series.get(1).filter(|_| dual).map(|s| {
        let (lo, hi) = s
            .values
            .iter()
            .flatten()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(*v), b.max(*v))
            });
        if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) }
    });
    let right_axis = |plot_len: f32| -> Option<NumAxis> {
        right_extent.map(|(lo, hi)| {
            pinned
                .and_then(|p| pinned_axis(&p.right))
                .or_else(|| span_axis(spans.right, st, &series[1].format))
                .unwrap_or_else(|| value_axis_in(plot_len, lo, hi, &series[1].format))
        })
    };

    let est_plot_h = (bottom - top - tick_h * 2.0).max(40.0);
    let est_plot_w = (right - left0 - 60.0).max(40.0);
    let mut vaxis = value_axis(if horizontal { est_plot_w } else { est_plot_h }, vlo, vhi);
    let mut raxis = right_axis(est_plot_h);
    let xaxis = if xy {
        Some(
            pinned
                .and_then(|p| pinned_axis(&p.x))
                .or_else(|| span_axis(spans.x, st, &series[0].format))
                .unwrap_or_else(|| num_axis(xlo, xhi, st, false, &series[0].format, false)),
        )
    } else {
        None
    };

    let tick_label_w = |axis: &NumAxis| -> f32 {
        axis.ticks
            .iter()
            .map(|(_, l)| text_width(l, &st.font_family, st.tick_size, false))
            .fold(0.0f32, f32::max)
    };

    // Horizontal bars: categories on the left.
    let max_cat_w = inner.w * 0.36;
    let hcat_labels: Vec<String> = if horizontal {
        shown
            .iter()
            .map(|c| truncate(c, &st.font_family, st.tick_size, false, max_cat_w))
            .collect()
    } else {
        Vec::new()
    };
    let left_axis_w = if horizontal {
        hcat_labels
            .iter()
            .map(|l| text_width(l, &st.font_family, st.tick_size, false))
            .fold(0.0f32, f32::max)
    } else {
        tick_label_w(&vaxis)
    };
    let mut left = left0 + left_title_w + left_axis_w + tick_len + 6.0;
    // The right value axis takes its labels' and title's width from the right.
    let right_title = dual_title(panel, 1);
    if let Some(ra) = &raxis {
        let title_w = if right_title.is_some() {
            label_h + 8.0
        } else {
            0.0
        };
        right -= tick_label_w(ra) + tick_len + 6.0 + title_w;
    }

    // A layout aligning panels narrows the plot before category labels are fitted.
    if let Some(a) = frame.plot_area {
        left = left.max(a.x);
        right = right.min(a.right());
    }
    // Category x-axis label mode.
    let mut plot_w = (right - left).max(20.0);
    let mut cat_mode = CatMode::Flat;
    let mut x_axis_h = tick_h * 1.0 + tick_len + 6.0;
    // A time axis prints flat labels at round times, spaced to fit.
    if !horizontal && !xy && n > 0 && !frame.hide_x_labels && time.is_none() {
        let slot = plot_w / n as f32;
        let widths: Vec<f32> = shown
            .iter()
            .map(|c| text_width(c, &st.font_family, st.tick_size, false))
            .collect();
        let max_w = widths.iter().copied().fold(0.0f32, f32::max);
        if max_w <= slot - 6.0 {
            cat_mode = CatMode::Flat;
        } else {
            let wrapped: Vec<(Vec<String>, bool)> = shown
                .iter()
                .map(|c| wrap(c, &st.font_family, st.tick_size, false, slot - 6.0, 2))
                .collect();
            if slot >= 40.0 && wrapped.iter().all(|(_, ok)| *ok) {
                x_axis_h += tick_h * 1.15;
                cat_mode = CatMode::Wrapped(wrapped.into_iter().map(|(l, _)| l).collect());
            } else {
                let max_label_w = (bottom - top) * 0.35 / std::f32::consts::FRAC_1_SQRT_2;
                let labels: Vec<String> = shown
                    .iter()
                    .map(|c| {
                        truncate(
                            c,
                            &st.font_family,
                            st.tick_size,
                            false,
                            max_label_w.min(180.0),
                        )
                    })
                    .collect();
                let lw = labels
                    .iter()
                    .map(|l| text_width(l, &st.font_family, st.tick_size, false))
                    .fold(0.0f32, f32::max);
                let need = st.tick_size * 1.0 * std::f32::consts::SQRT_2 * 1.15;
                let step = ((need / slot).ceil() as usize).max(1);
                x_axis_h =
                    tick_len + 6.0 + (lw + st.tick_size) * std::f32::consts::FRAC_1_SQRT_2 + 4.0;
                // The first label reaches left of the plot.
                let first_w = labels
                    .first()
                    .map(|l| text_width(l, &st.font_family, st.tick_size, false))
                    .unwrap_or(0.0);
                let reach = first_w * std::f32::consts::FRAC_1_SQRT_2 - slot / 2.0;
                if left - reach < left0 {
                    left = left0 + reach;
                    plot_w = (right - left).max(20.0);
                }
                cat_mode = CatMode::Rotated { labels, step };
            }
        }
    }
    let x_axis_h = if frame.hide_x_labels {
        tick_len + 4.0
    } else {
        x_axis_h
    };
    let plot_bottom = bottom - x_axis_h;
    let plot = BBox {
        x: left,
        y: top
            + if inside_legend || st.data_labels {
                0.0
            } else {
                tick_h * 0.5
            },
        w: plot_w,
        h: 0.0,
    };
    let plot = BBox {
        h: (plot_bottom - plot.y).max(20.0),
        ..plot
    };
    let plot = match frame.plot_area {
        Some(a) => {
            let y = plot.y.max(a.y);
            BBox {
                y,
                h: (plot.bottom().min(a.bottom()) - y).max(20.0),
                ..plot
            }
        }
        None => plot,
    };
    // Second pass with the real plot size.
    vaxis = value_axis(if horizontal { plot.w } else { plot.h }, vlo, vhi);
    raxis = right_axis(plot.h);
    scene.plot_area = plot;
    let rpix = |v: f64| -> f32 {
        let f = raxis.as_ref().map_or(0.0, |a| a.frac(v)) as f32;
        plot.bottom() - f * plot.h
    };

    // Pixel mappings.
    let vpix = |v: f64| -> f32 {
        let f = vaxis.frac(v) as f32;
        if horizontal {
            plot.x + f * plot.w
        } else {
            plot.bottom() - f * plot.h
        }
    };
    let slot = if horizontal {
        plot.h / n.max(1) as f32
    } else {
        plot.w / n.max(1) as f32
    };
    let cat_center = |i: usize| -> f32 {
        let at = time.as_ref().map_or(i as f32, |t| t.slot_of(i));
        if horizontal {
            plot.y + slot * (at + 0.5)
        } else {
            plot.x + slot * (at + 0.5)
        }
    };
    // Times of a time axis, as (pixel x, table-form label); spaced by
    // their printed widths.
    let time_ticks: Vec<(f32, String)> = time
        .as_ref()
        .map(|t| {
            let gap = st.tick_size.max(8.0);
            t.ticks(slot, gap, |l| {
                text_width(&dates.print(l), &st.font_family, st.tick_size, false)
            })
            .into_iter()
            .map(|(at, label)| (plot.x + slot * (at + 0.5), label))
            .collect()
        })
        .unwrap_or_default();
    let xpix = |v: f64| -> f32 {
        let a = xaxis.as_ref().expect("xy axis");
        plot.x + a.frac(v) as f32 * plot.w
    };

    // Plot background and grid.
    canvas.fill_rect(
        plot.x,
        plot.y,
        plot.right(),
        plot.bottom(),
        &st.plot_background,
        1.0,
    );
    let grid = if horizontal {
        match st.grid {
            GridLines::Horizontal => GridLines::Vertical,
            GridLines::Vertical => GridLines::Horizontal,
            g => g,
        }
    } else {
        st.grid
    };
    let grid_dash = if st.grid_dashed { Some("4 3") } else { None };
    let value_lines = matches!(
        (grid, horizontal),
        (GridLines::Horizontal | GridLines::Both, false)
            | (GridLines::Vertical | GridLines::Both, true)
    );
    let cross_lines = matches!(
        (grid, horizontal),
        (GridLines::Vertical | GridLines::Both, false)
            | (GridLines::Horizontal | GridLines::Both, true)
    );
    if value_lines {
        for (v, _) in &vaxis.ticks {
            let p = vpix(*v);
            if horizontal {
                canvas.line(
                    &[(p, plot.y), (p, plot.bottom())],
                    &st.grid_color,
                    1.0,
                    grid_dash,
                );
            } else {
                canvas.line(
                    &[(plot.x, p), (plot.right(), p)],
                    &st.grid_color,
                    1.0,
                    grid_dash,
                );
            }
        }
    }
    if cross_lines {
        if let Some(xa) = &xaxis {
            for (v, _) in &xa.ticks {
                let p = xpix(*v);
                canvas.line(
                    &[(p, plot.y), (p, plot.bottom())],
                    &st.grid_color,
                    1.0,
                    grid_dash,
                );
            }
        } else if time.is_some() {
            for (p, _) in &time_ticks {
                canvas.line(
                    &[(*p, plot.y), (*p, plot.bottom())],
                    &st.grid_color,
                    1.0,
                    grid_dash,
                );
            }
        } else {
            for i in 0..n {
                let p = cat_center(i);
                if horizontal {
                    canvas.line(
                        &[(plot.x, p), (plot.right(), p)],
                        &st.grid_color,
                        1.0,
                        grid_dash,
                    );
                } else {
                    canvas.line(
                        &[(p, plot.y), (p, plot.bottom())],
                        &st.grid_color,
                        1.0,
                        grid_dash,
                    );
                }
            }
        }
    }

    // A shaded band behind the marks, from the first covered slot's start
    // to the last one's end.
    let band_box = band.map(|(a, b, _)| {
        let x0 = (cat_center(a) - slot / 2.0).max(plot.x);
        let x1 = (cat_center(b) + slot / 2.0).min(plot.right());
        let r = BBox {
            x: x0,
            y: plot.y,
            w: x1 - x0,
            h: plot.h,
        };
        canvas.fill_rect(r.x, r.y, r.right(), r.bottom(), &st.text_color, 0.12);
        r
    });

    // Marks.
    let mut placed = Placed::default();
    let mut traces: Vec<Trace> = Vec::new();
    // (mark index, text, candidate positions with the colour used there)
    let mut label_jobs: Vec<(usize, String, Vec<Cand>)> = Vec::new();
    let vls = st.value_label_size;
    let baseline = vaxis.baseline();
    let base_px = vpix(baseline);
    match kind {
        ChartKind::Bar
        | ChartKind::HorizontalBar
        | ChartKind::GroupedBar
        | ChartKind::StackedBar
        | ChartKind::PercentStackedBar
        | ChartKind::Lollipop
        | ChartKind::DivergingBar => {
            // Several series on plain or horizontal bars are grouped like grouped bars.
            let grouped = !stacked;
            let k = if grouped { drawn_series.len() } else { 1 };
            let group = slot * st.bar_width;
            let sub = group / k as f32;
            let gap = if k > 1 { (sub * 0.08).min(3.0) } else { 0.0 };
            let mut pos_acc = vec![0.0f64; n];
            let mut neg_acc = vec![0.0f64; n];
            for (j, s) in drawn_series.iter().enumerate() {
                for (r, cat) in cats.iter().enumerate() {
                    let Some(v) = s.values[r] else { continue };
                    let (a, b) = if stacked {
                        if v >= 0.0 {
                            let a = pos_acc[r];
                            pos_acc[r] += v;
                            (a, pos_acc[r])
                        } else {
                            let a = neg_acc[r];
                            neg_acc[r] += v;
                            (a, neg_acc[r])
                        }
                    } else {
                        (baseline, v)
                    };
                    let (pa, pb) = if stacked && a == 0.0 {
                        (base_px, vpix(b))
                    } else {
                        (vpix(a), vpix(b))
                    };
                    let slot_j = if grouped { j } else { 0 };
                    let c0 = cat_center(r) - group / 2.0 + sub * slot_j as f32 + gap / 2.0;
                    let c1 = c0 + sub - gap;
                    let bbox = if lollipop {
                        let radius = super::lollipop::dot_radius(sub);
                        super::lollipop::mark_box((c0 + c1) / 2.0, pa, pb, radius, horizontal)
                    } else if horizontal {
                        BBox {
                            x: pa.min(pb),
                            y: c0,
                            w: (pb - pa).abs(),
                            h: c1 - c0,
                        }
                    } else {
                        BBox {
                            x: c0,
                            y: pa.min(pb),
                            w: c1 - c0,
                            h: (pb - pa).abs(),
                        }
                    };
                    // A highlight keeps the series colour on one bar and mutes the rest.
                    let color = match highlight {
                        Some(h) if h != r => muted(st),
                        // Below zero in the palette's second colour.
                        _ if diverging && v < 0.0 => color_of(st, 1),
                        _ => s.color.clone(),
                    };
                    if lollipop {
                        super::lollipop::draw(canvas, bbox, v >= baseline, horizontal, &color.hex);
                    } else {
                        canvas.fill_rect(
                            bbox.x,
                            bbox.y,
                            bbox.right(),
                            bbox.bottom(),
                            &color.hex,
                            1.0,
                        );
                    }
                    let idx = scene.marks.len();
                    scene.marks.push(Mark {
                        kind: MarkKind::Bar,
                        series: s.name.clone(),
                        category: Some(cat.clone()),
                        value: v,
                        x_value: None,
                        size_value: None,
                        color,
                        bbox,
                        sweep_deg: None,
                        label: None,
                    });
                    if st.data_labels {
                        let text = value_label(v, st, s);
                        let cx = bbox.x + bbox.w / 2.0;
                        // A lollipop's label clears its dot: above it, else beside it.
                        let dot = if lollipop { bbox.w / 2.0 } else { 0.0 };
                        let inside = contrast_text(&scene.marks[idx].color.hex).to_string();
                        let cands = if stacked {
                            let t = TextSpec {
                                text: &text,
                                x: 0.0,
                                y: 0.0,
                                align: Align::Center,
                                family: &st.font_family,
                                size: vls,
                                bold: false,
                                color: "",
                            };
                            let tb = text_bbox(&t);
                            if tb.w + 4.0 <= bbox.w && tb.h + 2.0 <= bbox.h {
                                let (x, y) = bbox.center();
                                vec![(x, y - tb.h / 2.0, Align::Center)]
                            } else {
                                vec![]
                            }
                        } else if horizontal {
                            let cy = bbox.y + bbox.h / 2.0 - vls * 0.5;
                            if v >= 0.0 {
                                vec![
                                    (bbox.right() + 4.0, cy, Align::Left),
                                    (bbox.right() - 4.0, cy, Align::Right),
                                ]
                            } else {
                                vec![
                                    (bbox.x - 4.0, cy, Align::Right),
                                    (bbox.x + 4.0, cy, Align::Left),
                                ]
                            }
                        } else if lollipop {
                            let (tip, below) = if v >= 0.0 {
                                (bbox.y, false)
                            } else {
                                (bbox.bottom(), true)
                            };
                            let beside = tip - vls * 0.5;
                            vec![
                                if below {
                                    (cx, tip + dot + 3.0, Align::Center)
                                } else {
                                    (cx, tip - dot - vls - 3.0, Align::Center)
                                },
                                (cx + dot + 4.0, beside, Align::Left),
                                (cx - dot - 4.0, beside, Align::Right),
                            ]
                        } else if v >= 0.0 {
                            vec![
                                (cx, bbox.y - vls - 3.0, Align::Center),
                                (cx, bbox.y + 3.0, Align::Center),
                            ]
                        } else {
                            vec![
                                (cx, bbox.bottom() + 3.0, Align::Center),
                                (cx, bbox.bottom() - vls - 3.0, Align::Center),
                            ]
                        };
                        // Outside candidates use the text colour, inside ones contrast with the bar.
                        let cands = cands
                            .into_iter()
                            .enumerate()
                            .map(|(k, (x, y, a))| {
                                let color = if (stacked || k > 0) && !lollipop {
                                    inside.clone()
                                } else {
                                    st.text_color.clone()
                                };
                                (x, y, a, color)
                            })
                            .collect();
                        label_jobs.push((idx, text, cands));
                    }
                }
            }
        }
        ChartKind::DualAxis => {
            let (bars, line) = (&series[0], &series[1]);
            let group = slot * st.bar_width;
            for (r, cat) in cats.iter().enumerate() {
                let Some(v) = bars.values[r] else { continue };
                let (pa, pb) = (vpix(baseline), vpix(v));
                let c0 = cat_center(r) - group / 2.0;
                let bbox = BBox {
                    x: c0,
                    y: pa.min(pb),
                    w: group,
                    h: (pb - pa).abs(),
                };
                canvas.fill_rect(
                    bbox.x,
                    bbox.y,
                    bbox.right(),
                    bbox.bottom(),
                    &bars.color.hex,
                    1.0,
                );
                let idx = scene.marks.len();
                scene.marks.push(Mark {
                    kind: MarkKind::Bar,
                    series: bars.name.clone(),
                    category: Some(cat.clone()),
                    value: v,
                    x_value: None,
                    size_value: None,
                    color: bars.color.clone(),
                    bbox,
                    sweep_deg: None,
                    label: None,
                });
                if st.data_labels {
                    // Inside the bar's top, so the line's labels keep the space above.
                    let text = value_label(v, st, bars);
                    let cx = bbox.x + bbox.w / 2.0;
                    let inside = contrast_text(&bars.color.hex).to_string();
                    let cands = if v >= 0.0 {
                        vec![
                            (cx, bbox.y + 3.0, Align::Center, inside),
                            (cx, bbox.y - vls - 3.0, Align::Center, st.text_color.clone()),
                        ]
                    } else {
                        vec![
                            (cx, bbox.bottom() - vls - 3.0, Align::Center, inside),
                            (
                                cx,
                                bbox.bottom() + 3.0,
                                Align::Center,
                                st.text_color.clone(),
                            ),
                        ]
                    };
                    label_jobs.push((idx, text, cands));
                }
            }
            // The line over the bars, on the right axis.
            let points: Vec<(usize, f32, f32)> = (0..n)
                .filter_map(|r| line.values[r].map(|v| (r, cat_center(r), rpix(v))))
                .collect();
            let upper: Vec<(f32, f32)> = points.iter().map(|(_, x, y)| (*x, *y)).collect();
            let width = st.line_width.max(1.5);
            canvas.line(&upper, &line.color.hex, width, line.dash);
            traces.push(Trace {
                points: upper.clone(),
                floor: None,
                pad: width / 2.0 + 1.0,
            });
            // Markers always: the points are what the right axis is read at.
            let ms = st.marker_size.max(3.0);
            for (r, x, y) in points {
                let v = line.values[r].unwrap_or(0.0);
                draw_marker(canvas, x, y, ms, &line.color.hex, 0);
                // A label over this category's bar contrasts with the bar.
                let bar = st.data_labels.then(|| {
                    scene
                        .marks
                        .iter()
                        .find(|m| m.kind == MarkKind::Bar && m.category.as_ref() == Some(&cats[r]))
                        .map(|b| (b.bbox, b.color.hex.clone()))
                });
                let bar = bar.flatten();
                let color_at = |ty: f32| match &bar {
                    Some((b, hex)) if ty + vls > b.y && ty < b.bottom() => {
                        contrast_text(hex).to_string()
                    }
                    _ => st.text_color.clone(),
                };
                let point = LinePoint {
                    series: line,
                    category: &cats[r],
                    value: v,
                    at: (x, y),
                    half: ms.max(3.0),
                };
                point.record(&mut scene, &mut label_jobs, st, color_at);
            }
        }
        ChartKind::ErrorBar => {
            let group = slot * st.bar_width;
            let value = &series[0];
            let whisker = super::error_bar::whisker_color(st);
            for (r, cat) in cats.iter().enumerate() {
                let (Some(v), Some(lo), Some(hi)) = (
                    value.values[r],
                    series.get(1).and_then(|s| s.values[r]),
                    series.get(2).and_then(|s| s.values[r]),
                ) else {
                    continue;
                };
                let c0 = cat_center(r) - group / 2.0;
                let cx = cat_center(r);
                let (pa, pb) = (base_px, vpix(v));
                let bbox = BBox {
                    x: c0,
                    y: pa.min(pb),
                    w: group,
                    h: (pb - pa).abs(),
                };
                let color = value.color.clone();
                canvas.fill_rect(bbox.x, bbox.y, bbox.right(), bbox.bottom(), &color.hex, 1.0);
                let (plo, phi) = (vpix(lo), vpix(hi));
                let cap = super::error_bar::cap_width(group);
                let over = contrast_text(&color.hex);
                super::error_bar::draw_whisker(
                    canvas,
                    cx,
                    (plo, phi),
                    cap,
                    (bbox.y, bbox.bottom()),
                    over,
                    &whisker.hex,
                );
                let idx = scene.marks.len();
                scene.marks.push(Mark {
                    kind: MarkKind::Bar,
                    series: value.name.clone(),
                    category: Some(cat.clone()),
                    value: v,
                    x_value: None,
                    size_value: None,
                    color,
                    bbox,
                    sweep_deg: None,
                    label: None,
                });
                // Each bound: the cap drawn at its level.
                for (s, bound, py) in [(&series[1], lo, plo), (&series[2], hi, phi)] {
                    scene.marks.push(Mark::new(
                        MarkKind::LinePoint,
                        s.name.clone(),
                        Some(cat.clone()),
                        bound,
                        whisker.clone(),
                        BBox {
                            x: cx - cap / 2.0,
                            y: py - 1.0,
                            w: cap,
                            h: 2.0,
                        },
                    ));
                }
                if st.data_labels {
                    let text = value_label(v, st, value);
                    let inside = contrast_text(&scene.marks[idx].color.hex).to_string();
                    // Inside the bar's top, clear of the whisker's line.
                    let x = c0 + 3.0;
                    let cands = if v >= 0.0 {
                        vec![
                            (x, bbox.y + 3.0, Align::Left, inside.clone()),
                            (cx, bbox.bottom() - vls - 3.0, Align::Center, inside),
                        ]
                    } else {
                        vec![(x, bbox.bottom() - vls - 3.0, Align::Left, inside)]
                    };
                    label_jobs.push((idx, text, cands));
                }
            }
        }
        ChartKind::Waterfall => {
            let group = slot * st.bar_width;
            let steps = &series[0];
            let totals = series.get(1).map_or(&[][..], |s| s.values.as_slice());
            let colors = super::waterfall::colors(st);
            let connector = super::waterfall::connector_color(st);
            let mut before = 0.0f64;
            let mut prev_end: Option<(f32, f32)> = None;
            for (r, cat) in cats.iter().enumerate() {
                let (Some(v), Some(after)) = (steps.values[r], totals.get(r).copied().flatten())
                else {
                    continue;
                };
                let c0 = cat_center(r) - group / 2.0;
                let c1 = c0 + group;
                let (pa, pb) = (vpix(before), vpix(after));
                let bbox = BBox {
                    x: c0,
                    y: pa.min(pb),
                    w: c1 - c0,
                    h: (pb - pa).abs(),
                };
                // The dashed connector carries the level from one bar's end
                // to the next bar's start: the running total read across.
                if let Some((x, y)) = prev_end {
                    canvas.line(&[(x, y), (c0, y)], &connector.hex, 1.0, Some("3 2"));
                }
                let color = super::waterfall::step_color(&colors, r, v).clone();
                canvas.fill_rect(bbox.x, bbox.y, bbox.right(), bbox.bottom(), &color.hex, 1.0);
                let idx = scene.marks.len();
                scene.marks.push(Mark {
                    kind: MarkKind::Bar,
                    series: steps.name.clone(),
                    category: Some(cat.clone()),
                    value: v,
                    x_value: None,
                    size_value: None,
                    color,
                    bbox,
                    sweep_deg: None,
                    label: None,
                });
                // The running total after the step: the level of the bar's
                // end, recorded as a point on that level across the bar.
                scene.marks.push(Mark::new(
                    MarkKind::LinePoint,
                    super::super::spec::waterfall::RUNNING_TOTAL.to_string(),
                    Some(cat.clone()),
                    after,
                    connector.clone(),
                    BBox {
                        x: c0,
                        y: pb - 1.0,
                        w: c1 - c0,
                        h: 2.0,
                    },
                ));
                prev_end = Some((c1, pb));
                if st.data_labels {
                    let text = super::waterfall::step_label(r, value_label(v, st, steps));
                    let cx = (c0 + c1) / 2.0;
                    let up = after >= before;
                    let c = &st.text_color;
                    let inside = contrast_text(&scene.marks[idx].color.hex).to_string();
                    let cands = if up {
                        vec![
                            (cx, bbox.y - vls - 3.0, Align::Center, c.clone()),
                            (cx, bbox.y + 3.0, Align::Center, inside),
                        ]
                    } else {
                        vec![
                            (cx, bbox.bottom() + 3.0, Align::Center, c.clone()),
                            (cx, bbox.bottom() - vls - 3.0, Align::Center, inside),
                        ]
                    };
                    label_jobs.push((idx, text, cands));
                }
                before = after;
            }
        }
        ChartKind::Dumbbell => {
            let radius = (slot * 0.22).clamp(3.5, 7.0);
            let bar = muted(st);
            for (r, cat) in cats.iter().enumerate() {
                let cy = cat_center(r);
                let present: Vec<(usize, f64)> = drawn_series
                    .iter()
                    .enumerate()
                    .filter_map(|(j, s)| s.values[r].map(|v| (j, v)))
                    .collect();
                if let (Some(lo), Some(hi)) = (
                    present.iter().map(|p| p.1).reduce(f64::min),
                    present.iter().map(|p| p.1).reduce(f64::max),
                ) {
                    let (a, b) = (vpix(lo), vpix(hi));
                    canvas.fill_rect(a.min(b), cy - 1.5, a.max(b), cy + 1.5, &bar.hex, 1.0);
                }
                for &(j, v) in &present {
                    let s = drawn_series[j];
                    let cx = vpix(v);
                    canvas.circle(cx, cy, radius, &s.color.hex, 1.0, None);
                    let bbox = BBox {
                        x: cx - radius,
                        y: cy - radius,
                        w: radius * 2.0,
                        h: radius * 2.0,
                    };
                    let idx = scene.marks.len();
                    scene.marks.push(Mark {
                        kind: MarkKind::LinePoint,
                        series: s.name.clone(),
                        category: Some(cat.clone()),
                        value: v,
                        x_value: None,
                        size_value: None,
                        color: s.color.clone(),
                        bbox,
                        sweep_deg: None,
                        label: None,
                    });
                    if st.data_labels {
                        // Outside the pair: left of the smaller dot, right
                        // of the larger, never on the joining bar.
                        let y = cy - vls * 0.5;
                        let other = present.iter().find(|p| p.0 != j).map(|p| p.1);
                        let left = other.is_some_and(|o| v < o || (v == o && j == present[0].0));
                        let cand = if left {
                            (cx - radius - 4.0, y, Align::Right)
                        } else {
                            (cx + radius + 4.0, y, Align::Left)
                        };
                        let text = value_label(v, st, s);
                        label_jobs.push((
                            idx,
                            text,
                            vec![(cand.0, cand.1, cand.2, st.text_color.clone())],
                        ));
                    }
                }
            }
        }
        ChartKind::Slope | ChartKind::Radar => {
            return Err(RenderError::Spec(format!(
                "{} is not a cartesian kind",
                kind.name()
            )));
        }
        ChartKind::Line | ChartKind::Area | ChartKind::StackedArea => {
            let mut acc = vec![0.0f64; n];
            let mut prev_acc = vec![0.0f64; n];
            let show_markers = st.markers && st.marker_size > 0.0 && n <= 60;
            for (j, s) in drawn_series.iter().enumerate() {
                prev_acc.clone_from(&acc);
                // Stacks treat a missing cell as zero so the bands stay continuous.
                let tops: Vec<Option<f64>> = (0..n)
                    .map(|r| {
                        if stacked {
                            acc[r] += s.values[r].unwrap_or(0.0);
                            Some(acc[r])
                        } else {
                            s.values[r]
                        }
                    })
                    .collect();
                // Runs of consecutive present points: gaps stay gaps.
                let mut runs: Vec<Vec<usize>> = Vec::new();
                let mut cur: Vec<usize> = Vec::new();
                for (r, t) in tops.iter().enumerate() {
                    if t.is_some() {
                        cur.push(r);
                    } else if !cur.is_empty() {
                        runs.push(std::mem::take(&mut cur));
                    }
                }
                if !cur.is_empty() {
                    runs.push(cur);
                }
                for run in &runs {
                    let upper: Vec<(f32, f32)> = run
                        .iter()
                        .map(|&r| (cat_center(r), vpix(tops[r].unwrap_or(0.0))))
                        .collect();
                    if kind != ChartKind::Line {
                        let mut poly = upper.clone();
                        for &r in run.iter().rev() {
                            let low = if stacked { prev_acc[r] } else { baseline };
                            poly.push((cat_center(r), if stacked { vpix(low) } else { base_px }));
                        }
                        let opacity = if stacked { 0.85 } else { 0.35 };
                        if run.len() >= 2 {
                            canvas.polygon(&poly, &s.color.hex, opacity);
                        }
                    }
                    let width = if kind == ChartKind::Line {
                        st.line_width
                    } else {
                        st.line_width.min(2.0)
                    };
                    if width > 0.0 {
                        canvas.line(&upper, &s.color.hex, width, s.dash);
                    }
                    traces.push(Trace {
                        points: upper.clone(),
                        floor: (kind != ChartKind::Line).then_some(base_px),
                        pad: width / 2.0 + 1.0,
                    });
                }
                for r in 0..n {
                    let (Some(v), Some(t)) = (s.values[r], tops[r]) else {
                        continue;
                    };
                    let (x, y) = (cat_center(r), vpix(t));
                    let ms = st.marker_size.max(2.0);
                    if show_markers && kind == ChartKind::Line {
                        draw_marker(
                            canvas,
                            x,
                            y,
                            ms,
                            &s.color.hex,
                            if st.dashes { j } else { 0 },
                        );
                    }
                    let point = LinePoint {
                        series: s,
                        category: &cats[r],
                        value: v,
                        at: (x, y),
                        half: ms.max(3.0),
                    };
                    point.record(&mut scene, &mut label_jobs, st, |_| st.text_color.clone());
                }
            }
        }
        ChartKind::Scatter | ChartKind::Bubble => {
            canvas.begin_clip(plot);
            let (xs, ys) = (&series[0], &series[1]);
            let sizes = series.get(2).filter(|_| kind == ChartKind::Bubble);
            let smax = sizes
                .map(|s| {
                    s.values
                        .iter()
                        .flatten()
                        .fold(0.0f64, |a, b| a.max(b.abs()))
                })
                .unwrap_or(0.0);
            let color = color_of(st, 0);
            let rmax = (plot.w.min(plot.h) * 0.08).clamp(10.0, 40.0);
            for (r, cat) in cats.iter().enumerate() {
                let (Some(xv), Some(yv)) = (xs.values[r], ys.values[r]) else {
                    continue;
                };
                let size_v = sizes.and_then(|s| s.values[r]);
                if sizes.is_some() && size_v.is_none() {
                    continue;
                }
                let rad = match size_v {
                    Some(sv) if smax > 0.0 => (rmax * (sv.abs() / smax).sqrt() as f32).max(3.0),
                    _ => st.marker_size.max(3.0) + 1.0,
                };
                let (x, y) = (xpix(xv), vpix(yv));
                let opacity = if sizes.is_some() { 0.6 } else { 0.9 };
                canvas.circle(x, y, rad, &color.hex, opacity, Some(&color.hex));
                let idx = scene.marks.len();
                scene.marks.push(Mark {
                    kind: MarkKind::ScatterPoint,
                    series: ys.name.clone(),
                    category: Some(cat.clone()),
                    value: yv,
                    x_value: Some(xv),
                    size_value: size_v,
                    color: color.clone(),
                    bbox: BBox {
                        x: x - rad,
                        y: y - rad,
                        w: 2.0 * rad,
                        h: 2.0 * rad,
                    },
                    sweep_deg: None,
                    label: None,
                });
                if st.data_labels || n <= 25 {
                    let cy = y - vls * 0.5;
                    let c = &st.text_color;
                    let cands = vec![
                        (x + rad + 3.0, cy, Align::Left, c.clone()),
                        (x - rad - 3.0, cy, Align::Right, c.clone()),
                        (x, y - rad - vls - 2.0, Align::Center, c.clone()),
                    ];
                    label_jobs.push((idx, shown[r].clone(), cands));
                }
            }
        }
        ChartKind::Pie | ChartKind::Donut => unreachable!("pies are drawn by render::pie"),
        ChartKind::Heatmap => unreachable!("heatmaps are drawn by render::heatmap"),
        ChartKind::Histogram | ChartKind::BoxPlot | ChartKind::Violin => {
            unreachable!("statistical kinds are drawn by render::stat")
        }
    }

    if xy {
        canvas.end_clip();
        for m in &mut scene.marks {
            m.bbox = intersect(m.bbox, plot);
        }
    }
    // A reference line runs over the marks, as published charts draw it.
    let ref_y = ref_line.map(|(v, _)| {
        let y = vpix(v);
        canvas.line(
            &[(plot.x, y), (plot.right(), y)],
            &st.text_color,
            1.5,
            Some("6 4"),
        );
        y
    });

    // Axes lines.
    let aw = st.axis_line_width;
    if aw > 0.0 {
        canvas.line(
            &[(plot.x, plot.bottom()), (plot.right(), plot.bottom())],
            &st.axis_color,
            aw,
            None,
        );
        canvas.line(
            &[(plot.x, plot.y), (plot.x, plot.bottom())],
            &st.axis_color,
            aw,
            None,
        );
        if st.box_frame {
            canvas.line(
                &[(plot.x, plot.y), (plot.right(), plot.y)],
                &st.axis_color,
                aw,
                None,
            );
            canvas.line(
                &[(plot.right(), plot.y), (plot.right(), plot.bottom())],
                &st.axis_color,
                aw,
                None,
            );
        }
        // The second value axis' own line, when no box frame draws it.
        if raxis.is_some() && !st.box_frame {
            canvas.line(
                &[(plot.right(), plot.y), (plot.right(), plot.bottom())],
                &st.axis_color,
                aw,
                None,
            );
        }
        // A zero line when the value axis crosses zero inside the plot.
        if !vaxis.log && vaxis.lo < 0.0 && vaxis.hi > 0.0 && !xy {
            let p = vpix(0.0);
            if horizontal {
                canvas.line(&[(p, plot.y), (p, plot.bottom())], &st.axis_color, aw, None);
            } else {
                canvas.line(&[(plot.x, p), (plot.right(), p)], &st.axis_color, aw, None);
            }
        }
    }

    // Ticks and tick labels.
    let ts = st.tick_size;
    // Left axis: values (vertical) or categories (horizontal bars).
    canvas.muted = frame.hide_y_labels;
    if horizontal {
        let step = ((ts * 1.1 / slot).ceil() as usize).max(1);
        let mut ticks = Vec::new();
        for (i, label) in hcat_labels.iter().enumerate() {
            if i % step != 0 {
                continue;
            }
            let y = cat_center(i);
            tick_mark(canvas, st, plot, Side::Left, y);
            let bbox = canvas.text(&tick_spec(
                st,
                label,
                plot.x - tick_len - 4.0,
                y - ts * 0.4,
                Align::Right,
            ));
            ticks.push(Tick {
                label: label.clone(),
                value: None,
                pos: y,
                bbox,
                category: source(i),
            });
        }
        // Bottom-to-top order.
        ticks.reverse();
        scene.y_ticks = ticks;
    } else {
        for (v, label) in &vaxis.ticks {
            let y = vpix(*v);
            tick_mark(canvas, st, plot, Side::Left, y);
            let bbox = canvas.text(&tick_spec(
                st,
                label,
                plot.x - tick_len - 4.0,
                y - ts * 0.4,
                Align::Right,
            ));
            scene.y_ticks.push(Tick {
                label: label.clone(),
                value: Some(*v),
                pos: y,
                bbox,
                category: None,
            });
        }
    }
    canvas.muted = false;
    if frame.hide_y_labels {
        scene.y_ticks.clear();
    }
    // Right axis: the line's values, labels left-aligned beside the plot.
    if let (Some(ra), Some(line)) = (&raxis, series.get(1)) {
        let mut right_ticks = Vec::new();
        for (v, label) in &ra.ticks {
            let y = rpix(*v);
            tick_mark(canvas, st, plot, Side::Right, y);
            let bbox = canvas.text(&tick_spec(
                st,
                label,
                plot.right() + tick_len + 4.0,
                y - ts * 0.4,
                Align::Left,
            ));
            right_ticks.push(Tick {
                label: label.clone(),
                value: Some(*v),
                pos: y,
                bbox,
                category: None,
            });
        }
        scene.dual_axis = Some(crate::ir::DualAxisScene {
            left_series: series[0].name.clone(),
            right_series: line.name.clone(),
            right_label: None,
            right_ticks,
        });
    }
    // Bottom axis.
    canvas.muted = frame.hide_x_labels;
    let ty = plot.bottom() + tick_len + 4.0;
    let bottom_value_axis = if horizontal {
        Some(&vaxis)
    } else {
        xaxis.as_ref()
    };
    if let Some(axis) = bottom_value_axis {
        let mut last_right = f32::MIN;
        for (v, label) in &axis.ticks {
            let x = if horizontal { vpix(*v) } else { xpix(*v) };
            let mut spec = tick_spec(st, label, x, ty, Align::Center);
            let mut b = text_bbox(&spec);
            // Keep edge labels inside the figure: align them to the edge instead.
            let (fx0, fx1) = (frame.rect.x + 2.0, frame.rect.right() - 2.0);
            if b.right() > fx1 {
                spec = tick_spec(st, label, fx1, ty, Align::Right);
                b = text_bbox(&spec);
            } else if b.x < fx0 {
                spec = tick_spec(st, label, fx0, ty, Align::Left);
                b = text_bbox(&spec);
            }
            tick_mark(canvas, st, plot, Side::Bottom, x);
            // Thin numeric labels that would touch their neighbour.
            if b.x < last_right + 6.0 {
                continue;
            }
            last_right = b.right();
            let bbox = canvas.text(&spec);
            scene.x_ticks.push(Tick {
                label: label.clone(),
                value: Some(*v),
                pos: x,
                bbox,
                category: None,
            });
        }
    } else if time.is_some() {
        let mut last_right = f32::MIN;
        for (x, time_label) in &time_ticks {
            let printed = dates.print(time_label);
            let label = &printed;
            let mut spec = tick_spec(st, label, *x, ty, Align::Center);
            // Keep edge labels inside the figure: align them to the edge instead.
            let (fx0, fx1) = (frame.rect.x + 2.0, frame.rect.right() - 2.0);
            let mut b = text_bbox(&spec);
            if b.right() > fx1 {
                spec = tick_spec(st, label, fx1, ty, Align::Right);
                b = text_bbox(&spec);
            } else if b.x < fx0 {
                spec = tick_spec(st, label, fx0, ty, Align::Left);
                b = text_bbox(&spec);
            }
            tick_mark(canvas, st, plot, Side::Bottom, *x);
            // An edge label pushed onto its neighbour is left out.
            if b.x < last_right + 4.0 {
                continue;
            }
            last_right = b.right();
            let bbox = canvas.text(&spec);
            scene.x_ticks.push(Tick {
                label: label.clone(),
                value: None,
                pos: *x,
                bbox,
                category: (printed != *time_label).then(|| time_label.clone()),
            });
        }
    } else {
        for (i, cat) in shown.iter().enumerate() {
            let x = cat_center(i);
            let shown = match &cat_mode {
                CatMode::Rotated { step, .. } => i % step == 0,
                _ => true,
            };
            if !shown {
                continue;
            }
            tick_mark(canvas, st, plot, Side::Bottom, x);
            let (label, bbox) = match &cat_mode {
                CatMode::Flat => {
                    let bbox = canvas.text(&tick_spec(st, cat, x, ty, Align::Center));
                    (cat.clone(), bbox)
                }
                CatMode::Wrapped(lines) => {
                    let mut bbox: Option<BBox> = None;
                    for (k, line) in lines[i].iter().enumerate() {
                        let b = canvas.text(&tick_spec(
                            st,
                            line,
                            x,
                            ty + k as f32 * ts * 1.15,
                            Align::Center,
                        ));
                        bbox = Some(bbox.map_or(b, |a| union(a, b)));
                    }
                    (lines[i].join(" "), bbox.unwrap_or_default())
                }
                CatMode::Rotated { labels, .. } => {
                    let spec =
                        tick_spec(st, &labels[i], x + ts * 0.3, ty + ts * 0.35, Align::Right);
                    let bbox = canvas.rotated_text(&spec, -45.0);
                    (labels[i].clone(), bbox)
                }
            };
            scene.x_ticks.push(Tick {
                label,
                value: None,
                pos: x,
                bbox,
                category: source(i),
            });
        }
    }

    canvas.muted = false;
    if frame.hide_x_labels {
        scene.x_ticks.clear();
    }

    // Value labels, greedily without collisions.
    for b in scene.x_ticks.iter().chain(scene.y_ticks.iter()) {
        placed.add(b.bbox);
    }
    for m in &scene.marks {
        if lollipop {
            // Labels keep off the dot and off every stem (a label beside one
            // dot must not cross the next category's stem).
            placed.add(super::lollipop::dot_box(m.bbox, m.value >= baseline));
            placed.add(super::lollipop::stem_box(m.bbox));
        } else if m.kind != MarkKind::Bar {
            placed.add(BBox {
                x: m.bbox.x + 1.0,
                y: m.bbox.y + 1.0,
                w: (m.bbox.w - 2.0).max(0.0),
                h: (m.bbox.h - 2.0).max(0.0),
            });
        }
    }
    // Inside legends are drawn before labels so labels avoid them. The
    // requested corner is used when no mark or line runs under it, else
    // another free corner; when none is free the panel is redrawn.
    let legend_box = if inside_legend {
        let corner = |p: LegendPlacement| {
            let left = matches!(p, LegendPlacement::TopLeft | LegendPlacement::BottomLeft);
            let upper = matches!(p, LegendPlacement::TopLeft | LegendPlacement::TopRight);
            BBox {
                x: if left {
                    plot.x + 8.0
                } else {
                    plot.right() - leg_w - 8.0
                },
                y: if upper {
                    plot.y + 6.0
                } else {
                    plot.bottom() - leg_h - 6.0
                },
                w: leg_w,
                h: leg_h,
            }
        };
        let free = |b: &BBox| {
            b.x >= plot.x
                && b.right() <= plot.right()
                && b.y >= plot.y
                && b.bottom() <= plot.bottom()
                && !scene.marks.iter().any(|m| m.bbox.grown(2.0).intersects(b))
                && !traces.iter().any(|t| t.hits(b))
        };
        let found = corner_order(placement)
            .into_iter()
            .map(corner)
            .find(|b| free(b));
        match found {
            Some(b) => {
                placed.add(b);
                Some(b)
            }
            None => {
                return Ok(Drawn::Retry(match placement {
                    LegendPlacement::BottomLeft => LegendPlacement::TopLeft,
                    LegendPlacement::BottomRight => LegendPlacement::TopRight,
                    _ => LegendPlacement::Top,
                }));
            }
        }
    } else {
        None
    };
    // Annotation labels come before value labels, which then avoid them.
    if let (Some(y), Some((value, text))) = (ref_y, ref_line) {
        let size = annotation_size(st);
        let (right, left) = (
            (plot.right() - 6.0, Align::Right),
            (plot.x + 6.0, Align::Left),
        );
        // One end each, so a moved label always lands at the other end.
        let (x, a) = if annot_moved { left } else { right };
        let cands = [(x, y - size * 1.25 - 2.0, a), (x, y + 4.0, a)];
        let label = annotation_label(
            canvas,
            &mut placed,
            &scene.marks,
            plot,
            text,
            &cands,
            st,
            &|_| true,
        );
        scene.annotation = Some(AnnotationScene {
            kind: "reference_line".into(),
            label: Some(label),
            bbox: BBox {
                x: plot.x,
                y: y - 1.0,
                w: plot.w,
                h: 2.0,
            },
            value: Some(value),
            series: None,
            category: None,
            from: None,
            to: None,
            tip: None,
        });
    }
    if let (Some(r), Some((a, b, text))) = (band_box, band) {
        // In the headroom above the data: centred on the band, or (moved)
        // beside it, so a moved label never lands on its old place.
        let (cx, top) = (r.x + r.w / 2.0, plot.y + 4.0);
        let cands = if annot_moved {
            [
                (r.right() + 4.0, top, Align::Left),
                (r.x - 4.0, top, Align::Right),
            ]
        } else {
            [(cx, top, Align::Center), (r.x + 4.0, top, Align::Left)]
        };
        let label = annotation_label(
            canvas,
            &mut placed,
            &scene.marks,
            plot,
            text,
            &cands,
            st,
            &|_| true,
        );
        scene.annotation = Some(AnnotationScene {
            kind: "band".into(),
            label: Some(label),
            bbox: r,
            value: None,
            series: None,
            category: None,
            from: Some(cats[a].clone()),
            to: Some(cats[b].clone()),
            tip: None,
        });
    }
    if let Some(h) = highlight
        && let Some(m) = scene
            .marks
            .iter()
            .find(|m| m.category.as_deref() == Some(cats[h].as_str()))
    {
        scene.annotation = Some(AnnotationScene {
            kind: "highlight".into(),
            label: None,
            bbox: m.bbox,
            value: None,
            series: Some(m.series.clone()),
            category: m.category.clone(),
            from: None,
            to: None,
            tip: None,
        });
    }
    // A callout too, so value labels keep clear of its text and arrow.
    if let Some((series, category, text)) = callout
        && let Some(m) = scene
            .marks
            .iter()
            .find(|m| m.series == series && m.category.as_deref() == Some(category))
            .cloned()
    {
        scene.annotation = Some(draw_callout(
            canvas,
            &mut placed,
            &scene.marks,
            plot,
            &m,
            text,
            annot_moved,
            st,
        ));
    }
    let label_area = BBox {
        x: plot.x,
        y: plot.y - vls * 0.2,
        w: plot.w + vls,
        h: plot.h + vls * 0.2,
    };
    for (idx, text, cands) in label_jobs {
        let got = cands.iter().find_map(|(x, y, a, c)| {
            place_label(
                canvas,
                &mut placed,
                &label_area,
                &text,
                &[(*x, *y, *a)],
                st,
                c,
            )
        });
        scene.marks[idx].label = got;
    }

    // Legends.
    if let Some(b) = legend_box {
        scene.legend = draw_vertical_legend(canvas, &legend_items, st, b.x, b.y, true);
    }
    match placement {
        LegendPlacement::Top | LegendPlacement::Bottom => {
            let align = if st.title_align == Align::Left {
                Align::Left
            } else {
                Align::Center
            };
            let area = BBox {
                x: inner.x,
                y: 0.0,
                w: inner.w,
                h: 0.0,
            };
            scene.legend = draw_horizontal_legend(
                canvas,
                &legend_items,
                st,
                area,
                legend_top_y.unwrap_or(top),
                align,
            );
        }
        LegendPlacement::Right => {
            let (_, h) = vertical_legend_size(&legend_items, st);
            let y = (plot.y + (plot.h - h) / 2.0).max(plot.y);
            scene.legend = draw_vertical_legend(canvas, &legend_items, st, right + 10.0, y, false);
        }
        LegendPlacement::Direct => {
            scene.direct_labels =
                draw_direct_labels(canvas, &scene.marks, &drawn_series, st, plot, inner.right());
        }
        _ => {}
    }

    // Axis titles.
    let ls = st.label_size;
    if let Some(xl) = panel
        .x_label
        .as_deref()
        .filter(|l| !l.trim().is_empty() && !frame.hide_x_labels)
    {
        let text = truncate(xl, &st.font_family, ls, false, plot.w + plot.x - inner.x);
        let spec = TextSpec {
            text: &text,
            x: plot.x + plot.w / 2.0,
            y: bottom + 6.0,
            align: Align::Center,
            family: &st.font_family,
            size: ls,
            bold: false,
            color: &st.text_color,
        };
        let bbox = canvas.text(&spec);
        scene.x_label = Some(TextBox { text, bbox });
    }
    if let Some(yl) = panel
        .y_label
        .as_deref()
        .filter(|l| !l.trim().is_empty() && !frame.hide_y_labels)
    {
        let title = dual_title(panel, 0).unwrap_or_else(|| yl.to_string());
        let size = shrink_to_fit(&title, &st.font_family, ls, false, plot.h, ls * 0.75);
        let text = truncate(&title, &st.font_family, size, false, plot.h);
        // A dual-axis chart colours each axis title like the series it reads.
        let color = if dual {
            &series[0].color.hex
        } else {
            &st.text_color
        };
        let spec = TextSpec {
            text: &text,
            x: left0 + ls * 0.5,
            y: plot.y + plot.h / 2.0,
            align: Align::Center,
            family: &st.font_family,
            size,
            bold: false,
            color,
        };
        let bbox = canvas.rotated_text(&spec, -90.0);
        scene.y_label = Some(TextBox { text, bbox });
    }
    if let (Some(title), Some(line), Some(d)) =
        (right_title, series.get(1), scene.dual_axis.as_mut())
    {
        let size = shrink_to_fit(&title, &st.font_family, ls, false, plot.h, ls * 0.75);
        let text = truncate(&title, &st.font_family, size, false, plot.h);
        let spec = TextSpec {
            text: &text,
            x: inner.right() - ls * 0.5,
            y: plot.y + plot.h / 2.0,
            align: Align::Center,
            family: &st.font_family,
            size,
            bold: false,
            color: &line.color.hex,
        };
        let bbox = canvas.rotated_text(&spec, -90.0);
        d.right_label = Some(TextBox { text, bbox });
    }
    Ok(Drawn::Done(Box::new(scene)))
}

/// Series names at the right end of each line, pushed apart vertically.
fn draw_direct_labels(
    canvas: &mut Canvas,
    marks: &[Mark],
    series: &[&Series],
    st: &Style,
    plot: BBox,
    max_right: f32,
) -> Vec<TextBox> {
    let h = st.legend_size * 1.15;
    let mut ends: Vec<(f32, usize)> = series
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            marks
                .iter()
                .rev()
                .find(|m| m.series == s.name)
                .map(|m| (m.bbox.center().1, i))
        })
        .collect();
    ends.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    // Push down to avoid overlaps, then pull back up if we left the plot.
    let mut ys: Vec<f32> = ends.iter().map(|e| e.0).collect();
    for i in 1..ys.len() {
        if ys[i] < ys[i - 1] + h {
            ys[i] = ys[i - 1] + h;
        }
    }
    if let Some(&last) = ys.last() {
        let over = last - plot.bottom();
        if over > 0.0 {
            for y in &mut ys {
                *y -= over;
            }
        }
    }
    let x = plot.right() + 8.0;
    ends.iter()
        .zip(ys)
        .map(|(&(_, i), y)| {
            let s = series[i];
            let text = truncate(
                &s.name,
                &st.font_family,
                st.legend_size,
                false,
                (max_right - x).max(20.0),
            );
            let bbox = canvas.text(&TextSpec {
                text: &text,
                x,
                y: y - st.legend_size * 0.45,
                align: Align::Left,
                family: &st.font_family,
                size: st.legend_size,
                bold: false,
                color: &s.color.hex,
            });
            TextBox { text, bbox }
        })
        .collect()
}

const TICK_LEN: f32 = 5.0;

#[derive(Clone, Copy)]
enum Side {
    Left,
    Bottom,
    /// A dual-axis chart's second value axis.
    Right,
}

/// A dual-axis chart's title for the axis reading series `i` (0 left,
/// 1 right): the series' name, with its printed unit when the name does
/// not already give one.
fn dual_title(panel: &PanelSpec, i: usize) -> Option<String> {
    if panel.kind != ChartKind::DualAxis {
        return None;
    }
    let name = panel.series.get(i)?;
    let col = panel.table.series(name)?;
    let unit = col
        .format
        .suffix
        .as_deref()
        .or(col.format.prefix.as_deref())
        .map(str::trim)
        .filter(|u| !u.is_empty() && !name.contains(*u));
    Some(match unit {
        Some(u) => format!("{name} ({u})"),
        None => name.clone(),
    })
}

/// One tick mark at `pos` (a y on the left axis, an x on the bottom axis):
/// outward by default; inward ones are mirrored on a closed box's far side.
fn tick_mark(canvas: &mut Canvas, st: &Style, plot: BBox, side: Side, pos: f32) {
    if !st.tick_marks {
        return;
    }
    let len = if st.ticks_inward { -TICK_LEN } else { TICK_LEN };
    let mut segments = vec![match side {
        Side::Left => [(plot.x - len, pos), (plot.x, pos)],
        Side::Bottom => [(pos, plot.bottom()), (pos, plot.bottom() + len)],
        Side::Right => [(plot.right(), pos), (plot.right() + len, pos)],
    }];
    if st.ticks_inward && st.box_frame {
        segments.push(match side {
            Side::Left => [(plot.right(), pos), (plot.right() - TICK_LEN, pos)],
            Side::Bottom => [(pos, plot.y), (pos, plot.y + TICK_LEN)],
            Side::Right => [(plot.x, pos), (plot.x + TICK_LEN, pos)],
        });
    }
    for segment in &segments {
        canvas.line(segment, &st.axis_color, 1.0, None);
    }
}

fn tick_spec<'a>(st: &'a Style, text: &'a str, x: f32, y: f32, align: Align) -> TextSpec<'a> {
    TextSpec {
        text,
        x,
        y,
        align,
        family: &st.font_family,
        size: st.tick_size,
        bold: false,
        color: &st.text_color,
    }
}

/// Inside corners to try for a legend: the requested one, the other corner
/// of its row, then the other row.
fn corner_order(first: LegendPlacement) -> [LegendPlacement; 4] {
    use LegendPlacement::{BottomLeft, BottomRight, TopLeft, TopRight};
    match first {
        TopLeft => [TopLeft, TopRight, BottomLeft, BottomRight],
        BottomLeft => [BottomLeft, BottomRight, TopLeft, TopRight],
        BottomRight => [BottomRight, BottomLeft, TopRight, TopLeft],
        _ => [TopRight, TopLeft, BottomRight, BottomLeft],
    }
}

/// A drawn line (and, for areas, the band under it down to `floor`), kept so
/// an inside legend can avoid it.
struct Trace {
    points: Vec<(f32, f32)>,
    /// Pixel y the filled band reaches (areas); None for bare lines.
    floor: Option<f32>,
    /// Half the stroke width plus a little air.
    pad: f32,
}

impl Trace {
    /// Pixel y of the line at `x` within segment `a`-`b`.
    fn y_at(a: (f32, f32), b: (f32, f32), x: f32) -> f32 {
        if (b.0 - a.0).abs() < 1e-6 {
            a.1.min(b.1)
        } else {
            a.1 + (b.1 - a.1) * (x - a.0) / (b.0 - a.0)
        }
    }

    fn hits(&self, r: &BBox) -> bool {
        let r = r.grown(self.pad);
        self.points.windows(2).any(|w| {
            let (a, b) = (w[0], w[1]);
            let (x0, x1) = (a.0.min(b.0).max(r.x), a.0.max(b.0).min(r.right()));
            if x0 > x1 {
                return false;
            }
            // The segment is linear, so over [x0, x1] its extremes are at the ends.
            let (y0, y1) = (Self::y_at(a, b, x0), Self::y_at(a, b, x1));
            let (top, low) = (y0.min(y1), y0.max(y1));
            match self.floor {
                // The band covers from the line down to the floor.
                Some(floor) => top.min(floor) < r.bottom() && low.max(floor) > r.y,
                None => top < r.bottom() && low > r.y,
            }
        })
    }
}

/// The part of `a` inside `b` (what is visible of a clipped mark).
fn intersect(a: BBox, b: BBox) -> BBox {
    let x = a.x.max(b.x);
    let y = a.y.max(b.y);
    BBox {
        x,
        y,
        w: (a.right().min(b.right()) - x).max(0.0),
        h: (a.bottom().min(b.bottom()) - y).max(0.0),
    }
}

/// How far above its mark a callout's text sits.
const CALLOUT_RISE: f32 = 30.0;

/// Text size of annotation labels.
fn annotation_size(st: &Style) -> f32 {
    st.value_label_size.max(11.0)
}

/// The colour of bars a highlight mutes.
fn muted(st: &Style) -> NamedColor {
    // Grey that stays visible on dark themes too.
    let hex = if luminance(&st.plot_background) < 0.4 {
        "#6b6b6b"
    } else {
        "#c8c8c8"
    };
    NamedColor {
        name: "gray".into(),
        hex: hex.into(),
    }
}

/// Draws an annotation label on a backing box at the first candidate that
/// covers no placed text and no mark, else at the first candidate (its
/// backing box keeps it legible over what it covers).
#[allow(clippy::too_many_arguments)]
fn annotation_label(
    canvas: &mut Canvas,
    placed: &mut Placed,
    marks: &[Mark],
    within: BBox,
    text: &str,
    cands: &[(f32, f32, Align)],
    st: &Style,
    also: &dyn Fn(&BBox) -> bool,
) -> TextBox {
    let spec_at = |&(x, y, align): &(f32, f32, Align)| TextSpec {
        text,
        x,
        y,
        align,
        family: &st.font_family,
        size: annotation_size(st),
        bold: false,
        color: &st.text_color,
    };
    let clear = |b: &BBox| {
        placed.fits(&b.grown(2.0), &within)
            && !marks.iter().any(|m| m.bbox.intersects(&b.grown(2.0)))
            && also(b)
    };
    let at = cands
        .iter()
        .find(|c| clear(&text_bbox(&spec_at(c))))
        // Covering something is better than failing `also` (an arrow
        // across another mark).
        .or_else(|| cands.iter().find(|c| also(&text_bbox(&spec_at(c)))))
        .or(cands.first())
        .copied()
        .unwrap_or((within.x, within.y, Align::Left));
    let spec = spec_at(&at);
    let b = text_bbox(&spec);
    canvas.fill_rect(
        b.x - 2.0,
        b.y - 1.0,
        b.right() + 2.0,
        b.bottom() + 1.0,
        &st.plot_background,
        0.85,
    );
    let bbox = canvas.text(&spec);
    placed.add(bbox.grown(2.0));
    TextBox {
        text: text.to_string(),
        bbox,
    }
}

/// A callout: its text above and beside the mark, an arrow from the text
/// to just above the mark (or its value label).
#[allow(clippy::too_many_arguments)]
fn draw_callout(
    canvas: &mut Canvas,
    placed: &mut Placed,
    marks: &[Mark],
    plot: BBox,
    target: &Mark,
    text: &str,
    moved: bool,
    st: &Style,
) -> AnnotationScene {
    let size = annotation_size(st);
    let cx = target.bbox.x + target.bbox.w / 2.0;
    // Above the value label the mark will print, if values are printed.
    let top = target.bbox.y
        - if st.data_labels {
            st.value_label_size + 4.0
        } else {
            0.0
        };
    let tip = (cx, top - 3.0);
    let y = (top - CALLOUT_RISE - size * 1.25).max(plot.y + 2.0);
    let dx = 18.0 + target.bbox.w / 2.0;
    // The text keeps its side (right, or left when moved) and stays inside the plot.
    let spec = |x: f32, align: Align| TextSpec {
        text,
        x,
        y,
        align,
        family: &st.font_family,
        size,
        bold: false,
        color: "",
    };
    // Further out, then higher (or lower), else right above the mark: the first place
    // where the text covers nothing and its arrow crosses no other mark.
    let w = text_bbox(&spec(0.0, Align::Left)).w;
    // Its own side first (right, or left when moved), then the other.
    let side = |left: bool| {
        [0.0, -1.5, -3.0, -4.5, -6.0, 1.5]
            .map(|k| y + size * k)
            .into_iter()
            .flat_map(move |y| {
                (0..5).map(move |k| {
                    let out = dx + 22.0 * k as f32;
                    if left {
                        ((cx - out).max(plot.x + 2.0 + w), y, Align::Right)
                    } else {
                        ((cx + out).min(plot.right() - 2.0 - w), y, Align::Left)
                    }
                })
            })
    };
    let mut cands: Vec<(f32, f32, Align)> = side(moved).chain(side(!moved)).collect();
    let half = if moved { -w / 2.0 } else { w / 2.0 };
    cands.push((cx + half, y, Align::Center));
    // The arrow leaves the text's lower corner nearest the mark (its middle
    // when the text is right above it) and crosses no other mark.
    let tail_of = |b: &BBox| {
        let x = if b.x > cx {
            b.x + 2.0
        } else if b.right() < cx {
            b.right() - 2.0
        } else {
            cx
        };
        (x, b.bottom() + 2.0)
    };
    let crosses_nothing = |b: &BBox| {
        let tail = tail_of(b);
        (0..=20).all(|i| {
            let t = i as f32 / 20.0;
            let (x, y) = (tail.0 + (tip.0 - tail.0) * t, tail.1 + (tip.1 - tail.1) * t);
            !marks.iter().any(|m| {
                m != target
                    && x >= m.bbox.x - 1.0
                    && x <= m.bbox.right() + 1.0
                    && y >= m.bbox.y - 1.0
                    && y <= m.bbox.bottom() + 1.0
            })
        })
    };
    let label = annotation_label(
        canvas,
        placed,
        marks,
        plot,
        text,
        &cands,
        st,
        &crosses_nothing,
    );
    let b = label.bbox;
    let tail = tail_of(&b);
    canvas.line(&[tail, tip], &st.text_color, 1.2, None);
    let (dx, dy) = (tip.0 - tail.0, tip.1 - tail.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-3);
    let (ux, uy) = (dx / len, dy / len);
    let head = 7.0;
    let base = (tip.0 - ux * head, tip.1 - uy * head);
    canvas.polygon(
        &[
            tip,
            (base.0 - uy * head * 0.5, base.1 + ux * head * 0.5),
            (base.0 + uy * head * 0.5, base.1 - ux * head * 0.5),
        ],
        &st.text_color,
        1.0,
    );
    let arrow = BBox {
        x: tail.0.min(tip.0) - 4.0,
        y: tail.1.min(tip.1) - 1.0,
        w: (tip.0 - tail.0).abs() + 8.0,
        h: (tip.1 - tail.1).abs() + 2.0,
    };
    placed.add(arrow);
    AnnotationScene {
        kind: "callout".into(),
        label: Some(label),
        bbox: arrow,
        value: None,
        series: Some(target.series.clone()),
        category: target.category.clone(),
        from: None,
        to: None,
        tip: Some(tip),
    }
}
