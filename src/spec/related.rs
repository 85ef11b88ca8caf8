//! Lettered figures of related tables, as papers print them: tables on the
//! same categories (the same months, the same species) drawn side by side,
//! one panel per table, on a shared category axis, lettered "(a)", "(b)", …
//! under one figure title. Panels in one unit also share their value range;
//! panels in different units (temperature beside precipitation) keep their
//! own value axes.

use std::collections::HashMap;

use super::multiples::{FigureText, MAX_PANELS, lettered};
use super::{
    SpecError, is_commensurable, is_ordered_index, numeric_series, panel, smaller_titles,
    suitable_kinds, validate_style,
};
use crate::ir::{ChartKind, ChartSpec, PanelSpec, Style, Table};

/// Most panels one figure of related tables holds: larger groups are split
/// into figures of as equal a size as possible.
pub const MAX_RELATED: usize = 4;

/// Most series a panel draws (its legend must fit a 460 px panel).
const MAX_SERIES: usize = 4;

/// Most categories a bar panel draws; line panels take any length.
const MAX_BAR_CATEGORIES: usize = 12;

/// The kind a table is drawn in as a panel of a figure of related tables:
/// lines over an ordered index (months, years), bars otherwise (grouped
/// for like series). None when the table does not suit a panel.
pub fn panel_kind(table: &Table) -> Option<ChartKind> {
    let series = numeric_series(table);
    if series.is_empty() || series.len() > MAX_SERIES || table.n_rows() < 2 {
        return None;
    }
    let kind = if is_ordered_index(table) {
        ChartKind::Line
    } else if table.n_rows() > MAX_BAR_CATEGORIES {
        return None;
    } else if series.len() == 1 {
        ChartKind::Bar
    } else if is_commensurable(table, &series) {
        ChartKind::GroupedBar
    } else {
        return None;
    };
    suitable_kinds(table).contains(&kind).then_some(kind)
}

/// What makes tables related: the same index column name and the same
/// index labels in the same order.
type RelationKey = (String, Vec<String>);

/// The table's [`RelationKey`]: its index column's name, trimmed and
/// lower-cased, and its index labels as printed.
fn relation_key(table: &Table) -> RelationKey {
    (
        table.index.name.trim().to_lowercase(),
        table.category_labels(),
    )
}

/// Groups of related tables among `tables` (indices into it, in the order
/// given): tables that share their index and suit a panel, in figures of
/// 2..=[`MAX_RELATED`] panels. A table with no relative is in no group.
pub fn groups(tables: &[Table]) -> Vec<Vec<usize>> {
    // Groups in the order of their first tables; the map finds a table's
    // group in constant time, so a corpus of thousands of tables stays fast.
    let mut slot_of: HashMap<RelationKey, usize> = HashMap::new();
    let mut members: Vec<Vec<usize>> = Vec::new();
    for (i, t) in tables.iter().enumerate() {
        if panel_kind(t).is_none() {
            continue;
        }
        let slot = *slot_of.entry(relation_key(t)).or_insert_with(|| {
            members.push(Vec::new());
            members.len() - 1
        });
        members[slot].push(i);
    }
    members
        .into_iter()
        .filter(|m| m.len() >= 2)
        .flat_map(|m| split_evenly(&m, MAX_RELATED))
        .collect()
}

/// `members` cut into the fewest runs of at most `max`, their sizes
/// differing by at most one (5 → 3 + 2, never 4 + 1).
fn split_evenly(members: &[usize], max: usize) -> Vec<Vec<usize>> {
    let n = members.len();
    let parts = n.div_ceil(max.max(1));
    let (base, extra) = (n / parts, n % parts);
    let mut out = Vec::with_capacity(parts);
    let mut start = 0;
    for p in 0..parts {
        let len = base + usize::from(p < extra);
        out.push(members[start..start + len].to_vec());
        start += len;
    }
    out
}

/// Whether the panels' values are alike enough to share one value range:
/// one stated unit and magnitudes within a factor of 100.
fn share_values(tables: &[&Table]) -> bool {
    let unit = |t: &Table| {
        t.meta
            .unit
            .as_deref()
            .map(|u| u.trim().to_lowercase())
            .filter(|u| !u.is_empty())
    };
    let Some(first) = unit(tables[0]) else {
        return false;
    };
    let units_agree = tables.iter().all(|t| {
        let series = numeric_series(t);
        unit(t).as_deref() == Some(first.as_str())
            && (series.len() < 2 || is_commensurable(t, &series))
    });
    let peaks: Vec<f64> = tables
        .iter()
        .flat_map(|t| {
            numeric_series(t)
                .into_iter()
                .filter_map(|s| t.series(s))
                .flat_map(|c| c.cells.iter().filter_map(|cell| cell.as_f64()))
                .map(f64::abs)
                .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
        })
        .collect();
    let lo = peaks.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = peaks.iter().copied().fold(0.0, f64::max);
    units_agree && lo > 0.0 && hi / lo <= 100.0
}

/// The figure title: the words all panel titles share ("Palmer penguins"),
/// by the index; else the panels' value labels by the index ("Temperature
/// (°C) and Precipitation (mm) by month"); else the titles joined.
pub fn figure_title(tables: &[&Table]) -> Option<String> {
    let titles: Vec<&str> = tables
        .iter()
        .filter_map(|t| t.meta.title.as_deref().map(str::trim))
        .filter(|t| !t.is_empty())
        .collect();
    let index = tables[0].index.name.trim().to_lowercase();
    if titles.len() == tables.len()
        && let Some(shared) = shared_words(&titles)
    {
        return Some(format!("{shared} by {index}"));
    }
    let labels: Vec<&str> = tables
        .iter()
        .filter_map(|t| t.meta.y_label.as_deref().map(str::trim))
        .filter(|l| !l.is_empty())
        .collect();
    if labels.len() == tables.len() {
        return Some(format!("{} by {index}", join_and(&labels)));
    }
    (!titles.is_empty()).then(|| join_and(&titles))
}

fn join_and(parts: &[&str]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Words that join titles but name nothing on their own.
const GLUE: [&str; 10] = [
    "of", "by", "in", "and", "the", "for", "per", "on", "a", "to",
];

/// The longest run of at least two words every title contains (compared
/// without case), without glue words at its ends, capitalized.
fn shared_words(titles: &[&str]) -> Option<String> {
    let words = |t: &str| -> Vec<String> {
        t.split_whitespace()
            .map(|w| w.trim_matches(|c: char| c == ',' || c == ':' || c == ';'))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let first = words(titles[0]);
    let others: Vec<Vec<String>> = titles[1..].iter().map(|t| words(t)).collect();
    let contains = |hay: &[String], run: &[String]| {
        hay.windows(run.len())
            .any(|w| w.iter().zip(run).all(|(a, b)| a.eq_ignore_ascii_case(b)))
    };
    let mut best: Option<&[String]> = None;
    for len in (2..=first.len()).rev() {
        for run in first.windows(len) {
            let glue = |w: &String| GLUE.contains(&w.to_lowercase().as_str());
            if glue(&run[0]) || glue(&run[len - 1]) {
                continue;
            }
            if others.iter().all(|o| contains(o, run)) {
                best = Some(run);
                break;
            }
        }
        if best.is_some() {
            break;
        }
    }
    let run = best?.join(" ");
    let mut chars = run.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
}

/// The source every table names, when they name one and the same (a
/// figure prints one source line).
pub fn shared_source(tables: &[&Table]) -> Option<String> {
    let source = |t: &Table| {
        t.meta
            .source
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    let first = source(tables.first()?)?;
    tables
        .iter()
        .all(|t| source(t).as_deref() == Some(first.as_str()))
        .then_some(first)
}

/// A lettered figure of `tables` (2..=[`MAX_PANELS`] related tables), each
/// in its own panel of its [`panel_kind`], titled by the table's title,
/// under `title`.
pub fn related_figure(
    tables: &[&Table],
    style: &Style,
    title: Option<String>,
) -> Result<ChartSpec, SpecError> {
    validate_style(style)?;
    let first = tables.first().ok_or_else(|| SpecError::Table {
        table: String::new(),
        message: "a figure of related tables needs tables".into(),
    })?;
    let unsuitable = |table: &Table, reason: String| SpecError::Unsuitable {
        table: table.id.clone(),
        kind: "figure",
        reason,
    };
    if !(2..=MAX_PANELS).contains(&tables.len()) {
        return Err(unsuitable(
            first,
            format!(
                "a figure of related tables draws 2..={MAX_PANELS} tables, got {}",
                tables.len()
            ),
        ));
    }
    let key = relation_key(first);
    let small = smaller_titles(style);
    let panels: Vec<PanelSpec> = tables
        .iter()
        .map(|t| {
            if relation_key(t) != key {
                return Err(unsuitable(
                    t,
                    format!("its index is not that of table `{}`", first.id),
                ));
            }
            let kind = panel_kind(t)
                .ok_or_else(|| unsuitable(t, "it does not suit a figure panel".into()))?;
            // The subtitle and note belong to each table, not to the figure:
            // a panel prints neither, so the figure's furniture is its own.
            let mut own = (*t).clone();
            own.meta.subtitle = None;
            own.meta.footnote = None;
            panel(&own, kind, &small)
        })
        .collect::<Result<_, _>>()?;
    let text = FigureText {
        title,
        subtitle: None,
        note: None,
    };
    Ok(lettered(panels, text, style, share_values(tables)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Layout;

    fn table(id: &str, csv: &str, title: &str, unit: &str, y_label: &str) -> Table {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join(format!("{id}.csv"));
        std::fs::write(&path, csv).expect("table written");
        let mut t = crate::table::load_table(&path).expect("table parses");
        t.meta.title = Some(title.into());
        t.meta.unit = Some(unit.into());
        t.meta.y_label = Some(y_label.into());
        t
    }

    fn penguins() -> Vec<Table> {
        vec![
            table(
                "bill",
                "Species,Bill length,Bill depth\nAdelie,38.8,18.3\nGentoo,47.5,15.0\nChinstrap,48.8,18.4\n",
                "Mean bill length and depth of Palmer penguins",
                "mm",
                "Millimetres",
            ),
            table(
                "mass",
                "Species,male,female\nAdelie,4043,3369\nGentoo,5485,4680\nChinstrap,3939,3527\n",
                "Mean body mass of Palmer penguins by species and sex",
                "g",
                "Body mass (g)",
            ),
        ]
    }

    #[test]
    fn tables_on_the_same_categories_are_grouped_and_others_are_not() {
        let mut tables = penguins();
        tables.push(table(
            "other",
            "Species,Count\nAdelie,152\nGentoo,124\n",
            "Penguins counted",
            "birds",
            "Birds",
        ));
        assert_eq!(groups(&tables), vec![vec![0, 1]]);
    }

    #[test]
    fn large_groups_split_into_figures_of_nearly_equal_size() {
        assert_eq!(
            split_evenly(&[0, 1, 2, 3, 4], 4),
            vec![vec![0, 1, 2], vec![3, 4]]
        );
        assert_eq!(split_evenly(&[0, 1, 2, 3], 4), vec![vec![0, 1, 2, 3]]);
        let nine: Vec<usize> = (0..9).collect();
        let sizes: Vec<usize> = split_evenly(&nine, 4).iter().map(Vec::len).collect();
        assert_eq!(sizes, vec![3, 3, 3]);
    }

    #[test]
    fn panels_in_different_units_keep_their_own_value_axes() {
        let tables = penguins();
        let refs: Vec<&Table> = tables.iter().collect();
        let spec = related_figure(&refs, &Style::default(), figure_title(&refs)).unwrap();
        let Layout::Figure { shared_values, .. } = &spec.layout else {
            panic!("not a figure");
        };
        assert!(!shared_values);
        let kinds: Vec<ChartKind> = spec.panels().iter().map(|p| p.kind).collect();
        assert_eq!(kinds, vec![ChartKind::GroupedBar, ChartKind::GroupedBar]);
        let ids: Vec<&str> = spec.panels().iter().map(|p| p.table.id.as_str()).collect();
        assert_eq!(ids, vec!["bill", "mass"]);
        assert_eq!(spec.title.as_deref(), Some("Palmer penguins by species"));
    }

    #[test]
    fn panels_in_one_unit_share_their_value_range() {
        let a = table(
            "a",
            "Year,North\n2020,10\n2021,12\n2022,15\n",
            "Rainfall in the north",
            "mm",
            "Rainfall (mm)",
        );
        let b = table(
            "b",
            "Year,South\n2020,30\n2021,28\n2022,25\n",
            "Rainfall in the south",
            "mm",
            "Rainfall (mm)",
        );
        let spec = related_figure(&[&a, &b], &Style::default(), None).unwrap();
        let Layout::Figure { shared_values, .. } = &spec.layout else {
            panic!("not a figure");
        };
        assert!(shared_values);
        assert!(spec.panels().iter().all(|p| p.kind == ChartKind::Line));
    }

    #[test]
    fn titles_without_shared_words_fall_back_to_the_value_labels() {
        let a = table(
            "t",
            "Month,High\nJan,7\nFeb,9\n",
            "Seattle mean daily temperatures by month, 2012-2015",
            "°C",
            "Temperature (°C)",
        );
        let b = table(
            "p",
            "Month,Seattle\nJan,173\nFeb,92\n",
            "Monthly precipitation in Seattle and New York, 2012-2015",
            "mm",
            "Precipitation (mm)",
        );
        assert_eq!(
            figure_title(&[&a, &b]).as_deref(),
            Some("Temperature (°C) and Precipitation (mm) by month")
        );
    }

    #[test]
    fn tables_on_other_categories_make_no_figure() {
        let tables = penguins();
        let other = table(
            "x",
            "Species,Count\nAdelie,1\nGentoo,2\n",
            "Counts",
            "birds",
            "Birds",
        );
        assert!(related_figure(&[&tables[0], &other], &Style::default(), None).is_err());
        assert!(related_figure(&[&tables[0]], &Style::default(), None).is_err());
    }
}
