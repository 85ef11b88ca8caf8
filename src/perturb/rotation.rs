//! Small rotation about the centre (seeded direction), corners filled with
//! the corner colour. The `image` crate rotates only by right angles, so this
//! samples bilinearly itself.

use image::{Rgb, RgbImage};
use rand::RngExt;

use super::util::{decode_rgb, encode_png};
use super::{AnswerEffect, Applied, Info, PerturbError, Perturbation, Stage};

pub struct Rotation;

const DEGREES: [f32; 5] = [1.0, 2.0, 3.0, 4.5, 6.0];

fn rotate(img: &RgbImage, degrees: f32) -> RgbImage {
    let (w, h) = img.dimensions();
    let fill = *img.get_pixel(0, 0);
    let (cx, cy) = (w as f32 / 2.0, h as f32 / 2.0);
    let (sin, cos) = degrees.to_radians().sin_cos();
    let sample = |x: f32, y: f32| -> Rgb<u8> {
        if x < 0.0 || y < 0.0 || x > (w - 1) as f32 || y > (h - 1) as f32 {
            return fill;
        }
        let (x0, y0) = (x.floor() as u32, y.floor() as u32);
        let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
        let (fx, fy) = (x - x0 as f32, y - y0 as f32);
        let mut out = [0u8; 3];
        for (c, o) in out.iter_mut().enumerate() {
            let p = |xx, yy| f32::from(img.get_pixel(xx, yy).0[c]);
            let top = p(x0, y0) * (1.0 - fx) + p(x1, y0) * fx;
            let bottom = p(x0, y1) * (1.0 - fx) + p(x1, y1) * fx;
            *o = (top * (1.0 - fy) + bottom * fy).round() as u8;
        }
        Rgb(out)
    };
    RgbImage::from_fn(w, h, |x, y| {
        // Inverse mapping: where in the source does this output pixel come from.
        let (dx, dy) = (x as f32 + 0.5 - cx, y as f32 + 0.5 - cy);
        let sx = cos * dx + sin * dy + cx - 0.5;
        let sy = -sin * dx + cos * dy + cy - 0.5;
        sample(sx, sy)
    })
}

impl Perturbation for Rotation {
    fn info(&self) -> Info {
        Info {
            name: "rotation",
            axis: "image",
            stage: Stage::Image,
            effect: AnswerEffect::Preserving,
            ladder: [
                "rotated ±1°",
                "rotated ±2°",
                "rotated ±3°",
                "rotated ±4.5°",
                "rotated ±6°",
            ],
        }
    }

    fn apply_image(
        &self,
        png: &[u8],
        severity: u8,
        seed: u64,
    ) -> Result<Option<Applied<Vec<u8>>>, PerturbError> {
        let magnitude = DEGREES[super::level("rotation", severity)?];
        let sign = if crate::seed::rng(seed, &["rotation"]).random_bool(0.5) {
            1.0
        } else {
            -1.0
        };
        let degrees = magnitude * sign;
        let img = decode_rgb("rotation", png)?;
        Ok(Some(
            Applied::new(encode_png("rotation", &rotate(&img, degrees))?)
                .param("degrees", f64::from(degrees)),
        ))
    }
}
