//! Reading printed numbers and mapping pixels to values through the printed
//! ticks of a value axis (linear, or logarithmic when the labels grow by a
//! constant factor).

use super::interval::Interval;
use super::view::View;
use crate::ir::Tick;

/// A number as printed on a chart: `1,250`, `-3.5`, `−3.5`, `12%`, `$1.2M`,
/// `2.5k`, `3e6`, `€40`. Returns the value and the step of its last printed
/// digit (so `1.2M` is 1,200,000 ± 50,000).
pub fn parse_printed(text: &str) -> Option<(f64, f64)> {
    let t = text.trim().replace('\u{2212}', "-");
    let negative = t.starts_with('-');
    let unsigned = t.trim_start_matches(['-', '+']);
    let start = unsigned
        .find(|c: char| c.is_ascii_digit() || c == '.')
        .unwrap_or(unsigned.len());
    // A prefix is a currency sign, possibly after a country code (US$, A$).
    let prefix = &unsigned[..start];
    let currency = prefix.is_empty()
        || prefix
            .trim_start_matches(|c: char| c.is_ascii_uppercase())
            .chars()
            .all(|c| matches!(c, '$' | '€' | '£' | '¥' | '₹'))
            && prefix
                .chars()
                .last()
                .is_some_and(|c| !c.is_ascii_uppercase());
    if !currency {
        return None;
    }
    let body: String = unsigned[start..].chars().filter(|c| *c != ',').collect();
    let num_end = body
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_digit() || *c == '.'))
        .map_or(body.len(), |(i, _)| i);
    let (digits, rest) = body.split_at(num_end);
    let rest = rest.trim_start();
    if digits.is_empty() || !digits.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut value: f64 = digits.parse().ok()?;
    let decimals = digits.split_once('.').map_or(0, |(_, f)| f.len()) as i32;
    let mut step = 10f64.powi(-decimals);
    let mut scale = 1.0;
    let mut suffix = rest;
    if let Some(exp) = rest.strip_prefix('e').or_else(|| rest.strip_prefix('E')) {
        let e: i32 = exp.parse().ok()?;
        scale = 10f64.powi(e);
        suffix = "";
    } else if let Some(c) = rest.chars().next() {
        scale = match c {
            'k' | 'K' => 1e3,
            'M' => 1e6,
            'B' => 1e9,
            'T' => 1e12,
            _ => 1.0,
        };
        if scale != 1.0 {
            suffix = &rest[c.len_utf8()..];
        }
    }
    // Anything after the number other than a unit sign means it is not a number label.
    if !suffix.is_empty() && !suffix.chars().all(|c| matches!(c, '%' | '°' | '‰')) {
        return None;
    }
    value *= scale;
    step *= scale;
    if negative {
        value = -value;
    }
    value.is_finite().then_some((value, step))
}

/// A value axis as a reader calibrates it: legible numeric tick labels at
/// their pixel positions.
#[derive(Debug, Clone)]
pub struct ValueAxis {
    /// (pixel position, value) in increasing pixel order.
    points: Vec<(f64, f64)>,
    log: bool,
}

impl ValueAxis {
    /// Calibrates from printed ticks; None with fewer than two legible numeric labels.
    pub fn from_ticks(ticks: &[Tick], view: &View) -> Option<ValueAxis> {
        let mut points: Vec<(f64, f64)> = ticks
            .iter()
            .filter(|t| view.legible(&t.bbox))
            .filter_map(|t| parse_printed(&t.label).map(|(v, _)| (f64::from(t.pos), v)))
            .collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        points.dedup_by(|a, b| a.0 == b.0);
        if points.len() < 2 {
            return None;
        }
        let log = is_geometric(&points);
        if log && points.iter().any(|p| p.1 <= 0.0) {
            return None;
        }
        // The labels must change monotonically with position.
        let increasing = points.windows(2).all(|w| w[1].1 > w[0].1);
        let decreasing = points.windows(2).all(|w| w[1].1 < w[0].1);
        (increasing || decreasing).then_some(ValueAxis { points, log })
    }

    fn t(&self, v: f64) -> f64 {
        if self.log { v.log10() } else { v }
    }

    fn inv(&self, t: f64) -> f64 {
        if self.log { 10f64.powf(t) } else { t }
    }

    /// The value at a pixel position, interpolating between the nearest ticks
    /// (extrapolating from the outermost pair beyond them).
    pub fn value_at(&self, px: f64) -> f64 {
        let n = self.points.len();
        let i = self
            .points
            .windows(2)
            .position(|w| px <= w[1].0)
            .unwrap_or(n - 2);
        let (p0, v0) = self.points[i];
        let (p1, v1) = self.points[i + 1];
        let (t0, t1) = (self.t(v0), self.t(v1));
        self.inv(t0 + (px - p0) / (p1 - p0) * (t1 - t0))
    }

    /// What a reading at `px` can be, given the view's pixel precision.
    pub fn read(&self, px: f64, view: &View) -> Interval {
        let e = view.precision_px;
        Interval::new(self.value_at(px - e), self.value_at(px + e))
    }
}

/// A log axis places its labels evenly by magnitude (1, 2, 5, 10 … or
/// 1, 10, 100): positions fit log(value) better than value.
fn is_geometric(points: &[(f64, f64)]) -> bool {
    if points.len() < 3 || points.iter().any(|p| p.1 <= 0.0) {
        return false;
    }
    let misfit = |f: &dyn Fn(f64) -> f64| -> f64 {
        let xs: Vec<f64> = points.iter().map(|p| f(p.1)).collect();
        let ys: Vec<f64> = points.iter().map(|p| p.0).collect();
        let n = xs.len() as f64;
        let (mx, my) = (xs.iter().sum::<f64>() / n, ys.iter().sum::<f64>() / n);
        let sxy: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum();
        let sxx: f64 = xs.iter().map(|x| (x - mx).powi(2)).sum();
        let slope = sxy / sxx;
        xs.iter()
            .zip(&ys)
            .map(|(x, y)| (y - (my + slope * (x - mx))).abs())
            .fold(0.0, f64::max)
    };
    misfit(&|v| v.log10()) + 0.5 < misfit(&|v| v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::BBox;

    fn tick(label: &str, pos: f32) -> Tick {
        Tick {
            label: label.into(),
            value: None,
            pos,
            bbox: BBox {
                x: 0.0,
                y: pos,
                w: 20.0,
                h: 12.0,
            },
            category: None,
        }
    }

    #[test]
    fn printed_numbers() {
        assert_eq!(parse_printed("1,250"), Some((1250.0, 1.0)));
        assert_eq!(parse_printed("−3.5"), Some((-3.5, 0.1)));
        assert_eq!(parse_printed("12%"), Some((12.0, 1.0)));
        assert_eq!(parse_printed("$1.2M"), Some((1_200_000.0, 100_000.0)));
        assert_eq!(parse_printed("2.5k"), Some((2500.0, 100.0)));
        assert_eq!(parse_printed("3e6"), Some((3e6, 1e6)));
        assert_eq!(parse_printed("-$980.0"), Some((-980.0, 0.1)));
        assert_eq!(parse_printed("France"), None);
        assert_eq!(parse_printed("2023-01"), None);
        assert_eq!(parse_printed("Q1 2023"), None);
    }

    #[test]
    fn linear_and_log_axes() {
        let view = View::default();
        // y axis: value grows upward, pixels grow downward.
        let lin = ValueAxis::from_ticks(
            &[tick("0", 400.0), tick("50", 300.0), tick("100", 200.0)],
            &view,
        )
        .unwrap();
        assert!((lin.value_at(250.0) - 75.0).abs() < 1e-9);
        let r = lin.read(250.0, &view);
        assert!((r.hi - r.lo - 1.0).abs() < 1e-9);
        let log = ValueAxis::from_ticks(
            &[tick("1", 400.0), tick("10", 300.0), tick("100", 200.0)],
            &view,
        )
        .unwrap();
        assert!((log.value_at(250.0) - 10f64.powf(1.5)).abs() < 1e-9);
        // 1-2-5 ticks of a log axis.
        let px = |v: f64| 400.0 - 100.0 * v.log10() as f32;
        let log125 = ValueAxis::from_ticks(
            &[
                tick("100", px(100.0)),
                tick("200", px(200.0)),
                tick("500", px(500.0)),
                tick("1,000", px(1000.0)),
            ],
            &view,
        )
        .unwrap();
        assert!((log125.value_at(f64::from(px(300.0))) - 300.0).abs() < 1e-3);
    }
}
