//! Heatmap panels: a grid of cells (categories × series, or the transpose
//! for time along x), each filled from a sequential colour map, a colour bar
//! with printed ticks at the right, and each cell's value printed inside it
//! (in a colour that contrasts with the cell) when `data_labels` is on and
//! the cells are big enough. Cells and the bar are raw SVG rects on whole
//! pixels, so a cell's pixels have exactly its recorded colour.

use std::f32::consts::FRAC_1_SQRT_2;

use super::canvas::{Canvas, TextSpec};
use super::colormap;
use super::common::{draw_titles, inset, luminance};
use super::fonts::{ASCENT, DESCENT, text_width};
use super::text::truncate;
use super::{PanelFrame, RenderError};
use crate::ir::{
    Align, BBox, ColorBar, Colormap, HeatmapScene, Mark, MarkKind, NamedColor, NumberFormat,
    PanelScene, PanelSpec, Style, TextBox, Tick,
};
use crate::spec::format::{format_number, nice_ticks};

const TICK_LEN: f32 = 4.0;
const BAR_W: f32 = 14.0;
const BAR_GAP: f32 = 14.0;
/// Smallest font a cell's value is printed in; smaller cells print none.
const MIN_VALUE_SIZE: f32 = 8.0;
/// Largest cell sides: a small table does not become a few giant blocks.
const MAX_CELL_W: f32 = 150.0;
const MAX_CELL_H: f32 = 100.0;

/// A value as the cell prints it (the decimals its column prints, at least
/// one for a fraction), as bar and line value labels do.
fn value_label(v: f64, style: &Style, format: &NumberFormat) -> String {
    let decimals = if v.fract() == 0.0 {
        0
    } else {
        usize::from(format.decimals.max(1)).min(4)
    };
    let decimals = decimals.max(usize::from(format.decimals));
    format_number(v, style.number_style, decimals, format)
}

fn text_h(size: f32) -> f32 {
    size * (ASCENT + DESCENT)
}

/// Whole-pixel edges splitting `len` pixels from `start` into `n` slots.
fn edges(start: f32, len: f32, n: usize) -> Vec<f32> {
    (0..=n)
        .map(|i| (start + len * i as f32 / n.max(1) as f32).round())
        .collect()
}

fn rect(canvas: &mut Canvas, b: BBox, fill: &str) {
    canvas.raw(&format!(
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}"/>"#,
        b.x, b.y, b.w, b.h
    ));
}

/// How column labels print under the grid.
enum ColMode {
    Flat,
    /// Rotated by -45°, truncated.
    Rotated,
}

pub fn draw(
    canvas: &mut Canvas,
    panel: &PanelSpec,
    frame: &PanelFrame,
) -> Result<PanelScene, RenderError> {
    let st = &panel.style;
    let table = &panel.table;
    let cats = table.category_labels();
    let shown = crate::spec::dates::IndexDates::of_panel(panel).labels(table);
    let mut formats: Vec<NumberFormat> = Vec::new();
    let mut values: Vec<Vec<Option<f64>>> = Vec::new();
    for name in &panel.series {
        let col = table.series(name).ok_or_else(|| {
            RenderError::Spec(format!("table {:?} has no series {name:?}", table.id))
        })?;
        formats.push(col.format.clone());
        values.push(
            col.cells
                .iter()
                .map(|c| c.as_f64().filter(|v| v.is_finite()))
                .collect(),
        );
    }
    let all: Vec<f64> = values.iter().flatten().flatten().copied().collect();
    if cats.is_empty() || all.is_empty() {
        return Err(RenderError::Spec(format!(
            "heatmap on {:?}: nothing to draw",
            table.id
        )));
    }
    let lo = all.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    // Nice ticks cover the values; the bar spans first to last tick, so its
    // printed ends are its range. Equal values get a range around them.
    // Drawn again on an earlier drawing's colour bar (a theme with another
    // tick count keeps the original's), else nice ticks of its own.
    let pinned = panel
        .pinned
        .as_ref()
        .map(|p| p.value.clone())
        .filter(|t| t.len() >= 2);
    let (ticks, decimals) = match &pinned {
        Some(t) => (t.iter().map(|(v, _)| *v).collect(), 0),
        None => nice_ticks(lo, hi, st.tick_count.clamp(4, 6)),
    };
    let (cmin, cmax) = match (ticks.first(), ticks.last()) {
        (Some(a), Some(b)) if b > a && a.is_finite() && b.is_finite() => (*a, *b),
        _ => (lo - 1.0, lo + 1.0),
    };
    let map = colormap::resolve(st.colormap, &st.theme);
    let t_of = |v: f64| (v - cmin) / (cmax - cmin);

    let series_on_rows = crate::spec::heatmap_series_on_rows(table);
    let ns = panel.series.len();
    let nc = cats.len();
    let (nrows, ncols) = if series_on_rows { (ns, nc) } else { (nc, ns) };
    // (series, category) of the cell at (row, column).
    let cell_at = |r: usize, c: usize| if series_on_rows { (r, c) } else { (c, r) };
    let row_names: Vec<String> = if series_on_rows {
        panel.series.clone()
    } else {
        shown.clone()
    };
    let col_names: Vec<String> = if series_on_rows {
        shown.clone()
    } else {
        panel.series.clone()
    };
    // A printed index label stands for the table's, where the two differ.
    let source = |printed: &str, i: usize, index_axis: bool| {
        (index_axis && printed != cats[i]).then(|| cats[i].clone())
    };

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
        y: inner.y + title_h,
        h: (inner.h - title_h).max(1.0),
        ..inner
    };

    let family = st.font_family.as_str();
    let ts = st.tick_size;
    let ls = st.label_size;
    let x_title = panel.x_label.as_deref().filter(|l| !l.trim().is_empty());
    let y_title = panel.y_label.as_deref().filter(|l| !l.trim().is_empty());

    // Right: the colour bar and its tick labels.
    let bar_labels: Vec<String> = match &pinned {
        Some(t) => t.iter().map(|(_, label)| label.clone()).collect(),
        None => ticks
            .iter()
            .map(|t| format_number(*t, st.number_style, decimals, &formats[0]))
            .collect(),
    };
    let bar_label_w = bar_labels
        .iter()
        .map(|l| text_width(l, family, ts, false))
        .fold(0.0f32, f32::max);
    let right_w = BAR_GAP + BAR_W + TICK_LEN + 4.0 + bar_label_w;

    // Left: the (rotated) y title and the row labels.
    let y_title_w = if y_title.is_some() { ls * 1.4 } else { 0.0 };
    let max_row_w = (area.w * 0.3).max(20.0);
    let row_texts: Vec<String> = row_names
        .iter()
        .map(|n| truncate(n, family, ts, false, max_row_w))
        .collect();
    let row_w = row_texts
        .iter()
        .map(|l| text_width(l, family, ts, false))
        .fold(0.0f32, f32::max);
    let left_w = y_title_w + row_w + TICK_LEN + 4.0;
    let avail_w = (area.w - left_w - right_w).max(20.0);
    let col_w_raw = (avail_w / ncols as f32).min(MAX_CELL_W);

    // Bottom: column labels flat when they fit their columns, else rotated.
    let col_full_w = col_names
        .iter()
        .map(|l| text_width(l, family, ts, false))
        .fold(0.0f32, f32::max);
    let x_title_h = if x_title.is_some() { ls * 1.5 } else { 0.0 };
    let (col_mode, col_texts, col_labels_h) = if col_full_w <= col_w_raw - 4.0 {
        (
            ColMode::Flat,
            col_names.clone(),
            TICK_LEN + 4.0 + text_h(ts),
        )
    } else {
        let max_w = (area.h * 0.3 / FRAC_1_SQRT_2).min(180.0);
        let texts: Vec<String> = col_names
            .iter()
            .map(|n| truncate(n, family, ts, false, max_w))
            .collect();
        let lw = texts
            .iter()
            .map(|l| text_width(l, family, ts, false))
            .fold(0.0f32, f32::max);
        (
            ColMode::Rotated,
            texts,
            TICK_LEN + 6.0 + (lw + ts) * FRAC_1_SQRT_2 + 4.0,
        )
    };
    let avail_h = (area.h - col_labels_h - x_title_h - 6.0).max(20.0);
    let row_h_raw = (avail_h / nrows as f32).min(MAX_CELL_H);
    let grid_w = col_w_raw * ncols as f32;
    let grid_h = row_h_raw * nrows as f32;
    // The block (labels, grid, bar) centred in what is left.
    let block_w = left_w + grid_w + right_w;
    let gx = (area.x + left_w + (area.w - block_w).max(0.0) / 2.0).round();
    let gy = (area.y + 6.0).round();
    let xs = edges(gx, grid_w, ncols);
    let ys = edges(gy, grid_h, nrows);
    let grid = BBox {
        x: gx,
        y: gy,
        w: xs[ncols] - gx,
        h: ys[nrows] - gy,
    };
    scene.plot_area = grid;

    // Cells, with a one-pixel gap of background between them.
    let mut cells: Vec<(usize, usize, f64, BBox, String)> = Vec::new();
    for r in 0..nrows {
        for c in 0..ncols {
            let (s, k) = cell_at(r, c);
            let Some(v) = values[s][k] else { continue };
            let b = BBox {
                x: xs[c],
                y: ys[r],
                w: (xs[c + 1] - xs[c] - 1.0).max(1.0),
                h: (ys[r + 1] - ys[r] - 1.0).max(1.0),
            };
            let fill = colormap::hex(colormap::rgb(map, t_of(v)));
            rect(canvas, b, &fill);
            cells.push((s, k, v, b, fill));
        }
    }

    // Values in the cells: one size for all, shrunk to fit the smallest room.
    let labels: Vec<String> = cells
        .iter()
        .map(|(s, _, v, _, _)| value_label(*v, st, &formats[*s]))
        .collect();
    let mut size = st.value_label_size;
    for ((_, _, _, b, _), text) in cells.iter().zip(&labels) {
        let w = text_width(text, family, st.value_label_size, false).max(1.0);
        size = size
            .min(st.value_label_size * (b.w - 6.0) / w)
            .min((b.h - 2.0) / (ASCENT + DESCENT));
    }
    let size = (size * 2.0).floor() / 2.0;
    let print_values = st.data_labels && size >= MIN_VALUE_SIZE;
    for ((s, k, v, b, fill), text) in cells.into_iter().zip(labels) {
        let label = print_values.then(|| {
            let (cx, cy) = b.center();
            let bbox = canvas.text(&TextSpec {
                text: &text,
                x: cx,
                y: cy - text_h(size) / 2.0,
                align: Align::Center,
                family,
                size,
                bold: false,
                color: cell_text(&fill),
            });
            TextBox { text, bbox }
        });
        let t = t_of(v);
        scene.marks.push(Mark {
            kind: MarkKind::Cell,
            series: panel.series[s].clone(),
            category: Some(cats[k].clone()),
            value: v,
            x_value: None,
            size_value: None,
            color: NamedColor {
                name: shade_name(map, t),
                hex: fill,
            },
            bbox: b,
            sweep_deg: None,
            label,
        });
    }
    // Series-major order, as other kinds record their marks.
    scene
        .marks
        .sort_by_key(|m| panel.series.iter().position(|s| *s == m.series));

    // Row labels at the left, bottom to top in the scene.
    let row_size = ts.min((row_h_raw / 1.15).max(6.0));
    for r in (0..nrows).rev() {
        let cy = (ys[r] + ys[r + 1] - 1.0) / 2.0;
        // Tick marks are a reading aid a style may take away, as on other axes.
        if st.tick_marks {
            canvas.line(&[(gx - TICK_LEN, cy), (gx, cy)], &st.axis_color, 1.0, None);
        }
        let bbox = canvas.text(&TextSpec {
            text: &row_texts[r],
            x: gx - TICK_LEN - 3.0,
            y: cy - text_h(row_size) / 2.0,
            align: Align::Right,
            family,
            size: row_size,
            bold: false,
            color: &st.text_color,
        });
        scene.y_ticks.push(Tick {
            label: row_texts[r].clone(),
            value: None,
            pos: cy,
            bbox,
            category: source(&row_names[r], r, !series_on_rows),
        });
    }
    // Column labels under the grid, left to right.
    let ty = grid.bottom() + TICK_LEN + 3.0;
    let mut labels_bottom = ty + text_h(ts);
    for c in 0..ncols {
        let cx = (xs[c] + xs[c + 1] - 1.0) / 2.0;
        if st.tick_marks {
            canvas.line(
                &[(cx, grid.bottom()), (cx, grid.bottom() + TICK_LEN)],
                &st.axis_color,
                1.0,
                None,
            );
        }
        let spec = TextSpec {
            text: &col_texts[c],
            x: cx,
            y: ty,
            align: Align::Center,
            family,
            size: ts,
            bold: false,
            color: &st.text_color,
        };
        let bbox = match col_mode {
            ColMode::Flat => canvas.text(&spec),
            ColMode::Rotated => canvas.rotated_text(
                &TextSpec {
                    x: cx + ts * 0.3,
                    y: ty + ts * 0.35,
                    align: Align::Right,
                    ..spec
                },
                -45.0,
            ),
        };
        labels_bottom = labels_bottom.max(bbox.bottom());
        scene.x_ticks.push(Tick {
            label: col_texts[c].clone(),
            value: None,
            pos: cx,
            bbox,
            category: source(&col_names[c], c, series_on_rows),
        });
    }

    // Axis titles.
    if let Some(xl) = x_title {
        let text = truncate(xl, family, ls, false, area.w);
        let bbox = canvas.text(&TextSpec {
            text: &text,
            x: grid.x + grid.w / 2.0,
            y: labels_bottom + 4.0,
            align: Align::Center,
            family,
            size: ls,
            bold: false,
            color: &st.text_color,
        });
        scene.x_label = Some(TextBox { text, bbox });
    }
    if let Some(yl) = y_title {
        let text = truncate(yl, family, ls, false, grid.h.max(area.h * 0.8));
        let row_left = scene.y_ticks.iter().map(|t| t.bbox.x).fold(gx, f32::min);
        let bbox = canvas.rotated_text(
            &TextSpec {
                text: &text,
                x: row_left - ls * 0.8,
                y: grid.y + grid.h / 2.0,
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

    scene.heatmap = Some(HeatmapScene {
        series_on_rows,
        colorbar: draw_bar(canvas, st, map, grid, (cmin, cmax), &ticks, &bar_labels),
    });
    Ok(scene)
}

/// Black or white, whichever stands further from the cell's lightness: a
/// value stays legible on every shade of the map.
fn cell_text(fill: &str) -> &'static str {
    if luminance(fill) > 0.5 {
        "#000000"
    } else {
        "#ffffff"
    }
}

/// A rough name for a cell's shade ("light", "mid", "dark" on its map), for
/// visual references; cells of one series share no colour.
fn shade_name(map: Colormap, t: f64) -> String {
    let lum =
        |c: [u8; 3]| 0.2126 * f64::from(c[0]) + 0.7152 * f64::from(c[1]) + 0.0722 * f64::from(c[2]);
    let l = lum(colormap::rgb(map, t)) / 255.0;
    let shade = if l > 0.66 {
        "light"
    } else if l > 0.33 {
        "medium"
    } else {
        "dark"
    };
    format!("{shade} {}", map.name())
}

/// The colour bar right of the grid: one whole-pixel row per colour, a
/// frame, tick marks and printed ticks.
fn draw_bar(
    canvas: &mut Canvas,
    st: &Style,
    map: Colormap,
    grid: BBox,
    (cmin, cmax): (f64, f64),
    ticks: &[f64],
    labels: &[String],
) -> ColorBar {
    let bar = BBox {
        x: (grid.right() + BAR_GAP).round(),
        y: grid.y,
        w: BAR_W,
        h: grid.h.max(1.0),
    };
    let rows = bar.h.max(1.0) as u32;
    let mut y = 0u32;
    while y < rows {
        // Rows of one colour share a rect.
        let t = |row: u32| (f64::from(rows) - f64::from(row) - 0.5) / f64::from(rows);
        let fill = colormap::hex(colormap::rgb(map, t(y)));
        let mut end = y + 1;
        while end < rows && colormap::hex(colormap::rgb(map, t(end))) == fill {
            end += 1;
        }
        rect(
            canvas,
            BBox {
                x: bar.x,
                y: bar.y + y as f32,
                w: bar.w,
                h: (end - y) as f32,
            },
            &fill,
        );
        y = end;
    }
    canvas.raw(&format!(
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="1"/>"#,
        bar.x - 0.5,
        bar.y - 0.5,
        bar.w + 1.0,
        bar.h + 1.0,
        st.axis_color
    ));
    let ts = st.tick_size;
    // A short bar prints only its ends.
    let crowded = bar.h < ticks.len() as f32 * text_h(ts) * 1.2;
    let mut out = Vec::new();
    for (i, (t, label)) in ticks.iter().zip(labels).enumerate() {
        if crowded && i != 0 && i + 1 != ticks.len() {
            continue;
        }
        let pos = bar.bottom() - ((t - cmin) / (cmax - cmin)) as f32 * bar.h;
        if st.tick_marks {
            canvas.line(
                &[(bar.right(), pos), (bar.right() + TICK_LEN, pos)],
                &st.axis_color,
                1.0,
                None,
            );
        }
        let bbox = canvas.text(&TextSpec {
            text: label,
            x: bar.right() + TICK_LEN + 3.0,
            y: pos - text_h(ts) / 2.0,
            align: Align::Left,
            family: &st.font_family,
            size: ts,
            bold: false,
            color: &st.text_color,
        });
        out.push(Tick {
            label: label.clone(),
            value: Some(*t),
            pos,
            bbox,
            category: None,
        });
    }
    ColorBar {
        bbox: bar,
        colormap: map.name().to_string(),
        min: cmin,
        max: cmax,
        ticks: out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_are_whole_pixels_covering_the_length() {
        let e = edges(10.0, 100.0, 3);
        assert_eq!(e, vec![10.0, 43.0, 77.0, 110.0]);
    }
}
