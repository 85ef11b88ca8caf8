//! How related two tables are, for picking the panels that surround a target
//! in a subplot grid or a dashboard. A composite figure of one topic (the
//! same domain words, the same kind of index, the same unit) is what people
//! publish; a target among random topics is easy to spot and incoherent.

use std::collections::BTreeSet;

use rand::seq::SliceRandom;

use crate::ir::{ChartKind, ColumnType, Table};

/// Words too common to say anything about a topic.
const STOP: &[&str] = &[
    "and",
    "the",
    "of",
    "in",
    "by",
    "for",
    "per",
    "to",
    "on",
    "at",
    "from",
    "with",
    "vs",
    "or",
    "an",
    "a",
    "its",
    "their",
    "selected",
    "share",
    "total",
    "annual",
    "average",
    "mean",
    "data",
    "value",
    "values",
    "number",
    "year",
    "years",
    "month",
    "monthly",
    "yearly",
    "category",
    "characteristic",
    "illustrative",
    "us",
    "million",
    "billion",
    "thousand",
    "other",
    "others",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "new",
    "world",
];

/// Lower-case content words, with a plural "s" dropped so "sale" meets "sales".
pub fn topic_words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 3 && !w.chars().all(|c| c.is_ascii_digit()))
        .map(|w| w.to_lowercase())
        .filter(|w| !STOP.contains(&w.as_str()))
        .map(|w| match w.strip_suffix('s') {
            Some(stem) if stem.chars().count() >= 3 && !stem.ends_with('s') => stem.to_string(),
            _ => w,
        })
        .collect()
}

/// Title words count most: they name the topic.
fn title_words(t: &Table) -> BTreeSet<String> {
    topic_words(t.meta.title.as_deref().unwrap_or(""))
}

fn other_words(t: &Table) -> BTreeSet<String> {
    let mut text = String::new();
    for part in [&t.meta.x_label, &t.meta.y_label, &t.meta.unit]
        .into_iter()
        .flatten()
    {
        text.push_str(part);
        text.push(' ');
    }
    text.push_str(&t.index.name);
    for s in &t.series {
        text.push(' ');
        text.push_str(&s.name);
    }
    topic_words(&text)
}

/// The kind of index: time (years, dates, months) or categories.
fn index_kind(t: &Table) -> u8 {
    match t.index.ctype {
        ColumnType::Year | ColumnType::Date => 0,
        _ if crate::spec::is_ordered_index(t) => 0,
        ColumnType::Number => 1,
        _ => 2,
    }
}

/// The unit a table's values are in, as printed: meta unit, else the first
/// series' prefix/suffix.
fn unit(t: &Table) -> Option<String> {
    if let Some(u) = t.meta.unit.as_deref().filter(|u| !u.trim().is_empty()) {
        return Some(u.trim().to_lowercase());
    }
    let f = &t.series.first()?.format;
    let u = format!(
        "{}{}",
        f.prefix.as_deref().unwrap_or(""),
        f.suffix.as_deref().unwrap_or("")
    );
    (!u.is_empty()).then_some(u)
}

/// Relatedness of `other` to `target`, higher is closer; 0 when nothing is
/// shared. Shared topic words weigh most, then the index kind, then the unit,
/// then (when `kind` is given) whether `other` can be drawn in that kind.
pub fn relatedness(target: &Table, other: &Table, kind: Option<ChartKind>) -> u32 {
    let (tt, to) = (title_words(target), other_words(target));
    let (ot, oo) = (title_words(other), other_words(other));
    let all_t: BTreeSet<&String> = tt.iter().chain(&to).collect();
    let all_o: BTreeSet<&String> = ot.iter().chain(&oo).collect();
    let shared_titles = tt.intersection(&ot).count() as u32;
    let shared = all_t.intersection(&all_o).count() as u32;
    let mut score = 6 * shared_titles + 3 * shared;
    if index_kind(target) == index_kind(other) {
        score += 4;
    }
    if let (Some(a), Some(b)) = (unit(target), unit(other)) {
        if a == b {
            score += 3;
        } else if !topic_words(&a).is_disjoint(&topic_words(&b)) {
            score += 1;
        }
    }
    if let Some(k) = kind
        && crate::spec::suitable_kinds(other).contains(&k)
    {
        score += 5;
    }
    score
}

/// `candidates` (never the target itself) from most to least related. Equal
/// scores keep a seeded order, so figures vary between items without
/// depending on the order tables were listed in.
pub fn rank<'a>(
    target: &Table,
    candidates: &[&'a Table],
    kind: Option<ChartKind>,
    seed: u64,
    salt: &str,
) -> Vec<&'a Table> {
    let mut pool: Vec<&Table> = candidates
        .iter()
        .filter(|t| t.id != target.id)
        .copied()
        .collect();
    pool.sort_by(|a, b| a.id.cmp(&b.id));
    pool.shuffle(&mut crate::seed::rng(seed, &[salt, "related"]));
    let mut scored: Vec<(u32, &Table)> = pool
        .into_iter()
        .map(|t| (relatedness(target, t, kind), t))
        .collect();
    scored.sort_by_key(|s| std::cmp::Reverse(s.0));
    scored.into_iter().map(|(_, t)| t).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Cell, Column, NumberFormat, TableMeta};

    fn table(id: &str, title: &str, index: ColumnType, series: &str) -> Table {
        let cells = match index {
            ColumnType::Year => vec![Cell::Year(2020), Cell::Year(2021)],
            _ => vec![Cell::Text("North".into()), Cell::Text("South".into())],
        };
        Table {
            id: id.into(),
            source_path: None,
            meta: TableMeta {
                title: Some(title.into()),
                ..TableMeta::default()
            },
            index: Column {
                name: "Index".into(),
                ctype: index,
                format: NumberFormat::default(),
                cells,
            },
            series: vec![Column {
                name: series.into(),
                ctype: ColumnType::Number,
                format: NumberFormat::default(),
                cells: vec![Cell::Number(1.0), Cell::Number(2.0)],
            }],
        }
    }

    #[test]
    fn words_drop_stopwords_numbers_and_plurals() {
        let w = topic_words("Monthly retail sales by channel, 2023");
        assert_eq!(
            w.into_iter().collect::<Vec<_>>(),
            ["channel", "retail", "sale"]
        );
    }

    #[test]
    fn related_tables_rank_first_whatever_the_seed() {
        let target = table(
            "t",
            "Coffee exports by country",
            ColumnType::Text,
            "Exports",
        );
        let near = table(
            "n",
            "Coffee imports by country",
            ColumnType::Text,
            "Imports",
        );
        let mid = table("m", "Tea exports", ColumnType::Year, "Exports");
        let far = table("f", "Rainfall in capitals", ColumnType::Year, "Rainfall");
        for seed in 0..20 {
            let ranked = rank(&target, &[&far, &mid, &near, &target], None, seed, "x");
            let ids: Vec<&str> = ranked.iter().map(|t| t.id.as_str()).collect();
            assert_eq!(ids, ["n", "m", "f"], "seed {seed}");
        }
    }
}
