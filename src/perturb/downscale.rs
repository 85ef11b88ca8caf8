//! Downscaling: the image shrunk and scaled back to its size, so the Scene's
//! pixel coordinates stay valid while detail is lost.
//!
//! The ladder stops where chart text stops being legible: the readability
//! gate (`reader::View::legible`) needs a text box at least 7 px high after
//! scaling, and the smallest text of the built-in themes is 11 px (ticks of
//! `paper`, `minimal`, `spreadsheet`), which 0.64 keeps at 7 px. Smaller text
//! (10 px value labels, or text already shrunk by `font_size`) falls below
//! that at the stronger levels, and the gate drops items that need it.

use chartstress_pixels::resample::resize;
use image::imageops::FilterType;

use super::{AnswerEffect, Applied, Info, PerturbError, Perturbation, Stage};
use image::RgbImage;

pub struct Downscale;

const FACTOR: [f32; 5] = [0.9, 0.78, 0.75, 0.7, 0.64];

impl Perturbation for Downscale {
    fn info(&self) -> Info {
        Info {
            name: "downscale",
            axis: "image",
            stage: Stage::Image,
            effect: AnswerEffect::Preserving,
            ladder: [
                "shrunk to 90% and scaled back",
                "shrunk to 78% and scaled back",
                "shrunk to 75% and scaled back",
                "shrunk to 70% and scaled back",
                "shrunk to 64% and scaled back (11 px theme text stays 7 px high, the legibility limit)",
            ],
        }
    }

    fn apply_image(
        &self,
        img: &RgbImage,
        severity: u8,
        _seed: u64,
    ) -> Result<Option<Applied<RgbImage>>, PerturbError> {
        let factor = FACTOR[super::level("downscale", severity)?];
        let (w, h) = img.dimensions();
        let small_w = ((w as f32 * factor).round() as u32).max(1);
        let small_h = ((h as f32 * factor).round() as u32).max(1);
        let small = resize(img, small_w, small_h, FilterType::Triangle);
        let back = resize(&small, w, h, FilterType::Triangle);
        Ok(Some(Applied::new(back).param("factor", f64::from(factor))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BBox, Perturbation as Record};
    use crate::reader::View;

    /// Every level keeps the smallest theme text legible to the reader.
    #[test]
    fn theme_text_stays_legible_at_every_level() {
        let smallest = crate::spec::builtin_themes()
            .iter()
            .map(|s| s.tick_size.min(s.legend_size).min(s.label_size))
            .fold(f32::INFINITY, f32::min);
        for factor in FACTOR {
            let record = Record {
                axis: "image".into(),
                name: "downscale".into(),
                severity: 5,
                change: Default::default(),
                params: [("factor".to_string(), serde_json::json!(f64::from(factor)))]
                    .into_iter()
                    .collect(),
            };
            let view = View::for_item(&[record], false);
            // Text boxes are one font size high (ascent + descent).
            let text = BBox {
                x: 0.0,
                y: 0.0,
                w: 40.0,
                h: smallest,
            };
            assert!(view.legible(&text), "{factor}: {smallest} px text");
        }
    }
}
