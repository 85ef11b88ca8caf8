//! `image`'s resampling, PNG encoding and JPEG coding for RGB pictures, instantiated
//! here (generic code is compiled in the crate that calls it, and this one
//! is built optimized in the test profile).

use image::RgbImage;
use image::imageops::FilterType;

pub fn resize(img: &RgbImage, width: u32, height: u32, filter: FilterType) -> RgbImage {
    image::imageops::resize(img, width, height, filter)
}

pub fn blur(img: &RgbImage, sigma: f32) -> RgbImage {
    image::imageops::blur(img, sigma)
}

/// The picture encoded as JPEG at `quality` and decoded again.
pub fn jpeg_round_trip(img: &RgbImage, quality: u8) -> Result<RgbImage, image::ImageError> {
    let mut jpeg = std::io::Cursor::new(Vec::new());
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, quality).encode_image(img)?;
    Ok(image::load_from_memory(jpeg.get_ref())?.to_rgb8())
}

/// PNG with fast compression and the adaptive filter: ~5× faster than the
/// default level for about twice the size. Every PNG the tool writes (charts
/// and perturbed images) goes through here.
pub fn fast_png(
    data: &[u8],
    w: u32,
    h: u32,
    color: image::ExtendedColorType,
) -> Result<Vec<u8>, image::ImageError> {
    use image::ImageEncoder;
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    let mut out = Vec::with_capacity(64 * 1024);
    PngEncoder::new_with_quality(&mut out, CompressionType::Fast, FilterType::Adaptive)
        .write_image(data, w, h, color)?;
    Ok(out)
}
