//! ChartSpec: what to draw, fully resolved. A spec is data: serializable,
//! hashable and renderable without randomness. It embeds the tables it draws so
//! that "the table the chart shows" is never ambiguous.

use serde::{Deserialize, Serialize};

use super::table::Table;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChartKind {
    Bar,
    HorizontalBar,
    GroupedBar,
    StackedBar,
    Line,
    Area,
    StackedArea,
    Pie,
    Donut,
    Scatter,
    Bubble,
    /// A grid of cells coloured by value on a sequential colour map, with a
    /// colour bar and (when `data_labels`) each cell's value printed in it.
    Heatmap,
    /// Stacked bars scaled to 100 %: each segment is a series' share of its
    /// category's total. Its panel table holds those shares (see
    /// `spec::shares_table`), so questions ask what is drawn.
    PercentStackedBar,
    /// One stem from the baseline and a dot at the value per category.
    Lollipop,
    /// Signed steps drawn as floating bars from the running total before
    /// each step to the one after it, coloured up or down. Its panel table
    /// adds the running total (see `spec::waterfall::waterfall_table`).
    Waterfall,
    /// A value per group with its interval (a bar to the value and a
    /// whisker from the lower to the upper bound). Its panel table holds
    /// the bounds (see `spec::error_bar::error_bar_table`).
    ErrorBar,
    /// Bars over adjoining bins of one group's raw observations: each bar's
    /// height is the number of observations in its bin. Its panel table is
    /// the bins table (see `spec::stat`).
    Histogram,
    /// One box per group of raw observations: quartiles, median, Tukey
    /// whiskers and outliers (see `spec::stat` for the quartile method).
    /// Its panel table holds each group's median.
    #[serde(rename = "box")]
    BoxPlot,
    /// One mirrored density outline per group with its quartile bar and
    /// median mark; the panel table holds each group's median, as for boxes.
    Violin,
    /// Horizontal bars of one signed series left (negative) and right
    /// (positive) of a zero line, each side in its own colour.
    DivergingBar,
    /// Per category two dots (two series) on one row, joined by a line.
    Dumbbell,
    /// Two series as two vertical axes; one line per category between its
    /// two values, the category named at both ends.
    Slope,
    /// One spoke per category around a centre, one polygon per series,
    /// values read on printed rings.
    Radar,
    /// Two series of different units or scales on one chart: the first as
    /// bars read on the left axis, the second as a line with markers read
    /// on a second value axis on the right (see `spec::dual_axis`).
    DualAxis,
}

impl ChartKind {
    /// New kinds go last so that seeded picks over earlier ones keep their order.
    pub const ALL: [ChartKind; 24] = [
        ChartKind::Bar,
        ChartKind::HorizontalBar,
        ChartKind::GroupedBar,
        ChartKind::StackedBar,
        ChartKind::Line,
        ChartKind::Area,
        ChartKind::StackedArea,
        ChartKind::Pie,
        ChartKind::Donut,
        ChartKind::Scatter,
        ChartKind::Bubble,
        ChartKind::Heatmap,
        ChartKind::PercentStackedBar,
        ChartKind::Lollipop,
        ChartKind::Waterfall,
        ChartKind::ErrorBar,
        ChartKind::Histogram,
        ChartKind::BoxPlot,
        ChartKind::Violin,
        ChartKind::DivergingBar,
        ChartKind::Dumbbell,
        ChartKind::Slope,
        ChartKind::Radar,
        ChartKind::DualAxis,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ChartKind::Bar => "bar",
            ChartKind::HorizontalBar => "horizontal_bar",
            ChartKind::GroupedBar => "grouped_bar",
            ChartKind::StackedBar => "stacked_bar",
            ChartKind::Line => "line",
            ChartKind::Area => "area",
            ChartKind::StackedArea => "stacked_area",
            ChartKind::Pie => "pie",
            ChartKind::Donut => "donut",
            ChartKind::Scatter => "scatter",
            ChartKind::Bubble => "bubble",
            ChartKind::Heatmap => "heatmap",
            ChartKind::PercentStackedBar => "percent_stacked_bar",
            ChartKind::Lollipop => "lollipop",
            ChartKind::Waterfall => "waterfall",
            ChartKind::ErrorBar => "error_bar",
            ChartKind::Histogram => "histogram",
            ChartKind::BoxPlot => "box",
            ChartKind::Violin => "violin",
            ChartKind::DivergingBar => "diverging_bar",
            ChartKind::Dumbbell => "dumbbell",
            ChartKind::Slope => "slope",
            ChartKind::Radar => "radar",
            ChartKind::DualAxis => "dual_axis",
        }
    }

    pub fn from_name(name: &str) -> Option<ChartKind> {
        let wanted = name.trim().to_ascii_lowercase().replace('-', "_");
        ChartKind::ALL.into_iter().find(|k| k.name() == wanted)
    }

    pub fn is_circular(self) -> bool {
        matches!(self, ChartKind::Pie | ChartKind::Donut)
    }

    /// Kinds a suite draws as originals only when its `kinds` names them:
    /// default suites keep the charts they had before these kinds existed.
    pub fn is_opt_in(self) -> bool {
        matches!(
            self,
            ChartKind::PercentStackedBar
                | ChartKind::Lollipop
                | ChartKind::Waterfall
                | ChartKind::ErrorBar
                | ChartKind::Histogram
                | ChartKind::BoxPlot
                | ChartKind::Violin
                | ChartKind::DivergingBar
                | ChartKind::Dumbbell
                | ChartKind::Slope
                | ChartKind::Radar
                | ChartKind::DualAxis
        )
    }

    /// Kinds drawn from raw observations (a panel's `samples`), whose panel
    /// table is a summary of them.
    pub fn is_statistical(self) -> bool {
        matches!(
            self,
            ChartKind::Histogram | ChartKind::BoxPlot | ChartKind::Violin
        )
    }

    /// Categories down the left, values along x.
    pub fn is_horizontal(self) -> bool {
        matches!(
            self,
            ChartKind::HorizontalBar | ChartKind::DivergingBar | ChartKind::Dumbbell
        )
    }

    /// Series drawn on top of each other: a segment's value is its length.
    pub fn is_stacked(self) -> bool {
        matches!(
            self,
            ChartKind::StackedBar | ChartKind::StackedArea | ChartKind::PercentStackedBar
        )
    }
}

/// A sequential colour map for heatmaps: perceptually ordered (lightness
/// changes monotonically, so a value can be read back from its colour) and
/// colour-blind safe. `Auto` takes the theme's map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Colormap {
    #[default]
    Auto,
    Viridis,
    Cividis,
    Magma,
    Blues,
    Greys,
}

impl Colormap {
    pub const ALL: [Colormap; 5] = [
        Colormap::Viridis,
        Colormap::Cividis,
        Colormap::Magma,
        Colormap::Blues,
        Colormap::Greys,
    ];

    pub fn is_auto(&self) -> bool {
        *self == Colormap::Auto
    }

    pub fn name(self) -> &'static str {
        match self {
            Colormap::Auto => "auto",
            Colormap::Viridis => "viridis",
            Colormap::Cividis => "cividis",
            Colormap::Magma => "magma",
            Colormap::Blues => "blues",
            Colormap::Greys => "greys",
        }
    }

    pub fn from_name(name: &str) -> Option<Colormap> {
        let wanted = name.trim().to_ascii_lowercase();
        [Colormap::Auto]
            .into_iter()
            .chain(Colormap::ALL)
            .find(|c| c.name() == wanted)
    }
}

/// A palette colour with the name a person would use for it ("orange", "navy blue").
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NamedColor {
    pub name: String,
    /// `#rrggbb`
    pub hex: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum LegendPlacement {
    #[default]
    Auto,
    TopRight,
    TopLeft,
    BottomRight,
    BottomLeft,
    /// Outside the plot, to the right.
    Right,
    /// Outside the plot, above, laid out horizontally.
    Top,
    /// Outside the plot, below, laid out horizontally.
    Bottom,
    /// Series named next to their marks instead of a legend.
    Direct,
    None,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum LegendOrder {
    #[default]
    Data,
    Reversed,
    Alphabetical,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum GridLines {
    None,
    #[default]
    Horizontal,
    Vertical,
    Both,
}

/// How numbers on axes and value labels are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum NumberStyle {
    /// `1000`
    Plain,
    /// `1,000`
    #[default]
    Thousands,
    /// `1k`, `2.5M`
    Short,
    /// `1e3`
    Scientific,
}

/// How date and period index labels are printed (axis labels, legends, slice
/// names and the questions that name them). The table keeps its canonical
/// value (`2023-01`, `2023-01-05`, `2023`, `2023 Q1`); see `spec::dates`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum DateStyle {
    /// `2023-01`, `2023-01-05`, `2023`, `2023 Q1`: the table's own form.
    #[default]
    Iso,
    /// `Jan 2023`, `5 Jan 2023`, `2023`, `Q1 2023`
    MonthYear,
    /// `Jan '23`, `5 Jan '23`, `'23`, `Q1 '23`
    ShortYear,
    /// `January 2023`, `5 January 2023`, `2023`, `Q1 2023`
    FullMonth,
    /// `Jan 2023`, `Jan 5, 2023`, `2023`, `Q1 2023`
    MonthDay,
    /// Years as fiscal years `FY2023`; other periods as `MonthYear`.
    Fiscal,
    /// Years as `FY23`; other periods as `ShortYear`.
    FiscalShort,
}

impl DateStyle {
    pub const ALL: [DateStyle; 7] = [
        DateStyle::Iso,
        DateStyle::MonthYear,
        DateStyle::ShortYear,
        DateStyle::FullMonth,
        DateStyle::MonthDay,
        DateStyle::Fiscal,
        DateStyle::FiscalShort,
    ];

    pub fn is_iso(&self) -> bool {
        *self == DateStyle::Iso
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Align {
    Left,
    #[default]
    Center,
    Right,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TitlePlacement {
    #[default]
    Top,
    /// No title drawn even when the table has one.
    Hidden,
}

/// A resolved style. Themes (`templates/themes/*.toml`) deserialize into this,
/// and every field can be overridden by name (`--set key=value`), which is how
/// chart perturbations work. Floats are stored as f32 but compared through the
/// spec's canonical JSON, so Style stays hashable via [`ChartSpec::fingerprint`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Style {
    pub theme: String,
    pub palette: Vec<NamedColor>,
    /// Figure background `#rrggbb`.
    pub background: String,
    /// Plot-area background `#rrggbb`.
    pub plot_background: String,
    pub text_color: String,
    pub axis_color: String,
    pub grid_color: String,
    /// Font family name as registered in the embedded font database
    /// (e.g. `DejaVu Sans`, `DejaVu Serif`, `DejaVu Sans Mono`).
    pub font_family: String,
    pub title_font_family: String,
    pub title_size: f32,
    pub title_bold: bool,
    pub title_align: Align,
    pub title_placement: TitlePlacement,
    pub label_size: f32,
    pub tick_size: f32,
    pub legend_size: f32,
    pub value_label_size: f32,
    pub grid: GridLines,
    pub grid_dashed: bool,
    pub axis_line_width: f32,
    /// Draw the top and right plot borders (a closed box) instead of only left/bottom.
    pub box_frame: bool,
    pub tick_marks: bool,
    /// Tick marks point into the plot (paper style); with `box_frame` they
    /// are mirrored on the top and right borders.
    pub ticks_inward: bool,
    /// Approximate number of value-axis ticks.
    pub tick_count: u32,
    pub number_style: NumberStyle,
    /// How date and period index labels print. Left out of the JSON when
    /// ISO, so specs (and chart ids) from before the option stay the same.
    #[serde(skip_serializing_if = "DateStyle::is_iso")]
    pub date_style: DateStyle,
    pub legend: LegendPlacement,
    pub legend_order: LegendOrder,
    pub data_labels: bool,
    /// Bar width as a fraction of the category slot (0..1).
    pub bar_width: f32,
    pub line_width: f32,
    pub markers: bool,
    pub marker_size: f32,
    /// Give each line series its own dash pattern.
    pub dashes: bool,
    /// Start the value axis at zero (bars always do unless this is false).
    pub zero_baseline: bool,
    /// Start of a linear value axis, printed as its first tick (a non-zero
    /// baseline). Ignored when data lies below it or the axis is logarithmic.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_start: Option<f64>,
    pub log_scale: bool,
    /// Donut hole radius as a fraction of the outer radius (donut only).
    pub donut_hole: f32,
    /// Heatmap colour map. Left out of the JSON when `Auto` (the theme's),
    /// so specs and chart ids from before heatmaps stay the same.
    #[serde(skip_serializing_if = "Colormap::is_auto")]
    pub colormap: Colormap,
    /// Outer margin in pixels.
    pub margin: u32,
    /// Text furniture switched off or moved (the furniture perturbations);
    /// left out of the JSON when nothing is changed, so older specs keep
    /// their ids.
    #[serde(skip_serializing_if = "Furniture::is_default")]
    pub furniture: Furniture,
}

/// What a chart does with its text furniture besides printing it where
/// docs/charts.md "Text furniture" says: the subtitle or the note left out,
/// or the note and source line printed at the top right of the figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Furniture {
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hide_subtitle: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hide_note: bool,
    /// The note and source line in a strip above the chart, right-aligned,
    /// instead of under it at the left.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub notes_on_top: bool,
    /// No value axis (tick labels, tick marks, gridlines, axis title) on a
    /// bar chart that prints its values, as many news charts are drawn.
    /// Ignored on other kinds and without value labels.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hide_value_axis: bool,
}

impl Furniture {
    pub fn is_default(&self) -> bool {
        *self == Furniture::default()
    }
}

impl Default for Style {
    fn default() -> Self {
        Style {
            theme: "classic".into(),
            palette: vec![
                NamedColor {
                    name: "blue".into(),
                    hex: "#1f77b4".into(),
                },
                NamedColor {
                    name: "orange".into(),
                    hex: "#ff7f0e".into(),
                },
                NamedColor {
                    name: "green".into(),
                    hex: "#2ca02c".into(),
                },
                NamedColor {
                    name: "red".into(),
                    hex: "#d62728".into(),
                },
                NamedColor {
                    name: "purple".into(),
                    hex: "#9467bd".into(),
                },
                NamedColor {
                    name: "brown".into(),
                    hex: "#8c564b".into(),
                },
                NamedColor {
                    name: "pink".into(),
                    hex: "#e377c2".into(),
                },
                NamedColor {
                    name: "gray".into(),
                    hex: "#7f7f7f".into(),
                },
                NamedColor {
                    name: "olive".into(),
                    hex: "#bcbd22".into(),
                },
                NamedColor {
                    name: "cyan".into(),
                    hex: "#17becf".into(),
                },
            ],
            background: "#ffffff".into(),
            plot_background: "#ffffff".into(),
            text_color: "#222222".into(),
            axis_color: "#333333".into(),
            grid_color: "#dddddd".into(),
            font_family: "DejaVu Sans".into(),
            title_font_family: "DejaVu Sans".into(),
            title_size: 18.0,
            title_bold: false,
            title_align: Align::Center,
            title_placement: TitlePlacement::Top,
            label_size: 14.0,
            tick_size: 12.0,
            legend_size: 12.0,
            value_label_size: 11.0,
            grid: GridLines::Horizontal,
            grid_dashed: false,
            axis_line_width: 1.0,
            box_frame: true,
            tick_marks: true,
            ticks_inward: false,
            tick_count: 6,
            number_style: NumberStyle::Thousands,
            date_style: DateStyle::Iso,
            legend: LegendPlacement::Auto,
            legend_order: LegendOrder::Data,
            data_labels: false,
            bar_width: 0.7,
            line_width: 2.0,
            markers: true,
            marker_size: 4.0,
            dashes: false,
            zero_baseline: true,
            value_start: None,
            log_scale: false,
            donut_hole: 0.5,
            colormap: Colormap::Auto,
            margin: 16,
            furniture: Furniture::default(),
        }
    }
}

/// One chart panel: a kind, the table it draws and the columns used.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PanelSpec {
    pub kind: ChartKind,
    pub table: Table,
    /// Series columns drawn, in drawing order. For scatter/bubble: x column
    /// first, then y (then size for bubble).
    pub series: Vec<String>,
    /// Panel title (defaults from the table's metadata when the spec is built).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x_label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y_label: Option<String>,
    pub style: Style,
    /// A reference line, highlighted mark, shaded interval or callout drawn
    /// on a cartesian panel; None draws none (and keeps older specs' ids).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotation: Option<Annotation>,
    /// A subtitle printed instead of the table's (`subtitle_added`); None
    /// prints the table's own, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtitle: Option<String>,
    /// The raw observations a statistical kind (histogram, box, violin)
    /// summarizes, one column per group (or, for a box plot of a
    /// pre-aggregated table, its five-number summary); `table` is then the
    /// summary that questions ask about. None for every other kind (and
    /// older specs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<Table>,
    /// The value axes exactly as another drawing of this panel printed
    /// them: a change that is not about axes, layout or kind (a theme, a
    /// legend, labels, clutter) keeps its original's frame instead of
    /// re-ranging it for its own headroom. None draws the panel's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pinned: Option<PinnedAxes>,
}

/// Printed value-axis ticks (value and label, lowest first) to draw again.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PinnedAxes {
    /// The value axis (y, or x for horizontal bars).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub value: Vec<(f64, String)>,
    /// A scatter or bubble chart's numeric x axis.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub x: Vec<(f64, String)>,
    /// A dual-axis chart's right axis.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub right: Vec<(f64, String)>,
    /// Where no ticks are pinned: the span (first to last printed tick) of
    /// the value, x and right axes, to print again at another density.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spans: Option<AxisSpans>,
}

/// First and last printed tick of each numeric axis, kept at another tick
/// density.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct AxisSpans {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<(f64, f64)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<(f64, f64)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub right: Option<(f64, f64)>,
}

impl PanelSpec {
    /// The title of the axis values are read along: x on horizontal bars.
    pub fn value_axis_title(&self) -> Option<&str> {
        if self.kind.is_horizontal() {
            self.x_label.as_deref()
        } else {
            self.y_label.as_deref()
        }
    }

    /// The title of the axis categories are read along.
    pub fn category_axis_title(&self) -> Option<&str> {
        if self.kind.is_horizontal() {
            self.y_label.as_deref()
        } else {
            self.x_label.as_deref()
        }
    }

    /// The subtitle the panel prints: its own, else its table's, unless
    /// the style hides it.
    pub fn subtitle_text(&self) -> Option<&str> {
        if self.style.furniture.hide_subtitle {
            return None;
        }
        self.subtitle
            .as_deref()
            .or(self.table.meta.subtitle.as_deref())
            .filter(|s| !s.trim().is_empty())
    }
}

/// What an annotation marks, as news, report and paper figures mark it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AnnotationMark {
    /// A dashed horizontal line at `value` on the value axis with a printed
    /// label such as "Average: 42.5" (the value printed with `decimals`
    /// decimals).
    ReferenceLine {
        value: f64,
        decimals: u8,
        label: String,
    },
    /// One bar of a single-series chart in the accent colour, the others muted.
    Highlight { category: String },
    /// A shaded band over the categories `from` to `to` (index labels,
    /// inclusive), labelled `label` ("Growth", "Decline").
    Band {
        from: String,
        to: String,
        label: String,
    },
    /// A short label (`text`, e.g. "Peak") with an arrow pointing at one mark.
    Callout {
        series: String,
        category: String,
        text: String,
    },
}

impl AnnotationMark {
    pub fn name(&self) -> &'static str {
        match self {
            AnnotationMark::ReferenceLine { .. } => "reference_line",
            AnnotationMark::Highlight { .. } => "highlight",
            AnnotationMark::Band { .. } => "band",
            AnnotationMark::Callout { .. } => "callout",
        }
    }
}

/// An annotation and where its label goes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Annotation {
    #[serde(flatten)]
    pub mark: AnnotationMark,
    /// The label drawn at its alternative place (the other end of a
    /// reference line, the foot of a band, the other side of a callout's mark).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub moved: bool,
}

/// A KPI tile on a dashboard: a big number with a caption.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KpiTile {
    pub label: String,
    pub value: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delta: Option<String>,
}

/// A chart on a dashboard occupying a rectangle of grid cells.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DashboardPanel {
    pub panel: PanelSpec,
    pub row: u32,
    pub col: u32,
    pub row_span: u32,
    pub col_span: u32,
}

// A layout is built once per chart, so the inline panel of `Single` costs nothing worth boxing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Layout {
    Single {
        panel: PanelSpec,
    },
    /// n×m subplots, row-major; `panels.len() <= rows * cols`.
    Grid {
        rows: u32,
        cols: u32,
        panels: Vec<PanelSpec>,
        #[serde(default)]
        shared_x: bool,
        #[serde(default)]
        shared_y: bool,
    },
    /// A lettered multi-panel figure as papers print one: the figure title
    /// (`ChartSpec::title`) above, one panel per series of one table (small
    /// multiples, all of one kind) or one per related table (tables on the
    /// same categories), "(a)", "(b)", … at each panel's top-left corner,
    /// and, for like values, one value-axis range shared by every panel, each
    /// panel printing the same ticks (so any panel can be read on its own).
    Figure {
        rows: u32,
        cols: u32,
        panels: Vec<PanelSpec>,
        /// The table's subtitle, under the figure title.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        subtitle: Option<String>,
        /// The table's note, under the figure ("Note: …").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
        /// Whether every panel shares one value range. False for a figure of
        /// related tables in different units (a temperature panel beside a
        /// precipitation panel): each panel then has its own value axis and
        /// only the category axis is shared.
        #[serde(default = "shared_by_default", skip_serializing_if = "is_shared")]
        shared_values: bool,
    },
    Dashboard {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        banner: Option<String>,
        kpis: Vec<KpiTile>,
        /// Grid the panels are placed on (uneven spans allowed).
        grid_rows: u32,
        grid_cols: u32,
        panels: Vec<DashboardPanel>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        paragraph: Option<String>,
    },
}

fn shared_by_default() -> bool {
    true
}

fn is_shared(shared: &bool) -> bool {
    *shared
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChartSpec {
    pub width: u32,
    pub height: u32,
    /// Figure-level title (suptitle of a grid); panels carry their own titles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Figure-level style (background, fonts of the suptitle, banner, tiles).
    pub style: Style,
    pub layout: Layout,
    /// Where the data comes from, printed as "Source: …" under the figure
    /// (single charts and grids); None draws no source line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_line: Option<String>,
}

impl ChartSpec {
    /// All panels in reading order (row-major for grids, placement order for dashboards).
    pub fn panels(&self) -> Vec<&PanelSpec> {
        match &self.layout {
            Layout::Single { panel } => vec![panel],
            Layout::Grid { panels, .. } | Layout::Figure { panels, .. } => panels.iter().collect(),
            Layout::Dashboard { panels, .. } => panels.iter().map(|p| &p.panel).collect(),
        }
    }

    pub fn panels_mut(&mut self) -> Vec<&mut PanelSpec> {
        match &mut self.layout {
            Layout::Single { panel } => vec![panel],
            Layout::Grid { panels, .. } | Layout::Figure { panels, .. } => {
                panels.iter_mut().collect()
            }
            Layout::Dashboard { panels, .. } => panels.iter_mut().map(|p| &mut p.panel).collect(),
        }
    }

    /// Stable content hash of the spec (hex), from its canonical JSON. Used as
    /// the chart id so identical specs share one image.
    pub fn fingerprint(&self) -> String {
        let json = serde_json::to_vec(self).expect("spec serializes");
        blake3::hash(&json).to_hex()[..16].to_string()
    }
}
