//! Statistical panels: histograms (adjoining bars over a numeric axis whose
//! ticks print the bin edges), box plots (Tukey boxes, whiskers and outlier
//! points per group) and violins (a mirrored Gaussian density per group
//! with a quartile bar, whisker line and median dot). Statistics come from
//! `spec::stat`, so the picture, the scene and the questions agree.

use super::canvas::{Canvas, TextSpec};
use super::common::{color_of, draw_titles, inset};
use super::fonts::{ASCENT, DESCENT, text_width};
use super::text::truncate;
use super::{PanelFrame, RenderError};
use crate::ir::{
    Align, BBox, BinScene, ChartKind, GridLines, GroupScene, Mark, MarkKind, NamedColor,
    NumberFormat, OutlierScene, PanelScene, PanelSpec, StatScene, Style, TextBox, Tick,
};
use crate::spec::format::{format_number, nice_ticks};
use crate::spec::stat::{self, BoxStats};

const TICK_LEN: f32 = 5.0;
/// Points along a violin's outline.
const KDE_POINTS: usize = 64;

fn text_h(size: f32) -> f32 {
    size * (ASCENT + DESCENT)
}

/// A numeric axis: value range mapped to a pixel range (`a` at `lo`).
#[derive(Clone, Copy)]
struct Scale {
    lo: f64,
    hi: f64,
    a: f32,
    b: f32,
}

impl Scale {
    fn px(&self, v: f64) -> f32 {
        self.a + ((v - self.lo) / (self.hi - self.lo)) as f32 * (self.b - self.a)
    }
}

/// Nice ticks over `[lo, hi]`, with the axis spanning first to last tick.
fn axis_ticks(lo: f64, hi: f64, count: u32, integers: bool) -> (Vec<f64>, usize) {
    let (mut t, mut d) = nice_ticks(lo, hi, count.clamp(4, 8));
    if integers && t.len() >= 2 && t[1] - t[0] < 1.0 {
        t = (t[0].floor() as i64..=t[t.len() - 1].ceil() as i64)
            .map(|i| i as f64)
            .collect();
        d = 0;
    }
    (t, d)
}

fn label(
    canvas: &mut Canvas,
    st: &Style,
    text: &str,
    x: f32,
    y: f32,
    align: Align,
    size: f32,
) -> BBox {
    canvas.text(&TextSpec {
        text,
        x,
        y,
        align,
        family: &st.font_family,
        size,
        bold: false,
        color: &st.text_color,
    })
}

/// A Gaussian kernel density at `x` (Scott's bandwidth `bw`).
fn density(values: &[f64], bw: f64, x: f64) -> f64 {
    let k: f64 = values
        .iter()
        .map(|v| (-0.5 * ((x - v) / bw).powi(2)).exp())
        .sum();
    k / (values.len() as f64 * bw * (2.0 * std::f64::consts::PI).sqrt())
}

fn scott_bandwidth(values: &[f64]) -> f64 {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let span = values.iter().copied().fold(f64::NEG_INFINITY, f64::max)
        - values.iter().copied().fold(f64::INFINITY, f64::min);
    let bw = var.sqrt() * n.powf(-0.2);
    if bw.is_finite() && bw > 0.0 {
        bw
    } else {
        (span / 10.0).max(1e-9)
    }
}

pub fn draw(
    canvas: &mut Canvas,
    panel: &PanelSpec,
    frame: &PanelFrame,
) -> Result<PanelScene, RenderError> {
    let st = &panel.style;
    let table = &panel.table;
    let mut scene = PanelScene::blank(frame.index, frame.row, frame.col, panel.kind, &table.id);
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
    let area = BBox {
        y: inner.y + title_h + 6.0,
        h: (inner.h - title_h - 6.0).max(1.0),
        ..inner
    };
    let histogram = panel.kind == ChartKind::Histogram;

    // What is drawn, in value units: bins, or boxes (and violin values).
    let boxes: Vec<(String, BoxStats)> = if histogram {
        Vec::new()
    } else {
        stat::panel_boxes(panel.samples.as_ref(), table)
    };
    // Raw observations only (a five-number summary has none to draw).
    let samples: Vec<(String, Vec<f64>)> = panel
        .samples
        .as_ref()
        .filter(|s| stat::is_samples(s))
        .map(stat::groups)
        .unwrap_or_default();
    let (edges, counts, value_format) = if histogram {
        match samples.first() {
            Some((_, values)) => {
                let edges = stat::bin_edges(values);
                let counts = stat::bin_counts(values, &edges);
                let fmt = panel
                    .samples
                    .as_ref()
                    .and_then(|s| s.series.first())
                    .map(|c| c.format.clone())
                    .unwrap_or_default();
                (edges, counts, fmt)
            }
            // A table of counts per bin draws its own bins.
            None => {
                let (edges, counts) = stat::binned(table).ok_or_else(|| {
                    RenderError::Spec("histogram without observations or bins".into())
                })?;
                (edges, counts, NumberFormat::default())
            }
        }
    } else {
        let fmt = table
            .series
            .first()
            .map(|c| NumberFormat {
                decimals: c.format.decimals,
                ..c.format.clone()
            })
            .unwrap_or_default();
        (Vec::new(), Vec::new(), fmt)
    };
    if (histogram && edges.len() < 2) || (!histogram && boxes.is_empty()) {
        return Err(RenderError::Spec(format!(
            "{} on {:?}: nothing to draw",
            panel.kind.name(),
            table.id
        )));
    }
    let (vlo, vhi) = if histogram {
        let top = f64::from(counts.iter().copied().max().unwrap_or(1).max(1));
        // Printed counts need room above the tallest bar.
        (
            0.0,
            if st.data_labels {
                top * 1.08 + 0.5
            } else {
                top
            },
        )
    } else {
        boxes
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (_, s)| {
                let lo = s.outliers.iter().copied().fold(s.low, f64::min);
                let hi = s.outliers.iter().copied().fold(s.high, f64::max);
                (a.min(lo), b.max(hi))
            })
    };
    // An earlier drawing's span, kept at another tick density.
    let span = panel.pinned.as_ref().and_then(|p| p.spans.as_ref()?.value);
    let (vticks, vdec) = span
        .and_then(|(lo, hi)| crate::spec::format::span_ticks(lo, hi, st.tick_count))
        .unwrap_or_else(|| axis_ticks(vlo, vhi, st.tick_count, histogram));
    // The axis spans the kept span, whichever of its multiples print.
    let (vlo_axis, vhi_axis) = match span {
        Some((lo, hi)) if vticks.len() >= 2 => (lo, hi),
        _ => (vticks[0], *vticks.last().unwrap_or(&vhi)),
    };
    let vfmt = if histogram {
        NumberFormat::default()
    } else {
        value_format.clone()
    };
    let vlabels: Vec<String> = vticks
        .iter()
        .map(|t| format_number(*t, st.number_style, vdec, &vfmt))
        .collect();
    let family = st.font_family.as_str();
    let ts = st.tick_size;
    let ls = st.label_size;

    // Left: y title and tick labels. Bottom: tick labels and x title.
    let y_title = panel.y_label.as_deref().filter(|l| !l.trim().is_empty());
    let x_title = panel.x_label.as_deref().filter(|l| !l.trim().is_empty());
    let ylab_w = vlabels
        .iter()
        .map(|l| text_width(l, family, ts, false))
        .fold(0.0f32, f32::max);
    let left = if y_title.is_some() { ls * 1.6 } else { 0.0 } + ylab_w + TICK_LEN + 6.0;
    let bottom = TICK_LEN + 4.0 + text_h(ts) + if x_title.is_some() { ls * 1.8 } else { 0.0 };
    let plot = BBox {
        x: (area.x + left).round(),
        y: area.y.round(),
        w: (area.w - left - 8.0).max(20.0).round(),
        h: (area.h - bottom).max(20.0).round(),
    };
    // A layout aligning panels narrows the plot to the edges its row and
    // column share (they leave room for every panel's labels).
    let plot = match frame.plot_area {
        Some(a) => {
            let (x, y) = (plot.x.max(a.x), plot.y.max(a.y));
            BBox {
                x,
                y,
                w: (plot.right().min(a.right()) - x).max(20.0),
                h: (plot.bottom().min(a.bottom()) - y).max(20.0),
            }
        }
        None => plot,
    };
    scene.plot_area = plot;
    let vscale = Scale {
        lo: vlo_axis,
        hi: vhi_axis,
        a: plot.bottom(),
        b: plot.y,
    };
    canvas.fill_rect(
        plot.x,
        plot.y,
        plot.right(),
        plot.bottom(),
        &st.plot_background,
        1.0,
    );

    // Value grid and ticks.
    for (t, l) in vticks.iter().zip(&vlabels) {
        let y = vscale.px(*t);
        if matches!(st.grid, GridLines::Horizontal | GridLines::Both) {
            canvas.line(
                &[(plot.x, y), (plot.right(), y)],
                &st.grid_color,
                1.0,
                st.grid_dashed.then_some("4,3"),
            );
        }
        canvas.line(
            &[(plot.x - TICK_LEN, y), (plot.x, y)],
            &st.axis_color,
            1.0,
            None,
        );
        let bbox = label(
            canvas,
            st,
            l,
            plot.x - TICK_LEN - 3.0,
            y - text_h(ts) / 2.0,
            Align::Right,
            ts,
        );
        scene.y_ticks.push(Tick {
            label: l.clone(),
            value: Some(*t),
            pos: y,
            bbox,
            category: None,
        });
    }

    let mut stat_scene = StatScene {
        method: stat::METHOD.to_string(),
        bins: Vec::new(),
        groups: Vec::new(),
    };
    let series = panel.series.first().cloned().unwrap_or_default();
    let mut labels_bottom = plot.bottom() + TICK_LEN + 3.0 + text_h(ts);
    if histogram {
        let xscale = Scale {
            lo: edges[0],
            hi: *edges.last().unwrap_or(&edges[0]),
            a: plot.x + 6.0,
            b: plot.right() - 6.0,
        };
        let cats = table.category_labels();
        let color = color_of(st, 0);
        for (i, w) in edges.windows(2).enumerate() {
            let (x0, x1) = (xscale.px(w[0]).round(), xscale.px(w[1]).round());
            let top = vscale.px(f64::from(counts[i]));
            let bbox = BBox {
                x: x0,
                y: top,
                w: x1 - x0,
                h: plot.bottom() - top,
            };
            canvas.fill_rect(bbox.x, bbox.y, bbox.right(), bbox.bottom(), &color.hex, 1.0);
            // A thin background edge keeps adjoining bars apart.
            canvas.line(&[(x1, top), (x1, plot.bottom())], &st.background, 1.0, None);
            let text = counts[i].to_string();
            let value_label = st.data_labels.then(|| {
                let b = label(
                    canvas,
                    st,
                    &text,
                    bbox.x + bbox.w / 2.0,
                    top - text_h(st.value_label_size) - 2.0,
                    Align::Center,
                    st.value_label_size,
                );
                TextBox {
                    text: text.clone(),
                    bbox: b,
                }
            });
            scene.marks.push(Mark {
                kind: MarkKind::Bar,
                series: series.clone(),
                category: cats.get(i).cloned(),
                value: f64::from(counts[i]),
                x_value: None,
                size_value: None,
                color: color.clone(),
                bbox,
                sweep_deg: None,
                label: value_label,
            });
            stat_scene.bins.push(BinScene {
                start: w[0],
                end: w[1],
                count: counts[i],
                bbox,
            });
        }
        // Edge ticks: every edge when the labels fit, else every other one.
        let edec = crate::spec::format::decimals_for(edges[1] - edges[0]);
        let elabels: Vec<String> = edges
            .iter()
            .map(|e| format_number(*e, st.number_style, edec, &value_format))
            .collect();
        let widest = elabels
            .iter()
            .map(|l| text_width(l, family, ts, false))
            .fold(0.0f32, f32::max);
        let spacing = xscale.px(edges[1]) - xscale.px(edges[0]);
        let every = if widest + 6.0 <= spacing { 1 } else { 2 };
        for (i, (e, l)) in edges.iter().zip(&elabels).enumerate() {
            if i % every != 0 {
                continue;
            }
            let x = xscale.px(*e).round();
            canvas.line(
                &[(x, plot.bottom()), (x, plot.bottom() + TICK_LEN)],
                &st.axis_color,
                1.0,
                None,
            );
            let bbox = label(
                canvas,
                st,
                l,
                x,
                plot.bottom() + TICK_LEN + 2.0,
                Align::Center,
                ts,
            );
            scene.x_ticks.push(Tick {
                label: l.clone(),
                value: Some(*e),
                pos: x,
                bbox,
                category: None,
            });
        }
    } else {
        let n = boxes.len();
        let slot = plot.w / n as f32;
        let half = (slot * 0.3).min(60.0);
        let violin = panel.kind == ChartKind::Violin;
        // Violins share one density scale per plot: each at its own peak
        // width (seaborn's `width` scaling), so shapes compare by outline.
        for (i, (group, b)) in boxes.iter().enumerate() {
            let cx = plot.x + slot * (i as f32 + 0.5);
            let color = color_of(st, i);
            let (y1, ym, y3) = (vscale.px(b.q1), vscale.px(b.median), vscale.px(b.q3));
            let (ylo, yhi) = (vscale.px(b.low), vscale.px(b.high));
            let mut max_half = None;
            let box_half = if violin { 4.0 } else { half };
            let bbox = BBox {
                x: cx - box_half,
                y: y3,
                w: box_half * 2.0,
                h: (y1 - y3).max(1.0),
            };
            if violin {
                let values = samples
                    .iter()
                    .find(|(g, _)| g == group)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_default();
                let bw = scott_bandwidth(&values);
                let (lo, hi) = (
                    values.iter().copied().fold(f64::INFINITY, f64::min),
                    values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                );
                let ys: Vec<f64> = (0..=KDE_POINTS)
                    .map(|k| lo + (hi - lo) * k as f64 / KDE_POINTS as f64)
                    .collect();
                let ds: Vec<f64> = ys.iter().map(|y| density(&values, bw, *y)).collect();
                let peak = ds.iter().copied().fold(0.0f64, f64::max).max(1e-300);
                let mut pts: Vec<(f32, f32)> = ys
                    .iter()
                    .zip(&ds)
                    .map(|(y, d)| (cx + half * (d / peak) as f32, vscale.px(*y)))
                    .collect();
                let left: Vec<(f32, f32)> = ys
                    .iter()
                    .zip(&ds)
                    .rev()
                    .map(|(y, d)| (cx - half * (d / peak) as f32, vscale.px(*y)))
                    .collect();
                pts.extend(left);
                canvas.polygon(&pts, &color.hex, 0.85);
                max_half = Some(half);
                // Inner box: whisker line, quartile bar, white median dot.
                canvas.line(&[(cx, ylo), (cx, yhi)], &st.text_color, 1.5, None);
                canvas.fill_rect(
                    bbox.x,
                    bbox.y,
                    bbox.right(),
                    bbox.bottom(),
                    &st.text_color,
                    1.0,
                );
                canvas.circle(cx, ym, 3.5, "#ffffff", 1.0, Some(&st.text_color));
            } else {
                canvas.fill_rect(
                    bbox.x,
                    bbox.y,
                    bbox.right(),
                    bbox.bottom(),
                    &color.hex,
                    0.75,
                );
                canvas.stroke_rect(
                    bbox.x,
                    bbox.y,
                    bbox.right(),
                    bbox.bottom(),
                    &st.text_color,
                    1.0,
                );
                for (from, to) in [(y3, yhi), (y1, ylo)] {
                    canvas.line(&[(cx, from), (cx, to)], &st.text_color, 1.0, None);
                    canvas.line(
                        &[(cx - half * 0.5, to), (cx + half * 0.5, to)],
                        &st.text_color,
                        1.0,
                        None,
                    );
                }
                canvas.line(
                    &[(bbox.x, ym), (bbox.right(), ym)],
                    &st.text_color,
                    2.5,
                    None,
                );
            }
            let mut outliers = Vec::new();
            if !violin {
                for o in &b.outliers {
                    let oy = vscale.px(*o);
                    canvas.circle(cx, oy, 3.0, &st.plot_background, 1.0, Some(&st.text_color));
                    outliers.push(OutlierScene {
                        value: *o,
                        bbox: BBox {
                            x: cx - 3.0,
                            y: oy - 3.0,
                            w: 6.0,
                            h: 6.0,
                        },
                    });
                }
            }
            let value = table
                .series
                .first()
                .and_then(|c| c.cells.get(i))
                .and_then(|c| c.as_f64())
                .unwrap_or(b.median);
            // The median printed right of the box (or violin), level with
            // its line, when it fits before the next group's slot.
            let text = format_number(value, st.number_style, usize::from(vfmt.decimals), &vfmt);
            let x = cx + half + 4.0;
            let fits = x + text_width(&text, family, st.value_label_size, false)
                <= plot.x + slot * (i as f32 + 1.0) + slot * 0.15;
            let value_label = (st.data_labels && fits).then(|| {
                let bb = label(
                    canvas,
                    st,
                    &text,
                    x,
                    ym - text_h(st.value_label_size) / 2.0,
                    Align::Left,
                    st.value_label_size,
                );
                TextBox { text, bbox: bb }
            });
            scene.marks.push(Mark {
                kind: MarkKind::Median,
                series: series.clone(),
                category: Some(group.clone()),
                value,
                x_value: None,
                size_value: None,
                color: NamedColor {
                    name: color.name.clone(),
                    hex: color.hex.clone(),
                },
                bbox: BBox {
                    x: bbox.x,
                    y: ym - 1.0,
                    w: bbox.w,
                    h: 2.0,
                },
                sweep_deg: None,
                label: value_label,
            });
            stat_scene.groups.push(GroupScene {
                group: group.clone(),
                n: b.n,
                q1: b.q1,
                median: b.median,
                q3: b.q3,
                low: b.low,
                high: b.high,
                bbox,
                median_y: ym,
                low_y: ylo,
                high_y: yhi,
                max_half_width: max_half,
                outliers,
            });
            // Group name under its slot.
            let text = truncate(group, family, ts, false, slot - 4.0);
            canvas.line(
                &[(cx, plot.bottom()), (cx, plot.bottom() + TICK_LEN)],
                &st.axis_color,
                1.0,
                None,
            );
            let tb = label(
                canvas,
                st,
                &text,
                cx,
                plot.bottom() + TICK_LEN + 2.0,
                Align::Center,
                ts,
            );
            labels_bottom = labels_bottom.max(tb.bottom());
            scene.x_ticks.push(Tick {
                label: text,
                value: None,
                pos: cx,
                bbox: tb,
                category: None,
            });
        }
    }
    // Axis lines (a frame when the theme draws one).
    if st.box_frame {
        canvas.stroke_rect(
            plot.x,
            plot.y,
            plot.right(),
            plot.bottom(),
            &st.axis_color,
            st.axis_line_width,
        );
    } else {
        canvas.line(
            &[(plot.x, plot.y), (plot.x, plot.bottom())],
            &st.axis_color,
            st.axis_line_width,
            None,
        );
        canvas.line(
            &[(plot.x, plot.bottom()), (plot.right(), plot.bottom())],
            &st.axis_color,
            st.axis_line_width,
            None,
        );
    }
    if let Some(xl) = x_title {
        let text = truncate(xl, family, ls, false, plot.w);
        let bbox = label(
            canvas,
            st,
            &text,
            plot.x + plot.w / 2.0,
            labels_bottom + 4.0,
            Align::Center,
            ls,
        );
        scene.x_label = Some(TextBox { text, bbox });
    }
    if let Some(yl) = y_title {
        let text = truncate(yl, family, ls, false, plot.h);
        let left_edge = scene
            .y_ticks
            .iter()
            .map(|t| t.bbox.x)
            .fold(plot.x, f32::min);
        let bbox = canvas.rotated_text(
            &TextSpec {
                text: &text,
                x: left_edge - ls * 0.9,
                y: plot.y + plot.h / 2.0,
                align: Align::Center,
                family,
                size: ls,
                bold: false,
                color: &st.text_color,
            },
            -90.0,
        );
        scene.y_label = Some(TextBox { text, bbox });
    }
    scene.stat = Some(stat_scene);
    Ok(scene)
}
