//! Builders for tables, specs and plain scenes, for tests and examples that
//! need a chart without running the renderer. `scene_for` lays marks, ticks,
//! legend and titles out on a simple grid the way a plain renderer would, so
//! the scene is consistent with the spec it is built from.

use crate::ir::{
    BBox, Cell, ChartKind, ChartSpec, Column, ColumnType, Layout, LegendEntry, Mark, MarkKind,
    NumberFormat, PanelScene, PanelSpec, Scene, Style, Table, TableMeta, TextBox, Tick,
};

/// A numeric series column with the given decimals.
pub fn series(name: &str, values: &[Option<f64>], decimals: u8) -> Column {
    Column {
        name: name.into(),
        ctype: ColumnType::Number,
        format: NumberFormat {
            decimals,
            ..NumberFormat::default()
        },
        cells: values
            .iter()
            .map(|v| v.map_or(Cell::Missing, Cell::Number))
            .collect(),
    }
}

/// A table indexed by years.
pub fn year_table(id: &str, first_year: i32, series: Vec<Column>) -> Table {
    let n = series.first().map_or(0, |c| c.cells.len());
    Table {
        id: id.into(),
        source_path: None,
        meta: TableMeta {
            title: Some(format!("{id} by year")),
            x_label: Some("Year".into()),
            y_label: Some("Value".into()),
            ..TableMeta::default()
        },
        index: Column {
            name: "Year".into(),
            ctype: ColumnType::Year,
            format: NumberFormat::default(),
            cells: (0..n).map(|i| Cell::Year(first_year + i as i32)).collect(),
        },
        series,
    }
}

/// A table indexed by text categories.
pub fn category_table(
    id: &str,
    index_name: &str,
    categories: &[&str],
    series: Vec<Column>,
) -> Table {
    Table {
        id: id.into(),
        source_path: None,
        meta: TableMeta {
            title: Some(format!("{id} by {}", index_name.to_lowercase())),
            x_label: Some(index_name.into()),
            y_label: Some("Value".into()),
            ..TableMeta::default()
        },
        index: Column {
            name: index_name.into(),
            ctype: ColumnType::Text,
            format: NumberFormat::default(),
            cells: categories.iter().map(|c| Cell::Text((*c).into())).collect(),
        },
        series,
    }
}

pub fn panel(table: &Table, kind: ChartKind) -> PanelSpec {
    PanelSpec {
        kind,
        table: table.clone(),
        series: table.series.iter().map(|c| c.name.clone()).collect(),
        title: table.meta.title.clone(),
        x_label: table.meta.x_label.clone(),
        y_label: table.meta.y_label.clone(),
        style: Style::default(),
        annotation: None,
        subtitle: None,
        samples: None,
        pinned: None,
    }
}

pub fn single(table: &Table, kind: ChartKind) -> ChartSpec {
    ChartSpec {
        source_line: None,
        width: 800,
        height: 600,
        title: None,
        style: Style::default(),
        layout: Layout::Single {
            panel: panel(table, kind),
        },
    }
}

pub fn grid(rows: u32, cols: u32, panels: Vec<PanelSpec>) -> ChartSpec {
    ChartSpec {
        source_line: None,
        width: 400 * cols,
        height: 300 * rows,
        title: None,
        style: Style::default(),
        layout: Layout::Grid {
            rows,
            cols,
            panels,
            shared_x: false,
            shared_y: false,
        },
    }
}

fn text_box(text: &str, x: f32, y: f32) -> TextBox {
    TextBox {
        text: text.into(),
        bbox: BBox {
            x,
            y,
            w: 8.0 * text.len() as f32,
            h: 14.0,
        },
    }
}

/// A step of 1, 2 or 5 times a power of ten giving about five ticks up to `max`.
fn nice_step(max: f64) -> f64 {
    let raw = (max / 5.0).max(1e-9);
    let mag = 10f64.powf(raw.log10().floor());
    let norm = raw / mag;
    let m = if norm <= 1.0 {
        1.0
    } else if norm <= 2.0 {
        2.0
    } else if norm <= 5.0 {
        5.0
    } else {
        10.0
    };
    m * mag
}

fn panel_scene(index: usize, row: u32, col: u32, area: BBox, p: &PanelSpec) -> PanelScene {
    let table = &p.table;
    let cats = table.category_labels();
    let cols: Vec<&Column> = p.series.iter().filter_map(|s| table.series(s)).collect();
    let palette = &p.style.palette;
    let plot = BBox {
        x: area.x + 60.0,
        y: area.y + 40.0,
        w: area.w - 90.0,
        h: area.h - 90.0,
    };
    let max = cols
        .iter()
        .flat_map(|c| c.values())
        .flatten()
        .fold(0f64, f64::max)
        .max(1e-9);
    let step = nice_step(max);
    let top = (max / step).ceil() * step;
    let y_of = |v: f64| plot.bottom() - (v / top) as f32 * plot.h;
    let slot = plot.w / cats.len().max(1) as f32;
    let mut marks = Vec::new();
    let circular = p.kind.is_circular();
    for (si, c) in cols.iter().enumerate() {
        for (ci, v) in c.values().iter().enumerate() {
            let Some(v) = *v else { continue };
            let color = if circular {
                palette[ci % palette.len()].clone()
            } else {
                palette[si % palette.len()].clone()
            };
            let x = plot.x + slot * ci as f32;
            let (kind, bbox) = match p.kind {
                ChartKind::Line | ChartKind::Area | ChartKind::StackedArea => (
                    MarkKind::LinePoint,
                    BBox {
                        x: x + slot / 2.0 - 3.0,
                        y: y_of(v) - 3.0,
                        w: 6.0,
                        h: 6.0,
                    },
                ),
                ChartKind::Pie | ChartKind::Donut => (
                    MarkKind::Slice,
                    BBox {
                        x: plot.x + 10.0 * ci as f32,
                        y: plot.y,
                        w: 40.0,
                        h: 40.0,
                    },
                ),
                ChartKind::Scatter | ChartKind::Bubble => (
                    MarkKind::ScatterPoint,
                    BBox {
                        x: x + slot / 2.0,
                        y: y_of(v),
                        w: 4.0,
                        h: 4.0,
                    },
                ),
                _ => {
                    let w = slot * 0.7 / cols.len() as f32;
                    (
                        MarkKind::Bar,
                        BBox {
                            x: x + slot * 0.15 + w * si as f32,
                            y: y_of(v),
                            w,
                            h: plot.bottom() - y_of(v),
                        },
                    )
                }
            };
            marks.push(Mark {
                kind,
                series: c.name.clone(),
                category: Some(cats[ci].clone()),
                value: v,
                x_value: None,
                size_value: None,
                color,
                bbox,
                sweep_deg: None,
                label: None,
            });
        }
    }
    let (x_ticks, y_ticks) = if circular {
        (Vec::new(), Vec::new())
    } else {
        let x_ticks = cats
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let pos = plot.x + slot * (i as f32 + 0.5);
                Tick {
                    label: c.clone(),
                    value: None,
                    pos,
                    bbox: text_box(c, pos, plot.bottom() + 4.0).bbox,
                    category: None,
                }
            })
            .collect();
        let decimals = if step.fract() == 0.0 { 0 } else { 1 };
        let n = (top / step).round() as usize;
        let y_ticks = (0..=n)
            .map(|i| {
                let v = step * i as f64;
                let label = crate::ir::answer::format_number(v, decimals);
                let pos = y_of(v);
                Tick {
                    bbox: text_box(&label, plot.x - 40.0, pos).bbox,
                    label,
                    value: Some(v),
                    pos,
                    category: None,
                }
            })
            .collect();
        (x_ticks, y_ticks)
    };
    let legend = if circular {
        cats.iter()
            .enumerate()
            .map(|(i, c)| LegendEntry {
                label: c.clone(),
                color: palette[i % palette.len()].clone(),
                bbox: text_box(c, plot.right() - 80.0, plot.y + 16.0 * i as f32).bbox,
                category: None,
            })
            .collect()
    } else if cols.len() > 1 {
        cols.iter()
            .enumerate()
            .map(|(i, c)| LegendEntry {
                label: c.name.clone(),
                color: palette[i % palette.len()].clone(),
                bbox: text_box(&c.name, plot.right() - 80.0, plot.y + 16.0 * i as f32).bbox,
                category: None,
            })
            .collect()
    } else {
        Vec::new()
    };
    PanelScene {
        index,
        row,
        col,
        kind: p.kind,
        table_id: table.id.clone(),
        plot_area: plot,
        title: p
            .title
            .as_deref()
            .map(|t| text_box(t, area.x + 20.0, area.y + 8.0)),
        subtitle: None,
        x_label: p
            .x_label
            .as_deref()
            .filter(|_| !circular)
            .map(|t| text_box(t, plot.x + plot.w / 2.0, plot.bottom() + 24.0)),
        y_label: p
            .y_label
            .as_deref()
            .filter(|_| !circular)
            .map(|t| text_box(t, area.x + 4.0, plot.y + plot.h / 2.0)),
        x_ticks,
        y_ticks,
        log_y: false,
        marks,
        legend,
        direct_labels: Vec::new(),
        annotation: None,
        heatmap: None,
        stat: None,
        category_labels: Vec::new(),
        radar: None,
        dual_axis: None,
    }
}

/// A scene consistent with `spec`: every non-missing cell drawn as a mark.
pub fn scene_for(spec: &ChartSpec) -> Scene {
    let (rows, cols) = match &spec.layout {
        Layout::Single { .. } => (1, 1),
        Layout::Grid { rows, cols, .. } | Layout::Figure { rows, cols, .. } => (*rows, *cols),
        Layout::Dashboard {
            grid_rows,
            grid_cols,
            ..
        } => (*grid_rows, *grid_cols),
    };
    let cell_w = spec.width as f32 / cols as f32;
    let cell_h = spec.height as f32 / rows as f32;
    let positions: Vec<(u32, u32)> = match &spec.layout {
        Layout::Dashboard { panels, .. } => panels.iter().map(|p| (p.row, p.col)).collect(),
        _ => (0..spec.panels().len() as u32)
            .map(|i| (i / cols, i % cols))
            .collect(),
    };
    let panels = spec
        .panels()
        .into_iter()
        .zip(positions)
        .enumerate()
        .map(|(i, (p, (r, c)))| {
            let area = BBox {
                x: c as f32 * cell_w,
                y: r as f32 * cell_h,
                w: cell_w,
                h: cell_h,
            };
            panel_scene(i, r, c, area, p)
        })
        .collect();
    Scene {
        width: spec.width,
        height: spec.height,
        title: spec.title.as_deref().map(|t| text_box(t, 20.0, 4.0)),
        grid: (rows, cols),
        panels,
        kpis: Vec::new(),
        paragraph: None,
        extra_text: Vec::new(),
        figure: None,
    }
}
