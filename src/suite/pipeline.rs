//! Generation: per table (in parallel, written in table-id order), original
//! charts in the original theme with canonical questions, then for every
//! original item its modified-chart / modified-question / modified-both
//! counterparts. Every kept item's answer is re-checked with the executor on
//! its own chart; nothing is kept with a stale answer. Every kept item, original
//! or modified, goes through `Block::accept`.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use super::balance::Balance;
use super::io::{Counts, prepare_out, write_manifest};
use super::recheck::executed;
use super::writer::SuiteWriter;
use super::{SuiteConfig, SuiteError, SuiteSummary};
use crate::ir::suite::{IMAGES_DIR, TABLES_DIR};
use crate::ir::{
    ChartKind, ChartSpec, Item, Perturbation as Applied, Scene, SetName, Style, Table,
};
use crate::perturb::{self, Perturbation};
use crate::questions::{self, Question, QuestionOptions};
use crate::seed;

/// A rendered chart of the suite.
#[derive(Clone)]
pub(super) struct Chart {
    pub(super) id: String,
    pub(super) spec: Arc<ChartSpec>,
    pub(super) scene: Arc<Scene>,
    pub(super) svg: Arc<String>,
    pub(super) png: Arc<Vec<u8>>,
    /// The picture at the viewing scale (see [`crate::visual::View`]), made
    /// from the pixels when this process drew them, else from `png` on
    /// first use: one chart is compared with every variant drawn from it.
    /// An image variant's view is taken in its original's frame.
    pub(super) view: Arc<OnceLock<Result<crate::visual::View, String>>>,
    /// The decoded picture, kept from its first use by an image
    /// perturbation until [`Chart::release_picture`]: each chart is decoded
    /// once for all the image variants drawn from it.
    picture: Arc<Mutex<Option<Arc<image::RgbImage>>>>,
}

impl Chart {
    pub(super) fn new(
        id: String,
        spec: Arc<ChartSpec>,
        scene: Arc<Scene>,
        svg: Arc<String>,
        png: Vec<u8>,
        pixels: Option<&crate::render::Pixels>,
    ) -> Chart {
        let view = OnceLock::new();
        if let Some(pixels) = pixels {
            let _ = view.set(Ok(crate::visual::View::of_pixels(pixels)));
        }
        Chart {
            id,
            spec,
            scene,
            svg,
            png: Arc::new(png),
            view: Arc::new(view),
            picture: Arc::default(),
        }
    }

    /// A chart whose view was taken by the caller (an image variant's, in
    /// its original's frame).
    pub(super) fn with_view(self, view: crate::visual::View) -> Chart {
        let _ = self.view.set(Ok(view));
        self
    }

    fn decoded(&self) -> Result<image::RgbImage, String> {
        chartstress_pixels::resample::decode_rgb(&self.png).map_err(stage_err)
    }

    pub(super) fn picture(&self) -> Result<Arc<image::RgbImage>, String> {
        let mut slot = self.picture.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(picture) = slot.as_ref() {
            return Ok(Arc::clone(picture));
        }
        let picture = Arc::new(self.decoded()?);
        *slot = Some(Arc::clone(&picture));
        Ok(picture)
    }

    /// Frees the decoded picture once no more variants are drawn from this
    /// chart, so memory stays flat in suite size.
    pub(super) fn release_picture(&self) {
        *self.picture.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }

    /// `image` (a picture drawn from this chart) seen in this chart's frame.
    pub(super) fn view_of(&self, image: &image::RgbImage) -> Result<crate::visual::View, String> {
        Ok(self.view()?.framed(image))
    }

    fn view(&self) -> Result<&crate::visual::View, String> {
        self.view
            .get_or_init(|| self.decoded().map(|i| crate::visual::View::of(&i)))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Visual distance of `other` from this chart (see [`crate::visual`]).
    pub(super) fn distance_to(&self, other: &Chart) -> Result<f64, String> {
        let view = self.view()?;
        let other_view = other.view()?;
        if other_view.size() == view.size() {
            return Ok(view.distance_to(other_view));
        }
        // Another size: compared in this chart's frame, from the full picture.
        Ok(view.distance_to(&view.framed(&other.decoded()?)))
    }

    pub(super) fn image(&self) -> String {
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

    pub(super) fn kind(&self) -> ChartKind {
        self.kind_of(0)
    }
}

/// Everything generation needs besides the table at hand.
pub(super) struct Env<'a> {
    pub(super) config: &'a SuiteConfig,
    pub(super) tables: &'a [Table],
    pub(super) original_style: Style,
    pub(super) themes: Vec<Style>,
    pub(super) chart_perts: Vec<&'static dyn Perturbation>,
    pub(super) question_perts: Vec<&'static str>,
    pub(super) data_shift: bool,
    /// Each table's original chart kinds, planned over the whole suite.
    pub(super) kind_plan: HashMap<String, Vec<ChartKind>>,
}

/// One table's share of the suite.
#[derive(Default)]
pub(super) struct Block {
    pub(super) items: Vec<Item>,
    pub(super) charts: HashMap<String, Chart>,
    pub(super) dropped: BTreeMap<String, u64>,
    pub(super) errors: Vec<String>,
}

impl Block {
    pub(super) fn drop_item(&mut self, reason: &str) {
        *self.dropped.entry(reason.to_string()).or_default() += 1;
    }

    /// The one gate every candidate item passes, original or modified, with
    /// the chart it is asked on (kept once per chart id). Returns whether the
    /// item was kept; a rejection is counted with `drop_item` so the reason
    /// shows in the summary. Per-item checks (e.g. a reader baseline) go here.
    fn accept(&mut self, item: Item, chart: &Chart) -> bool {
        if prints_non_finite(&item) {
            self.drop_item("non_finite");
            return false;
        }
        self.charts
            .entry(chart.id.clone())
            .or_insert_with(|| chart.clone());
        self.items.push(item);
        true
    }
}

/// `inf`, `$inf`, `NaN`, `NaNe12%`: a number that overflowed, printed.
static NON_FINITE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r"(^|[^A-Za-z])(-?inf|NaN)([^A-Za-z]|e[-+0-9]|$)").expect("non-finite regex")
});

/// Whether anything an item shows or expects holds a non-finite number: a
/// last check where items are written (tables are range-checked on load).
fn prints_non_finite(item: &Item) -> bool {
    if let crate::ir::Answer::Number { value, .. } = &item.answer
        && !value.is_finite()
    {
        return true;
    }
    fn walk(v: &serde_json::Value) -> bool {
        match v {
            serde_json::Value::String(s) => NON_FINITE.is_match(s),
            serde_json::Value::Array(a) => a.iter().any(walk),
            serde_json::Value::Object(o) => o.values().any(walk),
            _ => false,
        }
    }
    serde_json::to_value(item).is_ok_and(|v| walk(&v))
}

pub(super) fn stage_err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

pub(super) fn render(spec: ChartSpec) -> Result<Chart, String> {
    let (out, pixels) = crate::render::render_with_pixels(&spec).map_err(stage_err)?;
    Ok(Chart::new(
        spec.fingerprint(),
        Arc::new(spec),
        Arc::new(out.scene),
        Arc::new(out.svg),
        out.png,
        Some(&pixels),
    ))
}

pub(super) fn short_hash(parts: &[&str]) -> String {
    let mut h = blake3::Hasher::new();
    for p in parts {
        h.update(&(p.len() as u64).to_le_bytes());
        h.update(p.as_bytes());
    }
    h.finalize().to_hex()[..12].to_string()
}

/// An item's identity within the suite: its id, set, origin and perturbations.
struct Label<'a> {
    id: String,
    set: SetName,
    origin: Option<&'a str>,
    perturbations: Vec<Applied>,
    visual_distance: Option<f64>,
    reading_change: Option<f64>,
}

fn to_item(q: &Question, label: Label<'_>, chart: &Chart, table_id: &str) -> Item {
    Item {
        id: label.id,
        set: label.set,
        origin: label.origin.map(str::to_string),
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
        perturbations: label.perturbations,
        visual_distance: label.visual_distance,
        reading_change: label.reading_change,
    }
}

pub(super) fn record(
    info: &perturb::Info,
    severity: u8,
    params: BTreeMap<String, serde_json::Value>,
) -> Applied {
    Applied {
        axis: info.axis.to_string(),
        name: info.name.to_string(),
        severity,
        change: crate::ir::Change::Stress,
        params,
    }
}

/// A change that leaves the chart without the asked fact (an unanswerable
/// rewrite, a removed legend) asks for another fact: its record is tagged
/// `shifted`, so the item is reported apart from the robustness gap, as a
/// data shift is, instead of counting abstention as robustness.
fn tag_gone_fact(item: &mut Item, original: &Question) {
    if !original.answerable || item.answer != crate::ir::Answer::Unanswerable {
        return;
    }
    for p in &mut item.perturbations {
        if perturb::info(&p.name).is_some_and(|i| i.effect == perturb::AnswerEffect::Breaking) {
            p.change = crate::ir::Change::Shifted;
        }
    }
}

/// One original item and what its variants derive from.
struct Original<'a> {
    q: Question,
    id: String,
    chart: &'a Chart,
    table: &'a Table,
}

impl Env<'_> {
    /// The table's chart of `kind` in the original theme; failures are
    /// recorded on the block.
    fn original_chart(&self, table: &Table, kind: ChartKind, block: &mut Block) -> Option<Chart> {
        // A slice's share cannot be judged to 5% by its angle: original pies
        // print their percentages, as most published pies do. A seeded share
        // of small bar and line charts print values too, as many published
        // ones do; removing them (`data_labels`) is then a real stress change.
        // Heatmaps print their cells' values, as papers draw them.
        let labelled;
        let style = if !self.original_style.data_labels
            && (kind.is_circular()
                || kind == ChartKind::Heatmap
                || self.labels_original(table, kind))
        {
            let mut style = Style {
                data_labels: true,
                ..self.original_style.clone()
            };
            style.furniture.hide_value_axis = self.bare_value_axis(table, kind);
            labelled = style;
            &labelled
        } else {
            &self.original_style
        };
        let spec = match crate::spec::single(table, kind, style) {
            Ok(mut s) => {
                s.source_line = self.source_line(table, kind);
                match self.as_figure(&s, table, kind) {
                    Some(figure) => figure,
                    None => {
                        self.annotate(&mut s, table, kind);
                        self.untitle(&mut s, table, kind);
                        self.untitle_category_axis(&mut s, table, kind);
                        s
                    }
                }
            }
            Err(e) => {
                block
                    .errors
                    .push(format!("table `{}`: {} chart: {e}", table.id, kind.name()));
                return None;
            }
        };
        match render(spec) {
            Ok(c) => Some(c),
            Err(e) => {
                block.errors.push(format!(
                    "table `{}`: rendering a {} chart: {e}",
                    table.id,
                    kind.name()
                ));
                None
            }
        }
    }

    /// Whether the original `kind` chart of `table` prints its values: a
    /// seeded `labelled_originals` share of bar (lollipop, percent-stacked) and
    /// single-series line charts with few enough marks that labels do not crowd.
    /// The source printed under the original chart: the table's, on a
    /// seeded `source_lines` share of charts.
    fn source_line(&self, table: &Table, kind: ChartKind) -> Option<String> {
        let source = table
            .meta
            .source
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())?;
        self.prints_source(&[&table.id, kind.name()])
            .then(|| source.to_string())
    }

    /// Whether the chart named by `key` prints its source line (a seeded
    /// `source_lines` share).
    fn prints_source(&self, key: &[&str]) -> bool {
        use rand::RngExt;
        let mut parts = vec!["source line"];
        parts.extend_from_slice(key);
        seed::rng(self.config.seed, &parts).random_bool(self.config.source_lines.clamp(0.0, 1.0))
    }

    /// On a seeded `figures` share of original charts of several like
    /// series, the same chart as a lettered figure of small multiples (same
    /// style and source line).
    fn as_figure(
        &self,
        spec: &crate::ir::ChartSpec,
        table: &Table,
        kind: ChartKind,
    ) -> Option<crate::ir::ChartSpec> {
        use rand::RngExt;
        if self.config.figures <= 0.0 {
            return None;
        }
        let crate::ir::Layout::Single { panel } = &spec.layout else {
            return None;
        };
        if panel.series.len() < 2
            || !seed::rng(self.config.seed, &["figure", &table.id, kind.name()])
                .random_bool(self.config.figures.clamp(0.0, 1.0))
        {
            return None;
        }
        let mut figure = crate::spec::multiples::small_multiples(
            table,
            kind,
            &panel.series,
            &panel.style,
            panel.title.clone(),
        )
        .ok()?;
        figure.source_line = spec.source_line.clone();
        Some(figure)
    }

    /// Whether a labelled original bar chart leaves its value axis off (a
    /// seeded `bare_value_axes` share), as many news charts do.
    fn bare_value_axis(&self, table: &Table, kind: ChartKind) -> bool {
        use rand::RngExt;
        matches!(
            kind,
            ChartKind::Bar | ChartKind::HorizontalBar | ChartKind::GroupedBar
        ) && seed::rng(
            self.config.seed,
            &["bare value axis", &table.id, kind.name()],
        )
        .random_bool(self.config.bare_value_axes.clamp(0.0, 1.0))
    }

    /// On a seeded `untitled_originals` share of single charts, no title
    /// (nor subtitle) drawn, as in papers and slides whose caption names the
    /// chart. A chart without a value axis keeps its title: it is what
    /// names the measure.
    fn untitle(&self, spec: &mut crate::ir::ChartSpec, table: &Table, kind: ChartKind) {
        use rand::RngExt;
        // A chart with no axis title (a radar, a pie) names its measure in
        // the title alone: without it a question would name what no one sees.
        if let crate::ir::Layout::Single { panel } = &mut spec.layout
            && !panel.style.furniture.hide_value_axis
            && (panel.x_label.is_some() || panel.y_label.is_some())
            && seed::rng(self.config.seed, &["untitled", &table.id, kind.name()])
                .random_bool(self.config.untitled_originals.clamp(0.0, 1.0))
        {
            panel.style.title_placement = crate::ir::spec::TitlePlacement::Hidden;
        }
    }

    /// On a seeded `untitled_category_axes` share of single bar, line and
    /// area charts, no title on the axis that lists the categories: the
    /// years or names say what they are, and most published charts leave
    /// it off.
    fn untitle_category_axis(
        &self,
        spec: &mut crate::ir::ChartSpec,
        table: &Table,
        kind: ChartKind,
    ) {
        use rand::RngExt;
        let categorical = matches!(
            kind,
            ChartKind::Bar
                | ChartKind::HorizontalBar
                | ChartKind::GroupedBar
                | ChartKind::StackedBar
                | ChartKind::Line
                | ChartKind::Area
                | ChartKind::StackedArea
                | ChartKind::Lollipop
        );
        if let crate::ir::Layout::Single { panel } = &mut spec.layout
            && categorical
            && seed::rng(self.config.seed, &["untitled axis", &table.id, kind.name()])
                .random_bool(self.config.untitled_category_axes.clamp(0.0, 1.0))
        {
            if kind.is_horizontal() {
                panel.y_label = None;
            } else {
                panel.x_label = None;
            }
        }
    }

    /// A seeded `annotations` share of original charts of the kinds that
    /// carry one get the annotation their data fits.
    fn annotate(&self, spec: &mut crate::ir::ChartSpec, table: &Table, kind: ChartKind) {
        use rand::RngExt;
        if !crate::spec::annotation::annotates(kind)
            || !seed::rng(self.config.seed, &["annotate", &table.id, kind.name()])
                .random_bool(self.config.annotations.clamp(0.0, 1.0))
        {
            return;
        }
        for panel in spec.panels_mut() {
            panel.annotation = crate::spec::annotation::choose(panel, self.config.seed);
        }
    }

    fn labels_original(&self, table: &Table, kind: ChartKind) -> bool {
        use rand::RngExt;
        const MAX_LABELLED_MARKS: usize = 24;
        let series = table.series.len();
        let fits = match kind {
            ChartKind::Bar
            | ChartKind::HorizontalBar
            | ChartKind::GroupedBar
            | ChartKind::Lollipop
            | ChartKind::Waterfall
            | ChartKind::ErrorBar
            | ChartKind::PercentStackedBar
            | ChartKind::DivergingBar
            | ChartKind::Dumbbell
            | ChartKind::Slope => true,
            ChartKind::Line => series == 1,
            _ => false,
        };
        fits && table.n_rows() * series <= MAX_LABELLED_MARKS
            && seed::rng(self.config.seed, &["labels", &table.id, kind.name()])
                .random_bool(self.config.labelled_originals.clamp(0.0, 1.0))
    }

    /// Canonical candidates for the `nth` chart of a table, and the balanced
    /// choice among them.
    fn select_questions(
        &self,
        chart: &Chart,
        nth: usize,
        balance: &mut Balance,
        block: &mut Block,
    ) -> Vec<Question> {
        let config = self.config;
        // Spelled out with `..Default::default()` so new option fields keep defaults.
        #[allow(clippy::needless_update)]
        let opts = QuestionOptions {
            seed: seed::derive(config.seed, &["questions", &chart.id, &nth.to_string()]),
            count: config.questions_per_chart * config.oversample.max(1),
            types: config.question_types.clone(),
            families: config.families.clone(),
            // `select` makes its share of the chosen questions unanswerable
            // after choosing them, so candidates about data are answerable.
            unanswerable_share: 0.0,
            ..QuestionOptions::default()
        };
        // Only readable candidates compete, so an unreadable one is replaced
        // by another question rather than lost.
        let candidates: Vec<Question> =
            questions::generate(&chart.id, &chart.spec, &chart.scene, &opts)
                .into_iter()
                .filter(|q| match self.unreadable(q, chart, &[]) {
                    None => true,
                    // The generator proposes only what the reader reads; a
                    // rejection here is a disagreement between the two,
                    // counted apart from the variants' drops.
                    Some(reason) => {
                        block.drop_item(&format!("original_{reason}"));
                        false
                    }
                })
                .collect();
        let unanswerable_form = |q: &Question, seed: u64| {
            questions::unanswerable_variant(q, &chart.spec, &chart.scene, seed)
                .filter(|u| self.unreadable(u, chart, &[]).is_none())
        };
        balance.select(
            candidates,
            config.questions_per_chart,
            &chart.id,
            config,
            unanswerable_form,
        )
    }

    /// The `i`th chosen question of `chart` as an original item, if kept.
    fn original_item<'a>(
        &self,
        q: Question,
        i: usize,
        chart: &'a Chart,
        table: &'a Table,
        block: &mut Block,
    ) -> Option<Original<'a>> {
        if executed(&q.query, chart) != q.answer {
            block.drop_item("executor_mismatch");
            return None;
        }
        let id = short_hash(&[&table.id, &chart.id, &q.family, &i.to_string()]);
        let label = Label {
            id: id.clone(),
            set: SetName::Original,
            origin: None,
            perturbations: Vec::new(),
            visual_distance: None,
            reading_change: None,
        };
        let item = to_item(&q, label, chart, &table.id);
        block.accept(item, chart).then_some(Original {
            q,
            id,
            chart,
            table,
        })
    }

    /// Variant `v` of an original: modified chart, question, and both, as
    /// the configured sets ask.
    fn variants(&self, o: &Original<'_>, v: usize, balance: &mut Balance, block: &mut Block) {
        let sets = &self.config.sets;
        let item_seed = seed::derive(self.config.seed, &[&o.id]);
        let v_seed = seed::derive(item_seed, &["variant", &v.to_string()]);
        let label =
            |suffix: &str, set: SetName, perturbations: Vec<Applied>, distance, reading_change| {
                Label {
                    id: format!("{}-{suffix}{v}", o.id),
                    set,
                    origin: Some(&o.id),
                    perturbations,
                    visual_distance: distance,
                    reading_change: Some(reading_change),
                }
            };
        let reading_change = |chart: &Chart, q: &Question, perts: &[Applied]| {
            super::direction::reading_change(o.chart, &o.q, chart, q, perts)
        };
        if sets.contains(&SetName::ModifiedChart)
            && let Some(variant) = self.chart_variant(
                &o.q,
                o.chart,
                o.table,
                seed::derive(v_seed, &["chart"]),
                balance,
                block,
            )
        {
            let mut item = to_item(
                &variant.question,
                label(
                    "c",
                    SetName::ModifiedChart,
                    vec![variant.record],
                    Some(variant.distance),
                    variant.reading_change,
                ),
                &variant.chart,
                &o.table.id,
            );
            tag_gone_fact(&mut item, &o.q);
            block.accept(item, &variant.chart);
        }
        if sets.contains(&SetName::ModifiedQuestion)
            && let Some((q, rec)) = self.question_variant(
                &o.q,
                o.chart,
                &[],
                seed::derive(v_seed, &["question"]),
                SetName::ModifiedQuestion,
                balance,
                block,
            )
        {
            let change = reading_change(o.chart, &q, std::slice::from_ref(&rec));
            let mut item = to_item(
                &q,
                label("q", SetName::ModifiedQuestion, vec![rec], None, change),
                o.chart,
                &o.table.id,
            );
            tag_gone_fact(&mut item, &o.q);
            block.accept(item, o.chart);
        }
        if sets.contains(&SetName::ModifiedBoth)
            && let Some(variant) = self.chart_variant(
                &o.q,
                o.chart,
                o.table,
                seed::derive(v_seed, &["both-chart"]),
                balance,
                block,
            )
            && let Some((q, q_rec)) = self.question_variant(
                &variant.question,
                &variant.chart,
                std::slice::from_ref(&variant.record),
                seed::derive(v_seed, &["both-question"]),
                SetName::ModifiedBoth,
                balance,
                block,
            )
        {
            let perts = vec![variant.record, q_rec];
            let change = reading_change(&variant.chart, &q, &perts);
            let mut item = to_item(
                &q,
                label(
                    "b",
                    SetName::ModifiedBoth,
                    perts,
                    Some(variant.distance),
                    change,
                ),
                &variant.chart,
                &o.table.id,
            );
            tag_gone_fact(&mut item, &o.q);
            block.accept(item, &variant.chart);
        }
        if sets.contains(&SetName::Shifted)
            && self.data_shift
            && let Some((chart, q, rec)) = self.shifted_variant(
                &o.q,
                o.chart,
                o.table,
                seed::derive(v_seed, &["shifted"]),
                balance,
                block,
            )
        {
            // The item is about the other table's chart.
            let table_id = chart
                .spec
                .panels()
                .first()
                .map_or_else(|| o.table.id.clone(), |p| p.table.id.clone());
            let change = reading_change(&chart, &q, std::slice::from_ref(&rec));
            let item = to_item(
                &q,
                label("s", SetName::Shifted, vec![rec], None, change),
                &chart,
                &table_id,
            );
            block.accept(item, &chart);
        }
    }

    /// One figure of related tables: the figure in the original theme, its
    /// selected questions (each about one panel's table, or about the figure
    /// as a whole, then filed under its first table) and their variants.
    fn related_block(&self, group: &[&Table]) -> Block {
        let mut block = Block::default();
        let ids: Vec<&str> = group.iter().map(|t| t.id.as_str()).collect();
        let key = ids.join("+");
        let mut balance = Balance::new(seed::derive(self.config.seed, &["related", &key]));
        let title = crate::spec::related::figure_title(group);
        let mut spec =
            match crate::spec::related::related_figure(group, &self.original_style, title) {
                Ok(spec) => spec,
                Err(e) => {
                    block
                        .errors
                        .push(format!("related tables `{key}`: figure: {e}"));
                    return block;
                }
            };
        spec.source_line = crate::spec::related::shared_source(group)
            .filter(|_| self.prints_source(&["related", &key]));
        let chart = match render(spec) {
            Ok(chart) => chart,
            Err(e) => {
                block
                    .errors
                    .push(format!("related tables `{key}`: rendering the figure: {e}"));
                return block;
            }
        };
        let chosen = self.select_questions(&chart, 0, &mut balance, &mut block);
        for (i, q) in chosen.into_iter().enumerate() {
            let table = group.get(q.query.panel()).copied().unwrap_or(group[0]);
            let Some(original) = self.original_item(q, i, &chart, table, &mut block) else {
                continue;
            };
            for v in 0..self.config.variants_per_original {
                self.variants(&original, v, &mut balance, &mut block);
            }
        }
        chart.release_picture();
        block
    }

    /// One table's items: original charts → selected questions → per
    /// original item its chart, question and both variants.
    fn table_block(&self, table: &Table) -> Block {
        let config = self.config;
        let mut block = Block::default();
        let mut balance = Balance::new(seed::derive(config.seed, &["table", &table.id]));
        let planned = self.kind_plan.get(&table.id).cloned().unwrap_or_default();
        let mut seen_charts = HashSet::new();
        for (nth, kind) in planned.into_iter().enumerate() {
            let Some(chart) = self.original_chart(table, kind, &mut block) else {
                continue;
            };
            if !seen_charts.insert(chart.id.clone()) {
                continue;
            }
            let chosen = self.select_questions(&chart, nth, &mut balance, &mut block);
            for (i, q) in chosen.into_iter().enumerate() {
                let Some(original) = self.original_item(q, i, &chart, table, &mut block) else {
                    continue;
                };
                for v in 0..config.variants_per_original {
                    self.variants(&original, v, &mut balance, &mut block);
                }
            }
            chart.release_picture();
        }
        block
    }
}

/// One block (a table's, or a figure's of related tables); a panic inside
/// it (a bug) becomes that block's error, so the other blocks' items and the
/// manifest are still written.
fn isolated_block(what: &str, make: impl FnOnce() -> Block) -> Block {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(make)).unwrap_or_else(|payload| {
        let why = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("unknown panic");
        Block {
            errors: vec![format!("{what}: internal error, no items from it: {why}")],
            ..Block::default()
        }
    })
}

/// The groups of related tables drawn as figures (`related_figures`), in
/// the order of their first tables; a shard takes the groups whose first
/// table it owns.
fn related_groups<'a>(config: &SuiteConfig, sorted: &'a [Table]) -> Vec<Vec<&'a Table>> {
    if !config.related_figures {
        return Vec::new();
    }
    crate::spec::related::groups(sorted)
        .into_iter()
        .map(|g| g.into_iter().map(|i| &sorted[i]).collect::<Vec<_>>())
        .filter(|g| config.shard.is_none_or(|s| s.owns(&g[0].id)))
        .collect()
}

pub(super) fn resolve_env<'a>(
    config: &'a SuiteConfig,
    tables: &'a [Table],
) -> Result<Env<'a>, SuiteError> {
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
    let themes = super::theme_order::by_visual_distance(&original_style, themes)
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    // Opt-in perturbations join only when the config names them, so suites
    // that do not keep the perturbation choices they had before them.
    let wanted = |axis: &str, name: &str| {
        (config.axes.is_empty() || config.axes.iter().any(|a| a == axis))
            && !config.exclude_perturbations.iter().any(|n| n == name)
            && (!perturb::registry::OPT_IN.contains(&name)
                || config.opt_in_perturbations.iter().any(|n| n == name))
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
        kind_plan: super::kind_plan::plan(tables, config),
    })
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
                    let b = isolated_block(&format!("table `{}`", t.id), || env.table_block(t));
                    bar.inc(1);
                    b
                })
                .collect();
            if tx.send(blocks).is_err() {
                break; // the writer failed; its error is returned below
            }
        }
        // Figures of related tables come after every table's own charts.
        for groups in related_groups(config, &sorted).chunks(chunk) {
            let blocks: Vec<Block> = groups
                .par_iter()
                .map(|g| {
                    let ids: Vec<&str> = g.iter().map(|t| t.id.as_str()).collect();
                    let what = format!("related tables `{}`", ids.join("+"));
                    isolated_block(&what, || env.related_block(g))
                })
                .collect();
            if tx.send(blocks).is_err() {
                break;
            }
        }
        drop(tx);
        written.join().expect("suite writer thread")
    })?;
    writer.finish()?;
    bar.finish_and_clear();
    super::distinct::distinct_wordings(out, config.seed)?;
    super::claims::balance_claims(out, config.seed)?;
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

#[cfg(test)]
mod non_finite_tests {
    #[test]
    fn printed_overflows_are_recognized_and_words_are_not() {
        for s in ["inf", "$inf", "-inf", "NaN", "NaNe2147483647%", "is inf."] {
            assert!(super::NON_FINITE.is_match(s), "{s}");
        }
        for s in [
            "Infant mortality",
            "inflation",
            "the infield",
            "NaNa",
            "finance",
        ] {
            assert!(!super::NON_FINITE.is_match(s), "{s}");
        }
    }
}
