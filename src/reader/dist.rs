//! Distribution questions read off the picture: a box's quartile edges
//! through the printed value ticks, the outlier points beyond a box plot's
//! whiskers counted one by one, the bars between two printed bin edges
//! summed, and two error bars' facing caps compared. Only pixel positions
//! and printed text are used; the statistics recorded in the scene are
//! never looked at.

use super::axis::{ValueAxis, parse_printed};
use super::sight::{Edit, Sight};
use super::{Interval, Stop, Value, View, unreadable};
use crate::ir::query::Query;
use crate::ir::{ChartKind, GroupScene, MarkKind, PanelScene, Scene};
use crate::query::dist::{OUTLIER_SEPARATION_PX, WHISKER_CLEARANCE_PX};
use crate::spec::error_bar::{LOWER, UPPER};

pub(super) fn evaluate(
    query: &Query,
    scene: &Scene,
    view: &View,
    edit: Option<Edit>,
) -> Result<Value, Stop> {
    if edit.is_some() {
        return Err(unreadable("unsupported", "a changed distribution"));
    }
    let p = scene
        .panels
        .iter()
        .find(|p| p.index == query.panel())
        .ok_or_else(|| unreadable("unsupported", "no such panel on the image"))?;
    let sight = Sight::new(p, view);
    match query {
        Query::Iqr { group, .. } => {
            let g = drawn_group(&sight, p, group)?;
            let axis = value_axis(p, view)?;
            // The box (a violin's quartile bar) runs from Q1 (bottom) to Q3 (top).
            let q3 = axis.read(f64::from(g.bbox.y), view);
            let q1 = axis.read(f64::from(g.bbox.bottom()), view);
            Ok(Value::Num(q3 - q1))
        }
        Query::OutlierCount { group, .. } => {
            if p.kind != ChartKind::BoxPlot {
                return Err(unreadable("unsupported", "no outlier points are drawn"));
            }
            let g = drawn_group(&sight, p, group)?;
            Ok(count_points(g, view))
        }
        Query::BinRangeCount { from, to, .. } => bin_range(&sight, p, view, from, to),
        Query::IntervalsOverlap { a, b, .. } => {
            let (lo_a, hi_a) = (sight.cell(LOWER, a)?, sight.cell(UPPER, a)?);
            let (lo_b, hi_b) = (sight.cell(LOWER, b)?, sight.cell(UPPER, b)?);
            let (lo, hi) = (lo_a.max(lo_b), hi_a.min(hi_b));
            if hi.above(lo) {
                Ok(Value::YesNo(true))
            } else if lo.above(hi) {
                Ok(Value::YesNo(false))
            } else {
                Err(unreadable(
                    "too_close",
                    "the error bars meet within reading precision",
                ))
            }
        }
        _ => Err(unreadable("unsupported", "not a distribution question")),
    }
}

fn value_axis(p: &PanelScene, view: &View) -> Result<ValueAxis, Stop> {
    ValueAxis::from_ticks(&p.y_ticks, view).ok_or_else(|| {
        unreadable(
            "axis_unreadable",
            "fewer than two legible numeric tick labels",
        )
    })
}

/// The drawn group a question names, identified by its printed label.
fn drawn_group<'a>(sight: &Sight, p: &'a PanelScene, group: &str) -> Result<&'a GroupScene, Stop> {
    let slot = sight.category(group)?;
    p.stat
        .as_ref()
        .and_then(|s| s.groups.iter().find(|g| g.group == slot))
        .ok_or_else(|| unreadable("no_mark", format!("no box drawn for {group}")))
}

/// Points beyond the whiskers, counted as a person counts circles: two
/// whose centres are closer than a marker's width (widened by the view's
/// imprecision) may be one blot, and a point on a whisker's cap may be the
/// cap; the count is then a range.
fn count_points(g: &GroupScene, view: &View) -> Value {
    let slack = (view.precision_px - 1.0).max(0.0);
    let sep = f64::from(OUTLIER_SEPARATION_PX) + 2.0 * slack;
    let clear = f64::from(WHISKER_CLEARANCE_PX) + slack;
    let mut ys: Vec<f64> = g
        .outliers
        .iter()
        .map(|o| f64::from(o.bbox.center().1))
        .collect();
    ys.sort_by(f64::total_cmp);
    let mut sure = 0;
    let mut blots = 0;
    let mut i = 0;
    while i < ys.len() {
        let mut k = i + 1;
        while k < ys.len() && ys[k] - ys[k - 1] < sep {
            k += 1;
        }
        let on_cap = ys[i..k].iter().any(|y| {
            (y - f64::from(g.low_y)).abs() < clear || (y - f64::from(g.high_y)).abs() < clear
        });
        if k - i == 1 && !on_cap {
            sure += 1;
        } else {
            blots += k - i;
        }
        i = k;
    }
    Value::Count(sure, sure + blots)
}

/// The bars between the printed ticks `from` and `to`, their readings summed.
fn bin_range(
    sight: &Sight,
    p: &PanelScene,
    view: &View,
    from: &str,
    to: &str,
) -> Result<Value, Stop> {
    let edge = |text: &str| -> Result<f64, Stop> {
        let (v, _) = parse_printed(text)
            .ok_or_else(|| unreadable("unsupported", format!("{text} is not a number")))?;
        p.x_ticks
            .iter()
            .filter(|t| view.legible(&t.bbox))
            .find(|t| {
                parse_printed(&t.label)
                    .is_some_and(|(x, _)| (x - v).abs() <= 1e-9 * v.abs().max(1.0))
            })
            .map(|t| f64::from(t.pos))
            .ok_or_else(|| {
                unreadable(
                    "category_unlabelled",
                    format!("no printed tick reads {text}"),
                )
            })
    };
    let (x0, x1) = (edge(from)?, edge(to)?);
    if x1 <= x0 {
        return Err(Stop::Absent(format!("{from} is not left of {to}")));
    }
    let series = sight
        .drawn()
        .first()
        .cloned()
        .ok_or_else(|| unreadable("no_mark", "no bars drawn"))?;
    let readings = sight.column(&series)?;
    let mut total = Interval::exact(0.0);
    let mut bars = 0;
    for (slot, reading) in readings {
        let Some(m) = p
            .marks
            .iter()
            .find(|m| m.kind == MarkKind::Bar && m.category.as_deref() == Some(slot.as_str()))
        else {
            continue;
        };
        let (l, r) = (f64::from(m.bbox.x), f64::from(m.bbox.right()));
        if l >= x0 - 1.5 && r <= x1 + 1.5 {
            total = total + reading;
            bars += 1;
        } else if r > x0 + 1.5 && l < x1 - 1.5 {
            return Err(unreadable(
                "unsupported",
                format!("a bar straddles {from} or {to}"),
            ));
        }
    }
    if bars == 0 {
        return Err(Stop::Absent(format!("no bars between {from} and {to}")));
    }
    Ok(Value::Num(total))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BBox, OutlierScene};

    fn group(points: &[f32]) -> GroupScene {
        GroupScene {
            group: "A".into(),
            n: 30,
            q1: 0.0,
            median: 0.0,
            q3: 0.0,
            low: 0.0,
            high: 0.0,
            bbox: BBox::default(),
            median_y: 300.0,
            low_y: 400.0,
            high_y: 200.0,
            max_half_width: None,
            outliers: points
                .iter()
                .map(|y| OutlierScene {
                    value: 0.0,
                    bbox: BBox {
                        x: 0.0,
                        y: y - 3.0,
                        w: 6.0,
                        h: 6.0,
                    },
                })
                .collect(),
        }
    }

    #[test]
    fn points_are_counted_only_when_each_stands_apart() {
        let view = View::default();
        assert_eq!(
            count_points(&group(&[100.0, 150.0, 180.0]), &view),
            Value::Count(3, 3)
        );
        // Two circles 3 px apart may be one blot: one to three points.
        assert_eq!(
            count_points(&group(&[100.0, 103.0, 150.0]), &view),
            Value::Count(1, 3)
        );
        // A point on the upper whisker's cap may be the cap.
        assert_eq!(
            count_points(&group(&[198.0, 150.0]), &view),
            Value::Count(1, 2)
        );
        // A blurred view needs wider gaps.
        let blurred = View {
            precision_px: 3.0,
            ..View::default()
        };
        assert_eq!(
            count_points(&group(&[100.0, 109.0]), &view),
            Value::Count(2, 2)
        );
        assert_eq!(
            count_points(&group(&[100.0, 109.0]), &blurred),
            Value::Count(0, 2)
        );
    }
}
