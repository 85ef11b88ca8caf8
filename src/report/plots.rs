//! Report plots drawn with plotters' SVG backend (text escaped by plotters).

use std::sync::Once;

use plotters::coord::ranged1d::{IntoSegmentedCoord, SegmentValue};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Report, RunReport};

const FONT: &str = "DejaVu Sans";

/// plotters' SVG backend writes font sizes divided by 1.24.
fn px(size: f64) -> f64 {
    size * 1.24
}

fn register_fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bytes are DejaVu's own TTF, so registration cannot fail in practice;
        // if it did, plotters would fall back to estimating text widths.
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular());
        let _ = plotters::style::register_font(FONT, FontStyle::Bold, dejavu::sans::bold());
    });
}

pub const SET_COLORS: [(&str, RGBColor); 5] = [
    ("original", RGBColor(0x4c, 0x72, 0xb0)),
    ("control", RGBColor(0x8c, 0x8c, 0x8c)),
    ("modified_chart", RGBColor(0xdd, 0x84, 0x52)),
    ("modified_question", RGBColor(0x55, 0xa8, 0x68)),
    ("modified_both", RGBColor(0xc4, 0x4e, 0x52)),
];

const RUN_COLORS: [RGBColor; 8] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0xe3, 0x77, 0xc2),
    RGBColor(0x7f, 0x7f, 0x7f),
];

fn set_color(set: &str) -> RGBColor {
    SET_COLORS
        .iter()
        .find(|(name, _)| *name == set)
        .map_or(RGBColor(0x80, 0x80, 0x80), |(_, c)| *c)
}

type PlotResult = Result<(), Box<dyn std::error::Error>>;

fn svg_of(
    width: u32,
    height: u32,
    draw: impl FnOnce(DrawingArea<SVGBackend, plotters::coord::Shift>) -> PlotResult,
) -> Result<String, String> {
    register_fonts();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        draw(root.clone()).map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// Accuracy per set with 95% Wilson intervals.
pub fn set_accuracy(run: &RunReport) -> Result<String, String> {
    let sets: Vec<_> = run.sets.iter().filter(|s| s.accuracy.is_some()).collect();
    svg_of(560, 320, |root| {
        let n = sets.len().max(1) as u32;
        let mut chart = ChartBuilder::on(&root)
            .caption("Accuracy per set (95% Wilson CI)", (FONT, px(15.0)))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .build_cartesian_2d((0..n - 1).into_segmented(), 0f64..100f64)?;
        let names: Vec<String> = sets.iter().map(|s| s.set.replace('_', " ")).collect();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .y_desc("accuracy (%)")
            .y_labels(6)
            .y_label_formatter(&|v| format!("{v:.0}"))
            .light_line_style(WHITE)
            .label_style((FONT, px(12.0)))
            .axis_desc_style((FONT, px(12.0)))
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => names.get(*i as usize).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .draw()?;
        for (i, s) in sets.iter().enumerate() {
            let i = i as u32;
            let acc = s.accuracy.unwrap_or_default();
            let mut bar = Rectangle::new(
                [
                    (SegmentValue::Exact(i), 0.0),
                    (SegmentValue::Exact(i + 1), acc),
                ],
                set_color(&s.set).filled(),
            );
            bar.set_margin(0, 0, 18, 18);
            chart.draw_series(std::iter::once(bar))?;
            if let Some(ci) = s.ci {
                chart.draw_series(std::iter::once(PathElement::new(
                    vec![
                        (SegmentValue::CenterOf(i), ci.low),
                        (SegmentValue::CenterOf(i), ci.high),
                    ],
                    BLACK.stroke_width(2),
                )))?;
            }
            // The value sits above the interval's top so the whisker does not cross it.
            let top = s.ci.map_or(acc, |c| c.high);
            chart.draw_series(std::iter::once(Text::new(
                format!("{acc:.1}"),
                (SegmentValue::CenterOf(i), (top + 7.0).min(99.0)),
                (FONT, px(11.0))
                    .into_font()
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Center, VPos::Bottom)),
            )))?;
        }
        Ok(())
    })
}

/// Small multiples: accuracy against severity for each perturbation axis,
/// with the 95% interval as a band; severity 0 is the paired originals.
pub fn robustness_curves(run: &RunReport) -> Option<Result<String, String>> {
    let axes: Vec<_> = run
        .axes
        .iter()
        .filter(|a| a.curve.iter().any(|p| p.accuracy.is_some()))
        .collect();
    if axes.is_empty() {
        return None;
    }
    let cols = axes.len().min(4);
    let rows = axes.len().div_ceil(cols);
    let (w, h) = (240u32, 200u32);
    Some(svg_of(w * cols as u32, h * rows as u32 + 30, |root| {
        let (title, body) = root.split_vertically(30);
        title.draw(&Text::new(
            "Robustness curves: accuracy (%) by severity, 0 = originals; band = 95% CI",
            (10, 8),
            (FONT, px(14.0)).into_font(),
        ))?;
        for (area, axis) in body.split_evenly((rows, cols)).into_iter().zip(&axes) {
            let mut chart = ChartBuilder::on(&area)
                .caption(&axis.axis, (FONT, px(13.0)))
                .margin(8)
                .x_label_area_size(24)
                .y_label_area_size(34)
                .build_cartesian_2d(-0.2f64..5.2f64, 0f64..100f64)?;
            chart
                .configure_mesh()
                .x_labels(6)
                .y_labels(5)
                .label_style((FONT, px(10.0)))
                .x_label_formatter(&|x| format!("{x:.0}"))
                .y_label_formatter(&|y| format!("{y:.0}"))
                .light_line_style(WHITE)
                .draw()?;
            let points: Vec<_> = axis.curve.iter().filter(|p| p.accuracy.is_some()).collect();
            let band: Vec<(f64, f64)> = points
                .iter()
                .filter_map(|p| p.ci.map(|c| (f64::from(p.severity), c.high)))
                .chain(
                    points
                        .iter()
                        .rev()
                        .filter_map(|p| p.ci.map(|c| (f64::from(p.severity), c.low))),
                )
                .collect();
            let color = RUN_COLORS[0];
            if band.len() >= 3 {
                chart.draw_series(std::iter::once(Polygon::new(
                    band,
                    color.mix(0.18).filled(),
                )))?;
            }
            let line: Vec<(f64, f64)> = points
                .iter()
                .map(|p| (f64::from(p.severity), p.accuracy.unwrap_or_default()))
                .collect();
            chart.draw_series(LineSeries::new(line.clone(), color.stroke_width(2)))?;
            chart.draw_series(
                line.iter()
                    .map(|&(x, y)| Circle::new((x, y), 3, color.filled())),
            )?;
        }
        Ok(())
    }))
}

/// Accuracy of the modified items against how much harder their asked
/// reading measured (reading-change bands) and against how different
/// their picture looks (visual-distance bands), originals first; whiskers
/// are 95% intervals and every point prints its n.
pub fn difficulty_curves(run: &RunReport) -> Option<Result<String, String>> {
    let panels: Vec<(&str, Vec<&crate::report::Group>)> = ["reading_change", "visual_distance"]
        .into_iter()
        .filter_map(|dim| {
            let b = run.breakdowns.iter().find(|b| b.dimension == dim)?;
            // The group without a band (originals) leads as the reference.
            let mut groups: Vec<&crate::report::Group> =
                b.groups.iter().filter(|g| g.accuracy.is_some()).collect();
            groups.sort_by_key(|g| !g.key.starts_with('('));
            (groups.len() >= 2).then_some((dim, groups))
        })
        .collect();
    if panels.is_empty() {
        return None;
    }
    let widest = panels.iter().map(|(_, g)| g.len()).max().unwrap_or(1) as u32;
    let (w, h) = ((widest * 90).max(460), 300u32);
    Some(svg_of(w * panels.len() as u32, h + 30, |root| {
        let (title, body) = root.split_vertically(30);
        title.draw(&Text::new(
            "Accuracy (%) by measured reading change and by visual distance; whiskers = 95% CI",
            (10, 8),
            (FONT, px(14.0)).into_font(),
        ))?;
        for (area, (dim, groups)) in body
            .split_evenly((1, panels.len()))
            .into_iter()
            .zip(&panels)
        {
            let n = groups.len();
            let labels: Vec<String> = groups.iter().map(|g| band_label(&g.key)).collect();
            let mut chart = ChartBuilder::on(&area)
                .caption(dim.replace('_', " "), (FONT, px(13.0)))
                .margin(10)
                .x_label_area_size(40)
                .y_label_area_size(34)
                .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..105f64)?;
            chart
                .configure_mesh()
                .x_labels(n)
                .y_labels(6)
                .label_style((FONT, px(9.0)))
                .x_label_formatter(&|x| {
                    let i = x.round();
                    if (x - i).abs() > 1e-6 || i < 0.0 {
                        return String::new();
                    }
                    labels.get(i as usize).cloned().unwrap_or_default()
                })
                .y_label_formatter(&|y| format!("{y:.0}"))
                .light_line_style(WHITE)
                .draw()?;
            let color = RUN_COLORS[0];
            for (i, g) in groups.iter().enumerate() {
                let x = i as f64;
                if let Some(ci) = g.ci {
                    chart.draw_series(std::iter::once(PathElement::new(
                        vec![(x, ci.low), (x, ci.high)],
                        color.stroke_width(1),
                    )))?;
                }
            }
            let line: Vec<(f64, f64)> = groups
                .iter()
                .enumerate()
                .map(|(i, g)| (i as f64, g.accuracy.unwrap_or_default()))
                .collect();
            chart.draw_series(
                line.iter()
                    .map(|&(x, y)| Circle::new((x, y), 4, color.filled())),
            )?;
            // Each point's item count beside it: a band of few items reads little.
            chart.draw_series(groups.iter().enumerate().map(|(i, g)| {
                let y = g.accuracy.unwrap_or_default();
                Text::new(
                    format!("n={}", g.n),
                    (i as f64 + 0.08, y + 2.0),
                    (FONT, px(9.0)).into_font(),
                )
            }))?;
        }
        Ok(())
    }))
}

/// A short axis label for a reading-change or visual-distance band.
fn band_label(key: &str) -> String {
    let reading = [
        ("0 ", "now printed"),
        ("1 ", "finer"),
        ("2 ", "alike"),
        ("3 ", "coarser"),
        ("4 ", "much coarser"),
        ("5 ", "now estimated"),
    ];
    if let Some((_, short)) = reading.iter().find(|(p, _)| key.starts_with(p)) {
        return short.to_string();
    }
    match key {
        "(not measured)" => "originals".into(),
        "(same image)" => "same image".into(),
        other => other.replace(" and more", "+"),
    }
}

/// Original against modified accuracy, one point per run and modified set,
/// with the diagonal (no loss) — as in CharXiv's stress-test figure.
pub fn scatter(report: &Report) -> Option<Result<String, String>> {
    if report.runs.len() < 2 {
        return None;
    }
    Some(svg_of(560, 520, |root| {
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Original vs modified accuracy (one point per run)",
                (FONT, px(15.0)),
            )
            .margin(14)
            .x_label_area_size(40)
            .y_label_area_size(48)
            .build_cartesian_2d(-2f64..102f64, -2f64..102f64)?;
        chart
            .configure_mesh()
            .x_desc("original accuracy (%)")
            .y_desc("modified accuracy (%)")
            .x_labels(11)
            .y_labels(11)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| format!("{v:.0}"))
            .light_line_style(WHITE)
            .label_style((FONT, px(12.0)))
            .axis_desc_style((FONT, px(12.0)))
            .draw()?;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(0.0, 0.0), (100.0, 100.0)],
            BLACK.mix(0.5).stroke_width(1),
        )))?;
        let mut labels: Vec<(f64, f64, String)> = Vec::new();
        for (set, color) in SET_COLORS.iter().skip(1) {
            let points: Vec<(f64, f64, String)> = report
                .runs
                .iter()
                .filter_map(|run| {
                    let g = run.gaps.iter().find(|g| g.name == *set)?;
                    Some((g.original_accuracy?, g.modified_accuracy?, run.name.clone()))
                })
                .collect();
            if points.is_empty() {
                continue;
            }
            chart
                .draw_series(
                    points
                        .iter()
                        .map(|(x, y, _)| Circle::new((*x, *y), 5, color.filled())),
                )?
                .label(set.replace('_', " "))
                .legend(move |(x, y)| Circle::new((x, y), 5, color.filled()));
            labels.extend(points);
        }
        // One label per cluster of a run's points; right-aligned near the
        // right edge so it stays inside the plot.
        let mut placed: Vec<(f64, f64, String)> = Vec::new();
        for (x, y, name) in labels {
            if placed
                .iter()
                .any(|(px_, py_, n)| *n == name && (px_ - x).abs() < 8.0 && (py_ - y).abs() < 8.0)
            {
                continue;
            }
            let (dx, anchor) = if x > 70.0 {
                (-2.0, HPos::Right)
            } else {
                (2.0, HPos::Left)
            };
            chart.draw_series(std::iter::once(Text::new(
                name.clone(),
                (x + dx, y),
                (FONT, px(10.0))
                    .into_font()
                    .color(&BLACK)
                    .pos(Pos::new(anchor, VPos::Center)),
            )))?;
            placed.push((x, y, name));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .label_font((FONT, px(11.0)))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.3))
            .draw()?;
        Ok(())
    }))
}

/// Gap per perturbation axis, runs side by side (grouped bars).
pub fn axis_gaps(report: &Report) -> Option<Result<String, String>> {
    if report.runs.len() < 2 {
        return None;
    }
    let mut axes: Vec<String> = report
        .runs
        .iter()
        .flat_map(|r| {
            r.axes
                .iter()
                .filter(|a| a.gap.gap.is_some())
                .map(|a| a.axis.clone())
        })
        .collect();
    axes.sort();
    axes.dedup();
    if axes.is_empty() {
        return None;
    }
    let value = |run: &RunReport, axis: &str| {
        run.axes
            .iter()
            .find(|a| a.axis == axis)
            .and_then(|a| a.gap.gap)
    };
    let all: Vec<f64> = report
        .runs
        .iter()
        .flat_map(|r| axes.iter().filter_map(|a| value(r, a)))
        .collect();
    let lo = all.iter().copied().fold(0.0f64, f64::min).floor() - 5.0;
    let hi = all.iter().copied().fold(0.0f64, f64::max).ceil() + 5.0;
    let k = report.runs.len();
    // Horizontal bars: one row per axis (first axis on top), so every axis
    // name stays readable however many axes a suite has.
    let row = (10 * k as u32 + 10).max(22);
    let n = axes.len() as u32;
    let height = 90 + row * n;
    Some(svg_of(720, height, |root| {
        let (plot, legend) = root.split_vertically(height - 28);
        let mut chart = ChartBuilder::on(&plot)
            .caption(
                "Gap (original − modified, points) per axis",
                (FONT, px(15.0)),
            )
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(150)
            .build_cartesian_2d(lo..hi, (0..n - 1).into_segmented())?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(axes.len() + 1)
            .x_desc("gap (points); positive = accuracy lost on modified items")
            .x_label_formatter(&|v| format!("{v:.0}"))
            .light_line_style(WHITE)
            .label_style((FONT, px(11.0)))
            .axis_desc_style((FONT, px(11.0)))
            .y_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => {
                    axes.get((n - 1 - *i) as usize).cloned().unwrap_or_default()
                }
                _ => String::new(),
            })
            .draw()?;
        for (r, run) in report.runs.iter().enumerate() {
            let color = RUN_COLORS[r % RUN_COLORS.len()];
            for (j, axis) in axes.iter().enumerate() {
                let Some(g) = value(run, axis) else { continue };
                let i = n - 1 - j as u32;
                let (x0, ya) = chart.backend_coord(&(0.0, SegmentValue::Exact(i)));
                let (x1, yb) = chart.backend_coord(&(g, SegmentValue::Exact(i + 1)));
                let (top, bottom) = (ya.min(yb), ya.max(yb));
                let inner = (bottom - top - 6).max(k as i32);
                let y_top = top + 3 + inner * r as i32 / k as i32;
                let y_bottom = top + 3 + inner * (r as i32 + 1) / k as i32 - 1;
                plot.draw(&Rectangle::new(
                    [
                        (x0.min(x1), y_top),
                        (x0.max(x1).max(x0.min(x1) + 1), y_bottom),
                    ],
                    color.filled(),
                ))?;
            }
            let (lx, ly) = (160 + 160 * r as i32, 12);
            legend.draw(&Rectangle::new(
                [(lx, ly - 5), (lx + 10, ly + 5)],
                color.filled(),
            ))?;
            legend.draw(&Text::new(
                run.name.clone(),
                (lx + 14, ly),
                (FONT, px(11.0))
                    .into_font()
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            ))?;
        }
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(0.0, SegmentValue::Exact(0)), (0.0, SegmentValue::Exact(n))],
            BLACK.stroke_width(1),
        )))?;
        Ok(())
    }))
}
