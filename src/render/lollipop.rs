//! Pieces the cartesian panel uses for the lollipop and percent-stacked bar
//! kinds: the stem-and-dot mark and the fixed 0–100 % value axis.

use super::canvas::Canvas;
use super::cartesian::NumAxis;
use crate::ir::{BBox, NumberFormat, Style};
use crate::spec::format::format_number;

/// Stem width in pixels: thin enough to read as a line, not a bar.
const STEM_W: f32 = 2.0;

/// Dot radius for a category slot `slot` pixels wide: large enough to see,
/// never wider than the slot leaves room for.
pub fn dot_radius(slot: f32) -> f32 {
    (slot * 0.22).clamp(3.0, 8.0)
}

/// The mark's box: the stem from the baseline pixel `base` to the value pixel
/// `tip`, as wide as the dot. The dot is centred on the value end, so the
/// box's value edge reads the value as a bar's would.
pub fn mark_box(center: f32, base: f32, tip: f32, radius: f32, horizontal: bool) -> BBox {
    if horizontal {
        BBox {
            x: base.min(tip),
            y: center - radius,
            w: (tip - base).abs(),
            h: radius * 2.0,
        }
    } else {
        BBox {
            x: center - radius,
            y: base.min(tip),
            w: radius * 2.0,
            h: (tip - base).abs(),
        }
    }
}

/// The square the dot of a (vertical) lollipop's `bbox` covers.
pub fn dot_box(bbox: BBox, positive: bool) -> BBox {
    let r = bbox.w / 2.0;
    let tip = if positive { bbox.y } else { bbox.bottom() };
    BBox {
        x: bbox.x,
        y: tip - r,
        w: bbox.w,
        h: r * 2.0,
    }
}

/// The strip the stem of a (vertical) lollipop's `bbox` covers, with a
/// pixel to spare on each side.
pub fn stem_box(bbox: BBox) -> BBox {
    let (cx, _) = bbox.center();
    BBox {
        x: cx - STEM_W / 2.0 - 1.0,
        y: bbox.y,
        w: STEM_W + 2.0,
        h: bbox.h,
    }
}

/// Draws a stem and its dot; `positive` says which end of `bbox` holds the value.
pub fn draw(canvas: &mut Canvas, bbox: BBox, positive: bool, horizontal: bool, hex: &str) {
    let r = if horizontal { bbox.h } else { bbox.w } / 2.0;
    let (cx, cy) = bbox.center();
    let (tip, base) = match (horizontal, positive) {
        (false, true) => ((cx, bbox.y), (cx, bbox.bottom())),
        (false, false) => ((cx, bbox.bottom()), (cx, bbox.y)),
        (true, true) => ((bbox.right(), cy), (bbox.x, cy)),
        (true, false) => ((bbox.x, cy), (bbox.right(), cy)),
    };
    if horizontal {
        canvas.fill_rect(
            base.0.min(tip.0),
            cy - STEM_W / 2.0,
            base.0.max(tip.0),
            cy + STEM_W / 2.0,
            hex,
            1.0,
        );
    } else {
        canvas.fill_rect(
            cx - STEM_W / 2.0,
            base.1.min(tip.1),
            cx + STEM_W / 2.0,
            base.1.max(tip.1),
            hex,
            1.0,
        );
    }
    canvas.circle(tip.0, tip.1, r, hex, 1.0, None);
}

/// A percent-stacked chart's value axis: exactly 0 to 100, ticks every 10,
/// 20, 25 or 50 %, whichever comes closest to the style's tick count.
pub fn percent_axis(style: &Style, unit: &NumberFormat) -> NumAxis {
    let want = f64::from(style.tick_count.clamp(2, 20));
    let step = [10.0f64, 20.0, 25.0, 50.0]
        .into_iter()
        .min_by(|a, b| {
            ((100.0 / a + 1.0) - want)
                .abs()
                .total_cmp(&((100.0 / b + 1.0) - want).abs())
        })
        .unwrap_or(20.0);
    let unit = NumberFormat {
        decimals: 0,
        ..unit.clone()
    };
    let ticks = (0..=(100.0 / step) as i64)
        .map(|i| {
            let t = i as f64 * step;
            (t, format_number(t, style.number_style, 0, &unit))
        })
        .collect();
    NumAxis {
        lo: 0.0,
        hi: 100.0,
        log: false,
        ticks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_axis_spans_exactly_zero_to_a_hundred() {
        let mut style = crate::spec::theme("classic").unwrap();
        for count in 2..=12 {
            style.tick_count = count;
            let axis = percent_axis(&style, &NumberFormat::default());
            assert_eq!(axis.lo, 0.0);
            assert_eq!(axis.hi, 100.0);
            assert_eq!(axis.ticks.first().map(|t| t.0), Some(0.0));
            assert_eq!(axis.ticks.last().map(|t| t.0), Some(100.0));
        }
    }

    #[test]
    fn the_box_ends_at_the_dot_centre() {
        let b = mark_box(50.0, 200.0, 80.0, 5.0, false);
        assert_eq!((b.y, b.bottom()), (80.0, 200.0));
        assert_eq!(b.center().0, 50.0);
    }
}
