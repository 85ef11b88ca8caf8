//! Gaussian pixel noise.

use image::RgbImage;
use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Adds independent normal noise of standard deviation `sigma` (of 255) to
/// every channel of every pixel, drawn from `rng` in pixel order.
pub fn gaussian(img: &mut RgbImage, sigma: f32, rng: &mut Xoshiro256PlusPlus) {
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
}
