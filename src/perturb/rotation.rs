//! Small rotation about the centre (seeded direction). The canvas grows to
//! hold the whole rotated chart, so no corner tick label is cut off; the new
//! corners take the background colour. The `image` crate rotates only by
//! right angles, so this samples bilinearly itself.

use chartstress_pixels::rotate::rotate;
use image::RgbImage;
use rand::RngExt;

use super::{AnswerEffect, Applied, Info, PerturbError, Perturbation, Stage};

pub struct Rotation;

const DEGREES: [f32; 5] = [1.0, 2.0, 3.0, 4.5, 6.0];

impl Perturbation for Rotation {
    fn info(&self) -> Info {
        Info {
            name: "rotation",
            axis: "image",
            stage: Stage::Image,
            effect: AnswerEffect::Preserving,
            ladder: [
                "rotated ±1°, canvas enlarged so nothing is cut off",
                "rotated ±2°",
                "rotated ±3°",
                "rotated ±4.5°",
                "rotated ±6°",
            ],
        }
    }

    fn apply_image(
        &self,
        img: &RgbImage,
        severity: u8,
        seed: u64,
    ) -> Result<Option<Applied<RgbImage>>, PerturbError> {
        let magnitude = DEGREES[super::level("rotation", severity)?];
        let sign = if crate::seed::rng(seed, &["rotation"]).random_bool(0.5) {
            1.0
        } else {
            -1.0
        };
        let degrees = magnitude * sign;
        let out = rotate(img, degrees);
        let (width, height) = out.dimensions();
        Ok(Some(
            Applied::new(out)
                .param("degrees", f64::from(degrees))
                .param("width", width)
                .param("height", height),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    fn dark(img: &RgbImage) -> usize {
        img.pixels()
            .filter(|p| p.0.iter().all(|c| *c < 100))
            .count()
    }

    /// Ink right up to every corner, as corner tick labels are.
    fn corners() -> RgbImage {
        RgbImage::from_fn(200, 120, |x, y| {
            let near = |v: u32, n: u32| v < 12 || v >= n - 12;
            if near(x, 200) && near(y, 120) {
                Rgb([0, 0, 0])
            } else {
                Rgb([255, 255, 255])
            }
        })
    }

    #[test]
    fn nothing_is_cut_off() {
        let img = corners();
        for degrees in [1.0, -3.0, 6.0, -6.0] {
            let out = rotate(&img, degrees);
            assert!(out.width() > img.width() && out.height() > img.height());
            // Dark ink is kept (bilinear sampling only softens its edges).
            let (a, b) = (dark(&img) as f64, dark(&out) as f64);
            assert!((b - a).abs() <= a * 0.2, "{degrees}°: {a} → {b}");
            // The border rows and columns are pure background.
            let (w, h) = out.dimensions();
            let white = |x: u32, y: u32| out.get_pixel(x, y).0 == [255, 255, 255];
            assert!((0..w).all(|x| white(x, 0) && white(x, h - 1)), "{degrees}°");
            assert!((0..h).all(|y| white(0, y) && white(w - 1, y)), "{degrees}°");
        }
    }

    #[test]
    fn records_the_new_size_and_is_deterministic() {
        let png = crate::perturb::util::encode_png("test", &corners()).unwrap();
        let a = crate::perturb::apply_image_png(&Rotation, &png, 5, 7)
            .unwrap()
            .unwrap();
        assert_eq!(
            a,
            crate::perturb::apply_image_png(&Rotation, &png, 5, 7)
                .unwrap()
                .unwrap()
        );
        let img = image::load_from_memory(&a.value).unwrap();
        assert_eq!(a.params["width"], img.width());
        assert_eq!(a.params["height"], img.height());
    }
}
