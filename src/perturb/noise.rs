//! Seeded Gaussian pixel noise of increasing strength.

use super::{AnswerEffect, Applied, Info, PerturbError, Perturbation, Stage};
use image::RgbImage;

pub struct Noise;

// An outside reader (seed 90271 of the real-table corpus) saw no noise at
// σ=4 without zooming in: the mildest level is one a person sees.
const SIGMA: [f32; 5] = [10.0, 14.0, 18.0, 24.0, 32.0];

impl Perturbation for Noise {
    fn info(&self) -> Info {
        Info {
            name: "noise",
            axis: "image",
            stage: Stage::Image,
            effect: AnswerEffect::Preserving,
            ladder: [
                "Gaussian noise σ=10 (of 255)",
                "Gaussian noise σ=14",
                "Gaussian noise σ=18",
                "Gaussian noise σ=24",
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
