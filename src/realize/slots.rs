//! Slot values of a query: entity names, numbers and phrases the templates fill in.

use std::collections::BTreeMap;

use crate::ir::decimal::shown_decimals;
use crate::ir::query::{AggregateOp, Query};
use crate::ir::{ChartSpec, ColumnType, NumberFormat, PanelSpec};
use crate::query::display_number;

pub type Slots = BTreeMap<String, String>;

/// Singular and plural noun for the index ("year"/"years", "country"/"countries").
pub fn category_nouns(panel: &PanelSpec) -> (String, String) {
    let table = &panel.table;
    let singular = match table.index.ctype {
        ColumnType::Year => "year".to_string(),
        // "In which month did … increase the most?", not "In which date".
        ColumnType::Date if table.category_labels().iter().all(|c| is_month(c)) => {
            "month".to_string()
        }
        ColumnType::Date => "date".to_string(),
        _ => {
            let name = table.index.name.trim().to_lowercase();
            let words: Vec<&str> = name.split_whitespace().collect();
            if !words.is_empty()
                && words.len() <= 2
                && name.chars().all(|c| c.is_alphabetic() || c == ' ')
                && !name.ends_with('s')
            {
                name
            } else {
                "category".to_string()
            }
        }
    };
    let plural = plural(&singular);
    (singular, plural)
}

/// "2023-11": a month as tables print it.
fn is_month(label: &str) -> bool {
    let b = label.as_bytes();
    b.len() == 7
        && b[4] == b'-'
        && b[..4].iter().chain(&b[5..]).all(u8::is_ascii_digit)
        && matches!(label[5..].parse::<u8>(), Ok(1..=12))
}

pub fn plural(word: &str) -> String {
    let vowel_y = ["ay", "ey", "oy", "uy"].iter().any(|e| word.ends_with(e));
    if word.ends_with('y') && !vowel_y {
        format!("{}ies", &word[..word.len() - 1])
    } else if ["s", "x", "ch", "sh"].iter().any(|e| word.ends_with(e)) {
        format!("{word}es")
    } else {
        format!("{word}s")
    }
}

/// "A", "A and B", "A, B and C".
pub fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// "one decimal place", "the nearest whole number".
pub fn decimals_phrase(decimals: u8) -> String {
    match decimals {
        0 => "the nearest whole number".into(),
        1 => "one decimal place".into(),
        2 => "two decimal places".into(),
        3 => "three decimal places".into(),
        4 => "four decimal places".into(),
        5 => "five decimal places".into(),
        6 => "six decimal places".into(),
        n => format!("{n} decimal places"),
    }
}

/// The series' number format; a series the chart does not show (an
/// unanswerable variant) borrows the first drawn series' format, so its
/// numbers print like the answerable question's and give nothing away.
/// Its decimals are capped as the executor caps them.
fn format_of(panel: &PanelSpec, series: &str) -> NumberFormat {
    panel
        .table
        .series(series)
        .or_else(|| panel.series.first().and_then(|s| panel.table.series(s)))
        .map(|c| {
            let mut f = c.format.clone();
            f.decimals = shown_decimals(f.decimals, c.values().into_iter().flatten());
            f
        })
        .unwrap_or_default()
}

/// The template key of a base query and its slots. Returns None for wrappers.
pub fn base_slots(query: &Query, spec: &ChartSpec) -> Option<(String, Slots)> {
    let panels = spec.panels();
    let panel = panels
        .get(query.panel())
        .copied()
        .or(panels.first().copied())?;
    let (cat_noun, cat_nouns) = category_nouns(panel);
    let mut s = Slots::new();
    s.insert("cat_noun".into(), cat_noun);
    s.insert("cat_nouns".into(), cat_nouns);
    let mut put = |k: &str, v: &str| {
        s.insert(k.into(), v.into());
    };
    let key: String = match query {
        Query::ValueAt {
            series, category, ..
        } => {
            put("series", series);
            put("category", category);
            "value_at".into()
        }
        Query::Argmax { series, .. }
        | Query::Argmin { series, .. }
        | Query::MaxValue { series, .. }
        | Query::MinValue { series, .. } => {
            let fam = crate::query::family(query);
            match series {
                Some(x) => {
                    put("series", x);
                    fam.into()
                }
                None => format!("{fam}_all"),
            }
        }
        Query::Difference { a, b, .. }
        | Query::Ratio { a, b, .. }
        | Query::Compare { a, b, .. } => {
            let fam = crate::query::family(query);
            put("a_series", &a.series);
            put("b_series", &b.series);
            put("a_cat", &a.category);
            put("b_cat", &b.category);
            if a.series == b.series {
                put("series", &a.series);
                format!("{fam}_categories")
            } else if a.category == b.category {
                put("category", &a.category);
                format!("{fam}_series")
            } else {
                format!("{fam}_cells")
            }
        }
        Query::PercentChange {
            series, from, to, ..
        } => {
            put("series", series);
            put("from", from);
            put("to", to);
            "percent_change".into()
        }
        Query::Aggregate {
            agg,
            series,
            categories,
            ..
        } => {
            put("series", series);
            let scope = if categories.is_empty() {
                String::new()
            } else {
                format!(" for {}", join_and(categories))
            };
            put("scope", &scope);
            put("cats", &join_and(categories));
            match agg {
                AggregateOp::Sum => "sum",
                AggregateOp::Mean => "mean",
                AggregateOp::Median => "median",
            }
            .into()
        }
        Query::CountThreshold {
            series, threshold, ..
        } => {
            put("series", series);
            let f = format_of(panel, series);
            let decimals = decimals_of(*threshold).max(f.decimals);
            put("threshold", &display_number(*threshold, decimals, &f));
            crate::query::family(query).into()
        }
        Query::Rank {
            series, category, ..
        } => {
            put("series", series);
            put("category", category);
            "rank".into()
        }
        Query::Trend { series, .. }
        | Query::LargestChange { series, .. }
        | Query::Spread { series, .. } => {
            put("series", series);
            crate::query::family(query).into()
        }
        Query::TopMean { series, k, .. } => {
            put("series", series);
            put("k", &k.to_string());
            "top_mean".into()
        }
        Query::MaxGap { a, b, .. } | Query::Crosses { a, b, .. } => {
            put("series_a", a);
            put("series_b", b);
            crate::query::family(query).into()
        }
        Query::Share {
            series, category, ..
        } => {
            put("series", series);
            put("category", category);
            "share".into()
        }
        Query::ShareSum {
            series, categories, ..
        } => {
            put("series", series);
            put("cats", &join_and(categories));
            "share_sum".into()
        }
        Query::ParagraphValue {
            series, category, ..
        } => {
            put("series", series);
            put("pcat", category);
            "paragraph_value".into()
        }
        Query::ParagraphDifference {
            series,
            paragraph_category,
            category,
            ..
        } => {
            put("series", series);
            put("pcat", paragraph_category);
            put("category", category);
            "paragraph_difference".into()
        }
        Query::KpiValue { label } => {
            put("kpi", label);
            "kpi_value".into()
        }
        Query::MultipleChoice { .. }
        | Query::FactCheck { .. }
        | Query::Hypothetical { .. }
        | Query::Conversation { .. } => return None,
        other => crate::query::family(other).into(),
    };
    Some((key, s))
}

/// Decimals needed to print `v` exactly (up to 6).
pub fn decimals_of(v: f64) -> u8 {
    (0..=6u8)
        .find(|d| {
            let scaled = v * 10f64.powi(i32::from(*d));
            (scaled - scaled.round()).abs() < 1e-6
        })
        .unwrap_or(6)
}

/// Decimals the question must ask for, when the family computes a new number.
pub fn asked_decimals(query: &Query) -> Option<u8> {
    match query {
        Query::Ratio { decimals, .. }
        | Query::PercentChange { decimals, .. }
        | Query::Share { decimals, .. }
        | Query::ShareSum { decimals, .. }
        | Query::TopMean { decimals, .. } => Some(*decimals),
        Query::Aggregate { decimals, .. } => *decimals,
        _ => None,
    }
}

/// Decimals a number about the query's (first) series prints with; a series
/// the chart does not show borrows the first drawn series' format.
pub fn series_decimals(query: &Query, spec: &ChartSpec) -> Option<u8> {
    let panels = spec.panels();
    let panel = panels.get(query.panel())?;
    let series = match query {
        Query::ValueAt { series, .. }
        | Query::Aggregate { series, .. }
        | Query::Spread { series, .. }
        | Query::MaxValue {
            series: Some(series),
            ..
        } => series.clone(),
        Query::Difference { a, .. } => a.series.clone(),
        _ => panel.series.first()?.clone(),
    };
    Some(format_of(panel, &series).decimals)
}

/// Families asked as yes/no questions (realized from clauses, not noun phrases).
pub fn is_yes_no_key(key: &str) -> bool {
    key.starts_with("compare") || key == "crosses" || key == "lines_intersect"
}

/// Fills `{slot}`s; None when a slot is unknown (a template/query mismatch).
pub fn fill(template: &str, slots: &Slots) -> Option<String> {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let end = after.find('}')?;
        let name = &after[..end];
        out.push_str(slots.get(name)?);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Some(out)
}

pub fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

pub fn decapitalize(s: &str) -> String {
    let mut c = s.chars();
    match (c.next(), s.chars().nth(1)) {
        // Keep acronyms and names like "GDP" as they are.
        (Some(f), Some(second)) if f.is_uppercase() && second.is_lowercase() => {
            f.to_lowercase().collect::<String>() + c.as_str()
        }
        _ => s.to_string(),
    }
}

/// Ordinal words for visual references.
pub fn ordinal(n: usize) -> String {
    const WORDS: [&str; 10] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth",
    ];
    WORDS
        .get(n.wrapping_sub(1))
        .map(|w| w.to_string())
        .unwrap_or_else(|| format!("{n}th"))
}
