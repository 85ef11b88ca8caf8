//! Reports for runs of a suite: every number in `report.json`, the same in
//! `report.md`, a self-contained `report.html` with plots and a failure
//! gallery, and `junit.xml`; plus the CI gate used by `chartstress check`.

pub mod check;
mod html;
mod junit;
pub mod load;
mod markdown;
mod plots;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ir::{Change, Item, Prediction, SetName};
use crate::score::{Metric, prediction_text, score_item};
use crate::stats::{self, BootstrapOptions, Flips, Interval, Pair};

pub use check::{Bound, CheckOptions, CheckOutcome, evaluate};

#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("{}: {message}", path.display())]
    Io { path: PathBuf, message: String },
    #[error("{}:{line}:{column}: {message}", path.display())]
    Parse {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{}: the suite has no items", .0.display())]
    NoItems(PathBuf),
    #[error("run `{run}` not found: no {}", path.display())]
    MissingRun { run: String, path: PathBuf },
    #[error("{}: no runs (expected SUITE/runs/RUN/predictions.jsonl)", .0.display())]
    NoRuns(PathBuf),
    #[error("rendering {what}: {message}")]
    Render { what: String, message: String },
}

/// Options of [`build_report_with`]; [`build_report`] uses the defaults.
#[derive(Debug, Clone)]
pub struct ReportOptions {
    pub bootstrap: BootstrapOptions,
    /// Use the suite's seed for the bootstrap (else `bootstrap.seed`).
    pub seed_from_suite: bool,
    /// Flipped pairs kept per run for the failure gallery.
    pub max_failures: usize,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            bootstrap: BootstrapOptions::default(),
            seed_from_suite: true,
            max_failures: 24,
        }
    }
}

/// Everything a report shows. Accuracies, gaps and intervals are in
/// percentage points (0–100).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub tool_version: String,
    /// The suite folder's name.
    pub suite: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suite_fingerprint: Option<String>,
    pub metric: String,
    pub bootstrap_seed: u64,
    pub bootstrap_resamples: usize,
    /// Score at or above which an item counts as right for flips and McNemar.
    pub right_threshold: f64,
    pub runs: Vec<RunReport>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    pub name: String,
    pub adapter: String,
    /// The run's `run.json`, as written.
    pub info: serde_json::Value,
    pub items: usize,
    /// Items with a usable prediction (counted in accuracies).
    pub scored: usize,
    /// Predictions whose model call failed: not wrong answers, left out of accuracies.
    pub errors: usize,
    /// Items without any prediction.
    pub missing: usize,
    /// Predictions whose id is not an item of the suite.
    pub unknown_ids: usize,
    pub warnings: Vec<String>,
    /// Prediction lines skipped as malformed (a torn last line is not counted).
    pub malformed_lines: usize,
    pub sets: Vec<SetStats>,
    pub gaps: Vec<GapStats>,
    pub axes: Vec<AxisStats>,
    pub breakdowns: Vec<Breakdown>,
    /// Right→wrong pairs, at most `max_failures`, taken in turn from each modified set.
    pub failures: Vec<Failure>,
    pub failures_total: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SetStats {
    pub set: String,
    pub items: usize,
    pub scored: usize,
    pub errors: usize,
    pub missing: usize,
    pub accuracy: Option<f64>,
    pub ci: Option<Interval>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GapStats {
    /// A modified set name, or an axis name for per-axis gaps.
    pub name: String,
    /// Pairs where both items have a usable prediction.
    pub pairs: usize,
    /// Accuracy over the originals of those pairs (an original counts once per pair).
    pub original_accuracy: Option<f64>,
    pub modified_accuracy: Option<f64>,
    /// original − modified.
    pub gap: Option<f64>,
    /// Paired cluster-bootstrap interval of the gap.
    pub ci: Option<Interval>,
    pub mcnemar_p: Option<f64>,
    pub flips: Flips,
    /// Stress gaps measure robustness; easing (the modified chart prints
    /// values the original did not) and shifted (another table's fact)
    /// gaps are reported apart and never judged by `check --max-gap`.
    #[serde(default)]
    pub change: Change,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    /// 0 = the paired originals.
    pub severity: u8,
    pub n: usize,
    pub accuracy: Option<f64>,
    pub ci: Option<Interval>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AxisStats {
    pub axis: String,
    pub gap: GapStats,
    /// Accuracy against severity (the robustness curve).
    pub curve: Vec<CurvePoint>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    pub set: String,
    pub n: usize,
    pub accuracy: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Group {
    pub key: String,
    pub n: usize,
    pub accuracy: Option<f64>,
    pub ci: Option<Interval>,
    /// The same split per set.
    pub sets: Vec<Cell>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Breakdown {
    /// chart_kind, family, question_type, answer_kind, answerable, realizer,
    /// reading_change, visual_distance.
    pub dimension: String,
    pub groups: Vec<Group>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FailureSide {
    pub id: String,
    /// Image path relative to the suite folder.
    pub image: String,
    pub question: String,
    pub gold: String,
    pub prediction: String,
    pub score: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Failure {
    pub set: String,
    /// "axis/name (severity)" of each perturbation.
    pub perturbations: Vec<String>,
    pub original: FailureSide,
    pub modified: FailureSide,
}

/// Builds the report of the given runs (all runs when empty) of a suite.
pub fn build_report(suite: &Path, runs: &[String], metric: Metric) -> Result<Report, ReportError> {
    build_report_with(suite, runs, metric, &ReportOptions::default())
}

pub fn build_report_with(
    suite: &Path,
    runs: &[String],
    metric: Metric,
    opts: &ReportOptions,
) -> Result<Report, ReportError> {
    if !suite.is_dir() {
        return Err(ReportError::Io {
            path: suite.to_path_buf(),
            message: "not a suite folder".into(),
        });
    }
    let items = load::read_items(suite)?;
    let manifest = load::read_manifest(suite);
    let run_names: Vec<String> = if runs.is_empty() {
        load::list_runs(suite)
    } else {
        runs.to_vec()
    };
    if run_names.is_empty() {
        return Err(ReportError::NoRuns(suite.to_path_buf()));
    }
    let seed = match (&manifest, opts.seed_from_suite) {
        (Some(m), true) => m.seed,
        _ => opts.bootstrap.seed,
    };
    let bootstrap = BootstrapOptions {
        seed,
        ..opts.bootstrap.clone()
    };
    // Runs (and the bootstraps inside) in parallel; every bootstrap has its
    // own seeded generator, so the result does not depend on scheduling.
    let run_reports = run_names
        .par_iter()
        .map(|name| {
            let data = load::read_run(suite, name)?;
            Ok(run_report(
                name,
                &items,
                data,
                metric,
                &bootstrap,
                opts.max_failures,
            ))
        })
        .collect::<Result<Vec<_>, ReportError>>()?;
    Ok(Report {
        tool_version: crate::VERSION.to_string(),
        suite: suite
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| suite.display().to_string()),
        suite_fingerprint: manifest.map(|m| m.fingerprint),
        metric: metric.name().to_string(),
        bootstrap_seed: seed,
        bootstrap_resamples: bootstrap.resamples,
        right_threshold: stats::RIGHT,
        runs: run_reports,
    })
}

/// What became of one item in a run.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Outcome {
    Scored(f64),
    Error,
    Missing,
}

fn pct(x: f64) -> f64 {
    x * 100.0
}

fn pct_interval(i: Interval) -> Interval {
    Interval {
        low: pct(i.low),
        high: pct(i.high),
    }
}

fn accuracy_of(scores: &[f64]) -> (Option<f64>, Option<Interval>) {
    if scores.is_empty() {
        return (None, None);
    }
    let sum: f64 = scores.iter().sum();
    (
        Some(pct(sum / scores.len() as f64)),
        Some(pct_interval(stats::wilson(sum, scores.len()))),
    )
}

/// `label` seeds the bootstrap: the run name, so that every gap of a run
/// uses the same random stream and identical pair sets get identical
/// intervals (common random numbers also make gaps of one run comparable).
/// The row an item is reported in: its set, with easing changes and, in
/// sets of pairs, shifted ones (asking for a fact the chart no longer
/// holds) apart.
pub fn group_of(item: &Item) -> String {
    match item.change() {
        Change::Easing => format!("{}/easing", item.set.name()),
        Change::Format => format!("{}/format", item.set.name()),
        Change::Shifted if item.set != SetName::Shifted => {
            format!("{}/shifted", item.set.name())
        }
        _ => item.set.name().to_string(),
    }
}

/// The change class of a row named by [`group_of`] (or an axis row named
/// the same way).
fn change_of_group(name: &str) -> Change {
    if name.ends_with("/easing") {
        Change::Easing
    } else if name.ends_with("/format") || name == "format_shift" {
        Change::Format
    } else if name.ends_with("/shifted")
        || name == SetName::Shifted.name()
        || name == crate::perturb::registry::DATA_SHIFT.axis
    {
        Change::Shifted
    } else {
        Change::Stress
    }
}

fn gap_stats(name: &str, pairs: &[Pair], bootstrap: &BootstrapOptions, label: &str) -> GapStats {
    let flips = stats::flips(pairs);
    let change = change_of_group(name);
    if pairs.is_empty() {
        return GapStats {
            name: name.to_string(),
            pairs: 0,
            original_accuracy: None,
            modified_accuracy: None,
            gap: None,
            ci: None,
            mcnemar_p: None,
            flips,
            change,
        };
    }
    let n = pairs.len() as f64;
    GapStats {
        name: name.to_string(),
        pairs: pairs.len(),
        original_accuracy: Some(pct(pairs.iter().map(|p| p.original).sum::<f64>() / n)),
        modified_accuracy: Some(pct(pairs.iter().map(|p| p.modified).sum::<f64>() / n)),
        gap: Some(pct(stats::gap(pairs))),
        ci: stats::paired_bootstrap(pairs, bootstrap, label).map(pct_interval),
        mcnemar_p: Some(stats::mcnemar_exact(
            flips.right_to_wrong,
            flips.wrong_to_right,
        )),
        flips,
        change,
    }
}

fn run_report(
    name: &str,
    items: &[Item],
    data: load::RunData,
    metric: Metric,
    bootstrap: &BootstrapOptions,
    max_failures: usize,
) -> RunReport {
    let by_id: BTreeMap<&str, &Item> = items.iter().map(|i| (i.id.as_str(), i)).collect();
    // A prediction made for an earlier version of an item (the suite was
    // generated again under the same ids) answers another question: missing.
    let stale_ids: std::collections::HashSet<&str> = items
        .par_iter()
        .filter(|i| {
            data.predictions
                .get(&i.id)
                .is_some_and(|p| p.item_hash.as_ref().is_some_and(|h| *h != i.content_hash()))
        })
        .map(|i| i.id.as_str())
        .collect();
    let stale = stale_ids.len();
    let outcome_of = |item: &Item| -> Outcome {
        match data.predictions.get(&item.id) {
            None => Outcome::Missing,
            Some(_) if stale_ids.contains(item.id.as_str()) => Outcome::Missing,
            Some(p) if p.is_error() => Outcome::Error,
            Some(p) => Outcome::Scored(score_item(metric, item, p)),
        }
    };
    let outcomes: BTreeMap<&str, Outcome> = items
        .par_iter()
        .map(|i| (i.id.as_str(), outcome_of(i)))
        .collect();
    let scored_of = |id: &str| match outcomes.get(id) {
        Some(Outcome::Scored(s)) => Some(*s),
        _ => None,
    };

    // Rows in set order, each set's easing, format and shifted items after
    // its stress items.
    let groups: Vec<String> = SetName::ALL
        .into_iter()
        .flat_map(|set| {
            [
                set.name().to_string(),
                format!("{}/easing", set.name()),
                format!("{}/format", set.name()),
                format!("{}/shifted", set.name()),
            ]
        })
        .collect();
    let group_names: Vec<String> = items.par_iter().map(group_of).collect();
    let members_of = |group: &str| -> Vec<&Item> {
        items
            .iter()
            .zip(&group_names)
            .filter(|(_, g)| g.as_str() == group)
            .map(|(i, _)| i)
            .collect()
    };
    let mut sets = Vec::new();
    for group in &groups {
        let members = members_of(group);
        if members.is_empty() {
            continue;
        }
        let scores: Vec<f64> = members.iter().filter_map(|i| scored_of(&i.id)).collect();
        let count = |o: Outcome| {
            members
                .iter()
                .filter(|i| outcomes[i.id.as_str()] == o)
                .count()
        };
        let (accuracy, ci) = accuracy_of(&scores);
        sets.push(SetStats {
            set: group.clone(),
            items: members.len(),
            scored: scores.len(),
            errors: count(Outcome::Error),
            missing: count(Outcome::Missing),
            accuracy,
            ci,
        });
    }

    // Pairs: each modified item with its original, both scored.
    let pair_of = |item: &Item| -> Option<Pair> {
        let origin = by_id.get(item.origin.as_deref()?)?;
        Some(Pair {
            cluster: origin.chart_id.clone(),
            original: scored_of(&origin.id)?,
            modified: scored_of(&item.id)?,
        })
    };
    let modified_groups: Vec<&String> = groups
        .iter()
        .filter(|g| g.as_str() != SetName::Original.name())
        .filter(|g| group_names.iter().any(|n| n == *g))
        .collect();
    let mut gaps: Vec<GapStats> = modified_groups
        .par_iter()
        .map(|group| {
            let pairs: Vec<Pair> = members_of(group).into_iter().filter_map(pair_of).collect();
            gap_stats(group, &pairs, bootstrap, name)
        })
        .collect();
    // A suite with a control set (an imported benchmark, re-drawn) also
    // pairs each modified item with the control of its original: the change
    // alone, apart from what re-drawing did.
    let control_of: BTreeMap<&str, &Item> = items
        .iter()
        .filter(|i| i.set == SetName::Control)
        .filter_map(|i| Some((i.origin.as_deref()?, i)))
        .collect();
    if !control_of.is_empty() {
        let versus_control = |item: &Item| -> Option<Pair> {
            let control = control_of.get(item.origin.as_deref()?)?;
            Some(Pair {
                cluster: control.chart_id.clone(),
                original: scored_of(&control.id)?,
                modified: scored_of(&item.id)?,
            })
        };
        let rows: Vec<GapStats> = modified_groups
            .iter()
            .filter(|g| !g.starts_with(SetName::Control.name()))
            .map(|group| {
                let pairs: Vec<Pair> = members_of(group)
                    .into_iter()
                    .filter_map(versus_control)
                    .collect();
                GapStats {
                    change: change_of_group(group),
                    ..gap_stats(&format!("{group} vs control"), &pairs, bootstrap, name)
                }
            })
            .filter(|g| g.pairs > 0)
            .collect();
        gaps.extend(rows);
    }

    // Easing items get rows of their own (`AXIS/easing`), as in the sets.
    let axis_key = |item: &Item, p: &crate::ir::Perturbation| -> String {
        match item.change() {
            Change::Easing => format!("{}/easing", p.axis),
            // A format shift is its own axis, already apart.
            Change::Format if p.axis == "format_shift" => p.axis.clone(),
            Change::Format => format!("{}/format", p.axis),
            Change::Shifted if p.axis != crate::perturb::registry::DATA_SHIFT.axis => {
                format!("{}/shifted", p.axis)
            }
            _ => p.axis.clone(),
        }
    };
    let axis_names: BTreeSet<String> = items
        .iter()
        .flat_map(|i| i.perturbations.iter().map(|p| axis_key(i, p)))
        .collect();
    let axis_names: Vec<String> = axis_names.into_iter().collect();
    let axes: Vec<AxisStats> = axis_names
        .par_iter()
        .map(|axis| {
            let axis = axis.as_str();
            let mut pairs = Vec::new();
            let mut by_severity: BTreeMap<u8, Vec<f64>> = BTreeMap::new();
            for item in items.iter().filter(|i| i.set != SetName::Original) {
                let Some(severity) = item
                    .perturbations
                    .iter()
                    .filter(|p| axis_key(item, p) == axis)
                    .map(|p| p.severity)
                    .max()
                else {
                    continue;
                };
                if let Some(pair) = pair_of(item) {
                    by_severity.entry(0).or_default().push(pair.original);
                    by_severity.entry(severity).or_default().push(pair.modified);
                    pairs.push(pair);
                }
            }
            let curve = by_severity
                .into_iter()
                .map(|(severity, scores)| {
                    let (accuracy, ci) = accuracy_of(&scores);
                    CurvePoint {
                        severity,
                        n: scores.len(),
                        accuracy,
                        ci,
                    }
                })
                .collect();
            AxisStats {
                axis: axis.to_string(),
                gap: gap_stats(axis, &pairs, bootstrap, name),
                curve,
            }
        })
        .collect();

    let breakdowns = breakdowns(items, &scored_of);
    let (failures, failures_total) =
        failures(items, &by_id, &data.predictions, &scored_of, max_failures);
    let count_all = |o: Outcome| outcomes.values().filter(|x| **x == o).count();
    let unknown_ids = data
        .predictions
        .keys()
        .filter(|id| !by_id.contains_key(id.as_str()))
        .count();
    let adapter = data
        .info
        .get("adapter")
        .and_then(|a| {
            a.as_str()
                .map(str::to_string)
                .or_else(|| a.get("name")?.as_str().map(str::to_string))
        })
        .unwrap_or_else(|| name.to_string());
    RunReport {
        name: name.to_string(),
        adapter,
        info: data.info,
        items: items.len(),
        scored: outcomes
            .values()
            .filter(|o| matches!(o, Outcome::Scored(_)))
            .count(),
        errors: count_all(Outcome::Error),
        missing: count_all(Outcome::Missing),
        unknown_ids,
        warnings: {
            let mut w = data.warnings;
            if stale > 0 {
                w.push(format!(
                    "{stale} prediction(s) were made for an earlier version of their item \
                     and count as missing: run `chartstress run` again to answer them"
                ));
            }
            w
        },
        malformed_lines: data.malformed_lines,
        sets,
        gaps,
        axes,
        breakdowns,
        failures,
        failures_total,
    }
}

fn breakdowns(items: &[Item], scored_of: &dyn Fn(&str) -> Option<f64>) -> Vec<Breakdown> {
    type KeyFn = fn(&Item) -> String;
    let dims: [(&str, KeyFn); 8] = [
        ("chart_kind", |i| i.chart_kind.name().to_string()),
        ("family", |i| i.family.clone()),
        ("question_type", |i| i.question_type.name().to_string()),
        ("answer_kind", |i| {
            serde_json::to_value(i.answer_kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default()
        }),
        ("answerable", |i| {
            if i.answerable {
                "answerable"
            } else {
                "unanswerable"
            }
            .to_string()
        }),
        ("realizer", |i| {
            if i.realization.realizer.is_empty() {
                "(none)".to_string()
            } else {
                i.realization.realizer.clone()
            }
        }),
        // Accuracy against the measured difficulty of the asked reading and
        // against how different the picture looks.
        ("reading_change", |i| reading_band(i.reading_change)),
        ("visual_distance", |i| distance_band(i.visual_distance)),
    ];
    dims.iter()
        .map(|(dimension, key_of)| {
            let mut groups: BTreeMap<String, BTreeMap<SetName, Vec<f64>>> = BTreeMap::new();
            for item in items {
                let entry = groups
                    .entry(key_of(item))
                    .or_default()
                    .entry(item.set)
                    .or_default();
                if let Some(s) = scored_of(&item.id) {
                    entry.push(s);
                }
            }
            Breakdown {
                dimension: dimension.to_string(),
                groups: groups
                    .into_iter()
                    .map(|(key, per_set)| {
                        let all: Vec<f64> = per_set.values().flatten().copied().collect();
                        let (accuracy, ci) = accuracy_of(&all);
                        Group {
                            key,
                            n: all.len(),
                            accuracy,
                            ci,
                            sets: per_set
                                .iter()
                                .map(|(set, scores)| Cell {
                                    set: set.name().to_string(),
                                    n: scores.len(),
                                    accuracy: accuracy_of(scores).0,
                                })
                                .collect(),
                        }
                    })
                    .collect(),
            }
        })
        .collect()
}

/// The band of an item's measured reading change, in order of difficulty
/// (the leading digit sorts the rows).
fn reading_band(change: Option<f64>) -> String {
    match change {
        None => "(not measured)",
        Some(r) if r <= 0.0 => "0 value now printed (0)",
        Some(r) if r <= 0.9 => "1 read finer (≤ 0.9)",
        Some(r) if r < 1.1 => "2 read alike (0.9–1.1)",
        Some(r) if r < 2.0 => "3 read coarser (1.1–2)",
        Some(r) if r < crate::reader::precision::PRINTED_TO_ESTIMATED => {
            "4 read much coarser (2–10)"
        }
        Some(_) => "5 printed value now estimated (10)",
    }
    .to_string()
}

/// The band of an item's visual distance from its original.
fn distance_band(distance: Option<f64>) -> String {
    match distance {
        None => "(same image)",
        Some(d) if d < 0.02 => "0.00–0.02",
        Some(d) if d < 0.05 => "0.02–0.05",
        Some(d) if d < 0.1 => "0.05–0.10",
        Some(d) if d < 0.2 => "0.10–0.20",
        Some(_) => "0.20 and more",
    }
    .to_string()
}

fn failures(
    items: &[Item],
    by_id: &BTreeMap<&str, &Item>,
    predictions: &BTreeMap<String, Prediction>,
    scored_of: &dyn Fn(&str) -> Option<f64>,
    max: usize,
) -> (Vec<Failure>, usize) {
    let side = |item: &Item, score: f64| FailureSide {
        id: item.id.clone(),
        image: item.image.clone(),
        question: item.question.clone(),
        gold: item.answer_text.clone(),
        prediction: predictions
            .get(&item.id)
            .map(|p| prediction_text(p).to_string())
            .unwrap_or_default(),
        score,
    };
    let mut all: Vec<Failure> = Vec::new();
    for item in items.iter().filter(|i| i.set != SetName::Original) {
        let Some(origin) = item.origin.as_deref().and_then(|o| by_id.get(o)) else {
            continue;
        };
        let (Some(o), Some(m)) = (scored_of(&origin.id), scored_of(&item.id)) else {
            continue;
        };
        if o >= stats::RIGHT && m < stats::RIGHT {
            all.push(Failure {
                set: item.set.name().to_string(),
                perturbations: item
                    .perturbations
                    .iter()
                    .map(|p| format!("{}/{} ({})", p.axis, p.name, p.severity))
                    .collect(),
                original: side(origin, o),
                modified: side(item, m),
            });
        }
    }
    // Round-robin over modified sets (in set order), id order within a set,
    // so a capped gallery still shows every kind of modification.
    let total = all.len();
    let mut per_set: BTreeMap<SetName, Vec<Failure>> = BTreeMap::new();
    for f in all {
        let set = SetName::from_name(&f.set).unwrap_or(SetName::ModifiedBoth);
        per_set.entry(set).or_default().push(f);
    }
    for list in per_set.values_mut() {
        list.sort_by(|a, b| {
            (&a.original.id, &a.modified.id).cmp(&(&b.original.id, &b.modified.id))
        });
        list.reverse();
    }
    let mut all = Vec::new();
    while all.len() < max && per_set.values().any(|l| !l.is_empty()) {
        for list in per_set.values_mut() {
            if all.len() < max
                && let Some(f) = list.pop()
            {
                all.push(f);
            }
        }
    }
    (all, total)
}

/// Options for writing report files.
#[derive(Debug, Clone, Default)]
pub struct WriteOptions {
    /// Thresholds turned into JUnit test cases.
    pub check: CheckOptions,
}

/// Writes `report.json`, `report.md`, `report.html` and `junit.xml` into
/// `out`; returns the paths written.
pub fn write_report(
    report: &Report,
    suite: &Path,
    out: &Path,
    opts: &WriteOptions,
) -> Result<Vec<PathBuf>, ReportError> {
    fs::create_dir_all(out).map_err(|e| ReportError::Io {
        path: out.to_path_buf(),
        message: e.to_string(),
    })?;
    let json = serde_json::to_string_pretty(report).map_err(|e| ReportError::Render {
        what: "report.json".into(),
        message: e.to_string(),
    })?;
    let files = [
        ("report.json", json + "\n"),
        ("report.md", markdown::render(report)),
        ("report.html", html::render(report, suite)?),
        ("junit.xml", junit::render(report, &opts.check)),
    ];
    let mut written = Vec::new();
    for (name, body) in files {
        let path = out.join(name);
        fs::write(&path, body).map_err(|e| ReportError::Io {
            path: path.clone(),
            message: e.to_string(),
        })?;
        written.push(path);
    }
    Ok(written)
}

/// "12.3" or "–" for a missing number.
pub fn fmt_opt(x: Option<f64>, decimals: usize) -> String {
    x.map_or_else(|| "–".to_string(), |v| format!("{v:.decimals$}"))
}

/// "[10.1, 14.2]" or "–".
pub fn fmt_ci(ci: Option<Interval>) -> String {
    ci.map_or_else(
        || "–".to_string(),
        |i| format!("[{:.1}, {:.1}]", i.low, i.high),
    )
}

/// p-values: three significant digits, "<0.001" below.
pub fn fmt_p(p: Option<f64>) -> String {
    match p {
        None => "–".into(),
        Some(p) if p < 0.001 => "<0.001".into(),
        Some(p) => format!("{p:.3}"),
    }
}

#[cfg(test)]
mod band_tests {
    use super::{distance_band, reading_band};

    #[test]
    fn reading_bands_follow_difficulty_and_sort_in_its_order() {
        let values = [0.0, 0.5, 0.9, 1.0, 1.5, 3.0, 10.0];
        let bands: Vec<String> = values.iter().map(|v| reading_band(Some(*v))).collect();
        assert_eq!(bands[2], bands[1], "0.9 is still finer");
        assert_eq!(bands[3], "2 read alike (0.9–1.1)");
        assert_eq!(bands[6], "5 printed value now estimated (10)");
        let mut sorted = bands.clone();
        sorted.sort();
        assert_eq!(sorted, bands, "bands sort from easiest to hardest");
        assert_eq!(reading_band(None), "(not measured)");
        assert_eq!(distance_band(Some(0.03)), "0.02–0.05");
        assert_eq!(distance_band(Some(0.5)), "0.20 and more");
    }
}
