//! Helpers shared by several perturbations.

use image::RgbImage;

use super::PerturbError;
use crate::ir::{
    BBox, ChartKind, ChartSpec, GridLines, LegendPlacement, PanelScene, Query, Scene, Style,
};

/// Applies `change` to the figure style and to every panel's style, so a
/// perturbation reaches whatever style the renderer reads.
pub fn restyle(spec: &ChartSpec, change: impl Fn(&mut Style)) -> ChartSpec {
    let mut out = spec.clone();
    change(&mut out.style);
    for panel in out.panels_mut() {
        change(&mut panel.style);
    }
    out
}

/// Points every `panel` field of a query that equals `from` at `to`. Works on
/// the JSON form so it covers query variants added later (and nested queries).
pub fn retarget_panel(query: &Query, from: usize, to: usize) -> Query {
    fn walk(value: &mut serde_json::Value, from: usize, to: usize) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, v) in map.iter_mut() {
                    if key == "panel" && v.as_u64() == Some(from as u64) {
                        *v = serde_json::Value::from(to);
                    } else {
                        walk(v, from, to);
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(|v| walk(v, from, to)),
            _ => {}
        }
    }
    let mut json = serde_json::to_value(query).expect("query serializes");
    walk(&mut json, from, to);
    serde_json::from_value(json).expect("retargeted query deserializes")
}

/// The readability ramp shared by the on/off perturbations that keep their
/// original's frame: level 0 is the change alone, each further level
/// removes one more reading aid that leaves the printed ticks as they are
/// (no grid, no tick marks, an open frame, thin axis lines).
pub fn ramp(style: &mut Style, level: usize) {
    if level >= 1 {
        style.grid = GridLines::None;
    }
    if level >= 2 {
        style.tick_marks = false;
    }
    if level >= 3 {
        style.box_frame = false;
    }
    if level >= 4 {
        style.axis_line_width = (style.axis_line_width * 0.5).max(0.5);
    }
}

/// [`ramp`]'s reading aids for perturbations that are about the value axis
/// (its start, its scale) and so redraw its ticks: fewer value ticks at the
/// upper levels.
pub fn ramp_axis(style: &mut Style, level: usize) {
    if level >= 1 {
        style.grid = GridLines::None;
    }
    if level >= 2 {
        style.tick_count = style.tick_count.min(4);
    }
    if level >= 3 {
        style.tick_marks = false;
    }
    if level >= 4 {
        style.tick_count = 3;
    }
}

/// What the renderer draws for `spec`: its SVG and Scene (no rasterizing).
/// Perturbations compare drawings, not specs, because the renderer resolves
/// some style requests its own way (a corner legend moved off the data, a
/// side legend put on top of a narrow panel, direct labels only on lines).
pub fn drawn(spec: &ChartSpec) -> Option<(String, Scene)> {
    crate::render::render_svg(spec).ok()
}

/// The printed ticks that carry a value, as (value, label): an axis to draw
/// again or to cut.
pub fn valued_ticks(ticks: &[crate::ir::Tick]) -> Vec<(f64, String)> {
    ticks
        .iter()
        .filter_map(|t| t.value.map(|v| (v, t.label.clone())))
        .collect()
}

/// `spec` with every panel's numeric axes held to the spans `scene` printed
/// (first to last tick), so a change of tick density keeps each axis's range.
pub fn keep_spans(spec: &ChartSpec, scene: &Scene) -> ChartSpec {
    let mut out = spec.clone();
    let span = |ticks: &[crate::ir::Tick]| -> Option<(f64, f64)> {
        let values: Vec<f64> = ticks.iter().filter_map(|t| t.value).collect();
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (values.len() >= 2 && lo < hi).then_some((lo, hi))
    };
    let mut panels = out.panels_mut();
    if panels.len() != scene.panels.len() {
        return out;
    }
    for (panel, drawn) in panels.iter_mut().zip(&scene.panels) {
        let (y, x) = (span(&drawn.y_ticks), span(&drawn.x_ticks));
        let xy = matches!(drawn.kind, ChartKind::Scatter | ChartKind::Bubble);
        let spans = crate::ir::AxisSpans {
            value: if xy { y } else { y.or(x) },
            x: if xy { x } else { None },
            right: drawn.dual_axis.as_ref().and_then(|d| span(&d.right_ticks)),
        };
        if spans != crate::ir::AxisSpans::default() {
            panel.pinned = Some(crate::ir::PinnedAxes {
                spans: Some(spans),
                ..crate::ir::PinnedAxes::default()
            });
        }
    }
    drop(panels);
    out
}

/// How many bars, points and lines of the drawing reach outside their plot
/// area (a span read off labels that left out an end cuts marks off).
pub fn marks_outside(scene: &crate::ir::Scene) -> usize {
    const SLACK: f32 = 1.5;
    scene
        .panels
        .iter()
        .map(|p| {
            let a = &p.plot_area;
            p.marks
                .iter()
                .filter(|m| {
                    let b = &m.bbox;
                    b.x < a.x - SLACK
                        || b.y < a.y - SLACK
                        || b.x + b.w > a.x + a.w + SLACK
                        || b.y + b.h > a.y + a.h + SLACK
                })
                .count()
        })
        .sum()
}

/// Whether some panel of the drawing shows a legend.
pub fn draws_legend(scene: &Scene) -> bool {
    scene.panels.iter().any(|p| !p.legend.is_empty())
}

/// Legend entry labels per panel, in the order shown.
pub fn legend_labels(scene: &Scene) -> Vec<Vec<&str>> {
    scene
        .panels
        .iter()
        .map(|p| p.legend.iter().map(|e| e.label.as_str()).collect())
        .collect()
}

/// Where a panel's legend ended up, read from the drawing: outside above,
/// below or right of the plot, or in one of its inside corners.
pub fn legend_place(panel: &PanelScene) -> LegendPlacement {
    let Some(first) = panel.legend.first() else {
        return if panel.direct_labels.is_empty() {
            LegendPlacement::None
        } else {
            LegendPlacement::Direct
        };
    };
    let b = panel
        .legend
        .iter()
        .fold(first.bbox, |a, e| union(a, e.bbox));
    let plot = panel.plot_area;
    let (cx, cy) = b.center();
    if b.bottom() <= plot.y + 1.0 {
        LegendPlacement::Top
    } else if b.y >= plot.bottom() - 1.0 {
        LegendPlacement::Bottom
    } else if b.x >= plot.right() - 1.0 {
        LegendPlacement::Right
    } else {
        let (px, py) = plot.center();
        match (cx < px, cy < py) {
            (true, true) => LegendPlacement::TopLeft,
            (false, true) => LegendPlacement::TopRight,
            (true, false) => LegendPlacement::BottomLeft,
            (false, false) => LegendPlacement::BottomRight,
        }
    }
}

fn union(a: BBox, b: BBox) -> BBox {
    let x = a.x.min(b.x);
    let y = a.y.min(b.y);
    BBox {
        x,
        y,
        w: a.right().max(b.right()) - x,
        h: a.bottom().max(b.bottom()) - y,
    }
}

/// The numeric ticks (either axis) per panel.
pub fn numeric_ticks(scene: &Scene) -> Vec<Vec<&crate::ir::Tick>> {
    scene
        .panels
        .iter()
        .map(|p| {
            p.x_ticks
                .iter()
                .chain(&p.y_ticks)
                .filter(|t| t.value.is_some())
                .collect()
        })
        .collect()
}

/// Printed labels of the numeric ticks (either axis) per panel: what a tick
/// perturbation must change to be visible.
pub fn numeric_tick_labels(scene: &Scene) -> Vec<Vec<&str>> {
    numeric_ticks(scene)
        .into_iter()
        .map(|ticks| ticks.into_iter().map(|t| t.label.as_str()).collect())
        .collect()
}

/// The serde name of a legend placement (`top_left`).
pub fn placement_name(p: LegendPlacement) -> String {
    serde_json::to_value(p)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Kinds with a numeric value axis (ticks, baseline, log scale apply).
pub fn has_value_axis(kind: ChartKind) -> bool {
    !kind.is_circular() && kind != ChartKind::Heatmap
}

/// Whether a panel keeps its value axis when placed among other panels
/// (the axis is pinned to the one it had alone). A log axis is not pinned:
/// its decades would change with the panel's size, a change the pair does
/// not declare.
pub fn axis_can_be_pinned(panel: &crate::ir::PanelSpec) -> bool {
    !panel.style.log_scale
}

/// Every drawn value of every panel is a positive number (log scale is valid).
pub fn all_drawn_values_positive(spec: &ChartSpec) -> bool {
    spec.panels().iter().all(|p| {
        p.series.iter().all(|name| {
            p.table.series(name).is_some_and(|col| {
                col.cells
                    .iter()
                    .all(|c| c.is_missing() || c.as_f64().is_some_and(|v| v > 0.0))
            })
        })
    })
}

pub fn decode_rgb(name: &'static str, png: &[u8]) -> Result<RgbImage, PerturbError> {
    chartstress_pixels::resample::decode_rgb(png)
        .map_err(|source| PerturbError::Decode { name, source })
}

pub fn encode_png(name: &'static str, img: &RgbImage) -> Result<Vec<u8>, PerturbError> {
    let (w, h) = img.dimensions();
    crate::render::fast_png(img.as_raw(), w, h, image::ExtendedColorType::Rgb8)
        .map_err(|source| PerturbError::Encode { name, source })
}

/// Why charts of `kind` draw no legend, when none ever is: one series, or
/// series named elsewhere (a slope chart's axis headings, a heatmap's rows).
pub(super) fn no_legend(kind: crate::ir::ChartKind) -> Option<&'static str> {
    use crate::ir::ChartKind::*;
    match kind {
        Lollipop | DivergingBar | ErrorBar | Histogram | BoxPlot | Violin => {
            Some("draws one series: no legend")
        }
        Slope => Some("names its two series above its two axes: no legend"),
        Heatmap => Some("names its series on an axis and draws a colour bar: no legend"),
        _ => None,
    }
}

#[cfg(test)]
pub mod testing {
    //! Hand-built specs for the perturbation unit tests.
    use crate::ir::{
        Cell, ChartKind, ChartSpec, Column, ColumnType, Layout, NumberFormat, PanelSpec, Style,
        Table, TableMeta,
    };

    /// A chart context with seed 0 and no themes or distractors to draw from.
    pub fn ctx() -> crate::perturb::ChartContext<'static> {
        crate::perturb::ChartContext {
            seed: 0,
            themes: &[],
            distractors: &[],
        }
    }

    pub fn table(id: &str, series: &[(&str, &[f64])], years: bool) -> Table {
        let n = series.first().map_or(0, |s| s.1.len());
        let index = Column {
            name: "x".into(),
            ctype: if years {
                ColumnType::Year
            } else {
                ColumnType::Text
            },
            format: NumberFormat::default(),
            cells: (0..n)
                .map(|i| {
                    if years {
                        Cell::Year(2000 + i as i32)
                    } else {
                        Cell::Text(format!("C{i}"))
                    }
                })
                .collect(),
        };
        Table {
            id: id.into(),
            source_path: None,
            meta: TableMeta {
                title: Some(format!("Title of {id}")),
                ..TableMeta::default()
            },
            index,
            series: series
                .iter()
                .map(|(name, vals)| Column {
                    name: (*name).into(),
                    ctype: ColumnType::Number,
                    format: NumberFormat::default(),
                    cells: vals.iter().map(|v| Cell::Number(*v)).collect(),
                })
                .collect(),
        }
    }

    pub fn single(table: Table, kind: ChartKind) -> ChartSpec {
        let style = Style::default();
        ChartSpec {
            source_line: None,
            width: 800,
            height: 600,
            title: None,
            style: style.clone(),
            layout: Layout::Single {
                panel: PanelSpec {
                    kind,
                    series: table.series_names().iter().map(|s| s.to_string()).collect(),
                    title: table.meta.title.clone(),
                    x_label: None,
                    y_label: None,
                    table,
                    style,
                    annotation: None,
                    subtitle: None,
                    samples: None,
                    pinned: None,
                },
            },
        }
    }

    pub fn bar() -> ChartSpec {
        single(
            table("sales", &[("Sales", &[3.0, 5.0, 2.0, 8.0])], false),
            ChartKind::Bar,
        )
    }

    pub fn grouped_years() -> ChartSpec {
        single(
            table(
                "growth",
                &[("North", &[1.0, 2.0, 3.0]), ("South", &[2.0, 1.5, 4.0])],
                true,
            ),
            ChartKind::GroupedBar,
        )
    }

    /// Two lines well above zero (a cut axis is legitimate).
    pub fn lines() -> ChartSpec {
        single(
            table(
                "temps",
                &[
                    ("North", &[21.0, 24.0, 30.0]),
                    ("South", &[25.0, 27.0, 33.0]),
                ],
                true,
            ),
            ChartKind::Line,
        )
    }

    pub fn shares() -> ChartSpec {
        let mut t = table("shares", &[("Share", &[50.0, 30.0, 20.0])], false);
        t.series[0].format.suffix = Some("%".into());
        single(t, ChartKind::Bar)
    }

    pub fn panel_style(spec: &ChartSpec) -> &Style {
        &spec.panels()[0].style
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Query;

    #[test]
    fn retargets_every_panel_field() {
        let q = Query::ValueAt {
            panel: 0,
            series: "s".into(),
            category: "c".into(),
        };
        match retarget_panel(&q, 0, 3) {
            Query::ValueAt { panel, .. } => assert_eq!(panel, 3),
            other => panic!("unexpected {other:?}"),
        }
        // Another panel index is left alone.
        let q = Query::Title { panel: 1 };
        assert_eq!(retarget_panel(&q, 0, 3), q);
    }

    #[test]
    fn restyle_reaches_panels() {
        let spec = testing::bar();
        let out = restyle(&spec, |s| s.tick_count = 2);
        assert_eq!(out.style.tick_count, 2);
        assert_eq!(testing::panel_style(&out).tick_count, 2);
    }
}
