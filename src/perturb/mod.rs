//! Chart and question perturbations.
//!
//! Every perturbation is a pure function with a name, an axis, a severity
//! ladder 1..=5 (described in [`Info::ladder`], the one place the ladder is
//! defined and from which the table in docs/suites.md is generated) and a declaration of
//! what it does to the answer ([`AnswerEffect`]). Randomness comes only from the
//! seed the caller derives from the item id. One file per perturbation; the
//! registry in [`registry`] lists them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::ir::{ChartKind, ChartSpec, Scene, Style, Table, TextBox};

mod util;

pub mod calibration;

mod annotation_moved;
mod annotation_removed;
mod baseline;
mod clutter;
mod data_labels;
mod date_format;
mod font_family;
mod font_size;
mod kind_swap;
mod kind_swap_new;
mod legend_moved;
mod legend_removed;
mod legend_reordered;
mod log_scale;
mod orientation;
mod palette;
mod theme;
mod tick_density;
mod tick_format;

mod blur;
mod downscale;
mod jpeg;
mod noise;
mod rotation;

mod dashboard;
mod furniture;
mod kpi;
pub mod question;
mod related;
mod small_multiples;
pub mod subplots;

pub mod registry;

pub use registry::{catalog, chart_perturbations, find, info, ladder_markdown};
pub(crate) use util::encode_png;
pub use util::{marks_outside, restyle, retarget_panel, valued_ticks};

/// What a perturbation may do to the item's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerEffect {
    /// The answer must stay exactly the same; a change is a bug (item dropped, counted).
    Preserving,
    /// The answer is recomputed by the executor on the perturbed chart.
    Recomputing,
    /// The needed element may disappear: the item becomes unanswerable.
    Breaking,
}

impl AnswerEffect {
    pub fn name(self) -> &'static str {
        match self {
            AnswerEffect::Preserving => "preserving",
            AnswerEffect::Recomputing => "recomputing",
            AnswerEffect::Breaking => "breaking",
        }
    }
}

/// Where in the pipeline a perturbation acts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// On the ChartSpec, before rendering.
    Spec,
    /// On the rendered SVG (text overlays recorded in the Scene).
    Svg,
    /// On the PNG bytes.
    Image,
    /// Swaps the table the question is asked about.
    Data,
    /// On the question, chart unchanged.
    Question,
}

/// Static description of a perturbation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Info {
    pub name: &'static str,
    pub axis: &'static str,
    pub stage: Stage,
    pub effect: AnswerEffect,
    /// What severities 1..=5 do, mildest first.
    pub ladder: [&'static str; 5],
}

/// Inputs of a chart perturbation besides the spec.
#[derive(Debug, Clone, Copy)]
pub struct ChartContext<'a> {
    /// Seed derived from the item id and the perturbation name.
    pub seed: u64,
    /// Built-in themes (for theme swaps).
    pub themes: &'a [Style],
    /// Other tables, for distractor panels, sorted by id.
    pub distractors: &'a [&'a Table],
}

/// The result of a perturbation and the parameters it chose.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied<T> {
    pub value: T,
    pub params: BTreeMap<String, serde_json::Value>,
    /// New panel index of the item's target panel, when the layout moved it.
    pub target_panel: Option<usize>,
    /// The series each panel draws alone, in panel order, when the layout
    /// split the chart's series into panels: a question about one series
    /// moves to its panel, other questions have no panel to go to.
    pub series_panels: Vec<String>,
    /// Marks an added arrow points at, as (panel position in the scene,
    /// mark index): a pointer at a mark the question reads draws the eye to
    /// the answer, so the suite checks these against the question.
    pub pointed: Vec<(usize, usize)>,
}

impl<T> Applied<T> {
    pub fn new(value: T) -> Self {
        Applied {
            value,
            params: BTreeMap::new(),
            target_panel: None,
            series_panels: Vec::new(),
            pointed: Vec::new(),
        }
    }

    pub fn param(mut self, key: &str, value: impl Into<serde_json::Value>) -> Self {
        self.params.insert(key.to_string(), value.into());
        self
    }

    /// The produced value apart from the record of what was applied.
    pub fn split(self) -> (T, Applied<()>) {
        (
            self.value,
            Applied {
                value: (),
                params: self.params,
                target_panel: self.target_panel,
                series_panels: self.series_panels,
                pointed: self.pointed,
            },
        )
    }
}

/// Visible text added on top of a rendered SVG.
#[derive(Debug, Clone, PartialEq)]
pub struct SvgEdit {
    pub svg: String,
    /// Text boxes to append to `Scene::extra_text`.
    pub extra_text: Vec<TextBox>,
}

#[derive(Debug, thiserror::Error)]
pub enum PerturbError {
    #[error("perturbation `{name}`: cannot decode the chart image: {source}")]
    Decode {
        name: &'static str,
        source: image::ImageError,
    },
    #[error("perturbation `{name}`: cannot encode the perturbed image: {source}")]
    Encode {
        name: &'static str,
        source: image::ImageError,
    },
    #[error("perturbation `{name}`: severity {severity} is outside 1..=5")]
    Severity { name: &'static str, severity: u8 },
}

/// A chart perturbation. Implementors override the `apply_*` of their stage;
/// the others return `None` ("does not apply").
pub trait Perturbation: Send + Sync {
    fn info(&self) -> Info;

    /// Why this perturbation never applies to a chart of `kind`, when the
    /// kind itself rules it out (a log axis under stacked shares, a cut
    /// axis under bars); None when it applies wherever the chart has what
    /// it changes (a legend, a date axis, an annotation).
    fn not_for(&self, _kind: ChartKind) -> Option<&'static str> {
        None
    }

    /// Spec stage. `None` when the perturbation does not apply to this chart
    /// (e.g. log scale with non-positive values) or would change nothing.
    fn apply_spec(
        &self,
        _spec: &ChartSpec,
        _severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        None
    }

    /// SVG stage: `scene` is what the renderer drew.
    fn apply_svg(
        &self,
        _svg: &str,
        _scene: &Scene,
        _severity: u8,
        _seed: u64,
    ) -> Option<Applied<SvgEdit>> {
        None
    }

    /// Image stage, on the decoded picture (a suite decodes each chart
    /// once for all its image variants); see [`apply_image_png`] for bytes.
    fn apply_image(
        &self,
        _img: &image::RgbImage,
        _severity: u8,
        _seed: u64,
    ) -> Result<Option<Applied<image::RgbImage>>, PerturbError> {
        Ok(None)
    }
}

/// An image-stage perturbation applied to PNG bytes, giving PNG bytes.
pub fn apply_image_png(
    perturbation: &dyn Perturbation,
    png: &[u8],
    severity: u8,
    seed: u64,
) -> Result<Option<Applied<Vec<u8>>>, PerturbError> {
    let name = perturbation.info().name;
    let img = util::decode_rgb(name, png)?;
    let Some(applied) = perturbation.apply_image(&img, severity, seed)? else {
        return Ok(None);
    };
    let (out, meta) = applied.split();
    Ok(Some(Applied {
        value: util::encode_png(name, &out)?,
        params: meta.params,
        target_panel: meta.target_panel,
        series_panels: meta.series_panels,
        pointed: meta.pointed,
    }))
}

/// Checks a severity and returns its 0-based ladder index.
pub fn level(name: &'static str, severity: u8) -> Result<usize, PerturbError> {
    if (1..=5).contains(&severity) {
        Ok(usize::from(severity - 1))
    } else {
        Err(PerturbError::Severity { name, severity })
    }
}
