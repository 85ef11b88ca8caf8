//! What a careful reader sees on one panel: which categories and series can
//! be identified from printed text, and each mark's value as an interval
//! read from its printed label or its geometry against the value axis.
//! Mark values recorded in the scene are never looked at.

use std::collections::BTreeMap;

use super::axis::{ValueAxis, parse_printed};
use super::interval::Interval;
use super::timeline::Timeline;
use super::view::{SLICE_ANGLE_DEG, View};
use super::{Stop, unreadable};
use crate::ir::{ChartKind, Mark, MarkKind, PanelScene, TextBox};

/// The thinnest bar a careful reader can count on seeing, in pixels.
const MIN_BAR_PX: f64 = 2.0;

/// A hypothetical edit: scale one cell (or a whole series) by a factor.
#[derive(Debug, Clone)]
pub struct Edit {
    pub series: String,
    pub category: Option<String>,
    pub factor: f64,
}

pub struct Sight<'a> {
    pub panel: &'a PanelScene,
    pub view: &'a View,
    value_axis: Option<ValueAxis>,
    /// A dual-axis chart's right axis and the series read on it.
    right_axis: Option<(ValueAxis, String)>,
    /// A scatter plot's x axis and the series it shows (named by its title).
    x_axis: Option<(ValueAxis, String)>,
    horizontal: bool,
    /// Distinct series drawn, in drawing order.
    drawn: Vec<String>,
    /// Category slots (positions) in drawing order, by their scene identity.
    slots: Vec<String>,
    /// Slot → the printed label a reader identifies it by.
    labels: BTreeMap<String, String>,
    /// Slot → its position along the category axis, in pixels.
    positions: BTreeMap<String, f64>,
    /// Printed time labels of the category axis, when it is a time line.
    timeline: Option<Timeline>,
    pub edit: Option<Edit>,
}

fn legible_text<'t>(view: &View, tb: &'t Option<TextBox>) -> Option<&'t str> {
    tb.as_ref()
        .filter(|t| view.legible(&t.bbox))
        .map(|t| t.text.as_str())
}

/// A printed label names `name` when equal, when it writes the same period
/// another way (`Jan '23` for `2023-01`), or when truncated with an ellipsis
/// to a prefix of it.
fn label_names(label: &str, name: &str) -> bool {
    let l = label.trim();
    if l.eq_ignore_ascii_case(name.trim()) || crate::spec::dates::names_period(l, name) {
        return true;
    }
    let stem = l.trim_end_matches(['…', '.']).trim_end();
    stem.len() >= 3 && stem.len() < l.len() && name.to_lowercase().starts_with(&stem.to_lowercase())
}

impl<'a> Sight<'a> {
    pub fn new(panel: &'a PanelScene, view: &'a View) -> Sight<'a> {
        // A heatmap's categories run down its rows unless its series do;
        // its values are read on the colour bar.
        let heat = panel.heatmap.as_ref();
        let horizontal = panel.kind.is_horizontal() || heat.is_some_and(|h| !h.series_on_rows);
        let (value_ticks, cat_ticks) = if horizontal {
            (&panel.x_ticks, &panel.y_ticks)
        } else {
            (&panel.y_ticks, &panel.x_ticks)
        };
        let value_ticks = heat.map_or(value_ticks, |h| &h.colorbar.ticks);
        let scatter = matches!(panel.kind, ChartKind::Scatter | ChartKind::Bubble);
        let mut drawn: Vec<String> = Vec::new();
        let mut slots: Vec<String> = Vec::new();
        for m in &panel.marks {
            if !drawn.contains(&m.series) {
                drawn.push(m.series.clone());
            }
            if let Some(c) = &m.category
                && !slots.contains(c)
            {
                slots.push(c.clone());
            }
        }
        // Printed texts that can name a category slot.
        let mut printed: Vec<(&str, Option<&str>)> = Vec::new();
        // Names printed beside the marks (slope ends, radar spokes) name
        // the category they were printed for.
        let beside = !panel.category_labels.is_empty();
        if beside {
            for l in panel
                .category_labels
                .iter()
                .filter(|l| view.legible(&l.text.bbox))
            {
                printed.push((&l.text.text, Some(l.category.as_str())));
            }
        } else if panel.kind.is_circular() {
            for t in panel.direct_labels.iter().filter(|t| view.legible(&t.bbox)) {
                printed.push((&t.text, None));
            }
            for e in panel.legend.iter().filter(|e| view.legible(&e.bbox)) {
                printed.push((&e.label, None));
            }
        } else if scatter {
            for m in &panel.marks {
                if let (Some(t), Some(c)) = (legible_text(view, &m.label), &m.category) {
                    printed.push((t, Some(c.as_str())));
                }
            }
        } else {
            for t in cat_ticks.iter().filter(|t| view.legible(&t.bbox)) {
                printed.push((&t.label, None));
            }
        }
        let mut positions = BTreeMap::new();
        if !scatter && !panel.kind.is_circular() && !beside {
            for slot in &slots {
                let centres: Vec<f64> = panel
                    .marks
                    .iter()
                    .filter(|m| m.category.as_ref() == Some(slot))
                    .map(|m| {
                        let (x, y) = m.bbox.center();
                        f64::from(if horizontal { y } else { x })
                    })
                    .collect();
                positions.insert(
                    slot.clone(),
                    centres.iter().sum::<f64>() / centres.len().max(1) as f64,
                );
            }
        }
        let timeline = if positions.is_empty() {
            None
        } else {
            // A printed time in the table's form (`Jan '23` read as `2023-01`,
            // the century known from the chart).
            let printed_ticks: Vec<(f64, &str)> = cat_ticks
                .iter()
                .filter(|t| view.legible(&t.bbox))
                .map(|t| (f64::from(t.pos), t.category.as_deref().unwrap_or(&t.label)))
                .collect();
            Timeline::new(&printed_ticks)
        };
        let mut labels = BTreeMap::new();
        for slot in &slots {
            let matching: Vec<&str> = printed
                .iter()
                .filter(|(text, owner)| owner.is_none_or(|o| o == slot) && label_names(text, slot))
                .map(|(t, _)| *t)
                .collect();
            // A truncated label that fits several slots identifies none.
            let unique = matching.iter().any(|t| t.trim() == slot.trim())
                || (matching.len() == 1
                    && slots.iter().filter(|s| label_names(matching[0], s)).count() == 1);
            if unique {
                labels.insert(slot.clone(), slot.clone());
            }
        }
        // A histogram's bin is named by its two edges, printed as ticks at
        // the sides of its bar.
        if panel.kind == ChartKind::Histogram {
            for slot in &slots {
                if let Some(m) = panel
                    .marks
                    .iter()
                    .find(|m| m.category.as_ref() == Some(slot))
                    && bin_edges_printed(panel, slot, &m.bbox, &|b| view.legible(b))
                {
                    labels.insert(slot.clone(), slot.clone());
                }
            }
        }
        Sight {
            panel,
            view,
            value_axis: ValueAxis::from_ticks(value_ticks, view),
            right_axis: panel.dual_axis.as_ref().and_then(|d| {
                ValueAxis::from_ticks(&d.right_ticks, view).map(|a| (a, d.right_series.clone()))
            }),
            x_axis: if scatter {
                ValueAxis::from_ticks(&panel.x_ticks, view)
                    .zip(legible_text(view, &panel.x_label).map(str::to_string))
            } else {
                None
            },
            horizontal,
            drawn,
            slots,
            labels,
            positions,
            timeline,
            edit: None,
        }
    }

    /// A category the question names: identified by its printed label (or
    /// its place on a time line), absent when every slot is labelled and
    /// none reads so, else unreadable.
    pub fn category(&self, name: &str) -> Result<&str, Stop> {
        if let Some((slot, _)) = self
            .labels
            .iter()
            .find(|(_, l)| l.trim().eq_ignore_ascii_case(name.trim()))
        {
            return Ok(slot);
        }
        if let Some(line) = &self.timeline
            && let Some(px) = line.pixel_of(name)
        {
            return match self.slot_near(px) {
                Some(slot) => Ok(slot),
                None if self.beyond(px) => {
                    Err(Stop::Absent(format!("{name:?} is outside the time axis")))
                }
                None => Err(unreadable(
                    "category_unlabelled",
                    format!("{name:?} cannot be placed among the points"),
                )),
            };
        }
        if self.labels.len() == self.slots.len() {
            Err(Stop::Absent(format!("no category labelled {name:?}")))
        } else {
            Err(unreadable(
                "category_unlabelled",
                format!("{name:?} is not among the printed category labels"),
            ))
        }
    }

    /// The slot at a pixel along the category axis, when it is told apart
    /// from its neighbours at reading precision.
    fn slot_near(&self, px: f64) -> Option<&str> {
        let mut by_pos: Vec<(&String, f64)> = self.positions.iter().map(|(s, p)| (s, *p)).collect();
        by_pos.sort_by(|a, b| a.1.total_cmp(&b.1));
        let i = by_pos
            .iter()
            .enumerate()
            .min_by(|a, b| (a.1.1 - px).abs().total_cmp(&(b.1.1 - px).abs()))?
            .0;
        let spacing = by_pos
            .windows(2)
            .map(|w| w[1].1 - w[0].1)
            .fold(f64::INFINITY, f64::min);
        let off = (by_pos[i].1 - px).abs();
        (off + self.view.precision_px < spacing / 2.0).then_some(by_pos[i].0.as_str())
    }

    /// Whether a pixel lies clearly outside the drawn points.
    fn beyond(&self, px: f64) -> bool {
        let (lo, hi) = self
            .positions
            .values()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
                (a.min(*p), b.max(*p))
            });
        let spacing = if self.positions.len() > 1 {
            (hi - lo) / (self.positions.len() - 1) as f64
        } else {
            f64::INFINITY
        };
        px < lo - spacing / 2.0 || px > hi + spacing / 2.0
    }

    /// The printed name of a slot, for answers that are a category (on a
    /// time line, the time at its place).
    pub fn name_of(&self, slot: &str) -> Result<String, Stop> {
        if let Some(l) = self.labels.get(slot) {
            return Ok(l.clone());
        }
        if let (Some(line), Some(px)) = (&self.timeline, self.positions.get(slot))
            && self.slot_near(*px) == Some(slot)
            && let Some(label) = line.label_at(*px)
        {
            return Ok(label);
        }
        self.labels.get(slot).cloned().ok_or_else(|| {
            unreadable(
                "category_unlabelled",
                "the answer's category has no printed label",
            )
        })
    }

    pub fn series_count(&self) -> usize {
        self.drawn.len()
    }

    pub fn drawn(&self) -> &[String] {
        &self.drawn
    }

    /// Series read from other marks rather than drawn as their own: an
    /// error bar's width, between its two caps.
    pub fn derived_series(&self) -> &'static [&'static str] {
        if self.panel.kind == ChartKind::ErrorBar {
            &[crate::spec::error_bar::WIDTH]
        } else {
            &[]
        }
    }

    /// A series the question names: the only one drawn, or one named by a
    /// legible legend entry (of a colour no other entry has) or direct label.
    pub fn series(&self, name: &str) -> Result<(), Stop> {
        let p = self.panel;
        if let Some(h) = &p.heatmap {
            return self.heatmap_series(name, h.series_on_rows);
        }
        // A slope chart heads each of its two axes with a series' name.
        if p.kind == ChartKind::Slope {
            return self.heatmap_series(name, false);
        }
        if self.x_series_is(name) {
            return Ok(());
        }
        // A waterfall draws one series of steps and the running total its
        // bars' ends trace; its legend names directions (start, increase,
        // decrease), so both are known from the kind of chart.
        // So does an error-bar chart: its value, the caps of its bounds and
        // the width between them.
        if matches!(p.kind, ChartKind::Waterfall | ChartKind::ErrorBar) {
            let width = p.kind == ChartKind::ErrorBar && name == crate::spec::error_bar::WIDTH;
            return if width || self.drawn.iter().any(|s| s == name) {
                Ok(())
            } else {
                Err(Stop::Absent(format!("no series named {name:?}")))
            };
        }
        // A dual-axis chart's axis titles name its two series too.
        if let Some(d) = &p.dual_axis {
            let titled = [
                legible_text(self.view, &p.y_label),
                legible_text(self.view, &d.right_label),
            ]
            .into_iter()
            .flatten()
            .any(|t| label_names(t, name) || t.starts_with(name));
            if titled && self.drawn.iter().any(|s| s == name) {
                return Ok(());
            }
        }
        if p.kind.is_circular() || self.drawn.len() == 1 {
            if self.drawn.iter().any(|s| s == name) || p.kind.is_circular() {
                return Ok(());
            }
            // The chart names its one series in a legend, or in a title a
            // reader can read: another name is then plainly not on it.
            let in_legend = p
                .legend
                .iter()
                .any(|e| self.view.legible(&e.bbox) && !e.label.trim().is_empty());
            let titled = self.drawn.first().is_some_and(|only| {
                let only = only.trim().to_lowercase();
                [&p.title, &p.subtitle, &p.y_label, &p.x_label]
                    .into_iter()
                    .filter_map(|t| legible_text(self.view, t))
                    .any(|t| t.to_lowercase().contains(&only))
            });
            return Err(if in_legend || titled {
                Stop::Absent(format!("the chart shows another series than {name:?}"))
            } else {
                unreadable(
                    "series_unidentified",
                    format!("nothing on the chart names the series {name:?}"),
                )
            });
        }
        let entries: Vec<_> = p
            .legend
            .iter()
            .filter(|e| self.view.legible(&e.bbox))
            .collect();
        if let Some(e) = entries.iter().find(|e| label_names(&e.label, name)) {
            let same_colour = p
                .legend
                .iter()
                .filter(|o| o.color.hex.eq_ignore_ascii_case(&e.color.hex))
                .count();
            let truncated_clash = entries
                .iter()
                .filter(|o| label_names(&o.label, name))
                .count();
            if same_colour == 1 && truncated_clash == 1 && self.drawn.iter().any(|s| s == name) {
                return Ok(());
            }
            return Err(unreadable(
                "series_unidentified",
                format!("the legend does not tell {name:?} apart"),
            ));
        }
        if p.direct_labels
            .iter()
            .any(|t| self.view.legible(&t.bbox) && t.text.trim() == name.trim())
            && self.drawn.iter().any(|s| s == name)
        {
            return Ok(());
        }
        let named = entries.len() + p.direct_labels.len();
        if named >= self.drawn.len() {
            Err(Stop::Absent(format!("no series named {name:?}")))
        } else {
            Err(unreadable(
                "series_unidentified",
                format!("no legend entry or label names {name:?}"),
            ))
        }
    }

    /// A heatmap's series is named by its row or column label (a slope
    /// chart's by its axis heading, an `x_ticks` label).
    fn heatmap_series(&self, name: &str, on_rows: bool) -> Result<(), Stop> {
        let p = self.panel;
        let ticks = if on_rows { &p.y_ticks } else { &p.x_ticks };
        let legible: Vec<&str> = ticks
            .iter()
            .filter(|t| self.view.legible(&t.bbox))
            .map(|t| t.label.as_str())
            .collect();
        let naming: Vec<&&str> = legible.iter().filter(|l| label_names(l, name)).collect();
        let exact = naming.iter().any(|l| l.trim() == name.trim());
        let unique = naming.len() == 1
            && self
                .drawn
                .iter()
                .filter(|s| label_names(naming[0], s))
                .count()
                == 1;
        if (exact || unique) && self.drawn.iter().any(|s| s == name) {
            return Ok(());
        }
        if legible.len() == self.drawn.len() && naming.is_empty() {
            Err(Stop::Absent(format!("no series named {name:?}")))
        } else {
            Err(unreadable(
                "series_unidentified",
                format!("no row or column label names {name:?}"),
            ))
        }
    }

    /// A heatmap cell without a legible value: its colour matched against
    /// the colour bar, read through the bar's printed ticks, to the
    /// precision a colour is told apart by eye.
    fn read_colour(&self, m: &Mark) -> Result<Interval, Stop> {
        let bar = self
            .panel
            .heatmap
            .as_ref()
            .map(|h| &h.colorbar)
            .filter(|b| self.view.legible(&b.bbox))
            .ok_or_else(|| unreadable("colorbar_unreadable", "no colour bar to read"))?;
        let map = crate::ir::Colormap::from_name(&bar.colormap)
            .ok_or_else(|| unreadable("colorbar_unreadable", "unknown colour map"))?;
        let rgb = crate::render::colormap::parse(&m.color.hex)
            .ok_or_else(|| unreadable("colorbar_unreadable", "cell colour unknown"))?;
        let t = crate::render::colormap::position_of(map, rgb);
        let axis = self.axis()?;
        let y = f64::from(bar.bbox.bottom()) - t * f64::from(bar.bbox.h);
        let span = (axis.value_at(f64::from(bar.bbox.y))
            - axis.value_at(f64::from(bar.bbox.bottom())))
        .abs();
        let mid = axis.read(y, self.view).mid();
        Ok(Interval::around(
            mid,
            crate::render::colormap::READ_ERR * span,
        ))
    }

    fn x_series_is(&self, name: &str) -> bool {
        self.x_axis
            .as_ref()
            .is_some_and(|(_, title)| label_names(title, name))
    }

    fn mark(&self, series: &str, slot: &str) -> Result<&'a Mark, Stop> {
        let circular = self.panel.kind.is_circular();
        let mark = self
            .panel
            .marks
            .iter()
            .find(|m| m.category.as_deref() == Some(slot) && (circular || m.series == series))
            .ok_or_else(|| unreadable("no_mark", format!("no mark of {series} at {slot}")))?;
        // A bar a pixel or two thick may be drawn or lost to antialiasing
        // (fifty states × ten groups of bars): no one can count on seeing it.
        let thickness = if self.panel.kind.is_horizontal() {
            mark.bbox.h
        } else {
            mark.bbox.w
        };
        if mark.kind == MarkKind::Bar && f64::from(thickness) * self.view.detail_scale < MIN_BAR_PX
        {
            return Err(unreadable(
                "mark_too_thin",
                format!("the bar of {series} at {slot} is {thickness:.1} px thick"),
            ));
        }
        Ok(mark)
    }

    /// The value of a named cell.
    pub fn cell(&self, series: &str, category: &str) -> Result<Interval, Stop> {
        self.series(series)?;
        let slot = self.category(category)?.to_string();
        self.read_cell(series, &slot)
    }

    /// Every slot of a series with its reading (labels not needed to read).
    pub fn column(&self, series: &str) -> Result<Vec<(String, Interval)>, Stop> {
        self.series(series)?;
        self.slots
            .iter()
            .map(|slot| Ok((slot.clone(), self.read_cell(series, slot)?)))
            .collect()
    }

    fn read_cell(&self, series: &str, slot: &str) -> Result<Interval, Stop> {
        use crate::spec::error_bar::{LOWER, UPPER, WIDTH};
        let v = match &self.x_axis {
            // The distance between an interval's caps.
            _ if self.panel.kind == ChartKind::ErrorBar && series == WIDTH => {
                self.read_mark(self.mark(UPPER, slot)?)?
                    - self.read_mark(self.mark(LOWER, slot)?)?
            }
            Some((axis, _)) if self.x_series_is(series) => {
                let m = self.mark(&self.drawn[0], slot)?;
                axis.read(f64::from(m.bbox.center().0), self.view)
            }
            _ => self.read_mark(self.mark(series, slot)?)?,
        };
        Ok(match &self.edit {
            Some(e) if e.series == series && e.category.as_deref().is_none_or(|c| c == slot) => {
                v.scale(e.factor)
            }
            _ => v,
        })
    }

    /// How much a hypothetical edit adds to a series' total, read on the
    /// unedited marks (zero without an edit of that series).
    pub fn edit_growth(&self, series: &str) -> Result<Interval, Stop> {
        let Some(e) = self.edit.as_ref().filter(|e| e.series == series) else {
            return Ok(Interval::exact(0.0));
        };
        let mut growth = Interval::exact(0.0);
        for slot in &self.slots {
            if e.category.as_deref().is_none_or(|c| c == slot) {
                growth = growth
                    + self
                        .read_mark(self.mark(series, slot)?)?
                        .scale(e.factor - 1.0);
            }
        }
        Ok(growth)
    }

    fn axis(&self) -> Result<&ValueAxis, Stop> {
        self.value_axis.as_ref().ok_or_else(|| {
            unreadable(
                "axis_unreadable",
                "fewer than two legible numeric tick labels",
            )
        })
    }

    /// A mark's value: its printed label when legible, else its geometry.
    fn read_mark(&self, m: &Mark) -> Result<Interval, Stop> {
        let read = self.read_mark_once(m);
        if let Ok(iv) = &read {
            super::precision::record(iv, self.prints_value(m), m.bbox);
        }
        read
    }

    /// Whether the mark's value is read from its printed label.
    fn prints_value(&self, m: &Mark) -> bool {
        m.kind != MarkKind::ScatterPoint
            && legible_text(self.view, &m.label).is_some_and(|t| parse_printed(t).is_some())
    }

    fn read_mark_once(&self, m: &Mark) -> Result<Interval, Stop> {
        if m.kind != MarkKind::ScatterPoint
            && let Some(text) = legible_text(self.view, &m.label)
            && let Some((v, step)) = parse_printed(text)
        {
            return Ok(Interval::around(v, step / 2.0));
        }
        let b = m.bbox;
        let (y0, y1) = (f64::from(b.y), f64::from(b.bottom()));
        let (x0, x1) = (f64::from(b.x), f64::from(b.right()));
        match m.kind {
            // A slice without a printed value: its share judged by angle.
            MarkKind::Slice => match m.sweep_deg {
                Some(deg) => Ok(Interval::around(
                    f64::from(deg) / 360.0 * 100.0,
                    2.0 * SLICE_ANGLE_DEG / 360.0 * 100.0,
                )),
                None => Err(unreadable(
                    "slice_unlabelled",
                    "the slice's angle is not known",
                )),
            },
            MarkKind::Bar => {
                let axis = self.axis()?;
                let (a, b) = if self.horizontal {
                    (axis.read(x1, self.view), axis.read(x0, self.view))
                } else {
                    (axis.read(y0, self.view), axis.read(y1, self.view))
                };
                // `a` is the edge of larger values, `b` the other.
                let positive = a.mid() + b.mid() >= 0.0;
                if self.panel.kind == ChartKind::Waterfall {
                    // A rise starts where the total before it ended (its
                    // bottom on the previous bar's end), a fall at its top.
                    let rise = match self.level_before(m) {
                        Some(y) => (y - y1).abs() <= (y - y0).abs(),
                        None => positive,
                    };
                    return Ok(if rise { a - b } else { b - a });
                }
                if matches!(
                    self.panel.kind,
                    ChartKind::StackedBar | ChartKind::PercentStackedBar
                ) {
                    Ok(if positive { a - b } else { b - a })
                } else {
                    Ok(if positive { a } else { b })
                }
            }
            MarkKind::LinePoint => {
                // The right-axis series is read on the right axis' ticks.
                let axis = match &self.right_axis {
                    Some((a, series)) if *series == m.series => a,
                    _ if self
                        .panel
                        .dual_axis
                        .as_ref()
                        .is_some_and(|d| d.right_series == m.series) =>
                    {
                        return Err(unreadable(
                            "axis_unreadable",
                            "fewer than two legible numeric tick labels on the right axis",
                        ));
                    }
                    _ => self.axis()?,
                };
                // A dumbbell's dots are read along x.
                let (cx, cy) = b.center();
                let at = match &self.panel.radar {
                    // A radar vertex: its distance from the centre, read on
                    // the rings as if along the upward spoke.
                    Some(r) => r.center.1 - (cx - r.center.0).hypot(cy - r.center.1),
                    None if self.horizontal => cx,
                    None => cy,
                };
                let top = axis.read(f64::from(at), self.view);
                if self.panel.kind != ChartKind::StackedArea {
                    return Ok(top);
                }
                match self.below(m) {
                    Some(under) => {
                        let (_, uy) = under.bbox.center();
                        Ok(top - axis.read(f64::from(uy), self.view))
                    }
                    None => Ok(top),
                }
            }
            // A median line (or a violin's median dot) read at its centre.
            MarkKind::ScatterPoint | MarkKind::Median => {
                let (_, cy) = b.center();
                Ok(self.axis()?.read(f64::from(cy), self.view))
            }
            MarkKind::Cell => self.read_colour(m),
        }
    }

    /// The pixel level a waterfall bar starts from: the end of the bar
    /// before it (the running total's level there); None for the first bar.
    fn level_before(&self, m: &Mark) -> Option<f64> {
        let slot = m.category.as_ref()?;
        let i = self.slots.iter().position(|s| s == slot)?;
        let prev = self.slots.get(i.checked_sub(1)?)?;
        self.panel
            .marks
            .iter()
            .find(|o| o.kind == MarkKind::LinePoint && o.category.as_ref() == Some(prev))
            .map(|o| f64::from(o.bbox.center().1))
    }

    /// The point of the series stacked just under `m` at the same category.
    fn below(&self, m: &Mark) -> Option<&'a Mark> {
        let j = self.drawn.iter().position(|s| *s == m.series)?;
        self.drawn[..j].iter().rev().find_map(|s| {
            self.panel.marks.iter().find(|o| {
                o.kind == MarkKind::LinePoint && o.series == *s && o.category == m.category
            })
        })
    }
}

/// Whether a histogram bar's two edges carry printed ticks whose numbers are
/// the bin's name (`0.4–0.6`), so a reader can tell which bin it is.
pub fn bin_edges_printed(
    panel: &PanelScene,
    bin: &str,
    bbox: &crate::ir::BBox,
    legible: &dyn Fn(&crate::ir::BBox) -> bool,
) -> bool {
    let Some((a, b)) = bin.split_once('–') else {
        return false;
    };
    let (Ok(a), Ok(b)) = (a.trim().parse::<f64>(), b.trim().parse::<f64>()) else {
        return false;
    };
    let printed_at = |x: f32, v: f64| {
        panel.x_ticks.iter().any(|t| {
            (t.pos - x).abs() <= 1.5
                && legible(&t.bbox)
                && parse_printed(&t.label)
                    .is_some_and(|(p, _)| (p - v).abs() <= 1e-9 * v.abs().max(1.0))
        })
    };
    printed_at(bbox.x, a) && printed_at(bbox.right(), b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncated_labels_name_a_prefix() {
        assert!(label_names("United Kingd…", "United Kingdom"));
        assert!(label_names("france", "France"));
        assert!(!label_names("Uni…", "Germany"));
        assert!(!label_names("Spain", "Spa"));
    }
}
