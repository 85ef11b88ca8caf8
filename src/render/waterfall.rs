//! Pieces the cartesian panel uses for waterfall charts: the colours that
//! tell the start, rises and falls apart, their legend, and step labels.

use super::common::{LegendItem, Swatch, color_of, luminance};
use crate::ir::{NamedColor, Style};

/// Legend labels, in the order of [`colors`].
pub const START: &str = "Start";
pub const INCREASE: &str = "Increase";
pub const DECREASE: &str = "Decrease";

/// Start, increase and decrease colours: rises green and falls red where
/// the palette has such colours (a person reads green as up), else the
/// palette's third and fourth colours; the start takes the first colour
/// not used for either.
pub fn colors(st: &Style) -> [NamedColor; 3] {
    // The first word any palette colour is named by wins: "red" before "orange".
    let find = |words: &[&str], avoid: &[&str]| {
        words.iter().find_map(|w| {
            st.palette
                .iter()
                .find(|c| c.name.to_lowercase().contains(w) && !avoid.contains(&c.hex.as_str()))
                .cloned()
        })
    };
    let up = find(&["green", "teal", "mint"], &[]).unwrap_or_else(|| color_of(st, 2));
    let down = find(&["red", "vermillion", "orange"], &[up.hex.as_str()])
        .filter(|c| c.hex != up.hex)
        .unwrap_or_else(|| {
            (3..12)
                .map(|i| color_of(st, i))
                .find(|c| c.hex != up.hex)
                .unwrap_or_else(|| color_of(st, 3))
        });
    let start = (0..12)
        .map(|i| color_of(st, i))
        .find(|c| c.hex != up.hex && c.hex != down.hex)
        .unwrap_or_else(|| color_of(st, 0));
    [start, up, down]
}

/// The colour of the first bar (the start value) and of each rise or fall.
pub fn step_color(colors: &[NamedColor; 3], row: usize, value: f64) -> &NamedColor {
    if row == 0 {
        &colors[0]
    } else if value >= 0.0 {
        &colors[1]
    } else {
        &colors[2]
    }
}

/// The dashed connectors' colour: a grey that reads on the plot background.
pub fn connector_color(st: &Style) -> NamedColor {
    let dark = luminance(&st.plot_background) < 0.4;
    NamedColor {
        name: "gray".into(),
        hex: if dark { "#9a9a9a" } else { "#555555" }.into(),
    }
}

pub fn legend_items(st: &Style) -> Vec<LegendItem> {
    colors(st)
        .into_iter()
        .zip([START, INCREASE, DECREASE])
        .map(|(color, label)| LegendItem {
            label: label.into(),
            color,
            swatch: Swatch::Box,
            category: None,
        })
        .collect()
}

/// A step's printed value: rises after the start carry a plus sign, as
/// waterfalls print them; the start prints as it is.
pub fn step_label(row: usize, printed: String) -> String {
    if row > 0 && !printed.starts_with(['-', '\u{2212}']) {
        format!("+{printed}")
    } else {
        printed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rises_after_the_start_carry_a_plus() {
        assert_eq!(step_label(0, "120".into()), "120");
        assert_eq!(step_label(1, "45".into()), "+45");
        assert_eq!(step_label(2, "-30".into()), "-30");
    }

    #[test]
    fn start_rise_and_fall_colours_differ_in_every_theme() {
        for st in crate::spec::builtin_themes() {
            let [a, b, c] = colors(&st);
            assert!(
                a.hex != b.hex && b.hex != c.hex && a.hex != c.hex,
                "{}",
                st.theme
            );
        }
    }
}
