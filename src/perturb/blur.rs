//! Gaussian blur of increasing radius.

use super::util::{decode_rgb, encode_png};
use super::{AnswerEffect, Applied, Info, PerturbError, Perturbation, Stage};

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
        png: &[u8],
        severity: u8,
        _seed: u64,
    ) -> Result<Option<Applied<Vec<u8>>>, PerturbError> {
        let sigma = SIGMA[super::level("blur", severity)?];
        let img = decode_rgb("blur", png)?;
        let blurred = image::imageops::blur(&img, sigma);
        Ok(Some(
            Applied::new(encode_png("blur", &blurred)?).param("sigma", f64::from(sigma)),
        ))
    }
}
