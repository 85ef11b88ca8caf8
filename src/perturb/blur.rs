//! Gaussian blur of increasing radius.

use super::{AnswerEffect, Applied, Info, PerturbError, Perturbation, Stage};
use image::RgbImage;

pub struct Blur;

const SIGMA: [f32; 5] = [0.6, 1.0, 1.5, 2.0, 2.8];

impl Perturbation for Blur {
    fn info(&self) -> Info {
        Info {
            name: "blur",
            axis: "image",
            stage: Stage::Image,
            effect: AnswerEffect::Preserving,
            ladder: [
                "Gaussian blur σ=0.6 px",
                "Gaussian blur σ=1.0 px",
                "Gaussian blur σ=1.5 px",
                "Gaussian blur σ=2.0 px",
                "Gaussian blur σ=2.8 px",
            ],
        }
    }

    fn apply_image(
        &self,
        img: &RgbImage,
        severity: u8,
        _seed: u64,
    ) -> Result<Option<Applied<RgbImage>>, PerturbError> {
        let sigma = SIGMA[super::level("blur", severity)?];
        let blurred = chartstress_pixels::resample::blur(img, sigma);
        Ok(Some(Applied::new(blurred).param("sigma", f64::from(sigma))))
    }
}
