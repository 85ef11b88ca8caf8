//! Number helpers: rounding as printed, shares summing to exactly 100,
//! trends with noise, seasonality and outliers.

use super::SynthRng;
use crate::ir::{Cell, Column, ColumnType, NumberFormat};
use rand::RngExt;

/// Round to `decimals` through the printed form, so that writing and
/// reloading the value gives back the very same f64.
pub fn round_to(value: f64, decimals: u8) -> f64 {
    let d = usize::from(decimals);
    let printed = format!("{value:.d$}");
    let v: f64 = printed.parse().unwrap_or(value);
    // "-0.0" would print as "0.0" and reload as +0.
    if v == 0.0 { 0.0 } else { v }
}

/// How a synthesized measure is printed.
#[derive(Debug, Clone, Copy)]
pub struct Printed {
    pub decimals: u8,
    pub prefix: Option<&'static str>,
    pub suffix: Option<&'static str>,
    pub thousands: bool,
}

/// A numeric column; thousands separators are recorded only when a value is
/// large enough to show one (as a loader would infer).
pub fn number_column(name: &str, values: &[Option<f64>], printed: Printed) -> Column {
    let cells: Vec<Cell> = values
        .iter()
        .map(|v| {
            v.map_or(Cell::Missing, |v| {
                Cell::Number(round_to(v, printed.decimals))
            })
        })
        .collect();
    let big = cells
        .iter()
        .any(|c| c.as_f64().is_some_and(|v| v.abs() >= 1000.0));
    Column {
        name: name.to_string(),
        ctype: ColumnType::Number,
        format: NumberFormat {
            decimals: printed.decimals,
            prefix: printed.prefix.map(str::to_string),
            suffix: printed.suffix.map(str::to_string),
            thousands: printed.thousands && big,
        },
        cells,
    }
}

/// Positive weights that sum to 100 when printed with `decimals` decimals
/// (largest-remainder rounding), sorted largest first if `sorted`.
pub fn shares(rng: &mut SynthRng, n: usize, decimals: u8, sorted: bool) -> Vec<f64> {
    let scale = 10f64.powi(i32::from(decimals));
    let total_units = (100.0 * scale) as i64;
    // Skewed weights look like real market shares (one leader, a long tail).
    let mut weights: Vec<f64> = (0..n)
        .map(|_| rng.random_range(0.05f64..1.0).powf(1.8))
        .collect();
    if sorted {
        weights.sort_by(|a, b| b.total_cmp(a));
    }
    let sum: f64 = weights.iter().sum();
    // Every share at least one printed unit, so none prints as 0.
    let spare = total_units - n as i64;
    let exact: Vec<f64> = weights.iter().map(|w| w / sum * spare as f64).collect();
    let mut units: Vec<i64> = exact.iter().map(|e| e.floor() as i64).collect();
    let mut left = spare - units.iter().sum::<i64>();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        let ra = exact[a] - exact[a].floor();
        let rb = exact[b] - exact[b].floor();
        rb.total_cmp(&ra).then(a.cmp(&b))
    });
    for &i in order.iter().cycle() {
        if left <= 0 {
            break;
        }
        units[i] += 1;
        left -= 1;
    }
    units
        .iter()
        .map(|u| round_to((u + 1) as f64 / scale, decimals))
        .collect()
}

/// A yearly or monthly series: level × growth^t, plus seasonality and noise.
pub struct Trend {
    pub start: f64,
    /// Relative change per step (0.05 = +5% a step).
    pub growth: f64,
    /// Amplitude of a 12-step seasonal cycle, relative to the level.
    pub seasonal: f64,
    /// Noise, relative to the level.
    pub noise: f64,
    /// Added per step (for series that cross zero, e.g. temperature anomalies).
    pub drift: f64,
}

impl Trend {
    pub fn values(&self, rng: &mut SynthRng, steps: usize, phase: f64) -> Vec<f64> {
        (0..steps)
            .map(|t| {
                let level = self.start * (1.0 + self.growth).powi(t as i32);
                let season =
                    1.0 + self.seasonal * ((t as f64 + phase) / 12.0 * std::f64::consts::TAU).sin();
                let noise = 1.0 + self.noise * rng.random_range(-1.0..1.0);
                level * season * noise + self.drift * t as f64
            })
            .collect()
    }
}

/// Replace one value by a spike (or a dip) 2.5–4× away from it.
pub fn add_outlier(rng: &mut SynthRng, values: &mut [f64]) {
    if values.len() < 3 {
        return;
    }
    let i = rng.random_range(1..values.len());
    let factor = rng.random_range(2.5..4.0);
    values[i] = if rng.random_bool(0.8) {
        values[i] * factor
    } else {
        values[i] / factor
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::format_value;

    #[test]
    fn shares_print_to_exactly_100() {
        for seed in 0..200u64 {
            let mut rng = crate::seed::rng(seed, &["shares"]);
            let n = 2 + (seed as usize % 9);
            let decimals = (seed % 2) as u8;
            let s = shares(&mut rng, n, decimals, seed % 3 == 0);
            assert_eq!(s.len(), n);
            let scale = 10f64.powi(i32::from(decimals));
            let units: i64 = s.iter().map(|v| (v * scale).round() as i64).sum();
            assert_eq!(units as f64, 100.0 * scale, "seed {seed}: {s:?}");
            assert!(s.iter().all(|v| *v > 0.0));
            let f = NumberFormat {
                decimals,
                ..Default::default()
            };
            let printed: f64 = s
                .iter()
                .map(|v| format_value(*v, &f).parse::<f64>().expect("number"))
                .sum();
            assert!((printed - 100.0).abs() < 1e-9);
        }
    }

    #[test]
    fn rounding_is_stable_through_printing() {
        for v in [0.1 + 0.2, 1234.5678, -0.04, 2.675] {
            let r = round_to(v, 2);
            assert_eq!(format!("{r:.2}").parse::<f64>().ok(), Some(r));
        }
        assert_eq!(round_to(-0.004, 2).to_bits(), 0f64.to_bits());
    }
}
