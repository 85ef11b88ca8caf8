//! Modified-chart variants: perturbation choice (axis by balance, name by a
//! seeded order), applying it at its stage (spec, SVG, image, data shift),
//! rendering, and re-checking the answer on the new chart.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use super::balance::Balance;
use super::pipeline::{Block, Chart, Env, record, render, short_hash, stage_err};
use super::recheck::{Verdict, recheck};
use crate::ir::{Change, Perturbation as Applied, Table};
use crate::perturb::{self, ChartContext, Perturbation, Stage};
use crate::questions::{self, Question, QuestionOptions};
use crate::seed;

/// Order in which to try perturbations of one axis for one item.
pub(super) fn shuffled<T: Copy>(items: &[T], seed: u64) -> Vec<T> {
    use rand::seq::SliceRandom;
    let mut v = items.to_vec();
    v.shuffle(&mut seed::rng(seed, &["order"]));
    v
}

const ATTEMPTS: usize = 6;
/// Id of a chart derived from `base` by an SVG or image perturbation: the
/// base id's prefix and a hash of what was applied.
fn derived_id(
    base: &Chart,
    name: &str,
    severity: u8,
    params: &BTreeMap<String, serde_json::Value>,
) -> String {
    let params = serde_json::to_string(params).unwrap_or_default();
    format!(
        "{}{}",
        &base.id[..4],
        &short_hash(&[&base.id, name, &severity.to_string(), &params])
    )
}

impl Env<'_> {
    fn chart_axes(&self) -> Vec<&'static str> {
        let mut seen = HashSet::new();
        self.chart_perts
            .iter()
            .map(|p| p.info().axis)
            .filter(|a| seen.insert(*a))
            .collect()
    }

    /// Applies one chart perturbation; `Ok(None)` when it does not apply.
    pub(super) fn apply_chart(
        &self,
        pert: &dyn Perturbation,
        base: &Chart,
        severity: u8,
        item_seed: u64,
        table: &Table,
    ) -> Result<Option<(Chart, perturb::Applied<()>)>, String> {
        let info = pert.info();
        let seed = seed::derive(item_seed, &[info.name]);
        match info.stage {
            Stage::Spec => {
                let distractors: Vec<&Table> =
                    self.tables.iter().filter(|t| t.id != table.id).collect();
                let ctx = ChartContext {
                    seed,
                    themes: &self.themes,
                    distractors: &distractors,
                };
                let Some(applied) = pert.apply_spec(&base.spec, severity, &ctx) else {
                    return Ok(None);
                };
                let (mut spec, meta) = applied.split();
                // The same data in another kind or orientation keeps its
                // value ticks where every mark still fits on them (stacks
                // may need a longer axis).
                if matches!(info.name, "kind_swap" | "kind_swap_new" | "orientation") {
                    let mut pinned = spec.clone();
                    if super::frame::pin_value_axis(&mut pinned, &base.scene) {
                        let chart = render(pinned)?;
                        if perturb::marks_outside(&chart.scene)
                            <= perturb::marks_outside(&base.scene)
                        {
                            return Ok(Some((chart, meta)));
                        }
                    }
                }
                let before_pin = spec.clone();
                if super::frame::keeps_frame(info.axis) {
                    super::frame::pin(&mut spec, &base.scene);
                } else if let Some(target) = meta.target_panel {
                    // Among other panels, the asked chart keeps its own axes.
                    super::frame::pin_panel(&mut spec, target, &base.scene);
                }
                let pinned = spec != before_pin;
                let chart = render(spec)?;
                // Printed ticks may stop short of the axis (an end label
                // left out where it would collide): a pin that cuts marks off
                // is not drawn, and drawn without it the frame would change,
                // so the perturbation does not apply here.
                if pinned
                    && perturb::marks_outside(&chart.scene) > perturb::marks_outside(&base.scene)
                {
                    return Ok(None);
                }
                Ok(Some((chart, meta)))
            }
            Stage::Svg => {
                let Some(applied) = pert.apply_svg(&base.svg, &base.scene, severity, seed) else {
                    return Ok(None);
                };
                let (edit, meta) = applied.split();
                let pixels = crate::render::rasterize(&edit.svg).map_err(stage_err)?;
                let png = crate::render::encode_png(&pixels).map_err(stage_err)?;
                let mut scene = (*base.scene).clone();
                scene.extra_text.extend(edit.extra_text);
                let chart = Chart::new(
                    derived_id(base, info.name, severity, &meta.params),
                    base.spec.clone(),
                    Arc::new(scene),
                    Arc::new(edit.svg),
                    png,
                    Some(&pixels),
                );
                Ok(Some((chart, meta)))
            }
            Stage::Image => {
                let Some(applied) = pert
                    .apply_image(base.picture()?.as_ref(), severity, seed)
                    .map_err(stage_err)?
                else {
                    return Ok(None);
                };
                let (img, meta) = applied.split();
                let png = perturb::encode_png(info.name, &img).map_err(stage_err)?;
                let chart = Chart::new(
                    derived_id(base, info.name, severity, &meta.params),
                    base.spec.clone(),
                    base.scene.clone(),
                    base.svg.clone(),
                    png,
                    None,
                )
                .with_view(base.view_of(&img)?);
                Ok(Some((chart, meta)))
            }
            Stage::Data | Stage::Question => Ok(None),
        }
    }

    /// Data shift: the same family and type asked on another table's chart.
    fn data_shift(
        &self,
        q: &Question,
        table: &Table,
        base: &Chart,
        severity: u8,
        item_seed: u64,
    ) -> Result<Option<(Chart, Question, Applied)>, String> {
        let info = perturb::registry::DATA_SHIFT;
        let likeness = |t: &Table| -> usize {
            usize::from(t.index.ctype != table.index.ctype) * 100
                + t.series.len().abs_diff(table.series.len()) * 10
                + t.n_rows().abs_diff(table.n_rows())
        };
        let mut others: Vec<(usize, &Table)> = self
            .tables
            .iter()
            .filter(|t| t.id != table.id)
            .map(|t| (likeness(t), t))
            .collect();
        if others.is_empty() {
            return Ok(None);
        }
        others.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.id.cmp(&b.1.id)));
        let level = usize::from(severity - 1);
        let n = others.len();
        let lo = level * n / 5;
        let hi = ((level + 1) * n / 5).max(lo + 1).min(n);
        let seed = seed::derive(item_seed, &[info.name]);
        for (_, other) in shuffled(&others[lo..hi], seed) {
            let kinds = crate::spec::suitable_kinds(other);
            let kind = if kinds.contains(&base.kind()) {
                base.kind()
            } else if let Some(k) = kinds.first() {
                *k
            } else {
                continue;
            };
            let Ok(spec) = crate::spec::single(other, kind, &self.original_style) else {
                continue;
            };
            let chart = render(spec)?;
            // Spelled out with `..Default::default()` so new option fields keep defaults.
            #[allow(clippy::needless_update)]
            let opts = QuestionOptions {
                seed: seed::derive(seed, &[&other.id]),
                count: 3,
                types: vec![q.question_type],
                families: vec![q.family.clone()],
                unanswerable_share: if q.answerable { 0.0 } else { 1.0 },
                ..QuestionOptions::default()
            };
            if let Some(new) = questions::generate(&chart.id, &chart.spec, &chart.scene, &opts)
                .into_iter()
                .find(|c| c.family == q.family && c.answerable == q.answerable)
            {
                let mut params = BTreeMap::new();
                params.insert(
                    "table".to_string(),
                    serde_json::Value::from(other.id.clone()),
                );
                params.insert("kind".to_string(), serde_json::Value::from(kind.name()));
                let mut rec = record(&info, severity, params);
                rec.change = Change::Shifted;
                return Ok(Some((chart, new, rec)));
            }
        }
        Ok(None)
    }

    /// A `shifted` item: the original's family and type asked on another
    /// table's chart, the likeness of that table set by the severity.
    pub(super) fn shifted_variant(
        &self,
        q: &Question,
        base: &Chart,
        table: &Table,
        item_seed: u64,
        balance: &mut Balance,
        block: &mut Block,
    ) -> Option<(Chart, Question, Applied)> {
        let info = perturb::registry::DATA_SHIFT;
        let severity = balance.severity(
            info.name,
            self.config,
            seed::derive(item_seed, &[info.name]),
        );
        match self.data_shift(q, table, base, severity, item_seed) {
            Ok(Some((chart, new, rec))) => {
                if let Some(reason) = self.unreadable(&new, &chart, std::slice::from_ref(&rec)) {
                    block.drop_item(&reason);
                    return None;
                }
                balance.used(info.axis, info.name, severity);
                Some((chart, new, rec))
            }
            Ok(None) => None,
            Err(e) => {
                block.drop_item("render_error");
                block
                    .errors
                    .push(format!("table `{}`: data_shift: {e}", table.id));
                None
            }
        }
    }

    /// One modified-chart variant of `q` on `base` with its visual distance
    /// from `base`, or the reasons it failed (counted on `block`).
    pub(super) fn chart_variant(
        &self,
        q: &Question,
        base: &Chart,
        table: &Table,
        item_seed: u64,
        balance: &mut Balance,
        block: &mut Block,
    ) -> Option<Variant> {
        let axes = balance.axes_in_order(&self.chart_axes(), self.config, item_seed);
        let mut attempts = 0;
        for axis in axes {
            let perts: Vec<&'static dyn Perturbation> = self
                .chart_perts
                .iter()
                .copied()
                .filter(|p| p.info().axis == axis)
                .collect();
            let names: Vec<&'static str> = perts.iter().map(|p| p.info().name).collect();
            for name in shuffled(&names, seed::derive(item_seed, &[axis])) {
                if attempts >= ATTEMPTS {
                    return None;
                }
                let Some(pert) = perts.iter().find(|p| p.info().name == name) else {
                    continue;
                };
                let severity =
                    balance.severity(name, self.config, seed::derive(item_seed, &[name]));
                let info = pert.info();
                let (chart, meta) = match self.apply_chart(*pert, base, severity, item_seed, table)
                {
                    Ok(Some(x)) => x,
                    Ok(None) => continue,
                    Err(e) => {
                        attempts += 1;
                        block.drop_item("render_error");
                        block
                            .errors
                            .push(format!("table `{}`: {}: {e}", table.id, info.name));
                        continue;
                    }
                };
                attempts += 1;
                if let Some(reason) =
                    super::frame::unkept(&base.scene, &chart.scene, &info, meta.target_panel)
                {
                    block.drop_item(&reason);
                    continue;
                }
                if super::direction::points_at_answer(base, q, &meta.pointed) {
                    block.drop_item("points_at_answer");
                    continue;
                }
                if super::frame::labels_unchanged(&base.scene, &chart.scene, info.axis) {
                    block.drop_item("no_op");
                    continue;
                }
                let mut moved = q.clone();
                let target = if meta.series_panels.is_empty() {
                    meta.target_panel
                } else {
                    // Split into one panel per series: the question goes to
                    // its series' panel; one about several has none.
                    match series_panel(&q.query, &meta.series_panels) {
                        Some(to) => Some(to),
                        None => {
                            block.drop_item("no_panel");
                            continue;
                        }
                    }
                };
                if let Some(to) = target {
                    moved.query = perturb::retarget_panel(&q.query, 0, to);
                    let reference = perturb::subplots::panel_reference(&chart.spec, to);
                    // A reference by title answers a question about the title.
                    if let crate::ir::Answer::Text { value } = &q.answer
                        && !value.trim().is_empty()
                        && reference
                            .to_lowercase()
                            .contains(&value.trim().to_lowercase())
                    {
                        block.drop_item("reference_states_answer");
                        continue;
                    }
                    // The panel is named where the conversation starts.
                    match moved.history.first_mut() {
                        Some(turn) => {
                            turn.question = format!("Refer to {reference}. {}", turn.question)
                        }
                        None => moved.text = format!("Refer to {reference}. {}", q.text),
                    }
                }
                let new = match recheck(info.effect, &moved, &chart) {
                    Verdict::Keep(new) => new,
                    Verdict::Drop(reason) => {
                        block.drop_item(reason);
                        continue;
                    }
                };
                // A twin asks its original's fact: a question whose answer is
                // the changed element (a tick under a tick change, a colour
                // under a palette change) is not paired with that change. Only
                // a fact the change removes is kept, declared `shifted`.
                let gone = new.answer == crate::ir::Answer::Unanswerable;
                if new.answer != moved.answer && !gone {
                    block.drop_item("answer_changed");
                    continue;
                }
                let distance = match base.distance_to(&chart) {
                    Ok(d) => d,
                    Err(e) => {
                        block.drop_item("render_error");
                        block
                            .errors
                            .push(format!("table `{}`: {}: {e}", table.id, info.name));
                        continue;
                    }
                };
                if distance < crate::visual::MIN_VISIBLE {
                    block.drop_item("no_op");
                    continue;
                }
                // The recorded severity is how different the chart looks
                // (its axis's distance band); `level` keeps the ladder step.
                let measured =
                    perturb::calibration::measured_severity(axis, distance).unwrap_or(severity);
                if !self.config.severities.contains(&measured) {
                    block.drop_item("severity_band");
                    continue;
                }
                let mut rec = record(&info, measured, meta.params);
                rec.params
                    .insert("level".to_string(), serde_json::Value::from(severity));
                let aids = super::frame::aids_removed(&base.spec, &chart.spec, axis);
                if !aids.is_empty() {
                    rec.params
                        .insert("aids_removed".to_string(), serde_json::Value::from(aids));
                }
                let direction =
                    super::direction::measure(base, q, &chart, &new, std::slice::from_ref(&rec));
                if direction.eases() {
                    if !self.config.easing {
                        block.drop_item("easing");
                        continue;
                    }
                    rec.change = Change::Easing;
                }
                if let Some(reason) = self.unreadable(&new, &chart, std::slice::from_ref(&rec)) {
                    block.drop_item(&reason);
                    continue;
                }
                balance.used(axis, name, severity);
                return Some(Variant {
                    chart,
                    question: *new,
                    record: rec,
                    distance,
                    reading_change: direction.reading_change,
                });
            }
        }
        None
    }
}

/// A modified-chart variant: its chart, the question as asked on it, what
/// was applied, and how far its image is from the original's.
pub(super) struct Variant {
    pub(super) chart: Chart,
    pub(super) question: Question,
    pub(super) record: Applied,
    pub(super) distance: f64,
    /// How the asked reading changed ([`super::direction`]).
    pub(super) reading_change: f64,
}

/// The panel drawing the one series a query names, when it names exactly
/// one (in any field naming a series).
fn series_panel(query: &crate::ir::Query, panels: &[String]) -> Option<usize> {
    let named: std::collections::BTreeSet<String> = query
        .string_fields()
        .into_iter()
        .filter(|(key, _)| key.contains("series"))
        .map(|(_, v)| v)
        .collect();
    match named.len() {
        1 => panels.iter().position(|s| named.contains(s)),
        _ => None,
    }
}
