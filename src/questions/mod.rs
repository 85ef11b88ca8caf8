//! Question generation for every question type: factoid, multiple
//! choice, fact check, hypothetical, conversational, descriptive and
//! unanswerable, each answered by the executor and worded by a realizer.

mod absent_reformat;
mod distractors;
pub mod diversity;
pub mod language;
pub mod pick;
pub mod readability;
mod types;
mod unanswerable;

use std::collections::{BTreeMap, BTreeSet};

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::ir::query::{CellRef, Change, Query};
use crate::ir::{Answer, AnswerKind, ChartSpec, QuestionType, Realization, Scene};
use crate::query::{PanelData, answer_kind, execute, family, is_descriptive};
use crate::seed;
use readability::Reading;

pub use distractors::{display_answer, distractors};
pub use types::Question;
pub use unanswerable::unanswerable_variant;

/// What to generate for one chart.
#[derive(Debug, Clone, PartialEq)]
pub struct QuestionOptions {
    pub seed: u64,
    pub count: usize,
    /// Question types, cycled in this order; empty = all.
    pub types: Vec<QuestionType>,
    /// Family names to draw from; empty = all.
    pub families: Vec<String>,
    /// Share of questions about data (any type but descriptive) turned into
    /// unanswerable ones.
    pub unanswerable_share: f64,
}

impl Default for QuestionOptions {
    fn default() -> Self {
        QuestionOptions {
            seed: 0,
            count: 20,
            types: QuestionType::ALL.to_vec(),
            families: Vec::new(),
            unanswerable_share: 0.1,
        }
    }
}

/// Running counts that balance fact-check truth per family and spread
/// multiple-choice letters evenly within a chart.
#[derive(Default)]
struct Balance {
    fact: BTreeMap<String, usize>,
    mcq: usize,
}

/// Questions about one rendered chart, in canonical wording.
pub fn generate(
    chart_id: &str,
    spec: &ChartSpec,
    scene: &Scene,
    opts: &QuestionOptions,
) -> Vec<Question> {
    let types = if opts.types.is_empty() {
        QuestionType::ALL.to_vec()
    } else {
        opts.types.clone()
    };
    let mut balance = Balance::default();
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    // Fact-check truth and MCQ letters start at a chart-seeded offset.
    let mut offset_rng = seed::rng(opts.seed, &[chart_id, "offsets"]);
    let fact_offset = offset_rng.random_range(0..2usize);
    let letter_offset = offset_rng.random_range(0..4usize);
    let max_slots = opts.count * 4 + 8;
    for k in 0..max_slots {
        if out.len() >= opts.count {
            break;
        }
        let ty = types[k % types.len()];
        let item_seed = seed::derive(opts.seed, &[chart_id, "item", &k.to_string()]);
        let built = build(
            ty,
            chart_id,
            spec,
            scene,
            opts,
            item_seed,
            &balance,
            (fact_offset, letter_offset),
        );
        // Any type of question about data may come out unanswerable, in the
        // same share, so the type does not tell (descriptive questions ask
        // about the chart itself and have no absent entity).
        let built = built.map(|q| {
            let roll = seed::rng(item_seed, &[chart_id, "unanswerable"])
                .random_bool(opts.unanswerable_share.clamp(0.0, 1.0));
            if roll && q.answerable && q.question_type != QuestionType::Descriptive {
                unanswerable_variant(&q, spec, scene, item_seed).unwrap_or(q)
            } else {
                q
            }
        });
        if let Some(q) = built {
            let key = format!(
                "{}|{}",
                q.question_type.name(),
                serde_json::to_string(q.query.base()).unwrap_or_default()
            );
            // Balance counts only what is kept, so dropped duplicates do not skew it.
            if seen.insert(key) {
                // An unanswerable variant has no letter or truth: the next
                // question takes the one it left.
                match q.question_type {
                    _ if !q.answerable => {}
                    QuestionType::MultipleChoice => balance.mcq += 1,
                    QuestionType::FactCheck => {
                        *balance.fact.entry(q.family.clone()).or_default() += 1
                    }
                    _ => {}
                }
                out.push(q);
            }
        }
    }
    out
}

/// Families asked only when named (`--families`): an outside reader found
/// "the average of the top 2 values for …" stilted in 4 of 5 items (seed
/// 7373), and people ask for the highest values rather than their mean.
const ASKED_WHEN_NAMED: &[&str] = &["top_mean"];

fn allowed(opts: &QuestionOptions, family: &str) -> bool {
    if opts.families.is_empty() {
        !ASKED_WHEN_NAMED.contains(&family)
    } else {
        opts.families.iter().any(|f| f == family)
    }
}

/// Panels whose table can be asked about, with their data.
fn data_panels(spec: &ChartSpec) -> Vec<(usize, PanelData)> {
    spec.panels()
        .iter()
        .enumerate()
        .map(|(i, p)| (i, PanelData::from_panel(p)))
        .filter(|(_, d)| d.categorical() && !d.series.is_empty() && d.categories.len() >= 2)
        .collect()
}

fn choose<'a, T>(rng: &mut Xoshiro256PlusPlus, items: &'a [T]) -> Option<&'a T> {
    (!items.is_empty()).then(|| &items[rng.random_range(0..items.len())])
}

/// Relative frequency of data families: value retrieval and extremes dominate
/// real chart QA sets, compositions are rarer.
fn family_weight(family: &str) -> u32 {
    match family {
        "value_at" => 6,
        "argmax" | "argmin" | "difference" => 3,
        "max_value" | "min_value" | "compare" | "sum" | "mean" | "trend" | "share" => 2,
        _ => 1,
    }
}

fn weighted<'a>(rng: &mut Xoshiro256PlusPlus, families: &[&'a str]) -> Option<&'a str> {
    let total: u32 = families.iter().map(|f| family_weight(f)).sum();
    if total == 0 {
        return None;
    }
    let mut x = rng.random_range(0..total);
    for f in families {
        let w = family_weight(f);
        if x < w {
            return Some(f);
        }
        x -= w;
    }
    None
}

/// A data query that the executor answers, for one of `families`.
fn answerable_data_query(
    chart_id: &str,
    spec: &ChartSpec,
    scene: &Scene,
    opts: &QuestionOptions,
    item_seed: u64,
    families: &[&str],
) -> Option<(Query, Answer, PanelData)> {
    let panels = data_panels(spec);
    // (panel, family) pairs no argument choice made readable in this slot.
    let mut failed: BTreeSet<(usize, &str)> = BTreeSet::new();
    for attempt in 0..12 {
        let a = attempt.to_string();
        let mut rng = seed::rng(item_seed, &[chart_id, "pick", &a]);
        let (panel, data) = choose(&mut rng, &panels)?;
        let Some(reading) = Reading::of(scene, *panel) else {
            continue;
        };
        let fams: Vec<&str> = families
            .iter()
            .copied()
            .filter(|f| allowed(opts, f) && pick::data_family_fits(f, data))
            .filter(|f| !failed.contains(&(*panel, *f)))
            .collect();
        let Some(fam) = weighted(&mut rng, &fams) else {
            continue;
        };
        // Other arguments are tried before the family is given up, so the
        // readability rules shift which cells are asked, not the family mix.
        for draw in 0..ARG_DRAWS {
            let mut arg_rng = if draw == 0 {
                seed::rng(item_seed, &[chart_id, fam, &a])
            } else {
                seed::rng(item_seed, &[chart_id, fam, &a, &draw.to_string()])
            };
            let Some(q) = pick::data_query(fam, *panel, data, &reading, &mut arg_rng) else {
                continue;
            };
            match execute(&q, spec, scene) {
                Ok(Answer::Unanswerable) | Err(_) => continue,
                Ok(answer) if sees(&q, &answer, spec, scene) => {
                    return Some((q, answer, data.clone()));
                }
                Ok(_) => continue,
            }
        }
        failed.insert((*panel, fam));
    }
    None
}

/// Argument draws per family before another family is tried.
const ARG_DRAWS: usize = 6;

/// Whether a careful person reads `answer` to `query` off the chart as
/// drawn: the reader that gates every item (`crate::reader`), seeing the
/// original image, so the generator proposes only what the gate keeps.
fn sees(query: &Query, answer: &Answer, spec: &ChartSpec, scene: &Scene) -> bool {
    sees_with(query, answer, spec, scene, false)
}

/// [`sees`], with the chart's paragraph in the prompt or not.
fn sees_with(
    query: &Query,
    answer: &Answer,
    spec: &ChartSpec,
    scene: &Scene,
    paragraph: bool,
) -> bool {
    let view = crate::reader::View::for_item(&[], paragraph);
    crate::reader::agrees(answer, &crate::reader::answer(query, spec, scene, &view))
}

/// Whether a wrapped query (hypothetical, conversation) is readable on its
/// panel: a conversation's earlier turns too, since their answers are shown
/// as given and a reader must be able to see them so on the chart.
fn readable(query: &Query, spec: &ChartSpec, scene: &Scene) -> bool {
    let one = |q: &Query| {
        execute(q, spec, scene).is_ok_and(|a| a != Answer::Unanswerable && sees(q, &a, spec, scene))
    };
    match query {
        Query::Conversation { turns } => one(query) && turns.iter().all(one),
        _ => one(query),
    }
}

fn descriptive_query(
    chart_id: &str,
    spec: &ChartSpec,
    scene: &Scene,
    opts: &QuestionOptions,
    item_seed: u64,
) -> Option<(Query, Answer)> {
    for attempt in 0..12 {
        let a = attempt.to_string();
        let mut rng = seed::rng(item_seed, &[chart_id, "describe", &a]);
        // Dashboards: sometimes ask what a KPI tile shows.
        if !scene.kpis.is_empty() && allowed(opts, "kpi_value") && rng.random_bool(0.2) {
            let tile = choose(&mut rng, &scene.kpis)?;
            let q = Query::KpiValue {
                label: tile.label.clone(),
            };
            if let Ok(answer) = execute(&q, spec, scene)
                && answer != Answer::Unanswerable
            {
                return Some((q, answer));
            }
        }
        let panel = choose(&mut rng, &scene.panels)?;
        let fams: Vec<&str> = pick::DESCRIPTIVE_FAMILIES
            .iter()
            .copied()
            .filter(|f| {
                allowed(opts, f)
                    && (!pick::OPT_IN_DESCRIPTIVE.contains(f)
                        || opts.families.iter().any(|n| n == f))
                    && (pick::descriptive_family_fits(f, panel, scene.panels.len())
                        || pick::asked_where_absent(f, panel))
            })
            .collect();
        let fam = *choose(&mut rng, &fams)?;
        // Which axis reads a series asks about one of the chart's two.
        let q = match (fam, &panel.dual_axis) {
            ("series_axis", Some(d)) => Query::SeriesAxis {
                panel: panel.index,
                series: if rng.random_bool(0.5) {
                    d.left_series.clone()
                } else {
                    d.right_series.clone()
                },
            },
            _ => pick::descriptive_query(fam, panel.index)?,
        };
        match execute(&q, spec, scene) {
            Ok(Answer::Unanswerable)
                if rng.random_bool(absent_rate(fam, spec, panel.index))
                    && seen_absent(&q, spec, scene) =>
            {
                return Some((q, Answer::Unanswerable));
            }
            Ok(answer) if answer != Answer::Unanswerable => return Some((q, answer)),
            _ => {}
        }
    }
    None
}

/// How often a descriptive question is asked of a chart that does not draw
/// what it asks about (an untitled chart's title, a one-series chart's
/// legend, a note not printed), relative to asking it of one that does. The
/// suite's selection fills its unanswerable share from whatever unanswerable
/// candidates a chart has, so these rates are far below the share of charts
/// that lack the element: set, by measurement on default suites
/// (docs/questions.md), so that these families are unanswerable about as
/// often as the others and the words "the legend" or "the note" tell nothing.
fn absent_rate(family: &str, spec: &ChartSpec, panel: usize) -> f64 {
    // Axis questions are asked of a chart without that axis only where the
    // chart leaves its value axis off (never of a category axis, whose
    // "numbered ticks" no one would ask about).
    let without_axes = spec
        .panels()
        .get(panel)
        .is_some_and(|p| p.style.furniture.hide_value_axis || p.kind.is_circular());
    match family {
        "lowest_y_tick" | "highest_y_tick" | "y_tick_step" | "leftmost_x_tick"
        | "rightmost_x_tick" | "x_tick_step" | "x_label" | "y_label"
            if without_axes =>
        {
            1.0
        }
        // A category axis without a title: many charts lack one.
        "x_label" | "y_label" => 0.35,
        "title" => 1.0,
        "source" => 0.4,
        "legend_count" | "legend_labels" => 0.05,
        // An untitled chart prints no subtitle either: many charts lack one.
        "subtitle" | "note" => 0.05,
        _ => 0.0,
    }
}

/// Whether a reader who looks at the chart finds nothing that answers `q`.
fn seen_absent(q: &Query, spec: &ChartSpec, scene: &Scene) -> bool {
    let view = crate::reader::View::for_item(&[], false);
    crate::reader::agrees(
        &Answer::Unanswerable,
        &crate::reader::answer(q, spec, scene, &view),
    )
}

/// Share of descriptive questions about a chart that ask for its source,
/// subtitle or note (each) where the chart prints it.
const FURNITURE_QUESTION_SHARE: f64 = 0.08;

/// How often an annotated chart's factoid asks about each of its annotation's
/// families: annotations are few, so their questions come often where drawn.
const ANNOTATION_QUESTION_SHARE: f64 = 0.25;

/// How often a lettered figure's factoid asks about the figure as a whole
/// (per figure family); its other questions cite one panel by its letter.
const FIGURE_QUESTION_SHARE: f64 = 0.25;

/// The annotation questions a chart's first panel supports, by what it draws.
fn annotation_queries(spec: &ChartSpec, scene: &Scene) -> Vec<Query> {
    let Some(a) = scene.panels.first().and_then(|p| p.annotation.as_ref()) else {
        return Vec::new();
    };
    let panel = 0;
    match a.kind.as_str() {
        "reference_line" => {
            let mut out = vec![Query::ReferenceValue { panel }];
            // The count over the first drawn series.
            if let Some(series) = spec.panels().first().and_then(|p| p.series.first()) {
                out.push(Query::CountAboveReference {
                    panel,
                    series: series.clone(),
                });
            }
            out
        }
        "highlight" => vec![Query::Highlighted { panel }],
        "band" => vec![Query::ShadedPeriod { panel }],
        "callout" => vec![Query::CalloutTarget { panel }],
        _ => Vec::new(),
    }
}

/// Whether the chart's data has a source (printed or not).
fn names_a_source(spec: &ChartSpec) -> bool {
    spec.panels().first().is_some_and(|p| {
        p.table
            .meta
            .source
            .as_deref()
            .is_some_and(|s| !s.trim().is_empty())
    })
}

/// Families whose answer can be offered as options or claimed: every data family.
const CLAIMABLE: &[&str] = pick::DATA_FAMILIES;

/// Families never stated as a claim to judge: "Is it true that the number of
/// cities with a value above 1,800 for 2016 is 2?" read like a form to an
/// outside reader (6 of 6 such claims stilted, seed 7373), as did claims
/// about the chart's own furniture ("Is it true that the interval between
/// the tick values on the y-axis is 50000?", 4 of 4).
const NOT_CLAIMED: [&str; 3] = ["count_above", "count_below", "top_mean"];

fn states_a_claim(base: &Query) -> bool {
    !is_descriptive(base) && !NOT_CLAIMED.contains(&family(base))
}

/// Families a hypothetical change feeds into.
const HYPOTHETICAL: &[&str] = &["value_at"];

fn to_mcq(
    base: &Query,
    answer: &Answer,
    data: Option<&PanelData>,
    scene: &Scene,
    letter: usize,
    rng: &mut Xoshiro256PlusPlus,
) -> Option<Query> {
    if matches!(answer, Answer::YesNo { .. } | Answer::Unanswerable) {
        return None;
    }
    // Four orderings of eight legend names make a question of a hundred
    // words that no one would set: longer lists are asked openly.
    if let Answer::List { values } = answer
        && values.len() > MAX_LISTED_IN_OPTIONS
    {
        return None;
    }
    let wrong = distractors(answer, base, data, scene, 3, true, rng);
    if wrong.len() < 3 {
        return None;
    }
    let mut options = wrong;
    options.insert(letter.min(3), display_answer(answer));
    Some(Query::MultipleChoice {
        base: Box::new(base.clone()),
        options,
    })
}

/// The longest list a multiple-choice question offers in four orders.
const MAX_LISTED_IN_OPTIONS: usize = 4;

/// How many wrong values a false claim is chosen from.
const FALSE_CLAIM_POOL: usize = 4;

/// The false claim a careful reader has to check: of the clearly wrong
/// candidates (each already beyond reading precision), the number nearest
/// the truth, so a claim is never twice the chart's highest value and false
/// at a glance; other answers keep the first (seeded) candidate.
fn near_miss(candidates: Vec<String>, answer: &Answer) -> Option<String> {
    let truth = match answer {
        Answer::Number { value, .. } => *value,
        Answer::Year { value } => f64::from(*value),
        _ => return candidates.into_iter().next(),
    };
    let miss =
        |c: &String| crate::query::parse_number(c).map_or(f64::INFINITY, |v| (v - truth).abs());
    candidates
        .into_iter()
        .min_by(|a, b| miss(a).total_cmp(&miss(b)))
}

fn to_fact(
    base: &Query,
    answer: &Answer,
    truth: bool,
    data: Option<&PanelData>,
    scene: &Scene,
    rng: &mut Xoshiro256PlusPlus,
) -> Option<Query> {
    let claim = match (answer, truth) {
        (Answer::Unanswerable, _) => return None,
        (_, true) => display_answer(answer),
        // Minimal edit: the swapped comparison.
        (Answer::YesNo { value }, false) => if *value { "No" } else { "Yes" }.to_string(),
        // A value moved beyond tolerance, the wrong category, a reordered list.
        (_, false) => near_miss(
            distractors(answer, base, data, scene, FALSE_CLAIM_POOL, false, rng),
            answer,
        )?,
    };
    // A person states 622, not 622.0: the claim is judged by its value.
    let claim = match answer {
        Answer::Number { .. } => without_trailing_zeros(&claim),
        _ => claim,
    };
    Some(Query::FactCheck {
        base: Box::new(base.clone()),
        claim,
    })
}

/// "622.0" → "622", "$1,600.80" → "$1,600.8", "12.50%" → "12.5%": the
/// number's fraction without its trailing zeros, the unit kept.
fn without_trailing_zeros(printed: &str) -> String {
    let Some(point) = printed.find('.') else {
        return printed.to_string();
    };
    let digits_end = printed[point + 1..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(printed.len(), |i| point + 1 + i);
    let fraction = printed[point + 1..digits_end].trim_end_matches('0');
    let number_end = if fraction.is_empty() {
        point
    } else {
        point + 1 + fraction.len()
    };
    format!("{}{}", &printed[..number_end], &printed[digits_end..])
}

/// A claim of the given truth about `base`, whose answer on the chart
/// `spec`/`scene` is `answer`, as the generator would state it: the
/// suite-wide balance of claims re-states an item's claim with this.
pub(crate) fn claim_of_truth(
    base: &Query,
    answer: &Answer,
    truth: bool,
    spec: &ChartSpec,
    scene: &Scene,
    rng: &mut Xoshiro256PlusPlus,
) -> Option<String> {
    let data = spec
        .panels()
        .get(base.panel())
        .map(|p| PanelData::from_panel(p));
    let fact = to_fact(base, answer, truth, data.as_ref(), scene, rng)?;
    match printed_periods(fact, spec, scene) {
        Query::FactCheck { claim, .. } => Some(claim),
        _ => None,
    }
}

/// Whether "if X rose 10%" reads two ways or means nothing: a percentage
/// ("%" unit, or "share", "rate" in the series' name: ten per cent of itself,
/// or ten points?), a ratio or percentage named by the series or the value
/// axis' title, or a temperature or anomaly (an arbitrary zero).
fn scales_without_meaning(data: &PanelData, name: &str) -> bool {
    let words = |text: &str| {
        text.to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let percent_unit = data
        .series
        .iter()
        .any(|s| s.name == name && s.format.suffix.as_deref().is_some_and(|u| u.trim() == "%"));
    let named_share = name.contains('%')
        || words(name)
            .iter()
            .any(|w| matches!(w.as_str(), "share" | "rate"));
    let title = data.value_title.as_deref().unwrap_or("");
    let interval_or_ratio = [name, title].iter().any(|text| {
        text.contains('°')
            || words(text).iter().any(|w| {
                matches!(
                    w.as_str(),
                    "temperature"
                        | "temperatures"
                        | "anomaly"
                        | "celsius"
                        | "fahrenheit"
                        | "ratio"
                        | "percent"
                        | "percentage"
                        | "pct"
                )
            })
    });
    percent_unit || named_share || interval_or_ratio
}

fn to_hypothetical(base: &Query, data: &PanelData, rng: &mut Xoshiro256PlusPlus) -> Option<Query> {
    // A share made 10 % larger leaves the others as they were and the stack
    // off 100 %: no reader could say what such a chart would show.
    // A step scaled on a waterfall moves every running total after it; the
    // table's totals would not follow.
    // A median or a bin count scaled by hand says nothing about the
    // observations behind it.
    if matches!(
        data.kind,
        crate::ir::ChartKind::PercentStackedBar
            | crate::ir::ChartKind::Waterfall
            | crate::ir::ChartKind::ErrorBar
            | crate::ir::ChartKind::DualAxis
    ) || data.kind.is_statistical()
    {
        return None;
    }
    // Only "what would its new value be?": an outside reader (seed 7373)
    // found 7 of 9 such what-ifs natural and none of 19 others (a whole
    // series scaled, then its highest, total or gap; one value changed, then
    // a difference or an average): puzzles, not questions about the chart.
    let Query::ValueAt {
        series, category, ..
    } = base
    else {
        return None;
    };
    // "If Share rose 10%": ten per cent of itself, or ten points? A what-if
    // on a percentage or a ratio reads two ways, so none is asked; nor on a
    // temperature, whose zero is arbitrary ("20% colder" means nothing).
    if scales_without_meaning(data, series) {
        return None;
    }
    const PERCENTS: [f64; 8] = [10.0, 20.0, 25.0, 50.0, -10.0, -20.0, -25.0, -50.0];
    Some(Query::Hypothetical {
        base: Box::new(base.clone()),
        change: Change {
            panel: base.panel(),
            series: series.clone(),
            category: Some(category.clone()),
            percent: *choose(rng, &PERCENTS)?,
        },
    })
}

/// Conversations that build on earlier turns by coreference.
fn conversation(
    panel: usize,
    data: &PanelData,
    spec: &ChartSpec,
    scene: &Scene,
    rng: &mut Xoshiro256PlusPlus,
) -> Option<Query> {
    let n = data.categories.len();
    if n < 2 {
        return None;
    }
    let s = choose(rng, &data.series)?.name.clone();
    let cell = |c: &str| CellRef {
        series: s.clone(),
        category: c.to_string(),
    };
    let value_at = |c: &CellRef| Query::ValueAt {
        panel,
        series: c.series.clone(),
        category: c.category.clone(),
    };
    // Neighbours in print: with thinned tick labels the next printed category.
    let read = Reading::of(scene, panel);
    let rows: Vec<usize> = (0..n)
        .filter(|k| {
            read.as_ref()
                .is_none_or(|r| r.category_printed(&data.categories[*k]))
        })
        .collect();
    if rows.len() < 2 {
        return None;
    }
    let at = rng.random_range(0..rows.len());
    let i = rows[at];
    let j = if at + 1 < rows.len() {
        rows[at + 1]
    } else {
        rows[at - 1]
    };
    let (c1, c2) = (cell(&data.categories[i]), cell(&data.categories[j]));
    let value_of = |c: &CellRef| {
        data.series(&c.series)
            .zip(data.row(&c.category))
            .and_then(|(x, r)| x.values.get(r).copied().flatten())
    };
    let positive_difference = |x: &CellRef, y: &CellRef| -> Option<Query> {
        let (vx, vy) = (value_of(x)?, value_of(y)?);
        let (a, b) = if vx >= vy { (x, y) } else { (y, x) };
        Some(Query::Difference {
            panel,
            a: a.clone(),
            b: b.clone(),
        })
    };
    let turns = match rng.random_range(0..5) {
        // "And the year after?" answered with the number just given asks
        // nothing new.
        0 if value_of(&c1) == value_of(&c2) => return None,
        0 => vec![value_at(&c1), value_at(&c2)],
        // "… And what is the difference between that and the value in
        // 2019?": the other cell is named, so it can be one the chart lacks.
        1 => vec![value_at(&c1), positive_difference(&c1, &c2)?],
        k @ (2 | 3) => {
            let argmax = Query::Argmax {
                panel,
                series: Some(s.clone()),
            };
            let top = execute(&argmax, spec, scene).ok()?.to_text();
            let top_cell = cell(&top);
            if k == 2 {
                vec![argmax, value_at(&top_cell)]
            } else {
                let other = rows
                    .iter()
                    .map(|k| &data.categories[*k])
                    .find(|c| **c != top)?;
                let other_cell = cell(other);
                vec![
                    argmax,
                    value_at(&top_cell),
                    positive_difference(&top_cell, &other_cell)?,
                ]
            }
        }
        _ => {
            if data.series.len() < 2 {
                return None;
            }
            // "And for seasonally adjusted CO2?" answered with the same
            // number as the turn before asks nothing new.
            let first = value_of(&c1);
            let other = data.series.iter().map(|x| x.name.clone()).find(|name| {
                *name != s
                    && value_of(&CellRef {
                        series: name.clone(),
                        category: c1.category.clone(),
                    }) != first
            })?;
            vec![
                value_at(&c1),
                Query::ValueAt {
                    panel,
                    series: other,
                    category: c1.category.clone(),
                },
            ]
        }
    };
    Some(Query::Conversation { turns })
}

/// Options and claims that name a period (the answer is a month, a year, a
/// quarter) name it as the chart prints it (`Jan 2023`, not `2023-01`);
/// executors and readers match them to the period (`query::wrappers::states`).
fn printed_periods(query: Query, spec: &ChartSpec, scene: &Scene) -> Query {
    use crate::spec::dates::{IndexDates, Period};
    let Some(panel) = spec.panels().get(query.panel()).copied() else {
        return query;
    };
    let dates = IndexDates::of_panel(panel);
    if dates.is_iso() {
        return query;
    }
    let names_period = |base: &Query| match execute(base, spec, scene) {
        Ok(Answer::Year { .. }) => true,
        Ok(Answer::Text { value }) => Period::from_label(&value).is_some(),
        _ => false,
    };
    match query {
        Query::MultipleChoice { base, options } if names_period(&base) => Query::MultipleChoice {
            options: options.iter().map(|o| dates.print(o)).collect(),
            base,
        },
        Query::FactCheck { base, claim } if names_period(&base) => Query::FactCheck {
            claim: dates.print(&claim),
            base,
        },
        other => other,
    }
}

/// Executes, then words a query canonically; None when refused.
fn finalize(
    query: Query,
    ty: QuestionType,
    spec: &ChartSpec,
    scene: &Scene,
    seed: u64,
    realizer: &str,
) -> Option<Question> {
    let query = printed_periods(query, spec, scene);
    let answer = execute(&query, spec, scene).ok()?;
    let kind: AnswerKind = answer_kind(&query, &answer);
    let choices = match &query {
        Query::MultipleChoice { options, .. } => options.clone(),
        _ => Vec::new(),
    };
    let panel = query.panel();
    let paragraph = spec
        .panels()
        .get(panel)
        .and_then(|p| p.table.meta.paragraph.clone())
        .or_else(|| match &spec.layout {
            crate::ir::Layout::Dashboard { paragraph, .. } => paragraph.clone(),
            _ => None,
        });
    // Every question the generator writes is one the reader, and so the
    // readability gate, answers as the gold says.
    if !sees_with(&query, &answer, spec, scene, paragraph.is_some()) {
        return None;
    }
    let q = Question {
        family: family(&query).to_string(),
        answerable: answer != Answer::Unanswerable,
        query,
        question_type: ty,
        text: String::new(),
        answer,
        answer_kind: kind,
        choices,
        history: Vec::new(),
        paragraph,
        realization: Realization::default(),
    };
    crate::realize::realize(&q, realizer, spec, scene, seed)
        .or_else(|| crate::realize::realize(&q, "canonical", spec, scene, seed))
}

#[allow(clippy::too_many_arguments)]
fn build(
    ty: QuestionType,
    chart_id: &str,
    spec: &ChartSpec,
    scene: &Scene,
    opts: &QuestionOptions,
    item_seed: u64,
    balance: &Balance,
    (fact_offset, letter_offset): (usize, usize),
) -> Option<Question> {
    let mut rng = seed::rng(item_seed, &[chart_id, ty.name()]);
    match ty {
        QuestionType::Factoid => {
            // Questions about the annotation a chart draws (never asked of
            // charts without one), each family on its own random stream.
            for query in annotation_queries(spec, scene) {
                let family = family(&query);
                let share = if opts.families.iter().any(|f| f == family) {
                    0.5
                } else {
                    ANNOTATION_QUESTION_SHARE
                };
                if allowed(opts, family)
                    && readable(&query, spec, scene)
                    && seed::rng(item_seed, &[chart_id, family]).random_bool(share)
                {
                    return finalize(query, ty, spec, scene, item_seed, "canonical");
                }
            }
            // Questions about a lettered figure as a whole (never asked of
            // other charts), each family on its own random stream.
            if scene.figure.is_some() {
                for query in [
                    Query::PanelCount,
                    Query::PanelExtreme { max: true },
                    Query::PanelExtreme { max: false },
                ] {
                    let family = family(&query);
                    let share = if opts.families.iter().any(|f| f == family) {
                        0.5
                    } else {
                        FIGURE_QUESTION_SHARE
                    };
                    if allowed(opts, family)
                        && readable(&query, spec, scene)
                        && seed::rng(item_seed, &[chart_id, family]).random_bool(share)
                    {
                        return finalize(query, ty, spec, scene, item_seed, "canonical");
                    }
                }
            }
            // Some questions need a fact stated only in the paragraph (or it and the chart).
            if allowed(opts, "paragraph_value") || allowed(opts, "paragraph_difference") {
                let panel = rng.random_range(0..spec.panels().len().max(1));
                let candidates: Vec<Query> =
                    crate::query::paragraph::paragraph_queries(spec, panel)
                        .into_iter()
                        .filter(|q| allowed(opts, family(q)))
                        .filter(|q| {
                            matches!(execute(q, spec, scene), Ok(ref a @ Answer::Number { .. })
                                if sees_with(q, a, spec, scene, true))
                        })
                        .collect();
                if !candidates.is_empty() && rng.random_bool(0.4) {
                    let query = choose(&mut rng, &candidates)?.clone();
                    return finalize(query, ty, spec, scene, item_seed, "canonical");
                }
            }
            let (query, _, _) =
                answerable_data_query(chart_id, spec, scene, opts, item_seed, pick::DATA_FAMILIES)?;
            finalize(query, ty, spec, scene, item_seed, "canonical")
        }
        QuestionType::Descriptive => {
            // "What is the source?", "What is the subtitle?" and "What does
            // the note say?", each on its own random stream: of a chart that
            // prints it now and then, of one that does not at the rate that
            // keeps the family's unanswerable share near the others'. The
            // source is asked only of tables that name one.
            for (family, query) in [
                ("source", Query::Source { panel: 0 }),
                ("subtitle", Query::Subtitle { panel: 0 }),
                ("note", Query::Note { panel: 0 }),
            ] {
                if !allowed(opts, family) || (family == "source" && !names_a_source(spec)) {
                    continue;
                }
                // Asked for by name, they are asked often; else now and then.
                let share = if opts.families.iter().any(|f| f == family) {
                    0.5
                } else {
                    FURNITURE_QUESTION_SHARE
                };
                let printed = matches!(execute(&query, spec, scene), Ok(Answer::Text { .. }));
                let (share, fits) = if printed {
                    (share, readable(&query, spec, scene))
                } else {
                    (
                        share * absent_rate(family, spec, 0),
                        seen_absent(&query, spec, scene),
                    )
                };
                if fits && seed::rng(item_seed, &[chart_id, family]).random_bool(share) {
                    return finalize(query, ty, spec, scene, item_seed, "canonical");
                }
            }
            let (query, _) = descriptive_query(chart_id, spec, scene, opts, item_seed)?;
            finalize(query, ty, spec, scene, item_seed, "canonical")
        }
        QuestionType::MultipleChoice => {
            let (base, answer, data) =
                answerable_data_query(chart_id, spec, scene, opts, item_seed, CLAIMABLE)?;
            let letter = (balance.mcq + letter_offset) % 4;
            let query = to_mcq(&base, &answer, Some(&data), scene, letter, &mut rng)?;
            finalize(query, ty, spec, scene, item_seed, "canonical")
        }
        QuestionType::FactCheck => {
            let claimed: Vec<&str> = CLAIMABLE
                .iter()
                .copied()
                .filter(|f| !NOT_CLAIMED.contains(f))
                .collect();
            let (base, answer, data) =
                answerable_data_query(chart_id, spec, scene, opts, item_seed, &claimed)?;
            let fam = family(&base).to_string();
            let count = balance.fact.get(&fam).copied().unwrap_or(0);
            // Alternate within the chart from a seeded start per family, so each
            // family is balanced within a chart and in expectation across charts.
            let start = seed::rng(opts.seed, &[chart_id, "fact", &fam]).random_range(0..2usize);
            let truth = (count + start + fact_offset) % 2 == 0;
            let query = to_fact(&base, &answer, truth, Some(&data), scene, &mut rng)?;
            let q = finalize(query, ty, spec, scene, item_seed, "canonical")?;
            if q.answer != (Answer::TrueFalse { value: truth }) {
                return None;
            }
            Some(q)
        }
        QuestionType::Hypothetical => {
            let (base, answer, data) =
                answerable_data_query(chart_id, spec, scene, opts, item_seed, HYPOTHETICAL)?;
            let query = (0..4)
                .filter_map(|_| to_hypothetical(&base, &data, &mut rng))
                .find(|q| readable(q, spec, scene))?;
            let q = finalize(query, ty, spec, scene, item_seed, "canonical")?;
            // A change that leaves the answer as it was asks nothing hypothetical.
            (q.answer != answer).then_some(q)
        }
        QuestionType::Conversational => {
            let panels = data_panels(spec);
            let (panel, data) = choose(&mut rng, &panels)?;
            let query = (0..4)
                .filter_map(|_| conversation(*panel, data, spec, scene, &mut rng))
                .find(|q| readable(q, spec, scene))?;
            finalize(query, ty, spec, scene, item_seed, "canonical")
        }
    }
}

/// The same intent in another question type (format shift), worded by the
/// realizer of `q`; of a question about something the chart does not show,
/// through a drawn stand-in (`absent_reformat`). None when the base does not
/// fit the new type.
pub fn reformat(
    q: &Question,
    to: QuestionType,
    spec: &ChartSpec,
    scene: &Scene,
    seed: u64,
) -> Option<Question> {
    let base = q.query.base().clone();
    let mut rng = seed::rng(seed, &["reformat", to.name(), &q.family]);
    let answer = execute(&base, spec, scene).ok()?;
    if answer == Answer::Unanswerable {
        return absent_reformat::reformat_absent(q, to, spec, scene, seed);
    }
    let panels = spec.panels();
    let data = panels.get(base.panel()).map(|p| PanelData::from_panel(p));
    let descriptive = is_descriptive(&base);
    let query = match to {
        QuestionType::Factoid if !descriptive => base,
        QuestionType::Descriptive if descriptive => base,
        QuestionType::MultipleChoice => {
            let letter = rng.random_range(0..4);
            to_mcq(&base, &answer, data.as_ref(), scene, letter, &mut rng)?
        }
        QuestionType::FactCheck if states_a_claim(&base) => {
            let truth = rng.random_bool(0.5);
            to_fact(&base, &answer, truth, data.as_ref(), scene, &mut rng)?
        }
        QuestionType::Hypothetical if !descriptive => {
            to_hypothetical(&base, data.as_ref()?, &mut rng)?
        }
        // A value question becomes the follow-up of a question about a neighbour.
        QuestionType::Conversational if !descriptive => match &base {
            Query::ValueAt {
                panel,
                series,
                category,
            } => {
                let d = data.as_ref()?;
                let row = d.row(category)?;
                let other = if row > 0 { row - 1 } else { row + 1 };
                let first = Query::ValueAt {
                    panel: *panel,
                    series: series.clone(),
                    category: d.categories.get(other)?.clone(),
                };
                let turns = Query::Conversation {
                    turns: vec![first, base.clone()],
                };
                if !readable(&turns, spec, scene) {
                    return None;
                }
                turns
            }
            // Any other question is asked after an opening question about
            // the same panel, so the asked turn keeps the original's fact.
            _ => {
                let opening = conversation(base.panel(), data.as_ref()?, spec, scene, &mut rng)?;
                let first = match opening {
                    Query::Conversation { turns } => turns.into_iter().next()?,
                    _ => return None,
                };
                if first == base || opening_hints(&first, &base) {
                    return None;
                }
                let turns = Query::Conversation {
                    turns: vec![first, base],
                };
                if !readable(&turns, spec, scene) {
                    return None;
                }
                turns
            }
        },
        _ => return None,
    };
    let realizer = if q.realization.realizer.is_empty() {
        "canonical"
    } else {
        q.realization.realizer.as_str()
    };
    let out = finalize(query, to, spec, scene, seed, realizer)?;
    if to == QuestionType::Hypothetical && out.answer == answer {
        return None;
    }
    Some(out)
}

/// Whether an opening turn, answered in the conversation's history, points
/// at the answer of a question about an extreme: where the extreme lies (a
/// "which month is lowest?" before "what is the lowest value?"), or a value
/// of the same series (the month after the low, printed exactly beside it).
fn opening_hints(first: &Query, base: &Query) -> bool {
    let asked: Option<Option<&str>> = match base {
        Query::MaxValue { series, .. } | Query::MinValue { series, .. } => Some(series.as_deref()),
        Query::Spread { series, .. } | Query::TopMean { series, .. } => Some(Some(series)),
        _ => None,
    };
    let Some(asked) = asked else {
        return false;
    };
    let same = |s: Option<&str>| asked.is_none() || s.is_none() || s == asked;
    match first {
        Query::Argmax { .. } | Query::Argmin { .. } => true,
        Query::ValueAt { series, .. } => same(Some(series)),
        Query::MaxValue { series, .. } | Query::MinValue { series, .. } => same(series.as_deref()),
        _ => false,
    }
}

#[cfg(test)]
mod claim_print_tests {
    #[test]
    fn claims_drop_trailing_zeros_and_keep_their_unit() {
        for (printed, said) in [
            ("622.0", "622"),
            ("35.60", "35.6"),
            ("$1,600.80", "$1,600.8"),
            ("12.50%", "12.5%"),
            ("1.50 t", "1.5 t"),
            ("-0.40", "-0.4"),
            ("2,500", "2,500"),
            ("100", "100"),
            ("0.05", "0.05"),
        ] {
            assert_eq!(super::without_trailing_zeros(printed), said, "{printed}");
        }
    }
}

#[cfg(test)]
mod near_miss_tests {
    use super::{Query, near_miss, opening_hints};

    #[test]
    fn an_opening_turn_never_points_at_an_asked_extreme() {
        let low = Query::MinValue {
            panel: 0,
            series: Some("S&P 500".into()),
        };
        let month_after = Query::ValueAt {
            panel: 0,
            series: "S&P 500".into(),
            category: "2002-10".into(),
        };
        let where_low = Query::Argmin {
            panel: 0,
            series: Some("S&P 500".into()),
        };
        let other_series = Query::ValueAt {
            panel: 0,
            series: "Dow".into(),
            category: "2002-10".into(),
        };
        assert!(opening_hints(&month_after, &low));
        assert!(opening_hints(&where_low, &low));
        assert!(!opening_hints(&other_series, &low));
        // A value question gains no hint from another cell's value.
        assert!(!opening_hints(&month_after, &other_series));
    }
    use crate::ir::Answer;

    #[test]
    fn a_false_claim_is_the_wrong_value_nearest_the_truth() {
        let truth = Answer::Number {
            value: 48.8,
            decimals: 1,
            unit: None,
        };
        let wrong = ["95.4", "21.0", "57.1", "33.9"].map(String::from).to_vec();
        assert_eq!(near_miss(wrong, &truth).as_deref(), Some("57.1"));
        let text = Answer::Text {
            value: "Gentoo".into(),
        };
        let wrong = ["Adelie", "Chinstrap"].map(String::from).to_vec();
        assert_eq!(near_miss(wrong, &text).as_deref(), Some("Adelie"));
        assert_eq!(near_miss(Vec::new(), &truth), None);
    }
}

#[cfg(test)]
mod what_if_tests {
    use super::{PanelData, scales_without_meaning};
    use crate::ir::{ChartKind, ColumnType};

    fn data(value_title: Option<&str>) -> PanelData {
        PanelData {
            kind: ChartKind::Line,
            categories: vec!["2001".into(), "2002".into()],
            index_type: ColumnType::Year,
            series: Vec::new(),
            hidden: Vec::new(),
            value_title: value_title.map(String::from),
        }
    }

    #[test]
    fn temperatures_and_ratios_are_not_scaled_by_a_percentage() {
        assert!(scales_without_meaning(
            &data(Some("Temperature (°C)")),
            "Vienna"
        ));
        assert!(scales_without_meaning(&data(None), "Temperature anomaly"));
        assert!(scales_without_meaning(
            &data(Some("Savings ratio")),
            "Chile"
        ));
        assert!(!scales_without_meaning(&data(Some("Population")), "Chile"));
        assert!(!scales_without_meaning(&data(None), "Revenue"));
    }
}
