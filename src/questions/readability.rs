//! What a careful person can read off one rendered panel: which categories
//! and series are named in print, and how precisely each value can be read
//! (a printed data label at its printed precision, else ±1 px of mark
//! geometry through the printed ticks). `check` tells whether a data query
//! can be answered from the image alone: numbers within 5%, comparisons
//! decided by gaps larger than the reading error.

use std::collections::{BTreeSet, HashMap};

use crate::ir::query::{AggregateOp, CellRef, Query};
use crate::ir::{ChartKind, MarkKind, PanelScene, Scene, Tick};

/// Relative tolerance a free-form number is scored with.
pub const TOLERANCE: f64 = 0.05;
/// Pixels of error when reading a mark's end against the ticks.
const PX_ERR: f64 = 1.0;
/// A stacked segment is read at both ends.
const STACKED_PX_ERR: f64 = 2.0;
/// Share of the whole a slice's angle is read to without a label (about 7°):
/// enough to rank clearly different slices, not to quote a number.
const ANGLE_ERR: f64 = 0.02;

/// One drawn value as a reader sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    pub value: f64,
    /// Half-width of the interval the value is read within.
    pub err: f64,
    /// One pixel's worth of value at the mark (0 for a printed label): the
    /// extra margin a visual comparison needs.
    pub px: f64,
    /// The value as printed on the mark, when labelled.
    pub printed: Option<f64>,
}

impl Cell {
    fn lo(&self) -> f64 {
        self.value - self.err
    }

    fn hi(&self) -> f64 {
        self.value + self.err
    }
}

/// Whether two values can be told apart: printed labels that differ (rounding
/// keeps order), else a gap wider than both errors plus a pixel.
pub fn decisive(a: &Cell, b: &Cell) -> bool {
    match (a.printed, b.printed) {
        (Some(x), Some(y)) => x != y,
        _ => (a.value - b.value).abs() > a.err + b.err + a.px.max(b.px),
    }
}

/// What can be read off one panel.
#[derive(Debug, Clone, Default)]
pub struct Reading {
    /// Categories whose label (tick, slice label or legend) is printed.
    pub printed: BTreeSet<String>,
    /// Series a reader can name: all when one is drawn, else those in the
    /// legend or direct labels.
    pub series: BTreeSet<String>,
    /// Number of distinct series drawn.
    pub drawn: usize,
    pub circular: bool,
    /// Value units per pixel along a linear value axis (log10 units on a log
    /// axis); None without two printed numeric ticks.
    pub units_per_px: Option<f64>,
    pub log: bool,
    cells: HashMap<(String, String), Cell>,
    /// Categories in mark order, per series.
    order: HashMap<String, Vec<String>>,
    /// A box or violin group's drawn quartiles (q1, q3), read at the box's
    /// edges like any mark end.
    quartiles: HashMap<String, (f64, f64)>,
}

/// Numeric part of a printed label and its decimals ("$1,234.5M" → 1234.5, 1).
fn parse_label(text: &str) -> Option<(f64, u32)> {
    let start = text.find(|c: char| c.is_ascii_digit())?;
    let body: String = text[start..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',')
        .filter(|c| *c != ',')
        .collect();
    let body = body.trim_end_matches('.');
    let decimals = body.find('.').map_or(0, |i| (body.len() - i - 1) as u32);
    Some((body.parse().ok()?, decimals))
}

/// A label's reading: its printed value in data units and half its last
/// digit. `scale` is the label's unit in data units (slices print percent of
/// the total); else the power of ten the true value implies (k, M, B).
fn labelled(value: f64, text: &str, scale: Option<f64>) -> Option<(f64, f64)> {
    let (x, decimals) = parse_label(text)?;
    let half = 0.5 * 10f64.powi(-(decimals as i32));
    let scale = match scale {
        Some(s) => s,
        None if x > 0.0 && value != 0.0 => 10f64.powf((value.abs() / x).log10().round()),
        None => 1.0,
    };
    Some((value.signum() * x * scale, half * scale))
}

fn same_extent(a: &PanelScene, b: &PanelScene, vertical: bool) -> bool {
    let close = |x: f32, y: f32| (x - y).abs() < 0.5;
    if vertical {
        a.row == b.row && close(a.plot_area.y, b.plot_area.y) && close(a.plot_area.h, b.plot_area.h)
    } else {
        a.col == b.col && close(a.plot_area.x, b.plot_area.x) && close(a.plot_area.w, b.plot_area.w)
    }
}

/// The panel's ticks on one axis; a shared axis whose labels are printed on a
/// neighbouring panel (same row for y, same column for x) is read there.
fn axis_ticks<'a>(scene: &'a Scene, p: &'a PanelScene, vertical: bool) -> &'a [Tick] {
    let own = if vertical { &p.y_ticks } else { &p.x_ticks };
    if !own.is_empty() {
        return own;
    }
    scene
        .panels
        .iter()
        .filter(|o| o.index != p.index && o.kind == p.kind && same_extent(p, o, vertical))
        .map(|o| if vertical { &o.y_ticks } else { &o.x_ticks })
        .find(|t| !t.is_empty())
        .map_or(&[], |t| t.as_slice())
}

/// A printed name stands for `full` when equal, the same period written
/// another way (`Jan 2023` for `2023-01`) or a truncation of it.
fn names(printed: &str, full: &str) -> bool {
    let stem = printed.trim_end_matches(['…', '.']).trim_end();
    printed == full
        || crate::spec::dates::names_period(printed, full)
        || (!stem.is_empty() && stem.len() < full.len() && full.starts_with(stem))
}

impl Reading {
    pub fn of(scene: &Scene, panel: usize) -> Option<Reading> {
        let p = scene.panels.iter().find(|p| p.index == panel)?;
        let mut r = Reading {
            circular: p.kind.is_circular(),
            ..Reading::default()
        };
        let mut drawn: Vec<&str> = Vec::new();
        for m in &p.marks {
            if !drawn.contains(&m.series.as_str()) {
                drawn.push(&m.series);
            }
        }
        r.drawn = drawn.len();
        // A heatmap names its series on its rows or columns.
        let heat = p.heatmap.as_ref();
        let series_ticks: &[Tick] = match heat {
            Some(h) if h.series_on_rows => &p.y_ticks,
            Some(_) => &p.x_ticks,
            // A slope chart heads its two axes with the series' names.
            None if p.kind == ChartKind::Slope => &p.x_ticks,
            None => &[],
        };
        r.series = drawn
            .iter()
            .filter(|s| {
                r.drawn <= 1
                    // A waterfall's steps and running total are what the
                    // kind draws: its legend names directions, not series.
                    || matches!(p.kind, ChartKind::Waterfall | ChartKind::ErrorBar)
                    || p.legend.iter().any(|l| l.label == **s)
                    || p.direct_labels.iter().any(|l| names(&l.text, s))
                    || series_ticks.iter().any(|t| names(&t.label, s))
            })
            .map(|s| s.to_string())
            .collect();
        let horizontal = p.kind.is_horizontal() || heat.is_some_and(|h| !h.series_on_rows);
        if r.circular {
            for m in &p.marks {
                let Some(c) = &m.category else { continue };
                if p.legend
                    .iter()
                    .any(|l| l.label == *c || l.category.as_ref() == Some(c))
                    || p.direct_labels.iter().any(|l| names(&l.text, c))
                {
                    r.printed.insert(c.clone());
                }
            }
        } else if !p.category_labels.is_empty() {
            // Names printed beside the marks (slope ends, radar spokes).
            for l in &p.category_labels {
                if names(&l.text.text, &l.category) {
                    r.printed.insert(l.category.clone());
                }
            }
            let values: Vec<(f64, f64)> = p
                .y_ticks
                .iter()
                .filter_map(|t| t.value.map(|v| (f64::from(t.pos), v)))
                .collect();
            if let (Some(a), Some(b)) = (values.first(), values.last())
                && (a.0 - b.0).abs() > 1.0
            {
                r.units_per_px = Some(((b.1 - a.1) / (b.0 - a.0)).abs());
            }
        } else {
            // Each category tick sits at its category's centre; the nearest
            // mark tells which category (grouped bars stay within half a slot).
            let ticks = axis_ticks(scene, p, horizontal);
            let mut seen: BTreeSet<&str> = BTreeSet::new();
            let unique: Vec<&Tick> = ticks
                .iter()
                .filter(|t| t.value.is_none())
                .filter(|t| ticks.iter().filter(|u| u.label == t.label).count() == 1)
                .collect();
            for t in unique {
                let centre = |m: &crate::ir::Mark| {
                    let (x, y) = m.bbox.center();
                    if horizontal { y } else { x }
                };
                let near = p
                    .marks
                    .iter()
                    .filter(|m| m.category.is_some())
                    .min_by(|a, b| {
                        (centre(a) - t.pos)
                            .abs()
                            .total_cmp(&(centre(b) - t.pos).abs())
                    });
                if let Some(c) = near.and_then(|m| m.category.as_deref())
                    && seen.insert(c)
                {
                    r.printed.insert(c.to_string());
                }
            }
            if p.kind == ChartKind::Histogram {
                for m in &p.marks {
                    if let Some(c) = &m.category
                        && crate::reader::sight::bin_edges_printed(p, c, &m.bbox, &|_| true)
                    {
                        r.printed.insert(c.clone());
                    }
                }
            }
            let values: Vec<(f64, f64)> = axis_ticks(scene, p, !horizontal)
                .iter()
                .filter_map(|t| t.value.map(|v| (f64::from(t.pos), v)))
                .filter(|(_, v)| !p.log_y || *v > 0.0)
                .map(|(pos, v)| (pos, if p.log_y { v.log10() } else { v }))
                .collect();
            r.log = p.log_y;
            if let (Some(a), Some(b)) = (values.first(), values.last())
                && (a.0 - b.0).abs() > 1.0
            {
                r.units_per_px = Some(((b.1 - a.1) / (b.0 - a.0)).abs());
            }
        }
        let total: f64 = p.marks.iter().map(|m| m.value.abs()).sum();
        let label_scale = r.circular.then_some(total / 100.0);
        let stacked = p.kind.is_stacked();
        for m in &p.marks {
            let Some(c) = &m.category else { continue };
            if m.kind == MarkKind::ScatterPoint {
                continue;
            }
            let printed = m
                .label
                .as_ref()
                .and_then(|l| labelled(m.value, &l.text, label_scale));
            let px = if r.circular || heat.is_some() {
                0.0
            } else {
                r.pixel(m.value)
            };
            let cell = match printed {
                Some((v, half)) => Cell {
                    value: m.value,
                    err: half,
                    px: 0.0,
                    printed: Some(v),
                },
                None if r.circular => Cell {
                    value: m.value,
                    err: ANGLE_ERR * total,
                    px: 0.0,
                    printed: None,
                },
                // A cell's colour, matched against the colour bar by eye.
                None if heat.is_some() => Cell {
                    value: m.value,
                    err: crate::render::colormap::READ_ERR
                        * heat.map_or(0.0, |h| (h.colorbar.max - h.colorbar.min).abs()),
                    px: 0.0,
                    printed: None,
                },
                None => {
                    let first = drawn.first().is_some_and(|s| *s == m.series);
                    // A waterfall step is a length between two read ends.
                    let step = p.kind == ChartKind::Waterfall && m.kind == MarkKind::Bar;
                    let k = if stacked && !first || step {
                        STACKED_PX_ERR
                    } else {
                        PX_ERR
                    };
                    Cell {
                        value: m.value,
                        err: k * px,
                        px,
                        printed: None,
                    }
                }
            };
            r.cells.insert((m.series.clone(), c.clone()), cell);
            r.order.entry(m.series.clone()).or_default().push(c.clone());
        }
        for g in p.stat.iter().flat_map(|s| &s.groups) {
            r.quartiles.insert(g.group.clone(), (g.q1, g.q3));
        }
        // An interval's width is the distance between its two caps: read
        // within both caps' errors.
        if p.kind == ChartKind::ErrorBar {
            use crate::spec::error_bar::{LOWER, UPPER, WIDTH};
            let cats = r.order.get(UPPER).cloned().unwrap_or_default();
            for c in cats {
                let get = |s: &str| r.cells.get(&(s.to_string(), c.clone())).copied();
                if let (Some(lo), Some(hi)) = (get(LOWER), get(UPPER)) {
                    let cell = Cell {
                        value: hi.value - lo.value,
                        err: hi.err + lo.err,
                        px: hi.px.max(lo.px),
                        printed: None,
                    };
                    r.cells.insert((WIDTH.to_string(), c.clone()), cell);
                    r.order.entry(WIDTH.to_string()).or_default().push(c);
                }
            }
            if r.order.contains_key(WIDTH) {
                r.series.insert(WIDTH.to_string());
            }
        }
        Some(r)
    }

    /// One pixel's worth of value at `v` (infinite without a value axis).
    fn pixel(&self, v: f64) -> f64 {
        match self.units_per_px {
            None => f64::INFINITY,
            Some(u) if self.log => v.abs() * (10f64.powf(u) - 1.0),
            Some(u) => u,
        }
    }

    pub fn category_printed(&self, category: &str) -> bool {
        self.printed.contains(category)
    }

    pub fn series_named(&self, series: &str) -> bool {
        self.series.contains(series)
    }

    /// A cell the question names: its category printed and its series
    /// identifiable.
    pub fn cell(&self, series: &str, category: &str) -> Result<Cell, &'static str> {
        if !self.category_printed(category) {
            return Err("category_not_printed");
        }
        if !self.series_named(series) {
            return Err("series_not_identifiable");
        }
        self.cells
            .get(&(series.to_string(), category.to_string()))
            .copied()
            .ok_or("not_drawn")
    }

    /// Every drawn cell of a named series, in category order.
    fn series_cells(&self, series: &str) -> Result<Vec<(&str, Cell)>, &'static str> {
        if !self.series_named(series) {
            return Err("series_not_identifiable");
        }
        let cats = self.order.get(series).ok_or("not_drawn")?;
        Ok(cats
            .iter()
            .filter_map(|c| {
                self.cells
                    .get(&(series.to_string(), c.clone()))
                    .map(|cell| (c.as_str(), *cell))
            })
            .collect())
    }

    /// Series a question about `series` (None = every drawn one) reads.
    fn cells_of(&self, series: &Option<String>) -> Result<Vec<(&str, Cell)>, &'static str> {
        match series {
            Some(s) => self.series_cells(s),
            None if self.drawn >= 2 => Err("series_unnamed"),
            None => {
                let s = self.order.keys().next().ok_or("not_drawn")?;
                self.series_cells(s)
            }
        }
    }

    fn absolute(&self) -> Result<(), &'static str> {
        // Slices print percentages, never values.
        if self.circular {
            Err("slice_value")
        } else {
            Ok(())
        }
    }
}

/// `[lo, hi]` lies within the tolerance of `gold`.
fn within(gold: f64, lo: f64, hi: f64) -> Result<(), &'static str> {
    let tol = TOLERANCE * gold.abs();
    let ok =
        lo.is_finite() && hi.is_finite() && (gold - lo).abs() <= tol && (hi - gold).abs() <= tol;
    if ok { Ok(()) } else { Err("imprecise") }
}

fn ok_if(cond: bool, reason: &'static str) -> Result<(), &'static str> {
    if cond { Ok(()) } else { Err(reason) }
}

/// The single cell that wins (highest or lowest), if decisively so and named.
fn winner<'a>(
    r: &Reading,
    cells: &[(&'a str, Cell)],
    highest: bool,
) -> Result<(&'a str, Cell), &'static str> {
    let best = cells
        .iter()
        .copied()
        .max_by(|a, b| {
            let o = a.1.value.total_cmp(&b.1.value);
            if highest { o } else { o.reverse() }
        })
        .ok_or("not_drawn")?;
    ok_if(r.category_printed(best.0), "category_not_printed")?;
    let clear = cells
        .iter()
        .filter(|c| c.0 != best.0)
        .all(|c| decisive(&best.1, &c.1));
    ok_if(clear, "close_call")?;
    Ok(best)
}

/// Interval of a sum.
fn sum(cells: &[Cell]) -> (f64, f64, f64) {
    cells.iter().fold((0.0, 0.0, 0.0), |(v, lo, hi), c| {
        (v + c.value, lo + c.lo(), hi + c.hi())
    })
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Extremes of `f` over the corners of two intervals (`f` monotone in each).
fn corners(a: &Cell, b: &Cell, f: impl Fn(f64, f64) -> f64) -> (f64, f64) {
    let v = [
        f(a.lo(), b.lo()),
        f(a.lo(), b.hi()),
        f(a.hi(), b.lo()),
        f(a.hi(), b.hi()),
    ];
    (
        v.iter().copied().fold(f64::INFINITY, f64::min),
        v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    )
}

fn cell_of(r: &Reading, c: &CellRef) -> Result<Cell, &'static str> {
    r.cell(&c.series, &c.category)
}

/// Whether `q` (a data query on the panel `r` reads) can be answered from the
/// image alone; the error names why not.
pub fn check(q: &Query, r: &Reading) -> Result<(), &'static str> {
    match q {
        Query::ValueAt {
            series, category, ..
        } => {
            r.absolute()?;
            let c = r.cell(series, category)?;
            within(c.value, c.lo(), c.hi())
        }
        Query::Argmax { series, .. } | Query::Argmin { series, .. } => {
            let cells = r.cells_of(series)?;
            winner(r, &cells, matches!(q, Query::Argmax { .. })).map(|_| ())
        }
        Query::MaxValue { series, .. } | Query::MinValue { series, .. } => {
            r.absolute()?;
            let cells = r.cells_of(series)?;
            let pick = |f: fn(&Cell) -> f64| {
                let it = cells.iter().map(|c| f(&c.1));
                if matches!(q, Query::MaxValue { .. }) {
                    it.fold(f64::NEG_INFINITY, f64::max)
                } else {
                    it.fold(f64::INFINITY, f64::min)
                }
            };
            within(pick(|c| c.value), pick(Cell::lo), pick(Cell::hi))
        }
        Query::Difference { a, b, .. } => {
            r.absolute()?;
            let (a, b) = (cell_of(r, a)?, cell_of(r, b)?);
            within(a.value - b.value, a.lo() - b.hi(), a.hi() - b.lo())
        }
        Query::Ratio { a, b, .. } => {
            let (a, b) = (cell_of(r, a)?, cell_of(r, b)?);
            ok_if(b.lo() > 0.0 || b.hi() < 0.0, "imprecise")?;
            let (lo, hi) = corners(&a, &b, |x, y| x / y);
            within(a.value / b.value, lo, hi)
        }
        Query::PercentChange {
            series, from, to, ..
        } => {
            let (f, t) = (r.cell(series, from)?, r.cell(series, to)?);
            ok_if(f.lo() > 0.0 || f.hi() < 0.0, "imprecise")?;
            let pc = |x: f64, y: f64| (y - x) / x.abs();
            let (lo, hi) = corners(&f, &t, pc);
            within(pc(f.value, t.value), lo, hi)
        }
        Query::Aggregate {
            agg,
            series,
            categories,
            ..
        } => {
            r.absolute()?;
            let cells: Vec<Cell> = if categories.is_empty() {
                r.series_cells(series)?.into_iter().map(|c| c.1).collect()
            } else {
                categories
                    .iter()
                    .map(|c| r.cell(series, c))
                    .collect::<Result<_, _>>()?
            };
            let n = cells.len().max(1) as f64;
            match agg {
                AggregateOp::Sum => {
                    let (v, lo, hi) = sum(&cells);
                    within(v, lo, hi)
                }
                AggregateOp::Mean => {
                    let (v, lo, hi) = sum(&cells);
                    within(v / n, lo / n, hi / n)
                }
                AggregateOp::Median => {
                    let m = |f: fn(&Cell) -> f64| median(cells.iter().map(f).collect());
                    within(m(|c| c.value), m(Cell::lo), m(Cell::hi))
                }
            }
        }
        Query::Spread { series, .. } => {
            r.absolute()?;
            let cells = r.series_cells(series)?;
            let ext = |f: fn(&Cell) -> f64, max: bool| {
                let it = cells.iter().map(|c| f(&c.1));
                if max {
                    it.fold(f64::NEG_INFINITY, f64::max)
                } else {
                    it.fold(f64::INFINITY, f64::min)
                }
            };
            let gold = ext(|c| c.value, true) - ext(|c| c.value, false);
            within(
                gold,
                ext(Cell::lo, true) - ext(Cell::hi, false),
                ext(Cell::hi, true) - ext(Cell::lo, false),
            )
        }
        Query::TopMean { series, k, .. } => {
            r.absolute()?;
            let cells = r.series_cells(series)?;
            let top = |f: fn(&Cell) -> f64| {
                let mut v: Vec<f64> = cells.iter().map(|c| f(&c.1)).collect();
                v.sort_by(|a, b| b.total_cmp(a));
                v.iter().take(*k).sum::<f64>() / (*k).max(1) as f64
            };
            within(top(|c| c.value), top(Cell::lo), top(Cell::hi))
        }
        Query::Share {
            series, category, ..
        } => share(r, series, std::slice::from_ref(category)),
        Query::ShareSum {
            series, categories, ..
        } => share(r, series, categories),
        Query::CountThreshold {
            series, threshold, ..
        } => {
            let cells = r.series_cells(series)?;
            let clear = cells.iter().all(|(_, c)| match c.printed {
                Some(p) => p != *threshold && (c.value - threshold).abs() > c.err,
                None => (c.value - threshold).abs() > c.err + c.px,
            });
            ok_if(clear, "close_call")
        }
        Query::Compare { a, b, .. } => {
            let (a, b) = (cell_of(r, a)?, cell_of(r, b)?);
            ok_if(decisive(&a, &b), "close_call")
        }
        Query::Rank {
            series, category, ..
        } => {
            let c = r.cell(series, category)?;
            let cells = r.series_cells(series)?;
            let clear = cells
                .iter()
                .filter(|o| o.0 != category)
                .all(|o| decisive(&c, &o.1));
            ok_if(clear, "close_call")
        }
        Query::LargestChange {
            series, increase, ..
        } => {
            let cells = r.series_cells(series)?;
            let steps: Vec<(&str, Cell)> = cells
                .windows(2)
                .map(|w| {
                    let (a, b) = (w[0].1, w[1].1);
                    let step = Cell {
                        value: b.value - a.value,
                        err: a.err + b.err,
                        px: a.px.max(b.px),
                        printed: None,
                    };
                    (w[1].0, step)
                })
                .collect();
            winner(r, &steps, *increase).map(|_| ())
        }
        Query::SlopeChange { from, to, rise, .. } => {
            let (xa, xb) = (r.series_cells(from)?, r.series_cells(to)?);
            let changes: Vec<(&str, Cell)> = xa
                .iter()
                .filter_map(|(c, x)| {
                    let y = xb.iter().find(|o| o.0 == *c)?.1;
                    let change = Cell {
                        value: y.value - x.value,
                        err: x.err + y.err,
                        px: x.px.max(y.px),
                        printed: None,
                    };
                    Some((*c, change))
                })
                .collect();
            winner(r, &changes, *rise).map(|_| ())
        }
        Query::MaxGap { a, b, .. } => {
            let (xa, xb) = (r.series_cells(a)?, r.series_cells(b)?);
            let gaps: Vec<(&str, Cell)> = xa
                .iter()
                .filter_map(|(c, x)| {
                    let y = xb.iter().find(|o| o.0 == *c)?.1;
                    let gap = Cell {
                        value: (x.value - y.value).abs(),
                        err: x.err + y.err,
                        px: x.px.max(y.px),
                        printed: None,
                    };
                    Some((*c, gap))
                })
                .collect();
            winner(r, &gaps, true).map(|_| ())
        }
        Query::Trend { series, .. } => ok_if(r.series_named(series), "series_not_identifiable"),
        Query::Crosses { a, b, .. } => ok_if(
            r.series_named(a) && r.series_named(b),
            "series_not_identifiable",
        ),
        // A box's two ends, each read to a pixel through the value ticks.
        Query::Iqr { group, .. } => {
            ok_if(r.category_printed(group), "category_not_printed")?;
            let (q1, q3) = *r.quartiles.get(group).ok_or("not_drawn")?;
            let e = PX_ERR * r.pixel(q3);
            within(q3 - q1, q3 - q1 - 2.0 * e, q3 - q1 + 2.0 * e)
        }
        // Points are counted once the group is named; points too close to
        // count are refused by the executor, which sees their pixels.
        Query::OutlierCount { group, .. } => {
            ok_if(r.category_printed(group), "category_not_printed")
        }
        // Bars summed from one printed edge to another: each bar's end read
        // to a pixel.
        Query::BinRangeCount { from, to, .. } => {
            let bins = r
                .order
                .get(crate::spec::stat::COUNT_SERIES)
                .ok_or("not_drawn")?;
            let (i, j) =
                crate::query::dist::bin_span(bins, from, to).ok_or("category_not_printed")?;
            let cells: Vec<Cell> = bins[i..=j]
                .iter()
                .map(|b| {
                    r.cells
                        .get(&(crate::spec::stat::COUNT_SERIES.to_string(), b.clone()))
                        .copied()
                        .ok_or("not_drawn")
                })
                .collect::<Result<_, _>>()?;
            let (v, lo, hi) = sum(&cells);
            within(v, lo, hi)
        }
        Query::IntervalsOverlap { a, b, .. } => ok_if(
            r.category_printed(a) && r.category_printed(b),
            "category_not_printed",
        ),
        Query::MultipleChoice { base, .. } | Query::FactCheck { base, .. } => check(base, r),
        Query::Hypothetical { base, change } => {
            if let Some(c) = &change.category {
                ok_if(r.category_printed(c), "category_not_printed")?;
            }
            ok_if(r.series_named(&change.series), "series_not_identifiable")?;
            check(base, r)
        }
        Query::Conversation { turns } => turns.iter().try_for_each(|t| check(t, r)),
        // Descriptive and paragraph questions are read from text.
        _ => Ok(()),
    }
}

/// Share of `categories` in their series' total: only from printed slice
/// percentages (an angle is not read to 5%).
fn share(r: &Reading, series: &str, categories: &[String]) -> Result<(), &'static str> {
    let all = r.series_cells(series)?;
    let total: f64 = all.iter().map(|c| c.1.value).sum();
    let cells: Vec<Cell> = categories
        .iter()
        .map(|c| r.cell(series, c))
        .collect::<Result<_, _>>()?;
    ok_if(
        cells.iter().all(|c| c.printed.is_some()),
        "slice_unlabelled",
    )?;
    let (v, lo, hi) = sum(&cells);
    within(v / total, lo / total, hi / total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::query::CellRef;
    use crate::ir::{BBox, LegendEntry, Mark, NamedColor, TextBox};

    fn color() -> NamedColor {
        NamedColor {
            name: "blue".into(),
            hex: "#0000ff".into(),
        }
    }

    fn tick(label: &str, value: Option<f64>, pos: f32) -> Tick {
        Tick {
            label: label.into(),
            value,
            pos,
            bbox: BBox::default(),
            category: None,
        }
    }

    /// Bars on a 0–100 axis drawn over 200 px (0.5 units per px).
    fn bar(series: &str, category: &str, value: f64, x: f32, label: Option<&str>) -> Mark {
        let h = (value / 0.5) as f32;
        Mark {
            kind: MarkKind::Bar,
            series: series.into(),
            category: Some(category.into()),
            value,
            x_value: None,
            size_value: None,
            color: color(),
            bbox: BBox {
                x: x - 5.0,
                y: 300.0 - h,
                w: 10.0,
                h,
            },
            sweep_deg: None,
            label: label.map(|t| TextBox {
                text: t.into(),
                bbox: BBox::default(),
            }),
        }
    }

    fn panel(kind: ChartKind, marks: Vec<Mark>, x_ticks: Vec<Tick>) -> Scene {
        Scene {
            width: 400,
            height: 400,
            title: None,
            grid: (1, 1),
            panels: vec![PanelScene {
                index: 0,
                row: 0,
                col: 0,
                kind,
                table_id: "t".into(),
                plot_area: BBox {
                    x: 50.0,
                    y: 100.0,
                    w: 300.0,
                    h: 200.0,
                },
                title: None,
                subtitle: None,
                x_label: None,
                y_label: None,
                x_ticks,
                y_ticks: vec![tick("0", Some(0.0), 300.0), tick("100", Some(100.0), 100.0)],
                log_y: false,
                marks,
                legend: Vec::new(),
                direct_labels: Vec::new(),
                annotation: None,
                heatmap: None,
                stat: None,
                category_labels: Vec::new(),
                radar: None,
                dual_axis: None,
            }],
            kpis: Vec::new(),
            paragraph: None,
            extra_text: Vec::new(),
            figure: None,
        }
    }

    fn value_at(series: &str, category: &str) -> Query {
        Query::ValueAt {
            panel: 0,
            series: series.into(),
            category: category.into(),
        }
    }

    fn cell(series: &str, category: &str) -> CellRef {
        CellRef {
            series: series.into(),
            category: category.into(),
        }
    }

    #[test]
    fn labels_read_at_their_printed_precision() {
        assert_eq!(parse_label("$1,234.5M"), Some((1234.5, 1)));
        assert_eq!(parse_label("-12%"), Some((12.0, 0)));
        let (v, half) = labelled(1_234_000.0, "1.2M", None).unwrap();
        assert!((v - 1_200_000.0).abs() < 1e-6 && (half - 50_000.0).abs() < 1e-6);
        let (v, half) = labelled(-3.2, "-3", None).unwrap();
        assert_eq!((v, half), (-3.0, 0.5));
        let (v, half) = labelled(30.0, "25.0%", Some(1.2)).unwrap();
        assert!((v - 30.0).abs() < 1e-9 && (half - 0.06).abs() < 1e-9);
    }

    #[test]
    fn thinned_categories_tiny_bars_and_close_calls() {
        let scene = panel(
            ChartKind::Bar,
            vec![
                bar("s", "A", 50.0, 100.0, None),
                bar("s", "B", 50.6, 150.0, None),
                bar("s", "C", 2.0, 200.0, None),
            ],
            vec![tick("A", None, 100.0), tick("C", None, 200.0)],
        );
        let r = Reading::of(&scene, 0).unwrap();
        assert_eq!(r.units_per_px, Some(0.5));
        assert_eq!(r.printed, BTreeSet::from(["A".into(), "C".into()]));
        assert_eq!(check(&value_at("s", "A"), &r), Ok(()));
        assert_eq!(check(&value_at("s", "B"), &r), Err("category_not_printed"));
        // 2 ± 0.5 is not 2 within 5%.
        assert_eq!(check(&value_at("s", "C"), &r), Err("imprecise"));
        // B (unprinted) is the tallest bar, and only 0.6 above A.
        let argmax = Query::Argmax {
            panel: 0,
            series: Some("s".into()),
        };
        assert_eq!(check(&argmax, &r), Err("category_not_printed"));
        let argmin = Query::Argmin {
            panel: 0,
            series: Some("s".into()),
        };
        assert_eq!(check(&argmin, &r), Ok(()));
        let compare = Query::Compare {
            panel: 0,
            a: cell("s", "A"),
            b: cell("s", "C"),
        };
        assert_eq!(check(&compare, &r), Ok(()));
        let count = |threshold: f64| Query::CountThreshold {
            panel: 0,
            series: "s".into(),
            threshold,
            above: true,
        };
        assert_eq!(check(&count(30.0), &r), Ok(()));
        assert_eq!(check(&count(50.3), &r), Err("close_call"));
    }

    #[test]
    fn printed_labels_decide_close_values() {
        let scene = panel(
            ChartKind::Bar,
            vec![
                bar("s", "A", 12.0, 100.0, Some("12")),
                bar("s", "B", 13.0, 150.0, Some("13")),
            ],
            vec![tick("A", None, 100.0), tick("B", None, 150.0)],
        );
        let r = Reading::of(&scene, 0).unwrap();
        let compare = Query::Compare {
            panel: 0,
            a: cell("s", "A"),
            b: cell("s", "B"),
        };
        assert_eq!(check(&compare, &r), Ok(()));
        // 13 - 12 from labels is 1 ± 1: not within 5%.
        let diff = Query::Difference {
            panel: 0,
            a: cell("s", "B"),
            b: cell("s", "A"),
        };
        assert_eq!(check(&diff, &r), Err("imprecise"));
        assert_eq!(check(&value_at("s", "B"), &r), Ok(()));
    }

    #[test]
    fn several_series_are_named_and_identifiable() {
        let mut scene = panel(
            ChartKind::GroupedBar,
            vec![
                bar("x", "A", 50.0, 98.0, None),
                bar("y", "A", 20.0, 102.0, None),
                bar("x", "B", 10.0, 148.0, None),
                bar("y", "B", 80.0, 152.0, None),
            ],
            vec![tick("A", None, 100.0), tick("B", None, 150.0)],
        );
        let unnamed = Query::Argmin {
            panel: 0,
            series: None,
        };
        let r = Reading::of(&scene, 0).unwrap();
        assert_eq!(check(&unnamed, &r), Err("series_unnamed"));
        // No legend: neither series can be told apart.
        assert_eq!(
            check(&value_at("x", "A"), &r),
            Err("series_not_identifiable")
        );
        scene.panels[0].legend = legend(&["x", "y"]);
        let r = Reading::of(&scene, 0).unwrap();
        assert_eq!(check(&value_at("x", "A"), &r), Ok(()));
        assert_eq!(check(&unnamed, &r), Err("series_unnamed"));
    }

    fn legend(labels: &[&str]) -> Vec<LegendEntry> {
        labels
            .iter()
            .map(|l| LegendEntry {
                label: l.to_string(),
                color: color(),
                bbox: BBox::default(),
                category: None,
            })
            .collect()
    }

    fn slice(category: &str, value: f64, label: Option<&str>) -> Mark {
        Mark {
            kind: MarkKind::Slice,
            label: label.map(|t| TextBox {
                text: t.into(),
                bbox: BBox::default(),
            }),
            ..bar("s", category, value, 0.0, None)
        }
    }

    #[test]
    fn pies_share_only_printed_percentages_and_no_values() {
        let mut scene = panel(
            ChartKind::Pie,
            vec![
                slice("A", 30.0, Some("30.0%")),
                slice("B", 50.0, Some("50.0%")),
                slice("C", 20.0, None),
            ],
            Vec::new(),
        );
        scene.panels[0].legend = legend(&["A", "B", "C"]);
        let r = Reading::of(&scene, 0).unwrap();
        let share = |c: &str| Query::Share {
            panel: 0,
            series: "s".into(),
            category: c.into(),
            decimals: 1,
        };
        assert_eq!(check(&share("A"), &r), Ok(()));
        assert_eq!(check(&share("C"), &r), Err("slice_unlabelled"));
        assert_eq!(check(&value_at("s", "A"), &r), Err("slice_value"));
        let argmax = Query::Argmax {
            panel: 0,
            series: Some("s".into()),
        };
        assert_eq!(check(&argmax, &r), Ok(()));
    }

    /// Every fixture on every suitable kind: generated questions name only
    /// printed categories and, on several series, always a series.
    #[test]
    fn generated_questions_are_readable_on_every_fixture() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let (tables, _) = crate::table::load_tables(&[dir], false);
        assert!(tables.len() > 10);
        let style = crate::spec::theme("classic").unwrap();
        let opts = crate::questions::QuestionOptions {
            seed: 5,
            count: 30,
            ..Default::default()
        };
        let mut checked = 0;
        for t in &tables {
            for kind in crate::spec::suitable_kinds(t) {
                let Ok(spec) = crate::spec::single(t, kind, &style) else {
                    continue;
                };
                let out = crate::render::render(&spec).unwrap();
                for q in crate::questions::generate(&t.id, &spec, &out.scene, &opts) {
                    if !q.answerable || crate::query::is_descriptive(&q.query) {
                        continue;
                    }
                    let r = Reading::of(&out.scene, q.query.panel()).unwrap();
                    for c in named_categories(q.query.base()) {
                        assert!(r.category_printed(&c), "{}: {}", t.id, q.text);
                    }
                    if r.drawn >= 2 {
                        let unnamed = matches!(
                            q.query.base(),
                            Query::Argmax { series: None, .. }
                                | Query::Argmin { series: None, .. }
                                | Query::MaxValue { series: None, .. }
                                | Query::MinValue { series: None, .. }
                        );
                        assert!(!unnamed, "{}: {}", t.id, q.text);
                    }
                    assert_eq!(check(&q.query, &r), Ok(()), "{}: {}", t.id, q.text);
                    checked += 1;
                }
            }
        }
        assert!(checked > 500, "{checked}");
    }

    fn named_categories(q: &Query) -> Vec<String> {
        match q {
            Query::ValueAt { category, .. }
            | Query::Rank { category, .. }
            | Query::Share { category, .. } => vec![category.clone()],
            Query::Difference { a, b, .. }
            | Query::Ratio { a, b, .. }
            | Query::Compare { a, b, .. } => vec![a.category.clone(), b.category.clone()],
            Query::PercentChange { from, to, .. } => vec![from.clone(), to.clone()],
            Query::Aggregate { categories, .. } | Query::ShareSum { categories, .. } => {
                categories.clone()
            }
            _ => Vec::new(),
        }
    }
}
