//! Scene: what the renderer actually drew, in pixel coordinates of the PNG
//! (origin top-left). Descriptive questions are answered from it, so it must be
//! exactly what is on the image: only text that is visible is recorded.

use serde::{Deserialize, Serialize};

use super::spec::{ChartKind, NamedColor};

#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct BBox {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl BBox {
    pub fn center(&self) -> (f32, f32) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }

    pub fn right(&self) -> f32 {
        self.x + self.w
    }

    pub fn bottom(&self) -> f32 {
        self.y + self.h
    }

    /// The box with a margin of `m` on every side.
    pub fn grown(&self, m: f32) -> BBox {
        BBox {
            x: self.x - m,
            y: self.y - m,
            w: self.w + 2.0 * m,
            h: self.h + 2.0 * m,
        }
    }

    pub fn intersects(&self, other: &BBox) -> bool {
        self.x < other.right()
            && other.x < self.right()
            && self.y < other.bottom()
            && other.y < self.bottom()
    }
}

/// A piece of visible text and where it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextBox {
    pub text: String,
    pub bbox: BBox,
}

/// A printed tick label. `value` is the numeric value for numeric axes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tick {
    pub label: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// Pixel position along the axis (x for the x axis, y for the y axis).
    pub pos: f32,
    pub bbox: BBox,
    /// The index value the label prints, in the table's form (`2023-01` for
    /// `Jan 2023`), when the printed text differs from it: how a printed
    /// date maps back to its table label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkKind {
    Bar,
    /// One data point of a line or area series (drawn as a marker or not).
    LinePoint,
    ScatterPoint,
    Slice,
    /// One heatmap cell: its fill colour stands for its value.
    Cell,
    /// The median line of a box or violin: its value is read at the
    /// centre of its box, on the value axis.
    Median,
}

/// One data mark.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mark {
    pub kind: MarkKind,
    pub series: String,
    /// Category: the index label in the table's form (a tick or legend entry
    /// records how it prints); for scatter the point's label if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    pub value: f64,
    /// For scatter/bubble: the x value (and size value for bubble).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x_value: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_value: Option<f64>,
    pub color: NamedColor,
    pub bbox: BBox,
    /// For pie and donut slices: the angle the slice spans, in degrees.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep_deg: Option<f32>,
    /// The value label printed on/next to the mark, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<TextBox>,
}

impl Mark {
    /// A mark of a category's value, with no scatter values, sweep or label
    /// (a label is attached after it is placed).
    pub fn new(
        kind: MarkKind,
        series: String,
        category: Option<String>,
        value: f64,
        color: NamedColor,
        bbox: BBox,
    ) -> Mark {
        Mark {
            kind,
            series,
            category,
            value,
            x_value: None,
            size_value: None,
            color,
            bbox,
            sweep_deg: None,
            label: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LegendEntry {
    pub label: String,
    pub color: NamedColor,
    pub bbox: BBox,
    /// A pie's category in the table's form, when the printed label differs
    /// (see [`Tick::category`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PanelScene {
    /// Index in `ChartSpec::panels()` order.
    pub index: usize,
    /// Grid position (0-based); (0, 0) for a single chart.
    pub row: u32,
    pub col: u32,
    pub kind: ChartKind,
    pub table_id: String,
    pub plot_area: BBox,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<TextBox>,
    /// The line under the title (the table's `subtitle`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtitle: Option<TextBox>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x_label: Option<TextBox>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y_label: Option<TextBox>,
    /// Labeled ticks in left-to-right order.
    pub x_ticks: Vec<Tick>,
    /// Labeled ticks in bottom-to-top order.
    pub y_ticks: Vec<Tick>,
    pub log_y: bool,
    pub marks: Vec<Mark>,
    /// Legend entries in the order shown (top-to-bottom, then left-to-right).
    pub legend: Vec<LegendEntry>,
    /// Series names drawn as direct labels instead of a legend.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub direct_labels: Vec<TextBox>,
    /// The annotation drawn on the panel, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotation: Option<AnnotationScene>,
    /// A heatmap's grid orientation and colour bar (heatmaps only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heatmap: Option<HeatmapScene>,
    /// A histogram's bins or a box/violin plot's statistics (statistical
    /// kinds only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stat: Option<StatScene>,
    /// Category names printed by the marks rather than on an axis: a slope
    /// chart's line ends (each name twice), a radar chart's spokes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub category_labels: Vec<CategoryLabel>,
    /// A radar chart's centre, outer radius and spokes (radar only); its
    /// rings' printed values are the `y_ticks`, placed along the upward spoke.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radar: Option<RadarScene>,
    /// A dual-axis panel's second value axis and which series each axis
    /// reads (dual-axis charts only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dual_axis: Option<DualAxisScene>,
}

/// A printed category name and the category it names (table form).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CategoryLabel {
    pub category: String,
    pub text: TextBox,
}

/// A radar chart's polar frame: value `v` lies at `v / max * radius` pixels
/// from `center` along its category's spoke.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RadarScene {
    pub center: (f32, f32),
    pub radius: f32,
    /// The value at the outer ring (the last ring tick).
    pub max: f64,
    pub spokes: Vec<Spoke>,
}

/// One spoke: its category and its direction, in degrees clockwise from
/// straight up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Spoke {
    pub category: String,
    pub angle_deg: f32,
}

/// The two value axes of a dual-axis panel. The left axis is the panel's
/// `y_ticks`/`y_label`; the right one is recorded here.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DualAxisScene {
    /// The series drawn as bars and read on the left axis.
    pub left_series: String,
    /// The series drawn as a line and read on the right axis.
    pub right_series: String,
    /// The right axis' title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub right_label: Option<TextBox>,
    /// Labeled right-axis ticks in bottom-to-top order.
    pub right_ticks: Vec<Tick>,
}

impl PanelScene {
    /// A panel with nothing drawn yet: the renderers fill it as they draw.
    pub fn blank(index: usize, row: u32, col: u32, kind: ChartKind, table_id: &str) -> PanelScene {
        PanelScene {
            index,
            row,
            col,
            kind,
            table_id: table_id.to_string(),
            plot_area: BBox::default(),
            title: None,
            subtitle: None,
            x_label: None,
            y_label: None,
            x_ticks: Vec::new(),
            y_ticks: Vec::new(),
            log_y: false,
            marks: Vec::new(),
            legend: Vec::new(),
            direct_labels: Vec::new(),
            annotation: None,
            heatmap: None,
            stat: None,
            category_labels: Vec::new(),
            radar: None,
            dual_axis: None,
        }
    }
}

/// What a statistical panel drew besides its marks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatScene {
    /// How quartiles were computed (`linear`: numpy's default, R type 7)
    /// and whiskers drawn (`tukey_1.5_iqr`).
    pub method: String,
    /// Histogram bins, left to right.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bins: Vec<BinScene>,
    /// Box or violin statistics per group, left to right.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<GroupScene>,
}

/// One histogram bin: observations `start <= v < end` (the last bin also
/// holds its right edge), drawn as `bbox`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BinScene {
    pub start: f64,
    pub end: f64,
    pub count: u32,
    pub bbox: BBox,
}

/// One group of a box or violin plot: its statistics and where they are.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupScene {
    pub group: String,
    /// Observations in the group (0 for a pre-aggregated summary).
    pub n: usize,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    /// Whisker ends: the most extreme observations within 1.5 IQR of the
    /// box (the minimum and maximum of a five-number summary).
    pub low: f64,
    pub high: f64,
    /// The box from q1 to q3 (a violin's quartile bar).
    pub bbox: BBox,
    /// Pixel rows of the median and the whisker ends.
    pub median_y: f32,
    pub low_y: f32,
    pub high_y: f32,
    /// A violin's outline: its widest point in pixels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_half_width: Option<f32>,
    /// Observations beyond the whiskers, each drawn as a point.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outliers: Vec<OutlierScene>,
}

/// One outlier point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutlierScene {
    pub value: f64,
    pub bbox: BBox,
}

/// What a heatmap panel drew besides its cells (which are marks of kind
/// `cell`: series, category, value, fill colour and pixel box).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HeatmapScene {
    /// Rows are the table's series and columns its categories (the
    /// transpose); false: rows are categories (labelled on `y_ticks`) and
    /// columns series (labelled on `x_ticks`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub series_on_rows: bool,
    pub colorbar: ColorBar,
}

/// A vertical colour bar: the colour map drawn from `min` (bottom) to `max`
/// (top) over `bbox`, with its printed ticks (bottom to top, `pos` the
/// pixel y of each tick).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ColorBar {
    pub bbox: BBox,
    /// The colour map's name (`viridis`, `cividis`, `magma`, `blues`, `greys`).
    pub colormap: String,
    pub min: f64,
    pub max: f64,
    pub ticks: Vec<Tick>,
}

/// An annotation as drawn: its kind, printed label, pixel geometry and what
/// it means in the data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnnotationScene {
    /// `reference_line`, `highlight`, `band` or `callout`.
    pub kind: String,
    /// The printed label (none for a highlight).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<TextBox>,
    /// The line, the shaded band, the arrow (tail to tip) or the highlighted mark.
    pub bbox: BBox,
    /// The value a reference line marks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// The series and category of the mark highlighted or pointed at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// First and last index labels a band covers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Where a callout's arrow ends (pixel x, y).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tip: Option<(f32, f32)>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KpiScene {
    pub label: String,
    pub value: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delta: Option<String>,
    pub bbox: BBox,
    /// Every printed line of the tile (label lines, value, delta) and its box.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<TextBox>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scene {
    pub width: u32,
    pub height: u32,
    /// Figure title (suptitle or dashboard banner); single charts put their
    /// title on the panel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<TextBox>,
    /// Subplot grid as (rows, cols); (1, 1) for a single chart.
    pub grid: (u32, u32),
    pub panels: Vec<PanelScene>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kpis: Vec<KpiScene>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paragraph: Option<TextBox>,
    /// Other visible text (annotations, footnotes, watermark).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra_text: Vec<TextBox>,
    /// A lettered figure's letters and shared value axis (figures only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figure: Option<FigureScene>,
}

/// What a lettered multi-panel figure drew besides its panels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FigureScene {
    /// The letter printed at each panel's top-left corner ("(a)", "(b)",
    /// …), in panel order: `letters[i]` names panel `i`.
    pub letters: Vec<TextBox>,
    /// The value-axis range every panel shares (lowest and highest value
    /// of the drawn axis).
    pub value_range: (f64, f64),
    /// The value-axis tick labels, printed alike on every panel.
    pub value_ticks: Vec<String>,
    /// The line under the figure title (the table's subtitle).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtitle: Option<TextBox>,
    /// False when each panel has its own value axis (related tables in
    /// different units): `value_range` and `value_ticks` are then empty and
    /// panels do not compare by height.
    #[serde(default = "shared_by_default", skip_serializing_if = "is_shared")]
    pub shared_values: bool,
}

fn shared_by_default() -> bool {
    true
}

fn is_shared(shared: &bool) -> bool {
    *shared
}

impl FigureScene {
    /// The panel whose printed letter is `letter` ("(b)", "b" or "B").
    pub fn panel_of(&self, letter: &str) -> Option<usize> {
        let bare = |s: &str| {
            s.trim()
                .trim_start_matches('(')
                .trim_end_matches(')')
                .to_ascii_lowercase()
        };
        let wanted = bare(letter);
        self.letters.iter().position(|l| bare(&l.text) == wanted)
    }
}
