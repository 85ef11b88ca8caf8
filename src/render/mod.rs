//! Rendering chart specs to SVG, PNG and Scene (issue 2).
//!
//! plotters (SVG backend) draws the primitives, usvg parses and lays out text
//! with the embedded DejaVu faces, resvg rasterizes, and the PNG is encoded
//! with fast compression. Every mark and every visible text is recorded in
//! the [`Scene`] with its pixel box, in PNG coordinates.

mod canvas;
mod cartesian;
mod common;
pub mod fonts;

mod layout;
mod pie;
mod text;
mod time_axis;
pub use time_axis::uneven_time_steps;

use std::sync::Arc;

use crate::ir::{BBox, ChartKind, ChartSpec, PanelScene, PanelSpec, Scene};

pub use fonts::fontdb;
pub use layout::panel_letter;

/// What [`render`] produces for one spec.
#[derive(Debug, Clone)]
pub struct Rendered {
    pub svg: String,
    pub png: Vec<u8>,
    pub scene: Scene,
}

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("invalid spec: {0}")]
    Spec(String),
    #[error("drawing failed: {0}")]
    Draw(String),
    #[error("SVG could not be parsed: {0}")]
    Svg(String),
    #[error("PNG encoding failed: {0}")]
    Png(String),
}

/// Where a panel goes and how it is placed in the figure.
#[derive(Debug, Clone)]
pub(crate) struct PanelFrame {
    pub rect: BBox,
    pub index: usize,
    pub row: u32,
    pub col: u32,
    /// Value range shared with other panels (shared y axes in grids).
    pub shared_values: Option<(f64, f64)>,
    /// Shared axes: this panel's x (or y) tick labels and axis title are not drawn.
    pub hide_x_labels: bool,
    pub hide_y_labels: bool,
    /// Plot box fixed by the layout so that neighbouring panels line up; a
    /// cartesian panel draws its plot on the part of it inside its own
    /// margins. None: the panel lays itself out.
    pub plot_area: Option<BBox>,
}

/// Render a spec to SVG, PNG and Scene. Deterministic: the same spec gives
/// byte-identical output on any thread.
pub fn render(spec: &ChartSpec) -> Result<Rendered, RenderError> {
    let (svg, scene) = render_svg(spec)?;
    let png = svg_to_png(&svg)?;
    Ok(Rendered { svg, png, scene })
}

/// Only the SVG and the Scene (no rasterization).
pub fn render_svg(spec: &ChartSpec) -> Result<(String, Scene), RenderError> {
    if spec.width < 100 || spec.height < 100 || spec.width > 8000 || spec.height > 8000 {
        return Err(RenderError::Spec(format!(
            "size {}x{} is outside 100..=8000 pixels",
            spec.width, spec.height
        )));
    }
    crate::spec::validate_style(&spec.style).map_err(|e| RenderError::Spec(e.to_string()))?;
    for p in spec.panels() {
        crate::spec::validate_style(&p.style)
            .map_err(|e| RenderError::Spec(format!("panel on {:?}: {e}", p.table.id)))?;
    }
    let mut canvas = canvas::Canvas::new(spec.width, spec.height);
    let scene = layout::draw_figure(&mut canvas, spec)?;
    let svg = canvas.finish().map_err(RenderError::Draw)?;
    Ok((svg, scene))
}

pub(crate) fn draw_panel(
    canvas: &mut canvas::Canvas,
    panel: &PanelSpec,
    frame: &PanelFrame,
) -> Result<PanelScene, RenderError> {
    if panel.kind.is_circular() {
        pie::draw(canvas, panel, frame)
    } else {
        cartesian::draw(canvas, panel, frame)
    }
}

/// Rasterize an SVG with the embedded fonts and encode it as PNG (fast
/// compression, adaptive filter).
pub fn svg_to_png(svg: &str) -> Result<Vec<u8>, RenderError> {
    use resvg::{tiny_skia, usvg};
    let opt = usvg::Options {
        fontdb: Arc::clone(fontdb()),
        font_family: fonts::SANS.to_string(),
        ..Default::default()
    };
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| RenderError::Svg(e.to_string()))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or_else(|| {
        RenderError::Svg(format!(
            "cannot allocate {}x{}",
            size.width(),
            size.height()
        ))
    })?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    let (w, h) = (pixmap.width(), pixmap.height());
    let data = pixmap.take();
    // Opaque images (every theme has a solid background) are written as RGB:
    // premultiplied data with alpha 255 already is straight.
    let (data, color) = if let Some(rgb) = opaque_rgb(&data) {
        (rgb, image::ExtendedColorType::Rgb8)
    } else {
        let demultiplied = tiny_skia::IntSize::from_wh(w, h)
            .and_then(|size| tiny_skia::Pixmap::from_vec(data, size))
            .ok_or_else(|| RenderError::Png("pixmap size mismatch".into()))?
            .take_demultiplied();
        (demultiplied, image::ExtendedColorType::Rgba8)
    };
    fast_png(&data, w, h, color).map_err(|e| RenderError::Png(e.to_string()))
}

/// The RGB bytes of an RGBA buffer, or None when some pixel is not opaque.
/// One pass over slices of fixed width so the copy vectorizes.
fn opaque_rgb(rgba: &[u8]) -> Option<Vec<u8>> {
    let mut rgb = vec![0u8; rgba.len() / 4 * 3];
    let mut alpha = 255u8;
    for (dst, src) in rgb.chunks_exact_mut(3).zip(rgba.chunks_exact(4)) {
        dst.copy_from_slice(&src[..3]);
        alpha &= src[3];
    }
    (alpha == 255).then_some(rgb)
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

/// Whether a kind draws category x axes (used by layouts for shared axes).
pub(crate) fn has_value_axis(kind: ChartKind) -> bool {
    !kind.is_circular()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svg_to_png_keeps_transparency_and_draws_text() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><text x="4" y="28" font-family="sans-serif" font-size="20" fill="#000000">Hello</text></svg>"##;
        let png = svg_to_png(svg).unwrap();
        let img = image::load_from_memory(&png).unwrap().to_rgba8();
        assert_eq!(img.dimensions(), (120, 40));
        assert_eq!(img.get_pixel(0, 0).0[3], 0, "background stays transparent");
        let inked = img.pixels().filter(|p| p.0[3] > 128).count();
        assert!(
            inked > 100,
            "generic sans-serif resolves to an embedded face: {inked} px"
        );
        assert!(svg_to_png("<svg").is_err());
    }
}
