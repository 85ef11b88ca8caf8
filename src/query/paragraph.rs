//! Paragraph families: facts stated only in the accompanying text, alone or
//! combined with the chart. A fact is read only when exactly one number in a
//! sentence stands with both the series and the category; otherwise refused.

use std::sync::OnceLock;

use regex::Regex;

use super::data::{decimal_number, number, table_value, unit_of};
use super::{Ctx, Refusal, RefusalKind};
use crate::ir::decimal::Decimal;
use crate::ir::query::Query;
use crate::ir::{Answer, ChartSpec, Layout};

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("valid regex"))
}

fn sentence_end() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    // A full stop inside a number ("12.5") is not followed by a space.
    re(&RE, r"[.!?](?:\s+|$)")
}

fn number_token() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(&RE, r"-?[$€£]?\d[\d,]*(?:\.\d+)?")
}

fn name_token() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(
        &RE,
        r"\b(?:1[89]\d\d|20\d\d)\b|\b[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*",
    )
}

/// The paragraph shown with a panel (its table's, or the dashboard's).
pub fn paragraph_of(spec: &ChartSpec, panel: usize) -> Option<String> {
    spec.panels()
        .get(panel)
        .and_then(|p| p.table.meta.paragraph.clone())
        .or_else(|| match &spec.layout {
            Layout::Dashboard { paragraph, .. } => paragraph.clone(),
            _ => None,
        })
        .filter(|p| !p.trim().is_empty())
}

fn sentences(text: &str) -> Vec<&str> {
    sentence_end()
        .split(text)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

fn contains_word(haystack: &str, needle: &str) -> bool {
    let h = haystack.to_lowercase();
    let n = needle.trim().to_lowercase();
    if n.is_empty() {
        return false;
    }
    h.match_indices(&n).any(|(i, _)| {
        let before = h[..i].chars().next_back();
        let after = h[i + n.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

fn is_year(token: &str) -> bool {
    token.len() == 4
        && token
            .parse::<i32>()
            .is_ok_and(|y| (1800..=2100).contains(&y))
}

/// The one number stated for `series` at `category`, with its printed decimals.
fn stated(paragraph: &str, series: &str, category: &str) -> Result<(f64, u8), Refusal> {
    let mut found: Vec<(f64, u8)> = Vec::new();
    for s in sentences(paragraph) {
        if !contains_word(s, series) || !contains_word(s, category) {
            continue;
        }
        for m in number_token().find_iter(s) {
            let t = m.as_str();
            if is_year(t) || category.contains(t) || series.contains(t) {
                continue;
            }
            if let Some(v) = super::parse_number(t) {
                found.push((v, super::descriptive::label_decimals(t)));
            }
        }
    }
    match found.as_slice() {
        [one] => Ok(*one),
        [] => Err(Refusal::new(
            RefusalKind::Unsupported,
            "the text states no value for it",
        )),
        _ => Err(Refusal::new(
            RefusalKind::Unsupported,
            "the text states more than one value for it",
        )),
    }
}

pub(crate) fn execute(query: &Query, ctx: &Ctx, spec: &ChartSpec) -> Result<Answer, Refusal> {
    let panel = query.panel();
    let Some(paragraph) = paragraph_of(spec, panel) else {
        return Ok(Answer::Unanswerable);
    };
    let (series, pcat) = match query {
        Query::ParagraphValue {
            series, category, ..
        } => (series, category),
        Query::ParagraphDifference {
            series,
            paragraph_category,
            ..
        } => (series, paragraph_category),
        _ => {
            return Err(Refusal::new(
                RefusalKind::Unsupported,
                "not a paragraph query",
            ));
        }
    };
    let Some(column) = ctx.data.series(series) else {
        return Ok(Answer::Unanswerable);
    };
    // Paragraph-only: the chart must not show this category itself.
    if ctx.data.row(pcat).is_some() {
        return Err(Refusal::new(
            RefusalKind::Unsupported,
            "the chart shows this category itself",
        ));
    }
    let format = column.format.clone();
    let (value, decimals) = match stated(&paragraph, series, pcat) {
        Ok(v) => v,
        Err(_) if matches!(query, Query::ParagraphValue { .. }) => return Ok(Answer::Unanswerable),
        Err(r) => return Err(r),
    };
    match query {
        Query::ParagraphDifference { category, .. } => {
            let Some(shown) = table_value(ctx, series, category)? else {
                return Ok(Answer::Unanswerable);
            };
            if value < shown {
                return Err(Refusal::new(
                    RefusalKind::Unsupported,
                    "differences are asked larger minus smaller",
                ));
            }
            // `format` carries the capped decimals of the series.
            let decimals = decimals.max(format.decimals);
            let decimals =
                crate::ir::decimal::capped_decimals(decimals, value.abs().max(shown.abs()));
            decimal_number(
                Decimal::from_f64(value).minus(Decimal::from_f64(shown)),
                decimals,
                unit_of(&format),
            )
        }
        _ => number(value, decimals, unit_of(&format)),
    }
}

/// Paragraph queries about a panel that the executor answers, for generation.
pub fn paragraph_queries(spec: &ChartSpec, panel: usize) -> Vec<Query> {
    let Some(paragraph) = paragraph_of(spec, panel) else {
        return Vec::new();
    };
    let panels = spec.panels();
    let Some(p) = panels.get(panel) else {
        return Vec::new();
    };
    let categories = p.table.category_labels();
    let years = p.table.index.ctype == crate::ir::ColumnType::Year;
    if !years && p.table.index.ctype != crate::ir::ColumnType::Text {
        return Vec::new();
    }
    use crate::spec::dates::MONTH_FULL as MONTHS;
    let mut out = Vec::new();
    for series in &p.series {
        for s in sentences(&paragraph) {
            // A sentence about a category the chart shows is not paragraph-only.
            if !contains_word(s, series) || categories.iter().any(|c| contains_word(s, c)) {
                continue;
            }
            for m in name_token().find_iter(s) {
                let name = m.as_str().trim();
                let before = s[..m.start()].trim_end();
                let after_number = before
                    .rsplit(' ')
                    .next()
                    .is_some_and(|w| w.chars().any(|c| c.is_ascii_digit()));
                let same_kind = if years {
                    is_year(name)
                } else {
                    !is_year(name)
                        && m.start() > 0
                        && !after_number
                        && !MONTHS.contains(&name)
                        && name.chars().skip(1).any(char::is_lowercase)
                };
                if !same_kind || contains_word(series, name) {
                    continue;
                }
                out.push(Query::ParagraphValue {
                    panel,
                    series: series.clone(),
                    category: name.to_string(),
                });
                for c in categories.iter().take(3) {
                    out.push(Query::ParagraphDifference {
                        panel,
                        series: series.clone(),
                        paragraph_category: name.to_string(),
                        category: c.clone(),
                    });
                }
            }
        }
    }
    out
}
