//! Drawing a table and reading colours back from the picture, shared by
//! the tests that check marks on the pixels.

use std::path::Path;

use chartstress::ir::ChartKind;

/// `path` drawn as one chart of `kind` in `theme`, with value labels when
/// `labels` is set (or the theme prints them).
pub fn render_single(
    path: &Path,
    kind: ChartKind,
    theme: &str,
    labels: bool,
) -> chartstress::render::Rendered {
    let t = chartstress::table::load_table(path).unwrap();
    let mut style = chartstress::spec::theme(theme).unwrap();
    style.data_labels |= labels;
    let spec = chartstress::spec::single(&t, kind, &style).unwrap();
    chartstress::render::render(&spec).unwrap()
}

/// `#rrggbb` (or `rrggbb`) as RGB bytes.
pub fn rgb(hex: &str) -> [u8; 3] {
    let h = hex.trim_start_matches('#');
    let b = |i: usize| u8::from_str_radix(&h[2 * i..2 * i + 2], 16).unwrap();
    [b(0), b(1), b(2)]
}

/// Whether a pixel is the wanted colour, give or take antialiasing.
pub fn near(px: [u8; 3], want: [u8; 3]) -> bool {
    px.iter()
        .zip(want)
        .all(|(a, b)| (i16::from(*a) - i16::from(b)).abs() <= 24)
}
