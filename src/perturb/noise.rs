//! Seeded Gaussian pixel noise of increasing strength.

use rand::RngExt;

use super::util::{decode_rgb, encode_png};
use super::{AnswerEffect, Applied, Info, PerturbError, Perturbation, Stage};

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
        png: &[u8],
        severity: u8,
        seed: u64,
    ) -> Result<Option<Applied<Vec<u8>>>, PerturbError> {
        let sigma = SIGMA[super::level("noise", severity)?];
        let mut img = decode_rgb("noise", png)?;
        let mut rng = crate::seed::rng(seed, &["noise"]);
        for px in img.pixels_mut() {
            // Box–Muller: one normal sample per pixel, shared by the channels
            // would look grey, so draw per channel.
            for c in px.0.iter_mut() {
                let u1: f32 = rng.random_range(f32::EPSILON..1.0);
                let u2: f32 = rng.random_range(0.0..1.0);
                let z = (-2.0 * u1.ln()).sqrt() * (std::f32::consts::TAU * u2).cos();
                *c = (f32::from(*c) + z * sigma).round().clamp(0.0, 255.0) as u8;
            }
        }
        Ok(Some(
            Applied::new(encode_png("noise", &img)?).param("sigma", f64::from(sigma)),
        ))
    }
}
