//! Which original charts are drawn on a logarithmic value axis: those whose
//! values span several orders of magnitude, so that on a linear axis most
//! marks would be too small to see (minimum inhibitory concentrations from
//! 0.001 to 870, populations from thousands to a billion).

use crate::ir::{ChartKind, PanelSpec};

/// Fewest orders of magnitude between the largest and smallest drawn value.
const MIN_DECADES: f64 = 3.0;
/// On a linear axis, a median under this share of the largest value leaves
/// most marks a sliver.
const MEDIAN_SHARE: f64 = 0.01;

/// Whether an analyst would draw this panel on a log axis: a kind with one
/// value axis (bars, lollipops, lines; a scatter's other axis would stay
/// linear), every drawn value positive, the
/// values spanning [`MIN_DECADES`] decades with most of them near zero on a
/// linear axis.
pub fn needs_log_axis(panel: &PanelSpec) -> bool {
    use ChartKind::*;
    if !matches!(
        panel.kind,
        Bar | HorizontalBar | GroupedBar | Lollipop | Line
    ) {
        return false;
    }
    let mut values = Vec::new();
    for name in &panel.series {
        let Some(column) = panel.table.series(name) else {
            return false;
        };
        for cell in &column.cells {
            match cell.as_f64() {
                Some(v) if v > 0.0 && v.is_finite() => values.push(v),
                Some(_) => return false,
                None if cell.is_missing() => {}
                None => return false,
            }
        }
    }
    if values.len() < 3 {
        return false;
    }
    values.sort_by(f64::total_cmp);
    let (lo, hi) = (values[0], values[values.len() - 1]);
    let median = values[values.len() / 2];
    (hi / lo).log10() >= MIN_DECADES && median < MEDIAN_SHARE * hi
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::testing::{category_table, panel, series};

    fn bars(values: &[f64]) -> PanelSpec {
        let labels: Vec<String> = (0..values.len()).map(|i| format!("B{i}")).collect();
        let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
        let cells: Vec<Option<f64>> = values.iter().copied().map(Some).collect();
        let table = category_table("mic", "Bacteria", &labels, vec![series("MIC", &cells, 3)]);
        panel(&table, ChartKind::Bar)
    }

    #[test]
    fn wide_spans_with_most_values_small_get_a_log_axis() {
        assert!(needs_log_axis(&bars(&[
            870.0, 0.001, 1.0, 0.005, 0.1, 850.0, 0.03
        ])));
        // Wide, but most values are large: a linear axis shows them.
        assert!(!needs_log_axis(&bars(&[870.0, 0.001, 500.0, 700.0, 650.0])));
        // Narrow: linear.
        assert!(!needs_log_axis(&bars(&[12.0, 3.0, 40.0, 7.0])));
        // Two decades, most values small: still linear.
        assert!(!needs_log_axis(&bars(&[500.0, 5.0, 6.0, 4.0, 7.0])));
        // A zero has no place on a log axis.
        assert!(!needs_log_axis(&bars(&[870.0, 0.0, 0.001, 0.01, 0.02])));
        let mut pie = bars(&[870.0, 0.001, 1.0, 0.005, 0.1]);
        pie.kind = ChartKind::Pie;
        assert!(!needs_log_axis(&pie));
    }
}
