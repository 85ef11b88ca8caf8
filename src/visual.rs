//! Visual distance between an original chart image and a modified one: how
//! different the two pictures look, measured on the pixels (not the specs).
//!
//! The metric is `1 − MSSIM`: the structural similarity index (SSIM, Wang et
//! al. 2004) computed per colour channel on 8×8 windows as the
//! `image-compare` crate's `MSSIMSimple` does (reimplemented without the
//! similarity image it also builds; a test checks the bits against the
//! crate), averaged over the windows, and the least similar channel taken
//! — so a pure hue change (a palette swap at equal lightness) still counts. 0 means pixel-identical; charts that differ only in a tick
//! label measure about 0.002–0.01, a theme swap 0.1–0.4, a rotation 0.3+.
//! Both images are first brought to the viewing scale SSIM's authors
//! recommend (downsampled by `round(min(w, h) / 256)`, so 2 for an 800×600
//! chart). A modified image of another size (a rotation that grew the
//! canvas) is brought to the original's view size too, so every distance
//! compares the same frame the model would see.

use image::RgbImage;

use chartstress_pixels::boxmean::{Source, blocks, box_means};
use chartstress_pixels::resample::resize;
use chartstress_pixels::ssim::mssim_rgb as mssim;
use image::imageops::FilterType;

/// Below this distance a variant is a no-op: nothing a model could notice
/// changed, so it is redrawn with another perturbation. One changed glyph in
/// an 800×600 chart measures ≈0.0005; pixel-identical images measure 0.
pub const MIN_VISIBLE: f64 = 0.0005;

#[derive(Debug, thiserror::Error)]
pub enum VisualError {
    #[error("cannot decode the {which} image: {source}")]
    Decode {
        which: &'static str,
        source: image::ImageError,
    },
    #[error("cannot compare the images: {0}")]
    Compare(String),
}

/// `1 − MSSIM` of two PNG images (see the module doc), rounded to 4 decimals
/// so the stored figure does not depend on floating-point summation noise.
pub fn distance(original_png: &[u8], modified_png: &[u8]) -> Result<f64, VisualError> {
    let original = View::of(&decode("original", original_png)?);
    let modified = original.framed(&decode("modified", modified_png)?);
    Ok(original.distance_to(&modified))
}

/// [`distance`] on decoded images.
pub fn image_distance(original: &RgbImage, modified: &RgbImage) -> f64 {
    let original = View::of(original);
    original.distance_to(&original.framed(modified))
}

/// A picture at the viewing scale, with the size it was taken at: what
/// distances compare. Made once per chart, it serves every comparison the
/// chart is in, and is a sixteenth of the picture's memory.
#[derive(Debug, Clone)]
pub struct View {
    size: (u32, u32),
    image: RgbImage,
}

fn decode(which: &'static str, png: &[u8]) -> Result<RgbImage, VisualError> {
    chartstress_pixels::resample::decode_rgb(png)
        .map_err(|source| VisualError::Decode { which, source })
}

impl View {
    pub fn of(full: &RgbImage) -> View {
        View {
            size: full.dimensions(),
            image: at_viewing_scale(full),
        }
    }

    /// The view of rendered pixels (alpha dropped, as decoding to RGB does),
    /// taken without copying the full picture.
    pub fn of_pixels(pixels: &crate::render::Pixels) -> View {
        let source = if pixels.has_alpha {
            Source::RgbaDropAlpha(&pixels.data)
        } else {
            Source::Rgb(&pixels.data)
        };
        let (w, h) = (pixels.width, pixels.height);
        View {
            size: (w, h),
            image: box_downsample(source, w, h, viewing_factor(w, h)),
        }
    }

    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// The view of `modified` in this view's frame: brought to this
    /// picture's size first when it has another (a rotation grew it).
    pub fn framed(&self, modified: &RgbImage) -> View {
        if modified.dimensions() == self.size {
            return View::of(modified);
        }
        // Block means first, by the largest factor that keeps the picture at
        // least the view's size, then one small triangle resample: the same
        // frame as resampling the full picture, at a fraction of the cost.
        let (vw, vh) = self.image.dimensions();
        let (mw, mh) = modified.dimensions();
        let factor = (mw / vw.max(1)).min(mh / vh.max(1)).max(1);
        let reduced = if factor > 1 {
            box_downsample(Source::Rgb(modified.as_raw()), mw, mh, factor)
        } else {
            modified.clone()
        };
        let image = if reduced.dimensions() == (vw, vh) {
            reduced
        } else {
            resize(&reduced, vw, vh, FilterType::Triangle)
        };
        View {
            size: self.size,
            image,
        }
    }

    /// `1 − MSSIM` from this view to another of the same frame (see [`View::framed`]).
    pub fn distance_to(&self, modified: &View) -> f64 {
        if self.image.as_raw() == modified.image.as_raw() {
            return 0.0;
        }
        let similarity = mssim_rgb(&self.image, &modified.image);
        let d = (1.0 - similarity).clamp(0.0, 2.0);
        if !d.is_finite() {
            return 1.0;
        }
        // Round up so a real but tiny change never rounds to 0.
        let rounded = (d * 10_000.0).ceil() / 10_000.0;
        if d > 0.0 { rounded.max(0.0001) } else { 0.0 }
    }
}

/// `image-compare`'s `MSSIMSimple` score of two pictures (see
/// [`chartstress_pixels::ssim::mssim_rgb`]); pictures of different sizes
/// score 0, as the crate's error did.
fn mssim_rgb(a: &RgbImage, b: &RgbImage) -> f64 {
    if a.dimensions() != b.dimensions() {
        return 0.0;
    }
    mssim(
        a.as_raw(),
        b.as_raw(),
        a.width() as usize,
        a.height() as usize,
    )
}

/// The image at the scale SSIM's authors recommend for a typical viewing
/// distance: downsampled by `max(1, round(min(w, h) / 256))` with an
/// averaging filter. Without it pixel noise on a flat background, which a
/// viewer barely notices, would outweigh a changed theme.
fn at_viewing_scale(img: &RgbImage) -> RgbImage {
    let (w, h) = img.dimensions();
    let factor = viewing_factor(w, h);
    if factor == 1 {
        return img.clone();
    }
    box_downsample(Source::Rgb(img.as_raw()), w, h, factor)
}

/// SSIM's recommended viewing scale: `round(min(w, h) / 256)`, at least 1.
fn viewing_factor(w: u32, h: u32) -> u32 {
    (f64::from(w.min(h)) / 256.0).round().max(1.0) as u32
}

/// Mean of each `factor`×`factor` block (edges that do not fill a block are
/// dropped); factor 1 is a plain copy.
fn box_downsample(source: Source, w: u32, h: u32, factor: u32) -> RgbImage {
    let f = factor as usize;
    let (xs, ys) = (blocks(w as usize, f), blocks(h as usize, f));
    let out = box_means(source, w as usize, &xs, &ys);
    RgbImage::from_raw(xs.len() as u32, ys.len() as u32, out).expect("buffer sized for the output")
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    fn chart(bar_height: u32, color: Rgb<u8>) -> RgbImage {
        RgbImage::from_fn(200, 150, |x, y| {
            if (40..70).contains(&x) && y >= 140 - bar_height && y < 140 {
                color
            } else if y == 140 {
                Rgb([0, 0, 0])
            } else {
                Rgb([255, 255, 255])
            }
        })
    }

    #[test]
    fn identical_images_are_at_zero() {
        let a = chart(60, Rgb([31, 119, 180]));
        assert_eq!(image_distance(&a, &a.clone()), 0.0);
    }

    #[test]
    fn a_small_change_is_visible_and_a_larger_one_is_farther() {
        let a = chart(60, Rgb([31, 119, 180]));
        let small = chart(62, Rgb([31, 119, 180]));
        let large = chart(120, Rgb([31, 119, 180]));
        let d_small = image_distance(&a, &small);
        let d_large = image_distance(&a, &large);
        assert!(d_small >= MIN_VISIBLE, "{d_small}");
        assert!(d_large > d_small, "{d_large} vs {d_small}");
    }

    #[test]
    fn a_hue_change_at_equal_lightness_counts() {
        let a = chart(60, Rgb([200, 60, 60]));
        let b = chart(60, Rgb([60, 60, 200]));
        assert!(image_distance(&a, &b) > 0.01);
    }

    #[test]
    fn other_sizes_are_compared_in_the_original_frame() {
        let a = chart(60, Rgb([31, 119, 180]));
        let bigger = resize(&a, 260, 200, FilterType::Triangle);
        let d = image_distance(&a, &bigger);
        assert!(d.is_finite() && d > 0.0);
    }

    #[test]
    fn block_means_match_a_direct_average() {
        let img = RgbImage::from_fn(7, 5, |x, y| Rgb([(x * 30) as u8, (y * 50) as u8, 7]));
        let small = box_downsample(Source::Rgb(img.as_raw()), img.width(), img.height(), 2);
        assert_eq!(small.dimensions(), (3, 2));
        let p = small.get_pixel(1, 1);
        // Block x 2..4, y 2..4: red (60+90+60+90)/4, green (100+100+150+150)/4.
        assert_eq!(p.0, [75, 125, 7]);
    }

    #[test]
    fn mssim_gives_image_compares_bits() {
        // Odd sizes (clipped windows), colours, noise-like content.
        let a = RgbImage::from_fn(53, 37, |x, y| {
            Rgb([(x * 7 + y * 3) as u8, (x * y % 251) as u8, (200 - x) as u8])
        });
        let mut b = a.clone();
        for (i, p) in b.pixels_mut().enumerate() {
            if i % 7 == 0 {
                p.0[i % 3] = p.0[i % 3].wrapping_add(40);
            }
        }
        // A change in one corner only: most windows are identical.
        let mut c = a.clone();
        for y in 3..12 {
            for x in 40..50 {
                c.put_pixel(x, y, Rgb([255, 0, 0]));
            }
        }
        for (x, y) in [(&a, &b), (&b, &a), (&a, &a), (&a, &c), (&c, &b)] {
            let crate_score = image_compare::rgb_similarity_structure(
                &image_compare::Algorithm::MSSIMSimple,
                x,
                y,
            )
            .unwrap()
            .score;
            assert_eq!(mssim_rgb(x, y).to_bits(), crate_score.to_bits());
        }
    }

    #[test]
    fn undecodable_images_are_errors() {
        assert!(distance(b"nope", b"nope").is_err());
    }
}
