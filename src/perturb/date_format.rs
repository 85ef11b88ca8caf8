//! Date format: the chart's date and period labels printed another way
//! (`Jan 2023`, `January 2023`, `Jan '23`, `FY23` for `2023-01` / `2023`).
//! The table and so every answer stay as they are; questions name periods
//! as the new chart prints them. Applies only where a printed category
//! label really changes (an index of countries has no dates; years print
//! alike in most formats).

use super::util::drawn;
use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartSpec, DateStyle, Scene};

pub struct DateFormat;

const LEVELS: [DateStyle; 5] = [
    DateStyle::MonthYear,
    DateStyle::FullMonth,
    DateStyle::MonthDay,
    DateStyle::ShortYear,
    DateStyle::FiscalShort,
];

/// The printed category labels of every panel: axis ticks that are not
/// numbers, and a pie's legend entries and slice names.
fn category_labels(scene: &Scene) -> Vec<Vec<&str>> {
    scene
        .panels
        .iter()
        .map(|p| {
            p.x_ticks
                .iter()
                .chain(&p.y_ticks)
                .filter(|t| t.value.is_none())
                .map(|t| t.label.as_str())
                .chain(
                    p.legend
                        .iter()
                        .map(|e| e.label.as_str())
                        .chain(p.direct_labels.iter().map(|t| t.text.as_str()))
                        .filter(|_| p.kind.is_circular()),
                )
                .collect()
        })
        .collect()
}

impl Perturbation for DateFormat {
    fn info(&self) -> Info {
        Info {
            name: "date_format",
            axis: "axis",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "month names (Jan 2023, 5 Jan 2023, Q1 2023) instead of ISO dates; only where a printed date label changes",
                "full month names (January 2023)",
                "month first (Jan 2023, Jan 5, 2023)",
                "two-digit years (Jan '23, '23)",
                "fiscal years (FY23), two-digit years elsewhere",
            ],
        }
    }

    fn not_for(&self, kind: crate::ir::ChartKind) -> Option<&'static str> {
        use crate::ir::ChartKind::*;
        matches!(
            kind,
            Histogram | BoxPlot | Violin | Dumbbell | Slope | Radar | Scatter | Bubble
        )
        .then_some("its categories are named groups or numbers, never dates")
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let mut style = LEVELS[super::level("date_format", severity).ok()?];
        let current = spec.panels().first()?.style.date_style;
        if style == current {
            // Already printed that way: back to ISO instead.
            style = DateStyle::Iso;
        }
        let (_, before) = drawn(spec)?;
        let was = category_labels(&before);
        if was.iter().all(Vec::is_empty) {
            return None;
        }
        let out = super::restyle(spec, |s| s.date_style = style);
        let (_, after) = drawn(&out)?;
        let now = category_labels(&after);
        // Another format of the same ticks: a longer label that makes the
        // axis print fewer dates (weekly → fortnightly) moves the ticks too.
        if now == was || now.iter().map(Vec::len).ne(was.iter().map(Vec::len)) {
            return None;
        }
        Some(Applied::new(out).param(
            "date_style",
            serde_json::to_value(style).unwrap_or_default(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Cell, ChartKind, ColumnType};
    use crate::perturb::util::testing;

    use crate::perturb::util::testing::ctx;

    fn monthly(kind: ChartKind) -> ChartSpec {
        let mut t = testing::table("m", &[("Sales", &[3.0, 5.0, 2.0, 4.0])], false);
        t.index.ctype = ColumnType::Date;
        t.index.cells = ["2023-01", "2023-02", "2023-03", "2023-04"]
            .iter()
            .map(|d| Cell::Date(d.to_string()))
            .collect();
        testing::single(t, kind)
    }

    #[test]
    fn only_where_a_printed_date_changes() {
        // Categories that are no dates print alike in every format.
        for severity in 1..=5 {
            assert!(
                DateFormat
                    .apply_spec(&testing::bar(), severity, &ctx())
                    .is_none()
            );
        }
        for kind in [ChartKind::Bar, ChartKind::Line, ChartKind::Pie] {
            let spec = monthly(kind);
            let (_, a) = drawn(&spec).unwrap();
            for severity in 1..=5 {
                let out = DateFormat.apply_spec(&spec, severity, &ctx()).unwrap();
                let (_, b) = drawn(&out.value).unwrap();
                assert_ne!(
                    category_labels(&a),
                    category_labels(&b),
                    "{kind:?} {severity}"
                );
                // The table, and so every answer, is untouched.
                assert_eq!(
                    out.value.panels()[0].table,
                    spec.panels()[0].table,
                    "{kind:?}"
                );
            }
        }
        let (_, b) = drawn(
            &DateFormat
                .apply_spec(&monthly(ChartKind::Bar), 1, &ctx())
                .unwrap()
                .value,
        )
        .unwrap();
        let ticks: Vec<(&str, Option<&str>)> = b.panels[0]
            .x_ticks
            .iter()
            .map(|t| (t.label.as_str(), t.category.as_deref()))
            .collect();
        assert_eq!(
            ticks,
            [
                ("Jan 2023", Some("2023-01")),
                ("Feb 2023", Some("2023-02")),
                ("Mar 2023", Some("2023-03")),
                ("Apr 2023", Some("2023-04"))
            ]
        );
    }

    #[test]
    fn years_change_only_where_their_print_does() {
        let mut t = testing::table("y", &[("Sales", &[3.0, 5.0, 2.0])], false);
        t.index.ctype = ColumnType::Year;
        t.index.cells = [2021, 2022, 2023].into_iter().map(Cell::Year).collect();
        let spec = testing::single(t, ChartKind::Bar);
        // Month names leave years as they are.
        assert!(DateFormat.apply_spec(&spec, 1, &ctx()).is_none());
        let out = DateFormat.apply_spec(&spec, 5, &ctx()).unwrap();
        let (_, b) = drawn(&out.value).unwrap();
        assert_eq!(category_labels(&b)[0], ["FY21", "FY22", "FY23"]);
    }
}
