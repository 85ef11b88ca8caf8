//! Pie and donut panels, drawn as SVG arc paths (plotters' Pie ignores the
//! drawing area's offset and has no leader lines), with outside labels and
//! leader lines for small slices.

use std::f32::consts::{FRAC_PI_2, PI, TAU};

use super::canvas::{Canvas, TextSpec, text_bbox};
use super::common::*;
use super::fonts::text_width;
use super::text::truncate;
use super::{PanelFrame, RenderError};
use crate::ir::{
    Align, BBox, ChartKind, LegendPlacement, Mark, MarkKind, PanelScene, PanelSpec, TextBox,
};

fn pt(cx: f32, cy: f32, r: f32, a: f32) -> (f32, f32) {
    (cx + r * a.cos(), cy + r * a.sin())
}

/// A slice's share in percent with one decimal, computed in decimal as the
/// share questions compute it, so the label and the gold agree.
fn share_percent(value: f64, values: &[Option<f64>]) -> String {
    use crate::ir::decimal::Decimal;
    let total = values
        .iter()
        .flatten()
        .fold(Decimal::ZERO, |t, v| t.plus(Decimal::from_f64(*v)));
    Decimal::from_f64(value)
        .times(Decimal::from_int(100))
        .over(total)
        .map_or_else(|| "0.0".into(), |p| p.format(1))
}

fn f(v: f32) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

struct Slice {
    row: usize,
    value: f64,
    a0: f32,
    a1: f32,
}

pub fn draw(
    canvas: &mut Canvas,
    panel: &PanelSpec,
    frame: &PanelFrame,
) -> Result<PanelScene, RenderError> {
    let st = &panel.style;
    let table = &panel.table;
    let name = panel
        .series
        .first()
        .ok_or_else(|| RenderError::Spec(format!("pie on {:?} has no series", table.id)))?;
    let col = table
        .series(name)
        .ok_or_else(|| RenderError::Spec(format!("table {:?} has no series {name:?}", table.id)))?;
    let cats = table.category_labels();
    // Slice names as printed (`Jan 2023` for `2023-01`); marks keep `cats`.
    let shown = crate::spec::dates::IndexDates::of_panel(panel).labels(table);
    let values: Vec<Option<f64>> = col
        .cells
        .iter()
        .map(|c| c.as_f64().filter(|v| v.is_finite()))
        .collect();
    if values.iter().flatten().any(|v| *v < 0.0) {
        return Err(RenderError::Spec(format!(
            "pie on {:?}: negative values",
            table.id
        )));
    }
    let total: f64 = values.iter().flatten().sum();
    if total <= 0.0 {
        return Err(RenderError::Spec(format!(
            "pie on {:?}: nothing to draw",
            table.id
        )));
    }
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
    let mut area = BBox {
        y: inner.y + title_h,
        h: inner.h - title_h,
        ..inner
    };

    // Categories with a colour each (slice i keeps palette colour i).
    let items: Vec<LegendItem> = cats
        .iter()
        .enumerate()
        .filter(|(r, _)| values[*r].is_some_and(|v| v > 0.0))
        .map(|(r, c)| LegendItem {
            label: shown[r].clone(),
            category: (shown[r] != *c).then(|| c.clone()),
            color: color_of(st, r),
            swatch: Swatch::Box,
        })
        .collect();
    let names_on_slices = matches!(
        st.legend,
        LegendPlacement::Auto | LegendPlacement::Direct | LegendPlacement::None
    );
    let items = order_items(items, st.legend_order);
    let mut legend_at: Option<(LegendPlacement, f32)> = None;
    if !names_on_slices {
        match st.legend {
            LegendPlacement::Top => {
                let h = horizontal_legend_height(&items, st, area.w);
                legend_at = Some((LegendPlacement::Top, area.y));
                area.y += h + 8.0;
                area.h -= h + 8.0;
            }
            LegendPlacement::Bottom => {
                let h = horizontal_legend_height(&items, st, area.w);
                area.h -= h + 8.0;
                legend_at = Some((LegendPlacement::Bottom, area.bottom() + 8.0));
            }
            _ => {
                let (w, _) = vertical_legend_size(&items, st);
                let w = w.min(area.w * 0.4);
                area.w -= w + 10.0;
                legend_at = Some((LegendPlacement::Right, area.right() + 10.0));
            }
        }
    }
    scene.plot_area = area;

    // Radius: leave room for outside labels on both sides.
    let ls = st.value_label_size.max(st.tick_size);
    let max_name_w = if names_on_slices {
        shown
            .iter()
            .map(|c| text_width(c, &st.font_family, ls, false))
            .fold(0.0f32, f32::max)
            .min(area.w * 0.28)
    } else {
        text_width("100.0%", &st.font_family, ls, false)
    };
    let pct_w = if st.data_labels {
        text_width(" 00.0%", &st.font_family, ls, false)
    } else {
        0.0
    };
    let side = if names_on_slices {
        max_name_w + pct_w + 30.0
    } else if st.data_labels {
        max_name_w + 30.0
    } else {
        12.0
    };
    let r = ((area.w / 2.0 - side).min(area.h / 2.0 - ls * 1.6)).max(30.0);
    let (cx, cy) = (area.x + area.w / 2.0, area.y + area.h / 2.0);
    let hole = if panel.kind == ChartKind::Donut {
        r * st.donut_hole.clamp(0.0, 0.9)
    } else {
        0.0
    };

    let mut slices = Vec::new();
    let mut acc = 0.0f64;
    for (row, v) in values.iter().enumerate() {
        let Some(v) = v.filter(|v| *v > 0.0) else {
            continue;
        };
        let a0 = -FRAC_PI_2 + (acc / total) as f32 * TAU;
        acc += v;
        let a1 = -FRAC_PI_2 + (acc / total) as f32 * TAU;
        slices.push(Slice {
            row,
            value: v,
            a0,
            a1,
        });
    }
    for s in &slices {
        let color = color_of(st, s.row);
        let sweep = s.a1 - s.a0;
        let large = if sweep > PI { 1 } else { 0 };
        let d = if sweep >= TAU - 1e-4 {
            // A full circle cannot be one arc.
            let (x0, y0) = pt(cx, cy, r, -FRAC_PI_2);
            let (x1, y1) = pt(cx, cy, r, FRAC_PI_2);
            let mut d = format!(
                "M{} {} A{r} {r} 0 1 1 {} {} A{r} {r} 0 1 1 {} {} Z",
                f(x0),
                f(y0),
                f(x1),
                f(y1),
                f(x0),
                f(y0),
                r = f(r)
            );
            if hole > 0.0 {
                let (hx0, hy0) = pt(cx, cy, hole, -FRAC_PI_2);
                let (hx1, hy1) = pt(cx, cy, hole, FRAC_PI_2);
                d.push_str(&format!(
                    " M{} {} A{h} {h} 0 1 0 {} {} A{h} {h} 0 1 0 {} {} Z",
                    f(hx0),
                    f(hy0),
                    f(hx1),
                    f(hy1),
                    f(hx0),
                    f(hy0),
                    h = f(hole)
                ));
            }
            d
        } else {
            let (x0, y0) = pt(cx, cy, r, s.a0);
            let (x1, y1) = pt(cx, cy, r, s.a1);
            if hole > 0.0 {
                let (hx0, hy0) = pt(cx, cy, hole, s.a0);
                let (hx1, hy1) = pt(cx, cy, hole, s.a1);
                format!(
                    "M{} {} A{r} {r} 0 {large} 1 {} {} L{} {} A{h} {h} 0 {large} 0 {} {} Z",
                    f(x0),
                    f(y0),
                    f(x1),
                    f(y1),
                    f(hx1),
                    f(hy1),
                    f(hx0),
                    f(hy0),
                    r = f(r),
                    h = f(hole)
                )
            } else {
                format!(
                    "M{} {} L{} {} A{r} {r} 0 {large} 1 {} {} Z",
                    f(cx),
                    f(cy),
                    f(x0),
                    f(y0),
                    f(x1),
                    f(y1),
                    r = f(r)
                )
            }
        };
        canvas.path(&d, &color.hex, Some((&st.background, 1.5)));
        // Bounding box from the arc's extreme points.
        let mut pts = vec![pt(cx, cy, r, s.a0), pt(cx, cy, r, s.a1)];
        if hole > 0.0 {
            pts.push(pt(cx, cy, hole, s.a0));
            pts.push(pt(cx, cy, hole, s.a1));
        } else {
            pts.push((cx, cy));
        }
        for k in -4..=4 {
            let a = k as f32 * FRAC_PI_2;
            if a > s.a0 && a < s.a1 {
                pts.push(pt(cx, cy, r, a));
            }
        }
        let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for (x, y) in pts {
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
        scene.marks.push(Mark {
            kind: MarkKind::Slice,
            series: name.clone(),
            category: Some(cats[s.row].clone()),
            value: s.value,
            x_value: None,
            size_value: None,
            color,
            bbox: BBox {
                x: x0,
                y: y0,
                w: x1 - x0,
                h: y1 - y0,
            },
            sweep_deg: Some((s.a1 - s.a0).to_degrees()),
            label: None,
        });
    }

    // Labels: percentages inside big slices; names (and percentages of small
    // slices) outside with leader lines, pushed apart on each side.
    let mut placed = Placed::default();
    struct Outside {
        mark: usize,
        mid: f32,
        name: Option<String>,
        pct: Option<String>,
        y: f32,
    }
    let mut outside: Vec<Outside> = Vec::new();
    for (i, s) in slices.iter().enumerate() {
        let mid = (s.a0 + s.a1) / 2.0;
        let pct = format!("{}%", share_percent(s.value, &values));
        let mut pct_out = None;
        if st.data_labels {
            let ring = if hole > 0.0 {
                (r + hole) / 2.0
            } else {
                r * 0.64
            };
            let (px, py) = pt(cx, cy, ring, mid);
            let color = contrast_text(&color_of(st, s.row).hex);
            let spec = TextSpec {
                text: &pct,
                x: px,
                y: py - ls * 0.45,
                align: Align::Center,
                family: &st.font_family,
                size: ls,
                bold: false,
                color,
            };
            let b = text_bbox(&spec);
            let arc_len = (s.a1 - s.a0) * ring;
            let thick = if hole > 0.0 { r - hole } else { r };
            if arc_len > b.w + 6.0 && thick > b.h + 4.0 && placed.fits(&b, &frame.rect) {
                let bbox = canvas.text(&spec);
                placed.add(bbox);
                scene.marks[i].label = Some(TextBox {
                    text: pct.clone(),
                    bbox,
                });
            } else {
                pct_out = Some(pct.clone());
            }
        }
        let name = if names_on_slices {
            Some(truncate(
                &shown[s.row],
                &st.font_family,
                ls,
                false,
                max_name_w,
            ))
        } else {
            None
        };
        if name.is_some() || pct_out.is_some() {
            outside.push(Outside {
                mark: i,
                mid,
                name,
                pct: pct_out,
                y: cy + (r + 16.0) * mid.sin(),
            });
        }
    }
    let line_h = ls * 1.25;
    for right_side in [true, false] {
        let mut idx: Vec<usize> = (0..outside.len())
            .filter(|&k| (outside[k].mid.cos() >= 0.0) == right_side)
            .collect();
        idx.sort_by(|a, b| outside[*a].y.total_cmp(&outside[*b].y));
        let top = area.y + ls * 0.6;
        let bottom = area.bottom() - ls * 0.6;
        let mut prev = f32::MIN;
        for &k in &idx {
            let y = outside[k].y.max(prev + line_h).max(top);
            outside[k].y = y;
            prev = y;
        }
        if let Some(&last) = idx.last() {
            let over = outside[last].y - bottom;
            if over > 0.0 {
                let mut next = f32::MAX;
                for &k in idx.iter().rev() {
                    let y = (outside[k].y - over).min(next - line_h);
                    outside[k].y = y;
                    next = y;
                }
            }
        }
    }
    for o in &outside {
        let (ex, ey) = pt(cx, cy, r, o.mid);
        let right_side = o.mid.cos() >= 0.0;
        let (kx, _) = pt(cx, cy, r + 12.0, o.mid);
        let tx = if right_side {
            kx.max(cx + r * 0.3) + 10.0
        } else {
            kx.min(cx - r * 0.3) - 10.0
        };
        canvas.line(
            &[
                (ex, ey),
                (kx, o.y),
                (tx - if right_side { 3.0 } else { -3.0 }, o.y),
            ],
            &st.axis_color,
            1.0,
            None,
        );
        let align = if right_side {
            Align::Left
        } else {
            Align::Right
        };
        let ty = o.y - ls * 0.45;
        let mut parts: Vec<(String, bool)> = Vec::new();
        if let Some(n) = &o.name {
            parts.push((n.clone(), false));
        }
        if let Some(p) = &o.pct {
            parts.push((p.clone(), true));
        }
        if !right_side {
            parts.reverse();
        }
        let mut x = tx;
        for (text, is_pct) in parts {
            let spec = TextSpec {
                text: &text,
                x,
                y: ty,
                align,
                family: &st.font_family,
                size: ls,
                bold: false,
                color: &st.text_color,
            };
            let bbox = canvas.text(&spec);
            let w = bbox.w + text_width(" ", &st.font_family, ls, false);
            x = if right_side { x + w } else { x - w };
            let tb = TextBox { text, bbox };
            if is_pct {
                scene.marks[o.mark].label = Some(tb);
            } else {
                scene.direct_labels.push(tb);
            }
        }
    }
    match legend_at {
        Some((LegendPlacement::Top | LegendPlacement::Bottom, y)) => {
            scene.legend = draw_horizontal_legend(canvas, &items, st, area, y, Align::Center);
        }
        Some((_, x)) => {
            let (_, h) = vertical_legend_size(&items, st);
            scene.legend = draw_vertical_legend(canvas, &items, st, x, cy - h / 2.0, false);
        }
        None => {}
    }
    Ok(scene)
}
