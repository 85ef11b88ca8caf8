//! Slope charts: the panel's two series as two vertical axes (headed by the
//! series' names), one line per category from its first value to its
//! second, the category named at both ends (with its value when
//! `data_labels`), and a printed value axis at the left with grid lines
//! across, so every end point can be read through the ticks.

use super::canvas::{Canvas, TextSpec};
use super::cartesian::num_axis;
use super::common::{color_of, draw_titles, inset};
use super::fonts::{ASCENT, DESCENT, text_width};
use super::text::truncate;
use super::{PanelFrame, RenderError};
use crate::ir::{
    Align, BBox, CategoryLabel, Mark, MarkKind, NumberFormat, PanelScene, PanelSpec, Style,
    TextBox, Tick,
};
use crate::spec::format::format_number;

const DOT_R: f32 = 4.0;
const TICK_LEN: f32 = 4.0;
/// Gap between a dot and the first text beside it, and between texts.
const GAP: f32 = 6.0;

/// A value as an end label prints it (as bar value labels do).
pub(crate) fn value_label(v: f64, style: &Style, format: &NumberFormat) -> String {
    let decimals = if v.fract() == 0.0 {
        0
    } else {
        usize::from(format.decimals.max(1)).min(4)
    };
    let decimals = decimals.max(usize::from(format.decimals));
    format_number(v, style.number_style, decimals, format)
}

/// Label tops for points at `ys` (pixel centres), each `h` tall, moved apart
/// as little as possible so no two overlap, kept within `lo..hi`.
pub(crate) fn spread(ys: &[f32], h: f32, lo: f32, hi: f32) -> Vec<f32> {
    let mut order: Vec<usize> = (0..ys.len()).collect();
    order.sort_by(|a, b| ys[*a].total_cmp(&ys[*b]).then(a.cmp(b)));
    let mut tops = vec![0.0f32; ys.len()];
    let mut next = lo;
    for &i in &order {
        let t = (ys[i] - h / 2.0).max(next);
        tops[i] = t;
        next = t + h;
    }
    // Pushed past the bottom: shift the tail back up.
    let mut limit = hi;
    for &i in order.iter().rev() {
        if tops[i] + h > limit {
            tops[i] = limit - h;
        }
        limit = tops[i];
    }
    tops
}

pub fn draw(
    canvas: &mut Canvas,
    panel: &PanelSpec,
    frame: &PanelFrame,
) -> Result<PanelScene, RenderError> {
    let st = &panel.style;
    let table = &panel.table;
    let cats = table.category_labels();
    let [first, second] = panel.series.as_slice() else {
        return Err(RenderError::Spec(format!(
            "a slope chart of {:?} needs two series",
            table.id
        )));
    };
    let cols = [first, second].map(|name| table.series(name));
    let [Some(a), Some(b)] = cols else {
        return Err(RenderError::Spec(format!(
            "table {:?} lacks a series of the slope chart",
            table.id
        )));
    };
    let value = |c: &crate::ir::Column, r: usize| c.cells.get(r).and_then(|x| x.as_f64());
    let rows: Vec<usize> = (0..cats.len())
        .filter(|&r| {
            value(a, r).is_some_and(f64::is_finite) && value(b, r).is_some_and(f64::is_finite)
        })
        .collect();
    if rows.is_empty() {
        return Err(RenderError::Spec(format!(
            "slope chart of {:?}: no category has both values",
            table.id
        )));
    }
    let all: Vec<f64> = rows
        .iter()
        .flat_map(|&r| [value(a, r), value(b, r)])
        .flatten()
        .collect();
    let lo = all.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let spans = panel.pinned.as_ref().and_then(|p| p.spans.clone());
    let axis = super::cartesian::span_axis(spans.and_then(|s| s.value), st, &a.format)
        .unwrap_or_else(|| num_axis(lo, hi, st, false, &a.format, false));

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

    let ts = st.tick_size;
    let vls = st.value_label_size;
    let text_h = |size: f32| size * (ASCENT + DESCENT);
    // Value axis title, ticks, then the two label columns around the lines.
    let ls = st.label_size;
    let has_ylabel = panel
        .y_label
        .as_deref()
        .is_some_and(|l| !l.trim().is_empty());
    let left_title_w = if has_ylabel { ls + 8.0 } else { 0.0 };
    let tick_w = axis
        .ticks
        .iter()
        .map(|(_, l)| text_width(l, &st.font_family, ts, false))
        .fold(0.0f32, f32::max);
    let axis_x = inner.x + left_title_w + tick_w + TICK_LEN + 4.0;
    let values_of = |c: &crate::ir::Column| -> Vec<String> {
        rows.iter()
            .map(|&r| value_label(value(c, r).unwrap_or(0.0), st, &c.format))
            .collect()
    };
    let (texts_a, texts_b) = (values_of(a), values_of(b));
    let value_w = |texts: &[String]| {
        if st.data_labels {
            texts
                .iter()
                .map(|t| text_width(t, &st.font_family, vls, false))
                .fold(0.0f32, f32::max)
                + GAP
        } else {
            0.0
        }
    };
    let (vw_a, vw_b) = (value_w(&texts_a), value_w(&texts_b));
    // Names share what the lines (at least 80 px) and values leave; in
    // narrow panels they are truncated.
    let room = inner.right() - axis_x - 80.0 - vw_a - vw_b - 2.0 * (GAP + DOT_R) - 16.0;
    let name_max = ((inner.right() - axis_x) * 0.26).min(room / 2.0).max(30.0);
    let names: Vec<String> = rows
        .iter()
        .map(|&r| truncate(&cats[r], &st.font_family, vls, false, name_max))
        .collect();
    let name_w = names
        .iter()
        .map(|n| text_width(n, &st.font_family, vls, false))
        .fold(0.0f32, f32::max);
    let left_x = axis_x + 12.0 + name_w + GAP + vw_a + DOT_R;
    let right_x = inner.right() - (name_w + GAP + vw_b + DOT_R + 4.0);
    if right_x - left_x < 40.0 {
        return Err(RenderError::Spec(format!(
            "slope chart of {:?}: {}x{} leaves no room between the labels",
            table.id, frame.rect.w, frame.rect.h
        )));
    }
    // Headings of the two axes above the plot.
    let head_size = st.label_size;
    let top = inner.y + title_h;
    let heads_y = top;
    let plot = BBox {
        x: axis_x,
        y: top + text_h(head_size) + 10.0,
        w: inner.right() - axis_x,
        h: (inner.bottom() - ts * 0.6 - (top + text_h(head_size) + 10.0)).max(40.0),
    };
    scene.plot_area = plot;
    let vpix = |v: f64| -> f32 {
        let f = ((v - axis.lo) / (axis.hi - axis.lo)) as f32;
        plot.bottom() - f * plot.h
    };

    // Grid and value axis.
    canvas.fill_rect(
        plot.x,
        plot.y,
        plot.right(),
        plot.bottom(),
        &st.plot_background,
        1.0,
    );
    let dash = st.grid_dashed.then_some("4 3");
    for (v, label) in &axis.ticks {
        let y = vpix(*v);
        canvas.line(&[(plot.x, y), (plot.right(), y)], &st.grid_color, 1.0, dash);
        if st.tick_marks {
            canvas.line(
                &[(plot.x - TICK_LEN, y), (plot.x, y)],
                &st.axis_color,
                1.0,
                None,
            );
        }
        let bbox = canvas.text(&TextSpec {
            text: label,
            x: plot.x - TICK_LEN - 3.0,
            y: y - ts * 0.4,
            align: Align::Right,
            family: &st.font_family,
            size: ts,
            bold: false,
            color: &st.text_color,
        });
        scene.y_ticks.push(Tick {
            label: label.clone(),
            value: Some(*v),
            pos: y,
            bbox,
            category: None,
        });
    }
    if st.axis_line_width > 0.0 {
        canvas.line(
            &[(plot.x, plot.y), (plot.x, plot.bottom())],
            &st.axis_color,
            st.axis_line_width,
            None,
        );
    }
    for x in [left_x, right_x] {
        canvas.line(
            &[(x, plot.y), (x, plot.bottom())],
            &st.axis_color,
            1.0,
            None,
        );
    }
    for (x, name) in [(left_x, first), (right_x, second)] {
        let text = truncate(
            name,
            &st.font_family,
            head_size,
            true,
            (right_x - left_x) * 0.9,
        );
        let bbox = canvas.text(&TextSpec {
            text: &text,
            x,
            y: heads_y,
            align: Align::Center,
            family: &st.font_family,
            size: head_size,
            bold: true,
            color: &st.text_color,
        });
        scene.x_ticks.push(Tick {
            label: text,
            value: None,
            pos: x,
            bbox,
            category: None,
        });
    }
    if let Some(yl) = panel.y_label.as_deref().filter(|l| !l.trim().is_empty()) {
        let text = truncate(yl, &st.font_family, ls, false, plot.h);
        let bbox = canvas.rotated_text(
            &TextSpec {
                text: &text,
                x: inner.x + ls * 0.5,
                y: plot.y + plot.h / 2.0,
                align: Align::Center,
                family: &st.font_family,
                size: ls,
                bold: false,
                color: &st.text_color,
            },
            -90.0,
        );
        scene.y_label = Some(TextBox { text, bbox });
    }

    // Lines, end dots and their marks.
    let width = st.line_width.max(1.5);
    let mut ends: [Vec<f32>; 2] = [Vec::new(), Vec::new()];
    // Every line first, then the dots over them: no line hides an end.
    for (k, &r) in rows.iter().enumerate() {
        let (va, vb) = (value(a, r).unwrap_or(0.0), value(b, r).unwrap_or(0.0));
        let hex = color_of(st, k).hex;
        canvas.line(
            &[(left_x, vpix(va)), (right_x, vpix(vb))],
            &hex,
            width,
            None,
        );
    }
    for (k, &r) in rows.iter().enumerate() {
        let color = color_of(st, k);
        let (va, vb) = (value(a, r).unwrap_or(0.0), value(b, r).unwrap_or(0.0));
        let (ya, yb) = (vpix(va), vpix(vb));
        for (side, (x, y, v, col)) in [(left_x, ya, va, first), (right_x, yb, vb, second)]
            .into_iter()
            .enumerate()
        {
            canvas.circle(x, y, DOT_R, &color.hex, 1.0, None);
            ends[side].push(y);
            scene.marks.push(Mark::new(
                MarkKind::LinePoint,
                col.clone(),
                Some(cats[r].clone()),
                v,
                color.clone(),
                BBox {
                    x: x - DOT_R,
                    y: y - DOT_R,
                    w: DOT_R * 2.0,
                    h: DOT_R * 2.0,
                },
            ));
        }
    }
    // End labels: the value next to the dot, the name beyond it, moved
    // apart where ends crowd.
    let line_h = text_h(vls) + 1.0;
    for (side, ys) in ends.iter().enumerate() {
        let tops = spread(ys, line_h, plot.y, plot.bottom());
        let texts = if side == 0 { &texts_a } else { &texts_b };
        for (k, &r) in rows.iter().enumerate() {
            let y = tops[k];
            let mark = 2 * k + side;
            let (value_x, name_x, align) = if side == 0 {
                (
                    left_x - DOT_R - GAP,
                    left_x - DOT_R - GAP - vw_a,
                    Align::Right,
                )
            } else {
                (
                    right_x + DOT_R + GAP,
                    right_x + DOT_R + GAP + vw_b,
                    Align::Left,
                )
            };
            fn spec<'s>(
                st: &'s Style,
                text: &'s str,
                x: f32,
                y: f32,
                align: Align,
            ) -> TextSpec<'s> {
                TextSpec {
                    text,
                    x,
                    y,
                    align,
                    family: &st.font_family,
                    size: st.value_label_size,
                    bold: false,
                    color: &st.text_color,
                }
            }
            if st.data_labels {
                let text = &texts[k];
                let bbox = canvas.text(&spec(st, text, value_x, y, align));
                scene.marks[mark].label = Some(TextBox {
                    text: text.clone(),
                    bbox,
                });
            }
            let bbox = canvas.text(&spec(st, &names[k], name_x, y, align));
            scene.category_labels.push(CategoryLabel {
                category: cats[r].clone(),
                text: TextBox {
                    text: names[k].clone(),
                    bbox,
                },
            });
        }
    }
    Ok(scene)
}

#[cfg(test)]
mod tests {
    use super::spread;

    #[test]
    fn crowded_labels_are_moved_apart_within_the_plot() {
        let tops = spread(&[100.0, 101.0, 102.0, 300.0], 10.0, 0.0, 400.0);
        let mut sorted = tops.clone();
        sorted.sort_by(f32::total_cmp);
        for w in sorted.windows(2) {
            assert!(w[1] - w[0] >= 10.0 - 1e-3, "{tops:?}");
        }
        assert_eq!(tops[3], 295.0);
        let squeezed = spread(&[395.0, 396.0], 10.0, 0.0, 400.0);
        assert!(
            squeezed.iter().all(|t| *t + 10.0 <= 400.0 + 1e-3),
            "{squeezed:?}"
        );
    }
}
