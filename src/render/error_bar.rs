//! Pieces the cartesian panel uses for error-bar charts: the whisker from
//! the lower to the upper bound with a cap at each end.

use super::canvas::Canvas;
use super::common::luminance;
use crate::ir::{NamedColor, Style};

/// Whiskers in a near-black (near-white on dark plots) that stands out
/// against any bar colour, as plotting libraries draw them.
pub fn whisker_color(st: &Style) -> NamedColor {
    let dark = luminance(&st.plot_background) < 0.4;
    NamedColor {
        name: if dark { "light gray" } else { "black" }.into(),
        hex: if dark { "#e6e6e6" } else { "#1a1a1a" }.into(),
    }
}

/// Cap width for a bar `group` pixels wide: wide enough to see, never
/// wider than the bar.
pub fn cap_width(group: f32) -> f32 {
    (group * 0.4).clamp(6.0, 24.0).min(group.max(2.0))
}

/// The vertical line from `lo` to `hi` (pixel rows) at `x` and a cap at
/// each end: over the bar (rows `bar.0..bar.1`) in `inside`, a colour that
/// contrasts with the bar, elsewhere in `outside`.
pub fn draw_whisker(
    canvas: &mut Canvas,
    x: f32,
    (lo, hi): (f32, f32),
    cap: f32,
    bar: (f32, f32),
    inside: &str,
    outside: &str,
) {
    let (top, bottom) = (lo.min(hi), lo.max(hi));
    let (b0, b1) = (bar.0.min(bar.1), bar.0.max(bar.1));
    // The whisker's rows above, over and below the bar.
    let pieces = [
        (top, bottom.min(b0), outside),
        (top.max(b0), bottom.min(b1), inside),
        (top.max(b1), bottom, outside),
    ];
    for (a, b, hex) in pieces {
        if b > a {
            canvas.line(&[(x, a), (x, b)], hex, 1.5, None);
        }
    }
    for y in [lo, hi] {
        let hex = if (b0..=b1).contains(&y) {
            inside
        } else {
            outside
        };
        canvas.line(&[(x - cap / 2.0, y), (x + cap / 2.0, y)], hex, 1.5, None);
    }
}
