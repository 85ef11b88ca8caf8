//! Statistics the statistical kinds draw, and the summary tables questions
//! about them ask from.
//!
//! Quartiles use linear interpolation between order statistics (numpy's
//! default `linear`, R's type 7): for sorted observations `x[0..n]` the
//! p-quantile is `x[h] + (h - floor h) (x[h+1] - x[h])` with `h = (n-1) p`.
//! The median is the 0.5-quantile (the middle value, or the mean of the two
//! middle values). Whiskers follow Tukey: each ends at the most extreme
//! observation within 1.5 IQR of its quartile; observations beyond are
//! outliers, drawn as points. This is what matplotlib's and seaborn's box
//! plots draw by default, so a reader who knows those reads these.
//!
//! Tables accepted: raw samples (`TableMeta::samples`: one column per
//! group, rows are observations) for all three kinds, and a five-number
//! summary (`min, q1, median, q3, max` columns, one row per group) for box
//! plots, whose whiskers then end at the minimum and maximum.

use super::format::{format_number, nice_ticks};
use super::{SpecError, validate_style};
use crate::ir::{
    Cell, ChartKind, Column, ColumnType, NumberFormat, NumberStyle, PanelSpec, Style, Table,
    TableMeta,
};

/// How quartiles and whiskers are computed, as recorded in the scene.
pub const METHOD: &str = "linear (numpy default, R type 7); whiskers tukey_1.5_iqr";

/// Fewest observations a group needs to be drawn as a distribution.
pub const MIN_GROUP: usize = 5;
/// Most groups a box or violin plot draws side by side.
pub const MAX_GROUPS: usize = 8;

/// Index name of the box/violin summary table: questions say "which group".
pub const GROUP_INDEX: &str = "Group";
/// Index name of the histogram table: questions say "which bin".
pub const BIN_INDEX: &str = "Bin";
/// The histogram table's series.
pub const COUNT_SERIES: &str = "Count";

/// The p-quantile of sorted values by linear interpolation (type 7).
pub fn quantile(sorted: &[f64], p: f64) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        1 => sorted[0],
        n => {
            let h = (n - 1) as f64 * p.clamp(0.0, 1.0);
            let lo = h.floor() as usize;
            let hi = (lo + 1).min(n - 1);
            sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
        }
    }
}

/// A box's statistics.
#[derive(Debug, Clone, PartialEq)]
pub struct BoxStats {
    pub n: usize,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub low: f64,
    pub high: f64,
    pub outliers: Vec<f64>,
}

impl BoxStats {
    /// Tukey box statistics of raw observations (None when fewer than
    /// [`MIN_GROUP`] finite ones).
    pub fn of(values: &[f64]) -> Option<BoxStats> {
        let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
        if v.len() < MIN_GROUP {
            return None;
        }
        v.sort_by(f64::total_cmp);
        let q1 = quantile(&v, 0.25);
        let median = quantile(&v, 0.5);
        let q3 = quantile(&v, 0.75);
        let iqr = q3 - q1;
        let (lo_fence, hi_fence) = (q1 - 1.5 * iqr, q3 + 1.5 * iqr);
        let inside: Vec<f64> = v
            .iter()
            .copied()
            .filter(|x| *x >= lo_fence && *x <= hi_fence)
            .collect();
        let low = inside.first().copied().unwrap_or(q1).min(q1);
        let high = inside.last().copied().unwrap_or(q3).max(q3);
        let outliers = v
            .iter()
            .copied()
            .filter(|x| *x < lo_fence || *x > hi_fence)
            .collect();
        Some(BoxStats {
            n: v.len(),
            q1,
            median,
            q3,
            low,
            high,
            outliers,
        })
    }
}

/// The groups of a raw-samples table: each series with its finite values.
pub fn groups(samples: &Table) -> Vec<(String, Vec<f64>)> {
    samples
        .series
        .iter()
        .map(|c| {
            let v: Vec<f64> = c
                .cells
                .iter()
                .filter_map(Cell::as_f64)
                .filter(|x| x.is_finite())
                .collect();
            (c.name.clone(), v)
        })
        .filter(|(_, v)| v.len() >= MIN_GROUP)
        .take(MAX_GROUPS)
        .collect()
}

/// Whether the table holds raw samples to draw as distributions.
pub fn is_samples(table: &Table) -> bool {
    table.meta.samples && !groups(table).is_empty()
}

/// Column names of a five-number summary, in order.
const FIVE: [&[&str]; 5] = [
    &["min", "minimum", "lower whisker", "low"],
    &["q1", "lower quartile", "first quartile", "p25", "25%"],
    &["median", "q2", "p50", "50%"],
    &["q3", "upper quartile", "third quartile", "p75", "75%"],
    &["max", "maximum", "upper whisker", "high"],
];

/// A five-number summary table's columns (min, q1, median, q3, max), when
/// its series are named so and every row is ordered min ≤ q1 ≤ … ≤ max.
pub fn five_number_columns(table: &Table) -> Option<[&Column; 5]> {
    let find = |names: &[&str]| {
        table.series.iter().find(|c| {
            let n = c.name.trim().to_ascii_lowercase();
            names.contains(&n.as_str())
        })
    };
    let cols = [
        find(FIVE[0])?,
        find(FIVE[1])?,
        find(FIVE[2])?,
        find(FIVE[3])?,
        find(FIVE[4])?,
    ];
    let rows = table.n_rows();
    if !(1..=MAX_GROUPS).contains(&rows) || table.index.ctype != ColumnType::Text {
        return None;
    }
    for r in 0..rows {
        let v: Option<Vec<f64>> = cols.iter().map(|c| c.cells.get(r)?.as_f64()).collect();
        let v = v?;
        if v.iter().any(|x| !x.is_finite()) || v.windows(2).any(|w| w[0] > w[1]) {
            return None;
        }
    }
    Some(cols)
}

/// Box statistics per group of a panel: from its raw samples, else from a
/// five-number summary table (the panel's `samples` slot holds it).
pub fn panel_boxes(samples: Option<&Table>, table: &Table) -> Vec<(String, BoxStats)> {
    let table = samples.unwrap_or(table);
    if is_samples(table) {
        return groups(table)
            .into_iter()
            .filter_map(|(g, v)| BoxStats::of(&v).map(|b| (g, b)))
            .collect();
    }
    let Some(cols) = five_number_columns(table) else {
        return Vec::new();
    };
    let labels = table.category_labels();
    (0..table.n_rows())
        .filter_map(|r| {
            let v: Vec<f64> = cols
                .iter()
                .map(|c| c.cells[r].as_f64())
                .collect::<Option<_>>()?;
            Some((
                labels[r].clone(),
                BoxStats {
                    n: 0,
                    low: v[0],
                    q1: v[1],
                    median: v[2],
                    q3: v[3],
                    high: v[4],
                    outliers: Vec::new(),
                },
            ))
        })
        .collect()
}

/// Decimals that print every value of `values` exactly, from `base` up to
/// `base + extra` (a median of two middle values needs one more).
fn decimals_needed(values: &[f64], base: u8, extra: u8) -> u8 {
    (base..=base + extra)
        .find(|d| {
            let s = 10f64.powi(i32::from(*d));
            values
                .iter()
                .all(|v| ((v * s) - (v * s).round()).abs() < 1e-6 * (v * s).abs().max(1.0))
        })
        .unwrap_or(base + extra)
}

fn round_to(v: f64, decimals: u8) -> f64 {
    let s = 10f64.powi(i32::from(decimals));
    let r = (v * s).round() / s;
    if r == 0.0 { 0.0 } else { r }
}

/// What the observations measure, for series and axis names.
pub fn measure_name(samples: &Table) -> String {
    let meta = &samples.meta;
    meta.measure
        .clone()
        .or_else(|| meta.y_label.clone())
        .filter(|m| !m.trim().is_empty())
        .unwrap_or_else(|| "value".to_string())
}

/// "Median reaction time (ms)".
pub fn median_series_name(measure: &str) -> String {
    let mut chars = measure.trim().chars();
    let lower = match chars.next() {
        // Keep acronyms ("CPU load") as written.
        Some(c) if !chars.clone().next().is_some_and(|n| n.is_uppercase()) => {
            c.to_lowercase().chain(chars).collect::<String>()
        }
        Some(c) => std::iter::once(c).chain(chars).collect(),
        None => String::new(),
    };
    format!("Median {lower}")
}

/// The summary a box or violin panel asks about: one row per group, one
/// series, the group's median.
pub fn median_table(source: &Table, boxes: &[(String, BoxStats)], format: &NumberFormat) -> Table {
    let measure = measure_name(source);
    let medians: Vec<f64> = boxes.iter().map(|(_, b)| b.median).collect();
    let decimals = decimals_needed(&medians, format.decimals, 1);
    let mut meta = source.meta.clone();
    meta.samples = false;
    meta.measure = Some(measure.clone());
    meta.subtitle = None;
    Table {
        id: source.id.clone(),
        source_path: None,
        meta,
        index: Column {
            name: GROUP_INDEX.into(),
            ctype: ColumnType::Text,
            format: NumberFormat::default(),
            cells: boxes.iter().map(|(g, _)| Cell::Text(g.clone())).collect(),
        },
        series: vec![Column {
            name: median_series_name(&measure),
            ctype: ColumnType::Number,
            format: NumberFormat {
                decimals,
                ..format.clone()
            },
            cells: medians
                .iter()
                .map(|m| Cell::Number(round_to(*m, decimals)))
                .collect(),
        }],
    }
}

/// Bin edges for a histogram of `values`: a nice width (1, 2, 2.5 or 5 ×
/// 10^k) giving about √n bins (6 to 14), edges on multiples of it.
pub fn bin_edges(values: &[f64]) -> Vec<f64> {
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() || !hi.is_finite() {
        return Vec::new();
    }
    let want = ((values.len() as f64).sqrt().round() as u32).clamp(6, 14);
    let (mut edges, _) = nice_ticks(lo, hi, want + 1);
    // The last bin holds its right edge; a maximum on an edge needs no extra bin.
    if edges.last().is_some_and(|e| *e < hi) {
        let step = edges[1] - edges[0];
        edges.push(edges.last().copied().unwrap_or(hi) + step);
    }
    edges
}

/// Counts of `values` per bin (`start <= v < end`, the last bin closed).
pub fn bin_counts(values: &[f64], edges: &[f64]) -> Vec<u32> {
    let bins = edges.len().saturating_sub(1);
    let mut counts = vec![0u32; bins];
    for v in values {
        if let Some(i) = (0..bins).find(|&i| {
            *v >= edges[i] && (*v < edges[i + 1] || (i + 1 == bins && *v <= edges[i + 1]))
        }) {
            counts[i] += 1;
        }
    }
    counts
}

/// A bin as questions name it: "400–450" (its edges as the axis prints them).
pub fn bin_label(start: f64, end: f64, decimals: usize, format: &NumberFormat) -> String {
    let plain = NumberFormat {
        prefix: None,
        suffix: None,
        ..format.clone()
    };
    format!(
        "{}–{}",
        format_number(start, NumberStyle::Plain, decimals, &plain),
        format_number(end, NumberStyle::Plain, decimals, &plain)
    )
}

/// The histogram of one group: its table (bins × counts) and edges.
pub fn histogram_table(source: &Table, group: &str, values: &[f64]) -> Option<(Table, Vec<f64>)> {
    let edges = bin_edges(values);
    if edges.len() < 3 {
        return None;
    }
    let decimals = super::format::decimals_for(edges[1] - edges[0]);
    let format = source
        .series(group)
        .map(|c| c.format.clone())
        .unwrap_or_default();
    let counts = bin_counts(values, &edges);
    let mut meta = source.meta.clone();
    meta.samples = false;
    meta.subtitle = None;
    let table = counts_table(&source.id, meta, &edges, &counts, decimals, &format);
    Some((table, edges))
}

/// A histogram's table: one row per bin, labelled by its edges printed
/// with `decimals` in `format`, and the count of each (`meta` becomes that
/// of counts: additive, no unit).
fn counts_table(
    id: &str,
    mut meta: TableMeta,
    edges: &[f64],
    counts: &[u32],
    decimals: usize,
    format: &NumberFormat,
) -> Table {
    meta.additive = Some(true);
    meta.unit = None;
    meta.units.clear();
    meta.measure = Some(COUNT_SERIES.to_lowercase());
    Table {
        id: id.to_string(),
        source_path: None,
        meta,
        index: Column {
            name: BIN_INDEX.into(),
            ctype: ColumnType::Text,
            format: NumberFormat::default(),
            cells: edges
                .windows(2)
                .map(|w| Cell::Text(bin_label(w[0], w[1], decimals, format)))
                .collect(),
        },
        series: vec![Column {
            name: COUNT_SERIES.into(),
            ctype: ColumnType::Number,
            format: NumberFormat::default(),
            cells: counts.iter().map(|c| Cell::Number(f64::from(*c))).collect(),
        }],
    }
}

/// Most bins a pre-binned table may have.
const MAX_BINS: usize = 40;

/// A bin label's two edges: "0–10", "0-10", "0 — 10" or "0 to 10" (a
/// leading minus belongs to the first number).
fn bin_label_edges(label: &str) -> Option<(f64, f64)> {
    let l = label.trim().replace('\u{2212}', "-");
    let num = |s: &str| s.trim().replace(',', "").parse::<f64>().ok();
    for sep in ["–", "—", " to "] {
        if let Some((a, b)) = l.split_once(sep) {
            return Some((num(a)?, num(b)?));
        }
    }
    let cut = l.get(1..)?.find('-')? + 1;
    Some((num(&l[..cut])?, num(&l[cut + 1..])?))
}

/// A pre-binned table (rows `0–10`, `10–20`, … with one column of counts):
/// its edges and counts, when the bins are adjoining, of equal width (so
/// bar heights compare as counts), at least three and at most forty, and
/// every count a whole number of observations, not all zero.
pub fn binned(table: &Table) -> Option<(Vec<f64>, Vec<u32>)> {
    if table.index.ctype != ColumnType::Text || table.series.len() != 1 {
        return None;
    }
    let rows = table.n_rows();
    if !(3..=MAX_BINS).contains(&rows) {
        return None;
    }
    let mut edges = Vec::with_capacity(rows + 1);
    for label in table.category_labels() {
        let (a, b) = bin_label_edges(&label)?;
        if !(a.is_finite() && b.is_finite() && a < b) {
            return None;
        }
        match edges.last() {
            None => edges.push(a),
            Some(end) if (a - end).abs() <= 1e-9 * a.abs().max(1.0) => {}
            Some(_) => return None,
        }
        edges.push(b);
    }
    let width = edges[1] - edges[0];
    if edges
        .windows(2)
        .any(|w| ((w[1] - w[0]) - width).abs() > 1e-9 * width.max(1.0))
    {
        return None;
    }
    let counts: Option<Vec<u32>> = table.series[0]
        .cells
        .iter()
        .map(|c| {
            let v = c.as_f64()?;
            (v >= 0.0 && v.fract() == 0.0 && v <= f64::from(u32::MAX)).then_some(v as u32)
        })
        .collect();
    let counts = counts?;
    (counts.len() == rows && counts.iter().any(|c| *c > 0)).then_some((edges, counts))
}

/// A histogram of a pre-binned table: its bins renamed as the axis prints
/// their edges (`0–10`), its counts the `Count` series, the count column's
/// own name on the value axis.
fn binned_panel(
    table: &Table,
    style: &Style,
    title: Option<String>,
) -> Result<PanelSpec, SpecError> {
    let (edges, counts) = binned(table).ok_or_else(|| SpecError::Unsuitable {
        table: table.id.clone(),
        kind: ChartKind::Histogram.name(),
        reason: "not a table of counts per bin".into(),
    })?;
    let decimals = super::format::decimals_for(edges[1] - edges[0]);
    let bins = counts_table(
        &table.id,
        table.meta.clone(),
        &edges,
        &counts,
        decimals,
        &NumberFormat::default(),
    );
    let named = |l: Option<&String>, fallback: &str| {
        l.filter(|l| !l.trim().is_empty())
            .cloned()
            .unwrap_or_else(|| fallback.to_string())
    };
    Ok(PanelSpec {
        kind: ChartKind::Histogram,
        table: bins,
        series: vec![COUNT_SERIES.into()],
        title,
        x_label: Some(named(table.meta.x_label.as_ref(), &table.index.name)),
        y_label: Some(named(table.meta.y_label.as_ref(), &table.series[0].name)),
        style: style.clone(),
        annotation: None,
        subtitle: None,
        samples: None,
        pinned: None,
    })
}

/// The statistical kinds a table suits, best first.
pub fn suitable(table: &Table) -> Vec<ChartKind> {
    if is_samples(table) {
        let n = groups(table).len();
        return if n >= 2 {
            vec![ChartKind::BoxPlot, ChartKind::Violin, ChartKind::Histogram]
        } else {
            vec![ChartKind::Histogram, ChartKind::BoxPlot, ChartKind::Violin]
        };
    }
    if five_number_columns(table).is_some() {
        return vec![ChartKind::BoxPlot];
    }
    // Counts per adjoining bin are a histogram already drawn up.
    if binned(table).is_some() {
        return vec![ChartKind::Histogram];
    }
    Vec::new()
}

/// A statistical panel: the summary table questions ask about, the raw
/// samples (if any) and the axis titles.
pub fn panel(table: &Table, kind: ChartKind, style: &Style) -> Result<PanelSpec, SpecError> {
    validate_style(style)?;
    let unsuitable = |reason: &str| SpecError::Unsuitable {
        table: table.id.clone(),
        kind: kind.name(),
        reason: reason.into(),
    };
    let samples = is_samples(table).then(|| table.clone());
    // `samples` is None for a five-number summary until its boxes are built.
    let measure = samples.as_ref().map(measure_name);
    let title = table.meta.title.clone().filter(|t| !t.trim().is_empty());
    let unit_label = |m: &str| match table.meta.unit.as_deref() {
        Some(u) => super::with_unit(m, u),
        None => m.to_string(),
    };
    match kind {
        ChartKind::Histogram if samples.is_none() && binned(table).is_some() => {
            binned_panel(table, style, title)
        }
        ChartKind::Histogram => {
            let s = samples
                .as_ref()
                .ok_or_else(|| unsuitable("a histogram needs raw observations"))?;
            let gs = groups(s);
            let (group, values) = gs
                .first()
                .ok_or_else(|| unsuitable("no group has enough observations"))?;
            let (bins, _) = histogram_table(s, group, values)
                .ok_or_else(|| unsuitable("the observations span no range"))?;
            let measure = measure.unwrap_or_default();
            // One group of several: the title names it.
            let title = match (title, gs.len() > 1) {
                (Some(t), true) => Some(format!("{t}: {group}")),
                (None, true) => Some(group.clone()),
                (t, false) => t,
            };
            Ok(PanelSpec {
                kind,
                table: bins,
                series: vec![COUNT_SERIES.into()],
                title,
                x_label: Some(unit_label(&measure)),
                y_label: Some(COUNT_SERIES.into()),
                style: style.clone(),
                annotation: None,
                subtitle: None,
                samples: Some(s.clone()),
                pinned: None,
            })
        }
        ChartKind::BoxPlot | ChartKind::Violin => {
            let boxes = panel_boxes(samples.as_ref(), table);
            if boxes.is_empty() {
                return Err(unsuitable(
                    "needs raw observations (or, for a box plot, a five-number summary)",
                ));
            }
            if kind == ChartKind::Violin && samples.is_none() {
                return Err(unsuitable("a violin needs raw observations"));
            }
            let (source, format, y_label) = match &samples {
                Some(s) => {
                    let f = s.series[0].format.clone();
                    let m = measure_name(s);
                    (s.clone(), f, unit_label(&m))
                }
                None => {
                    let cols =
                        five_number_columns(table).ok_or_else(|| unsuitable("no summary"))?;
                    let mut src = table.clone();
                    if src.meta.measure.is_none() {
                        src.meta.measure = table.meta.y_label.clone();
                    }
                    let m = measure_name(&src);
                    (src, cols[2].format.clone(), unit_label(&m))
                }
            };
            let summary = median_table(&source, &boxes, &format);
            // A five-number summary rides along where raw samples would:
            // the renderer draws the boxes from it.
            let samples = samples.or_else(|| Some(table.clone()));
            let x_label = table
                .meta
                .x_label
                .clone()
                .filter(|l| !l.trim().is_empty())
                .or_else(|| {
                    (samples.is_none() && !table.index.name.trim().is_empty())
                        .then(|| table.index.name.clone())
                });
            Ok(PanelSpec {
                kind,
                series: summary
                    .series_names()
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                table: summary,
                title,
                x_label,
                y_label: Some(y_label),
                style: style.clone(),
                annotation: None,
                subtitle: None,
                samples,
                pinned: None,
            })
        }
        _ => Err(unsuitable("not a statistical kind")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binned_tables_need_adjoining_equal_bins_of_whole_counts() {
        let table = |labels: &[&str], counts: &[f64]| Table {
            id: "t".into(),
            source_path: None,
            meta: Default::default(),
            index: Column {
                name: "Age".into(),
                ctype: ColumnType::Text,
                format: NumberFormat::default(),
                cells: labels.iter().map(|l| Cell::Text(l.to_string())).collect(),
            },
            series: vec![Column {
                name: "Patients".into(),
                ctype: ColumnType::Number,
                format: NumberFormat::default(),
                cells: counts.iter().map(|c| Cell::Number(*c)).collect(),
            }],
        };
        let (edges, counts) =
            binned(&table(&["0-10", "10–20", "20 to 30"], &[4.0, 9.0, 2.0])).unwrap();
        assert_eq!(edges, vec![0.0, 10.0, 20.0, 30.0]);
        assert_eq!(counts, vec![4, 9, 2]);
        assert!(binned(&table(&["-10-0", "0-10", "10-20"], &[1.0, 2.0, 3.0])).is_some());
        // Age groups that do not adjoin, unequal widths, fractional counts.
        assert!(binned(&table(&["0-9", "10-19", "20-29"], &[1.0, 2.0, 3.0])).is_none());
        assert!(binned(&table(&["0-10", "10-30", "30-40"], &[1.0, 2.0, 3.0])).is_none());
        assert!(binned(&table(&["0-10", "10-20", "20-30"], &[1.5, 2.0, 3.0])).is_none());
        assert!(binned(&table(&["2023-01", "2023-02", "2023-03"], &[1.0, 2.0, 3.0])).is_none());
        assert_eq!(
            suitable(&table(&["0-10", "10-20", "20-30"], &[4.0, 9.0, 2.0])),
            vec![ChartKind::Histogram]
        );
    }

    #[test]
    fn type_seven_quartiles_interpolate() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&v, 0.25), 1.75);
        assert_eq!(quantile(&v, 0.5), 2.5);
        assert_eq!(quantile(&v, 0.75), 3.25);
    }

    #[test]
    fn tukey_whiskers_stop_at_the_last_point_inside_the_fences() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 30.0];
        let b = BoxStats::of(&v).unwrap();
        assert_eq!((b.q1, b.median, b.q3), (3.0, 5.0, 7.0));
        assert_eq!((b.low, b.high), (1.0, 8.0));
        assert_eq!(b.outliers, vec![30.0]);
    }

    #[test]
    fn bins_cover_every_value_once() {
        let v: Vec<f64> = (0..100).map(|i| f64::from(i) * 1.37 + 3.0).collect();
        let e = bin_edges(&v);
        let c = bin_counts(&v, &e);
        assert_eq!(c.iter().sum::<u32>(), 100);
        assert!(e[0] <= 3.0 && *e.last().unwrap() >= 138.63);
    }
}
