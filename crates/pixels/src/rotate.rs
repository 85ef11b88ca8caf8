//! Rotation by a small angle about the centre, sampled bilinearly onto a
//! canvas grown to hold the whole picture; new corners take the background.

use image::{Rgb, RgbImage};

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

pub fn rotate(img: &RgbImage, degrees: f32) -> RgbImage {
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
            // `round()` of a non-negative f32, without a libm call: adding
            // 0.5 in f64 is exact, and the cast truncates.
            *o = (f64::from(top * (1.0 - fy) + bottom * fy) + 0.5) as u8;
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
