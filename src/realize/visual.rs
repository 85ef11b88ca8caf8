//! Visual references for the visual realizer: series by colour, categories by
//! position or size. A reference is used only when it resolves back, through
//! the Scene, to exactly the entity it replaces.

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::bank::bank;
use super::slots::{Slots, fill, ordinal};
use crate::ir::query::{Query, Reference};
use crate::ir::{ChartKind, ChartSpec, PanelScene, Scene};
use crate::query::reference::{
    categories_in_order, category_color, category_position, extreme_category, resolve, series_color,
};

fn mark_nouns(kind: ChartKind) -> (&'static str, &'static str, &'static str, &'static str) {
    // (series noun, single mark noun, "big" word, "small" word)
    match kind {
        ChartKind::Line => ("line", "point", "highest", "lowest"),
        ChartKind::Area | ChartKind::StackedArea => ("area", "point", "highest", "lowest"),
        // Series nouns stay grammatically singular ("the blue bar series is lowest").
        ChartKind::Pie | ChartKind::Donut => ("slice series", "slice", "largest", "smallest"),
        ChartKind::HorizontalBar => ("bar series", "bar", "longest", "shortest"),
        _ => ("bar series", "bar", "tallest", "shortest"),
    }
}

fn pick(rng: &mut Xoshiro256PlusPlus, key: &str) -> Option<&'static str> {
    let items = bank("visual").refs.get(key)?.all();
    if items.is_empty() {
        return None;
    }
    Some(items[rng.random_range(0..items.len())])
}

fn category_ref(
    p: &PanelScene,
    category: &str,
    slots: &Slots,
    rng: &mut Xoshiro256PlusPlus,
) -> Option<(String, String)> {
    let (_, one, big, small) = mark_nouns(p.kind);
    let mut s = slots.clone();
    s.insert("mark_one".into(), one.into());
    s.insert("big".into(), big.into());
    s.insert("small".into(), small.into());
    for largest in [true, false] {
        if extreme_category(p, largest).as_deref() == Some(category)
            && resolve(p, &Reference::Extreme { largest }).as_deref() == Some(category)
        {
            let key = if largest {
                "category_largest"
            } else {
                "category_smallest"
            };
            return Some((fill(pick(rng, key)?, &s)?, format!("category:{key}")));
        }
    }
    if let Some(color) = category_color(p, category) {
        s.insert("color".into(), color.clone());
        return Some((
            fill(pick(rng, "category_color")?, &s)?,
            format!("category:color:{color}"),
        ));
    }
    if categories_in_order(p).len() > 10 {
        return None;
    }
    let (position, from_end) = category_position(p, category)?;
    if resolve(p, &Reference::Position { position, from_end }).as_deref() != Some(category) {
        return None;
    }
    let horizontal = p.kind == ChartKind::HorizontalBar;
    let key = match (horizontal, from_end, position) {
        (false, false, 0) => "category_first",
        (false, true, 0) => "category_last",
        (false, false, _) => "category_from_left",
        (false, true, _) => "category_from_right",
        (true, false, _) => "category_top",
        (true, true, _) => "category_bottom",
    };
    s.insert("ordinal".into(), ordinal(position + 1));
    s.insert("position".into(), (position + 1).to_string());
    Some((
        fill(pick(rng, key)?, &s)?,
        format!("category:position{}", position + 1),
    ))
}

/// Replaces entity slots by visual references; true when anything was replaced.
pub fn substitute(
    slots: &mut Slots,
    query: &Query,
    _spec: &ChartSpec,
    scene: &Scene,
    rng: &mut Xoshiro256PlusPlus,
    transforms: &mut Vec<String>,
) -> bool {
    let Some(p) = scene.panels.iter().find(|p| p.index == query.panel()) else {
        return false;
    };
    let (series_noun, ..) = mark_nouns(p.kind);
    let mut replaced = false;
    for key in ["series", "a_series", "b_series", "series_a", "series_b"] {
        let Some(name) = slots.get(key).cloned() else {
            continue;
        };
        let Some(color) = series_color(p, &name) else {
            continue;
        };
        if resolve(
            p,
            &Reference::Color {
                color: color.clone(),
            },
        )
        .as_deref()
            != Some(name.as_str())
        {
            continue;
        }
        let mut s = Slots::new();
        s.insert("color".into(), color.clone());
        s.insert("mark".into(), series_noun.into());
        let Some(t) = pick(rng, "series").and_then(|t| fill(t, &s)) else {
            continue;
        };
        slots.insert(key.into(), t);
        transforms.push(format!("{key}:color:{color}"));
        replaced = true;
    }
    let candidates: Vec<&str> = ["category", "a_cat", "b_cat", "from", "to"]
        .into_iter()
        .filter(|k| slots.contains_key(*k))
        .collect();
    if !candidates.is_empty() && (!replaced || rng.random_bool(0.5)) {
        let key = candidates[rng.random_range(0..candidates.len())];
        let name = slots[key].clone();
        // Two slots naming the same category must stay consistent: only replace unique ones.
        let shared = candidates
            .iter()
            .filter(|k| **k != key && slots[**k] == name)
            .count()
            > 0;
        if !shared && let Some((text, transform)) = category_ref(p, &name, slots, rng) {
            slots.insert(key.into(), text);
            transforms.push(format!("{key}:{transform}"));
            replaced = true;
        }
    }
    replaced
}
