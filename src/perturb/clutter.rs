//! Clutter: a source footnote, a watermark and annotations written onto the
//! rendered SVG (the renderer has no annotation hook), each recorded in the
//! Scene's `extra_text` so descriptive questions see exactly what is drawn.
//! The texts carry no numbers, so they cannot be mistaken for data.

use rand::RngExt;

use super::{AnswerEffect, Applied, Info, Perturbation, Stage, SvgEdit};
use crate::ir::{BBox, Scene, TextBox};

pub struct Clutter;

const FOOTNOTES: [&str; 4] = [
    "Source: internal statistics office",
    "Source: national survey, compiled by the editors",
    "Note: figures are provisional and subject to revision",
    "Source: annual report, see methodology notes",
];
const WATERMARKS: [&str; 3] = ["DRAFT", "SAMPLE", "CONFIDENTIAL"];
const ANNOTATIONS: [&str; 5] = [
    "preliminary",
    "estimate",
    "revised series",
    "see note",
    "break in series",
];

/// Approximate advance of DejaVu Sans glyphs, for recorded boxes.
const EM_ADVANCE: f32 = 0.6;

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

struct Writer {
    elements: String,
    boxes: Vec<TextBox>,
}

impl Writer {
    fn text(&mut self, text: &str, x: f32, y: f32, size: f32, fill: &str, extra: &str) {
        let w = text.chars().count() as f32 * size * EM_ADVANCE;
        self.elements.push_str(&format!(
            r#"<text x="{x:.1}" y="{y:.1}" font-family="DejaVu Sans" font-size="{size:.1}" fill="{fill}"{extra}>{}</text>"#,
            escape(text)
        ));
        self.boxes.push(TextBox {
            text: text.to_string(),
            bbox: BBox {
                x,
                y: y - size,
                w,
                h: size * 1.2,
            },
        });
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
                "source footnote below the chart",
                "footnote and a faint watermark",
                "footnote, faint watermark, one annotation in the plot",
                "footnote, stronger watermark, two annotations",
                "footnote, strong watermark, three annotations",
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
        let footnote = FOOTNOTES[rng.random_range(0..FOOTNOTES.len())];
        out.text(footnote, 8.0, h - 6.0, 10.0, "#555555", "");
        let mut watermark = None;
        if level >= 1 {
            let text = WATERMARKS[rng.random_range(0..WATERMARKS.len())];
            let opacity = [0.0, 0.12, 0.12, 0.22, 0.35][level];
            let size = (w.min(h) / 6.0).round();
            let tw = text.chars().count() as f32 * size * EM_ADVANCE;
            let (x, y) = ((w - tw) / 2.0, h / 2.0 + size / 3.0);
            out.text(
                text,
                x,
                y,
                size,
                "#888888",
                &format!(
                    r#" fill-opacity="{opacity}" transform="rotate(-30 {:.1} {:.1})""#,
                    w / 2.0,
                    h / 2.0
                ),
            );
            watermark = Some(text);
        }
        let notes = [0, 0, 1, 2, 3][level];
        let mut annotations = Vec::new();
        if notes > 0 {
            let area = scene.panels.first().map_or(
                BBox {
                    x: 0.0,
                    y: 0.0,
                    w,
                    h,
                },
                |p| p.plot_area,
            );
            for i in 0..notes {
                let text = ANNOTATIONS[rng.random_range(0..ANNOTATIONS.len())];
                let fx: f32 = rng.random_range(0.05..0.7);
                let x = area.x + area.w * fx;
                let y = area.y + 14.0 + i as f32 * 18.0;
                out.text(text, x, y, 11.0, "#aa3333", r#" font-style="italic""#);
                annotations.push(text);
            }
        }
        let mut svg_out = String::with_capacity(svg.len() + out.elements.len());
        svg_out.push_str(&svg[..close]);
        svg_out.push_str(&out.elements);
        svg_out.push_str(&svg[close..]);
        let mut applied = Applied::new(SvgEdit {
            svg: svg_out,
            extra_text: out.boxes,
        })
        .param("footnote", footnote);
        if let Some(w) = watermark {
            applied = applied.param("watermark", w);
        }
        if !annotations.is_empty() {
            applied = applied.param("annotations", annotations);
        }
        Some(applied)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scene() -> Scene {
        Scene {
            width: 400,
            height: 300,
            title: None,
            grid: (1, 1),
            panels: Vec::new(),
            kpis: Vec::new(),
            paragraph: None,
            extra_text: Vec::new(),
        }
    }

    #[test]
    fn adds_recorded_text_before_the_closing_tag() {
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"></svg>"#;
        let one = Clutter.apply_svg(svg, &scene(), 1, 3).unwrap();
        assert_eq!(one.value.extra_text.len(), 1);
        let five = Clutter.apply_svg(svg, &scene(), 5, 3).unwrap();
        assert_eq!(five.value.extra_text.len(), 5);
        assert!(five.value.svg.ends_with("</svg>"));
        assert_eq!(five.value.svg.matches("<text").count(), 5);
        for tb in &five.value.extra_text {
            assert!(!tb.text.chars().any(|c| c.is_ascii_digit()));
        }
        // Seeded: same seed, same text.
        assert_eq!(Clutter.apply_svg(svg, &scene(), 5, 3), Some(five));
    }

    #[test]
    fn parses_with_usvg() {
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"></svg>"#;
        let edit = Clutter.apply_svg(svg, &scene(), 5, 1).unwrap();
        resvg::usvg::Tree::from_str(&edit.value.svg, &resvg::usvg::Options::default())
            .expect("valid svg");
    }
}
