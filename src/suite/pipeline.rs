//! Generation: per table (in parallel, written in table-id order), original
//! charts in the original theme with canonical questions, then for every
//! original item its modified-chart / modified-question / modified-both
//! counterparts. Every kept item's answer is re-checked with the executor on
//! its own chart; nothing is kept with a stale answer.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use super::io::{Counts, LineWriter, io_err, prepare_out, write_manifest};
use super::{SuiteConfig, SuiteError, SuiteSummary};
use crate::ir::suite::{CHARTS_FILE, IMAGES_DIR, ITEMS_FILE, TABLES_DIR};
use crate::ir::{
    Answer, ChartKind, ChartRecord, ChartSpec, Item, Perturbation as Applied, QuestionType, Scene,
    SetName, Style, Table,
};
use crate::perturb::{self, AnswerEffect, ChartContext, Perturbation, Stage};
use crate::questions::{self, Question, QuestionOptions};
use crate::seed;

/// A rendered chart of the suite.
#[derive(Clone)]
struct Chart {
    id: String,
    spec: Arc<ChartSpec>,
    scene: Arc<Scene>,
    svg: Arc<String>,
    png: Arc<Vec<u8>>,
}

impl Chart {
    fn image(&self) -> String {
        format!("{IMAGES_DIR}/{}.png", self.id)
    }

    /// Kind of panel `panel` (the item's target), else of the first panel.
    fn kind_of(&self, panel: usize) -> ChartKind {
        let panels = self.spec.panels();
        panels
            .get(panel)
            .or(panels.first())
            .map_or(ChartKind::Bar, |p| p.kind)
    }

    fn kind(&self) -> ChartKind {
        self.kind_of(0)
    }
}

/// Everything generation needs besides the table at hand.
struct Env<'a> {
    config: &'a SuiteConfig,
    tables: &'a [Table],
    original_style: Style,
    themes: Vec<Style>,
    chart_perts: Vec<&'static dyn Perturbation>,
    question_perts: Vec<&'static str>,
    data_shift: bool,
}

/// One table's share of the suite.
#[derive(Default)]
struct Block {
    items: Vec<Item>,
    charts: HashMap<String, Chart>,
    dropped: BTreeMap<String, u64>,
    errors: Vec<String>,
}

impl Block {
    fn drop_item(&mut self, reason: &str) {
        *self.dropped.entry(reason.to_string()).or_default() += 1;
    }

    /// A modified item on a chart of its own (kept once per chart id).
    fn push_with_chart(&mut self, item: Item, chart: Chart) {
        self.items.push(item);
        self.charts.entry(chart.id.clone()).or_insert(chart);
    }
}

fn json<T: serde::Serialize>(record: &T) -> String {
    serde_json::to_string(record).expect("record serializes")
}

fn stage_err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

fn render(spec: ChartSpec) -> Result<Chart, String> {
    let out = crate::render::render(&spec).map_err(stage_err)?;
    Ok(Chart {
        id: spec.fingerprint(),
        spec: Arc::new(spec),
        scene: Arc::new(out.scene),
        svg: Arc::new(out.svg),
        png: Arc::new(out.png),
    })
}

/// The executor's answer, with a refusal read as "unanswerable".
fn executed(query: &crate::ir::Query, chart: &Chart) -> Answer {
    crate::query::execute(query, &chart.spec, &chart.scene).unwrap_or(Answer::Unanswerable)
}

fn short_hash(parts: &[&str]) -> String {
    let mut h = blake3::Hasher::new();
    for p in parts {
        h.update(&(p.len() as u64).to_le_bytes());
        h.update(p.as_bytes());
    }
    h.finalize().to_hex()[..12].to_string()
}

fn to_item(
    q: &Question,
    id: String,
    set: SetName,
    origin: Option<&str>,
    chart: &Chart,
    table_id: &str,
    perturbations: Vec<Applied>,
) -> Item {
    Item {
        id,
        set,
        origin: origin.map(str::to_string),
        chart_id: chart.id.clone(),
        image: chart.image(),
        table_id: table_id.to_string(),
        chart_kind: chart.kind_of(q.query.panel()),
        question: q.text.clone(),
        question_type: q.question_type,
        family: q.family.clone(),
        query: q.query.clone(),
        answer: q.answer.clone(),
        answer_text: q.answer.to_text(),
        answer_kind: q.answer_kind,
        answerable: q.answerable,
        choices: q.choices.clone(),
        history: q.history.clone(),
        paragraph: q.paragraph.clone(),
        realization: q.realization.clone(),
        perturbations,
    }
}

fn record(
    info: &perturb::Info,
    severity: u8,
    params: BTreeMap<String, serde_json::Value>,
) -> Applied {
    Applied {
        axis: info.axis.to_string(),
        name: info.name.to_string(),
        severity,
        params,
    }
}

/// Per-table counters that steer choices toward the configured shares.
#[derive(Default)]
struct Balance {
    seed: u64,
    kinds: BTreeMap<ChartKind, u64>,
    types: BTreeMap<QuestionType, u64>,
    families: BTreeMap<String, u64>,
    /// Answer balance per set: (set, yes_no|true_false, value) and (set, letter).
    polarity: BTreeMap<(&'static str, &'static str, bool), u64>,
    letters: BTreeMap<(&'static str, char), u64>,
    axes: BTreeMap<String, u64>,
    severities: BTreeMap<(String, u8), u64>,
    /// Questions selected so far, and how many of them are unanswerable.
    selected: u64,
    unanswerable: u64,
}

const ORIGINAL: &str = SetName::Original.name();
/// Seeded draws a question variant gets to offer the verdict its set needs.
const POLAR_DRAWS: u8 = 3;

fn is_polar(answer: &Answer) -> bool {
    matches!(answer, Answer::YesNo { .. } | Answer::TrueFalse { .. })
}

fn weight(quota: &BTreeMap<String, f64>, key: &str) -> f64 {
    if quota.is_empty() {
        1.0
    } else {
        quota.get(key).copied().unwrap_or(0.0)
    }
}

/// How over-represented a value already is (lower = pick me); infinite when
/// its quota is zero.
fn pressure(count: u64, weight: f64) -> f64 {
    if weight <= 0.0 {
        f64::INFINITY
    } else {
        (count as f64 + 1.0) / weight
    }
}

impl Balance {
    /// The table's first chart takes the best-suited kind; later ones take
    /// the least-used kinds in a seeded order, so the less obvious suitable
    /// kinds (area, stacked area, donut) appear across a suite too.
    fn pick_kind(&mut self, options: &[ChartKind], config: &SuiteConfig) -> Option<ChartKind> {
        let first = self.kinds.is_empty();
        let kind = options
            .iter()
            .copied()
            .enumerate()
            .map(|(rank, k)| {
                let p = pressure(
                    *self.kinds.get(&k).unwrap_or(&0),
                    weight(&config.quotas.kind, k.name()),
                );
                let tie = if first {
                    rank as f64
                } else {
                    self.offset(k.name())
                };
                (p, tie, k)
            })
            .filter(|(p, _, _)| p.is_finite())
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)))?
            .2;
        *self.kinds.entry(kind).or_default() += 1;
        Some(kind)
    }

    /// Seeded offset in [0, 1) per value, so small per-table counts do not
    /// always favour the same letter or polarity first.
    fn offset(&self, what: &str) -> f64 {
        (seed::derive(self.seed, &["balance", what]) % 1000) as f64 / 1000.0
    }

    /// Sort key of a candidate (lower is picked first): unanswerable target of
    /// this slot, type quota, answer balance (polarity, letter), family quota.
    fn key(
        &self,
        q: &Question,
        want_unanswerable: bool,
        config: &SuiteConfig,
    ) -> (f64, f64, f64, f64) {
        let u = if q.answerable == want_unanswerable {
            1.0
        } else {
            0.0
        };
        let t = pressure(
            *self.types.get(&q.question_type).unwrap_or(&0),
            weight(&config.quotas.question_type, q.question_type.name()),
        );
        let f = pressure(
            *self.families.get(&q.family).unwrap_or(&0),
            weight(&config.quotas.family, &q.family),
        );
        let p = self.answer_pressure(ORIGINAL, &q.answer);
        (u, t, p, f)
    }

    /// How over-used this yes/no polarity or option letter already is in
    /// `set` (0 for the least used; 0 for other answers).
    fn answer_pressure(&self, set: &'static str, answer: &Answer) -> f64 {
        let polar = |kind: &'static str, value: bool| {
            let n = |v: bool| {
                *self.polarity.get(&(set, kind, v)).unwrap_or(&0) as f64
                    + self.offset(&format!("{kind}{v}"))
            };
            n(value) - n(!value)
        };
        match answer {
            Answer::YesNo { value } => polar("yes_no", *value),
            Answer::TrueFalse { value } => polar("true_false", *value),
            Answer::Choice { letter, .. } => {
                let n = |l: char| {
                    *self.letters.get(&(set, l)).unwrap_or(&0) as f64 + self.offset(&l.to_string())
                };
                n(*letter)
                    - ['a', 'b', 'c', 'd']
                        .into_iter()
                        .map(n)
                        .fold(f64::INFINITY, f64::min)
            }
            _ => 0.0,
        }
    }

    fn count(&mut self, q: &Question) {
        self.selected += 1;
        self.unanswerable += u64::from(!q.answerable);
        *self.types.entry(q.question_type).or_default() += 1;
        *self.families.entry(q.family.clone()).or_default() += 1;
        self.count_answer(ORIGINAL, &q.answer);
    }

    fn count_answer(&mut self, set: &'static str, answer: &Answer) {
        match answer {
            Answer::YesNo { value } => {
                *self.polarity.entry((set, "yes_no", *value)).or_default() += 1
            }
            Answer::TrueFalse { value } => {
                *self
                    .polarity
                    .entry((set, "true_false", *value))
                    .or_default() += 1
            }
            Answer::Choice { letter, .. } => *self.letters.entry((set, *letter)).or_default() += 1,
            _ => {}
        }
    }

    /// Greedy balanced choice of `n` questions among the candidates.
    fn select(
        &mut self,
        mut pool: Vec<Question>,
        n: usize,
        chart_id: &str,
        config: &SuiteConfig,
    ) -> Vec<Question> {
        let mut out = Vec::new();
        while out.len() < n && !pool.is_empty() {
            // A slot asks for an unanswerable question while the table is
            // below its share; a chart without an unanswerable candidate leaves
            // the debt to the next one, so the share holds over the suite. The
            // seeded offset moves where each table rounds.
            let share = config.unanswerable_share.clamp(0.0, 1.0);
            let want_unanswerable = share > 0.0
                && (self.unanswerable as f64)
                    < share * (self.selected as f64 + 1.0) - 0.5
                        + self.offset(&format!("unanswerable{chart_id}"));
            let (best, key) = pool
                .iter()
                .enumerate()
                .map(|(i, q)| (i, self.key(q, want_unanswerable, config)))
                .min_by(|a, b| {
                    let (x, y) = (a.1, b.1);
                    x.0.total_cmp(&y.0)
                        .then(x.1.total_cmp(&y.1))
                        .then(x.2.total_cmp(&y.2))
                        .then(x.3.total_cmp(&y.3))
                        .then(a.0.cmp(&b.0))
                })
                .expect("pool is not empty");
            if !(key.1.is_finite() && key.3.is_finite()) {
                break;
            }
            let q = pool.remove(best);
            self.count(&q);
            out.push(q);
        }
        out
    }

    /// Axes ordered by how much they are owed; ties broken by a seeded rotation.
    fn axes_in_order(
        &self,
        axes: &[&'static str],
        config: &SuiteConfig,
        seed: u64,
    ) -> Vec<&'static str> {
        let rot = if axes.is_empty() {
            0
        } else {
            (seed % axes.len() as u64) as usize
        };
        let mut order: Vec<(f64, usize, &'static str)> = axes
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let p = pressure(
                    *self.axes.get(*a).unwrap_or(&0),
                    weight(&config.quotas.axis, a),
                );
                (p, (i + axes.len() - rot) % axes.len(), *a)
            })
            .filter(|(p, _, _)| p.is_finite())
            .collect();
        order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        order.into_iter().map(|(_, _, a)| a).collect()
    }

    fn severity(&self, name: &str, config: &SuiteConfig, seed: u64) -> u8 {
        let sevs = &config.severities;
        let rot = (seed % sevs.len() as u64) as usize;
        (0..sevs.len())
            .map(|i| sevs[(i + rot) % sevs.len()])
            .min_by_key(|s| *self.severities.get(&(name.to_string(), *s)).unwrap_or(&0))
            .unwrap_or(1)
    }

    fn used(&mut self, axis: &str, name: &str, severity: u8) {
        *self.axes.entry(axis.to_string()).or_default() += 1;
        *self
            .severities
            .entry((name.to_string(), severity))
            .or_default() += 1;
    }
}

enum Verdict {
    Keep(Box<Question>),
    Drop(&'static str),
}

/// Re-checks a question on a perturbed chart against the perturbation's declaration.
fn recheck(effect: AnswerEffect, q: &Question, chart: &Chart) -> Verdict {
    let now = executed(&q.query, chart);
    if now == q.answer {
        return Verdict::Keep(Box::new(q.clone()));
    }
    // Descriptive answers (title, ticks, legend, source…) are read from the
    // scene, which style changes and clutter legitimately alter, whatever the
    // question's type.
    let effect = if effect == AnswerEffect::Preserving && crate::query::is_descriptive(&q.query) {
        AnswerEffect::Recomputing
    } else {
        effect
    };
    let gone = now == Answer::Unanswerable;
    match effect {
        AnswerEffect::Preserving => Verdict::Drop("preserving_violation"),
        _ if !q.answerable => Verdict::Drop("became_answerable"),
        AnswerEffect::Recomputing if gone => Verdict::Drop("not_visible"),
        _ => {
            let mut out = q.clone();
            out.answerable = !gone;
            out.answer = now;
            Verdict::Keep(Box::new(out))
        }
    }
}

/// Order in which to try perturbations of one axis for one item.
fn shuffled<T: Copy>(items: &[T], seed: u64) -> Vec<T> {
    use rand::seq::SliceRandom;
    let mut v = items.to_vec();
    v.shuffle(&mut seed::rng(seed, &["order"]));
    v
}

const ATTEMPTS: usize = 6;

impl Env<'_> {
    fn chart_axes(&self) -> Vec<&'static str> {
        let mut axes: Vec<&'static str> = self.chart_perts.iter().map(|p| p.info().axis).collect();
        if self.data_shift {
            axes.push(perturb::registry::DATA_SHIFT.axis);
        }
        axes.dedup();
        let mut seen = HashSet::new();
        axes.retain(|a| seen.insert(*a));
        axes
    }

    fn question_axes(&self) -> Vec<&'static str> {
        let mut seen = HashSet::new();
        self.question_perts
            .iter()
            .filter_map(|n| perturb::question::info(n).map(|i| i.axis))
            .filter(|a| seen.insert(*a))
            .collect()
    }

    /// Applies one chart perturbation; `Ok(None)` when it does not apply.
    fn apply_chart(
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
                let chart = render(applied.value)?;
                let meta = perturb::Applied {
                    value: (),
                    params: applied.params,
                    target_panel: applied.target_panel,
                };
                Ok(Some((chart, meta)))
            }
            Stage::Svg => {
                let Some(applied) = pert.apply_svg(&base.svg, &base.scene, severity, seed) else {
                    return Ok(None);
                };
                let png = crate::render::svg_to_png(&applied.value.svg).map_err(stage_err)?;
                let mut scene = (*base.scene).clone();
                scene.extra_text.extend(applied.value.extra_text);
                let params = serde_json::to_string(&applied.params).unwrap_or_default();
                let chart = Chart {
                    id: format!(
                        "{}{}",
                        &base.id[..4],
                        &short_hash(&[&base.id, info.name, &severity.to_string(), &params])
                    ),
                    spec: base.spec.clone(),
                    scene: Arc::new(scene),
                    svg: Arc::new(applied.value.svg),
                    png: Arc::new(png),
                };
                Ok(Some((
                    chart,
                    perturb::Applied {
                        value: (),
                        params: applied.params,
                        target_panel: None,
                    },
                )))
            }
            Stage::Image => {
                let Some(applied) = pert
                    .apply_image(&base.png, severity, seed)
                    .map_err(stage_err)?
                else {
                    return Ok(None);
                };
                let params = serde_json::to_string(&applied.params).unwrap_or_default();
                let chart = Chart {
                    id: format!(
                        "{}{}",
                        &base.id[..4],
                        &short_hash(&[&base.id, info.name, &severity.to_string(), &params])
                    ),
                    spec: base.spec.clone(),
                    scene: base.scene.clone(),
                    svg: base.svg.clone(),
                    png: Arc::new(applied.value),
                };
                Ok(Some((
                    chart,
                    perturb::Applied {
                        value: (),
                        params: applied.params,
                        target_panel: None,
                    },
                )))
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
                return Ok(Some((chart, new, record(&info, severity, params))));
            }
        }
        Ok(None)
    }

    /// One modified-chart variant of `q` on `base`, or the reasons it failed.
    fn chart_variant(
        &self,
        q: &Question,
        base: &Chart,
        table: &Table,
        item_seed: u64,
        balance: &mut Balance,
        block: &mut Block,
    ) -> Option<(Chart, Question, Applied)> {
        let axes = balance.axes_in_order(&self.chart_axes(), self.config, item_seed);
        let mut attempts = 0;
        for axis in axes {
            let perts: Vec<&'static dyn Perturbation> = self
                .chart_perts
                .iter()
                .copied()
                .filter(|p| p.info().axis == axis)
                .collect();
            let data = axis == perturb::registry::DATA_SHIFT.axis && self.data_shift;
            let names: Vec<&'static str> = if data {
                vec![perturb::registry::DATA_SHIFT.name]
            } else {
                perts.iter().map(|p| p.info().name).collect()
            };
            for name in shuffled(&names, seed::derive(item_seed, &[axis])) {
                if attempts >= ATTEMPTS {
                    return None;
                }
                let severity =
                    balance.severity(name, self.config, seed::derive(item_seed, &[name]));
                if data {
                    attempts += 1;
                    match self.data_shift(q, table, base, severity, item_seed) {
                        Ok(Some((chart, new, rec))) => {
                            balance.used(axis, name, severity);
                            return Some((chart, new, rec));
                        }
                        Ok(None) => continue,
                        Err(e) => {
                            block.drop_item("render_error");
                            block
                                .errors
                                .push(format!("table `{}`: data_shift: {e}", table.id));
                            continue;
                        }
                    }
                }
                let Some(pert) = perts.iter().find(|p| p.info().name == name) else {
                    continue;
                };
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
                let mut moved = q.clone();
                if let Some(to) = meta.target_panel {
                    moved.query = perturb::retarget_panel(&q.query, 0, to);
                    let reference = perturb::subplots::panel_reference(&chart.spec, to);
                    // The panel is named where the conversation starts.
                    match moved.history.first_mut() {
                        Some(turn) => {
                            turn.question = format!("Refer to {reference}. {}", turn.question)
                        }
                        None => moved.text = format!("Refer to {reference}. {}", q.text),
                    }
                }
                match recheck(info.effect, &moved, &chart) {
                    Verdict::Keep(new) => {
                        balance.used(axis, name, severity);
                        return Some((chart, *new, record(&info, severity, meta.params)));
                    }
                    Verdict::Drop(reason) => block.drop_item(reason),
                }
            }
        }
        None
    }

    /// One modified-question variant of `q` on `chart`.
    fn question_variant(
        &self,
        q: &Question,
        chart: &Chart,
        item_seed: u64,
        set: SetName,
        balance: &mut Balance,
        block: &mut Block,
    ) -> Option<(Question, Applied)> {
        let axes = balance.axes_in_order(&self.question_axes(), self.config, item_seed);
        for axis in axes {
            let names: Vec<&'static str> = self
                .question_perts
                .iter()
                .copied()
                .filter(|n| perturb::question::info(n).is_some_and(|i| i.axis == axis))
                .collect();
            for name in shuffled(&names, seed::derive(item_seed, &[axis])) {
                let info = perturb::question::info(name)?;
                let severity =
                    balance.severity(name, self.config, seed::derive(item_seed, &[name]));
                // Fact checks and yes/no reformats take the verdict this set
                // has used least when any of a few seeded draws offers it;
                // otherwise the first draw's pick stands. Option letters are
                // evened out suite-wide afterwards (`letters`).
                let wanted = |c: &Question| {
                    !is_polar(&c.answer) || balance.answer_pressure(set.name(), &c.answer) <= 0.0
                };
                let mut best = None;
                let mut fallback = None;
                for draw in 0..POLAR_DRAWS {
                    let Some(a) = perturb::question::apply_preferring(
                        name,
                        q,
                        &chart.spec,
                        &chart.scene,
                        severity,
                        seed::derive(item_seed, &[name, &draw.to_string()]),
                        &wanted,
                    ) else {
                        continue;
                    };
                    if wanted(&a.value) {
                        best = Some(a);
                        break;
                    }
                    fallback.get_or_insert(a);
                }
                let best = best.or(fallback);
                let Some(applied) = best else {
                    continue;
                };
                let new = applied.value;
                if executed(&new.query, chart) != new.answer {
                    block.drop_item("executor_mismatch");
                    continue;
                }
                if info.effect == AnswerEffect::Preserving
                    && (new.answer != q.answer || new.query != q.query)
                {
                    block.drop_item("preserving_violation");
                    continue;
                }
                balance.used(axis, name, severity);
                balance.count_answer(set.name(), &new.answer);
                return Some((new, record(&info, severity, applied.params)));
            }
        }
        None
    }

    fn table_block(&self, table: &Table) -> Block {
        let config = self.config;
        let mut block = Block::default();
        let mut balance = Balance {
            seed: seed::derive(config.seed, &["table", &table.id]),
            ..Balance::default()
        };
        let suitable = crate::spec::suitable_kinds(table);
        let options: Vec<ChartKind> = if config.kinds.is_empty() {
            suitable
        } else {
            suitable
                .into_iter()
                .filter(|k| config.kinds.contains(k))
                .collect()
        };
        let mut seen_charts = HashSet::new();
        for c in 0..config.charts_per_table {
            let Some(kind) = balance.pick_kind(&options, config) else {
                break;
            };
            let spec = match crate::spec::single(table, kind, &self.original_style) {
                Ok(s) => s,
                Err(e) => {
                    block
                        .errors
                        .push(format!("table `{}`: {} chart: {e}", table.id, kind.name()));
                    continue;
                }
            };
            let chart = match render(spec) {
                Ok(c) => c,
                Err(e) => {
                    block.errors.push(format!(
                        "table `{}`: rendering a {} chart: {e}",
                        table.id,
                        kind.name()
                    ));
                    continue;
                }
            };
            if !seen_charts.insert(chart.id.clone()) {
                continue;
            }
            // Spelled out with `..Default::default()` so new option fields keep defaults.
            #[allow(clippy::needless_update)]
            let opts = QuestionOptions {
                seed: seed::derive(config.seed, &["questions", &chart.id, &c.to_string()]),
                count: config.questions_per_chart * config.oversample.max(1),
                types: config.question_types.clone(),
                families: config.families.clone(),
                // Candidates over-represent unanswerable questions (not every
                // chart yields one); `select` then keeps the configured share.
                unanswerable_share: (config.unanswerable_share * 2.5)
                    .clamp(config.unanswerable_share, 0.9),
                ..QuestionOptions::default()
            };
            let candidates = questions::generate(&chart.id, &chart.spec, &chart.scene, &opts);
            let chosen = balance.select(candidates, config.questions_per_chart, &chart.id, config);
            for (i, q) in chosen.into_iter().enumerate() {
                if executed(&q.query, &chart) != q.answer {
                    block.drop_item("executor_mismatch");
                    continue;
                }
                let id = short_hash(&[&table.id, &chart.id, &q.family, &i.to_string()]);
                let item_seed = seed::derive(config.seed, &[&id]);
                block
                    .charts
                    .entry(chart.id.clone())
                    .or_insert_with(|| chart.clone());
                block.items.push(to_item(
                    &q,
                    id.clone(),
                    SetName::Original,
                    None,
                    &chart,
                    &table.id,
                    Vec::new(),
                ));
                for v in 0..config.variants_per_original {
                    let v_seed = seed::derive(item_seed, &["variant", &v.to_string()]);
                    if config.sets.contains(&SetName::ModifiedChart)
                        && let Some((new_chart, new_q, rec)) = self.chart_variant(
                            &q,
                            &chart,
                            table,
                            seed::derive(v_seed, &["chart"]),
                            &mut balance,
                            &mut block,
                        )
                    {
                        let item = to_item(
                            &new_q,
                            format!("{id}-c{v}"),
                            SetName::ModifiedChart,
                            Some(&id),
                            &new_chart,
                            &table.id,
                            vec![rec],
                        );
                        block.push_with_chart(item, new_chart);
                    }
                    if config.sets.contains(&SetName::ModifiedQuestion)
                        && let Some((new_q, rec)) = self.question_variant(
                            &q,
                            &chart,
                            seed::derive(v_seed, &["question"]),
                            SetName::ModifiedQuestion,
                            &mut balance,
                            &mut block,
                        )
                    {
                        block.items.push(to_item(
                            &new_q,
                            format!("{id}-q{v}"),
                            SetName::ModifiedQuestion,
                            Some(&id),
                            &chart,
                            &table.id,
                            vec![rec],
                        ));
                    }
                    if config.sets.contains(&SetName::ModifiedBoth)
                        && let Some((new_chart, mid_q, chart_rec)) = self.chart_variant(
                            &q,
                            &chart,
                            table,
                            seed::derive(v_seed, &["both-chart"]),
                            &mut balance,
                            &mut block,
                        )
                        && let Some((new_q, q_rec)) = self.question_variant(
                            &mid_q,
                            &new_chart,
                            seed::derive(v_seed, &["both-question"]),
                            SetName::ModifiedBoth,
                            &mut balance,
                            &mut block,
                        )
                    {
                        let item = to_item(
                            &new_q,
                            format!("{id}-b{v}"),
                            SetName::ModifiedBoth,
                            Some(&id),
                            &new_chart,
                            &table.id,
                            vec![chart_rec, q_rec],
                        );
                        block.push_with_chart(item, new_chart);
                    }
                }
            }
        }
        block
    }
}

fn resolve_env<'a>(config: &'a SuiteConfig, tables: &'a [Table]) -> Result<Env<'a>, SuiteError> {
    let original_style = crate::spec::theme(&config.original_theme).map_err(|e| {
        SuiteError::InvalidConfig(format!("original_theme `{}`: {e}", config.original_theme))
    })?;
    let builtin = crate::spec::builtin_themes();
    let themes = if config.themes.is_empty() {
        builtin
    } else {
        config
            .themes
            .iter()
            .map(|name| {
                builtin
                    .iter()
                    .find(|t| &t.theme == name)
                    .cloned()
                    .ok_or_else(|| SuiteError::InvalidConfig(format!("unknown theme `{name}`")))
            })
            .collect::<Result<_, _>>()?
    };
    let wanted = |axis: &str, name: &str| {
        (config.axes.is_empty() || config.axes.iter().any(|a| a == axis))
            && !config.exclude_perturbations.iter().any(|n| n == name)
    };
    let chart_perts = perturb::chart_perturbations()
        .iter()
        .copied()
        .filter(|p| wanted(p.info().axis, p.info().name))
        .collect();
    let question_perts = perturb::question::available()
        .into_iter()
        .filter(|n| perturb::question::info(n).is_some_and(|i| wanted(i.axis, i.name)))
        .collect();
    let ds = perturb::registry::DATA_SHIFT;
    Ok(Env {
        config,
        tables,
        original_style,
        themes,
        chart_perts,
        question_perts,
        data_shift: wanted(ds.axis, ds.name),
    })
}

/// Writes blocks in order: each chart once (record and PNG), then items.
struct SuiteWriter {
    out: PathBuf,
    items: LineWriter,
    charts: LineWriter,
    written: HashSet<String>,
}

impl SuiteWriter {
    fn create(out: &Path) -> Result<SuiteWriter, SuiteError> {
        Ok(SuiteWriter {
            out: out.to_path_buf(),
            items: LineWriter::create(&out.join(ITEMS_FILE))?,
            charts: LineWriter::create(&out.join(CHARTS_FILE))?,
            written: HashSet::new(),
        })
    }

    fn write_block(
        &mut self,
        block: &Block,
        summary: &mut SuiteSummary,
        counts: &mut Counts,
    ) -> Result<(), SuiteError> {
        for item in &block.items {
            if self.written.insert(item.chart_id.clone()) {
                let chart = &block.charts[&item.chart_id];
                self.charts.write_line(&json(&ChartRecord {
                    id: chart.id.clone(),
                    image: chart.image(),
                    spec: (*chart.spec).clone(),
                    scene: (*chart.scene).clone(),
                }))?;
                let path = self.out.join(chart.image());
                std::fs::write(&path, chart.png.as_slice()).map_err(io_err(&path))?;
                summary.charts += 1;
            }
            counts.add_item(item);
            self.items.write_line(&json(item))?;
            summary.items += 1;
        }
        for (reason, n) in &block.dropped {
            *summary.dropped.entry(reason.clone()).or_default() += n;
        }
        summary.errors.extend(block.errors.iter().cloned());
        Ok(())
    }

    fn finish(self) -> Result<(), SuiteError> {
        self.items.finish()?;
        self.charts.finish()
    }
}

pub fn generate(
    tables: &[Table],
    config: &SuiteConfig,
    out: &Path,
    progress: bool,
) -> Result<SuiteSummary, SuiteError> {
    if tables.is_empty() {
        return Err(SuiteError::NoTables);
    }
    let mut sorted: Vec<Table> = tables.to_vec();
    // Specs embed their tables: drop the path the table was read from, so a
    // suite (and its chart ids) does not depend on how the path was spelled.
    for t in &mut sorted {
        t.source_path = None;
    }
    sorted.sort_by(|a, b| a.id.cmp(&b.id));
    if let Some(w) = sorted.windows(2).find(|w| w[0].id == w[1].id) {
        return Err(SuiteError::DuplicateTable(w[0].id.clone()));
    }
    let env = resolve_env(config, &sorted)?;
    prepare_out(out)?;
    for table in &sorted {
        crate::table::write_table(table, &out.join(TABLES_DIR))
            .map_err(|e| SuiteError::Stage(format!("copying table `{}`: {e}", table.id)))?;
    }
    let owned: Vec<&Table> = sorted
        .iter()
        .filter(|t| config.shard.is_none_or(|s| s.owns(&t.id)))
        .collect();
    let bar = if progress {
        ProgressBar::new(owned.len() as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} tables, {msg}")
            .expect("template")
            .progress_chars("=> "),
    );

    let mut summary = SuiteSummary {
        tables: owned.len(),
        out: out.to_path_buf(),
        ..SuiteSummary::default()
    };
    let mut counts = Counts::default();
    let mut writer = SuiteWriter::create(out)?;
    // Chunks bound memory; one thread writes a chunk (PNG files, JSON lines)
    // while the pool computes the next, in table order.
    let chunk = (rayon::current_num_threads() * 8).max(8);
    std::thread::scope(|scope| -> Result<(), SuiteError> {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<Block>>(1);
        let written = scope.spawn(|| -> Result<(), SuiteError> {
            for blocks in rx {
                for block in blocks {
                    writer.write_block(&block, &mut summary, &mut counts)?;
                }
                bar.set_message(format!(
                    "{} items, {} charts",
                    summary.items, summary.charts
                ));
            }
            Ok(())
        });
        for tables in owned.chunks(chunk) {
            let blocks: Vec<Block> = tables
                .par_iter()
                .map(|t| {
                    let b = env.table_block(t);
                    bar.inc(1);
                    b
                })
                .collect();
            if tx.send(blocks).is_err() {
                break; // the writer failed; its error is returned below
            }
        }
        drop(tx);
        written.join().expect("suite writer thread")
    })?;
    writer.finish()?;
    bar.finish_and_clear();
    super::letters::balance_letters(out, config.seed, &mut counts)?;
    for (reason, n) in &summary.dropped {
        if *n > 0 {
            counts.bump("dropped", reason, *n);
        }
    }
    write_manifest(
        out,
        config.manifest_value(),
        config.seed,
        &counts,
        config.shard.map(|s| (s.index, s.count)),
    )?;
    summary.counts = counts;
    Ok(summary)
}
