//! Unanswerable variants: the same question about an entity of the same kind
//! that the chart does not show — a fake name, a year out of range, a series
//! not drawn — worded by the same realizer with the same seed.

use fake::Fake;
use fake::faker::address::en::{CityName, CountryName};
use fake::faker::company::en::CompanyName;
use fake::faker::name::en::FirstName;
use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::Question;
use crate::ir::query::{CellRef, Query};
use crate::ir::{Answer, ChartSpec, ColumnType, QuestionType, Scene};
use crate::query::{PanelData, execute};
use crate::seed;

/// Measures a chart might plausibly show, for "series not shown".
const MEASURES: &[&str] = &[
    "Revenue",
    "Profit",
    "Exports",
    "Imports",
    "Sales",
    "Users",
    "Population",
    "Emissions",
    "Costs",
    "Visitors",
];

fn fake_category(
    data: &PanelData,
    index_name: &str,
    rng: &mut Xoshiro256PlusPlus,
) -> Option<String> {
    let exists = |c: &str| data.categories.iter().any(|x| x.eq_ignore_ascii_case(c));
    if data.index_type == ColumnType::Year {
        let years: Vec<i32> = data
            .categories
            .iter()
            .filter_map(|c| c.parse().ok())
            .collect();
        let (lo, hi) = (years.iter().min()?, years.iter().max()?);
        let d = rng.random_range(1..=3);
        let y = if rng.random_bool(0.5) { hi + d } else { lo - d };
        return Some(y.to_string());
    }
    if data.index_type != ColumnType::Text {
        return None;
    }
    let name = index_name.to_lowercase();
    for _ in 0..8 {
        let c: String = if name.contains("country") || name.contains("nation") {
            CountryName().fake_with_rng(rng)
        } else if name.contains("city") || name.contains("town") {
            CityName().fake_with_rng(rng)
        } else if ["name", "person", "player", "employee", "student", "author"]
            .iter()
            .any(|w| name.contains(w))
        {
            FirstName().fake_with_rng(rng)
        } else {
            CompanyName().fake_with_rng(rng)
        };
        if !exists(&c) {
            return Some(c);
        }
    }
    None
}

fn fake_series(data: &PanelData, rng: &mut Xoshiro256PlusPlus) -> Option<String> {
    if !data.hidden.is_empty() {
        return Some(data.hidden[rng.random_range(0..data.hidden.len())].clone());
    }
    let free: Vec<&&str> = MEASURES
        .iter()
        .filter(|m| data.series.iter().all(|s| !s.name.eq_ignore_ascii_case(m)))
        .collect();
    (!free.is_empty()).then(|| free[rng.random_range(0..free.len())].to_string())
}

/// Replaces the first category (or series) the query names.
fn swap_entity(query: &Query, category: Option<&str>, series: Option<&str>) -> Option<Query> {
    let mut q = query.clone();
    let cat = |c: &mut String| {
        if let Some(new) = category {
            *c = new.to_string();
            true
        } else {
            false
        }
    };
    let ser = |s: &mut String| {
        if let Some(new) = series {
            *s = new.to_string();
            true
        } else {
            false
        }
    };
    let done = match &mut q {
        Query::ValueAt {
            series: s,
            category: c,
            ..
        }
        | Query::Rank {
            series: s,
            category: c,
            ..
        }
        | Query::Share {
            series: s,
            category: c,
            ..
        } => cat(c) || ser(s),
        Query::Difference { a, b, .. }
        | Query::Ratio { a, b, .. }
        | Query::Compare { a, b, .. } => {
            // Keep the question's shape: a shared category or series is replaced in both cells.
            let shared_category = a.category == b.category;
            let shared_series = a.series == b.series;
            let CellRef {
                series: s,
                category: c,
            } = a;
            if cat(c) {
                if shared_category {
                    b.category = c.clone();
                }
                true
            } else if ser(s) {
                if shared_series {
                    b.series = s.clone();
                }
                true
            } else {
                false
            }
        }
        Query::PercentChange { series: s, to, .. } => cat(to) || ser(s),
        Query::Argmax {
            series: Some(s), ..
        }
        | Query::Argmin {
            series: Some(s), ..
        }
        | Query::MaxValue {
            series: Some(s), ..
        }
        | Query::MinValue {
            series: Some(s), ..
        }
        | Query::Aggregate { series: s, .. }
        | Query::CountThreshold { series: s, .. }
        | Query::Trend { series: s, .. }
        | Query::LargestChange { series: s, .. }
        | Query::Spread { series: s, .. }
        | Query::TopMean { series: s, .. } => ser(s),
        _ => false,
    };
    done.then_some(q)
}

/// An unanswerable question worded like `q` (same realizer; same template
/// when realized with the same seed). Only factoid questions have variants.
pub fn unanswerable_variant(
    q: &Question,
    spec: &ChartSpec,
    scene: &Scene,
    seed: u64,
) -> Option<Question> {
    if q.question_type != QuestionType::Factoid {
        return None;
    }
    let base = q.query.base();
    let panels = spec.panels();
    let panel = panels.get(base.panel())?;
    let data = PanelData::from_panel(panel);
    let mut rng = seed::rng(seed, &["unanswerable", &q.family]);
    let prefer_category = rng.random_bool(0.6);
    let mut tries: Vec<Option<Query>> = Vec::new();
    let by_category = || {
        let mut r = seed::rng(seed, &["unanswerable", &q.family, "category"]);
        fake_category(&data, &panel.table.index.name, &mut r)
            .and_then(|c| swap_entity(base, Some(&c), None))
    };
    let by_series = || {
        let mut r = seed::rng(seed, &["unanswerable", &q.family, "series"]);
        fake_series(&data, &mut r).and_then(|s| swap_entity(base, None, Some(&s)))
    };
    if prefer_category {
        tries.push(by_category());
        tries.push(by_series());
    } else {
        tries.push(by_series());
        tries.push(by_category());
    }
    // An entity the accompanying paragraph talks about might be answerable from it.
    let paragraph = q.paragraph.as_deref().unwrap_or("").to_lowercase();
    let mentioned = |query: &Query| {
        let json = serde_json::to_string(query).unwrap_or_default();
        let original = serde_json::to_string(base).unwrap_or_default();
        !paragraph.is_empty()
            && json != original
            && crate::realize::slots::base_slots(query, spec)
                .map(|(_, slots)| {
                    slots.values().any(|v| {
                        v.len() > 2
                            && !original.contains(v.as_str())
                            && paragraph.contains(&v.to_lowercase())
                    })
                })
                .unwrap_or(false)
    };
    for query in tries.into_iter().flatten() {
        if mentioned(&query) {
            continue;
        }
        // Never emit a variant the table can answer.
        if execute(&query, spec, scene).ok() != Some(Answer::Unanswerable) {
            continue;
        }
        let draft = Question {
            family: crate::query::family(&query).to_string(),
            query,
            answer: Answer::Unanswerable,
            answer_kind: q.answer_kind,
            answerable: false,
            choices: Vec::new(),
            history: Vec::new(),
            text: String::new(),
            ..q.clone()
        };
        let realizer = if q.realization.realizer.is_empty() {
            "canonical"
        } else {
            q.realization.realizer.as_str()
        };
        if let Some(out) = crate::realize::realize(&draft, realizer, spec, scene, seed) {
            return Some(out);
        }
    }
    None
}
