//! Small rotation about the centre (seeded direction). The canvas grows to
//! hold the whole rotated chart, so no corner tick label is cut off; the new
//! corners take the background colour. The `image` crate rotates only by
//! right angles, so this samples bilinearly itself.

use image::{Rgb, RgbImage};
use rand::RngExt;

use super::util::{decode_rgb, encode_png};
use super::{AnswerEffect, Applied, Info, PerturbError, Perturbation, Stage};

pub struct Rotation;

const DEGREES: [f32; 5] = [1.0, 2.0, 3.0, 4.5, 6.0];

/// The most frequent colour along the image border: the figure background
/// even when some ink reaches a corner.
fn background(img: &RgbImage) -> Rgb<u8> {
    let (w, h) = img.dimensions();
    let mut counts: std::collections::BTreeMap<[u8; 3], usize> = Default::default();
    let border = (0..w)
        .flat_map(|x| [(x, 0), (x, h - 1)])
        .chain((0..h).flat_map(|y| [(0, y), (w - 1, y)]));
    for (x, y) in border {
        *counts.entry(img.get_pixel(x, y).0).or_default() += 1;
    }
    // Ties go to the lightest colour, deterministically.
    let best = counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)))
        .map_or([255, 255, 255], |(c, _)| c);
    Rgb(best)
}

fn rotate(img: &RgbImage, degrees: f32) -> RgbImage {
    let (w, h) = img.dimensions();
    let fill = background(img);
    let (cx, cy) = (w as f32 / 2.0, h as f32 / 2.0);
    let (sin, cos) = degrees.to_radians().sin_cos();
    // Bounding box of the rotated image plus a pixel of air for the blended
    // edge, grown by the same amount on both sides so the centre stays put.
    let (ac, as_) = (cos.abs(), sin.abs());
    let grow = |extent: f32, own: u32| -> u32 {
        let need = extent.ceil() as u32;
        own + need.saturating_sub(own).div_ceil(2) * 2 + 2
    };
    let out_w = grow(w as f32 * ac + h as f32 * as_, w);
    let out_h = grow(w as f32 * as_ + h as f32 * ac, h);
    let (ox, oy) = (out_w as f32 / 2.0, out_h as f32 / 2.0);
    let sample = |x: f32, y: f32| -> Rgb<u8> {
        // Half a pixel beyond the edge still blends with the background, so
        // the image border does not end in a hard step.
        if x < -1.0 || y < -1.0 || x > w as f32 || y > h as f32 {
            return fill;
        }
        let px = |xx: i64, yy: i64, c: usize| -> f32 {
            if xx < 0 || yy < 0 || xx >= i64::from(w) || yy >= i64::from(h) {
                f32::from(fill.0[c])
            } else {
                f32::from(img.get_pixel(xx as u32, yy as u32).0[c])
            }
        };
        let (x0, y0) = (x.floor() as i64, y.floor() as i64);
        let (x1, y1) = (x0 + 1, y0 + 1);
        let (fx, fy) = (x - x0 as f32, y - y0 as f32);
        let mut out = [0u8; 3];
        for (c, o) in out.iter_mut().enumerate() {
            let p = |xx, yy| px(xx, yy, c);
            let top = p(x0, y0) * (1.0 - fx) + p(x1, y0) * fx;
            let bottom = p(x0, y1) * (1.0 - fx) + p(x1, y1) * fx;
            *o = (top * (1.0 - fy) + bottom * fy).round() as u8;
        }
        Rgb(out)
    };
    RgbImage::from_fn(out_w, out_h, |x, y| {
        // Inverse mapping: where in the source does this output pixel come from.
        let (dx, dy) = (x as f32 + 0.5 - ox, y as f32 + 0.5 - oy);
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
        let out = rotate(&img, degrees);
        Ok(Some(
            Applied::new(encode_png("rotation", &out)?)
                .param("degrees", f64::from(degrees))
                .param("width", out.width())
                .param("height", out.height()),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let png = encode_png("test", &corners()).unwrap();
        let a = Rotation.apply_image(&png, 5, 7).unwrap().unwrap();
        assert_eq!(a, Rotation.apply_image(&png, 5, 7).unwrap().unwrap());
        let img = image::load_from_memory(&a.value).unwrap();
        assert_eq!(a.params["width"], img.width());
        assert_eq!(a.params["height"], img.height());
    }
}
