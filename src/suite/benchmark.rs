//! A suite from another benchmark (`import-benchmark`): its own pictures
//! and human-written questions as the `original` set; the same table drawn
//! again in the original theme as `control`, which isolates what re-drawing
//! alone does; and that control under one style, layout or image change as
//! `modified_chart`. Questions about one picture (colours, positions,
//! furniture) or citing text the table lacks stay in `original` only, and
//! are counted.
//!
//! Golds are the benchmark's; nothing re-executes them. So only changes
//! that keep the marks' order, kind and values take part: no kind swaps,
//! rotated orientation, log scales, composites or removed legends and
//! labels, any of which could change what a human question refers to or
//! how exactly it can be read.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::io::{Counts, LineWriter, io_err, prepare_out, write_manifest};
use super::pipeline::{Chart, Env, record, render, resolve_env, short_hash};
use super::{SuiteConfig, SuiteError};
use crate::benchmark::{Benchmark, BenchmarkChart, BenchmarkQuestion, screen};
use crate::ir::query::Query;
use crate::ir::suite::{CHARTS_FILE, IMAGES_DIR, ITEMS_FILE, TABLES_DIR};
use crate::ir::{
    Answer, AnswerKind, ChartKind, ChartRecord, Item, QuestionType, Realization, SetName, Style,
    Table,
};
use crate::seed;

/// Chart perturbations a benchmark question survives without re-checking.
pub const BENCHMARK_PERTURBATIONS: &[&str] = &[
    "theme",
    "palette",
    "font_family",
    "font_size",
    "legend_moved",
    "legend_reordered",
    "tick_density",
    "tick_format",
    "baseline",
    "clutter",
    "blur",
    "downscale",
    "jpeg",
    "noise",
    "rotation",
];

#[derive(Debug, Clone)]
pub struct ImportOptions {
    pub seed: u64,
    /// Modified charts per control chart.
    pub variants: usize,
    /// Theme of the control charts.
    pub theme: String,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            seed: 0,
            variants: 1,
            theme: "classic".into(),
        }
    }
}

/// What an import wrote and what it left out.
#[derive(Debug, Clone, Default)]
pub struct ImportSummary {
    pub out: PathBuf,
    pub charts: usize,
    pub items: usize,
    /// Items per set.
    pub sets: BTreeMap<String, usize>,
    /// Questions kept out of the re-drawn sets, by reason.
    pub excluded: BTreeMap<String, usize>,
    /// Charts or records that could not be used, each named.
    pub errors: Vec<String>,
}

/// Everything one benchmark chart adds to the suite.
#[derive(Default)]
struct ChartBlock {
    items: Vec<Item>,
    /// Drawn charts (control and modified), written with their records.
    charts: Vec<Chart>,
    /// The benchmark's picture: suite path and bytes.
    source: Option<(String, Vec<u8>)>,
    excluded: Vec<&'static str>,
    errors: Vec<String>,
}

/// The benchmark's gold as an answer: yes/no, a list, a number (a year
/// when the question asks when), else text.
pub fn gold(label: &str, question: &str) -> Answer {
    let label = label.trim();
    match label.to_ascii_lowercase().as_str() {
        "yes" => return Answer::YesNo { value: true },
        "no" => return Answer::YesNo { value: false },
        _ => {}
    }
    if let Some(inner) = label.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
        let values: Vec<String> = inner
            .split(',')
            .map(|v| v.trim().trim_matches(['\'', '"']).to_string())
            .filter(|v| !v.is_empty())
            .collect();
        if !values.is_empty() {
            return Answer::List { values };
        }
    }
    let numeric = label.trim_end_matches('%').trim();
    if let Ok(value) = numeric.parse::<f64>()
        && value.is_finite()
        && !numeric.contains(['e', 'E'])
    {
        let decimals = numeric
            .split_once('.')
            .map_or(0, |(_, d)| d.len().min(12) as u8);
        let asks_when = {
            let q = question.to_ascii_lowercase();
            q.contains("year") || q.starts_with("when") || q.contains(" when ")
        };
        if decimals == 0 && (1800.0..=2100.0).contains(&value) && asks_when {
            return Answer::Year {
                value: value as i32,
            };
        }
        return Answer::Number {
            value,
            decimals,
            unit: None,
        };
    }
    Answer::Text {
        value: label.to_string(),
    }
}

fn answer_kind(answer: &Answer) -> AnswerKind {
    match answer {
        Answer::Number { .. } => AnswerKind::NumberInChart,
        _ => AnswerKind::TextInChart,
    }
}

/// The text a chart drawn from `table` can print, and the raw file (headers
/// and cells as the benchmark wrote them).
fn chart_text(table: &Table) -> String {
    let mut text = String::new();
    if let Some(path) = &table.source_path
        && let Ok(raw) = std::fs::read_to_string(path)
    {
        text.push_str(&raw);
    }
    let m = &table.meta;
    for s in [&m.title, &m.x_label, &m.y_label, &m.unit, &m.measure]
        .into_iter()
        .flatten()
    {
        text.push('\n');
        text.push_str(s);
    }
    for name in table.series_names() {
        text.push('\n');
        text.push_str(name);
    }
    text.push('\n');
    text.push_str(&table.index.name);
    for label in table.category_labels() {
        text.push('\n');
        text.push_str(&label);
    }
    text
}

struct Maker<'a> {
    bench: &'a Benchmark,
    env: Env<'a>,
    opts: &'a ImportOptions,
}

impl Maker<'_> {
    fn original(
        &self,
        chart: &BenchmarkChart,
        q: &BenchmarkQuestion,
        image: &str,
        kind: ChartKind,
    ) -> Item {
        let answer = gold(&q.label, &q.question);
        Item {
            id: short_hash(&[&self.bench.name, &q.key]),
            set: SetName::Original,
            origin: None,
            chart_id: format!("source-{}", chart.name),
            image: image.to_string(),
            table_id: chart.name.clone(),
            chart_kind: kind,
            question: q.question.clone(),
            question_type: QuestionType::Factoid,
            family: format!("chartqa_{}", q.subset),
            query: Query::Imported {
                benchmark: self.bench.name.clone(),
            },
            answer_text: answer.to_text(),
            answer_kind: answer_kind(&answer),
            answer,
            answerable: true,
            choices: Vec::new(),
            history: Vec::new(),
            paragraph: None,
            realization: Realization {
                realizer: "benchmark".into(),
                template_id: q.key.clone(),
                transforms: Vec::new(),
            },
            perturbations: Vec::new(),
            visual_distance: None,
            reading_change: None,
        }
    }

    /// The table drawn again in the original theme, printing its values as
    /// the benchmark's charts mostly do, so that questions asking for exact
    /// values stay readable.
    fn control(&self, table: &Table, hint: Option<ChartKind>) -> Result<Chart, String> {
        let style = Style {
            data_labels: true,
            ..self.env.original_style.clone()
        };
        // The benchmark's own kind when the table can be drawn so (a bar
        // chart over years is as common as a line), else the first suitable.
        let spec = hint
            .and_then(|k| crate::spec::single(table, k, &style).ok())
            .map_or_else(
                || {
                    let kind = crate::spec::suitable_kinds(table)
                        .first()
                        .copied()
                        .ok_or("no chart kind suits the table")?;
                    crate::spec::single(table, kind, &style).map_err(|e| e.to_string())
                },
                Ok,
            )?;
        render(spec)
    }

    /// The `v`th modified chart of a control: the first perturbation, in a
    /// seeded order, that applies.
    fn variant(
        &self,
        control: &Chart,
        table: &Table,
        v: usize,
    ) -> Result<Option<(Chart, crate::ir::Perturbation)>, String> {
        use rand::RngExt;
        let v_seed = seed::derive(self.opts.seed, &[&table.id, "variant", &v.to_string()]);
        let severities = &self.env.config.severities;
        let severity =
            severities[seed::rng(v_seed, &["severity"]).random_range(0..severities.len())];
        for pert in super::chart_variant::shuffled(&self.env.chart_perts, v_seed) {
            if let Some((chart, meta)) = self
                .env
                .apply_chart(pert, control, severity, v_seed, table)?
            {
                return Ok(Some((chart, record(&pert.info(), severity, meta.params))));
            }
        }
        Ok(None)
    }

    fn chart_block(&self, chart: &BenchmarkChart) -> ChartBlock {
        let mut block = ChartBlock::default();
        let ext = chart
            .image
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("png")
            .to_ascii_lowercase();
        let image = format!("{IMAGES_DIR}/source-{}.{ext}", chart.name);
        let bytes = match std::fs::read(&chart.image) {
            Ok(b) => b,
            Err(e) => {
                block.errors.push(format!("{}: {e}", chart.image.display()));
                return block;
            }
        };
        let redrawn = match &chart.table {
            Ok(table) => self.control(table, chart.kind).map(|c| (table, c)),
            Err(e) => Err(e.clone()),
        };
        // The benchmark's kind when its annotations say, else the kind it
        // was drawn again as (the closest guess there is).
        let kind = chart
            .kind
            .or_else(|| redrawn.as_ref().ok().map(|(_, c)| c.kind()))
            .unwrap_or(ChartKind::Bar);
        let originals: Vec<Item> = chart
            .questions
            .iter()
            .map(|q| self.original(chart, q, &image, kind))
            .collect();
        let (table, control) = match redrawn {
            Ok(x) => x,
            Err(e) => {
                block.errors.push(format!(
                    "chart `{}`: not re-drawn ({e}); its {} questions stay in `original` only",
                    chart.name,
                    originals.len()
                ));
                block
                    .excluded
                    .extend(originals.iter().map(|_| "not_redrawn"));
                block.items = originals;
                block.source = Some((image, bytes));
                return block;
            }
        };
        // The benchmark's picture seen in the same frame as the control's.
        let source = Chart::new(
            format!("source-{}", chart.name),
            control.spec.clone(),
            control.scene.clone(),
            control.svg.clone(),
            bytes.clone(),
            None,
        );
        let control_distance = source.distance_to(&control).ok();
        let mut variants = Vec::new();
        for v in 0..self.opts.variants.max(1) {
            match self.variant(&control, table, v) {
                Ok(Some((c, p))) => {
                    let d = control.distance_to(&c).ok();
                    variants.push((v, c, p, d));
                }
                Ok(None) => {}
                Err(e) => block
                    .errors
                    .push(format!("chart `{}`: modified chart {v}: {e}", chart.name)),
            }
        }
        let text = chart_text(table);
        for original in originals {
            let kept = screen(&original.question, &text);
            let id = original.id.clone();
            let redraw = |suffix: String, set, c: &Chart, perts, distance| Item {
                id: format!("{id}-{suffix}"),
                set,
                origin: Some(id.clone()),
                chart_id: c.id.clone(),
                image: c.image(),
                chart_kind: c.kind(),
                perturbations: perts,
                visual_distance: distance,
                reading_change: None,
                ..original.clone()
            };
            let mut derived = Vec::new();
            match kept {
                Some(exclusion) => block.excluded.push(exclusion.reason()),
                None => {
                    derived.push(redraw(
                        "k0".into(),
                        SetName::Control,
                        &control,
                        Vec::new(),
                        control_distance,
                    ));
                    for (v, c, p, d) in &variants {
                        derived.push(redraw(
                            format!("c{v}"),
                            SetName::ModifiedChart,
                            c,
                            vec![p.clone()],
                            *d,
                        ));
                    }
                }
            }
            block.items.push(original);
            block.items.extend(derived);
        }
        let used: std::collections::HashSet<&str> =
            block.items.iter().map(|i| i.chart_id.as_str()).collect();
        let mut charts = vec![control];
        charts.extend(variants.into_iter().map(|(_, c, _, _)| c));
        block.charts = charts
            .into_iter()
            .filter(|c| used.contains(c.id.as_str()))
            .collect();
        block.source = Some((image, bytes));
        block
    }
}

/// Builds the suite for `bench` in `out` (replacing an earlier suite there).
pub fn import_benchmark(
    bench: &Benchmark,
    opts: &ImportOptions,
    out: &Path,
) -> Result<ImportSummary, SuiteError> {
    let mut tables: Vec<Table> = bench
        .charts
        .iter()
        .filter_map(|c| c.table.as_ref().ok().cloned())
        .collect();
    tables.sort_by(|a, b| a.id.cmp(&b.id));
    let everything = crate::perturb::chart_perturbations();
    let config = SuiteConfig {
        seed: opts.seed,
        original_theme: opts.theme.clone(),
        variants_per_original: opts.variants.max(1),
        exclude_perturbations: everything
            .iter()
            .map(|p| p.info().name.to_string())
            .filter(|n| !BENCHMARK_PERTURBATIONS.contains(&n.as_str()))
            .collect(),
        sets: vec![SetName::Original, SetName::Control, SetName::ModifiedChart],
        ..SuiteConfig::default()
    };
    let env = resolve_env(&config, &tables)?;
    let maker = Maker { bench, env, opts };
    prepare_out(out)?;
    for table in &tables {
        crate::table::write_table(table, &out.join(TABLES_DIR))
            .map_err(|e| SuiteError::Stage(format!("copying table `{}`: {e}", table.id)))?;
    }
    let blocks: Vec<ChartBlock> = bench
        .charts
        .par_iter()
        .map(|c| maker.chart_block(c))
        .collect();

    let mut summary = ImportSummary {
        out: out.to_path_buf(),
        errors: bench.errors.clone(),
        ..ImportSummary::default()
    };
    let mut counts = Counts::default();
    let mut items = LineWriter::create(&out.join(ITEMS_FILE))?;
    let mut charts = LineWriter::create(&out.join(CHARTS_FILE))?;
    for block in blocks {
        if let Some((image, bytes)) = &block.source {
            let path = out.join(image);
            std::fs::write(&path, bytes).map_err(io_err(&path))?;
            summary.charts += 1;
        }
        for chart in &block.charts {
            let record = ChartRecord {
                id: chart.id.clone(),
                image: chart.image(),
                spec: (*chart.spec).clone(),
                scene: (*chart.scene).clone(),
            };
            charts.write_line(&serde_json::to_string(&record).expect("record serializes"))?;
            let path = out.join(chart.image());
            std::fs::write(&path, chart.png.as_slice()).map_err(io_err(&path))?;
            summary.charts += 1;
        }
        for item in &block.items {
            counts.add_item(item);
            *summary.sets.entry(item.set.name().to_string()).or_default() += 1;
            items.write_line(&serde_json::to_string(item).expect("item serializes"))?;
            summary.items += 1;
        }
        for reason in block.excluded {
            *summary.excluded.entry(reason.to_string()).or_default() += 1;
        }
        summary.errors.extend(block.errors);
    }
    items.finish()?;
    charts.finish()?;
    for (reason, n) in &summary.excluded {
        counts.bump("excluded", reason, *n as u64);
    }
    let manifest_config = serde_json::json!({
        "benchmark": bench.name,
        "format": "chartqa",
        "original_theme": opts.theme,
        "variants_per_original": opts.variants.max(1),
        "control": "the benchmark's table drawn in the original theme with value labels",
        "perturbations": BENCHMARK_PERTURBATIONS,
        "sets": ["original", "control", "modified_chart"],
    });
    write_manifest(out, manifest_config, opts.seed, &counts, None)?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golds_take_the_benchmark_form() {
        assert_eq!(gold("Yes", "Is it?"), Answer::YesNo { value: true });
        assert_eq!(
            gold("17.50", "What is it?"),
            Answer::Number {
                value: 17.5,
                decimals: 2,
                unit: None
            }
        );
        assert_eq!(gold("17.50", "What is it?").to_text(), "17.50");
        assert_eq!(
            gold("2014", "In which year was it highest?"),
            Answer::Year { value: 2014 }
        );
        assert_eq!(
            gold("2014", "How many people voted?"),
            Answer::Number {
                value: 2014.0,
                decimals: 0,
                unit: None
            }
        );
        assert_eq!(
            gold("[2015, 2016]", "Which years?"),
            Answer::List {
                values: vec!["2015".into(), "2016".into()]
            }
        );
        assert_eq!(
            gold("Germany", "Which?"),
            Answer::Text {
                value: "Germany".into()
            }
        );
        assert_eq!(gold("inf", "x").type_name(), "text");
    }
}
