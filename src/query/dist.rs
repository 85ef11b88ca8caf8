//! Questions only the statistical kinds raise: a group's interquartile
//! range (box and violin plots), how many outliers a box plot draws beyond
//! a group's whiskers, how many observations a run of whole histogram bins
//! holds, and whether two error bars overlap.
//!
//! Golds come from the raw observations (type-7 quartiles, Tukey fences,
//! bin counts) or the interval table and are checked against what the
//! renderer recorded in the scene. What a careful person could not settle
//! from the picture is refused: outlier points drawn on top of each other
//! or on a whisker's cap, a bin range whose outer edges carry no printed
//! tick, an overlap (or gap) of error bars only a few pixels wide.

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{Refusal, RefusalKind, panel_ctx};
use crate::ir::query::Query;
use crate::ir::{Answer, ChartKind, ChartSpec, MarkKind, PanelScene, PanelSpec, Scene};
use crate::questions::readability::Reading;
use crate::spec::error_bar::{LOWER, UPPER};
use crate::spec::stat::{BoxStats, COUNT_SERIES, is_samples, panel_boxes};

/// The families of this module, in the order they are listed.
pub const FAMILIES: &[&str] = &[
    "iqr",
    "outlier_count",
    "bin_range_count",
    "intervals_overlap",
];

/// Two error bars' facing caps must be at least this many pixels apart
/// (as a gap or as an overlap) for "do they overlap?" to be asked. A
/// reader places each cap to about a pixel, but the two caps may stand
/// several groups apart with no gridline between them: eight pixels (over
/// 1% of a 600-pixel plot) is a difference seen by eye, not measured.
pub const OVERLAP_MARGIN_PX: f32 = 8.0;
/// Outlier points are circles of radius 3 px with a 1 px outline: centres
/// this far apart show as two separate points with a visible gap.
pub const OUTLIER_SEPARATION_PX: f32 = 7.0;
/// An outlier closer than this to its whisker's cap sits on the cap and
/// cannot be told from the whisker end.
pub const WHISKER_CLEARANCE_PX: f32 = 4.0;
/// A printed tick names a bin edge when it sits this close to it.
const EDGE_TICK_PX: f32 = 1.5;

/// Whether the query belongs to this module.
pub fn is_dist(query: &Query) -> bool {
    matches!(
        query,
        Query::Iqr { .. }
            | Query::OutlierCount { .. }
            | Query::BinRangeCount { .. }
            | Query::IntervalsOverlap { .. }
    )
}

fn refuse(kind: RefusalKind, detail: impl Into<String>) -> Refusal {
    Refusal::new(kind, detail)
}

/// Evaluates one of this module's queries on a chart.
pub(crate) fn execute(query: &Query, spec: &ChartSpec, scene: &Scene) -> Result<Answer, Refusal> {
    let ctx = panel_ctx(query.panel(), spec, scene)?;
    let panels = spec.panels();
    let pspec = panels
        .get(query.panel())
        .copied()
        .ok_or_else(|| refuse(RefusalKind::Unsupported, "no such panel"))?;
    let p = ctx.scene;
    match query {
        Query::Iqr { group, .. } => iqr(group, pspec, p),
        Query::OutlierCount { group, .. } => outliers(group, pspec, p),
        Query::BinRangeCount { from, to, .. } => bin_range(from, to, p),
        Query::IntervalsOverlap { a, b, .. } => overlap(a, b, &ctx.data, p),
        _ => Err(refuse(RefusalKind::Unsupported, "not a distribution query")),
    }
}

/// The group's statistics from the panel's observations and as drawn;
/// Unanswerable when the plot has no such group.
fn group_stats<'a>(
    group: &str,
    pspec: &PanelSpec,
    p: &'a PanelScene,
) -> Result<Option<(BoxStats, &'a crate::ir::GroupScene)>, Refusal> {
    if !matches!(pspec.kind, ChartKind::BoxPlot | ChartKind::Violin) {
        return Err(refuse(
            RefusalKind::Unsupported,
            "quartiles are asked of box and violin plots",
        ));
    }
    let Some(stats) = panel_boxes(pspec.samples.as_ref(), &pspec.table)
        .into_iter()
        .find(|(g, _)| g == group)
        .map(|(_, b)| b)
    else {
        return Ok(None);
    };
    let drawn = p
        .stat
        .as_ref()
        .and_then(|s| s.groups.iter().find(|g| g.group == group))
        .ok_or_else(|| refuse(RefusalKind::NotDrawn, format!("{group} is not drawn")))?;
    let same = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0);
    if !same(drawn.q1, stats.q1) || !same(drawn.q3, stats.q3) {
        return Err(refuse(
            RefusalKind::NotDrawn,
            format!("{group}'s drawn quartiles differ from its observations'"),
        ));
    }
    Ok(Some((stats, drawn)))
}

fn iqr(group: &str, pspec: &PanelSpec, p: &PanelScene) -> Result<Answer, Refusal> {
    let Some((stats, _)) = group_stats(group, pspec, p)? else {
        return Ok(Answer::Unanswerable);
    };
    let format = pspec
        .table
        .series
        .first()
        .map(|c| c.format.clone())
        .unwrap_or_default();
    let value = stats.q3 - stats.q1;
    // Interpolated quartiles fall between observations: one decimal more
    // than the observations (or the summary's quartiles) print is as exact
    // as anyone reads a box, within the capped decimals for the magnitude.
    let observed = pspec
        .samples
        .as_ref()
        .and_then(|s| s.series.first())
        .map_or(format.decimals, |c| c.format.decimals);
    let decimals = crate::ir::decimal::capped_decimals(observed.saturating_add(1), value);
    // Round off the binary noise of the subtraction before printing.
    let value = (value * 1e9).round() / 1e9;
    super::data::number(value, decimals, super::data::unit_of(&format))
}

fn outliers(group: &str, pspec: &PanelSpec, p: &PanelScene) -> Result<Answer, Refusal> {
    if pspec.kind != ChartKind::BoxPlot {
        return Err(refuse(
            RefusalKind::Unsupported,
            "only box plots draw outliers as points",
        ));
    }
    if !pspec.samples.as_ref().is_some_and(is_samples) {
        return Err(refuse(
            RefusalKind::Unsupported,
            "a five-number summary draws no outliers",
        ));
    }
    let Some((stats, drawn)) = group_stats(group, pspec, p)? else {
        return Ok(Answer::Unanswerable);
    };
    if drawn.outliers.len() != stats.outliers.len() {
        return Err(refuse(
            RefusalKind::NotDrawn,
            format!("{group}: drawn outliers differ from the observations'"),
        ));
    }
    let mut ys: Vec<f32> = drawn.outliers.iter().map(|o| o.bbox.center().1).collect();
    ys.sort_by(f32::total_cmp);
    if ys.windows(2).any(|w| w[1] - w[0] < OUTLIER_SEPARATION_PX) {
        return Err(refuse(
            RefusalKind::TooClose,
            format!("{group}: two outlier points overlap"),
        ));
    }
    if ys.iter().any(|y| {
        (y - drawn.low_y).abs() < WHISKER_CLEARANCE_PX
            || (y - drawn.high_y).abs() < WHISKER_CLEARANCE_PX
    }) {
        return Err(refuse(
            RefusalKind::TooClose,
            format!("{group}: an outlier point sits on a whisker's cap"),
        ));
    }
    Ok(Answer::Number {
        value: stats.outliers.len() as f64,
        decimals: 0,
        unit: None,
    })
}

/// A bin's edges as its name prints them ("400–450" → ("400", "450")).
pub fn bin_edges_of(label: &str) -> Option<(&str, &str)> {
    label.split_once('–').map(|(a, b)| (a.trim(), b.trim()))
}

/// Whether a printed x tick at pixel `x` reads `value`.
fn tick_at(p: &PanelScene, x: f32, value: f64) -> bool {
    p.x_ticks.iter().any(|t| {
        (t.pos - x).abs() <= EDGE_TICK_PX
            && crate::reader::parse_printed(&t.label)
                .is_some_and(|(v, _)| (v - value).abs() <= 1e-9 * value.abs().max(1.0))
    })
}

/// The bins `i..=j` (bar marks in drawing order) a range from edge `from`
/// to edge `to` covers: two or more whole bins, not all of them.
pub fn bin_span(labels: &[String], from: &str, to: &str) -> Option<(usize, usize)> {
    let i = labels
        .iter()
        .position(|l| bin_edges_of(l).is_some_and(|(a, _)| a == from))?;
    let j = labels
        .iter()
        .position(|l| bin_edges_of(l).is_some_and(|(_, b)| b == to))?;
    (j > i && j - i + 1 < labels.len()).then_some((i, j))
}

fn bin_range(from: &str, to: &str, p: &PanelScene) -> Result<Answer, Refusal> {
    if p.kind != ChartKind::Histogram {
        return Err(refuse(
            RefusalKind::Unsupported,
            "bin ranges are asked of histograms",
        ));
    }
    let bars: Vec<&crate::ir::Mark> = p
        .marks
        .iter()
        .filter(|m| m.kind == MarkKind::Bar && m.series == COUNT_SERIES)
        .collect();
    let labels: Vec<String> = bars
        .iter()
        .map(|m| m.category.clone().unwrap_or_default())
        .collect();
    let Some((i, j)) = bin_span(&labels, from, to) else {
        return Err(refuse(
            RefusalKind::Unsupported,
            format!("{from} to {to} is not a run of whole bins"),
        ));
    };
    let bins = p
        .stat
        .as_ref()
        .map(|s| s.bins.as_slice())
        .unwrap_or_default();
    if bins.len() != bars.len() {
        return Err(refuse(RefusalKind::NotDrawn, "bins and bars disagree"));
    }
    let (start, end) = (bins[i].start, bins[j].end);
    // The range is named by printed ticks at its two outer edges, as a
    // reader finds it on the axis.
    if !tick_at(p, bins[i].bbox.x, start) || !tick_at(p, bins[j].bbox.right(), end) {
        return Err(refuse(
            RefusalKind::NotDrawn,
            format!("the edges {from} and {to} carry no printed tick"),
        ));
    }
    let mut total = 0.0;
    for k in i..=j {
        if (bars[k].value - f64::from(bins[k].count)).abs() > 1e-9 {
            return Err(refuse(
                RefusalKind::NotDrawn,
                "a bar's height is not its count",
            ));
        }
        total += f64::from(bins[k].count);
    }
    Ok(Answer::Number {
        value: total,
        decimals: 0,
        unit: None,
    })
}

fn overlap(a: &str, b: &str, data: &super::PanelData, p: &PanelScene) -> Result<Answer, Refusal> {
    if p.kind != ChartKind::ErrorBar || a == b {
        return Err(refuse(
            RefusalKind::Unsupported,
            "overlaps are asked of two error bars",
        ));
    }
    let (Some(ra), Some(rb)) = (data.row(a), data.row(b)) else {
        return Ok(Answer::Unanswerable);
    };
    let bound = |series: &str, row: usize| -> Result<f64, Refusal> {
        data.series(series)
            .and_then(|s| s.values.get(row).copied().flatten())
            .ok_or_else(|| refuse(RefusalKind::MissingCell, format!("no {series}")))
    };
    let (lo_a, hi_a, lo_b, hi_b) = (
        bound(LOWER, ra)?,
        bound(UPPER, ra)?,
        bound(LOWER, rb)?,
        bound(UPPER, rb)?,
    );
    // The intervals overlap when the higher lower bound is at or below the
    // lower upper bound; those two caps face each other on the chart.
    let (lo_cat, lo) = if lo_a >= lo_b { (a, lo_a) } else { (b, lo_b) };
    let (hi_cat, hi) = if hi_a <= hi_b { (a, hi_a) } else { (b, hi_b) };
    let cap_y = |series: &str, cat: &str| -> Result<f32, Refusal> {
        p.marks
            .iter()
            .find(|m| {
                m.kind == MarkKind::LinePoint
                    && m.series == series
                    && m.category.as_deref() == Some(cat)
            })
            .map(|m| m.bbox.center().1)
            .ok_or_else(|| refuse(RefusalKind::NotDrawn, format!("no {series} cap for {cat}")))
    };
    let gap_px = (cap_y(LOWER, lo_cat)? - cap_y(UPPER, hi_cat)?).abs();
    if gap_px < OVERLAP_MARGIN_PX {
        return Err(refuse(
            RefusalKind::TooClose,
            format!("the error bars of {a} and {b} meet within {gap_px:.1} px"),
        ));
    }
    Ok(Answer::YesNo { value: lo <= hi })
}

/// Seeded arguments for one of this module's families on a panel whose
/// printed labels `read` knows; the executor may still refuse them.
pub fn pick(
    family: &str,
    panel: usize,
    d: &super::PanelData,
    read: &Reading,
    rng: &mut Xoshiro256PlusPlus,
) -> Option<Query> {
    let printed: Vec<&String> = d
        .categories
        .iter()
        .filter(|c| read.category_printed(c))
        .collect();
    let one = |rng: &mut Xoshiro256PlusPlus| -> Option<String> {
        (!printed.is_empty()).then(|| printed[rng.random_range(0..printed.len())].clone())
    };
    match family {
        "iqr" => Some(Query::Iqr {
            panel,
            group: one(rng)?,
        }),
        "outlier_count" => Some(Query::OutlierCount {
            panel,
            group: one(rng)?,
        }),
        "bin_range_count" => {
            // Bins are named by their edges, whether or not every edge is
            // printed: the executor keeps ranges whose outer edges are.
            let n = d.categories.len();
            if n < 3 {
                return None;
            }
            let i = rng.random_range(0..n - 1);
            let j = rng.random_range(i + 1..n);
            if j - i + 1 >= n {
                return None;
            }
            let from = bin_edges_of(&d.categories[i])?.0.to_string();
            let to = bin_edges_of(&d.categories[j])?.1.to_string();
            Some(Query::BinRangeCount { panel, from, to })
        }
        "intervals_overlap" => {
            if printed.len() < 2 {
                return None;
            }
            let i = rng.random_range(0..printed.len());
            let mut j = rng.random_range(0..printed.len() - 1);
            if j >= i {
                j += 1;
            }
            Some(Query::IntervalsOverlap {
                panel,
                a: printed[i].clone(),
                b: printed[j].clone(),
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bin_spans_cover_two_or_more_whole_bins_but_not_all() {
        let labels: Vec<String> = ["0–10", "10–20", "20–30", "30–40"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(bin_span(&labels, "10", "30"), Some((1, 2)));
        assert_eq!(bin_span(&labels, "0", "30"), Some((0, 2)));
        // One bin is a value question, every bin the whole sample.
        assert_eq!(bin_span(&labels, "10", "20"), None);
        assert_eq!(bin_span(&labels, "0", "40"), None);
        // An edge inside a bin cuts it: no such range.
        assert_eq!(bin_span(&labels, "15", "30"), None);
        assert_eq!(bin_span(&labels, "30", "10"), None);
    }

    #[test]
    fn bin_names_split_at_the_dash() {
        assert_eq!(bin_edges_of("0.4–0.6"), Some(("0.4", "0.6")));
        assert_eq!(bin_edges_of("400"), None);
    }

    /// A chart of `kind` drawn from a CSV written to a temporary folder.
    fn chart(name: &str, csv: &str, kind: ChartKind) -> (ChartSpec, Scene) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(format!("{name}.csv"));
        std::fs::write(&path, csv).unwrap();
        let t = crate::table::load_table(&path).unwrap();
        let style = crate::spec::theme("classic").unwrap();
        let spec = crate::spec::single(&t, kind, &style).unwrap();
        let scene = crate::render::render(&spec).unwrap().scene;
        (spec, scene)
    }

    #[test]
    fn error_bars_meeting_within_a_few_pixels_are_not_asked_about() {
        let (spec, scene) = chart(
            "bars",
            "Group,Score,Lower,Upper\nA,10,8,12\nB,14,12,16\nC,30,28,32\nD,11,9,13\n",
            ChartKind::ErrorBar,
        );
        let ask = |a: &str, b: &str| {
            super::super::execute(
                &Query::IntervalsOverlap {
                    panel: 0,
                    a: a.into(),
                    b: b.into(),
                },
                &spec,
                &scene,
            )
        };
        // A ends where B starts: a touch no one can call from the picture.
        assert_eq!(ask("A", "B").unwrap_err().kind, RefusalKind::TooClose);
        assert_eq!(ask("A", "C"), Ok(Answer::YesNo { value: false }));
        assert_eq!(ask("A", "D"), Ok(Answer::YesNo { value: true }));
        assert_eq!(ask("A", "Z"), Ok(Answer::Unanswerable));
    }

    #[test]
    fn outliers_drawn_on_top_of_each_other_are_not_counted() {
        let mut csv = String::from("Observation,Alpha,Beta\n");
        for i in 0..20 {
            csv.push_str(&format!("{},{},{}\n", i + 1, 10 + i, 10 + i));
        }
        // Alpha's two outliers coincide; Beta's lie far apart.
        csv.push_str("21,100,60\n22,100,100\n");
        let (spec, scene) = chart("stays", &csv, ChartKind::BoxPlot);
        let ask = |group: &str, family: &str| {
            let q = if family == "iqr" {
                Query::Iqr {
                    panel: 0,
                    group: group.into(),
                }
            } else {
                Query::OutlierCount {
                    panel: 0,
                    group: group.into(),
                }
            };
            super::super::execute(&q, &spec, &scene)
        };
        assert_eq!(
            ask("Alpha", "outliers").unwrap_err().kind,
            RefusalKind::TooClose
        );
        assert_eq!(
            ask("Beta", "outliers"),
            Ok(Answer::Number {
                value: 2.0,
                decimals: 0,
                unit: None
            })
        );
        // 22 observations: Q1 at h = 5.25, Q3 at h = 15.75 of the sorted
        // values (10..=29, 60, 100): 15.25 and 25.75.
        let Ok(Answer::Number { value, .. }) = ask("Beta", "iqr") else {
            panic!("no IQR");
        };
        assert!((value - 10.5).abs() < 1e-9, "{value}");
        // A violin draws no points: its outliers are not asked.
        let (vspec, vscene) = chart("stays", &csv, ChartKind::Violin);
        let q = Query::OutlierCount {
            panel: 0,
            group: "Beta".into(),
        };
        assert_eq!(
            super::super::execute(&q, &vspec, &vscene).unwrap_err().kind,
            RefusalKind::Unsupported
        );
    }
}
