//! Visual references for the visual realizer: series by colour,
//! categories by position, size or slice colour, panels by title. A
//! reference is used only when it resolves back, through the Scene, to exactly
//! the entity it replaces.
//!
//! All or nothing: an item whose entities cannot all be referred to visually
//! is declined. Were the referable ones replaced and the rest named, an
//! unanswerable item (whose absent entity has no mark) would stand out as the
//! only one naming a series in plain words.

use std::collections::BTreeMap;

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::bank::bank;
use super::slots::{SERIES_KEYS, Slots, fill, ordinal};
use crate::ir::query::{Query, Reference};
use crate::ir::{ChartKind, ChartSpec, MarkKind, PanelScene, Scene, Style};
use crate::query::reference::{
    categories_in_order, category_color, category_position, extreme_category, resolve, series_color,
};

/// Slots that hold one category label.
const CATEGORY_KEYS: [&str; 5] = ["category", "a_cat", "b_cat", "from", "to"];
/// Slots naming entities no mark can point at (lists, text-only categories).
const UNREFERABLE_KEYS: [&str; 3] = ["cats", "pcat", "scope"];

/// What the visual realizer can do with an item's entities.
pub enum Outcome {
    /// Every entity replaced; the map sends "series:{name}" / "category:{name}"
    /// to its reference.
    All(BTreeMap<String, String>),
    /// The item names no entity (a descriptive question).
    NoEntities,
    /// Some entity has no visual reference: decline the item.
    Cannot,
}

fn mark_nouns(kind: ChartKind) -> (&'static str, &'static str, &'static str, &'static str) {
    // (series noun, single mark noun, "big" word, "small" word)
    match kind {
        ChartKind::Line => ("line", "point", "highest", "lowest"),
        ChartKind::Area | ChartKind::StackedArea => ("area", "point", "highest", "lowest"),
        // Series nouns stay grammatically singular ("the blue bar is
        // lower than the orange bar in 2019"); people name what they see,
        // "the blue bar", where "the blue series" reads as jargon.
        ChartKind::Pie | ChartKind::Donut => ("series", "slice", "largest", "smallest"),
        ChartKind::HorizontalBar => ("bar", "bar", "longest", "shortest"),
        ChartKind::Heatmap => ("series", "cell", "highest", "lowest"),
        ChartKind::Lollipop => ("dot", "dot", "highest", "lowest"),
        // A bar left of zero is the smallest value however long it is.
        ChartKind::DivergingBar => ("bar", "bar", "rightmost", "leftmost"),
        ChartKind::Dumbbell => ("dot", "dot", "rightmost", "leftmost"),
        ChartKind::Slope => ("series", "point", "highest", "lowest"),
        ChartKind::Radar => ("polygon", "vertex", "furthest out", "closest to the centre"),
        _ => ("bar", "bar", "tallest", "shortest"),
    }
}

/// The template for `key`: one draw per question, so two entities referred
/// to the same way read alike ("the company shown in blue … the company
/// shown in brown", never "shown in" beside "drawn as").
fn pick(choice: u64, key: &str) -> Option<&'static str> {
    let items = bank("visual").refs.get(key)?.all();
    if items.is_empty() {
        return None;
    }
    Some(items[(choice % items.len() as u64) as usize])
}

/// "The blue bars": a series of bars or dots asked about as a whole is
/// named in the plural; one of its marks ("the blue bar in 2019") and a
/// line, area or polygon (one mark for the whole series) in the singular.
fn series_noun(kind: ChartKind, whole_series: bool) -> &'static str {
    match (mark_nouns(kind).0, whole_series) {
        ("bar", true) => "bars",
        ("dot", true) => "dots",
        (noun, _) => noun,
    }
}

/// The singular of a plural series reference, for a turn or a changed cell
/// that names one of its marks ("the blue bars" → "the blue bar").
pub fn one_mark_of(reference: &str) -> String {
    for (many, one) in [(" bars", " bar"), (" dots", " dot")] {
        if let Some(stem) = reference.strip_suffix(many) {
            return format!("{stem}{one}");
        }
    }
    reference.to_string()
}

fn series_ref(
    p: &PanelScene,
    name: &str,
    whole_series: bool,
    choice: u64,
) -> Option<(String, String)> {
    // No "the third series in the legend": where the legend prints the
    // name, people read the name, and only its colour is a visual cue.
    let color = series_color(p, name)?;
    let resolves = resolve(
        p,
        &Reference::Color {
            color: color.clone(),
        },
    );
    if resolves.as_deref() != Some(name) {
        return None;
    }
    let text = series_by_color(p.kind, &color, whole_series, choice)?;
    Some((text, format!("color:{color}")))
}

/// "The blue bars", "the blue line": a series named by its colour.
fn series_by_color(
    kind: ChartKind,
    color: &str,
    whole_series: bool,
    choice: u64,
) -> Option<String> {
    let mut s = Slots::new();
    s.insert("color".into(), color.into());
    s.insert("mark".into(), series_noun(kind, whole_series).into());
    fill(pick(choice, "series")?, &s)
}

/// Whether "the third bar from the left" counts the same whether a reader
/// counts marks or labels: every category label on the axis has a mark, and
/// every bar is big enough to see (a bar of zero height is a label with
/// nothing above it).
fn positions_countable(p: &PanelScene, order: &[String]) -> bool {
    let ticks = if p.kind.is_horizontal() {
        &p.y_ticks
    } else {
        &p.x_ticks
    };
    let labelled = ticks.iter().all(|t| {
        let name = t.category.as_deref().unwrap_or(t.label.as_str());
        order.iter().any(|c| c == name)
    });
    let visible = p
        .marks
        .iter()
        .filter(|m| m.kind == MarkKind::Bar)
        .all(|m| m.bbox.w >= 1.0 && m.bbox.h >= 1.0);
    labelled && visible
}

fn category_ref(
    p: &PanelScene,
    category: &str,
    slots: &Slots,
    size_refs: bool,
    position_refs: bool,
    choice: u64,
) -> Option<(String, String)> {
    let (_, one, big, small) = mark_nouns(p.kind);
    let mut s = slots.clone();
    s.insert("mark_one".into(), one.into());
    s.insert("big".into(), big.into());
    s.insert("small".into(), small.into());
    for largest in [true, false] {
        if size_refs
            && extreme_category(p, largest).as_deref() == Some(category)
            && resolve(p, &Reference::Extreme { largest }).as_deref() == Some(category)
        {
            let key = if largest {
                "category_largest"
            } else {
                "category_smallest"
            };
            return Some((fill(pick(choice, key)?, &s)?, format!("extreme:{largest}")));
        }
    }
    if let Some(color) = category_color(p, category) {
        s.insert("color".into(), color.clone());
        return Some((
            fill(pick(choice, "category_color")?, &s)?,
            format!("slice:{color}"),
        ));
    }
    // A slope chart's or radar's categories are not laid out in a row; a
    // rank is not asked by position, which tells it on a sorted chart ("the
    // rank of the leftmost bar").
    let order = categories_in_order(p);
    if !position_refs
        || order.len() > 10
        || matches!(p.kind, ChartKind::Slope | ChartKind::Radar)
        || !positions_countable(p, &order)
    {
        return None;
    }
    let (position, from_end) = category_position(p, category)?;
    if resolve(p, &Reference::Position { position, from_end }).as_deref() != Some(category) {
        return None;
    }
    let horizontal = p.kind.is_horizontal();
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
        fill(pick(choice, key)?, &s)?,
        format!("position:{position}:{from_end}"),
    ))
}

/// An entity of an unanswerable question that the panel does not draw
/// ("the purple bars", "the country shown by the teal slice"), named by a
/// colour no mark has, as its answerable twin names a drawn one by colour.
fn absent_ref(
    p: &PanelScene,
    style: &Style,
    name: &str,
    is_series: bool,
    whole_series: bool,
    slots: &Slots,
    choice: u64,
) -> Option<(String, String)> {
    let circular = p.kind.is_circular();
    // Only where the drawn entities of that kind are named by colour too.
    if is_series == circular {
        return None;
    }
    // One colour per absent entity, however often (in however many turns) it is named.
    let mut by_name = crate::seed::rng(0, &["undrawn", name]);
    let color = super::undrawn::undrawn_color(p, style, &mut by_name)?;
    let text = if is_series {
        series_by_color(p.kind, &color, whole_series, choice)?
    } else {
        let mut s = slots.clone();
        s.insert("color".into(), color.clone());
        s.insert("mark_one".into(), mark_nouns(p.kind).1.into());
        fill(pick(choice, "category_color")?, &s)?
    };
    Some((text, format!("absent_color:{color}")))
}

/// Whether anything on the panel carries `name` (a mark, a legend entry).
fn shown(p: &PanelScene, name: &str) -> bool {
    p.legend
        .iter()
        .any(|l| l.label == name || l.category.as_deref() == Some(name))
        || p.marks
            .iter()
            .any(|m| m.series == name || m.category.as_deref() == Some(name))
}

/// Replaces every entity slot by a visual reference, or none of them.
/// `names` holds the entities as the question says them; each is looked up
/// in the table by that name. Transforms record each reference as
/// `{slot}:{kind}:{params}` so tests can resolve it through the Scene.
pub fn substitute(
    slots: &mut Slots,
    names: &Slots,
    query: &Query,
    scene: &Scene,
    spec: &ChartSpec,
    rng: &mut Xoshiro256PlusPlus,
    transforms: &mut Vec<String>,
) -> Outcome {
    let Some(p) = scene.panels.iter().find(|p| p.index == query.panel()) else {
        return Outcome::Cannot;
    };
    let panels = spec.panels();
    let Some(panel_spec) = panels.get(query.panel()).copied() else {
        return Outcome::Cannot;
    };
    if UNREFERABLE_KEYS
        .iter()
        .any(|k| slots.get(*k).is_some_and(|v| !v.is_empty()))
    {
        return Outcome::Cannot;
    }
    // Names come from the query itself (slot values may already be wrapped).
    let series_keys: Vec<&str> = SERIES_KEYS
        .into_iter()
        .filter(|k| slots.contains_key(*k))
        .collect();
    let category_keys: Vec<&str> = CATEGORY_KEYS
        .into_iter()
        .filter(|k| slots.contains_key(*k))
        .collect();
    if series_keys.is_empty() && category_keys.is_empty() {
        return Outcome::NoEntities;
    }
    // A heatmap's series and categories have no colour or mark of their
    // own to point at: only their printed names tell them apart.
    // Nor do a waterfall's: its colours tell rises from falls, not series,
    // and "the third bar" of a bridge is better named by its step.
    if matches!(
        p.kind,
        ChartKind::Heatmap | ChartKind::Waterfall | ChartKind::ErrorBar
    ) {
        return Outcome::Cannot;
    }
    // "The shortest bar" says where a category ranks: a question about its
    // rank or about which of two is higher would be answered by the name.
    let size_refs = !matches!(query.base(), Query::Rank { .. } | Query::Compare { .. });
    let position_refs = !matches!(query.base(), Query::Rank { .. });
    let mut refs: BTreeMap<String, (String, String)> = BTreeMap::new();
    let mut done: Vec<String> = Vec::new();
    // Of a chart with one series of bars, dots or slices nobody says "the
    // blue bars": there is nothing to tell them from ("the blue line" still
    // reads). The series keeps its name ("the revenue for the third company
    // from the left"); only its categories are pointed at.
    let one_series = {
        let mut drawn: Vec<&str> = p.marks.iter().map(|m| m.series.as_str()).collect();
        drawn.sort_unstable();
        drawn.dedup();
        drawn.len() < 2 && !matches!(mark_nouns(p.kind).0, "line" | "area" | "polygon")
    };
    let choice: u64 = rng.random();
    if one_series && category_keys.is_empty() {
        return Outcome::Cannot;
    }
    // The series asked about as a whole, or across several of its marks
    // ("the difference between 2019 and 2020 for the blue bars", "2019
    // ranks 2nd for the blue bars"); a comparison keeps its one mark per
    // category ("is the blue bar higher in 2019 than in 2020?").
    let named_categories: std::collections::BTreeSet<&String> =
        category_keys.iter().filter_map(|k| names.get(*k)).collect();
    let whole_series = match query.base() {
        Query::Rank { .. } => true,
        Query::Compare { .. } => false,
        _ => named_categories.len() != 1,
    };
    // "The blue bars is rising" — a trend's clause takes one subject.
    if whole_series
        && matches!(query.base(), Query::Trend { .. })
        && series_noun(p.kind, true) != mark_nouns(p.kind).0
    {
        return Outcome::Cannot;
    }
    for key in series_keys.iter().chain(&category_keys) {
        let Some(name) = names.get(*key) else {
            return Outcome::Cannot;
        };
        let is_series = series_keys.contains(key);
        if is_series && one_series {
            continue;
        }
        let map_key = format!("{}:{name}", if is_series { "series" } else { "category" });
        // One entity in two slots keeps one reference ("the blue line … the blue line").
        let (text, how) = match refs.get(&map_key) {
            Some(found) => found.clone(),
            None => {
                let in_table = if is_series {
                    super::slots::series_named(panel_spec, spec, name)
                } else {
                    super::slots::category_named(panel_spec, name)
                };
                let found = match in_table {
                    Some(drawn) if is_series => series_ref(p, &drawn, whole_series, choice),
                    Some(drawn) => category_ref(p, &drawn, slots, size_refs, position_refs, choice),
                    None if shown(p, name) => None,
                    None => absent_ref(
                        p,
                        &panel_spec.style,
                        name,
                        is_series,
                        whole_series,
                        slots,
                        choice,
                    ),
                };
                let Some(found) = found else {
                    return Outcome::Cannot;
                };
                refs.insert(map_key, found.clone());
                found
            }
        };
        slots.insert((*key).into(), text);
        done.push(format!("{key}:{how}"));
    }
    transforms.extend(done);
    // "The GDP for the blue bars": the derived phrases and the verbs take
    // the references ("Is the blue bar higher …", "Are the blue bars …").
    super::cell::phrase_referred(slots);
    super::slots::agree_with_series(slots);
    Outcome::All(refs.into_iter().map(|(k, v)| (k, v.0)).collect())
}

#[cfg(test)]
mod plural_tests {
    use super::*;

    #[test]
    fn a_series_of_bars_is_named_in_the_plural_when_asked_as_a_whole() {
        assert_eq!(series_noun(ChartKind::Bar, true), "bars");
        assert_eq!(series_noun(ChartKind::GroupedBar, false), "bar");
        assert_eq!(series_noun(ChartKind::Lollipop, true), "dots");
        // One line is the whole series.
        assert_eq!(series_noun(ChartKind::Line, true), "line");
        assert_eq!(one_mark_of("the blue bars"), "the blue bar");
        assert_eq!(one_mark_of("the red dots"), "the red dot");
        assert_eq!(one_mark_of("the blue line"), "the blue line");
    }
}
