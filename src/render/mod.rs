//! Rendering chart specs to SVG, PNG and Scene.
//!
//! plotters (SVG backend) draws the primitives, usvg parses and lays out text
//! with the embedded DejaVu faces, resvg rasterizes, and the PNG is encoded
//! with fast compression. Every mark and every visible text is recorded in
//! the [`Scene`] with its pixel box, in PNG coordinates.

mod canvas;
mod cartesian;
pub mod colormap;
mod common;
mod error_bar;
pub mod fonts;

mod heatmap;
mod layout;
mod lollipop;
mod pie;
mod radar;
mod slope;
mod stat;
mod text;
mod time_axis;
mod waterfall;
pub use time_axis::uneven_time_steps;

use std::sync::Arc;

use crate::ir::{BBox, ChartKind, ChartSpec, PanelScene, PanelSpec, Scene};

pub(crate) use canvas::parse_hex;
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
    render_with_pixels(spec).map(|(rendered, _)| rendered)
}

/// [`render`], also handing back the pixels the PNG was encoded from, for
/// callers that look at them (thumbnails, pixel checks) without decoding
/// the PNG again.
pub fn render_with_pixels(spec: &ChartSpec) -> Result<(Rendered, Pixels), RenderError> {
    let (svg, scene) = render_svg(spec)?;
    let pixels = rasterize(&svg)?;
    let png = encode_png(&pixels)?;
    Ok((Rendered { svg, png, scene }, pixels))
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
    } else if panel.kind == ChartKind::Heatmap {
        heatmap::draw(canvas, panel, frame)
    } else if panel.kind.is_statistical() {
        stat::draw(canvas, panel, frame)
    } else if panel.kind == ChartKind::Slope {
        slope::draw(canvas, panel, frame)
    } else if panel.kind == ChartKind::Radar {
        radar::draw(canvas, panel, frame)
    } else {
        cartesian::draw(canvas, panel, frame)
    }
}

/// Straight (not premultiplied) pixels, row by row: RGB when every pixel
/// is opaque (every theme has a solid background), else RGBA.
#[derive(Debug, Clone)]
pub struct Pixels {
    pub width: u32,
    pub height: u32,
    pub data: Vec<u8>,
    pub has_alpha: bool,
}

impl Pixels {
    /// A `width`-pixel-wide RGB copy, each pixel the mean of the source
    /// pixels it covers: a box filter in one pass of plain additions
    /// (`image`'s resize cost more than drawing the chart). Transparent
    /// pixels are shown on white.
    pub fn thumbnail(&self, width: u32) -> image::RgbImage {
        use chartstress_pixels::boxmean::{Source, box_means, proportional};
        let (sw, sh) = (self.width.max(1) as usize, self.height.max(1) as usize);
        let tw = (width.max(1) as usize).min(sw);
        let th = (tw * sh / sw).max(1);
        let source = if self.has_alpha {
            Source::RgbaOnWhite(&self.data)
        } else {
            Source::Rgb(&self.data)
        };
        let out = box_means(source, sw, &proportional(sw, tw), &proportional(sh, th));
        image::RgbImage::from_raw(tw as u32, th as u32, out)
            .expect("the buffer holds tw x th RGB pixels")
    }
}

std::thread_local! {
    /// The premultiplied canvas of the last chart drawn on this thread:
    /// reused, so each chart does not fault in a fresh 2 MB buffer.
    static CANVAS: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Rasterize an SVG with the embedded fonts.
pub fn rasterize(svg: &str) -> Result<Pixels, RenderError> {
    use resvg::{tiny_skia, usvg};
    let opt = usvg::Options {
        fontdb: Arc::clone(fontdb()),
        font_family: fonts::SANS.to_string(),
        ..Default::default()
    };
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| RenderError::Svg(e.to_string()))?;
    let size = tree.size().to_int_size();
    let (w, h) = (size.width(), size.height());
    CANVAS.with_borrow_mut(|canvas| {
        // A fill (memset) rather than `resize`, which unoptimized test
        // builds run byte by byte.
        let len = w as usize * h as usize * 4;
        if canvas.len() == len {
            canvas.fill(0);
        } else {
            *canvas = vec![0; len];
        }
        let mut pixmap = tiny_skia::PixmapMut::from_bytes(canvas, w, h)
            .ok_or_else(|| RenderError::Svg(format!("cannot allocate {w}x{h}")))?;
        resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap);
        // Premultiplied data with alpha 255 already is straight.
        if let Some(rgb) = chartstress_pixels::opaque::opaque_rgb(canvas) {
            return Ok(Pixels {
                width: w,
                height: h,
                data: rgb,
                has_alpha: false,
            });
        }
        let data = tiny_skia::IntSize::from_wh(w, h)
            .and_then(|size| tiny_skia::Pixmap::from_vec(canvas.clone(), size))
            .ok_or_else(|| RenderError::Png("pixmap size mismatch".into()))?
            .take_demultiplied();
        Ok(Pixels {
            width: w,
            height: h,
            data,
            has_alpha: true,
        })
    })
}

/// The PNG of rasterized pixels (fast compression, adaptive filter).
pub fn encode_png(pixels: &Pixels) -> Result<Vec<u8>, RenderError> {
    let color = if pixels.has_alpha {
        image::ExtendedColorType::Rgba8
    } else {
        image::ExtendedColorType::Rgb8
    };
    fast_png(&pixels.data, pixels.width, pixels.height, color)
        .map_err(|e| RenderError::Png(e.to_string()))
}

/// Rasterize an SVG with the embedded fonts and encode it as PNG.
pub fn svg_to_png(svg: &str) -> Result<Vec<u8>, RenderError> {
    encode_png(&rasterize(svg)?)
}

/// PNG with fast compression and the adaptive filter (see
/// [`chartstress_pixels::resample::fast_png`]).
pub use chartstress_pixels::resample::fast_png;

/// Whether a kind draws category x axes (used by layouts for shared axes).
pub(crate) fn has_value_axis(kind: ChartKind) -> bool {
    !kind.is_circular() && kind != ChartKind::Heatmap
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thumbnails_match_a_plain_box_mean_for_tall_and_odd_boxes() {
        // Boxes of 600+ rows (several 16-bit bands) and uneven widths.
        for (sw, sh, tw) in [(600usize, 1300usize, 1u32), (97, 700, 5), (800, 600, 200)] {
            let data: Vec<u8> = (0..sw * sh * 3)
                .map(|i| ((i * 7919 + i / 3 * 13) % 256) as u8)
                .collect();
            let pixels = Pixels {
                width: sw as u32,
                height: sh as u32,
                data: data.clone(),
                has_alpha: false,
            };
            let thumb = pixels.thumbnail(tw);
            let (tw, th) = (thumb.width() as usize, thumb.height() as usize);
            let mut y0 = 0;
            for ty in 0..th {
                let y1 = ((ty + 1) * sh / th).max(y0 + 1).min(sh);
                for tx in 0..tw {
                    let x0 = tx * sw / tw;
                    let x1 = ((tx + 1) * sw / tw).max(x0 + 1).min(sw);
                    for c in 0..3 {
                        let sum: u64 = (y0..y1)
                            .flat_map(|y| (x0..x1).map(move |x| (y, x)))
                            .map(|(y, x)| u64::from(data[(y * sw + x) * 3 + c]))
                            .sum();
                        let n = ((y1 - y0) * (x1 - x0)) as u64;
                        let expected = (sum + n / 2) / n;
                        let got = thumb.get_pixel(tx as u32, ty as u32).0[c];
                        assert_eq!(u64::from(got), expected, "{sw}x{sh} at {tx},{ty},{c}");
                    }
                }
                y0 = y1;
            }
        }
    }

    #[test]
    fn thumbnails_average_the_area_each_pixel_covers() {
        // 4x2 RGB: left half red, right half blue; one grey pixel top right.
        let mut data = Vec::new();
        for y in 0..2 {
            for x in 0..4 {
                data.extend_from_slice(match (x, y) {
                    (3, 0) => &[100, 100, 100],
                    (0 | 1, _) => &[255, 0, 0],
                    _ => &[0, 0, 255],
                });
            }
        }
        let pixels = Pixels {
            width: 4,
            height: 2,
            data,
            has_alpha: false,
        };
        let thumb = pixels.thumbnail(2);
        assert_eq!(thumb.dimensions(), (2, 1));
        assert_eq!(thumb.get_pixel(0, 0).0, [255, 0, 0]);
        // (0+0+0+100)/4 = 25, (255*3+100)/4 = 216.25.
        assert_eq!(thumb.get_pixel(1, 0).0, [25, 25, 216]);
        // Transparent pixels read as white; half-covered black as mid grey.
        let rgba = Pixels {
            width: 2,
            height: 1,
            data: vec![0, 0, 0, 0, 0, 0, 0, 128],
            has_alpha: true,
        };
        assert_eq!(rgba.thumbnail(1).get_pixel(0, 0).0, [191, 191, 191]);
        // Never wider than the source.
        assert_eq!(pixels.thumbnail(10).dimensions(), (4, 2));
    }

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
