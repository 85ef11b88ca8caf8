//! Visual references resolved through the Scene: by colour, by position, by
//! size, by panel. The visual realizer only uses a reference that resolves back
//! to exactly the entity it stands for.

use super::MIN_REL_GAP;
use crate::ir::query::Reference;
use crate::ir::{PanelScene, Scene};

/// The colour name of a series when it identifies the series uniquely in the panel.
pub fn series_color(panel: &PanelScene, series: &str) -> Option<String> {
    if panel.kind.is_circular() {
        return None;
    }
    let mut names: Vec<&str> = panel
        .marks
        .iter()
        .filter(|m| m.series == series)
        .map(|m| m.color.name.as_str())
        .collect();
    names.sort();
    names.dedup();
    let [name] = names.as_slice() else {
        return None;
    };
    let name = name.to_string();
    (resolve_color(panel, &name).as_deref() == Some(series)).then_some(name)
}

/// The series drawn in `color`, when exactly one is.
pub fn resolve_color(panel: &PanelScene, color: &str) -> Option<String> {
    let mut series: Vec<&str> = panel
        .marks
        .iter()
        .filter(|m| m.color.name.eq_ignore_ascii_case(color))
        .map(|m| m.series.as_str())
        .collect();
    series.sort();
    series.dedup();
    match series.as_slice() {
        [one] => Some(one.to_string()),
        _ => None,
    }
}

/// The category whose slice (pie/donut) is the only mark drawn in `color`.
pub fn category_by_color(panel: &PanelScene, color: &str) -> Option<String> {
    let mut cats: Vec<&str> = panel
        .marks
        .iter()
        .filter(|m| m.color.name.eq_ignore_ascii_case(color))
        .filter_map(|m| m.category.as_deref())
        .collect();
    cats.sort();
    cats.dedup();
    match cats.as_slice() {
        [one] => Some(one.to_string()),
        _ => None,
    }
}

/// The colour name of a category's slice when it identifies the slice uniquely.
pub fn category_color(panel: &PanelScene, category: &str) -> Option<String> {
    if !panel.kind.is_circular() {
        return None;
    }
    let mark = panel
        .marks
        .iter()
        .find(|m| m.category.as_deref() == Some(category))?;
    let name = mark.color.name.clone();
    (category_by_color(panel, &name).as_deref() == Some(category)).then_some(name)
}

/// Categories in reading order: left to right, or top to bottom for horizontal bars.
pub fn categories_in_order(panel: &PanelScene) -> Vec<String> {
    if panel.kind.is_circular() {
        return Vec::new();
    }
    let horizontal = panel.kind.is_horizontal();
    let mut seen: Vec<(f32, String)> = Vec::new();
    for m in &panel.marks {
        let Some(c) = &m.category else { continue };
        let (x, y) = m.bbox.center();
        let key = if horizontal { y } else { x };
        match seen.iter_mut().find(|s| &s.1 == c) {
            Some(s) => s.0 = s.0.min(key),
            None => seen.push((key, c.clone())),
        }
    }
    seen.sort_by(|a, b| a.0.total_cmp(&b.0));
    seen.into_iter().map(|s| s.1).collect()
}

/// Position of a category in reading order, counted from the nearer end.
pub fn category_position(panel: &PanelScene, category: &str) -> Option<(usize, bool)> {
    let order = categories_in_order(panel);
    let i = order.iter().position(|c| c == category)?;
    let from_end = order.len() - 1 - i;
    Some(if from_end < i {
        (from_end, true)
    } else {
        (i, false)
    })
}

/// The category of the single largest (or smallest) mark of a one-series panel.
pub fn extreme_category(panel: &PanelScene, largest: bool) -> Option<String> {
    let mut series: Vec<&str> = panel.marks.iter().map(|m| m.series.as_str()).collect();
    series.sort();
    series.dedup();
    if series.len() != 1 && !panel.kind.is_circular() {
        return None;
    }
    let mut marks: Vec<(f64, &str)> = panel
        .marks
        .iter()
        .filter_map(|m| m.category.as_deref().map(|c| (m.value, c)))
        .collect();
    marks.sort_by(|a, b| {
        let o = a.0.total_cmp(&b.0);
        if largest { o.reverse() } else { o }
    });
    let first = marks.first()?;
    if let Some(second) = marks.get(1) {
        let scale = first.0.abs().max(second.0.abs()).max(1e-12);
        if (first.0 - second.0).abs() < MIN_REL_GAP * scale {
            return None;
        }
    }
    Some(first.1.to_string())
}

/// The entity (series for colours, category otherwise) a reference stands for.
pub fn resolve(panel: &PanelScene, reference: &Reference) -> Option<String> {
    match reference {
        Reference::Name { name } => Some(name.clone()),
        Reference::Color { color } => resolve_color(panel, color),
        Reference::Position { position, from_end } => {
            let order = categories_in_order(panel);
            let i = if *from_end {
                order.len().checked_sub(1 + position)?
            } else {
                *position
            };
            order.get(i).cloned()
        }
        Reference::Extreme { largest } => extreme_category(panel, *largest),
    }
}

/// Index of the panel drawn at (row, col) of the grid.
pub fn panel_at(scene: &Scene, row: u32, col: u32) -> Option<usize> {
    let mut found = scene.panels.iter().filter(|p| p.row == row && p.col == col);
    let first = found.next()?;
    found.next().is_none().then_some(first.index)
}
