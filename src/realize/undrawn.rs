//! A colour no mark of a panel is drawn in, for the visual realizer's
//! unanswerable twins: "the purple bars" asked of a chart whose bars are
//! blue, orange and green reads like every answerable visual question, and a
//! reader looking at the chart sees that nothing is purple.
//!
//! The colour is one of the built-in themes' colours, drawn about as often as
//! answerable references name it (a theme's first colours name most series),
//! so neither the vocabulary nor the frequencies of colour words tell an
//! unanswerable twin from an answerable one. It is far
//! from every drawn colour and from the backgrounds, shares no colour word
//! with a drawn colour ("sky blue" is not undrawn next to "blue"), and is
//! never a neutral that axes, text or grid lines might be drawn in.

use std::sync::OnceLock;

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::ir::{NamedColor, PanelScene, Style};

/// Words that shade a colour rather than name one.
const SHADES: [&str; 11] = [
    "light", "dark", "pale", "deep", "lighter", "darker", "soft", "dim", "medium", "pastel",
    "bright",
];
/// Colours of axes, text, grid lines and backgrounds.
const NEUTRALS: [&str; 7] = [
    "black", "white", "gray", "grey", "silver", "charcoal", "slate",
];
/// How far (redmean distance, 0–765) an undrawn colour is from every drawn one.
const MIN_DISTANCE: f64 = 130.0;

fn hue_words(name: &str) -> impl Iterator<Item = String> + '_ {
    name.split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .filter(|w| !SHADES.contains(&w.as_str()))
}

fn rgb(hex: &str) -> Option<(f64, f64, f64)> {
    let c = crate::render::parse_hex(hex)?;
    Some((f64::from(c.0), f64::from(c.1), f64::from(c.2)))
}

/// The "redmean" approximation of perceived colour difference.
fn distance(a: (f64, f64, f64), b: (f64, f64, f64)) -> f64 {
    let r = (a.0 + b.0) / 2.0;
    let (dr, dg, db) = (a.0 - b.0, a.1 - b.1, a.2 - b.2);
    ((2.0 + r / 256.0) * dr * dr + 4.0 * dg * dg + (2.0 + (255.0 - r) / 256.0) * db * db).sqrt()
}

/// Every theme colour with how often a drawn series takes it: a palette's
/// colour at position `i` colours the `i+1`-th series, which fewer charts have.
fn every_theme_color() -> &'static [(NamedColor, f64)] {
    static ALL: OnceLock<Vec<(NamedColor, f64)>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all: Vec<(NamedColor, f64)> = Vec::new();
        for style in crate::spec::builtin_themes() {
            for (i, c) in style.palette.into_iter().enumerate() {
                let weight = 1.0 / (i as f64 + 1.0);
                match all.iter_mut().find(|(a, _)| a.name == c.name) {
                    Some((_, w)) => *w += weight,
                    None => all.push((c, weight)),
                }
            }
        }
        all
    })
}

/// Whether `candidate` could not be mistaken for anything drawn.
fn stands_apart(candidate: &NamedColor, drawn: &[NamedColor], backgrounds: &[&str]) -> bool {
    let Some(c) = rgb(&candidate.hex) else {
        return false;
    };
    let words: Vec<String> = hue_words(&candidate.name).collect();
    if words.is_empty() || words.iter().any(|w| NEUTRALS.contains(&w.as_str())) {
        return false;
    }
    let far = |hex: &str| rgb(hex).is_none_or(|d| distance(c, d) >= MIN_DISTANCE);
    drawn.iter().all(|d| {
        far(&d.hex) && d.name != candidate.name && !hue_words(&d.name).any(|w| words.contains(&w))
    }) && backgrounds.iter().all(|b| far(b))
}

/// The name of a colour no mark of `panel` is drawn in, or None.
pub fn undrawn_color(
    panel: &PanelScene,
    style: &Style,
    rng: &mut Xoshiro256PlusPlus,
) -> Option<String> {
    let mut drawn: Vec<NamedColor> = Vec::new();
    let legend = panel.legend.iter().map(|l| &l.color);
    for c in panel.marks.iter().map(|m| &m.color).chain(legend) {
        if !drawn.contains(c) {
            drawn.push(c.clone());
        }
    }
    let backgrounds = [style.background.as_str(), style.plot_background.as_str()];
    let pool: Vec<&(NamedColor, f64)> = every_theme_color()
        .iter()
        .filter(|(c, _)| stands_apart(c, &drawn, &backgrounds))
        .collect();
    let total: f64 = pool.iter().map(|(_, w)| w).sum();
    let mut at = rng.random_range(0.0..1.0) * total;
    for (c, w) in &pool {
        if at < *w {
            return Some(c.name.clone());
        }
        at -= w;
    }
    pool.last().map(|(c, _)| c.name.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn color(name: &str, hex: &str) -> NamedColor {
        NamedColor {
            name: name.into(),
            hex: hex.into(),
        }
    }

    #[test]
    fn apart_means_another_hue_word_and_far_in_colour() {
        let drawn = [color("blue", "#1f77b4"), color("orange", "#ff7f0e")];
        let white = ["#ffffff"];
        assert!(stands_apart(&color("purple", "#9467bd"), &drawn, &white));
        assert!(stands_apart(&color("green", "#2ca02c"), &drawn, &white));
        // A shade of a drawn colour, a near colour, a neutral: never.
        assert!(!stands_apart(&color("sky blue", "#56b4e9"), &drawn, &white));
        assert!(!stands_apart(&color("amber", "#f5a623"), &drawn, &white));
        assert!(!stands_apart(&color("gray", "#7f7f7f"), &drawn, &white));
        assert!(!stands_apart(
            &color("slate gray", "#6c7a89"),
            &drawn,
            &white
        ));
        // Nor a colour close to the background.
        assert!(!stands_apart(&color("navy", "#1b3a6c"), &[], &["#1b3a6b"]));
    }

    #[test]
    fn undrawn_colours_are_never_drawn_and_common_ones_come_often() {
        use crate::query::testing as t;
        let columns = ["Rent", "Food", "Travel"]
            .iter()
            .map(|s| t::series(s, &[Some(1.0), Some(2.0)], 0))
            .collect();
        let table = t::category_table("t", "City", &["Oslo", "Rome"], columns);
        let spec = t::single(&table, crate::ir::ChartKind::GroupedBar);
        let scene = t::scene_for(&spec);
        let (panel, style) = (&scene.panels[0], &spec.panels()[0].style);
        assert_eq!(panel.marks.len(), 6);
        let mut seen: std::collections::BTreeMap<String, usize> = Default::default();
        for i in 0..400 {
            let mut rng = crate::seed::rng(i, &["t"]);
            let name = undrawn_color(panel, style, &mut rng).unwrap();
            for m in &panel.marks {
                assert!(
                    !hue_words(&m.color.name).any(|w| name.contains(&w)),
                    "{name}"
                );
            }
            *seen.entry(name).or_default() += 1;
        }
        assert!(seen.len() >= 10, "{seen:?}");
        // Red starts or nearly starts several palettes; sand ends one.
        assert!(
            seen["red"] > 3 * seen.get("sand").copied().unwrap_or(0),
            "{seen:?}"
        );
        assert!(every_theme_color().len() >= 40);
    }
}
