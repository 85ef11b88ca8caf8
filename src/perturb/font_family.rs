//! Font family: the embedded DejaVu families swapped for body and title text.

use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::ChartSpec;

pub struct FontFamily;

const SANS: &str = "DejaVu Sans";
const SERIF: &str = "DejaVu Serif";
const MONO: &str = "DejaVu Sans Mono";

/// (body, title, title bold) per level; the original sans is the reference.
const LEVELS: [(&str, &str, Option<bool>); 5] = [
    (SANS, SERIF, None),
    (SERIF, SERIF, None),
    (SERIF, MONO, None),
    (MONO, MONO, None),
    (MONO, SERIF, Some(true)),
];

impl Perturbation for FontFamily {
    fn info(&self) -> Info {
        Info {
            name: "font_family",
            axis: "font",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "serif title, sans body",
                "serif everywhere",
                "monospace title, serif body",
                "monospace everywhere",
                "monospace body, bold serif title",
            ],
        }
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let (body, title, bold) = LEVELS[super::level("font_family", severity).ok()?];
        let out = super::restyle(spec, |s| {
            s.font_family = body.into();
            s.title_font_family = title.into();
            if let Some(b) = bold {
                s.title_bold = b;
            }
        });
        (out != *spec).then(|| {
            let applied = Applied::new(out)
                .param("font_family", body)
                .param("title_font_family", title);
            // The title's weight is part of the change where the level sets it.
            match bold {
                Some(b) => applied.param("title_bold", b),
                None => applied,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perturb::util::testing;

    #[test]
    fn uses_only_embedded_families() {
        let ctx = ChartContext {
            seed: 0,
            themes: &[],
            distractors: &[],
        };
        for severity in 1..=5 {
            let out = FontFamily
                .apply_spec(&testing::bar(), severity, &ctx)
                .unwrap();
            let style = testing::panel_style(&out.value);
            for family in [&style.font_family, &style.title_font_family] {
                assert!([SANS, SERIF, MONO].contains(&family.as_str()));
            }
        }
    }
}
