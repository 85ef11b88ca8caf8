//! Pieces shared by every panel kind: titles, legends, colours, value labels.

use super::canvas::{Canvas, TextSpec, text_bbox};
use super::fonts::text_width;
use super::text::wrap;
use crate::ir::{
    Align, BBox, LegendEntry, LegendOrder, NamedColor, Style, TextBox, TitlePlacement,
};

pub fn inset(r: BBox, m: f32) -> BBox {
    BBox {
        x: r.x + m,
        y: r.y + m,
        w: (r.w - 2.0 * m).max(1.0),
        h: (r.h - 2.0 * m).max(1.0),
    }
}

/// Colour `i` of the palette. Past the palette's end, lighter then darker
/// variants follow ("light teal", "dark teal"), so every mark of a chart with
/// up to three times as many series as colours has its own colour and name.
pub fn color_of(style: &Style, i: usize) -> NamedColor {
    let n = style.palette.len().max(1);
    if i < n {
        if let Some(c) = style.palette.get(i) {
            return c.clone();
        }
    }
    let extended = extended_palette(style);
    extended[i % extended.len()].clone()
}

/// The palette followed by its lighter and darker variants, every name unique.
fn extended_palette(style: &Style) -> Vec<NamedColor> {
    let mut out: Vec<NamedColor> = if style.palette.is_empty() {
        vec![NamedColor {
            name: "blue".into(),
            hex: "#1f77b4".into(),
        }]
    } else {
        style.palette.clone()
    };
    let base = out.clone();
    for (prefixes, with, t) in [
        (["light", "pale", "lighter", "soft"], (255, 255, 255), 0.45),
        (["dark", "deep", "darker", "dim"], (0, 0, 0), 0.4),
    ] {
        for c in &base {
            let name = prefixes
                .iter()
                .map(|p| variant_name(p, &c.name))
                .find(|cand| !out.iter().any(|o| &o.name == cand))
                .unwrap_or_else(|| format!("{} {}", prefixes[0], c.name));
            out.push(NamedColor {
                name,
                hex: mix_hex(&c.hex, with, t),
            });
        }
    }
    out
}

fn variant_name(prefix: &str, name: &str) -> String {
    // "light blue" lightened is "pale blue", not "light light blue".
    for p in ["light ", "dark ", "pale ", "deep "] {
        if let Some(rest) = name.strip_prefix(p) {
            return format!("{prefix} {rest}")
                .replace("light light", "pale")
                .replace("dark dark", "deep");
        }
    }
    format!("{prefix} {name}")
}

fn mix_hex(hex: &str, with: (u8, u8, u8), t: f32) -> String {
    let c = super::canvas::parse_hex(hex).unwrap_or(plotters::style::RGBColor(0, 0, 0));
    let m = |a: u8, b: u8| (f32::from(a) + (f32::from(b) - f32::from(a)) * t).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        m(c.0, with.0),
        m(c.1, with.1),
        m(c.2, with.2)
    )
}

/// Relative luminance 0..1 of `#rrggbb`.
pub fn luminance(hex: &str) -> f32 {
    let c = super::canvas::parse_hex(hex).unwrap_or(plotters::style::RGBColor(0, 0, 0));
    (0.2126 * f32::from(c.0) + 0.7152 * f32::from(c.1) + 0.0722 * f32::from(c.2)) / 255.0
}

/// A text colour readable on `fill`.
pub fn contrast_text(fill: &str) -> &'static str {
    if luminance(fill) > 0.55 {
        "#1a1a1a"
    } else {
        "#ffffff"
    }
}

/// Dash arrays per series index when `dashes` is on (series 0 stays solid).
pub fn dash_for(style: &Style, i: usize) -> Option<&'static str> {
    const DASHES: [&str; 5] = ["", "9 5", "2 4", "10 4 2 4", "14 5"];
    if !style.dashes {
        return None;
    }
    let d = DASHES[i % DASHES.len()];
    if d.is_empty() { None } else { Some(d) }
}

/// Draw the (possibly wrapped) title at the top of `area`; returns its text box
/// and the height used. Hidden titles return None and use no space.
pub fn draw_title(
    canvas: &mut Canvas,
    title: Option<&str>,
    style: &Style,
    area: BBox,
    size: f32,
) -> (Option<TextBox>, f32) {
    draw_heading(canvas, title, style, area, size, style.title_bold)
}

/// A panel's title and, under it, its subtitle (smaller, not bold, in the
/// title's alignment); returns both text boxes and the height used. A hidden
/// title hides its subtitle too.
pub fn draw_titles(
    canvas: &mut Canvas,
    title: Option<&str>,
    subtitle: Option<&str>,
    style: &Style,
    area: BBox,
) -> (Option<TextBox>, Option<TextBox>, f32) {
    let (title, used) = draw_title(canvas, title, style, area, style.title_size);
    let below = BBox {
        y: area.y + used,
        h: (area.h - used).max(0.0),
        ..area
    };
    let size = (style.title_size * 0.72).max(style.tick_size);
    let (subtitle, sub_used) = draw_heading(canvas, subtitle, style, below, size, false);
    (title, subtitle, used + sub_used)
}

pub fn draw_heading(
    canvas: &mut Canvas,
    title: Option<&str>,
    style: &Style,
    area: BBox,
    size: f32,
    bold: bool,
) -> (Option<TextBox>, f32) {
    let Some(title) = title.filter(|t| !t.trim().is_empty()) else {
        return (None, 0.0);
    };
    if style.title_placement == TitlePlacement::Hidden {
        return (None, 0.0);
    }
    let family = style.title_font_family.as_str();
    let (lines, _) = wrap(title, family, size, bold, area.w, 2);
    let line_h = size * 1.2;
    let x = match style.title_align {
        Align::Left => area.x,
        Align::Center => area.x + area.w / 2.0,
        Align::Right => area.right(),
    };
    let mut bbox: Option<BBox> = None;
    for (i, line) in lines.iter().enumerate() {
        let b = canvas.text(&TextSpec {
            text: line,
            x,
            y: area.y + i as f32 * line_h,
            align: style.title_align,
            family,
            size,
            bold,
            color: &style.text_color,
        });
        bbox = Some(match bbox {
            None => b,
            Some(a) => union(a, b),
        });
    }
    let used = lines.len() as f32 * line_h + size * 0.5;
    (
        bbox.map(|bbox| TextBox {
            text: lines.join(" "),
            bbox,
        }),
        used,
    )
}

pub fn union(a: BBox, b: BBox) -> BBox {
    let x = a.x.min(b.x);
    let y = a.y.min(b.y);
    BBox {
        x,
        y,
        w: a.right().max(b.right()) - x,
        h: a.bottom().max(b.bottom()) - y,
    }
}

/// How a legend swatch looks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Swatch {
    Box,
    Line {
        dash: Option<&'static str>,
        marker: bool,
        /// Marker shape index (see [`draw_marker`]).
        shape: usize,
    },
}

#[derive(Debug, Clone)]
pub struct LegendItem {
    pub label: String,
    pub color: NamedColor,
    pub swatch: Swatch,
    /// The table's form of a printed category label (pies), when it differs.
    pub category: Option<String>,
}

pub fn order_items(mut items: Vec<LegendItem>, order: LegendOrder) -> Vec<LegendItem> {
    match order {
        LegendOrder::Data => {}
        LegendOrder::Reversed => items.reverse(),
        LegendOrder::Alphabetical => items.sort_by(|a, b| a.label.cmp(&b.label)),
    }
    items
}

const SWATCH: f32 = 14.0;
const SWATCH_GAP: f32 = 6.0;
const ENTRY_GAP: f32 = 18.0;

fn entry_width(item: &LegendItem, style: &Style) -> f32 {
    let sw = if matches!(item.swatch, Swatch::Line { .. }) {
        SWATCH * 1.6
    } else {
        SWATCH
    };
    sw + SWATCH_GAP + text_width(&item.label, &style.font_family, style.legend_size, false)
}

/// Rows of entry indices for a horizontal legend at most `max_w` wide.
pub fn flow_rows(items: &[LegendItem], style: &Style, max_w: f32) -> Vec<Vec<usize>> {
    let mut rows: Vec<Vec<usize>> = vec![Vec::new()];
    let mut x = 0.0;
    for (i, item) in items.iter().enumerate() {
        let w = entry_width(item, style);
        let row = rows.last_mut().expect("non-empty");
        if !row.is_empty() && x + w > max_w {
            rows.push(vec![i]);
            x = w + ENTRY_GAP;
        } else {
            row.push(i);
            x += w + ENTRY_GAP;
        }
    }
    rows
}

pub fn row_height(style: &Style) -> f32 {
    style.legend_size * 1.6
}

/// Height of a horizontal legend.
pub fn horizontal_legend_height(items: &[LegendItem], style: &Style, max_w: f32) -> f32 {
    if items.is_empty() {
        return 0.0;
    }
    flow_rows(items, style, max_w).len() as f32 * row_height(style)
}

/// Size of a vertical (column) legend including its padding.
pub fn vertical_legend_size(items: &[LegendItem], style: &Style) -> (f32, f32) {
    let w = items
        .iter()
        .map(|i| entry_width(i, style))
        .fold(0.0f32, f32::max);
    (w + 16.0, items.len() as f32 * row_height(style) + 10.0)
}

fn draw_entry(
    canvas: &mut Canvas,
    item: &LegendItem,
    style: &Style,
    x: f32,
    y: f32,
) -> LegendEntry {
    let h = row_height(style);
    let mid = y + h / 2.0;
    let sw_w = match item.swatch {
        Swatch::Box => {
            canvas.fill_rect(
                x,
                mid - SWATCH / 2.0,
                x + SWATCH,
                mid + SWATCH / 2.0,
                &item.color.hex,
                1.0,
            );
            SWATCH
        }
        Swatch::Line {
            dash,
            marker,
            shape,
        } => {
            let w = SWATCH * 1.6;
            canvas.line(
                &[(x, mid), (x + w, mid)],
                &item.color.hex,
                style.line_width.max(1.5),
                dash,
            );
            if marker {
                draw_marker(
                    canvas,
                    x + w / 2.0,
                    mid,
                    style.marker_size.max(2.5),
                    &item.color.hex,
                    shape,
                );
            }
            w
        }
    };
    let t = TextSpec {
        text: &item.label,
        x: x + sw_w + SWATCH_GAP,
        y: mid - style.legend_size * 0.45,
        align: Align::Left,
        family: &style.font_family,
        size: style.legend_size,
        bold: false,
        color: &style.text_color,
    };
    let tb = canvas.text(&t);
    LegendEntry {
        label: item.label.clone(),
        category: item.category.clone(),
        color: item.color.clone(),
        bbox: union(
            BBox {
                x,
                y: mid - SWATCH / 2.0,
                w: sw_w,
                h: SWATCH,
            },
            tb,
        ),
    }
}

/// A horizontal legend centred (or left-aligned) in `area` starting at `y`.
pub fn draw_horizontal_legend(
    canvas: &mut Canvas,
    items: &[LegendItem],
    style: &Style,
    area: BBox,
    y: f32,
    align: Align,
) -> Vec<LegendEntry> {
    let rows = flow_rows(items, style, area.w);
    let mut out = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let widths: Vec<f32> = row.iter().map(|&i| entry_width(&items[i], style)).collect();
        let total: f32 =
            widths.iter().sum::<f32>() + ENTRY_GAP * (row.len().saturating_sub(1)) as f32;
        let mut x = match align {
            Align::Left => area.x,
            Align::Center => area.x + (area.w - total) / 2.0,
            Align::Right => area.right() - total,
        };
        for (k, &i) in row.iter().enumerate() {
            out.push(draw_entry(
                canvas,
                &items[i],
                style,
                x,
                y + r as f32 * row_height(style),
            ));
            x += widths[k] + ENTRY_GAP;
        }
    }
    out
}

/// A boxed vertical legend with its top-left corner at (x, y).
pub fn draw_vertical_legend(
    canvas: &mut Canvas,
    items: &[LegendItem],
    style: &Style,
    x: f32,
    y: f32,
    boxed: bool,
) -> Vec<LegendEntry> {
    let (w, h) = vertical_legend_size(items, style);
    if boxed {
        canvas.fill_rect(x, y, x + w, y + h, &style.plot_background, 0.85);
        canvas.stroke_rect(x, y, x + w, y + h, &style.grid_color, 1.0);
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            draw_entry(
                canvas,
                item,
                style,
                x + 8.0,
                y + 5.0 + i as f32 * row_height(style),
            )
        })
        .collect()
}

/// Greedy placement of labels: a label is drawn only where it hits nothing
/// already placed, so value labels never collide.
#[derive(Default)]
pub struct Placed {
    boxes: Vec<BBox>,
}

impl Placed {
    pub fn add(&mut self, b: BBox) {
        self.boxes.push(b);
    }

    pub fn fits(&self, b: &BBox, within: &BBox) -> bool {
        b.x >= within.x - 0.5
            && b.y >= within.y - 0.5
            && b.right() <= within.right() + 0.5
            && b.bottom() <= within.bottom() + 0.5
            && !self.boxes.iter().any(|p| p.grown(1.0).intersects(b))
    }
}

/// Try candidate top-left positions for a label; draw at the first that fits.
#[allow(clippy::too_many_arguments)]
pub fn place_label(
    canvas: &mut Canvas,
    placed: &mut Placed,
    within: &BBox,
    text: &str,
    candidates: &[(f32, f32, Align)],
    style: &Style,
    color: &str,
) -> Option<TextBox> {
    for &(x, y, align) in candidates {
        let spec = TextSpec {
            text,
            x,
            y,
            align,
            family: &style.font_family,
            size: style.value_label_size,
            bold: false,
            color,
        };
        let b = text_bbox(&spec);
        if placed.fits(&b, within) {
            let bbox = canvas.text(&spec);
            placed.add(bbox);
            return Some(TextBox {
                text: text.to_string(),
                bbox,
            });
        }
    }
    None
}

/// Line markers: circle, square, triangle, diamond (by `shape` modulo 4).
pub fn draw_marker(canvas: &mut Canvas, x: f32, y: f32, r: f32, hex: &str, shape: usize) {
    match shape % 4 {
        0 => canvas.circle(x, y, r, hex, 1.0, None),
        1 => canvas.fill_rect(x - r, y - r, x + r, y + r, hex, 1.0),
        2 => canvas.polygon(
            &[
                (x, y - r * 1.2),
                (x + r * 1.1, y + r * 0.8),
                (x - r * 1.1, y + r * 0.8),
            ],
            hex,
            1.0,
        ),
        _ => canvas.polygon(
            &[
                (x, y - r * 1.3),
                (x + r * 1.1, y),
                (x, y + r * 1.3),
                (x - r * 1.1, y),
            ],
            hex,
            1.0,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_names_stay_distinct_beyond_the_palette() {
        for style in crate::spec::builtin_themes() {
            let n = style.palette.len() * 3;
            let mut names: Vec<String> = (0..n).map(|i| color_of(&style, i).name).collect();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), n, "{}", style.theme);
        }
        let classic = crate::spec::theme("classic").unwrap();
        assert_eq!(color_of(&classic, 10).name, "light blue");
        assert_eq!(color_of(&classic, 20).name, "dark blue");
    }
}
