//! Downscaling: the image shrunk and scaled back to its size, so the Scene's
//! pixel coordinates stay valid while detail is lost.

use image::imageops::{FilterType, resize};

use super::util::{decode_rgb, encode_png};
use super::{AnswerEffect, Applied, Info, PerturbError, Perturbation, Stage};

pub struct Downscale;

const FACTOR: [f32; 5] = [0.75, 0.6, 0.5, 0.4, 0.3];

impl Perturbation for Downscale {
    fn info(&self) -> Info {
        Info {
            name: "downscale",
            axis: "image",
            stage: Stage::Image,
            effect: AnswerEffect::Preserving,
            ladder: [
                "shrunk to 75% and scaled back",
                "shrunk to 60% and scaled back",
                "shrunk to 50% and scaled back",
                "shrunk to 40% and scaled back",
                "shrunk to 30% and scaled back",
            ],
        }
    }

    fn apply_image(
        &self,
        png: &[u8],
        severity: u8,
        _seed: u64,
    ) -> Result<Option<Applied<Vec<u8>>>, PerturbError> {
        let factor = FACTOR[super::level("downscale", severity)?];
        let img = decode_rgb("downscale", png)?;
        let (w, h) = img.dimensions();
        let small_w = ((w as f32 * factor).round() as u32).max(1);
        let small_h = ((h as f32 * factor).round() as u32).max(1);
        let small = resize(&img, small_w, small_h, FilterType::Triangle);
        let back = resize(&small, w, h, FilterType::Triangle);
        Ok(Some(
            Applied::new(encode_png("downscale", &back)?).param("factor", f64::from(factor)),
        ))
    }
}
