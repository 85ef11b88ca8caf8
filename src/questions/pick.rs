//! Seeded choices of query arguments for each family. Picks may still be
//! refused by the executor (ties, near thresholds); the caller then retries.

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::readability::Reading;
use crate::ir::decimal::capped_decimals;
use crate::ir::query::{AggregateOp, Axis, CellRef, Query};
use crate::ir::{ChartKind, PanelScene};
use crate::query::PanelData;

/// Families read straight off a chart's marks: a value, the extremes and
/// where they fall, a difference or comparison of two marks. The kinds that
/// draw values on their own terms (error bars, dual axes, waterfalls) ask
/// these and little else.
const READ_OFF: [&str; 7] = [
    "value_at",
    "argmax",
    "argmin",
    "max_value",
    "min_value",
    "difference",
    "compare",
];

pub use crate::query::{DATA_FAMILIES, DESCRIPTIVE_FAMILIES};

/// Descriptive families asked only when named (`--families`): "How many
/// labelled ticks are there on the chart?" is a CharXiv question no outside
/// reader found natural in four blind reads.
pub const OPT_IN_DESCRIPTIVE: &[&str] = &["tick_count"];

/// Whether a data family fits the panel at all.
pub fn data_family_fits(family: &str, d: &PanelData) -> bool {
    let n = d.categories.len();
    let ns = d.series.len();
    if !d.categorical() || n < 2 || ns == 0 {
        return false;
    }
    // Rises and falls between two columns are what a slope chart is drawn
    // to show; other kinds ask about their columns' gap (max_gap).
    if matches!(family, "largest_rise" | "largest_fall") {
        return d.kind == ChartKind::Slope && ns == 2 && n >= 3;
    }
    // A histogram's table is its bins' counts, a box or violin plot's its
    // groups' medians: values, extremes and comparisons are read from the
    // picture; trends over groups, ratios of medians and shares are not
    // what anyone asks of a distribution.
    match d.kind {
        ChartKind::Histogram => {
            return matches!(
                family,
                "value_at"
                    | "argmax"
                    | "argmin"
                    | "max_value"
                    | "compare"
                    | "difference"
                    | "sum"
                    | "bin_range_count"
            );
        }
        ChartKind::BoxPlot | ChartKind::Violin => {
            return matches!(
                family,
                "value_at"
                    | "argmax"
                    | "argmin"
                    | "max_value"
                    | "min_value"
                    | "compare"
                    | "difference"
                    | "iqr"
            ) || family == "outlier_count" && d.kind == ChartKind::BoxPlot;
        }
        _ => {}
    }
    let circular = d.kind.is_circular();
    let line = matches!(d.kind, ChartKind::Line | ChartKind::Area);
    // A percent stack draws shares of each category's total: adding shares
    // of different totals, or a percent change of a percentage, asks nothing
    // a reader of shares would ask.
    if d.kind == ChartKind::PercentStackedBar && matches!(family, "sum" | "percent_change") {
        return false;
    }
    // An error-bar chart: its values, bounds and interval widths are read;
    // sums or trends of means are not what such a figure is for.
    if d.kind == ChartKind::ErrorBar {
        return READ_OFF.contains(&family) || family == "intervals_overlap";
    }
    // A dual-axis chart: each series' values, extremes and differences,
    // each read on its own axis; nothing adds or compares the two series,
    // which are in different units.
    if d.kind == ChartKind::DualAxis {
        return READ_OFF.contains(&family);
    }
    // A waterfall's bars are steps and its running total a sum of them:
    // values, extremes, comparisons of steps and their sum (the final
    // total) are read from it; trends, ratios or changes between steps
    // would treat steps as levels.
    if d.kind == ChartKind::Waterfall {
        return READ_OFF.contains(&family) || family == "sum";
    }
    // Quartiles, outliers, bin ranges and error bars are drawn by the
    // statistical kinds alone.
    if crate::query::dist::FAMILIES.contains(&family) {
        return false;
    }
    match family {
        "trend" => d.ordered_index() && n >= 3,
        // Between uneven times (1951, 1956, 1957) a step's change spans
        // different lengths of time: "the largest increase" would mislead.
        "largest_increase" | "largest_decrease" => {
            d.ordered_index()
                && n >= 3
                && !crate::render::uneven_time_steps(d.index_type, &d.categories)
        }
        "percent_change" => d.ordered_index(),
        "max_gap" => ns >= 2 && !circular,
        "crosses" => ns >= 2 && line,
        "share" => circular,
        "share_sum" => circular && n >= 3,
        "top_mean" | "median" | "count_above" | "count_below" => n >= 3,
        "rank" => n >= 3 && !d.ordered_index(),
        _ => true,
    }
}

/// Axis questions asked of a pie or donut, which has no axes: CharXiv asks
/// every chart its axis questions and takes "not applicable" where there is
/// no axis, and a model that invents an axis title for a pie is wrong.
pub fn asked_where_absent(family: &str, p: &PanelScene) -> bool {
    p.kind.is_circular()
        && matches!(
            family,
            "leftmost_x_tick"
                | "rightmost_x_tick"
                | "x_tick_step"
                | "x_label"
                | "lowest_y_tick"
                | "highest_y_tick"
                | "y_tick_step"
                | "y_label"
        )
}

pub fn descriptive_family_fits(family: &str, p: &PanelScene, panels: usize) -> bool {
    let circular = p.kind.is_circular();
    let series: std::collections::BTreeSet<&str> =
        p.marks.iter().map(|m| m.series.as_str()).collect();
    let heatmap = p.heatmap.is_some();
    // A slope chart's x "ticks" are its two axis headings and a radar has
    // no x or y axis: only their value ticks (slope) are asked about.
    let polar = p.kind == ChartKind::Radar;
    let slope = p.kind == ChartKind::Slope;
    if (polar || slope)
        && matches!(
            family,
            "leftmost_x_tick" | "rightmost_x_tick" | "x_tick_step" | "x_label" | "tick_count"
        )
        || polar
            && matches!(
                family,
                "lowest_y_tick" | "highest_y_tick" | "y_tick_step" | "y_label"
            )
        || p.dual_axis.is_some()
            && matches!(
                family,
                "y_tick_step" | "tick_count" | "lowest_y_tick" | "highest_y_tick" | "y_label"
            )
    {
        return false;
    }
    match family {
        // A heatmap's axes print names, not numbers; its colour bar's ticks
        // are asked about on their own.
        "x_tick_step" | "y_tick_step" | "tick_count" => !circular && !heatmap,
        "lowest_colorbar_tick" | "highest_colorbar_tick" => heatmap,
        "series_axis" => p.dual_axis.is_some(),
        // "The highest labelled tick" reads as a number: a y-axis that prints
        // names (horizontal bars, heatmaps) has a top label, not a highest tick.
        "lowest_y_tick" | "highest_y_tick" => !circular && !heatmap && !p.kind.is_horizontal(),
        "leftmost_x_tick" | "rightmost_x_tick" | "x_label" | "y_label" => !circular,
        "line_count" => p.kind == ChartKind::Line,
        "lines_intersect" => p.kind == ChartKind::Line && series.len() >= 2,
        "general_trend" => {
            matches!(
                p.kind,
                ChartKind::Line | ChartKind::Bar | ChartKind::Lollipop
            ) && series.len() == 1
        }
        "subplot_layout" | "subplot_count" => panels > 1,
        // Chosen with a tile caption by the generator, not here.
        "kpi_value" => false,
        _ => true,
    }
}

/// Values that are the shares of one whole: they add up to 100 and are
/// percentages, shares, or a pie's slices.
fn parts_of_a_whole(kind: ChartKind, series: &crate::query::SeriesData, values: &[f64]) -> bool {
    let total: f64 = values.iter().sum();
    let name = series.name.to_lowercase();
    let percent = series.format.suffix.as_deref() == Some("%")
        || ["share", "percent", "%", "proportion"]
            .iter()
            .any(|w| name.contains(w));
    (total - 100.0).abs() <= 1.0 && (percent || kind.is_circular())
}

fn one<'a, T>(rng: &mut Xoshiro256PlusPlus, items: &'a [T]) -> &'a T {
    &items[rng.random_range(0..items.len())]
}

/// Two distinct indices in increasing order.
fn two(rng: &mut Xoshiro256PlusPlus, n: usize) -> (usize, usize) {
    let i = rng.random_range(0..n);
    let mut j = rng.random_range(0..n - 1);
    if j >= i {
        j += 1;
    }
    (i.min(j), i.max(j))
}

/// The categories (of `n`) whose labels can stand in a list: "Delhi,
/// Madrid and Warsaw" parses, "Museums and Institutions and Individual &
/// Family Services" does not.
fn listable(n: usize, cat: &dyn Fn(usize) -> String) -> Vec<usize> {
    (0..n)
        .filter(|&i| {
            let label = cat(i);
            !(label.contains(" and ") || label.contains('&') || label.contains(','))
        })
        .collect()
}

/// Whether a total of the series' values is a quantity: not of rates,
/// prices, averages or percentages, whether the series' name or the value
/// axis' title says so ("Homicide rate" over countries, "Percent" over
/// unemployment and inflation, "Customer rating").
fn summable(s: &crate::query::SeriesData, value_title: Option<&str>) -> bool {
    let says_non_additive = |text: &str| {
        let lower = text.to_lowercase();
        crate::spec::mentions_non_additive(text)
            || lower.contains("percent")
            || lower.contains('%')
            || lower.contains("rating")
            || per_other_than_time(&lower)
    };
    !says_non_additive(&s.name)
        && !value_title.is_some_and(says_non_additive)
        && !s.format.suffix.as_deref().is_some_and(|x| x.contains('%'))
}

/// A ratio of two amounts ("units per euro", "sales per store") adds up
/// to nothing; a flow per period ("visitors per year") adds up across places.
fn per_other_than_time(lower: &str) -> bool {
    const PERIODS: [&str; 8] = [
        "year", "annum", "month", "quarter", "week", "day", "hour", "minute",
    ];
    lower.match_indices(" per ").any(|(at, w)| {
        let next = lower[at + w.len()..]
            .split_whitespace()
            .next()
            .unwrap_or("");
        !PERIODS
            .iter()
            .any(|p| next.trim_end_matches(|c: char| !c.is_alphabetic()) == *p)
    })
}

fn subset(rng: &mut Xoshiro256PlusPlus, n: usize, k: usize) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    for i in 0..k.min(n) {
        let j = rng.random_range(i..n);
        idx.swap(i, j);
    }
    let mut chosen = idx[..k.min(n)].to_vec();
    chosen.sort();
    chosen
}

/// Decimals an average is asked to: one more than whole numbers need, except
/// for large whole amounts ("$1,043,942,857.1" is nobody's question), and
/// never more than [`capped_decimals`] allows for the values' magnitude (at
/// most 4, or three significant digits of values all below 0.01, at most 6).
fn average_decimals(series_decimals: u8, values: &[f64]) -> u8 {
    let magnitude = values
        .iter()
        .filter(|v| v.is_finite())
        .fold(0f64, |m, v| m.max(v.abs()));
    if series_decimals == 0 && magnitude >= 1000.0 {
        0
    } else {
        capped_decimals(series_decimals.max(1), magnitude)
    }
}

/// A threshold between two neighbouring distinct values, as round as the
/// middle half of their gap allows ("above 2,000,000,000", not "above
/// 1998405772": people ask with round numbers), else their midpoint at the
/// series' decimals.
fn threshold(rng: &mut Xoshiro256PlusPlus, values: &[f64], decimals: u8) -> Option<f64> {
    let mut v: Vec<f64> = values.to_vec();
    v.sort_by(f64::total_cmp);
    v.dedup();
    if v.len() < 2 {
        return None;
    }
    let i = rng.random_range(0..v.len() - 1);
    let (lo, hi) = (v[i], v[i + 1]);
    let quarter = (hi - lo) / 4.0;
    if let Some(t) = roundest_between(lo + quarter, hi - quarter, decimals) {
        return Some(t);
    }
    let mid = (lo + hi) / 2.0;
    let scale = 10f64.powi(i32::from(decimals));
    let t = (mid * scale).round() / scale;
    (t > lo && t < hi).then_some(t)
}

/// The number in [lo, hi] with the fewest significant digits: a multiple of
/// 10ᵉ for the largest e, else of 5·10ᵉ⁻¹, else of 2·10ᵉ⁻¹; no finer than
/// `decimals`.
fn roundest_between(lo: f64, hi: f64, decimals: u8) -> Option<f64> {
    if !(lo.is_finite() && hi.is_finite()) || lo > hi {
        return None;
    }
    let finest = -i32::from(decimals);
    let top = lo.abs().max(hi.abs()).max(1e-12).log10().floor() as i32 + 1;
    for e in (finest..=top.max(finest)).rev() {
        let unit = 10f64.powi(e);
        let steps: &[f64] = if e > finest {
            &[unit, unit / 2.0, unit / 5.0]
        } else {
            &[unit]
        };
        for &step in steps {
            let t = (lo / step).ceil() * step;
            if t <= hi {
                // Printed at `decimals`, the multiple must not drift.
                let scale = 10f64.powi(i32::from(decimals));
                return Some((t * scale).round() / scale);
            }
        }
    }
    None
}

pub fn data_query(
    family: &str,
    panel: usize,
    d: &PanelData,
    read: &Reading,
    rng: &mut Xoshiro256PlusPlus,
) -> Option<Query> {
    if !data_family_fits(family, d) {
        return None;
    }
    if crate::query::dist::FAMILIES.contains(&family) {
        return crate::query::dist::pick(family, panel, d, read, rng);
    }
    // Only categories whose label is printed and series a reader can name
    // are asked about; with every label printed the draws are unchanged.
    let rows: Vec<usize> = (0..d.categories.len())
        .filter(|i| read.category_printed(&d.categories[*i]))
        .collect();
    let named: Vec<usize> = (0..d.series.len())
        .filter(|i| read.series_named(&d.series[*i].name))
        .collect();
    let n = rows.len();
    if n == 0 || named.is_empty() {
        return None;
    }
    // On a waterfall only value questions ask for the running total (after
    // a step, or the final total); every other family asks about the steps.
    let waterfall = d.kind == ChartKind::Waterfall;
    let named: Vec<usize> = if waterfall && family != "value_at" {
        named
            .into_iter()
            .filter(|i| d.series[*i].name != crate::spec::waterfall::RUNNING_TOTAL)
            .collect()
    } else {
        named
    };
    // On an error-bar chart value questions ask for the value or a bound,
    // "which group" questions for the value or the widest (narrowest)
    // interval, the rest about the value alone.
    let error_bars = d.kind == ChartKind::ErrorBar;
    let named: Vec<usize> = if error_bars {
        use crate::spec::error_bar::{LOWER, UPPER, WIDTH};
        named
            .into_iter()
            .filter(|i| {
                let n = d.series[*i].name.as_str();
                match family {
                    "value_at" => n != WIDTH,
                    "argmax" | "argmin" => n != LOWER && n != UPPER,
                    _ => *i == 0,
                }
            })
            .collect()
    } else {
        named
    };
    if named.is_empty() {
        return None;
    }
    let s = &d.series[*one(rng, &named)];
    let name = s.name.clone();
    let cat = |i: usize| d.categories[rows[i]].clone();
    // Cells of two series in different units are never compared.
    let dual = d.kind == ChartKind::DualAxis;
    let multi = named.len() >= 2 && !d.kind.is_circular() && !waterfall && !error_bars && !dual;
    let cells = |rng: &mut Xoshiro256PlusPlus| -> Option<(CellRef, CellRef)> {
        if multi && rng.random_bool(0.4) {
            let (i, j) = two(rng, named.len());
            let c = cat(rng.random_range(0..n));
            Some((
                CellRef {
                    series: d.series[named[i]].name.clone(),
                    category: c.clone(),
                },
                CellRef {
                    series: d.series[named[j]].name.clone(),
                    category: c,
                },
            ))
        } else if n >= 2 {
            // "between Food and Tobacco and Personal Care" cannot be parsed:
            // names without "and" where there are two of them.
            let listed = listable(n, &cat);
            let pool: Vec<usize> = if listed.len() >= 2 {
                listed
            } else {
                (0..n).collect()
            };
            let (i, j) = two(rng, pool.len());
            // Later category first, as in "between 2020 and 2018".
            Some((
                CellRef {
                    series: name.clone(),
                    category: cat(pool[j]),
                },
                CellRef {
                    series: name.clone(),
                    category: cat(pool[i]),
                },
            ))
        } else {
            None
        }
    };
    let values: Vec<f64> = s.values.iter().flatten().copied().collect();
    Some(match family {
        "value_at" => Query::ValueAt {
            panel,
            series: name,
            category: cat(rng.random_range(0..n)),
        },
        // Always for a named series: over several series "the highest value"
        // leaves the reader to guess which one is meant.
        "argmax" | "argmin" | "max_value" | "min_value" => {
            // "Which company has the lowest share?" is not answered by
            // "Others": a remainder bucket is no company.
            if family.starts_with("arg") {
                let top = family == "argmax";
                let extreme = s
                    .values
                    .iter()
                    .enumerate()
                    .filter_map(|(i, v)| v.map(|v| (i, v)))
                    .reduce(|a, b| {
                        let beats = if top { b.1 > a.1 } else { b.1 < a.1 };
                        if beats { b } else { a }
                    });
                if extreme.is_some_and(|(i, _)| d.categories.get(i).is_some_and(|c| remainder(c))) {
                    return None;
                }
            }
            let series = Some(name);
            match family {
                "argmax" => Query::Argmax { panel, series },
                "argmin" => Query::Argmin { panel, series },
                "max_value" => Query::MaxValue { panel, series },
                _ => Query::MinValue { panel, series },
            }
        }
        "difference" => {
            let (a, b) = cells(rng)?;
            let value = |c: &CellRef| {
                d.series(&c.series)
                    .zip(d.row(&c.category))
                    .and_then(|(s, r)| s.values[r])
            };
            // Larger minus smaller, the only order the executor answers.
            let (a, b) = if value(&a) >= value(&b) {
                (a, b)
            } else {
                (b, a)
            };
            Query::Difference { panel, a, b }
        }
        "ratio" => {
            let (a, b) = cells(rng)?;
            Query::Ratio {
                panel,
                a,
                b,
                decimals: 2,
            }
        }
        "compare" => {
            let (a, b) = cells(rng)?;
            if rng.random_bool(0.5) {
                Query::Compare { panel, a, b }
            } else {
                Query::Compare { panel, a: b, b: a }
            }
        }
        "percent_change" if n >= 2 => {
            // A change runs forward in time: from the earlier period.
            let (i, j) = two(rng, n);
            let (i, j) = if d.ordered_index() {
                (i.min(j), i.max(j))
            } else {
                (i, j)
            };
            Query::PercentChange {
                panel,
                series: name,
                from: cat(i),
                to: cat(j),
                decimals: 1,
            }
        }
        "sum" | "mean" | "median" => {
            // The total of a whole's parts is 100 % before anyone looks at
            // the chart: ask for a few of the parts instead, or nothing.
            let whole = family == "sum" && parts_of_a_whole(d.kind, s, &values);
            if whole && n < 3 {
                return None;
            }
            // A total of medians, rates or percentages of different wholes
            // is no quantity anyone asks for.
            if family == "sum" && !whole && !summable(s, d.value_title.as_deref()) {
                return None;
            }
            let categories = if whole || n >= 4 && rng.random_bool(0.3) {
                // The median of two values is their mean: nobody asks it so.
                let fewest = if family == "median" { 3 } else { 2 };
                let listed = listable(n, &cat);
                if n - 1 < fewest || listed.len() < fewest {
                    return None;
                }
                let k = rng.random_range(fewest..=3.min(n - 1).min(listed.len()));
                // Over time, consecutive periods ("2018, 2019 and 2020"):
                // three scattered quarters read as a puzzle.
                let picked = if d.ordered_index() {
                    let start = rng.random_range(0..=listed.len() - k);
                    (start..start + k).collect()
                } else {
                    subset(rng, listed.len(), k)
                };
                picked.into_iter().map(|j| cat(listed[j])).collect()
            } else {
                Vec::new()
            };
            let agg = match family {
                "sum" => AggregateOp::Sum,
                "mean" => AggregateOp::Mean,
                _ => AggregateOp::Median,
            };
            let decimals =
                (agg != AggregateOp::Sum).then_some(average_decimals(s.format.decimals, &values));
            Query::Aggregate {
                panel,
                agg,
                series: name,
                categories,
                decimals,
            }
        }
        "count_above" | "count_below" => Query::CountThreshold {
            panel,
            series: name,
            // Diverging bars ask, as often as not, how many lie on each
            // side of their zero line.
            threshold: if d.kind == ChartKind::DivergingBar
                && values.iter().all(|v| *v != 0.0)
                && rng.random_bool(0.5)
            {
                0.0
            } else {
                threshold(rng, &values, s.format.decimals)?
            },
            above: family == "count_above",
        },
        // People ask where one of the leaders stands ("Which place is
        // Spain in?"), not that a year "ranks 14th": an outside reader found
        // both stilted.
        "rank" => {
            let value = |i: usize| s.values.get(rows[i]).copied().flatten();
            let leaders: Vec<usize> = (0..n)
                .filter(|&i| {
                    value(i).is_some_and(|v| {
                        (0..n).filter(|&j| value(j).is_some_and(|w| w > v)).count() < 5
                    })
                })
                .collect();
            if leaders.is_empty() {
                return None;
            }
            Query::Rank {
                panel,
                series: name,
                category: cat(*one(rng, &leaders)),
            }
        }
        "trend" => Query::Trend {
            panel,
            series: name,
        },
        "largest_increase" | "largest_decrease" => Query::LargestChange {
            panel,
            series: name,
            increase: family == "largest_increase",
        },
        // From the left column to the right one, as the segments run.
        "largest_rise" | "largest_fall" if named.len() == 2 => Query::SlopeChange {
            panel,
            from: d.series[0].name.clone(),
            to: d.series[1].name.clone(),
            rise: family == "largest_rise",
        },
        "max_gap" | "crosses" if named.len() >= 2 => {
            let (i, j) = two(rng, named.len());
            let (a, b) = (
                d.series[named[i]].name.clone(),
                d.series[named[j]].name.clone(),
            );
            if family == "max_gap" {
                Query::MaxGap { panel, a, b }
            } else {
                Query::Crosses { panel, a, b }
            }
        }
        "share" => Query::Share {
            panel,
            series: name,
            category: cat(rng.random_range(0..n)),
            decimals: 1,
        },
        "share_sum" if n >= 3 => {
            let listed = listable(n, &cat);
            if listed.len() < 2 {
                return None;
            }
            let k = rng.random_range(2..=3.min(n - 1).min(listed.len()));
            Query::ShareSum {
                panel,
                series: name,
                categories: subset(rng, listed.len(), k)
                    .into_iter()
                    .map(|j| cat(listed[j]))
                    .collect(),
                decimals: 1,
            }
        }
        "spread" => Query::Spread {
            panel,
            series: name,
        },
        "top_mean" if d.categories.len() >= 3 => Query::TopMean {
            panel,
            series: name,
            k: rng.random_range(2..=3.min(d.categories.len() - 1)),
            decimals: average_decimals(s.format.decimals, &values),
        },
        _ => return None,
    })
}

pub fn descriptive_query(family: &str, panel: usize) -> Option<Query> {
    Some(match family {
        "title" => Query::Title { panel },
        "x_label" => Query::AxisLabel {
            panel,
            axis: Axis::X,
        },
        "y_label" => Query::AxisLabel {
            panel,
            axis: Axis::Y,
        },
        "leftmost_x_tick" => Query::EdgeTick {
            panel,
            axis: Axis::X,
            last: false,
        },
        "rightmost_x_tick" => Query::EdgeTick {
            panel,
            axis: Axis::X,
            last: true,
        },
        "lowest_y_tick" => Query::EdgeTick {
            panel,
            axis: Axis::Y,
            last: false,
        },
        "highest_y_tick" => Query::EdgeTick {
            panel,
            axis: Axis::Y,
            last: true,
        },
        "x_tick_step" => Query::TickStep {
            panel,
            axis: Axis::X,
        },
        "y_tick_step" => Query::TickStep {
            panel,
            axis: Axis::Y,
        },
        "line_count" => Query::LineCount { panel },
        "lines_intersect" => Query::LinesIntersect { panel },
        "legend_count" => Query::LegendCount { panel },
        "legend_labels" => Query::LegendLabels { panel },
        "general_trend" => Query::GeneralTrend { panel },
        "tick_count" => Query::TickCount { panel },
        "lowest_colorbar_tick" => Query::ColorbarTick { panel, last: false },
        "highest_colorbar_tick" => Query::ColorbarTick { panel, last: true },
        "subplot_layout" => Query::SubplotLayout,
        "subplot_count" => Query::SubplotCount,
        "source" => Query::Source { panel },
        "subtitle" => Query::Subtitle { panel },
        "note" => Query::Note { panel },
        "reference_value" => Query::ReferenceValue { panel },
        "highlighted" => Query::Highlighted { panel },
        "shaded_period" => Query::ShadedPeriod { panel },
        "callout_target" => Query::CalloutTarget { panel },
        _ => return None,
    })
}

#[cfg(test)]
mod average_tests {
    #[test]
    fn large_whole_amounts_average_to_whole_numbers() {
        assert_eq!(
            super::average_decimals(0, &[1_482_300_000.0, 98_450_000.0]),
            0
        );
        assert_eq!(super::average_decimals(0, &[12.0, 30.0]), 1);
        assert_eq!(super::average_decimals(2, &[1500.25]), 2);
    }

    #[test]
    fn averages_never_ask_for_more_than_the_cap() {
        // Real data printed with 16 decimals: four, not sixteen.
        assert_eq!(super::average_decimals(16, &[0.1234567890123456, 0.5]), 4);
        assert_eq!(super::average_decimals(4, &[1.0905, 1.2704]), 4);
        // Values all below 0.01 keep three significant digits.
        assert_eq!(super::average_decimals(16, &[0.0012, 0.0049]), 5);
        assert_eq!(super::average_decimals(16, &[1e-9]), 6);
        assert_eq!(super::average_decimals(0, &[0.0, 0.0]), 1);
    }
}

#[cfg(test)]
mod summable_tests {
    use crate::ir::NumberFormat;
    use crate::query::SeriesData;

    #[test]
    fn totals_of_rates_and_percentages_are_not_asked() {
        let series = |name: &str| SeriesData {
            name: name.into(),
            values: vec![Some(1.0), Some(2.0)],
            format: NumberFormat::default(),
        };
        assert!(super::summable(
            &series("Exports"),
            Some("Exports (US$ bn)")
        ));
        assert!(super::summable(
            &series("Brazil"),
            Some("Visitors (thousands)")
        ));
        assert!(super::summable(
            &series("Brazil"),
            Some("Visitors per year")
        ));
        for (name, title) in [
            ("Brazil", Some("Homicide rate")),
            ("Unemployment", Some("Percent")),
            ("China", Some("Life expectancy (years)")),
            ("Acme Vacuum", Some("Customer rating")),
            ("Inflation rate", None),
            ("ITL", Some("Units per euro")),
            ("North", Some("Sales per store (US$)")),
            ("Voter turnout", None),
        ] {
            assert!(!super::summable(&series(name), title), "{name} / {title:?}");
        }
    }
}

#[cfg(test)]
mod uneven_time_tests {
    use crate::ir::{ChartKind, ColumnType, NumberFormat};
    use crate::query::{PanelData, SeriesData};

    fn panel(index_type: ColumnType, categories: &[&str]) -> PanelData {
        PanelData {
            kind: ChartKind::Line,
            categories: categories.iter().map(|c| c.to_string()).collect(),
            index_type,
            series: vec![SeriesData {
                name: "v".into(),
                values: (0..categories.len()).map(|i| Some(i as f64)).collect(),
                format: NumberFormat::default(),
            }],
            hidden: Vec::new(),
            value_title: None,
        }
    }

    #[test]
    fn largest_step_changes_are_asked_only_over_even_times() {
        let fits = |d: &PanelData| super::data_family_fits("largest_increase", d);
        assert!(fits(&panel(ColumnType::Year, &["1950", "1951", "1952"])));
        // 1951 → 1956 spans five years, 1956 → 1957 one.
        assert!(!fits(&panel(ColumnType::Year, &["1951", "1956", "1957"])));
        assert!(!fits(&panel(
            ColumnType::Date,
            &["2020-01", "2020-02", "2020-06"]
        )));
        // The trend over the whole period is fine either way.
        assert!(super::data_family_fits(
            "trend",
            &panel(ColumnType::Year, &["1951", "1956", "1957"])
        ));
    }
}

#[cfg(test)]
mod threshold_tests {
    use super::roundest_between;

    #[test]
    fn thresholds_are_as_round_as_the_gap_allows() {
        assert_eq!(
            roundest_between(1_950_000_000.0, 2_050_000_000.0, 0),
            Some(2e9)
        );
        assert_eq!(roundest_between(12.3, 12.9, 1), Some(12.5));
        assert_eq!(roundest_between(12.31, 12.34, 1), None);
        assert_eq!(roundest_between(-3.0, 4.0, 0), Some(0.0));
        assert_eq!(roundest_between(41.2, 47.9, 0), Some(45.0));
        assert_eq!(roundest_between(3.61, 3.79, 2), Some(3.7));
    }
}

/// A category that holds what the others leave ("Others", "Rest of world",
/// "All other"), not one of their kind.
fn remainder(category: &str) -> bool {
    let lower = category.trim().to_lowercase();
    let first = lower.split_whitespace().next().unwrap_or("");
    matches!(
        first,
        "other" | "others" | "remainder" | "misc" | "misc." | "miscellaneous"
    ) || lower.starts_with("rest of ")
        || lower.starts_with("all other")
}

#[cfg(test)]
mod remainder_tests {
    #[test]
    fn remainder_buckets_are_told_from_their_kind() {
        for c in [
            "Others",
            "Other",
            "Rest of world",
            "All other",
            "Miscellaneous",
            "other causes",
        ] {
            assert!(super::remainder(c), "{c}");
        }
        for c in ["Otherton", "Apple", "Restaurants"] {
            assert!(!super::remainder(c), "{c}");
        }
    }
}
