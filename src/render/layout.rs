//! Figure layouts: single chart, n×m grid with suptitle, dashboard with a
//! banner, KPI tiles, charts on an uneven grid and a paragraph box.

use super::canvas::{Canvas, TextSpec};
use super::common::{contrast_text, draw_title, inset, union};
use super::text::{truncate, wrap};
use super::{PanelFrame, RenderError, draw_panel, has_value_axis};
use crate::ir::scene::KpiScene;
use crate::ir::{
    Align, BBox, ChartKind, ChartSpec, KpiTile, Layout, PanelSpec, Scene, Style, TextBox,
};

pub fn draw_figure(canvas: &mut Canvas, spec: &ChartSpec) -> Result<Scene, RenderError> {
    let st = &spec.style;
    let (w, h) = (spec.width as f32, spec.height as f32);
    canvas.fill_rect(0.0, 0.0, w, h, &st.background, 1.0);
    let full = BBox {
        x: 0.0,
        y: 0.0,
        w,
        h,
    };
    let mut scene = Scene {
        width: spec.width,
        height: spec.height,
        title: None,
        grid: (1, 1),
        panels: Vec::new(),
        kpis: Vec::new(),
        paragraph: None,
        extra_text: Vec::new(),
    };
    match &spec.layout {
        Layout::Single { panel } => {
            let frame = PanelFrame {
                rect: full,
                index: 0,
                row: 0,
                col: 0,
                shared_values: None,
                hide_x_labels: false,
                hide_y_labels: false,
            };
            scene.panels.push(draw_panel(canvas, panel, &frame)?);
        }
        Layout::Grid {
            rows,
            cols,
            panels,
            shared_x,
            shared_y,
        } => {
            let (rows, cols) = ((*rows).max(1), (*cols).max(1));
            scene.grid = (rows, cols);
            let m = st.margin as f32;
            let area = inset(full, m);
            let (title, used) = draw_title(
                canvas,
                spec.title.as_deref(),
                st,
                area,
                st.title_size * 1.15,
            );
            scene.title = title;
            let area = BBox {
                y: area.y + used,
                h: area.h - used,
                ..area
            };
            let shared = if *shared_y {
                shared_range(panels)
            } else {
                None
            };
            let (cw, ch) = (area.w / cols as f32, area.h / rows as f32);
            for (i, panel) in panels.iter().enumerate() {
                let (r, c) = (i as u32 / cols, i as u32 % cols);
                let rect = BBox {
                    x: area.x + c as f32 * cw,
                    y: area.y + r as f32 * ch,
                    w: cw,
                    h: ch,
                };
                let frame = PanelFrame {
                    rect,
                    index: i,
                    row: r,
                    col: c,
                    shared_values: shared,
                    hide_x_labels: *shared_x && (i + cols as usize) < panels.len(),
                    hide_y_labels: *shared_y && c > 0,
                };
                scene.panels.push(draw_panel(canvas, panel, &frame)?);
            }
        }
        Layout::Dashboard {
            banner,
            kpis,
            grid_rows,
            grid_cols,
            panels,
            paragraph,
        } => {
            scene.grid = ((*grid_rows).max(1), (*grid_cols).max(1));
            let gap = 14.0;
            let mut y = 0.0;
            if let Some(b) = banner.as_deref().filter(|b| !b.trim().is_empty()) {
                let band_h = st.title_size * 2.6;
                let fill = st
                    .palette
                    .first()
                    .map(|c| c.hex.clone())
                    .unwrap_or_else(|| st.text_color.clone());
                canvas.fill_rect(0.0, 0.0, w, band_h, &fill, 1.0);
                let size = st.title_size * 1.25;
                let text = truncate(b, &st.title_font_family, size, true, w - 2.0 * gap - 20.0);
                let bbox = canvas.text(&TextSpec {
                    text: &text,
                    x: gap + 10.0,
                    y: (band_h - size) / 2.0,
                    align: Align::Left,
                    family: &st.title_font_family,
                    size,
                    bold: true,
                    color: contrast_text(&fill),
                });
                scene.title = Some(TextBox { text, bbox });
                y = band_h;
            }
            y += gap;
            if !kpis.is_empty() {
                let tile_h = (st.title_size * 5.2).min(h * 0.18);
                let n = kpis.len() as f32;
                let tw = (w - gap * (n + 1.0)) / n;
                for (i, k) in kpis.iter().enumerate() {
                    let rect = BBox {
                        x: gap + i as f32 * (tw + gap),
                        y,
                        w: tw,
                        h: tile_h,
                    };
                    scene.kpis.push(draw_kpi(canvas, k, rect, st));
                }
                y += tile_h + gap;
            }
            let mut bottom = h - gap;
            if let Some(p) = paragraph.as_deref().filter(|p| !p.trim().is_empty()) {
                let size = st.label_size;
                let (lines, _) = wrap(p, &st.font_family, size, false, w - 4.0 * gap, 5);
                let box_h = lines.len() as f32 * size * 1.35 + 2.0 * gap;
                let top = bottom - box_h;
                canvas.fill_rect(gap, top, w - gap, bottom, &st.plot_background, 1.0);
                canvas.stroke_rect(gap, top, w - gap, bottom, &st.grid_color, 1.0);
                let mut bbox: Option<BBox> = None;
                for (i, line) in lines.iter().enumerate() {
                    let b = canvas.text(&TextSpec {
                        text: line,
                        x: 2.0 * gap,
                        y: top + gap + i as f32 * size * 1.35,
                        align: Align::Left,
                        family: &st.font_family,
                        size,
                        bold: false,
                        color: &st.text_color,
                    });
                    bbox = Some(bbox.map_or(b, |a| union(a, b)));
                }
                scene.paragraph = bbox.map(|bbox| TextBox {
                    text: lines.join(" "),
                    bbox,
                });
                bottom = top - gap;
            }
            let area = BBox {
                x: gap,
                y,
                w: w - 2.0 * gap,
                h: (bottom - y).max(60.0),
            };
            let (gr, gc) = scene.grid;
            let (cw, ch) = ((area.w + gap) / gc as f32, (area.h + gap) / gr as f32);
            for (i, dp) in panels.iter().enumerate() {
                let rect = BBox {
                    x: area.x + dp.col as f32 * cw,
                    y: area.y + dp.row as f32 * ch,
                    w: dp.col_span.max(1) as f32 * cw - gap,
                    h: dp.row_span.max(1) as f32 * ch - gap,
                };
                canvas.fill_rect(
                    rect.x,
                    rect.y,
                    rect.right(),
                    rect.bottom(),
                    &dp.panel.style.plot_background,
                    1.0,
                );
                canvas.stroke_rect(
                    rect.x,
                    rect.y,
                    rect.right(),
                    rect.bottom(),
                    &st.grid_color,
                    1.0,
                );
                let frame = PanelFrame {
                    rect,
                    index: i,
                    row: dp.row,
                    col: dp.col,
                    shared_values: None,
                    hide_x_labels: false,
                    hide_y_labels: false,
                };
                scene.panels.push(draw_panel(canvas, &dp.panel, &frame)?);
            }
        }
    }
    Ok(scene)
}

fn draw_kpi(canvas: &mut Canvas, k: &KpiTile, rect: BBox, st: &Style) -> KpiScene {
    canvas.fill_rect(
        rect.x,
        rect.y,
        rect.right(),
        rect.bottom(),
        &st.plot_background,
        1.0,
    );
    canvas.stroke_rect(
        rect.x,
        rect.y,
        rect.right(),
        rect.bottom(),
        &st.grid_color,
        1.0,
    );
    let accent = st
        .palette
        .first()
        .map(|c| c.hex.as_str())
        .unwrap_or("#1f77b4");
    canvas.fill_rect(rect.x, rect.y, rect.x + 5.0, rect.bottom(), accent, 1.0);
    let pad = 14.0;
    let ls = st.label_size;
    let label = truncate(&k.label, &st.font_family, ls, false, rect.w - 2.0 * pad);
    canvas.text(&TextSpec {
        text: &label,
        x: rect.x + pad,
        y: rect.y + pad * 0.8,
        align: Align::Left,
        family: &st.font_family,
        size: ls,
        bold: false,
        color: &st.text_color,
    });
    let vs = (rect.h * 0.36).min(st.title_size * 2.0);
    let value = truncate(
        &k.value,
        &st.title_font_family,
        vs,
        true,
        rect.w - 2.0 * pad,
    );
    canvas.text(&TextSpec {
        text: &value,
        x: rect.x + pad,
        y: rect.y + pad * 0.8 + ls * 1.5,
        align: Align::Left,
        family: &st.title_font_family,
        size: vs,
        bold: true,
        color: &st.text_color,
    });
    let delta = k
        .delta
        .as_deref()
        .filter(|d| !d.trim().is_empty())
        .map(|d| {
            let color = if d.trim_start().starts_with('-') || d.trim_start().starts_with('−') {
                "#d62728"
            } else {
                "#2ca02c"
            };
            let ds = st.tick_size;
            let text = truncate(d, &st.font_family, ds, false, rect.w - 2.0 * pad);
            canvas.text(&TextSpec {
                text: &text,
                x: rect.x + pad,
                y: rect.y + pad * 0.8 + ls * 1.5 + vs * 1.15,
                align: Align::Left,
                family: &st.font_family,
                size: ds,
                bold: false,
                color,
            });
            text
        });
    KpiScene {
        label,
        value,
        delta,
        bbox: rect,
    }
}

/// The union of value extents of all cartesian panels (for shared y axes).
fn shared_range(panels: &[PanelSpec]) -> Option<(f64, f64)> {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for p in panels.iter().filter(|p| {
        has_value_axis(p.kind) && !matches!(p.kind, ChartKind::Scatter | ChartKind::Bubble)
    }) {
        let stacked = matches!(p.kind, ChartKind::StackedBar | ChartKind::StackedArea);
        for r in 0..p.table.n_rows() {
            let vals = p.series.iter().filter_map(|s| p.table.value(s, r));
            if stacked {
                let (pos, neg) =
                    vals.fold(
                        (0.0, 0.0),
                        |(a, b), v| if v >= 0.0 { (a + v, b) } else { (a, b + v) },
                    );
                lo = lo.min(neg);
                hi = hi.max(pos);
            } else {
                for v in vals {
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
            }
        }
    }
    (lo.is_finite() && hi.is_finite()).then_some((lo, hi))
}
