//! JPEG compression artefacts: encoded at decreasing quality, stored back as PNG.

use super::{AnswerEffect, Applied, Info, PerturbError, Perturbation, Stage};
use image::RgbImage;

pub struct Jpeg;

// Quality 60 and above leaves a chart's flat fills and crisp text looking
// untouched to a person at normal size: the mildest level is visible.
const QUALITY: [u8; 5] = [40, 25, 15, 10, 6];

impl Perturbation for Jpeg {
    fn info(&self) -> Info {
        Info {
            name: "jpeg",
            axis: "image",
            stage: Stage::Image,
            effect: AnswerEffect::Preserving,
            ladder: [
                "JPEG quality 40",
                "JPEG quality 25",
                "JPEG quality 15",
                "JPEG quality 10",
                "JPEG quality 6",
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
