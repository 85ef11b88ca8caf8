//! Figure layouts: single chart, n×m grid with suptitle, dashboard with a
//! banner, KPI tiles, charts on an uneven grid and a paragraph box.

use super::canvas::{Canvas, TextSpec};
use super::common::{contrast_text, draw_heading, draw_title, inset, union};
use super::fonts::text_width;
use super::text::{truncate, wrap};
use super::{PanelFrame, RenderError, draw_panel, has_value_axis};
use crate::ir::scene::KpiScene;
use crate::ir::{
    Align, BBox, ChartKind, ChartSpec, FigureScene, KpiTile, Layout, PanelSpec, Scene, Style,
    TextBox,
};

/// "Source: …" at the figure's bottom left in the tick font (at its top
/// right when the style puts notes on top); returns the area left and the
/// drawn text.
fn draw_source_line(canvas: &mut Canvas, source: &str, st: &Style, full: BBox) -> (BBox, TextBox) {
    let top = st.furniture.notes_on_top;
    let size = st.tick_size.max(9.0) * 0.95;
    let strip = (size * 1.8).ceil();
    let m = st.margin as f32;
    let text = truncate(
        &format!("Source: {source}"),
        &st.font_family,
        size,
        false,
        (full.w - 2.0 * m).max(size),
    );
    let (x, y, align) = if top {
        (
            full.right() - m,
            full.y + (strip - size * 1.2) / 2.0,
            Align::Right,
        )
    } else {
        let y = full.y + full.h - strip + (strip - size * 1.2) / 2.0;
        (full.x + m, y, Align::Left)
    };
    let bbox = canvas.text(&TextSpec {
        text: &text,
        x,
        y,
        align,
        family: &st.font_family,
        size,
        bold: false,
        color: &st.text_color,
    });
    (rest_of(full, strip, top), TextBox { text, bbox })
}

/// `full` without a strip of height `strip` at its top or bottom.
fn rest_of(full: BBox, strip: f32, top: bool) -> BBox {
    BBox {
        y: if top { full.y + strip } else { full.y },
        h: full.h - strip,
        ..full
    }
}

/// "Note: …" at the bottom of `full` (above a source line), in the tick
/// font, wrapped to at most two lines (at the top, right-aligned, when the
/// style puts notes on top); returns the area left and the drawn text.
fn draw_footnote(canvas: &mut Canvas, note: &str, st: &Style, full: BBox) -> (BBox, TextBox) {
    let on_top = st.furniture.notes_on_top;
    let size = st.tick_size.max(9.0) * 0.95;
    let m = st.margin as f32;
    let (lines, _) = wrap(
        &format!("Note: {note}"),
        &st.font_family,
        size,
        false,
        (full.w - 2.0 * m).max(size),
        2,
    );
    let line_h = size * 1.25;
    let strip = (lines.len() as f32 * line_h + size * 0.6).ceil();
    let top = if on_top {
        full.y
    } else {
        full.y + full.h - strip
    };
    let (x, align) = if on_top {
        (full.right() - m, Align::Right)
    } else {
        (full.x + m, Align::Left)
    };
    let mut bbox: Option<BBox> = None;
    for (i, line) in lines.iter().enumerate() {
        let b = canvas.text(&TextSpec {
            text: line,
            x,
            y: top + size * 0.3 + i as f32 * line_h,
            align,
            family: &st.font_family,
            size,
            bold: false,
            color: &st.text_color,
        });
        bbox = Some(bbox.map_or(b, |a| union(a, b)));
    }
    let rest = rest_of(full, strip, on_top);
    let bbox = bbox.unwrap_or(BBox {
        x: full.x + m,
        y: top,
        w: 0.0,
        h: 0.0,
    });
    (
        rest,
        TextBox {
            text: lines.join(" "),
            bbox,
        },
    )
}

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
        figure: None,
    };
    // A source line under the figure, as news and report charts print it
    // (a dashboard built around a chart keeps that chart's).
    let full = match spec.source_line.as_deref().map(str::trim) {
        Some(source) if !source.is_empty() => {
            let (rest, line) = draw_source_line(canvas, source, st, full);
            scene.extra_text.push(line);
            rest
        }
        _ => full,
    };
    // A single chart's or a figure's note (the table's `footnote`) above
    // the source line.
    let note = match &spec.layout {
        Layout::Single { panel } => panel.table.meta.footnote.as_deref(),
        Layout::Figure { note, .. } => note.as_deref(),
        _ => None,
    };
    let full = match note.map(str::trim) {
        Some(note) if !note.is_empty() && !st.furniture.hide_note => {
            let (rest, line) = draw_footnote(canvas, note, st, full);
            scene.extra_text.push(line);
            rest
        }
        _ => full,
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
                plot_area: None,
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
            let shared = if *shared_y {
                shared_range(panels)
            } else {
                None
            };
            let cells = Cells {
                rows: *rows,
                cols: *cols,
                shared,
                hide_inner_x: *shared_x,
                hide_inner_y: *shared_y,
                subtitle: None,
            };
            let (letters, _) = draw_cells(canvas, spec, panels, &cells, full, &mut scene)?;
            scene.extra_text.extend(letters);
        }
        Layout::Figure {
            rows,
            cols,
            panels,
            subtitle,
            shared_values,
            ..
        } => {
            // Every panel prints its own ticks, on one shared range: a
            // panel read alone reads right, and panels compare by eye.
            // Panels in different units keep their own ranges.
            let shared = if *shared_values {
                shared_range(panels)
            } else {
                None
            };
            let cells = Cells {
                rows: *rows,
                cols: *cols,
                shared,
                hide_inner_x: false,
                hide_inner_y: false,
                subtitle: subtitle.as_deref().filter(|_| !st.furniture.hide_subtitle),
            };
            let (letters, subtitle) = draw_cells(canvas, spec, panels, &cells, full, &mut scene)?;
            let mut figure = if *shared_values {
                figure_scene(letters, &scene.panels)
            } else {
                FigureScene {
                    letters,
                    value_range: (0.0, 0.0),
                    value_ticks: Vec::new(),
                    subtitle: None,
                    shared_values: false,
                }
            };
            figure.subtitle = subtitle;
            scene.figure = Some(figure);
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
            // Inside what the source line left (below it when notes go on top).
            let mut y = full.y;
            if let Some(b) = banner.as_deref().filter(|b| !b.trim().is_empty()) {
                let band_h = st.title_size * 2.6;
                let fill = st
                    .palette
                    .first()
                    .map(|c| c.hex.clone())
                    .unwrap_or_else(|| st.text_color.clone());
                canvas.fill_rect(0.0, y, w, band_h, &fill, 1.0);
                let size = st.title_size * 1.25;
                let text = truncate(b, &st.title_font_family, size, true, w - 2.0 * gap - 20.0);
                let bbox = canvas.text(&TextSpec {
                    text: &text,
                    x: gap + 10.0,
                    y: y + (band_h - size) / 2.0,
                    align: Align::Left,
                    family: &st.title_font_family,
                    size,
                    bold: true,
                    color: contrast_text(&fill),
                });
                scene.title = Some(TextBox { text, bbox });
                y += band_h;
            }
            y += gap;
            if !kpis.is_empty() {
                let n = kpis.len() as f32;
                let tw = (w - gap * (n + 1.0)) / n;
                let fit = fit_kpis(kpis, tw, st);
                for (i, (k, f)) in kpis.iter().zip(&fit.tiles).enumerate() {
                    let rect = BBox {
                        x: gap + i as f32 * (tw + gap),
                        y,
                        w: tw,
                        h: fit.height,
                    };
                    scene.kpis.push(draw_kpi(canvas, k, f, &fit, rect, st));
                }
                y += fit.height + gap;
            }
            let mut bottom = full.bottom() - gap;
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
                    plot_area: None,
                };
                scene.panels.push(draw_panel(canvas, &dp.panel, &frame)?);
            }
        }
    }
    Ok(scene)
}

/// How a grid or figure lays out its cells.
struct Cells<'a> {
    rows: u32,
    cols: u32,
    /// The value range every cartesian panel's axis covers.
    shared: Option<(f64, f64)>,
    /// Category labels only under the bottom row.
    hide_inner_x: bool,
    /// Value labels only on the left column.
    hide_inner_y: bool,
    /// A line under the figure title.
    subtitle: Option<&'a str>,
}

/// Draws a suptitle (and a subtitle under it) and the panels in a rows ×
/// cols grid, each under a strip holding its letter; returns the letters
/// drawn, in panel order, and the subtitle drawn.
fn draw_cells(
    canvas: &mut Canvas,
    spec: &ChartSpec,
    panels: &[PanelSpec],
    cells: &Cells,
    full: BBox,
    scene: &mut Scene,
) -> Result<(Vec<TextBox>, Option<TextBox>), RenderError> {
    let st = &spec.style;
    let (rows, cols) = (cells.rows.max(1), cells.cols.max(1));
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
    let sub_size = (st.title_size * 0.8).max(st.tick_size);
    let (subtitle, used) = draw_heading(canvas, cells.subtitle, st, area, sub_size, false);
    let area = BBox {
        y: area.y + used,
        h: area.h - used,
        ..area
    };
    // Each cell starts with a strip holding the panel letter, so the
    // letter never collides with a panel title, whatever its alignment.
    let letter_size = st.title_size;
    let strip = (letter_size * 1.25).ceil();
    let (cw, ch) = (area.w / cols as f32, area.h / rows as f32);
    let mut frames: Vec<PanelFrame> = (0..panels.len())
        .map(|i| {
            let (r, c) = (i as u32 / cols, i as u32 % cols);
            PanelFrame {
                rect: BBox {
                    x: area.x + c as f32 * cw,
                    y: area.y + r as f32 * ch + strip,
                    w: cw,
                    h: ch - strip,
                },
                index: i,
                row: r,
                col: c,
                shared_values: cells.shared,
                hide_x_labels: cells.hide_inner_x && (i + cols as usize) < panels.len(),
                hide_y_labels: cells.hide_inner_y && c > 0,
                plot_area: None,
            }
        })
        .collect();
    align_plot_areas(spec, panels, &mut frames)?;
    let mut letters = Vec::with_capacity(panels.len());
    for (panel, frame) in panels.iter().zip(&frames) {
        let bbox = canvas.text(&TextSpec {
            text: &panel_letter(frame.index),
            x: frame.rect.x + 4.0,
            y: frame.rect.y - strip + 2.0,
            align: Align::Left,
            family: &st.title_font_family,
            size: letter_size,
            bold: true,
            color: &st.text_color,
        });
        letters.push(TextBox {
            text: panel_letter(frame.index),
            bbox,
        });
        scene.panels.push(draw_panel(canvas, panel, frame)?);
    }
    Ok((letters, subtitle))
}

/// A figure's record: its letters, and the value axis its panels share,
/// read back from the first cartesian panel's printed ticks (the axis ends
/// are where its plot box ends, mapped through two ticks).
fn figure_scene(letters: Vec<TextBox>, panels: &[crate::ir::PanelScene]) -> FigureScene {
    let axis = panels.iter().find(|p| has_value_axis(p.kind)).map(|p| {
        let horizontal = p.kind == ChartKind::HorizontalBar;
        let ticks: Vec<&crate::ir::Tick> = if horizontal { &p.x_ticks } else { &p.y_ticks }
            .iter()
            .filter(|t| t.value.is_some())
            .collect();
        let labels: Vec<String> = ticks.iter().map(|t| t.label.clone()).collect();
        let range = match (ticks.first(), ticks.last()) {
            (Some(a), Some(b)) if (b.pos - a.pos).abs() > 0.5 && !p.log_y => {
                let (va, vb) = (a.value.unwrap_or(0.0), b.value.unwrap_or(0.0));
                let at =
                    |pos: f32| va + f64::from(pos - a.pos) * (vb - va) / f64::from(b.pos - a.pos);
                let (lo, hi) = if horizontal {
                    (at(p.plot_area.x), at(p.plot_area.right()))
                } else {
                    (at(p.plot_area.bottom()), at(p.plot_area.y))
                };
                (round_to_pixel(lo.min(hi)), round_to_pixel(lo.max(hi)))
            }
            (Some(a), Some(b)) => (a.value.unwrap_or(0.0), b.value.unwrap_or(0.0)),
            _ => (0.0, 0.0),
        };
        (range, labels)
    });
    let (value_range, value_ticks) = axis.unwrap_or(((0.0, 0.0), Vec::new()));
    FigureScene {
        letters,
        value_range,
        value_ticks,
        subtitle: None,
        shared_values: true,
    }
}

/// Six significant digits: the axis ends come from pixel arithmetic and
/// should not print float noise in the scene.
fn round_to_pixel(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return 0.0;
    }
    let scale = 10f64.powi(5 - v.abs().log10().floor() as i32);
    (v * scale).round() / scale
}

/// "(a)", "(b)", … "(z)", then "(aa)", "(ab)", …: the letter printed on a
/// grid panel and used to name it in questions.
pub fn panel_letter(index: usize) -> String {
    let letter = |i: usize| char::from(b'a' + (i % 26) as u8);
    if index < 26 {
        format!("({})", letter(index))
    } else {
        format!("({}{})", letter(index / 26 - 1), letter(index))
    }
}

/// Fixes the plot boxes of a grid's cartesian panels so that the panels of
/// one row share their plot top and bottom, and those of one column their
/// left and right: each panel is laid out on its own first (on a scratch
/// canvas), then every row and column takes the tightest edges, which leave
/// room for every panel's titles, legends and tick labels. A second round
/// settles the rare panel whose labels refit to the narrower plot. Pies have
/// no plot box to align and are left alone.
fn align_plot_areas(
    spec: &ChartSpec,
    panels: &[PanelSpec],
    frames: &mut [PanelFrame],
) -> Result<(), RenderError> {
    for _ in 0..4 {
        let mut plots: Vec<Option<BBox>> = Vec::with_capacity(panels.len());
        for (panel, frame) in panels.iter().zip(frames.iter()) {
            plots.push(
                if panel.kind.is_circular() || panel.kind == ChartKind::Heatmap {
                    None
                } else {
                    let mut scratch = Canvas::new(spec.width, spec.height);
                    Some(draw_panel(&mut scratch, panel, frame)?.plot_area)
                },
            );
        }
        let mut rows: std::collections::BTreeMap<u32, (f32, f32)> = Default::default();
        let mut cols: std::collections::BTreeMap<u32, (f32, f32)> = Default::default();
        for (f, p) in frames.iter().zip(&plots) {
            if let Some(p) = p {
                let r = rows.entry(f.row).or_insert((f32::MIN, f32::MAX));
                *r = (r.0.max(p.y), r.1.min(p.bottom()));
                let c = cols.entry(f.col).or_insert((f32::MIN, f32::MAX));
                *c = (c.0.max(p.x), c.1.min(p.right()));
            }
        }
        let mut settled = true;
        for (f, p) in frames.iter_mut().zip(&plots) {
            let Some(p) = p else { continue };
            let (top, bottom) = rows[&f.row];
            let (left, right) = cols[&f.col];
            let target = BBox {
                x: left,
                y: top,
                w: (right - left).max(20.0),
                h: (bottom - top).max(20.0),
            };
            let off = (p.x - target.x).abs()
                + (p.y - target.y).abs()
                + (p.right() - target.right()).abs()
                + (p.bottom() - target.bottom()).abs();
            if off > 0.01 {
                settled = false;
            }
            f.plot_area = Some(target);
        }
        if settled {
            break;
        }
    }
    Ok(())
}

const KPI_PAD: f32 = 12.0;
/// Space between a tile's label and its value.
const KPI_GAP: f32 = 4.0;
/// Width of the accent bar on a tile's left edge.
const KPI_ACCENT: f32 = 5.0;
/// Smallest font a tile shrinks to; still well above what a reader can read.
const KPI_MIN_SIZE: f32 = 9.0;

/// How one tile's texts fit its width.
struct KpiTileFit {
    lines: Vec<String>,
    value_size: f32,
    delta_size: f32,
}

/// The fitted tiles of a dashboard: one label size and one height for the row.
struct KpiFit {
    label_size: f32,
    /// Most label lines of any tile: values of the row start below them.
    label_lines: usize,
    height: f32,
    tiles: Vec<KpiTileFit>,
}

/// The largest size from `start` down to `min` (in half points) at which
/// `fits` holds; `min` when none does.
fn shrink_to_fit(start: f32, min: f32, fits: impl Fn(f32) -> bool) -> f32 {
    let mut size = start;
    while size > min && !fits(size) {
        size = (size - 0.5).max(min);
    }
    size
}

/// Labels wrap onto up to two lines, then three, shrinking the font of the
/// whole row before anything would be cut; values and deltas shrink to one
/// line. Nothing is truncated: a tile grows to hold its lines.
fn fit_kpis(kpis: &[KpiTile], tile_w: f32, st: &Style) -> KpiFit {
    let avail = tile_w - 2.0 * KPI_PAD - KPI_ACCENT;
    let family = &st.font_family;
    let wrapped = |size: f32, max_lines: usize| -> Option<Vec<Vec<String>>> {
        kpis.iter()
            .map(|k| {
                let (lines, ok) = wrap(&k.label, family, size, false, avail, max_lines);
                ok.then_some(lines)
            })
            .collect()
    };
    let min = KPI_MIN_SIZE.min(st.label_size);
    let mut label_size = min;
    let mut label_lines = None;
    'fit: for max_lines in [2, 3, 4] {
        let mut size = st.label_size;
        loop {
            if let Some(lines) = wrapped(size, max_lines) {
                label_size = size;
                label_lines = Some(lines);
                break 'fit;
            }
            if size <= min {
                break;
            }
            size = (size - 0.5).max(min);
        }
    }
    // A single word wider than the tile: the font shrinks until it fits.
    let label_lines = label_lines.unwrap_or_else(|| {
        label_size = shrink_to_fit(min, 4.0, |s| wrapped(s, 6).is_some());
        wrapped(label_size, 6)
            .unwrap_or_else(|| kpis.iter().map(|k| vec![k.label.clone()]).collect())
    });
    let value_start = st.title_size * 1.8;
    let tiles: Vec<KpiTileFit> = kpis
        .iter()
        .zip(label_lines)
        .map(|(k, lines)| KpiTileFit {
            lines,
            value_size: shrink_to_fit(value_start, 4.0, |s| {
                text_width(&k.value, &st.title_font_family, s, true) <= avail
            }),
            delta_size: k.delta.as_deref().map_or(st.tick_size, |d| {
                shrink_to_fit(st.tick_size, 4.0, |s| {
                    text_width(d, family, s, false) <= avail
                })
            }),
        })
        .collect();
    let label_lines = tiles.iter().map(|t| t.lines.len()).max().unwrap_or(1);
    let delta = kpis
        .iter()
        .zip(&tiles)
        .filter(|(k, _)| k.delta.is_some())
        .map(|(_, t)| t.delta_size * 1.3)
        .fold(0.0f32, f32::max);
    let height = (KPI_PAD * 1.6
        + label_lines as f32 * label_size * 1.25
        + KPI_GAP
        + value_start * 1.2
        + delta)
        .ceil();
    KpiFit {
        label_size,
        label_lines,
        height,
        tiles,
    }
}

fn draw_kpi(
    canvas: &mut Canvas,
    k: &KpiTile,
    fit: &KpiTileFit,
    row: &KpiFit,
    rect: BBox,
    st: &Style,
) -> KpiScene {
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
    canvas.fill_rect(
        rect.x,
        rect.y,
        rect.x + KPI_ACCENT,
        rect.bottom(),
        accent,
        1.0,
    );
    let x = rect.x + KPI_ACCENT + KPI_PAD;
    let ls = row.label_size;
    let mut y = rect.y + KPI_PAD * 0.8;
    let mut lines = Vec::new();
    for line in &fit.lines {
        let bbox = canvas.text(&TextSpec {
            text: line,
            x,
            y,
            align: Align::Left,
            family: &st.font_family,
            size: ls,
            bold: false,
            color: &st.text_color,
        });
        lines.push(TextBox {
            text: line.clone(),
            bbox,
        });
        y += ls * 1.25;
    }
    y = rect.y + KPI_PAD * 0.8 + row.label_lines as f32 * ls * 1.25 + KPI_GAP;
    // Values of one row share a baseline band even when one had to shrink.
    let band = st.title_size * 1.8;
    let vs = fit.value_size;
    let bbox = canvas.text(&TextSpec {
        text: &k.value,
        x,
        y: y + (band - vs) * 0.8,
        align: Align::Left,
        family: &st.title_font_family,
        size: vs,
        bold: true,
        color: &st.text_color,
    });
    lines.push(TextBox {
        text: k.value.clone(),
        bbox,
    });
    y += band * 1.2;
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
            let bbox = canvas.text(&TextSpec {
                text: d,
                x,
                y,
                align: Align::Left,
                family: &st.font_family,
                size: fit.delta_size,
                bold: false,
                color,
            });
            lines.push(TextBox {
                text: d.to_string(),
                bbox,
            });
            d.to_string()
        });
    KpiScene {
        label: k.label.split_whitespace().collect::<Vec<_>>().join(" "),
        value: k.value.clone(),
        delta,
        bbox: rect,
        lines,
    }
}

/// The union of value extents of all cartesian panels (for shared y axes).
fn shared_range(panels: &[PanelSpec]) -> Option<(f64, f64)> {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for p in panels.iter().filter(|p| {
        has_value_axis(p.kind) && !matches!(p.kind, ChartKind::Scatter | ChartKind::Bubble)
    }) {
        let stacked = p.kind.is_stacked();
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
