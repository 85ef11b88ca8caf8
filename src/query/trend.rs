//! Trend shapes of a series, refusing shapes between two labels.

use super::{Refusal, RefusalKind};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TrendShape {
    Increasing,
    Decreasing,
    Stable,
    Fluctuating,
    IncreasesThenDecreases,
    DecreasesThenIncreases,
}

impl TrendShape {
    pub const ALL: [TrendShape; 6] = [
        TrendShape::Increasing,
        TrendShape::Decreasing,
        TrendShape::Stable,
        TrendShape::Fluctuating,
        TrendShape::IncreasesThenDecreases,
        TrendShape::DecreasesThenIncreases,
    ];

    pub fn label(self) -> &'static str {
        match self {
            TrendShape::Increasing => "increasing",
            TrendShape::Decreasing => "decreasing",
            TrendShape::Stable => "stable",
            TrendShape::Fluctuating => "fluctuating",
            TrendShape::IncreasesThenDecreases => "increases then decreases",
            TrendShape::DecreasesThenIncreases => "decreases then increases",
        }
    }
}

/// Flat when the range is within this share of the largest magnitude.
const STABLE_SHARE: f64 = 0.02;
/// Clearly moving only beyond this share; in between the shape is disputable.
const MOVING_SHARE: f64 = 0.08;
/// Each step must move at least this share of the range (no near-flat steps).
const STEP_SHARE: f64 = 0.03;
/// Each monotone run must cover at least this share of the range.
const RUN_SHARE: f64 = 0.15;

pub fn classify_trend(values: &[f64]) -> Result<TrendShape, Refusal> {
    let ambiguous = |why: &str| Err(Refusal::new(RefusalKind::AmbiguousTrend, why.to_string()));
    if values.len() < 3 {
        return Err(Refusal::new(
            RefusalKind::Unsupported,
            "a trend needs at least three points",
        ));
    }
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let range = hi - lo;
    let scale = hi.abs().max(lo.abs()).max(1e-12);
    if range <= STABLE_SHARE * scale {
        return Ok(TrendShape::Stable);
    }
    if range < MOVING_SHARE * scale {
        return ambiguous("between stable and moving");
    }
    let steps: Vec<f64> = values.windows(2).map(|w| w[1] - w[0]).collect();
    if steps.iter().any(|d| d.abs() < STEP_SHARE * range) {
        return ambiguous("a nearly flat step");
    }
    // Monotone runs as (sign, total movement).
    let mut runs: Vec<(bool, f64)> = Vec::new();
    for d in steps {
        let up = d > 0.0;
        match runs.last_mut() {
            Some((s, total)) if *s == up => *total += d.abs(),
            _ => runs.push((up, d.abs())),
        }
    }
    if runs.len() > 1 && runs.iter().any(|r| r.1 < RUN_SHARE * range) {
        return ambiguous("a small reversal");
    }
    Ok(match runs.as_slice() {
        [(true, _)] => TrendShape::Increasing,
        [(false, _)] => TrendShape::Decreasing,
        [(true, _), (false, _)] => TrendShape::IncreasesThenDecreases,
        [(false, _), (true, _)] => TrendShape::DecreasesThenIncreases,
        _ => TrendShape::Fluctuating,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        assert_eq!(
            classify_trend(&[1.0, 2.0, 3.0, 5.0]).unwrap(),
            TrendShape::Increasing
        );
        assert_eq!(
            classify_trend(&[9.0, 7.0, 3.0]).unwrap(),
            TrendShape::Decreasing
        );
        assert_eq!(
            classify_trend(&[100.0, 100.5, 100.2]).unwrap(),
            TrendShape::Stable
        );
        assert_eq!(
            classify_trend(&[1.0, 5.0, 9.0, 4.0]).unwrap(),
            TrendShape::IncreasesThenDecreases
        );
        assert_eq!(
            classify_trend(&[1.0, 9.0, 2.0, 8.0, 1.0]).unwrap(),
            TrendShape::Fluctuating
        );
    }

    #[test]
    fn refuses_disputable_shapes() {
        // Tiny dip at the end of a rise.
        assert!(classify_trend(&[1.0, 5.0, 9.0, 8.9]).is_err());
        // Between stable and moving.
        assert!(classify_trend(&[100.0, 104.0, 102.0]).is_err());
        // Flat step.
        assert!(classify_trend(&[1.0, 5.0, 5.0, 9.0]).is_err());
    }
}
