//! Intermediate representations: plain serde types shared by every stage.
//!
//! This module depends on nothing else in the crate. Each stage reads and
//! writes these types, which is what lets a stage be rerun, cached, sharded or
//! replaced on its own (see DESIGN.md, "Data flows one way").

pub mod answer;
pub mod decimal;
pub mod item;
pub mod prediction;
pub mod query;
pub mod scene;
pub mod spec;
pub mod suite;
pub mod table;

pub use answer::{Answer, AnswerKind};
pub use item::{Change, Item, Perturbation, QuestionType, Realization, SetName, Turn};
pub use prediction::{Prediction, Usage};
pub use query::Query;
pub use scene::{
    AnnotationScene, BBox, BinScene, CategoryLabel, ColorBar, DualAxisScene, FigureScene,
    GroupScene, HeatmapScene, LegendEntry, Mark, MarkKind, OutlierScene, PanelScene, RadarScene,
    Scene, Spoke, StatScene, TextBox, Tick,
};
pub use spec::{
    Align, Annotation, AnnotationMark, AxisSpans, ChartKind, ChartSpec, Colormap, DashboardPanel,
    DateStyle, Furniture, GridLines, KpiTile, Layout, LegendOrder, LegendPlacement, NamedColor,
    NumberStyle, PanelSpec, PinnedAxes, Style, TitlePlacement,
};
pub use suite::{ChartRecord, SuiteManifest};
pub use table::{Cell, Column, ColumnType, NumberFormat, Table, TableMeta};
