//! Theme swap: the whole style replaced by another built-in theme; only the
//! data (and what makes it visible: title placement, scale choices) is kept.

use rand::RngExt;

use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartSpec, Style};

pub struct Theme;

/// Number of top-level style fields in which two styles differ.
fn swap(old: &Style, new: &Style) -> Style {
    let mut out = new.clone();
    out.title_placement = old.title_placement;
    // What is printed (subtitle, note, a value axis) is the chart's furniture.
    out.furniture = old.furniture;
    out.zero_baseline = old.zero_baseline;
    out.log_scale = old.log_scale;
    out.legend = old.legend;
    out.legend_order = old.legend_order;
    // Whether values are printed is the chart's content, not its look: a
    // theme that turned labels on would ease the task, one that turned them
    // off would be a data_labels change under another name.
    out.data_labels = old.data_labels;
    // Grid lines are a reading aid: a theme that added them would ease the
    // reading, one that took them away would be another change.
    out.grid = old.grid;
    out.value_start = old.value_start;
    out
}

impl Perturbation for Theme {
    fn info(&self) -> Info {
        Info {
            name: "theme",
            axis: "theme",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "nearest fifth of the other built-in themes by measured visual distance from the original style",
                "second fifth by visual distance",
                "middle fifth by visual distance",
                "fourth fifth by visual distance",
                "most distant fifth (dark and high-contrast themes on the default original)",
            ],
        }
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let level = super::level("theme", severity).ok()?;
        // `ctx.themes` comes ordered mildest first by measured visual
        // distance from the original style (the suite measures it).
        let others: Vec<(usize, &Style)> = ctx
            .themes
            .iter()
            .filter(|t| t.theme != spec.style.theme)
            .enumerate()
            .collect();
        if others.is_empty() {
            return None;
        }
        let n = others.len();
        let lo = level * n / 5;
        let hi = ((level + 1) * n / 5).max(lo + 1).min(n);
        let pick = crate::seed::rng(ctx.seed, &["theme"]).random_range(lo..hi);
        let (rank, new) = others[pick];
        let mut out = spec.clone();
        out.style = swap(&spec.style, new);
        for panel in out.panels_mut() {
            panel.style = swap(&panel.style, new);
        }
        Some(
            Applied::new(out)
                .param("theme", new.theme.clone())
                .param("distance_rank", rank + 1),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perturb::util::testing;

    fn themes() -> Vec<Style> {
        (0..5)
            .map(|i| Style {
                theme: format!("t{i}"),
                tick_count: 3 + i,
                font_family: if i > 2 { "DejaVu Serif" } else { "DejaVu Sans" }.into(),
                title_size: 10.0 + i as f32,
                ..Style::default()
            })
            .collect()
    }

    #[test]
    fn swaps_to_another_theme_keeping_data() {
        let spec = testing::bar();
        let themes = themes();
        let ctx = ChartContext {
            seed: 1,
            themes: &themes,
            distractors: &[],
        };
        for severity in 1..=5 {
            let out = Theme.apply_spec(&spec, severity, &ctx).expect("applies");
            assert_ne!(out.value.style.theme, "classic");
            assert_eq!(out.value.panels()[0].table, spec.panels()[0].table);
            assert_eq!(out.value.panels()[0].style.theme, out.value.style.theme);
        }
        let mild = Theme.apply_spec(&spec, 1, &ctx).unwrap();
        let strong = Theme.apply_spec(&spec, 5, &ctx).unwrap();
        // The context lists themes mildest first; severity follows that order.
        assert!(mild.params["distance_rank"].as_u64() < strong.params["distance_rank"].as_u64());
    }

    #[test]
    fn no_other_theme_means_not_applicable() {
        let ctx = ChartContext {
            seed: 1,
            themes: &[],
            distractors: &[],
        };
        assert!(Theme.apply_spec(&testing::bar(), 3, &ctx).is_none());
    }
}
