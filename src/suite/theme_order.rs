//! Themes ordered by how different they look from the original style,
//! measured on pixels: the `theme` perturbation picks by fifths of this
//! order, so its severity ladder follows the visual distance rather than the
//! order of the theme list or a count of differing style fields.

use crate::ir::{ChartKind, Style};
use crate::synth::{SynthKind, synth_table};

/// Mean visual distance of each theme from `original` over reference
/// charts (a grouped bar chart with a legend and a line chart, both
/// synthesized from fixed seeds), and the themes sorted mildest first (ties
/// by name). Themes that fail to render sort last.
pub fn by_visual_distance(original: &Style, themes: Vec<Style>) -> Vec<(f64, Style)> {
    let references = [
        (synth_table(0, 0, SynthKind::Grouped), ChartKind::GroupedBar),
        (synth_table(0, 1, SynthKind::Trend), ChartKind::Line),
    ];
    let png = |table: &crate::ir::Table, kind, style: &Style| -> Option<Vec<u8>> {
        let spec = crate::spec::single(table, kind, style).ok()?;
        crate::render::render(&spec).ok().map(|r| r.png)
    };
    let base: Vec<Option<Vec<u8>>> = references
        .iter()
        .map(|(t, k)| png(t, *k, original))
        .collect();
    let mut out: Vec<(f64, Style)> = themes
        .into_iter()
        .map(|theme| {
            let distances: Option<Vec<f64>> = references
                .iter()
                .zip(&base)
                .map(|((t, k), b)| {
                    let swapped = png(t, *k, &theme)?;
                    crate::visual::distance(b.as_deref()?, &swapped).ok()
                })
                .collect();
            let mean = distances
                .map(|d| d.iter().sum::<f64>() / d.len() as f64)
                .unwrap_or(f64::MAX);
            (mean, theme)
        })
        .collect();
    out.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.theme.cmp(&b.1.theme)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_original_style_itself_is_nearest_and_dark_themes_are_far() {
        let original = crate::spec::theme("classic").unwrap();
        let order = by_visual_distance(&original, crate::spec::builtin_themes());
        assert_eq!(order[0].1.theme, "classic");
        assert_eq!(order[0].0, 0.0);
        for w in order.windows(2) {
            assert!(w[0].0 <= w[1].0);
        }
        let rank = |name: &str| order.iter().position(|(_, s)| s.theme == name).unwrap();
        let names: Vec<&str> = order.iter().map(|(_, s)| s.theme.as_str()).collect();
        assert!(rank("dark") > 3, "{names:?}");
        assert!(rank("terminal") > 3, "{names:?}");
    }
}
