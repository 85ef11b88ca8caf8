//! Radar charts: one spoke per category (clockwise from straight up), rings
//! at round values from zero at the centre with their values printed along
//! the upward spoke, one translucent polygon per series with a dot at each
//! vertex, and the category's name beyond the end of its spoke. A value is
//! read as its vertex's distance from the centre against the rings.

use super::canvas::{Canvas, TextSpec, text_bbox};
use super::common::{
    LegendItem, Placed, Swatch, color_of, draw_horizontal_legend, draw_titles,
    horizontal_legend_height, inset, order_items, place_label,
};
use super::fonts::{ASCENT, DESCENT, text_width};
use super::slope::value_label;
use super::text::truncate;
use super::{PanelFrame, RenderError};
use crate::ir::{
    Align, BBox, CategoryLabel, Mark, MarkKind, PanelScene, PanelSpec, RadarScene, Spoke, TextBox,
    Tick,
};
use crate::spec::format::{format_number, nice_ticks};

const DOT_R: f32 = 3.5;
/// Space between a spoke's end and its category name.
const NAME_GAP: f32 = 8.0;

/// Pixel position `r` pixels from `c` in direction `deg` (clockwise from up).
fn at(c: (f32, f32), r: f32, deg: f32) -> (f32, f32) {
    let t = deg.to_radians();
    (c.0 + r * t.sin(), c.1 - r * t.cos())
}

pub fn draw(
    canvas: &mut Canvas,
    panel: &PanelSpec,
    frame: &PanelFrame,
) -> Result<PanelScene, RenderError> {
    let st = &panel.style;
    let table = &panel.table;
    let cats = table.category_labels();
    let n = cats.len();
    if !(3..=24).contains(&n) {
        return Err(RenderError::Spec(format!(
            "radar of {:?}: needs 3 to 24 categories, has {n}",
            table.id
        )));
    }
    let mut cols = Vec::new();
    for name in &panel.series {
        let col = table.series(name).ok_or_else(|| {
            RenderError::Spec(format!("table {:?} has no series {name:?}", table.id))
        })?;
        cols.push(col);
    }
    let value = |c: &crate::ir::Column, r: usize| {
        c.cells
            .get(r)
            .and_then(|x| x.as_f64())
            .filter(|v| v.is_finite() && *v >= 0.0)
    };
    let hi = cols
        .iter()
        .flat_map(|c| (0..n).filter_map(|r| value(c, r)))
        .fold(0.0f64, f64::max);
    if cols.is_empty() || hi <= 0.0 {
        return Err(RenderError::Spec(format!(
            "radar of {:?}: no positive value to draw",
            table.id
        )));
    }
    let (ticks, decimals) = panel
        .pinned
        .as_ref()
        .and_then(|p| p.spans.as_ref()?.value)
        .and_then(|(lo, top)| crate::spec::format::span_ticks(lo, top, st.tick_count.clamp(3, 6)))
        .unwrap_or_else(|| nice_ticks(0.0, hi, st.tick_count.clamp(3, 6)));
    let max = ticks.last().copied().filter(|m| *m > 0.0).unwrap_or(hi);
    let format = &cols[0].format;

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
    let mut top = inner.y + title_h;
    // Several series are told apart by a legend above the chart; one is
    // named there too unless the title names it (a radar has no value-axis
    // title to carry the name).
    let titled = |name: &str| {
        [panel.title.as_deref(), panel.subtitle_text()]
            .into_iter()
            .flatten()
            .any(|t| t.to_lowercase().contains(&name.trim().to_lowercase()))
    };
    let items: Vec<LegendItem> =
        if cols.len() >= 2 || cols.first().is_some_and(|c| !titled(&c.name)) {
            order_items(
                cols.iter()
                    .enumerate()
                    .map(|(i, c)| LegendItem {
                        label: c.name.clone(),
                        color: color_of(st, i),
                        swatch: Swatch::Box,
                        category: None,
                    })
                    .collect(),
                st.legend_order,
            )
        } else {
            Vec::new()
        };
    use crate::ir::LegendPlacement;
    let legend_h = if items.is_empty() || st.legend == LegendPlacement::None {
        0.0
    } else {
        horizontal_legend_height(&items, st, inner.w) + 6.0
    };
    // Below the chart when asked for there, else above it.
    let below = st.legend == LegendPlacement::Bottom;
    let mut bottom = inner.bottom();
    let legend_y = if below {
        bottom -= legend_h;
        bottom + 6.0
    } else {
        top += legend_h;
        top - legend_h
    };

    // The circle takes what the spoke names leave.
    let ts = st.tick_size;
    let name_h = ts * (ASCENT + DESCENT);
    let names: Vec<String> = cats
        .iter()
        .map(|c| truncate(c, &st.font_family, ts, false, inner.w * 0.22))
        .collect();
    let name_w = names
        .iter()
        .map(|l| text_width(l, &st.font_family, ts, false))
        .fold(0.0f32, f32::max);
    let avail_w = inner.w - 2.0 * (name_w + NAME_GAP + 4.0);
    let avail_h = bottom - top - 2.0 * (name_h + NAME_GAP + 2.0);
    let radius = (avail_w.min(avail_h) / 2.0).floor();
    if radius < 40.0 {
        return Err(RenderError::Spec(format!(
            "radar of {:?}: {}x{} leaves no room for the circle",
            table.id, frame.rect.w, frame.rect.h
        )));
    }
    let center = (
        (inner.x + inner.w / 2.0).round(),
        (top + (bottom - top) / 2.0).round(),
    );
    scene.plot_area = BBox {
        x: center.0 - radius,
        y: center.1 - radius,
        w: radius * 2.0,
        h: radius * 2.0,
    };
    let rpix = |v: f64| (v / max) as f32 * radius;
    let angle = |i: usize| 360.0 * i as f32 / n as f32;

    // Rings (polygons through the spokes, as the data polygons are) and spokes.
    let dash = st.grid_dashed.then_some("4 3");
    let ring = |r: f32| -> Vec<(f32, f32)> {
        let mut pts: Vec<(f32, f32)> = (0..n).map(|i| at(center, r, angle(i))).collect();
        pts.push(pts[0]);
        pts
    };
    canvas.polygon(&ring(radius)[..n], &st.plot_background, 1.0);
    for t in ticks.iter().filter(|t| **t > 0.0) {
        canvas.line(&ring(rpix(*t)), &st.grid_color, 1.0, dash);
    }
    for i in 0..n {
        canvas.line(
            &[center, at(center, radius, angle(i))],
            &st.grid_color,
            1.0,
            None,
        );
    }
    // Polygons, then their vertices on top.
    let mut placed = Placed::default();
    for (j, c) in cols.iter().enumerate() {
        let color = color_of(st, j);
        let pts: Vec<(usize, (f32, f32))> = (0..n)
            .filter_map(|r| value(c, r).map(|v| (r, at(center, rpix(v), angle(r)))))
            .collect();
        let outline: Vec<(f32, f32)> = pts.iter().map(|p| p.1).collect();
        canvas.polygon(&outline, &color.hex, 0.18);
        let mut closed = outline.clone();
        if let Some(f) = outline.first() {
            closed.push(*f);
        }
        canvas.line(&closed, &color.hex, st.line_width.max(1.5), None);
        for (r, (x, y)) in pts {
            canvas.circle(x, y, DOT_R, &color.hex, 1.0, None);
            let bbox = BBox {
                x: x - DOT_R,
                y: y - DOT_R,
                w: DOT_R * 2.0,
                h: DOT_R * 2.0,
            };
            placed.add(bbox);
            scene.marks.push(Mark {
                kind: MarkKind::LinePoint,
                series: c.name.clone(),
                category: Some(cats[r].clone()),
                value: value(c, r).unwrap_or(0.0),
                x_value: None,
                size_value: None,
                color: color.clone(),
                bbox,
                sweep_deg: None,
                label: None,
            });
        }
    }
    // Ring values along the upward spoke, on a background patch so the
    // polygons under them do not hide them.
    for t in &ticks {
        let label = format_number(*t, st.number_style, decimals, format);
        let y = center.1 - rpix(*t);
        let spec = TextSpec {
            text: &label,
            x: center.0 + DOT_R + 3.0,
            // Just inside its ring: clear of the top spoke's name.
            y: y + 1.0,
            align: Align::Left,
            family: &st.font_family,
            size: ts,
            bold: false,
            color: &st.text_color,
        };
        let b = text_bbox(&spec);
        canvas.fill_rect(
            b.x - 1.0,
            b.y,
            b.right() + 1.0,
            b.bottom(),
            &st.background,
            0.8,
        );
        let bbox = canvas.text(&spec);
        placed.add(bbox);
        scene.y_ticks.push(Tick {
            label,
            value: Some(*t),
            pos: y,
            bbox,
            category: None,
        });
    }
    // Spoke names beyond the outer ring, anchored away from the centre.
    let mut spokes = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let deg = angle(i);
        let (x, y) = at(center, radius + NAME_GAP, deg);
        let s = deg.to_radians().sin();
        let cth = deg.to_radians().cos();
        let align = if s > 0.2 {
            Align::Left
        } else if s < -0.2 {
            Align::Right
        } else {
            Align::Center
        };
        // Above the top, below the bottom, centred beside on the sides.
        let ty = if cth > 0.2 {
            y - name_h
        } else if cth < -0.2 {
            y
        } else {
            y - name_h / 2.0
        };
        let bbox = canvas.text(&TextSpec {
            text: name,
            x,
            y: ty,
            align,
            family: &st.font_family,
            size: ts,
            bold: false,
            color: &st.text_color,
        });
        placed.add(bbox);
        scene.category_labels.push(CategoryLabel {
            category: cats[i].clone(),
            text: TextBox {
                text: name.clone(),
                bbox,
            },
        });
        spokes.push(Spoke {
            category: cats[i].clone(),
            angle_deg: deg,
        });
    }
    scene.radar = Some(RadarScene {
        center,
        radius,
        max,
        spokes,
    });
    // Values beside their vertices, outward along the spoke, where they fit.
    if st.data_labels {
        let vls = st.value_label_size;
        let area = inner;
        for k in 0..scene.marks.len() {
            let m = &scene.marks[k];
            let Some(r) = m
                .category
                .as_ref()
                .and_then(|c| cats.iter().position(|x| x == c))
            else {
                continue;
            };
            let Some(col) = cols.iter().find(|c| c.name == m.series) else {
                continue;
            };
            let text = value_label(m.value, st, &col.format);
            let (cx, cy) = m.bbox.center();
            let deg = angle(r);
            let h = vls * (ASCENT + DESCENT);
            let (ox, oy) = at((cx, cy), DOT_R + 3.0, deg);
            let cands: Vec<(f32, f32, Align)> = vec![
                (ox + 2.0, oy - h, Align::Left),
                (ox - 2.0, oy - h, Align::Right),
                (ox + 2.0, oy, Align::Left),
                (ox - 2.0, oy, Align::Right),
            ];
            scene.marks[k].label = place_label(
                canvas,
                &mut placed,
                &area,
                &text,
                &cands,
                st,
                &st.text_color,
            );
        }
    }
    if legend_h > 0.0 {
        let align = if st.title_align == Align::Left {
            Align::Left
        } else {
            Align::Center
        };
        scene.legend = draw_horizontal_legend(canvas, &items, st, inner, legend_y, align);
    }
    Ok(scene)
}
