//! How well the image lets a careful reader see: the pixel precision of a
//! reading and the smallest legible text, scaled by the image corruptions an
//! item carries. Scene coordinates stay those of the rendered chart; a
//! corruption makes each of those pixels harder to place.

use crate::ir::{BBox, Perturbation};

/// Precision of one geometric reading on a clean image, in pixels.
pub const BASE_PRECISION_PX: f64 = 1.0;
/// Text whose line box is lower than this (in pixels of the picture as the
/// model sees it) cannot be read reliably.
pub const MIN_TEXT_PX: f64 = 7.0;
/// Precision of a slice's angle read by eye (each edge), in degrees: angles
/// are judged, not measured.
pub const SLICE_ANGLE_DEG: f64 = 3.0;

#[derive(Debug, Clone, PartialEq)]
pub struct View {
    /// ± error of one reading of an edge or a point centre, in scene pixels.
    pub precision_px: f64,
    /// Factor from scene pixels to the pixels that carry detail (downscale).
    pub detail_scale: f64,
    /// Blur radius that eats into text strokes, in scene pixels.
    pub blur_px: f64,
    /// Whether the prompt carries the chart's accompanying paragraph.
    pub paragraph: bool,
}

impl Default for View {
    fn default() -> Self {
        View {
            precision_px: BASE_PRECISION_PX,
            detail_scale: 1.0,
            blur_px: 0.0,
            paragraph: false,
        }
    }
}

fn param(p: &Perturbation, key: &str) -> Option<f64> {
    p.params.get(key).and_then(serde_json::Value::as_f64)
}

impl View {
    /// The view of an item's image given the perturbations applied to it.
    pub fn for_item(perturbations: &[Perturbation], paragraph: bool) -> View {
        let mut view = View {
            paragraph,
            ..View::default()
        };
        for p in perturbations {
            match p.name.as_str() {
                "downscale" => {
                    let f = param(p, "factor").unwrap_or(1.0).clamp(0.05, 1.0);
                    view.detail_scale *= f;
                    view.precision_px /= f;
                }
                "blur" => {
                    let s = param(p, "sigma").unwrap_or(0.0).max(0.0);
                    view.blur_px += s;
                    view.precision_px += s;
                }
                // A tilted image is read against tilted gridlines.
                "rotation" => {
                    let deg = param(p, "degrees").unwrap_or(0.0).abs();
                    view.precision_px += 0.5 * deg;
                }
                "jpeg" | "noise" => view.precision_px += 0.5,
                _ => {}
            }
        }
        view
    }

    /// Whether text in this box can be read.
    pub fn legible(&self, bbox: &BBox) -> bool {
        let h = f64::from(bbox.h) * self.detail_scale - 1.5 * self.blur_px;
        h >= MIN_TEXT_PX
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn pert(name: &str, key: &str, v: f64) -> Perturbation {
        let mut params = BTreeMap::new();
        params.insert(key.to_string(), serde_json::json!(v));
        Perturbation {
            axis: "image".into(),
            name: name.into(),
            severity: 3,
            change: Default::default(),
            params,
        }
    }

    #[test]
    fn corruptions_coarsen_the_view() {
        let clean = View::for_item(&[], false);
        assert_eq!(clean.precision_px, BASE_PRECISION_PX);
        let small = View::for_item(&[pert("downscale", "factor", 0.5)], false);
        assert_eq!(small.precision_px, 2.0);
        let text = BBox {
            x: 0.0,
            y: 0.0,
            w: 30.0,
            h: 12.0,
        };
        assert!(clean.legible(&text));
        assert!(!View::for_item(&[pert("downscale", "factor", 0.3)], false).legible(&text));
        assert!(View::for_item(&[pert("blur", "sigma", 1.0)], false).precision_px > 1.5);
    }
}
