//! A drawing surface over plotters' SVG backend. Every primitive is drawn by
//! plotters into its own short-lived backend whose body is appended in order,
//! so raw SVG (arbitrary rotations, dash arrays) can be interleaved with
//! plotters output while keeping z-order.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::fonts::{self, ASCENT, DESCENT};
use crate::ir::{Align, BBox};

#[derive(Clone)]
pub struct Canvas {
    body: String,
    width: u32,
    height: u32,
    error: Option<String>,
    /// Clip paths emitted so far (ids must be unique in the document).
    clips: u32,
    /// While set, texts are measured but not drawn (shared-axis labels).
    pub muted: bool,
}

/// A text to draw: `y` is the top of the glyph box (ascender line).
#[derive(Debug, Clone)]
pub struct TextSpec<'a> {
    pub text: &'a str,
    pub x: f32,
    pub y: f32,
    pub align: Align,
    pub family: &'a str,
    pub size: f32,
    pub bold: bool,
    pub color: &'a str,
}

pub fn parse_hex(hex: &str) -> Option<RGBColor> {
    let h = hex.trim().strip_prefix('#')?;
    if h.len() != 6 || !h.is_ascii() {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).ok();
    Some(RGBColor(byte(0)?, byte(2)?, byte(4)?))
}

pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

fn px(v: f32) -> i32 {
    v.round() as i32
}

/// Numbers in raw SVG: fixed precision so output is stable and short.
fn num(v: f32) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

impl Canvas {
    pub fn new(width: u32, height: u32) -> Canvas {
        fonts::register_plotters_fonts();
        Canvas {
            body: String::with_capacity(64 * 1024),
            width,
            height,
            error: None,
            clips: 0,
            muted: false,
        }
    }

    fn color(&mut self, hex: &str) -> RGBColor {
        match parse_hex(hex) {
            Some(c) => c,
            None => {
                self.fail(format!("invalid colour {hex:?} (expected #rrggbb)"));
                RGBColor(0, 0, 0)
            }
        }
    }

    fn fail(&mut self, msg: String) {
        if self.error.is_none() {
            self.error = Some(msg);
        }
    }

    /// Run one plotters drawing session and append its SVG body.
    fn plot<F>(&mut self, draw: F)
    where
        F: FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String>,
    {
        let mut buf = String::new();
        let result = {
            let area =
                SVGBackend::with_string(&mut buf, (self.width, self.height)).into_drawing_area();
            let r = draw(&area);
            let presented = area.present().map_err(|e| e.to_string());
            r.and(presented)
        };
        if let Err(e) = result {
            self.fail(e);
            return;
        }
        // Strip the <svg ...> header and the closing tag plotters wrote.
        let start = buf.find(">\n").map(|i| i + 2).unwrap_or(0);
        let end = buf.rfind("</svg>").unwrap_or(buf.len());
        if start < end {
            self.body.push_str(&buf[start..end]);
        }
    }

    pub fn raw(&mut self, fragment: &str) {
        self.body.push_str(fragment);
        self.body.push('\n');
    }

    pub fn fill_rect(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, hex: &str, opacity: f64) {
        let c = self.color(hex);
        self.plot(|a| {
            a.draw(&Rectangle::new(
                [(px(x0), px(y0)), (px(x1), px(y1))],
                c.mix(opacity).filled(),
            ))
            .map_err(|e| e.to_string())
        });
    }

    pub fn stroke_rect(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, hex: &str, width: f32) {
        let c = self.color(hex);
        self.plot(|a| {
            a.draw(&Rectangle::new(
                [(px(x0), px(y0)), (px(x1), px(y1))],
                c.stroke_width(width.round().max(1.0) as u32),
            ))
            .map_err(|e| e.to_string())
        });
    }

    /// A polyline; `dash` gives an SVG dash array (drawn as raw SVG, since
    /// plotters would emit hundreds of tiny segments).
    pub fn line(&mut self, points: &[(f32, f32)], hex: &str, width: f32, dash: Option<&str>) {
        if points.len() < 2 {
            return;
        }
        if let Some(dash) = dash {
            let c = self.color(hex);
            let d: Vec<String> = points
                .iter()
                .map(|(x, y)| format!("{},{}", num(*x), num(*y)))
                .collect();
            self.raw(&format!(
                r#"<polyline fill="none" stroke="rgb({},{},{})" stroke-width="{}" stroke-dasharray="{}" stroke-linejoin="round" points="{}"/>"#,
                c.0,
                c.1,
                c.2,
                num(width),
                dash,
                d.join(" ")
            ));
            return;
        }
        let c = self.color(hex);
        let pts: Vec<(i32, i32)> = points.iter().map(|(x, y)| (px(*x), px(*y))).collect();
        self.plot(|a| {
            a.draw(&PathElement::new(
                pts,
                c.stroke_width(width.round().max(1.0) as u32),
            ))
            .map_err(|e| e.to_string())
        });
    }

    pub fn polygon(&mut self, points: &[(f32, f32)], hex: &str, opacity: f64) {
        if points.len() < 3 {
            return;
        }
        let c = self.color(hex);
        let pts: Vec<(i32, i32)> = points.iter().map(|(x, y)| (px(*x), px(*y))).collect();
        self.plot(|a| {
            a.draw(&Polygon::new(pts, c.mix(opacity).filled()))
                .map_err(|e| e.to_string())
        });
    }

    /// A filled path given as raw SVG path data (pie slices need sub-pixel arcs).
    pub fn path(&mut self, d: &str, fill: &str, stroke: Option<(&str, f32)>) {
        let c = self.color(fill);
        let stroke = match stroke {
            Some((hex, w)) => {
                let s = self.color(hex);
                format!(
                    r#" stroke="rgb({},{},{})" stroke-width="{}" stroke-linejoin="round""#,
                    s.0,
                    s.1,
                    s.2,
                    num(w)
                )
            }
            None => String::new(),
        };
        self.raw(&format!(
            r#"<path d="{d}" fill="rgb({},{},{})"{stroke}/>"#,
            c.0, c.1, c.2
        ));
    }

    pub fn circle(
        &mut self,
        cx: f32,
        cy: f32,
        r: f32,
        fill: &str,
        opacity: f64,
        stroke: Option<&str>,
    ) {
        let f = self.color(fill);
        let s = stroke.map(|h| self.color(h));
        let radius = r.round().max(1.0) as i32;
        self.plot(|a| {
            a.draw(&Circle::new(
                (px(cx), px(cy)),
                radius,
                f.mix(opacity).filled(),
            ))
            .map_err(|e| e.to_string())?;
            if let Some(s) = s {
                a.draw(&Circle::new((px(cx), px(cy)), radius, s.stroke_width(1)))
                    .map_err(|e| e.to_string())?;
            }
            Ok(())
        });
    }

    /// Draw text through plotters; returns the glyph box.
    pub fn text(&mut self, t: &TextSpec<'_>) -> BBox {
        let bbox = text_bbox(t);
        if t.text.is_empty() || self.muted {
            return bbox;
        }
        let c = self.color(t.color);
        let family = fonts::resolve_family(t.family);
        let style = if t.bold {
            FontStyle::Bold
        } else {
            FontStyle::Normal
        };
        let hpos = match t.align {
            Align::Left => HPos::Left,
            Align::Center => HPos::Center,
            Align::Right => HPos::Right,
        };
        let text = t.text.to_string();
        let size = fonts::plotters_size(t.size);
        let (x, y) = (px(t.x), px(t.y));
        self.plot(move |a| {
            let font = FontDesc::new(FontFamily::Name(family), size, style)
                .color(&c)
                .pos(Pos::new(hpos, VPos::Top));
            a.draw_text(&text, &font, (x, y)).map_err(|e| e.to_string())
        });
        bbox
    }

    /// Text rotated by `degrees` (counter-clockwise negative, SVG convention)
    /// about its anchor, which is the end of the text at baseline-middle.
    /// Returns the axis-aligned box of the rotated glyph box.
    pub fn rotated_text(&mut self, t: &TextSpec<'_>, degrees: f32) -> BBox {
        if t.text.is_empty() || self.muted {
            return BBox {
                x: t.x,
                y: t.y,
                w: 0.0,
                h: 0.0,
            };
        }
        let c = self.color(t.color);
        let family = fonts::resolve_family(t.family);
        let w = fonts::text_width(t.text, family, t.size, t.bold);
        let anchor = match t.align {
            Align::Left => "start",
            Align::Center => "middle",
            Align::Right => "end",
        };
        // Anchor point is (x, y) at the vertical middle of the glyph box.
        let baseline = t.y + t.size * (ASCENT - DESCENT) / 2.0;
        self.raw(&format!(
            r#"<text x="{}" y="{}" text-anchor="{anchor}" font-family="{family}" font-size="{}"{} fill="rgb({},{},{})" transform="rotate({} {} {})">{}</text>"#,
            num(t.x),
            num(baseline),
            num(t.size),
            if t.bold { r#" font-weight="bold""# } else { "" },
            c.0,
            c.1,
            c.2,
            num(degrees),
            num(t.x),
            num(t.y),
            escape(t.text)
        ));
        // Corners of the unrotated box relative to the pivot.
        let x0 = match t.align {
            Align::Left => 0.0,
            Align::Center => -w / 2.0,
            Align::Right => -w,
        };
        let h = t.size * (ASCENT + DESCENT);
        let corners = [
            (x0, -h / 2.0),
            (x0 + w, -h / 2.0),
            (x0, h / 2.0),
            (x0 + w, h / 2.0),
        ];
        let (s, co) = degrees.to_radians().sin_cos();
        let mut minx = f32::MAX;
        let mut miny = f32::MAX;
        let mut maxx = f32::MIN;
        let mut maxy = f32::MIN;
        for (cx, cy) in corners {
            let rx = t.x + cx * co - cy * s;
            let ry = t.y + cx * s + cy * co;
            minx = minx.min(rx);
            maxx = maxx.max(rx);
            miny = miny.min(ry);
            maxy = maxy.max(ry);
        }
        BBox {
            x: minx,
            y: miny,
            w: maxx - minx,
            h: maxy - miny,
        }
    }

    /// Clip what follows to `r` until [`Canvas::end_clip`].
    pub fn begin_clip(&mut self, r: BBox) {
        self.clips += 1;
        let id = format!("clip{}", self.clips);
        self.raw(&format!(
            r#"<clipPath id="{id}"><rect x="{}" y="{}" width="{}" height="{}"/></clipPath><g clip-path="url(#{id})">"#,
            num(r.x),
            num(r.y),
            num(r.w),
            num(r.h)
        ));
    }

    pub fn end_clip(&mut self) {
        self.raw("</g>");
    }

    pub fn finish(self) -> Result<String, String> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let mut svg = String::with_capacity(self.body.len() + 200);
        svg.push_str(&format!(
            "<svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\">\n",
            w = self.width,
            h = self.height
        ));
        svg.push_str(&self.body);
        svg.push_str("</svg>\n");
        Ok(svg)
    }
}

/// The glyph box a text would occupy (without drawing it).
pub fn text_bbox(t: &TextSpec<'_>) -> BBox {
    let w = fonts::text_width(t.text, t.family, t.size, t.bold);
    let x = match t.align {
        Align::Left => t.x,
        Align::Center => t.x - w / 2.0,
        Align::Right => t.x - w,
    };
    BBox {
        x,
        y: t.y,
        w,
        h: t.size * (ASCENT + DESCENT),
    }
}
