//! Unanswerable variants: the same question about an entity of the same kind
//! that the chart does not show — a category of the index's kind (a country
//! for countries, a year or month outside the range, a company for
//! companies), a series of the series' kind (a table series not drawn, the
//! same measure in another year, another platform or energy source) — worded
//! by the same realizer with the same seed. An entity whose kind cannot be
//! told is never invented: "Population in Price" reads as a trick, not as a
//! question someone would ask about the chart.

use fake::Fake;
use fake::faker::company::en::Industry;
use fake::faker::name::en::{FirstName, LastName};
use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::Question;
use crate::ir::query::{CellRef, Query};
use crate::ir::{Answer, ChartSpec, ColumnType, QuestionType, Scene};
use crate::query::{PanelData, execute};
use crate::seed;

/// Closed sets of entities charts often show; a chart whose entities overlap
/// one of them gets a missing member of the same set.
const KINDS: &[&[&str]] = &[
    &[
        "Chrome",
        "Safari",
        "Edge",
        "Firefox",
        "Opera",
        "Samsung Internet",
        "Brave",
        "Vivaldi",
        "UC Browser",
        "Yandex Browser",
    ],
    &[
        "YouTube",
        "Instagram",
        "TikTok",
        "Facebook",
        "Snapchat",
        "Pinterest",
        "LinkedIn",
        "Reddit",
        "WhatsApp",
        "Threads",
    ],
    &[
        "Coal",
        "Natural gas",
        "Nuclear",
        "Renewables",
        "Oil",
        "Hydro",
        "Wind",
        "Solar",
        "Bioenergy",
        "Geothermal",
    ],
    &[
        "Housing",
        "Food and groceries",
        "Transport",
        "Savings",
        "Recreation",
        "Health",
        "Clothing",
        "Education",
        "Utilities",
        "Insurance",
        "Childcare",
        "Dining out",
    ],
    &[
        "Police and public safety",
        "Education",
        "Health and social services",
        "Transport and roads",
        "Parks and recreation",
        "Housing",
        "Libraries and culture",
        "Water and sanitation",
        "Fire and rescue",
        "Waste collection",
    ],
    &[
        "Austin",
        "Boston",
        "Chicago",
        "Denver",
        "Detroit",
        "Houston",
        "Miami",
        "Nashville",
        "Phoenix",
        "San Diego",
        "Seattle",
        "Atlanta",
        "Dallas",
        "Portland",
        "Pittsburgh",
        "Minneapolis",
    ],
    crate::synth::names::WORLD_CITIES,
    &[
        "Asia Pacific",
        "North America",
        "Western Europe",
        "Latin America",
        "Middle East and Africa",
        "Eastern Europe",
        "Central Asia",
        "Oceania",
        "Southern Africa",
        "Central America",
        "Northern Europe",
    ],
];

/// Suffixes of company names (synthesized and real).
const COMPANY_WORDS: &[&str] = &[
    "Inc",
    "LLC",
    "Group",
    "and Sons",
    "Ltd",
    "Corp",
    "Corporation",
    "Company",
    "Traders",
    "Bank",
];

/// Countries as charts name them: not "Antarctica (the territory South of
/// 60 deg S)" or "Virgin Islands, British", which read as a list's entries.
fn plain_country(name: &str) -> bool {
    !name.contains(['(', ',', '&'])
}

/// Another country for a chart whose series (or most of them) are
/// countries: "the highest value for Norway" where Sweden and Finland are
/// drawn.
fn another_country(names: &[String], rng: &mut Xoshiro256PlusPlus) -> Option<String> {
    use fake::locales::{Data, EN};
    // The synthesized tables' own list spells some countries otherwise
    // ("United States of America"): a table of either kind is recognised.
    let synthesized = &crate::synth::names::REAL_COUNTRY_NAMES[..];
    let countries = if mostly_in(names, synthesized, 2) {
        synthesized
    } else if mostly_in(names, EN::ADDRESS_COUNTRY, 2) {
        EN::ADDRESS_COUNTRY
    } else {
        return None;
    };
    let free: Vec<&&str> = countries
        .iter()
        .filter(|c| plain_country(c) && !exists(names, c))
        .collect();
    (!free.is_empty()).then(|| free[rng.random_range(0..free.len())].to_string())
}

/// Whether at least `min` and at least half of `names` are members of `set`.
fn mostly_in(names: &[String], set: &[&str], min: usize) -> bool {
    let hits = names.iter().filter(|n| exists_in(set, n)).count();
    hits >= min && hits * 2 >= names.len()
}

fn exists_in(set: &[&str], name: &str) -> bool {
    set.iter().any(|m| m.eq_ignore_ascii_case(name))
}

fn exists(names: &[String], candidate: &str) -> bool {
    names.iter().any(|x| x.eq_ignore_ascii_case(candidate))
}

/// A missing member of the closed set most of `names` belong to.
fn from_kind(names: &[String], rng: &mut Xoshiro256PlusPlus) -> Option<String> {
    // The parts of a whole that published breakdowns use (offence types,
    // age bands, commuting modes, …) are closed sets too; "Other" is never
    // the missing one.
    let parts = crate::synth::measures::COMPOSITIONS.iter().map(|c| c.parts);
    let kind = KINDS
        .iter()
        .copied()
        .chain(parts)
        .find(|set| mostly_in(names, set, 2.min(names.len())))?;
    let free: Vec<&&str> = kind
        .iter()
        .filter(|m| !exists(names, m) && !m.eq_ignore_ascii_case("Other"))
        .collect();
    (!free.is_empty()).then(|| free[rng.random_range(0..free.len())].to_string())
}

fn company_like(name: &str) -> bool {
    COMPANY_WORDS
        .iter()
        .any(|w| name.ends_with(&format!(" {w}")) || name.contains(&format!(" {w} ")))
}

/// A year (or "YYYY-MM" month) just outside the range of `labels`.
fn outside_range(labels: &[String], rng: &mut Xoshiro256PlusPlus) -> Option<String> {
    let d = rng.random_range(1..=3);
    let after = rng.random_bool(0.5);
    if let Some(years) = labels
        .iter()
        .map(|c| c.parse::<i32>().ok())
        .collect::<Option<Vec<i32>>>()
    {
        let (lo, hi) = (years.iter().min()?, years.iter().max()?);
        return Some(if after { hi + d } else { lo - d }.to_string());
    }
    // Months as the tables print them: "2023-11".
    let months: Vec<i32> = labels
        .iter()
        .map(|c| {
            let (y, m) = c.split_once('-')?;
            let (y, m) = (y.parse::<i32>().ok()?, m.parse::<i32>().ok()?);
            (y > 0 && (1..=12).contains(&m) && c.len() == 7).then_some(y * 12 + m - 1)
        })
        .collect::<Option<_>>()?;
    let (lo, hi) = (months.iter().min()?, months.iter().max()?);
    let m = if after { hi + d } else { lo - d };
    Some(format!("{}-{:02}", m.div_euclid(12), m.rem_euclid(12) + 1))
}

fn fake_category(
    data: &PanelData,
    index_name: &str,
    rng: &mut Xoshiro256PlusPlus,
) -> Option<String> {
    let cats = &data.categories;
    match data.index_type {
        ColumnType::Year | ColumnType::Date => return outside_range(cats, rng),
        ColumnType::Text => {}
        _ => return None,
    }
    if let Some(c) = from_kind(cats, rng) {
        return Some(c);
    }
    let name = index_name.to_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| name.contains(w));
    for _ in 0..8 {
        let c: String = if has(&["country", "nation"]) {
            // Drawn as the synthesized tables draw theirs, real or invented.
            let c = crate::synth::names::country(rng);
            if !plain_country(&c) {
                continue;
            }
            c
        } else if has(&["city", "town", "capital"]) {
            // Drawn as the synthesized tables draw theirs, real or invented.
            crate::synth::names::city(rng)
        } else if has(&[
            "company",
            "firm",
            "employer",
            "brand",
            "manufacturer",
            "vendor",
        ]) || cats.iter().filter(|c| company_like(c)).count() * 2 >= cats.len()
        {
            crate::synth::names::company(rng)
        } else if has(&["industry", "sector"]) {
            Industry().fake_with_rng(rng)
        } else if has(&["product", "model"]) {
            // Drawn as the synthesized tables draw theirs, real or invented.
            crate::synth::names::product_in(rng, None)
        } else if has(&["item"]) {
            // "Kautzer Monitor" → "Harris Monitor": a maker's name and the
            // noun of a drawn item.
            let noun = cats[rng.random_range(0..cats.len())]
                .split_whitespace()
                .nth(1)?
                .to_string();
            let maker: String = LastName().fake_with_rng(rng);
            format!("{maker} {noun}")
        } else if has(&[
            "person",
            "player",
            "employee",
            "student",
            "author",
            "representative",
        ]) {
            // A name like the ones drawn: full names beside full names.
            if cats.iter().all(|c| c.contains(' ')) {
                crate::synth::names::person(rng)
            } else {
                FirstName().fake_with_rng(rng)
            }
        } else {
            return None;
        };
        if !exists(cats, &c) {
            return Some(c);
        }
    }
    None
}

/// A series of the same kind as the drawn ones that the chart does not show.
fn fake_series(data: &PanelData, rng: &mut Xoshiro256PlusPlus) -> Option<String> {
    if !data.hidden.is_empty() {
        return Some(data.hidden[rng.random_range(0..data.hidden.len())].clone());
    }
    let names: Vec<String> = data.series.iter().map(|s| s.name.clone()).collect();
    if names.is_empty() {
        return None;
    }
    if let Some(y) = outside_range(&names, rng) {
        return Some(y);
    }
    // "Net income 2022" → "Net income 2021": the same measure in a year not drawn.
    let split: Option<Vec<(&str, i32)>> = names
        .iter()
        .map(|n| {
            let (head, year) = n.rsplit_once(' ')?;
            let y = year
                .parse::<i32>()
                .ok()
                .filter(|y| (1800..=2200).contains(y))?;
            Some((head, y))
        })
        .collect();
    if let Some(parts) = split
        && parts.windows(2).all(|w| w[0].0 == w[1].0)
    {
        let years: Vec<String> = parts.iter().map(|p| p.1.to_string()).collect();
        let y = outside_range(&years, rng)?;
        return Some(format!("{} {y}", parts[0].0));
    }
    if let Some(s) = from_kind(&names, rng).or_else(|| another_country(&names, rng)) {
        return Some(s);
    }
    // "Northwind Cloud", "Contoso Cloud" → "Harris Cloud".
    let last: Vec<&str> = names
        .iter()
        .filter_map(|n| n.rsplit_once(' ').map(|p| p.1))
        .collect();
    // Only brand-like names ("Northwind Cloud"): short, letters only.
    let brand_like = |n: &String| {
        n.split_whitespace().count() <= 3 && n.chars().all(|c| c.is_alphabetic() || c == ' ')
    };
    if names.len() >= 2
        && names.iter().all(brand_like)
        && last.len() == names.len()
        && last.windows(2).all(|w| w[0] == w[1])
    {
        let maker: String = LastName().fake_with_rng(rng);
        let s = format!("{maker} {}", last[0]);
        return (!exists(&names, &s)).then_some(s);
    }
    if names.iter().all(|n| company_like(n)) {
        for _ in 0..8 {
            let c = crate::synth::names::company(rng);
            if !exists(&names, &c) {
                return Some(c);
            }
        }
    }
    None
}

/// Another measure of the same kind of thing for a chart of measures per
/// category ("Voter turnout" beside "GDP" for countries), printed as the
/// drawn one is (with its unit in parentheses when that one has it). A
/// chart of several series gets one only when each of them is such a
/// measure (not years, brands or groups). Never one of `table_columns`:
/// a bubble chart's sizes or a scatter's axes draw columns that are not its
/// series, and "the highest population" is read off a bubble chart of it.
fn sibling_measure(
    data: &PanelData,
    index_name: &str,
    table_columns: &[&str],
    rng: &mut Xoshiro256PlusPlus,
) -> Option<String> {
    let names: Vec<String> = data.series.iter().map(|s| s.name.clone()).collect();
    if names.is_empty() || !matches!(data.index_type, ColumnType::Text) {
        return None;
    }
    let without_unit = crate::realize::slots::without_unit;
    let known = crate::synth::measures::measures_of(index_name);
    let is_measure = |n: &String| {
        let n = without_unit(n).to_lowercase();
        known.iter().any(|(m, _)| m.to_lowercase() == n)
    };
    if names.len() > 1 && !names.iter().all(is_measure) {
        return None;
    }
    let with_units = without_unit(&names[0]) != names[0].trim();
    let taken: Vec<String> = names
        .iter()
        .chain(&data.hidden)
        .map(String::as_str)
        .chain(table_columns.iter().copied())
        .map(|n| without_unit(n).to_lowercase())
        .collect();
    let free: Vec<String> = crate::synth::measures::measures_of(index_name)
        .into_iter()
        .filter(|(name, _)| {
            let name = name.to_lowercase();
            taken
                .iter()
                .all(|t| !t.contains(&name) && !name.contains(t.as_str()))
        })
        .map(|(name, unit)| {
            if with_units {
                crate::synth::kinds::with_unit(name, unit)
            } else {
                name.to_string()
            }
        })
        .collect();
    (!free.is_empty()).then(|| free[rng.random_range(0..free.len())].clone())
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
        // A subset with one category the chart does not show, listed in
        // time order as the chart's own are.
        Query::Aggregate {
            series: s,
            categories,
            ..
        }
        | Query::ShareSum {
            series: s,
            categories,
            ..
        } => match categories.last_mut() {
            Some(last) => {
                let swapped = cat(last) || ser(s);
                in_time_order(categories);
                swapped
            }
            None => ser(s),
        },
        // Two series: the second one is not drawn.
        Query::MaxGap { b, .. } | Query::Crosses { b, .. } => ser(b),
        Query::SlopeChange { to, .. } => ser(to),
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
        | Query::CountThreshold { series: s, .. }
        | Query::Trend { series: s, .. }
        | Query::LargestChange { series: s, .. }
        | Query::Spread { series: s, .. }
        | Query::TopMean { series: s, .. } => ser(s),
        _ => false,
    };
    done.then_some(q)
}

/// Years (or "YYYY-MM" months) sorted as a chart lays them out; other
/// names keep their order.
fn in_time_order(categories: &mut [String]) {
    let month = |c: &String| c.len() == 7 && c.as_bytes()[4] == b'-';
    if categories.iter().all(|c| c.parse::<i32>().is_ok()) {
        categories.sort_by_key(|c| c.parse::<i32>().unwrap_or(0));
    } else if categories.iter().all(month) {
        categories.sort();
    }
}

/// The series and categories a base query names, to carry a swap over to a
/// hypothetical change that named the same entity.
pub(super) fn named(query: &Query) -> (Vec<String>, Vec<String>) {
    let json = serde_json::to_value(query).unwrap_or_default();
    let mut series = Vec::new();
    let mut categories = Vec::new();
    fn walk(v: &serde_json::Value, series: &mut Vec<String>, categories: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(map) => {
                for (k, x) in map {
                    match (k.as_str(), x) {
                        ("series" | "a" | "b", serde_json::Value::String(s)) => {
                            series.push(s.clone())
                        }
                        ("category" | "to" | "from", serde_json::Value::String(s)) => {
                            categories.push(s.clone())
                        }
                        ("categories", serde_json::Value::Array(a)) => categories
                            .extend(a.iter().filter_map(|c| c.as_str().map(str::to_string))),
                        _ => walk(x, series, categories),
                    }
                }
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, series, categories)),
            _ => {}
        }
    }
    walk(&json, &mut series, &mut categories);
    (series, categories)
}

/// The wrapper (or conversation) around a base whose entity was swapped.
fn rewrap(original: &Query, old_base: &Query, new_base: Query) -> Option<Query> {
    Some(match original {
        Query::MultipleChoice { options, .. } => Query::MultipleChoice {
            base: Box::new(new_base),
            options: options.clone(),
        },
        Query::FactCheck { claim, .. } => Query::FactCheck {
            base: Box::new(new_base),
            claim: claim.clone(),
        },
        Query::Hypothetical { change, .. } => {
            // "If Wind in 2027 rose by 20%, what would Wind in 2027 be?": the
            // change follows the swap when it named the swapped entity.
            let (old_s, old_c) = named(old_base);
            let (new_s, new_c) = named(&new_base);
            let mut change = change.clone();
            for (o, n) in old_s.iter().zip(&new_s) {
                if o != n && change.series == *o {
                    change.series = n.clone();
                }
            }
            for (o, n) in old_c.iter().zip(&new_c) {
                if o != n && change.category.as_deref() == Some(o.as_str()) {
                    change.category = Some(n.clone());
                }
            }
            Query::Hypothetical {
                base: Box::new(new_base),
                change,
            }
        }
        Query::Conversation { turns } => {
            let mut turns = turns.clone();
            *turns.last_mut()? = new_base;
            Query::Conversation { turns }
        }
        _ => new_base,
    })
}

/// For a "the year after / before" follow-up: the same conversation moved to
/// the edge of the chart, so the follow-up asks the year just past it
/// (Some(Some)); Some(None) when that is not possible; None for any other
/// question.
fn year_after_edge(q: &Question, data: &PanelData) -> Option<Option<Query>> {
    let Query::Conversation { turns } = &q.query else {
        return None;
    };
    let [
        first @ ..,
        Query::ValueAt {
            panel,
            series: s1,
            category: c1,
        },
        Query::ValueAt {
            series: s2,
            category: c2,
            ..
        },
    ] = turns.as_slice()
    else {
        return None;
    };
    if s1 != s2 || data.index_type != ColumnType::Year {
        return None;
    }
    let (y1, y2) = (c1.parse::<i32>().ok()?, c2.parse::<i32>().ok()?);
    let (i, j) = (data.row(c1)?, data.row(c2)?);
    let step = y2 - y1;
    if step.abs() != 1 || (j as i64 - i as i64) != i64::from(step) {
        return None;
    }
    let edge = if step > 0 {
        data.categories.last()?
    } else {
        data.categories.first()?
    };
    let Ok(edge_year) = edge.parse::<i32>() else {
        return Some(None);
    };
    let past = (edge_year + step).to_string();
    if !first.is_empty() || data.row(&past).is_some() {
        return Some(None);
    }
    let value_at = |category: String| Query::ValueAt {
        panel: *panel,
        series: s1.clone(),
        category,
    };
    Some(Some(Query::Conversation {
        turns: vec![value_at(edge.clone()), value_at(past)],
    }))
}

/// A follow-up turn keeps what it shares with the turn before ("And in
/// 2027?" still asks the same series; "And for Solar?" the same year).
fn keeps_follow_up(original: &Query, new_last: &Query) -> bool {
    let Query::Conversation { turns } = original else {
        return true;
    };
    match (turns.as_slice(), new_last) {
        (
            [
                ..,
                Query::ValueAt {
                    series: s1,
                    category: c1,
                    ..
                },
                Query::ValueAt {
                    series: s2,
                    category: c2,
                    ..
                },
            ],
            Query::ValueAt {
                series: s3,
                category: c3,
                ..
            },
        ) => (s1 == s2) == (s1 == s3) && (c1 == c2) == (c1 == c3),
        ([.., prev, last @ Query::Difference { .. }], Query::Difference { .. }) => {
            let by_series = |turn| crate::realize::difference_from(prev, turn).map(|d| d.2);
            by_series(last).is_some() && by_series(last) == by_series(new_last)
        }
        _ => false,
    }
}

/// Whether the question prints values of its measure: numeric options, a
/// numeric claim, a count's threshold.
fn states_measure_values(query: &Query) -> bool {
    let numeric = |t: &str| crate::query::parse_number(t).is_some();
    match query {
        Query::MultipleChoice { options, .. } if options.iter().any(|o| numeric(o)) => true,
        Query::FactCheck { claim, .. } if numeric(claim) => true,
        _ => matches!(query.base(), Query::CountThreshold { .. }),
    }
}

/// The last turn of a conversation that ends "… the difference between
/// that and the value for B?": B's side, B, and whether B is another series.
fn difference_follow_up(q: &Question) -> Option<(&'static str, &CellRef, bool)> {
    let Query::Conversation { turns } = &q.query else {
        return None;
    };
    match turns.as_slice() {
        [.., prev, last] => crate::realize::difference_from(prev, last),
        _ => None,
    }
}

/// `difference` with its `side` cell replaced.
fn with_cell(difference: &Query, side: &str, series: &str, category: &str) -> Query {
    let mut q = difference.clone();
    if let Query::Difference { a, b, .. } = &mut q {
        let cell = if side == "a" { a } else { b };
        cell.series = series.to_string();
        cell.category = category.to_string();
    }
    q
}

/// Whether the query type can carry an unanswerable base and still read
/// naturally: factoid, multiple choice, fact check, hypothetical, and a
/// conversation whose last turn asks a plain value after another value
/// ("And in 2027?").
fn swappable_base(q: &Question) -> Option<&Query> {
    match (&q.question_type, &q.query) {
        (QuestionType::Factoid, query) => Some(query),
        (QuestionType::MultipleChoice, Query::MultipleChoice { base, .. })
        | (QuestionType::FactCheck, Query::FactCheck { base, .. })
        | (QuestionType::Hypothetical, Query::Hypothetical { base, .. }) => {
            let nested = matches!(
                base.as_ref(),
                Query::MultipleChoice { .. }
                    | Query::FactCheck { .. }
                    | Query::Hypothetical { .. }
                    | Query::Conversation { .. }
            );
            (!nested).then_some(base.as_ref())
        }
        (QuestionType::Conversational, Query::Conversation { turns }) => match turns.as_slice() {
            [.., Query::ValueAt { .. }, last @ Query::ValueAt { .. }] => Some(last),
            [
                ..,
                prev @ Query::ValueAt { .. },
                last @ Query::Difference { .. },
            ] => crate::realize::difference_from(prev, last).map(|_| last),
            _ => None,
        },
        _ => None,
    }
}

/// An unanswerable question worded like `q` (same realizer; same template
/// when realized with the same seed). Factoid, multiple-choice, fact-check,
/// hypothetical and value follow-up questions about data have variants;
/// descriptive questions do not.
pub fn unanswerable_variant(
    q: &Question,
    spec: &ChartSpec,
    scene: &Scene,
    seed: u64,
) -> Option<Question> {
    let asked_base = swappable_base(q)?;
    if crate::query::is_descriptive(asked_base) {
        return None;
    }
    // "… the difference between that and the value for B?": B, the cell
    // the last turn names, is the one replaced; the other is the earlier
    // turn's and stays.
    let follow_up = difference_follow_up(q);
    let proxy = follow_up.map(|(_, other, _)| Query::ValueAt {
        panel: asked_base.panel(),
        series: other.series.clone(),
        category: other.category.clone(),
    });
    let base = proxy.as_ref().unwrap_or(asked_base);
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
    let by_series_swap = || {
        let mut r = seed::rng(seed, &["unanswerable", &q.family, "series"]);
        fake_series(&data, &mut r).and_then(|s| swap_entity(base, None, Some(&s)))
    };
    // A chart of one measure: the same question about another measure of
    // the same kind of thing — unless the question states values of the
    // drawn measure (options, a claimed value, a threshold), which would
    // read as that measure's and give the swap away ("homicide rate above
    // 100,000,000" on a population chart).
    let states_values = states_measure_values(&q.query);
    let by_measure = || {
        if states_values {
            return None;
        }
        let mut r = seed::rng(seed, &["unanswerable", &q.family, "measure"]);
        sibling_measure(
            &data,
            &panel.table.index.name,
            &panel.table.series_names(),
            &mut r,
        )
        .and_then(|s| swap_entity(base, None, Some(&s)))
    };
    let edge = year_after_edge(q, &data);
    if let Some(conversation) = &edge {
        // "And the year after?" keeps its wording only past the last year shown.
        tries.push(Some(conversation.clone()?));
    } else if let Some((_, _, by_series)) = follow_up {
        // The named cell differs from the earlier one as before: by series
        // or by category.
        if by_series {
            tries.push(by_series_swap());
            tries.push(by_measure());
        } else {
            tries.push(by_category());
        }
    } else if prefer_category {
        tries.push(by_category());
        tries.push(by_series_swap());
        tries.push(by_measure());
    } else {
        tries.push(by_series_swap());
        tries.push(by_measure());
        tries.push(by_category());
    }
    // An entity the accompanying paragraph talks about might be answerable
    // from it: only the names the swap brings in count (the measure's own
    // name is in any paragraph about the chart).
    let paragraph = q.paragraph.as_deref().unwrap_or("").to_lowercase();
    let (old_series, old_categories) = named(base);
    let mentioned = |query: &Query| {
        let (series, categories) = named(query.base());
        !paragraph.is_empty()
            && series
                .iter()
                .filter(|s| !old_series.contains(s))
                .chain(categories.iter().filter(|c| !old_categories.contains(c)))
                .any(|name| paragraph.contains(&name.to_lowercase()))
    };
    for new_base in tries.into_iter().flatten() {
        let new_base = match (follow_up, &new_base) {
            (
                Some((side, _, _)),
                Query::ValueAt {
                    series, category, ..
                },
            ) => with_cell(asked_base, side, series, category),
            _ => new_base,
        };
        if mentioned(&new_base) {
            continue;
        }
        let query = if edge.is_some() {
            new_base
        } else {
            if !keeps_follow_up(&q.query, &new_base) {
                continue;
            }
            rewrap(&q.query, asked_base, new_base)?
        };
        // Never emit a variant the table can answer.
        if execute(&query, spec, scene).ok() != Some(Answer::Unanswerable) {
            continue;
        }
        if let Some(out) = worded_unanswerable(query, q, spec, scene, seed) {
            return Some(out);
        }
    }
    None
}

/// `query` (which the table cannot answer) as a question worded by the
/// realizer of `like`, whose other fields it takes; None when a reader of
/// the chart would not see it is unanswerable (a series name asked of a
/// chart that prints no series name): the reader's verdict is the gate's.
pub(super) fn worded_unanswerable(
    query: Query,
    like: &Question,
    spec: &ChartSpec,
    scene: &Scene,
    seed: u64,
) -> Option<Question> {
    let view = crate::reader::View::for_item(&[], like.paragraph.is_some());
    let reading = crate::reader::answer(&query, spec, scene, &view);
    if !crate::reader::agrees(&Answer::Unanswerable, &reading) {
        return None;
    }
    let choices = match &query {
        Query::MultipleChoice { options, .. } => options.clone(),
        _ => Vec::new(),
    };
    let draft = Question {
        family: crate::query::family(&query).to_string(),
        query,
        answer: Answer::Unanswerable,
        answerable: false,
        choices,
        history: Vec::new(),
        text: String::new(),
        ..like.clone()
    };
    let realizer = if like.realization.realizer.is_empty() {
        "canonical"
    } else {
        like.realization.realizer.as_str()
    };
    crate::realize::realize(&draft, realizer, spec, scene, seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn panel_of(series: &[&str], categories: &[&str]) -> crate::ir::PanelSpec {
        use crate::query::testing as t;
        let columns = series
            .iter()
            .map(|s| t::series(s, &vec![Some(1.0); categories.len()], 0))
            .collect();
        let table = t::category_table("t", "Company", categories, columns);
        t::panel(&table, crate::ir::ChartKind::Bar)
    }

    #[test]
    fn same_kind_entities() {
        let mut rng = seed::rng(1, &["t"]);
        let browsers = strings(&["Chrome", "Safari", "Edge", "Firefox"]);
        let b = from_kind(&browsers, &mut rng).unwrap();
        assert!(KINDS[0].contains(&b.as_str()) && !browsers.contains(&b));
        // Unrelated names match no kind.
        assert_eq!(from_kind(&strings(&["Price", "Brand"]), &mut rng), None);
        // The parts of a published breakdown: another age band, another
        // offence, never "Other".
        let bands = strings(&["18–24", "25–34", "35–44"]);
        for _ in 0..10 {
            let b = from_kind(&bands, &mut rng).unwrap();
            assert!(
                ["45–54", "55–64", "65 and over"].contains(&b.as_str()),
                "{b}"
            );
        }
        let offences = strings(&["Theft", "Burglary", "Fraud", "Criminal damage", "Other"]);
        for _ in 0..10 {
            let o = from_kind(&offences, &mut rng).unwrap();
            assert!(
                ["Violence against the person", "Drug offences"].contains(&o.as_str()),
                "{o}"
            );
        }
        for _ in 0..20 {
            let y = outside_range(&strings(&["2015", "2016", "2017"]), &mut rng).unwrap();
            let y: i32 = y.parse().unwrap();
            assert!((2012..=2014).contains(&y) || (2018..=2020).contains(&y));
            let m = outside_range(&strings(&["2023-01", "2023-12"]), &mut rng).unwrap();
            assert!(
                [
                    "2022-10", "2022-11", "2022-12", "2024-01", "2024-02", "2024-03"
                ]
                .contains(&m.as_str()),
                "{m}"
            );
        }
    }

    #[test]
    fn another_country_beside_drawn_countries() {
        let mut rng = seed::rng(4, &["t"]);
        let drawn = strings(&["Norway", "Sweden", "Finland", "Nordic average"]);
        for _ in 0..30 {
            let c = another_country(&drawn, &mut rng).unwrap();
            assert!(plain_country(&c) && !drawn.contains(&c), "{c}");
        }
        assert_eq!(another_country(&strings(&["Coal", "Gas"]), &mut rng), None);
        assert_eq!(
            another_country(&strings(&["Norway", "Coal", "Gas"]), &mut rng),
            None
        );
    }

    #[test]
    fn same_measure_in_another_year() {
        let panel = panel_of(
            &["Net income 2022", "Net income 2023"],
            &["A Corp", "B Corp"],
        );
        let data = PanelData::from_panel(&panel);
        let mut rng = seed::rng(2, &["t"]);
        let s = fake_series(&data, &mut rng).unwrap();
        assert!(s.starts_with("Net income "), "{s}");
        assert!(!["Net income 2022", "Net income 2023"].contains(&s.as_str()));
        // Measures in parentheses are not brands.
        let panel = panel_of(
            &["Coffee (kg per person)", "Tea (kg per person)"],
            &["A", "B"],
        );
        let data = PanelData::from_panel(&panel);
        assert_eq!(fake_series(&data, &mut rng), None);
        // A single measure with no kind gets no invented companion.
        let panel = panel_of(&["Share of respondents"], &["Price", "Brand"]);
        let data = PanelData::from_panel(&panel);
        assert_eq!(fake_series(&data, &mut rng), None);
        assert_eq!(fake_category(&data, "Characteristic", &mut rng), None);
    }

    #[test]
    fn values_of_the_drawn_measure_rule_out_another_measure() {
        let base = Query::MaxValue {
            panel: 0,
            series: Some("Population".into()),
        };
        assert!(!states_measure_values(&base));
        let options = |o: &[&str]| Query::MultipleChoice {
            base: Box::new(base.clone()),
            options: strings(o),
        };
        assert!(states_measure_values(&options(&[
            "1,200", "900", "650", "400"
        ])));
        assert!(!states_measure_values(&options(&[
            "Oslo", "Rome", "Lima", "Pune"
        ])));
        let claim = |c: &str| Query::FactCheck {
            base: Box::new(base.clone()),
            claim: c.into(),
        };
        assert!(states_measure_values(&claim("1,304,887,562")));
        assert!(!states_measure_values(&claim("Oslo")));
        assert!(states_measure_values(&Query::CountThreshold {
            panel: 0,
            series: "Population".into(),
            threshold: 1e8,
            above: true,
        }));
    }

    #[test]
    fn another_measure_of_the_same_kind_of_thing() {
        let mut rng = seed::rng(3, &["t"]);
        let panel = panel_of(&["Revenue"], &["A Corp", "B Corp"]);
        let data = PanelData::from_panel(&panel);
        for _ in 0..20 {
            let m = sibling_measure(&data, "Company", &[], &mut rng).unwrap();
            let companies = crate::synth::measures::measures_of("Company");
            assert!(
                m != "Revenue" && companies.iter().any(|(n, _)| *n == m),
                "{m}"
            );
        }
        // Units in parentheses stay in parentheses.
        let panel = panel_of(&["Revenue (US$ million)"], &["A Corp", "B Corp"]);
        let data = PanelData::from_panel(&panel);
        let m = sibling_measure(&data, "Company", &[], &mut rng).unwrap();
        assert!(m.ends_with(')') && !m.starts_with("Revenue"), "{m}");
        // No kind: nothing invented.
        assert_eq!(
            sibling_measure(&data, "Characteristic", &[], &mut rng),
            None
        );
        // Two measures of companies drawn: a third one.
        let panel = panel_of(&["Revenue", "Net income"], &["A Corp", "B Corp"]);
        let data = PanelData::from_panel(&panel);
        let companies = crate::synth::measures::measures_of("Company");
        if companies.iter().any(|(n, _)| *n == "Net income") {
            let m = sibling_measure(&data, "Company", &[], &mut rng).unwrap();
            assert!(!["Revenue", "Net income"].contains(&m.as_str()), "{m}");
        }
        // Series that are not measures (regions): nothing invented.
        let panel = panel_of(&["North", "South"], &["A Corp", "B Corp"]);
        let data = PanelData::from_panel(&panel);
        assert_eq!(sibling_measure(&data, "Company", &[], &mut rng), None);
    }

    #[test]
    fn no_measure_the_table_draws_otherwise() {
        // A bubble chart of countries sizes its bubbles by population: the
        // highest population is read off it, so it is never the absent one.
        let mut rng = seed::rng(5, &["t"]);
        let panel = panel_of(&["Life expectancy (years)"], &["Chad", "Peru"]);
        let data = PanelData::from_panel(&panel);
        let columns = ["Life expectancy (years)", "Population (million)"];
        let countries = crate::synth::measures::measures_of("Country");
        assert!(countries.iter().any(|(n, _)| *n == "Population"));
        for _ in 0..40 {
            let m = sibling_measure(&data, "Country", &columns, &mut rng).unwrap();
            assert!(!m.starts_with("Population"), "{m}");
        }
    }
}
