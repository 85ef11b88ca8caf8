//! Slots for distractor context with substance: another series, another
//! category, another cell's printed value all taken
//! from the chart's own table. Nothing here is one of the asked entities, and
//! no mentioned number equals the answer, so the context distracts without
//! changing or giving away the asked fact.

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::slots::{SERIES_KEYS, Slots, format_of};
use crate::ir::ChartSpec;
use crate::ir::query::Query;
use crate::query::display_number;

/// Context slots and the entity names they mention (recorded as transforms).
pub struct Context {
    pub slots: Slots,
    pub mentions: Vec<String>,
}

/// Which preface groups the context can fill, most specific first.
pub fn groups(ctx: &Context) -> Vec<&'static str> {
    let has = |k: &str| ctx.slots.contains_key(k);
    let mut g = vec!["plain"];
    if has("other_value") {
        g.push("value");
    }
    g
}

pub fn build(
    spec: &ChartSpec,
    query: &Query,
    asked: &Slots,
    answer_text: &str,
    rng: &mut Xoshiro256PlusPlus,
) -> Context {
    let mut ctx = Context {
        slots: Slots::new(),
        mentions: Vec::new(),
    };
    let panels = spec.panels();
    let Some(panel) = panels.get(query.panel()) else {
        return ctx;
    };
    let asked_text: Vec<&str> = asked.values().map(String::as_str).collect();
    let asked_series: Vec<&str> = SERIES_KEYS
        .iter()
        .filter_map(|k| asked.get(*k).map(String::as_str))
        .collect();
    // A label that occurs inside any asked slot (a list of categories, say)
    // counts as asked too.
    let is_asked = |name: &str| asked_text.iter().any(|v| v.contains(name)) || name.is_empty();
    // The asked series by its table name too: a question may call it by
    // the axis title the chart prints for it (`slots::shown_series`).
    let queried: Vec<String> = query
        .string_fields()
        .into_iter()
        .filter(|(key, _)| key.contains("series"))
        .map(|(_, v)| v)
        .collect();
    let others: Vec<&String> = panel
        .series
        .iter()
        .filter(|s| !is_asked(s) && !queried.contains(s) && panel.table.series(s).is_some())
        .collect();
    if others.is_empty() {
        return ctx;
    }
    let series = others[rng.random_range(0..others.len())].clone();
    ctx.slots.insert("other_series".into(), series.clone());
    ctx.mentions.push(format!("mentions:series:{series}"));
    // A chart-wide question ("the highest value shown") could be answered by
    // any cell: mention no numbers then.
    if asked_series.is_empty() {
        return ctx;
    }
    let labels = panel.table.category_labels();
    let Some(column) = panel.table.series(&series) else {
        return ctx;
    };
    let values = column.values();
    let format = format_of(panel, &series);
    let cells: Vec<(String, String)> = labels
        .iter()
        .zip(values)
        .filter(|(label, _)| !is_asked(label))
        .filter_map(|(label, v)| {
            let text = display_number(v?, format.decimals, &format);
            // Never print a number that reads like the answer.
            (!answer_text.contains(&text) && !text.contains(answer_text))
                .then(|| (label.clone(), text))
        })
        .collect();
    if cells.is_empty() {
        return ctx;
    }
    let (label, value) = cells[rng.random_range(0..cells.len())].clone();
    ctx.slots.insert("other_cat".into(), label.clone());
    ctx.slots.insert("other_value".into(), value);
    ctx.mentions.push(format!("mentions:category:{label}"));
    ctx
}
