//! Palette and contrast: colours reassigned, replaced, washed out or grey.
//! Colour names travel with the colours, so visual references ("the orange
//! bar") are re-resolved by the executor: the declaration is Recomputing.

use rand::RngExt;

use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartKind, ChartSpec, Colormap, NamedColor};
use crate::render::colormap;

pub struct Palette;

const BOLD: [(&str, &str); 8] = [
    ("navy blue", "#1b3a6b"),
    ("crimson", "#c0143c"),
    ("teal", "#008080"),
    ("gold", "#e6b800"),
    ("violet", "#7f3fbf"),
    ("lime green", "#5cb82e"),
    ("coral", "#ff7f50"),
    ("sky blue", "#5fb4e6"),
];

const PASTEL: [(&str, &str); 8] = [
    ("light blue", "#aec7e8"),
    ("peach", "#ffbb78"),
    ("mint green", "#98df8a"),
    ("salmon", "#ff9896"),
    ("lavender", "#c5b0d5"),
    ("tan", "#c49c94"),
    ("light pink", "#f7b6d2"),
    ("light gray", "#c7c7c7"),
];

const GRAYS: [(&str, &str); 6] = [
    ("black", "#111111"),
    ("dark gray", "#555555"),
    ("gray", "#888888"),
    ("silver", "#b0b0b0"),
    ("light gray", "#d0d0d0"),
    ("charcoal", "#333333"),
];

const PALE_GRAYS: [(&str, &str); 6] = [
    ("gray", "#8a8a8a"),
    ("silver", "#a8a8a8"),
    ("light gray", "#c4c4c4"),
    ("dark gray", "#6e6e6e"),
    ("pale gray", "#dadada"),
    ("slate gray", "#7a8088"),
];

fn named(list: &[(&str, &str)]) -> Vec<NamedColor> {
    list.iter()
        .map(|(name, hex)| NamedColor {
            name: (*name).into(),
            hex: (*hex).into(),
        })
        .collect()
}

/// A colour map other than `now` for a palette level: the next perceptual
/// map, another one, a single-hue one, then greys.
fn other_map(now: Colormap, level: usize) -> Colormap {
    let wanted = match level {
        0 => {
            let i = Colormap::ALL.iter().position(|m| *m == now).unwrap_or(0);
            Colormap::ALL[(i + 1) % Colormap::ALL.len()]
        }
        1 => Colormap::Magma,
        2 => Colormap::Blues,
        _ => Colormap::Greys,
    };
    if wanted != now {
        return wanted;
    }
    match now {
        Colormap::Greys => Colormap::Blues,
        Colormap::Magma => Colormap::Cividis,
        _ => Colormap::Viridis,
    }
}

impl Perturbation for Palette {
    fn info(&self) -> Info {
        Info {
            name: "palette",
            axis: "palette",
            stage: Stage::Spec,
            effect: AnswerEffect::Recomputing,
            ladder: [
                "same colours, rotated to other series",
                "a different bold categorical palette",
                "low-contrast pastel palette",
                "grayscale palette",
                "low-contrast grayscale on a gray plot background",
            ],
        }
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let level = super::level("palette", severity).ok()?;
        let (palette, label) = match level {
            0 => {
                let mut colors = spec.style.palette.clone();
                if colors.len() < 2 {
                    return None;
                }
                let by = crate::seed::rng(ctx.seed, &["palette"]).random_range(1..colors.len());
                colors.rotate_left(by);
                (colors, format!("rotated by {by}"))
            }
            1 => (named(&BOLD), "bold".to_string()),
            2 => (named(&PASTEL), "pastel".to_string()),
            3 => (named(&GRAYS), "grayscale".to_string()),
            _ => (named(&PALE_GRAYS), "pale grayscale".to_string()),
        };
        // A heatmap's colours come from its colour map: another map, in
        // the same spirit as the level's palette.
        let heatmap = spec
            .panels()
            .iter()
            .find(|p| p.kind == ChartKind::Heatmap)
            .map(|p| colormap::resolve(p.style.colormap, &p.style.theme));
        let map = heatmap.map(|now| other_map(now, level));
        let out = super::restyle(spec, |s| {
            s.palette = palette.clone();
            if let Some(m) = map {
                s.colormap = m;
            }
            if level == 4 {
                s.plot_background = "#eeeeee".into();
            }
        });
        let mut applied = Applied::new(out).param("palette", label);
        if let Some(m) = map {
            applied = applied.param("colormap", m.name());
        }
        if level == 4 {
            applied = applied.param("plot_background", "#eeeeee");
        }
        Some(applied)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perturb::util::testing;

    #[test]
    fn every_level_changes_the_palette_with_distinct_names() {
        let spec = testing::bar();
        let ctx = ChartContext {
            seed: 9,
            themes: &[],
            distractors: &[],
        };
        for severity in 1..=5 {
            let out = Palette.apply_spec(&spec, severity, &ctx).unwrap().value;
            let palette = &testing::panel_style(&out).palette;
            assert_ne!(palette, &spec.style.palette);
            let mut names: Vec<_> = palette.iter().map(|c| c.name.as_str()).collect();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), palette.len(), "colour names are distinct");
        }
    }
}
