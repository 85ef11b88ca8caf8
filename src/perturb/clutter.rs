//! Clutter: a remark under the chart, a watermark and annotations written onto the
//! rendered SVG (the renderer has no annotation hook), each recorded in the
//! Scene's `extra_text` so descriptive questions see exactly what is drawn.
//! The texts carry no numbers, so they cannot be mistaken for data.
//!
//! Footnote and annotations go only where the drawing is free: they never
//! cover a mark, a line, a legend, a tick label or a title (read from the
//! Scene). Each annotation is anchored: a short arrow from the note points
//! at one mark, as an editor's remark would.

use rand::RngExt;

use super::{AnswerEffect, Applied, Info, Perturbation, Stage, SvgEdit};
use crate::ir::{BBox, MarkKind, Scene, TextBox};

pub struct Clutter;

// Remarks, never a source or a labelled note: a second "Source:" or "Note:"
// line would print another answer to "what is the source?" or "what does
// the note say?" beside the chart's own.
const FOOTNOTES: [&str; 4] = [
    "Figures are provisional and subject to revision",
    "Totals may not add up because of rounding",
    "See the methodology for definitions",
    "The latest period is an early estimate",
];
const WATERMARKS: [&str; 3] = ["DRAFT", "SAMPLE", "CONFIDENTIAL"];
const ANNOTATIONS: [&str; 5] = [
    "preliminary",
    "estimate",
    "revised series",
    "see note",
    "break in series",
];
const FAMILY: &str = "DejaVu Sans";
const NOTE_COLOR: &str = "#aa3333";

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn width(text: &str, size: f32) -> f32 {
    crate::render::fonts::text_width(text, FAMILY, size, false)
}

fn contains(b: &BBox, (x, y): (f32, f32)) -> bool {
    x >= b.x && x <= b.right() && y >= b.y && y <= b.bottom()
}

/// Everything drawn that added text must not touch.
struct Occupied {
    boxes: Vec<BBox>,
    /// Line series as polylines (points of one series in drawing order).
    lines: Vec<Vec<(f32, f32)>>,
}

impl Occupied {
    fn of(scene: &Scene) -> Occupied {
        let mut boxes = Vec::new();
        let text = |t: &Option<TextBox>| t.as_ref().map(|t| t.bbox);
        boxes.extend(text(&scene.title));
        boxes.extend(text(&scene.paragraph));
        boxes.extend(scene.kpis.iter().map(|k| k.bbox));
        boxes.extend(scene.extra_text.iter().map(|t| t.bbox));
        let mut lines = Vec::new();
        for p in &scene.panels {
            boxes.extend(
                [&p.title, &p.x_label, &p.y_label]
                    .into_iter()
                    .filter_map(text),
            );
            boxes.extend(p.x_ticks.iter().chain(&p.y_ticks).map(|t| t.bbox));
            boxes.extend(p.legend.iter().map(|e| e.bbox));
            boxes.extend(p.direct_labels.iter().map(|t| t.bbox));
            // An annotation's label and its line, band or arrow.
            if let Some(a) = &p.annotation {
                boxes.push(a.bbox);
                boxes.extend(a.label.as_ref().map(|l| l.bbox));
            }
            for m in &p.marks {
                boxes.push(m.bbox);
                boxes.extend(m.label.as_ref().map(|l| l.bbox));
            }
            let mut series: Vec<&str> = Vec::new();
            for m in p.marks.iter().filter(|m| m.kind == MarkKind::LinePoint) {
                if !series.contains(&m.series.as_str()) {
                    series.push(&m.series);
                }
            }
            for name in series {
                lines.push(
                    p.marks
                        .iter()
                        .filter(|m| m.kind == MarkKind::LinePoint && m.series == name)
                        .map(|m| m.bbox.center())
                        .collect(),
                );
            }
        }
        Occupied { boxes, lines }
    }

    /// Whether `b` (with a margin of air) is clear of everything drawn.
    fn free(&self, b: &BBox) -> bool {
        let b = b.grown(3.0);
        !self.boxes.iter().any(|o| o.intersects(&b))
            && !self.lines.iter().any(|l| {
                l.windows(2)
                    .any(|w| sample(w[0], w[1]).any(|p| contains(&b, p)))
            })
    }

    /// Whether the segment a→b passes clear of everything but `except`.
    fn clear_path(&self, a: (f32, f32), b: (f32, f32), except: &BBox) -> bool {
        sample(a, b).all(|p| {
            contains(except, p)
                || !self
                    .boxes
                    .iter()
                    .any(|o| o != except && contains(&o.grown(1.0), p))
        })
    }
}

/// Points every 2 px along a segment.
fn sample(a: (f32, f32), b: (f32, f32)) -> impl Iterator<Item = (f32, f32)> {
    let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
    let n = (len / 2.0).ceil().max(1.0) as usize;
    (0..=n).map(move |i| {
        let t = i as f32 / n as f32;
        (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
    })
}

struct Writer {
    elements: String,
    boxes: Vec<TextBox>,
}

impl Writer {
    /// Text whose box has its top-left corner at (x, top).
    fn text(&mut self, text: &str, x: f32, top: f32, size: f32, fill: &str, extra: &str) {
        let w = width(text, size);
        // The box spans ascent + descent; the baseline sits at the ascent.
        let y = top + size * 0.76;
        self.elements.push_str(&format!(
            r#"<text x="{x:.1}" y="{y:.1}" font-family="{FAMILY}" font-size="{size:.1}" fill="{fill}"{extra}>{}</text>"#,
            escape(text)
        ));
        self.boxes.push(TextBox {
            text: text.to_string(),
            bbox: BBox {
                x,
                y: top,
                w,
                h: size,
            },
        });
    }

    /// A thin arrow from `from` to `to` with a small head at `to`.
    fn arrow(&mut self, from: (f32, f32), to: (f32, f32)) {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-3);
        let (ux, uy) = (dx / len, dy / len);
        let (bx, by) = (to.0 - ux * 6.0, to.1 - uy * 6.0);
        let (px, py) = (-uy * 3.0, ux * 3.0);
        self.elements.push_str(&format!(
            r#"<line x1="{:.1}" y1="{:.1}" x2="{bx:.1}" y2="{by:.1}" stroke="{NOTE_COLOR}" stroke-width="1"/><polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="{NOTE_COLOR}"/>"#,
            from.0,
            from.1,
            to.0,
            to.1,
            bx + px,
            by + py,
            bx - px,
            by - py
        ));
    }
}

/// The point of `b` nearest to `p`.
fn nearest(b: &BBox, p: (f32, f32)) -> (f32, f32) {
    (p.0.clamp(b.x, b.right()), p.1.clamp(b.y, b.bottom()))
}

/// Where an arrow at a mark points: the end of a bar, the centre of a point
/// or slice.
fn anchor(kind: MarkKind, b: &BBox, horizontal: bool, value: f64) -> (f32, f32) {
    let (cx, cy) = b.center();
    match kind {
        MarkKind::Bar if horizontal && value >= 0.0 => (b.right(), cy),
        MarkKind::Bar if horizontal => (b.x, cy),
        MarkKind::Bar if value >= 0.0 => (cx, b.y),
        MarkKind::Bar => (cx, b.bottom()),
        _ => (cx, cy),
    }
}

impl Perturbation for Clutter {
    fn info(&self) -> Info {
        Info {
            name: "clutter",
            axis: "clutter",
            stage: Stage::Svg,
            effect: AnswerEffect::Preserving,
            ladder: [
                "note below the chart and a faint watermark",
                "note, faint watermark, one annotation in the plot",
                "note, stronger watermark, two annotations",
                "note, strong watermark, three annotations",
                "note, strongest watermark, three annotations",
            ],
        }
    }

    fn apply_svg(
        &self,
        svg: &str,
        scene: &Scene,
        severity: u8,
        seed: u64,
    ) -> Option<Applied<SvgEdit>> {
        let level = super::level("clutter", severity).ok()?;
        let close = svg.rfind("</svg>")?;
        let mut rng = crate::seed::rng(seed, &["clutter"]);
        let (w, h) = (scene.width as f32, scene.height as f32);
        let mut out = Writer {
            elements: String::new(),
            boxes: Vec::new(),
        };
        let occupied = Occupied::of(scene);
        let footnote = FOOTNOTES[rng.random_range(0..FOOTNOTES.len())];
        // Bottom-left as sources usually are, else another free edge spot.
        let size = 10.0;
        let fw = width(footnote, size);
        let spots = [
            (8.0, h - size - 4.0),
            (w - fw - 8.0, h - size - 4.0),
            (8.0, 3.0),
            (w - fw - 8.0, 3.0),
        ];
        let spot = spots.into_iter().find(|&(x, y)| {
            let b = BBox {
                x,
                y,
                w: fw,
                h: size,
            };
            x >= 0.0 && b.right() <= w && occupied.free(&b)
        });
        let footnote = spot.map(|(x, y)| {
            out.text(footnote, x, y, size, "#555555", "");
            footnote
        });
        // A footnote alone is found only by hunting for it: every level
        // adds a watermark too.
        let watermark = {
            let text = WATERMARKS[rng.random_range(0..WATERMARKS.len())];
            let opacity = [0.12, 0.12, 0.22, 0.35, 0.45][level];
            let size = (w.min(h) / 6.0).round();
            let tw = width(text, size);
            let (x, top) = ((w - tw) / 2.0, (h - size) / 2.0);
            out.text(
                text,
                x,
                top,
                size,
                "#888888",
                &format!(
                    r#" fill-opacity="{opacity}" transform="rotate(-30 {:.1} {:.1})""#,
                    w / 2.0,
                    h / 2.0
                ),
            );
            Some(text)
        };
        let notes = [0, 1, 2, 3, 3][level];
        let mut annotations = Vec::new();
        let mut pointed = Vec::new();
        if notes > 0 {
            let mut occupied = occupied;
            if let Some(tb) = out.boxes.first().filter(|_| footnote.is_some()) {
                occupied.boxes.push(tb.bbox);
            }
            // Marks in a seeded order; each annotation points at a different one.
            let mut targets: Vec<(usize, usize)> = scene
                .panels
                .iter()
                .enumerate()
                .flat_map(|(pi, p)| (0..p.marks.len()).map(move |mi| (pi, mi)))
                .collect();
            for i in (1..targets.len()).rev() {
                targets.swap(i, rng.random_range(0..=i));
            }
            let size = 11.0;
            let mut targets = targets.into_iter();
            for _ in 0..notes {
                let text = ANNOTATIONS[rng.random_range(0..ANNOTATIONS.len())];
                let tw = width(text, size);
                let placed = targets.by_ref().find_map(|(pi, mi)| {
                    let panel = &scene.panels[pi];
                    let mark = &panel.marks[mi];
                    let horizontal = panel.kind.is_horizontal();
                    let at = anchor(mark.kind, &mark.bbox, horizontal, mark.value);
                    let area = panel.plot_area.grown(-2.0);
                    // Rings of candidate spots around the anchor, nearest first.
                    let offsets = [
                        (0.0, -34.0),
                        (34.0, -30.0),
                        (-34.0, -30.0),
                        (44.0, 0.0),
                        (-44.0, 0.0),
                        (0.0, 34.0),
                        (0.0, -56.0),
                        (56.0, -50.0),
                        (-56.0, -50.0),
                        (70.0, 0.0),
                        (-70.0, 0.0),
                        (0.0, 56.0),
                    ];
                    offsets.into_iter().find_map(|(dx, dy)| {
                        let (cx, cy) = (at.0 + dx, at.1 + dy);
                        let b = BBox {
                            x: cx - tw / 2.0,
                            y: cy - size / 2.0,
                            w: tw,
                            h: size,
                        };
                        let inside = b.x >= area.x
                            && b.y >= area.y
                            && b.right() <= area.right()
                            && b.bottom() <= area.bottom();
                        let from = nearest(&b.grown(2.0), at);
                        (inside && occupied.free(&b) && occupied.clear_path(from, at, &mark.bbox))
                            .then_some((b, from, at, (pi, mi)))
                    })
                });
                let Some((b, from, at, mark)) = placed else {
                    break;
                };
                pointed.push(mark);
                out.text(text, b.x, b.y, size, NOTE_COLOR, r#" font-style="italic""#);
                out.arrow(from, at);
                occupied.boxes.push(b);
                annotations.push(text);
            }
        }
        if footnote.is_none() && watermark.is_none() && annotations.is_empty() {
            return None;
        }
        let mut svg_out = String::with_capacity(svg.len() + out.elements.len());
        svg_out.push_str(&svg[..close]);
        svg_out.push_str(&out.elements);
        svg_out.push_str(&svg[close..]);
        let mut applied = Applied::new(SvgEdit {
            svg: svg_out,
            extra_text: out.boxes,
        });
        if let Some(f) = footnote {
            applied = applied.param("footnote", f);
        }
        if let Some(w) = watermark {
            applied = applied.param("watermark", w);
        }
        if !annotations.is_empty() {
            applied = applied.param("annotations", annotations);
        }
        applied.pointed = pointed;
        Some(applied)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::ChartKind;
    use crate::perturb::util::testing;

    fn charts() -> Vec<(String, Scene)> {
        let mut specs = vec![
            testing::bar(),
            testing::grouped_years(),
            testing::lines(),
            testing::shares(),
        ];
        let mut horizontal = testing::bar();
        horizontal.panels_mut()[0].kind = ChartKind::HorizontalBar;
        specs.push(horizontal);
        let mut pie = testing::shares();
        pie.panels_mut()[0].kind = ChartKind::Pie;
        specs.push(pie);
        specs
            .iter()
            .map(|s| crate::render::render_svg(s).unwrap())
            .collect()
    }

    #[test]
    fn adds_recorded_text_before_the_closing_tag() {
        let (svg, scene) = &charts()[1];
        // The mildest level: a remark and a watermark.
        let one = Clutter.apply_svg(svg, scene, 1, 3).unwrap();
        assert_eq!(one.value.extra_text.len(), 2);
        let five = Clutter.apply_svg(svg, scene, 5, 3).unwrap();
        assert_eq!(five.value.extra_text.len(), 5);
        assert!(five.value.svg.trim_end().ends_with("</svg>"));
        assert_eq!(
            five.value.svg.matches("<text").count(),
            svg.matches("<text").count() + 5
        );
        assert_eq!(five.params["annotations"].as_array().unwrap().len(), 3);
        for tb in &five.value.extra_text {
            assert!(!tb.text.chars().any(|c| c.is_ascii_digit()));
        }
        // Seeded: same seed, same text.
        assert_eq!(Clutter.apply_svg(svg, scene, 5, 3), Some(five));
    }

    #[test]
    fn added_text_lies_in_free_space_with_an_arrow_per_note() {
        for (k, (svg, scene)) in charts().iter().enumerate() {
            let occupied = Occupied::of(scene);
            for seed in 0..12 {
                let edit = Clutter.apply_svg(svg, scene, 5, seed).unwrap();
                let watermark = edit.params["watermark"].as_str().unwrap();
                let notes = edit
                    .params
                    .get("annotations")
                    .map_or(0, |a| a.as_array().unwrap().len());
                assert_eq!(
                    edit.value.svg.matches("<polygon").count() - svg.matches("<polygon").count(),
                    notes
                );
                for tb in edit.value.extra_text.iter().filter(|t| t.text != watermark) {
                    assert!(
                        occupied.free(&tb.bbox),
                        "chart {k} seed {seed}: {tb:?} covers the chart"
                    );
                    let b = tb.bbox;
                    assert!(
                        b.x >= 0.0
                            && b.y >= 0.0
                            && b.right() <= scene.width as f32
                            && b.bottom() <= scene.height as f32
                    );
                }
                // Added texts do not overlap one another.
                let texts: Vec<&TextBox> = edit
                    .value
                    .extra_text
                    .iter()
                    .filter(|t| t.text != watermark)
                    .collect();
                for (i, a) in texts.iter().enumerate() {
                    for b in &texts[i + 1..] {
                        assert!(!a.bbox.intersects(&b.bbox), "chart {k} seed {seed}");
                    }
                }
            }
        }
    }

    #[test]
    fn parses_with_usvg() {
        let (svg, scene) = &charts()[2];
        let edit = Clutter.apply_svg(svg, scene, 5, 1).unwrap();
        resvg::usvg::Tree::from_str(&edit.value.svg, &resvg::usvg::Options::default())
            .expect("valid svg");
    }
}
