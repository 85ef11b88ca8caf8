//! Seeded Gaussian pixel noise of increasing strength.

use super::{AnswerEffect, Applied, Info, PerturbError, Perturbation, Stage};
use image::RgbImage;

pub struct Noise;

const SIGMA: [f32; 5] = [4.0, 8.0, 14.0, 22.0, 32.0];

impl Perturbation for Noise {
    fn info(&self) -> Info {
        Info {
            name: "noise",
            axis: "image",
            stage: Stage::Image,
            effect: AnswerEffect::Preserving,
            ladder: [
                "Gaussian noise σ=4 (of 255)",
                "Gaussian noise σ=8",
                "Gaussian noise σ=14",
                "Gaussian noise σ=22",
                "Gaussian noise σ=32",
            ],
        }
    }

    fn apply_image(
        &self,
        img: &RgbImage,
        severity: u8,
        seed: u64,
    ) -> Result<Option<Applied<RgbImage>>, PerturbError> {
        let sigma = SIGMA[super::level("noise", severity)?];
        let mut img = img.clone();
        chartstress_pixels::noise::gaussian(
            &mut img,
            sigma,
            &mut crate::seed::rng(seed, &["noise"]),
        );
        Ok(Some(Applied::new(img).param("sigma", f64::from(sigma))))
    }
}
