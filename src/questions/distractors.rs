//! Plausible wrong answers: neighbouring values, other categories, the
//! off-by-one year, the other series' value, a unit misread. Every distractor
//! is clearly wrong (beyond the false-claim gap), so options never tie.

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::ir::query::Query;
use crate::ir::{Answer, Scene};
use crate::query::trend::TrendShape;
use crate::query::wrappers::states;
use crate::query::{PanelData, display_number};

/// The answer as an option or claim prints it (numbers with their unit).
pub fn display_answer(answer: &Answer) -> String {
    match answer {
        Answer::Number {
            value,
            decimals,
            unit,
        } => {
            let mut f = format_for(unit.as_deref());
            f.thousands = value.abs() >= 10_000.0;
            display_number(*value, *decimals, &f)
        }
        other => other.to_text(),
    }
}

pub fn format_for(unit: Option<&str>) -> crate::ir::NumberFormat {
    let mut f = crate::ir::NumberFormat::default();
    match unit {
        Some(u) if ["$", "€", "£", "¥"].contains(&u) => f.prefix = Some(u.to_string()),
        Some("%") => f.suffix = Some("%".into()),
        Some(u) => f.suffix = Some(format!(" {u}")),
        None => {}
    }
    f
}

/// Wrong values for a number: values of comparable size from the chart, and
/// the truth scaled by seeded factors. No fixed factors: an option exactly
/// ten, two or 1.2 times another tells a reader which one the others were
/// built from.
fn number_candidates(
    value: f64,
    decimals: u8,
    data: Option<&PanelData>,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<f64> {
    let mut out: Vec<f64> = Vec::new();
    if let Some(d) = data {
        // Values from the chart of a comparable size: a rent of 2,500 is not
        // confused with an income of 71,673.
        let comparable =
            |v: f64| value == 0.0 || (v / value).abs() <= 5.0 && (v / value).abs() >= 0.2;
        for s in &d.series {
            out.extend(
                s.values
                    .iter()
                    .flatten()
                    .copied()
                    .filter(|v| comparable(*v)),
            );
        }
    }
    // One draw per band, so the options below and above the truth are as
    // many and as spread out: when one side runs short the truth lands in
    // the middle of the options, which a guesser learns.
    for (lo, hi) in [
        (0.3, 0.42),
        (0.42, 0.54),
        (0.54, 0.66),
        (0.66, 0.77),
        (0.77, 0.88),
    ] {
        out.push(value * rng.random_range(lo..hi));
    }
    for (lo, hi) in [
        (1.13, 1.3),
        (1.3, 1.5),
        (1.5, 1.75),
        (1.75, 2.05),
        (2.05, 2.4),
    ] {
        out.push(value * rng.random_range(lo..hi));
    }
    let step = 10f64.powi(-i32::from(decimals));
    if value.abs() < step * 5.0 {
        for _ in 0..3 {
            out.push(step * f64::from(rng.random_range(6u8..40)));
        }
    }
    // A sign slip is plausible only where the chart has negative values.
    let has_negative = data.is_some_and(|d| {
        d.series
            .iter()
            .flat_map(|s| s.values.iter().flatten())
            .any(|v| *v < 0.0)
    });
    if has_negative {
        out.push(-value);
        out.push(-value * rng.random_range(0.6..1.5));
    }
    // Rounded in decimal, as the option will print; never the truth misread
    // by a factor of ten, which the pair would tell.
    let tenfold = |v: f64| value != 0.0 && [10.0, 0.1].iter().any(|k| (v / value - k).abs() < 1e-9);
    out.into_iter()
        .map(|v| crate::ir::decimal::round_f64(v, decimals))
        .filter(|v| !tenfold(*v))
        .collect()
}

/// The range a wrong option must stay in to be plausible: shares of a whole
/// within 0–100 % unless the chart itself leaves that range; None when
/// anything goes (a percentage change can be −80 % or +250 %).
/// Every value the panel draws, all series together.
fn chart_values(data: &PanelData) -> Vec<f64> {
    data.series
        .iter()
        .flat_map(|s| s.values.iter().flatten().copied())
        .collect()
}

/// Where a false claim about a plotted value (a value, the highest, the
/// lowest) may lie: on the chart's scale, half the span of its values beyond
/// either end at most ("10.99" is false at a glance on a chart of 2.4 to
/// 8.1). Options are left to the guessing balance, which needs them spread.
fn plotted_range(query: &Query, data: Option<&PanelData>) -> Option<(f64, f64)> {
    if !matches!(
        query,
        Query::ValueAt { .. } | Query::MaxValue { .. } | Query::MinValue { .. }
    ) {
        return None;
    }
    let values = chart_values(data?);
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let slack = 0.5 * (hi - lo);
    (lo.is_finite() && hi.is_finite() && slack > 0.0).then_some((lo - slack, hi + slack))
}

fn plausible_range(answer: &Answer, query: &Query, data: Option<&PanelData>) -> Option<(f64, f64)> {
    let Answer::Number { value, unit, .. } = answer else {
        return None;
    };
    if unit.as_deref() != Some("%") || matches!(query, Query::PercentChange { .. }) {
        return None;
    }
    let chart_values = data.map(chart_values).unwrap_or_default();
    let within = |v: &f64| (0.0..=100.0).contains(v);
    (within(value) && chart_values.iter().all(within)).then_some((0.0, 100.0))
}

/// The years a year answer may be confused with: the chart's own years, or
/// neighbours of the truth inside the chart's span. A year outside the
/// chart is a giveaway.
fn year_candidates(value: i32, data: Option<&PanelData>) -> Vec<String> {
    let chart_years: Vec<i32> = data
        .map(|d| {
            d.categories
                .iter()
                .filter_map(|c| c.trim().parse::<i32>().ok())
                .filter(|y| (1000..=2999).contains(y))
                .collect()
        })
        .unwrap_or_default();
    let (Some(first), Some(last)) = (chart_years.iter().min(), chart_years.iter().max()) else {
        return [1, -1, 2, -2, 3, -3]
            .iter()
            .map(|d| (value + d).to_string())
            .collect();
    };
    let mut out: Vec<String> = chart_years.iter().map(i32::to_string).collect();
    out.extend(
        (-3..=3)
            .map(|d| value + d)
            .filter(|y| (*first..=*last).contains(y))
            .map(|y| y.to_string()),
    );
    out
}

/// `text` with its last year (a 4-digit 19xx or 20xx standing alone) moved
/// by one to three years either way; empty without one.
fn redated(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let digit = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_digit);
    let Some(at) = (0..bytes.len().saturating_sub(3)).rev().find(|&i| {
        (i..i + 4).all(digit)
            && !(i > 0 && digit(i - 1))
            && !digit(i + 4)
            && matches!(&text[i..i + 2], "19" | "20")
    }) else {
        return Vec::new();
    };
    let Ok(year) = text[at..at + 4].parse::<i32>() else {
        return Vec::new();
    };
    [-3, -2, -1, 1, 2, 3]
        .iter()
        .map(|d| format!("{}{}{}", &text[..at], year + d, &text[at + 4..]))
        .collect()
}

fn text_candidates(query: &Query, data: Option<&PanelData>, scene: &Scene) -> Vec<String> {
    let mut out = Vec::new();
    match query {
        Query::Trend { .. } | Query::GeneralTrend { .. } => {
            out.extend(TrendShape::ALL.iter().map(|t| t.label().to_string()));
        }
        Query::SubplotLayout => {
            let (r, c) = scene.grid;
            out.extend([
                format!("{c} by {r}"),
                format!("{} by {c}", r + 1),
                format!("{r} by {}", c + 1),
                format!("{} by {}", r.max(2) - 1, c + 1),
            ]);
        }
        // A wrong title is another title or subtitle, a wrong axis label the
        // other axis's label: never a tick value ("The label of the y-axis
        // is 80,000" fools nobody), nor "The title is Year", false at a
        // glance, nor "Not Applicable" when the chart plainly has one. A
        // lone chart's title has no such neighbour, so no wrong option.
        Query::Title { .. } => {
            for p in &scene.panels {
                out.extend(p.title.iter().map(|t| t.text.clone()));
                out.extend(p.subtitle.iter().map(|t| t.text.clone()));
            }
        }
        Query::AxisLabel { .. } => {
            for p in &scene.panels {
                out.extend(p.x_label.iter().map(|t| t.text.clone()));
                out.extend(p.y_label.iter().map(|t| t.text.clone()));
            }
        }
        // A wrong source is the same source dated another year: another
        // line of the chart's prose ("the source of the data is Figures are
        // rounded.") read as nonsense to outside readers. A source without a
        // year has no wrong form.
        Query::Source { .. } => {
            for t in &scene.extra_text {
                if let Some(source) = t.text.strip_prefix("Source: ") {
                    out.extend(redated(source));
                }
            }
        }
        // A wrong subtitle or note is another line of the chart's prose
        // (its title, subtitle, note or source line), never an axis title or
        // a tick.
        Query::Subtitle { .. } | Query::Note { .. } => {
            for p in &scene.panels {
                out.extend(p.title.iter().map(|t| t.text.clone()));
                out.extend(p.subtitle.iter().map(|t| t.text.clone()));
            }
            out.extend(scene.extra_text.iter().map(|t| {
                let text = t.text.as_str();
                ["Note: ", "Source: "]
                    .iter()
                    .find_map(|p| text.strip_prefix(p))
                    .unwrap_or(text)
                    .to_string()
            }));
        }
        // A wrong tick is another tick of the same axis.
        Query::EdgeTick { panel, axis, .. } => {
            for p in scene.panels.iter().filter(|p| p.index == *panel) {
                let ticks = match axis {
                    crate::ir::query::Axis::X => &p.x_ticks,
                    crate::ir::query::Axis::Y => &p.y_ticks,
                };
                out.extend(ticks.iter().map(|t| t.label.clone()));
            }
        }
        // A wrong colour bar tick is another of its ticks.
        Query::ColorbarTick { panel, .. } => {
            for p in scene.panels.iter().filter(|p| p.index == *panel) {
                out.extend(
                    p.heatmap
                        .iter()
                        .flat_map(|h| &h.colorbar.ticks)
                        .map(|t| t.label.clone()),
                );
            }
        }
        // The other side is the one wrong answer.
        Query::SeriesAxis { .. } => out.extend(["left".to_string(), "right".to_string()]),
        Query::LegendLabels { .. } => {
            for p in &scene.panels {
                out.extend(p.legend.iter().map(|e| e.label.clone()));
            }
        }
        _ => {
            // Other categories of the same axis (a series name would be a different kind).
            if let Some(d) = data {
                out.extend(d.categories.iter().cloned());
            }
        }
    }
    out
}

/// The step between neighbouring printed ticks of the axis an edge-tick
/// question asks about.
fn tick_step_of(query: &Query, scene: &Scene) -> Option<f64> {
    let Query::EdgeTick { panel, axis, .. } = query else {
        return None;
    };
    let p = scene.panels.iter().find(|p| p.index == *panel)?;
    let ticks = match axis {
        crate::ir::query::Axis::X => &p.x_ticks,
        crate::ir::query::Axis::Y => &p.y_ticks,
    };
    let mut values: Vec<f64> = ticks.iter().filter_map(|t| t.value).collect();
    values.sort_by(f64::total_cmp);
    values
        .windows(2)
        .map(|w| w[1] - w[0])
        .filter(|d| *d > 0.0)
        .min_by(f64::total_cmp)
}

fn is_count(query: &Query) -> bool {
    matches!(
        query,
        Query::CountThreshold { .. }
            | Query::Rank { .. }
            | Query::LineCount { .. }
            | Query::LegendCount { .. }
            | Query::TickCount { .. }
            | Query::SubplotCount
            | Query::OutlierCount { .. }
    )
}

/// Share of the panel's largest magnitude that separates a wrong reading from
/// the true one: 1 vs 2 on an axis that runs to 336 look the same.
const READABLE_SHARE: f64 = 0.03;

/// Smallest distance between a wrong option and the truth for answers read off
/// the value axis (values, extremes, differences, aggregates); None for derived
/// quantities (ratios, percentages, counts) whose scale is not the axis.
fn readable_gap(answer: &Answer, query: &Query, data: Option<&PanelData>) -> Option<f64> {
    let on_axis = matches!(
        query,
        Query::ValueAt { .. }
            | Query::MaxValue { .. }
            | Query::MinValue { .. }
            | Query::Difference { .. }
            | Query::Spread { .. }
            | Query::Aggregate { .. }
            | Query::TopMean { .. }
    );
    if !on_axis || !matches!(answer, Answer::Number { .. }) {
        return None;
    }
    let scale = data?
        .series
        .iter()
        .flat_map(|s| s.values.iter().flatten())
        .fold(0f64, |m, v| m.max(v.abs()));
    (scale > 0.0).then_some(READABLE_SHARE * scale)
}

/// Up to `n` distinct wrong options, most plausible first, shuffled by `rng`.
/// As the options of a choice item (`as_options`), a number's wrong values
/// also leave its rank among them to chance, or there are none.
pub fn distractors(
    answer: &Answer,
    query: &Query,
    data: Option<&PanelData>,
    scene: &Scene,
    n: usize,
    as_options: bool,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<String> {
    let mut pool: Vec<String> = match answer {
        // A wrong tick step is another step an axis would use (half, double,
        // five times): "13" on an axis of tens is false at a glance.
        // Printed as the truth is (thousands separators from 10,000): a
        // truth alone in "2,500,000" among "12500000" and "500000" stood out.
        Answer::Number {
            value,
            decimals,
            unit,
        } if matches!(query, Query::TickStep { .. }) => [0.2, 0.4, 0.5, 2.0, 2.5, 5.0]
            .iter()
            .map(|k| value * k)
            .filter(|v| *v > 0.0)
            .map(|v| {
                // One more decimal than the truth, trailing zeros dropped.
                let places = *decimals + 1;
                let scale = 10f64.powi(i32::from(places));
                let rounded = (v * scale).round() / scale;
                display_answer(&Answer::Number {
                    value: v,
                    decimals: crate::realize::slots::decimals_of(rounded).min(places),
                    unit: unit.clone(),
                })
            })
            .collect(),
        // A wrong edge tick is a tick the axis could print: the truth moved
        // by whole steps of the axis ("15,000" or "25,000" beside "20,000"),
        // never a stray number no axis would print.
        Answer::Number {
            value,
            decimals,
            unit,
        } if matches!(query, Query::EdgeTick { .. }) => {
            let step = tick_step_of(query, scene).unwrap_or(value.abs().max(1.0));
            [-3.0, -2.0, -1.0, 1.0, 2.0, 3.0]
                .iter()
                .map(|k| value + k * step)
                .map(|v| {
                    let mut f = format_for(unit.as_deref());
                    f.thousands = value.abs() >= 10_000.0;
                    display_number(v, *decimals, &f)
                })
                .collect()
        }
        Answer::Number { value, .. } if is_count(query) => {
            // Counts and ranks: nearby whole numbers, never negative (ranks start at 1).
            let lowest = if matches!(query, Query::Rank { .. }) {
                1.0
            } else {
                0.0
            };
            [1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 4.0]
                .iter()
                .map(|d| value + d)
                .filter(|v| *v >= lowest)
                .map(|v| crate::ir::answer::format_number(v, 0))
                .collect()
        }
        Answer::Number {
            value,
            decimals,
            unit,
        } => {
            let mut f = format_for(unit.as_deref());
            f.thousands = value.abs() >= 10_000.0;
            let range = plausible_range(answer, query, data)
                .or_else(|| (!as_options).then(|| plotted_range(query, data)).flatten());
            number_candidates(*value, *decimals, data, rng)
                .into_iter()
                .filter(|v| range.is_none_or(|(lo, hi)| (lo..=hi).contains(v)))
                .map(|v| display_number(v, *decimals, &f))
                .collect()
        }
        Answer::Year { value } => year_candidates(*value, data),
        Answer::List { values } => {
            let mut v = Vec::new();
            let mut r = values.clone();
            r.reverse();
            v.push(r.join(", "));
            for k in 1..values.len() {
                let mut rot = values.clone();
                rot.rotate_left(k);
                v.push(rot.join(", "));
            }
            if values.len() >= 2 {
                let mut sw = values.clone();
                sw.swap(0, 1);
                v.push(sw.join(", "));
            }
            v
        }
        Answer::Text { .. } => text_candidates(query, data, scene),
        _ => Vec::new(),
    };
    // Seeded shuffle so distractor order never follows table order.
    shuffle(&mut pool, rng);
    let min_gap = readable_gap(answer, query, data);
    let truth = match answer {
        Answer::Number { value, .. } => Some(*value),
        Answer::Year { value } => Some(f64::from(*value)),
        _ => None,
    };
    // Clearly wrong options only: a value read off the chart must be told
    // apart from the truth by eye.
    let wrong: Vec<String> = pool
        .into_iter()
        .filter(|cand| states(answer, cand) == Some(false) && !cand.trim().is_empty())
        .filter(|cand| match (min_gap, truth) {
            (Some(gap), Some(value)) => {
                crate::query::parse_number(cand).is_none_or(|c| (c - value).abs() >= gap)
            }
            _ => true,
        })
        .collect();
    let mut chosen: Vec<String> = Vec::new();
    match truth {
        Some(value) => {
            // The truth's rank among the options is drawn, not left to the
            // candidates: otherwise it sits in the middle of values built
            // around it, and "pick the middle one" beats chance.
            let (below, above): (Vec<String>, Vec<String>) = wrong
                .into_iter()
                .partition(|c| crate::query::parse_number(c).is_some_and(|c| c < value));
            // Drawn among the ranks the candidates allow (a count of 0 has
            // nothing below it), so a short side does not pile the truth
            // onto the rank next to it.
            let feasible: Vec<usize> = (0..=n)
                .filter(|k| below.len() >= *k && above.len() >= n - k)
                .collect();
            // A number with too few wrong values on one side (a count of 0
            // or 1) would give its rank away: no options, so no choice item.
            if as_options && matches!(answer, Answer::Number { .. }) && feasible.len() < n + 1 {
                return Vec::new();
            }
            let want_below = if feasible.is_empty() {
                rng.random_range(0..=n)
            } else {
                feasible[rng.random_range(0..feasible.len())]
            };
            // A truth among the middle options would otherwise sit nearest
            // the options' mean more often than chance (wrong values are
            // built around it), so whether it does is drawn too: half the
            // time, which makes "pick the one nearest the average" right
            // as often as a blind pick over all ranks.
            let middle = want_below > 0 && want_below < n;
            let want_nearest = rng.random_bool(0.5);
            let (mut below, mut above) = (below, above);
            // The last draw that puts the truth at its rank, should none
            // also balance the mean.
            let mut ranked_draw: Option<Vec<String>> = None;
            for attempt in 0..MEAN_BALANCE_DRAWS {
                chosen.clear();
                if attempt > 0 {
                    shuffle(&mut below, rng);
                    shuffle(&mut above, rng);
                }
                take_distinct(&below, want_below, answer, &mut chosen);
                take_distinct(&above, n, answer, &mut chosen);
                take_distinct(&below, n, answer, &mut chosen);
                let ranked = chosen
                    .iter()
                    .filter(|c| crate::query::parse_number(c).is_some_and(|c| c < value))
                    .count()
                    == want_below;
                if ranked {
                    ranked_draw = Some(chosen.clone());
                    if !middle || nearest_mean(value, &chosen) == want_nearest {
                        break;
                    }
                }
            }
            match ranked_draw {
                Some(draw) => chosen = draw,
                // Options that cannot put the truth at its drawn rank (too
                // few distinct wrong values on one side) would pile it onto
                // the extremes: a difference's wrong values are mostly larger.
                None if as_options && matches!(answer, Answer::Number { .. }) => {
                    return Vec::new();
                }
                None => {}
            }
            shuffle(&mut chosen, rng);
        }
        None => take_distinct(&wrong, n, answer, &mut chosen),
    }
    chosen
}

/// Draws of the wrong options tried before one puts the truth nearest the
/// options' mean (or not) as wanted; past them the last draw stands.
const MEAN_BALANCE_DRAWS: usize = 40;

fn shuffle<T>(items: &mut [T], rng: &mut Xoshiro256PlusPlus) {
    for i in (1..items.len()).rev() {
        let j = rng.random_range(0..=i);
        items.swap(i, j);
    }
}

/// Whether `truth` is the option nearest the mean of itself and `wrong`;
/// a tie counts as nearest, since a guesser breaking it by letter picks the
/// truth as often as not.
fn nearest_mean(truth: f64, wrong: &[String]) -> bool {
    let values: Vec<f64> = wrong
        .iter()
        .filter_map(|w| crate::query::parse_number(w))
        .collect();
    if values.len() != wrong.len() {
        return false;
    }
    let mean = (values.iter().sum::<f64>() + truth) / (values.len() + 1) as f64;
    values
        .iter()
        .all(|v| (truth - mean).abs() <= (v - mean).abs())
}

/// Push candidates until `chosen` holds `up_to` options, skipping any that
/// repeats one already chosen (numbers within 10 % of each other count as
/// repeats, so options never look alike).
fn take_distinct(candidates: &[String], up_to: usize, answer: &Answer, chosen: &mut Vec<String>) {
    for cand in candidates {
        if chosen.len() >= up_to {
            return;
        }
        let clash = chosen.iter().any(|c| {
            c.eq_ignore_ascii_case(cand)
                || match (
                    crate::query::parse_number(c),
                    crate::query::parse_number(cand),
                ) {
                    (Some(x), Some(y)) if matches!(answer, Answer::Number { .. }) => {
                        (x - y).abs() < 0.1 * x.abs().max(y.abs()).max(1e-9)
                    }
                    _ => false,
                }
        });
        if !clash {
            chosen.push(cand.clone());
        }
    }
}

#[cfg(test)]
mod redated_tests {
    use super::redated;

    #[test]
    fn a_source_is_redated_by_its_last_year_only() {
        let wrong = redated("Bauch and Kreiger LLC market survey, 2017");
        assert_eq!(wrong.len(), 6);
        assert!(wrong.contains(&"Bauch and Kreiger LLC market survey, 2014".to_string()));
        assert!(wrong.contains(&"Bauch and Kreiger LLC market survey, 2020".to_string()));
        assert_eq!(
            redated("Census 2011, table 12345, 2019 release")[0],
            "Census 2011, table 12345, 2016 release"
        );
        assert!(redated("World Bank").is_empty());
        assert!(redated("Report 123456").is_empty());
    }
}

#[cfg(test)]
mod tick_step_tests {
    use super::distractors;
    use crate::ir::Answer;
    use crate::ir::query::{Axis, Query};
    use rand::SeedableRng;

    fn wrong_steps(value: f64, decimals: u8) -> Vec<String> {
        let query = Query::TickStep {
            panel: 0,
            axis: Axis::Y,
        };
        let answer = Answer::Number {
            value,
            decimals,
            unit: None,
        };
        use crate::query::testing as t;
        let table = t::year_table("t", 2000, vec![t::series("V", &[Some(1.0), Some(2.0)], 0)]);
        let scene = t::scene_for(&t::single(&table, crate::ir::ChartKind::Line));
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        distractors(&answer, &query, None, &scene, 6, false, &mut rng)
    }

    #[test]
    fn wrong_steps_are_printed_as_the_truth_is() {
        let wrong = wrong_steps(2_500_000.0, 0);
        assert!(!wrong.is_empty());
        for w in &wrong {
            assert!(w.contains(','), "{w} among {wrong:?}");
        }
        let small = wrong_steps(0.5, 1);
        assert!(small.contains(&"0.25".to_string()), "{small:?}");
        assert!(small.contains(&"1".to_string()), "{small:?}");
        assert!(small.iter().all(|w| !w.ends_with('0')), "{small:?}");
    }
}
