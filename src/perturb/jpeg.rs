//! JPEG compression artefacts: encoded at decreasing quality, stored back as PNG.

use super::{AnswerEffect, Applied, Info, PerturbError, Perturbation, Stage};
use image::RgbImage;

pub struct Jpeg;

// Down to quality about 15 a chart's flat fills and crisp text look
// untouched to a person at normal size (outside readers saw no change at
// 25): the mildest level is one they see. JPEG's error does not fall evenly with quality on
// blocky pictures; these steps grow on the test chart.
const QUALITY: [u8; 5] = [14, 13, 12, 9, 5];

impl Perturbation for Jpeg {
    fn info(&self) -> Info {
        Info {
            name: "jpeg",
            axis: "image",
            stage: Stage::Image,
            effect: AnswerEffect::Preserving,
            ladder: [
                "JPEG quality 14",
                "JPEG quality 13",
                "JPEG quality 12",
                "JPEG quality 9",
                "JPEG quality 5",
            ],
        }
    }

    fn apply_image(
        &self,
        img: &RgbImage,
        severity: u8,
        _seed: u64,
    ) -> Result<Option<Applied<RgbImage>>, PerturbError> {
        let quality = QUALITY[super::level("jpeg", severity)?];
        let back =
            chartstress_pixels::resample::jpeg_round_trip(img, quality).map_err(|source| {
                PerturbError::Encode {
                    name: "jpeg",
                    source,
                }
            })?;
        Ok(Some(Applied::new(back).param("quality", quality)))
    }
}
