//! Data families evaluated on what a reader read: intervals in, a value out
//! only when every reading consistent with the picture gives the same answer.

use super::interval::{Interval, sum};
use super::sight::Sight;
use super::{Stop, Value, unreadable};
use crate::ir::query::{AggregateOp, CellRef, Query};

fn too_close(detail: &str) -> Stop {
    unreadable("too_close", detail.to_string())
}

/// The slot that certainly beats every other, if any.
fn decisive(values: &[(String, Interval)], largest: bool, what: &str) -> Result<String, Stop> {
    let beats = |a: Interval, b: Interval| if largest { a.above(b) } else { b.above(a) };
    values
        .iter()
        .find(|(slot, v)| values.iter().all(|(o, w)| o == slot || beats(*v, *w)))
        .map(|(s, _)| s.clone())
        .ok_or_else(|| too_close(&format!("the {what} is not decided at reading precision")))
}

/// Per slot, the best reading over the given series.
fn per_slot(
    sight: &Sight,
    series: &[String],
    largest: bool,
) -> Result<Vec<(String, Interval)>, Stop> {
    let mut out: Vec<(String, Interval)> = Vec::new();
    for s in series {
        for (slot, v) in sight.column(s)? {
            match out.iter_mut().find(|(o, _)| *o == slot) {
                Some((_, w)) => *w = if largest { w.max(v) } else { w.min(v) },
                None => out.push((slot, v)),
            }
        }
    }
    Ok(out)
}

fn which(sight: &Sight, series: &Option<String>) -> Vec<String> {
    match series {
        Some(s) => vec![s.clone()],
        None => sight.drawn().to_vec(),
    }
}

fn two(sight: &Sight, a: &CellRef, b: &CellRef) -> Result<(Interval, Interval), Stop> {
    Ok((
        sight.cell(&a.series, &a.category)?,
        sight.cell(&b.series, &b.category)?,
    ))
}

fn values(col: &[(String, Interval)]) -> Vec<Interval> {
    col.iter().map(|(_, v)| *v).collect()
}

/// Lower and upper order statistics: the k largest of the lows and of the highs.
fn top_k_sum(vals: &[Interval], k: usize) -> Interval {
    let mut lo: Vec<f64> = vals.iter().map(|v| v.lo).collect();
    let mut hi: Vec<f64> = vals.iter().map(|v| v.hi).collect();
    lo.sort_by(|a, b| b.total_cmp(a));
    hi.sort_by(|a, b| b.total_cmp(a));
    Interval::new(lo[..k].iter().sum(), hi[..k].iter().sum())
}

fn median(vals: &[Interval]) -> Interval {
    let med = |mut xs: Vec<f64>| {
        xs.sort_by(f64::total_cmp);
        let n = xs.len();
        if n % 2 == 1 {
            xs[n / 2]
        } else {
            (xs[n / 2 - 1] + xs[n / 2]) / 2.0
        }
    };
    Interval::new(
        med(vals.iter().map(|v| v.lo).collect()),
        med(vals.iter().map(|v| v.hi).collect()),
    )
}

/// Whether a reading is certainly on one side of a threshold: Some(above).
fn side(v: Interval, threshold: f64) -> Option<bool> {
    if v.lo > threshold {
        Some(true)
    } else if v.hi < threshold {
        Some(false)
    } else {
        None
    }
}

/// A slice's share: its printed percentage on a pie, else value / total.
fn share(sight: &Sight, series: &str, slots: &[String]) -> Result<Interval, Stop> {
    let col = sight.column(series)?;
    let part = sum(&col
        .iter()
        .filter(|(s, _)| slots.contains(s))
        .map(|(_, v)| *v)
        .collect::<Vec<_>>());
    // A pie's printed shares sum to 100; a hypothetical change of some
    // slices grows that whole by the change of those slices.
    let total = if sight.panel.kind.is_circular() {
        Interval::exact(100.0) + sight.edit_growth(series)?
    } else {
        sum(&values(&col))
    };
    part.checked_div(total)
        .map(|r| r.scale(100.0))
        .ok_or_else(|| too_close("the total may be zero"))
}

pub fn evaluate(query: &Query, sight: &Sight) -> Result<Value, Stop> {
    Ok(match query {
        Query::ValueAt {
            series, category, ..
        } => Value::Num(sight.cell(series, category)?),
        Query::Argmax { series, .. } | Query::Argmin { series, .. } => {
            let largest = matches!(query, Query::Argmax { .. });
            if series.is_none() && sight.series_count() > 1 {
                return Err(unreadable(
                    "series_unnamed",
                    "the question names no series on a chart of several",
                ));
            }
            let vals = per_slot(sight, &which(sight, series), largest)?;
            Value::Cat(sight.name_of(&decisive(&vals, largest, "extreme")?)?)
        }
        Query::MaxValue { series, .. } | Query::MinValue { series, .. } => {
            // "The highest value in the chart" is one mark whatever its series.
            let largest = matches!(query, Query::MaxValue { .. });
            let vals = values(&per_slot(sight, &which(sight, series), largest)?);
            let best = vals
                .iter()
                .copied()
                .reduce(|a, b| if largest { a.max(b) } else { a.min(b) })
                .ok_or_else(|| unreadable("no_mark", "no values"))?;
            Value::Num(best)
        }
        Query::Difference { a, b, .. } => {
            let (x, y) = two(sight, a, b)?;
            Value::Num(x - y)
        }
        Query::Ratio { a, b, .. } => {
            let (x, y) = two(sight, a, b)?;
            Value::Num(
                x.checked_div(y)
                    .ok_or_else(|| too_close("the divisor may be zero"))?,
            )
        }
        Query::PercentChange {
            series, from, to, ..
        } => {
            let x = sight.cell(series, from)?;
            let y = sight.cell(series, to)?;
            let r = (y - x)
                .checked_div(x)
                .ok_or_else(|| too_close("the base may be zero"))?;
            Value::Num(r.scale(100.0))
        }
        Query::Aggregate {
            agg,
            series,
            categories,
            ..
        } => {
            let vals: Vec<Interval> = if categories.is_empty() {
                values(&sight.column(series)?)
            } else {
                categories
                    .iter()
                    .map(|c| sight.cell(series, c))
                    .collect::<Result<_, _>>()?
            };
            if vals.is_empty() {
                return Err(unreadable("no_mark", "no values"));
            }
            Value::Num(match agg {
                AggregateOp::Sum => sum(&vals),
                AggregateOp::Mean => sum(&vals).scale(1.0 / vals.len() as f64),
                AggregateOp::Median => median(&vals),
            })
        }
        Query::CountThreshold {
            series,
            threshold,
            above,
            ..
        } => {
            let col = values(&sight.column(series)?);
            let sure = col
                .iter()
                .filter(|v| side(**v, *threshold) == Some(*above))
                .count();
            let possible = col
                .iter()
                .filter(|v| side(**v, *threshold) != Some(!*above))
                .count();
            Value::Count(sure, possible)
        }
        Query::Compare { a, b, .. } => {
            let (x, y) = two(sight, a, b)?;
            if x.above(y) {
                Value::YesNo(true)
            } else if y.above(x) {
                Value::YesNo(false)
            } else {
                return Err(too_close("the two values are within reading precision"));
            }
        }
        Query::Rank {
            series, category, ..
        } => {
            let slot = sight.category(category)?.to_string();
            let col = sight.column(series)?;
            let v = col
                .iter()
                .find(|(s, _)| *s == slot)
                .map(|(_, v)| *v)
                .ok_or_else(|| unreadable("no_mark", "no mark at that category"))?;
            let others = col.iter().filter(|(s, _)| *s != slot);
            let sure = others.clone().filter(|(_, w)| w.above(v)).count();
            let possible = others.filter(|(_, w)| !v.above(*w)).count();
            Value::Count(sure + 1, possible + 1)
        }
        Query::Trend { series, .. } => Value::Text(trend(&values(&sight.column(series)?))?),
        Query::LargestChange {
            series, increase, ..
        } => {
            let col = sight.column(series)?;
            if col.len() < 3 {
                return Err(unreadable("unsupported", "needs two steps"));
            }
            let steps: Vec<(String, Interval)> = col
                .windows(2)
                .map(|w| (w[1].0.clone(), w[1].1 - w[0].1))
                .collect();
            let slot = decisive(&steps, *increase, "largest change")?;
            let step = steps.iter().find(|(s, _)| *s == slot).map(|(_, v)| *v);
            if step.and_then(|s| side(s, 0.0)) != Some(*increase) {
                return Err(too_close("the step's direction is not certain"));
            }
            Value::Cat(sight.name_of(&slot)?)
        }
        Query::MaxGap { a, b, .. } => {
            let x = sight.column(a)?;
            let y = sight.column(b)?;
            let gaps: Vec<(String, Interval)> = x
                .iter()
                .filter_map(|(s, v)| {
                    y.iter()
                        .find(|(o, _)| o == s)
                        .map(|(_, w)| (s.clone(), (*v - *w).abs()))
                })
                .collect();
            Value::Cat(sight.name_of(&decisive(&gaps, true, "largest gap")?)?)
        }
        Query::SlopeChange { from, to, rise, .. } => {
            let x = sight.column(from)?;
            let y = sight.column(to)?;
            let changes: Vec<(String, Interval)> = x
                .iter()
                .filter_map(|(s, v)| {
                    y.iter()
                        .find(|(o, _)| o == s)
                        .map(|(_, w)| (s.clone(), *w - *v))
                })
                .collect();
            let slot = decisive(&changes, *rise, "largest change")?;
            let change = changes.iter().find(|(s, _)| *s == slot).map(|(_, v)| *v);
            if change.and_then(|c| side(c, 0.0)) != Some(*rise) {
                return Err(too_close("the change's direction is not certain"));
            }
            Value::Cat(sight.name_of(&slot)?)
        }
        Query::Crosses { a, b, .. } => {
            let x = sight.column(a)?;
            let y = sight.column(b)?;
            let mut signs = Vec::new();
            for (s, v) in &x {
                if let Some((_, w)) = y.iter().find(|(o, _)| o == s) {
                    signs.push(
                        side(*v - *w, 0.0)
                            .ok_or_else(|| too_close("the lines meet within reading precision"))?,
                    );
                }
            }
            Value::YesNo(signs.windows(2).any(|w| w[0] != w[1]))
        }
        Query::Share {
            series, category, ..
        } => {
            let slot = sight.category(category)?.to_string();
            Value::Num(share(sight, series, &[slot])?)
        }
        Query::ShareSum {
            series, categories, ..
        } => {
            let slots = categories
                .iter()
                .map(|c| sight.category(c).map(str::to_string))
                .collect::<Result<Vec<_>, _>>()?;
            Value::Num(share(sight, series, &slots)?)
        }
        Query::Spread { series, .. } => {
            let vals = values(&sight.column(series)?);
            let hi = vals.iter().copied().reduce(Interval::max);
            let lo = vals.iter().copied().reduce(Interval::min);
            match (hi, lo) {
                (Some(h), Some(l)) => Value::Num(h - l),
                _ => return Err(unreadable("no_mark", "no values")),
            }
        }
        Query::TopMean { series, k, .. } => {
            let vals = values(&sight.column(series)?);
            if *k == 0 || *k > vals.len() {
                return Err(unreadable("unsupported", "k out of range"));
            }
            Value::Num(top_k_sum(&vals, *k).scale(1.0 / *k as f64))
        }
        other => {
            return Err(unreadable(
                "unsupported",
                format!("{} is not a data query", crate::query::family(other)),
            ));
        }
    })
}

/// The trend label, only when readings consistent with the picture agree on
/// it: the shape as read, and with neighbouring points nudged apart by half
/// the reading precision both ways (a trend is judged from the whole line,
/// not from each point at its worst).
pub fn trend(vals: &[Interval]) -> Result<String, Stop> {
    let nudged = |sign: f64| -> Vec<f64> {
        vals.iter()
            .enumerate()
            .map(|(i, v)| {
                let s = if i % 2 == 0 { sign } else { -sign };
                v.mid() + s * (v.hi - v.lo) / 4.0
            })
            .collect()
    };
    let variants = [
        vals.iter().map(|v| v.mid()).collect(),
        nudged(1.0),
        nudged(-1.0),
    ];
    let mut label = None;
    for xs in &variants {
        let shape = crate::query::classify_trend(xs)
            .map_err(|_| too_close("the shape is between two trend labels"))?;
        match label {
            None => label = Some(shape),
            Some(l) if l == shape => {}
            Some(_) => return Err(too_close("the trend depends on reading precision")),
        }
    }
    label
        .map(|l| l.label().to_string())
        .ok_or_else(|| unreadable("unsupported", "no values"))
}
