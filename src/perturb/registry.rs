//! The registry: every perturbation, and the severity-ladder table docs/suites.md
//! documents (generated from [`Info::ladder`], the single place ladders live).

use super::{AnswerEffect, Info, Perturbation, Stage};

static CHART: &[&dyn Perturbation] = &[
    &super::theme::Theme,
    &super::palette::Palette,
    &super::font_family::FontFamily,
    &super::font_size::FontSize,
    &super::data_labels::DataLabels,
    &super::legend_moved::LegendMoved,
    &super::legend_removed::LegendRemoved,
    &super::legend_reordered::LegendReordered,
    &super::tick_density::TickDensity,
    &super::tick_format::TickFormat,
    &super::date_format::DateFormat,
    &super::baseline::Baseline,
    &super::log_scale::LogScale,
    &super::orientation::Orientation,
    &super::kind_swap::KindSwap,
    &super::kind_swap_new::KindSwapNew,
    &super::subplots::Subplots,
    &super::dashboard::Dashboard,
    &super::small_multiples::SmallMultiples,
    &super::clutter::Clutter,
    &super::annotation_removed::AnnotationRemoved,
    &super::annotation_moved::AnnotationMoved,
    &super::furniture::FurnitureRemoved,
    &super::furniture::FurnitureMoved,
    &super::furniture::SubtitleAdded,
    &super::jpeg::Jpeg,
    &super::blur::Blur,
    &super::noise::Noise,
    &super::downscale::Downscale,
    &super::rotation::Rotation,
];

/// Perturbations a suite uses only when its `opt_in_perturbations` names
/// them: suites that do not keep the choices they made before these existed,
/// and `distractor_context`, whose stock prefaces outside readers never
/// found natural (a context reads natural only when it is about the chart's
/// subject in the asker's own words: `paraphrase` with a model, or a user's
/// own prefaces).
pub const OPT_IN: &[&str] = &[
    "small_multiples",
    "furniture_removed",
    "furniture_moved",
    "subtitle_added",
    "kind_swap_new",
    "distractor_context",
];

/// Chart perturbations (spec, SVG and image stages), in registry order.
pub fn chart_perturbations() -> &'static [&'static dyn Perturbation] {
    CHART
}

pub fn find(name: &str) -> Option<&'static dyn Perturbation> {
    CHART.iter().copied().find(|p| p.info().name == name)
}

/// Data shift: the same query family asked on another table's chart (applied
/// by the suite, which holds the tables and the question generator).
pub const DATA_SHIFT: Info = Info {
    name: "data_shift",
    axis: "data",
    stage: Stage::Data,
    effect: AnswerEffect::Recomputing,
    ladder: [
        "another table most like the original (same index type, series count, row count)",
        "second fifth of the other tables by likeness",
        "middle fifth by likeness",
        "fourth fifth by likeness",
        "the least similar tables",
    ],
};

/// How question perturbations pick among seeded candidates: the ladder is the
/// distance of the new wording from the canonical one.
const BY_DISTANCE: [&str; 5] = [
    "closest of 5 seeded candidates to the canonical text (normalized Levenshtein)",
    "second closest candidate",
    "median candidate",
    "second farthest candidate",
    "farthest candidate from the canonical text",
];

/// Paraphrase realizer per question perturbation (`realize::realize` names).
pub const PARAPHRASES: [(&str, &str, &str); 6] = [
    ("lexical", "lexical", "lexical"),
    ("syntactic", "syntactic", "syntactic"),
    ("register", "register", "register"),
    ("visual_reference", "visual_reference", "visual"),
    ("distractor_context", "distractor_context", "distractor"),
    ("typos", "noisy_text", "noisy"),
];

/// Format shifts: the same intent asked as another question type.
pub const FORMATS: [(&str, crate::ir::QuestionType); 4] = [
    (
        "format_multiple_choice",
        crate::ir::QuestionType::MultipleChoice,
    ),
    ("format_fact_check", crate::ir::QuestionType::FactCheck),
    ("format_hypothetical", crate::ir::QuestionType::Hypothetical),
    (
        "format_conversational",
        crate::ir::QuestionType::Conversational,
    ),
];

pub const UNANSWERABLE: Info = Info {
    name: "unanswerable",
    axis: "unanswerable",
    stage: Stage::Question,
    effect: AnswerEffect::Breaking,
    ladder: BY_DISTANCE,
};

/// Every question perturbation's description.
pub fn question_infos() -> Vec<Info> {
    let mut out: Vec<Info> = PARAPHRASES
        .iter()
        .map(|(name, axis, _)| Info {
            name,
            axis,
            stage: Stage::Question,
            effect: AnswerEffect::Preserving,
            ladder: BY_DISTANCE,
        })
        .collect();
    out.extend(FORMATS.iter().map(|(name, _)| Info {
        name,
        axis: "format_shift",
        stage: Stage::Question,
        effect: AnswerEffect::Recomputing,
        ladder: BY_DISTANCE,
    }));
    out.push(UNANSWERABLE);
    out
}

/// Every perturbation (chart, data, question), in documentation order.
pub fn catalog() -> Vec<Info> {
    let mut out: Vec<Info> = CHART.iter().map(|p| p.info()).collect();
    out.push(DATA_SHIFT);
    out.extend(question_infos());
    out
}

pub fn info(name: &str) -> Option<Info> {
    catalog().into_iter().find(|i| i.name == name)
}

/// The perturbation table of docs/suites.md, generated from the registry.
pub fn ladder_markdown() -> String {
    let mut out = String::from(
        "| axis | name | stage | answer effect | 1 | 2 | 3 | 4 | 5 |\n|---|---|---|---|---|---|---|---|---|\n",
    );
    for info in catalog() {
        let stage = serde_json::to_value(info.stage)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        out.push_str(&format!(
            "| {} | `{}` | {} | {} | {} |\n",
            info.axis,
            info.name,
            stage,
            info.effect.name(),
            info.ladder.join(" | ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::ChartSpec;
    use crate::perturb::ChartContext;
    use crate::perturb::util::testing;
    use image::{Rgb, RgbImage};

    #[test]
    fn names_are_unique_and_ladders_complete() {
        let all = catalog();
        let mut names: Vec<_> = all.iter().map(|i| i.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len());
        for info in &all {
            assert!(info.ladder.iter().all(|l| !l.is_empty()), "{}", info.name);
        }
    }

    #[test]
    fn documented_table_matches_the_registry() {
        let readme =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/suites.md"))
                .expect("docs/suites.md exists");
        let lines: Vec<&str> = readme.lines().collect();
        for row in ladder_markdown().lines() {
            assert!(
                lines.contains(&row),
                "docs/suites.md lacks this row of perturb::ladder_markdown():\n{row}"
            );
        }
    }

    fn chart_png() -> Vec<u8> {
        let img = RgbImage::from_fn(120, 90, |x, y| {
            if (20..40).contains(&x) && y > 30 || (60..80).contains(&x) && y > 50 {
                Rgb([31, 119, 180])
            } else if y == 85 {
                Rgb([0, 0, 0])
            } else {
                Rgb([255, 255, 255])
            }
        });
        crate::perturb::util::encode_png("test", &img).unwrap()
    }

    fn mean_abs_diff(a: &[u8], b: &[u8]) -> f64 {
        let a = image::load_from_memory(a).unwrap().to_rgb8();
        let mut b = image::load_from_memory(b).unwrap().to_rgb8();
        // A rotation enlarges the canvas: compare the centre it grew around.
        let (dw, dh) = (b.width() - a.width(), b.height() - a.height());
        if (dw, dh) != (0, 0) {
            b = image::imageops::crop_imm(&b, dw / 2, dh / 2, a.width(), a.height()).to_image();
        }
        let total: u64 = a
            .as_raw()
            .iter()
            .zip(b.as_raw())
            .map(|(x, y)| u64::from(x.abs_diff(*y)))
            .sum();
        total as f64 / a.as_raw().len() as f64
    }

    #[test]
    fn image_corruptions_are_seeded_and_grow_with_severity() {
        let png = chart_png();
        for p in CHART.iter().filter(|p| p.info().stage == Stage::Image) {
            let name = p.info().name;
            let mut last = 0.0;
            for severity in 1..=5 {
                let out = crate::perturb::apply_image_png(*p, &png, severity, 42)
                    .unwrap()
                    .unwrap();
                let again = crate::perturb::apply_image_png(*p, &png, severity, 42)
                    .unwrap()
                    .unwrap();
                assert_eq!(out, again, "{name} is deterministic");
                let diff = mean_abs_diff(&png, &out.value);
                assert!(diff > 0.0, "{name} {severity} changes the image");
                assert!(
                    diff + 0.05 >= last,
                    "{name}: severity {severity} ({diff}) weaker than the previous ({last})"
                );
                last = diff;
            }
            assert!(crate::perturb::apply_image_png(*p, &png, 0, 1).is_err());
            assert!(crate::perturb::apply_image_png(*p, b"not a png", 1, 1).is_err());
        }
    }

    #[test]
    fn spec_perturbations_change_the_spec_and_keep_the_data() {
        let themes = vec![crate::ir::Style {
            theme: "other".into(),
            tick_count: 9,
            ..Default::default()
        }];
        let ctx = ChartContext {
            seed: 5,
            themes: &themes,
            distractors: &[],
        };
        let mut specs: Vec<ChartSpec> = vec![
            testing::bar(),
            testing::grouped_years(),
            testing::shares(),
            testing::lines(),
            // A log axis needs values spanning a decade.
            testing::single(
                testing::table("pop", &[("v", &[3.0, 50.0, 2.0, 800.0])], false),
                crate::ir::ChartKind::Bar,
            ),
        ];
        // Annotation perturbations need an annotated chart.
        for name in crate::spec::annotation::NAMES {
            let mut spec = testing::bar();
            let panel = &mut spec.panels_mut()[0];
            panel.annotation = crate::spec::annotation::named(panel, name);
            specs.push(spec);
        }
        // Furniture perturbations need a chart printing a subtitle, a note
        // and a source line.
        let mut furnished = testing::grouped_years();
        furnished.source_line = Some("Agency".into());
        if let crate::ir::Layout::Single { panel } = &mut furnished.layout {
            panel.table.meta.subtitle = Some("Subtitle".into());
            panel.table.meta.footnote = Some("A note".into());
        }
        specs.push(furnished);
        // Layout perturbations need distractor tables: tests/integration/perturb.rs covers them.
        for p in CHART
            .iter()
            .filter(|p| p.info().stage == Stage::Spec)
            .filter(|p| !matches!(p.info().axis, "subplots" | "dashboard"))
        {
            let mut applied = 0;
            for spec in &specs {
                for severity in 1..=5 {
                    if let Some(out) = p.apply_spec(spec, severity, &ctx) {
                        applied += 1;
                        assert_ne!(&out.value, spec, "{} changes the spec", p.info().name);
                        let tables = |s: &ChartSpec| -> Vec<String> {
                            s.panels()
                                .iter()
                                .map(|p| serde_json::to_string(&p.table).unwrap())
                                .collect()
                        };
                        assert_eq!(
                            tables(&out.value),
                            tables(spec),
                            "{} keeps the data",
                            p.info().name
                        );
                        assert_eq!(
                            p.apply_spec(spec, severity, &ctx),
                            Some(out),
                            "deterministic"
                        );
                    }
                }
            }
            assert!(applied > 0, "{} applies to some fixture", p.info().name);
        }
    }
}
