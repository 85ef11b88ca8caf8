//! How precisely a question's marks are read: the width of the interval
//! the reader estimates each asked mark within (a mark's end to the view's
//! pixel precision through the printed ticks; a slice by its angle), and 0
//! for a value read from its printed label, which hands the number over.
//! Comparing them between an original and its twin tells whether the
//! twin's reading became harder or easier, from the same model of sight
//! that gates every item.

use std::cell::RefCell;

use super::{Interval, View, evaluate};
use crate::ir::query::Query;
use crate::ir::{BBox, ChartSpec, Scene};

/// One mark reading: the interval's width (0 when read from its printed
/// label) and where the mark is drawn.
struct Reading {
    width: f64,
    bbox: BBox,
}

thread_local! {
    // The readings made during one measurement on this thread; None when
    // nobody is measuring. Thread-local because a reading is evaluated
    // synchronously on one thread, through sights made deep inside it.
    static READINGS: RefCell<Option<Vec<Reading>>> = const { RefCell::new(None) };
}

/// Notes one mark's reading, when a measurement is under way.
pub(super) fn record(iv: &Interval, printed: bool, bbox: BBox) {
    READINGS.with(|r| {
        if let Some(readings) = r.borrow_mut().as_mut() {
            let width = if printed { 0.0 } else { iv.hi - iv.lo };
            if width.is_finite() {
                readings.push(Reading { width, bbox });
            }
        }
    });
}

/// Every mark reading the reader makes to answer `query` (empty when it
/// reads no mark, or cannot answer).
fn readings(query: &Query, spec: &ChartSpec, scene: &Scene, view: &View) -> Vec<Reading> {
    READINGS.with(|r| *r.borrow_mut() = Some(Vec::new()));
    let answered = evaluate(query, spec, scene, view, None).is_ok();
    let readings = READINGS.with(|r| r.borrow_mut().take()).unwrap_or_default();
    if answered { readings } else { Vec::new() }
}

/// The widths of every mark reading the reader makes to answer `query`.
pub fn widths(query: &Query, spec: &ChartSpec, scene: &Scene, view: &View) -> Vec<f64> {
    readings(query, spec, scene, view)
        .into_iter()
        .map(|r| r.width)
        .collect()
}

/// Where each mark the reader reads to answer `query` is drawn, once each.
pub fn read_marks(query: &Query, spec: &ChartSpec, scene: &Scene, view: &View) -> Vec<BBox> {
    let mut out: Vec<BBox> = Vec::new();
    for r in readings(query, spec, scene, view) {
        if !out.contains(&r.bbox) {
            out.push(r.bbox);
        }
    }
    out
}

/// A twin that must estimate marks its original printed: the ratio of an
/// estimate to a given number is unbounded, so it is recorded as this.
pub const PRINTED_TO_ESTIMATED: f64 = 10.0;

/// Mean reading width on the twin over the mean on the original: above 1
/// the asked marks are read less precisely, below 1 more; 0 when the twin
/// prints every value its original made the reader estimate, and
/// [`PRINTED_TO_ESTIMATED`] the other way round. 1 when either reads no
/// mark (a question answered from text) or both read only printed values.
pub fn change(original: &[f64], twin: &[f64]) -> f64 {
    let mean = |w: &[f64]| w.iter().sum::<f64>() / w.len() as f64;
    if original.is_empty() || twin.is_empty() {
        return 1.0;
    }
    let (a, b) = (mean(original), mean(twin));
    if !a.is_finite() || !b.is_finite() {
        return 1.0;
    }
    let ratio = match (a > 0.0, b > 0.0) {
        (false, false) => return 1.0,
        (false, true) => return PRINTED_TO_ESTIMATED,
        (true, _) => (b / a).min(PRINTED_TO_ESTIMATED),
    };
    if ratio == 0.0 {
        return 0.0;
    }
    // Four significant digits: a stable, readable figure in items.jsonl.
    let scale = 10f64.powi(3 - ratio.log10().floor() as i32);
    (ratio * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::ChartKind;
    use crate::query::testing as t;

    #[test]
    fn a_coarser_view_reads_wider_and_labels_read_narrower() {
        let table = t::category_table(
            "t",
            "City",
            &["Oslo", "Lima", "Kyiv"],
            vec![t::series("Sales", &[Some(12.0), Some(47.0), Some(31.0)], 0)],
        );
        let spec = t::single(&table, ChartKind::Bar);
        let (_, scene) = crate::render::render_svg(&spec).unwrap();
        let q = Query::ValueAt {
            panel: 0,
            series: "Sales".into(),
            category: "Lima".into(),
        };
        let sharp = View::for_item(&[], false);
        let plain = widths(&q, &spec, &scene, &sharp);
        assert_eq!(plain.len(), 1);
        let blurred = View {
            precision_px: sharp.precision_px * 4.0,
            ..sharp.clone()
        };
        let coarse = widths(&q, &spec, &scene, &blurred);
        assert!(change(&plain, &coarse) > 3.0);
        let labelled = crate::perturb::restyle(&spec, |s| s.data_labels = true);
        let (_, with_labels) = crate::render::render_svg(&labelled).unwrap();
        let printed = widths(&q, &labelled, &with_labels, &sharp);
        assert_eq!(printed, vec![0.0], "a printed value is handed over");
        assert_eq!(change(&plain, &printed), 0.0);
        assert_eq!(change(&printed, &plain), PRINTED_TO_ESTIMATED);
        // Nothing measured outside a measurement.
        record(&Interval::new(0.0, 1.0), false, BBox::default());
        assert_eq!(change(&[], &plain), 1.0);
        // The marks read are the asked one, where the scene draws it.
        let lima = scene.panels[0]
            .marks
            .iter()
            .find(|m| m.category.as_deref() == Some("Lima"))
            .unwrap()
            .bbox;
        assert_eq!(read_marks(&q, &spec, &scene, &sharp), vec![lima]);
    }

    #[test]
    fn ratios_keep_four_significant_digits() {
        assert_eq!(change(&[3.0], &[4.0]), 1.333);
        assert_eq!(change(&[2.0, 4.0], &[3.0, 3.0]), 1.0);
        assert_eq!(change(&[0.0], &[0.0]), 1.0);
        assert_eq!(change(&[1.0], &[100.0]), PRINTED_TO_ESTIMATED);
    }
}
