//! Lettered multi-panel figures as papers print them: small multiples of one
//! table, one panel per series, all panels in one kind on one shared value
//! range, lettered "(a)", "(b)", … under a figure title.

use super::{SpecError, is_commensurable, numeric_series, panel, smaller_titles, validate_style};
use crate::ir::{ChartKind, ChartSpec, Layout, PanelSpec, Style, Table};

/// Most panels a figure holds (a 2×3 grid).
pub const MAX_PANELS: usize = 6;

/// The kind each panel of a figure is drawn in when the table's chart is
/// drawn as `kind`: one series per panel, so grouped and stacked bars become
/// bars and a stacked area an area. `None`: the kind has no small multiples
/// here (pies, scatters, heatmaps, percent stacks drawing shares).
pub fn panel_kind(kind: ChartKind) -> Option<ChartKind> {
    match kind {
        ChartKind::GroupedBar | ChartKind::StackedBar | ChartKind::Bar => Some(ChartKind::Bar),
        ChartKind::Line => Some(ChartKind::Line),
        ChartKind::Area | ChartKind::StackedArea => Some(ChartKind::Area),
        ChartKind::Lollipop => Some(ChartKind::Lollipop),
        _ => None,
    }
}

/// Rows and columns for `n` panels: one row up to three, then two rows.
pub fn grid_of(n: usize) -> (u32, u32) {
    match n {
        0..=3 => (1, n.max(1) as u32),
        4 => (2, 2),
        _ => (2, 3),
    }
}

/// The table one panel draws: `series` alone, titled by its name. The
/// subtitle and note belong to the figure, not to each panel.
fn series_table(table: &Table, series: &str) -> Option<Table> {
    let col = table.series(series)?.clone();
    let mut t = table.clone();
    t.id = format!("{}__{}", table.id, super::slug(series));
    t.meta.title = Some(series.to_string());
    t.meta.subtitle = None;
    t.meta.footnote = None;
    if t.meta.y_label.is_none() {
        t.meta.y_label = table.meta.unit.clone();
    }
    t.series = vec![col];
    Some(t)
}

/// A figure of `series` of `table` (2..=[`MAX_PANELS`] like series), each in
/// its own panel of kind `panel_kind(kind)`, under `title`.
pub fn small_multiples(
    table: &Table,
    kind: ChartKind,
    series: &[String],
    style: &Style,
    title: Option<String>,
) -> Result<ChartSpec, SpecError> {
    validate_style(style)?;
    let unsuitable = |reason: String| SpecError::Unsuitable {
        table: table.id.clone(),
        kind: kind.name(),
        reason,
    };
    let Some(each) = panel_kind(kind) else {
        return Err(unsuitable("no small multiples of this kind".into()));
    };
    if !(2..=MAX_PANELS).contains(&series.len()) {
        return Err(unsuitable(format!(
            "a figure draws 2..={MAX_PANELS} series, got {}",
            series.len()
        )));
    }
    let names: Vec<&str> = series.iter().map(String::as_str).collect();
    let numeric = numeric_series(table);
    if names.iter().any(|s| !numeric.contains(s)) {
        return Err(unsuitable("a series is not numeric".into()));
    }
    // One shared value range only means something for like series.
    if !is_commensurable(table, &names) {
        return Err(unsuitable("the series do not share a unit".into()));
    }
    let small = smaller_titles(style);
    let panels: Vec<PanelSpec> = names
        .iter()
        .map(|s| {
            let t = series_table(table, s).ok_or_else(|| unsuitable(format!("no series {s:?}")))?;
            panel(&t, each, &small)
        })
        .collect::<Result<_, _>>()?;
    let furniture = FigureText {
        title,
        subtitle: table.meta.subtitle.clone(),
        note: table.meta.footnote.clone(),
    };
    Ok(lettered(panels, furniture, style, true))
}

/// The text a figure prints around its panels.
pub(super) struct FigureText {
    pub title: Option<String>,
    pub subtitle: Option<String>,
    pub note: Option<String>,
}

/// A lettered figure of `panels` on the grid [`grid_of`] gives, each panel
/// 460×400 px, with room for the title when there is one.
pub(super) fn lettered(
    panels: Vec<PanelSpec>,
    text: FigureText,
    style: &Style,
    shared_values: bool,
) -> ChartSpec {
    let printed = |t: Option<String>| t.filter(|t| !t.trim().is_empty());
    let (rows, cols) = grid_of(panels.len());
    let title = printed(text.title);
    let title_h = if title.is_some() { 50 } else { 0 };
    ChartSpec {
        source_line: None,
        width: (cols * 460).max(900),
        height: (rows * 400 + title_h).max(540),
        title,
        style: style.clone(),
        layout: Layout::Figure {
            rows,
            cols,
            panels,
            subtitle: printed(text.subtitle),
            note: printed(text.note),
            shared_values,
        },
    }
}
