//! JPEG compression artefacts: encoded at decreasing quality, stored back as PNG.

use std::io::Cursor;

use image::codecs::jpeg::JpegEncoder;

use super::util::{decode_rgb, encode_png};
use super::{AnswerEffect, Applied, Info, PerturbError, Perturbation, Stage};

pub struct Jpeg;

const QUALITY: [u8; 5] = [85, 60, 40, 25, 12];

impl Perturbation for Jpeg {
    fn info(&self) -> Info {
        Info {
            name: "jpeg",
            axis: "image",
            stage: Stage::Image,
            effect: AnswerEffect::Preserving,
            ladder: [
                "JPEG quality 85",
                "JPEG quality 60",
                "JPEG quality 40",
                "JPEG quality 25",
                "JPEG quality 12",
            ],
        }
    }

    fn apply_image(
        &self,
        png: &[u8],
        severity: u8,
        _seed: u64,
    ) -> Result<Option<Applied<Vec<u8>>>, PerturbError> {
        let quality = QUALITY[super::level("jpeg", severity)?];
        let img = decode_rgb("jpeg", png)?;
        let mut jpeg = Cursor::new(Vec::new());
        JpegEncoder::new_with_quality(&mut jpeg, quality)
            .encode_image(&img)
            .map_err(|source| PerturbError::Encode {
                name: "jpeg",
                source,
            })?;
        let back = decode_rgb("jpeg", jpeg.get_ref())?;
        Ok(Some(
            Applied::new(encode_png("jpeg", &back)?).param("quality", quality),
        ))
    }
}
