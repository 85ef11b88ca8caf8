//! Paired statistics for reports: Wilson intervals, a cluster bootstrap of
//! the accuracy gap, the exact McNemar test and flip counts.

use std::collections::BTreeMap;

use rand::RngExt;
use serde::{Deserialize, Serialize};

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A closed interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

/// Wilson score 95% interval for `successes` out of `n` (successes may be
/// fractional when scores are partial, e.g. ANLS). `n == 0` gives [0, 1].
pub fn wilson(successes: f64, n: usize) -> Interval {
    if n == 0 {
        return Interval {
            low: 0.0,
            high: 1.0,
        };
    }
    let n = n as f64;
    let p = (successes / n).clamp(0.0, 1.0);
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Interval {
        low: (center - half).max(0.0),
        high: (center + half).min(1.0),
    }
}

/// Two-sided exact McNemar p-value: a binomial test with p = ½ on the `b`
/// and `c` discordant pairs, summed in log space so large counts do not
/// underflow. No discordant pairs gives 1.
pub fn mcnemar_exact(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    let k = b.min(c);
    let ln_half_n = n as f64 * 0.5f64.ln();
    let mut ln_binom = 0.0f64; // ln C(n, 0)
    let mut terms = Vec::with_capacity(k as usize + 1);
    for i in 0..=k {
        if i > 0 {
            ln_binom += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        terms.push(ln_binom + ln_half_n);
    }
    let max = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let tail = max.exp() * terms.iter().map(|t| (t - max).exp()).sum::<f64>();
    (2.0 * tail).min(1.0)
}

/// One original item and one modified item made from it, with their scores.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// Resampling unit: the original item's chart id.
    pub cluster: String,
    pub original: f64,
    pub modified: f64,
}

/// Right/wrong transitions between the two items of each pair; an item is
/// right when its score is at least 0.5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Flips {
    pub right_to_wrong: u64,
    pub wrong_to_right: u64,
    pub both_right: u64,
    pub both_wrong: u64,
}

/// Score at which an item counts as right for flips and McNemar.
pub const RIGHT: f64 = 0.5;

pub fn flips(pairs: &[Pair]) -> Flips {
    let mut f = Flips::default();
    for p in pairs {
        match (p.original >= RIGHT, p.modified >= RIGHT) {
            (true, false) => f.right_to_wrong += 1,
            (false, true) => f.wrong_to_right += 1,
            (true, true) => f.both_right += 1,
            (false, false) => f.both_wrong += 1,
        }
    }
    f
}

#[derive(Debug, Clone)]
pub struct BootstrapOptions {
    pub resamples: usize,
    pub seed: u64,
    /// Two-sided coverage, e.g. 0.95.
    pub confidence: f64,
}

impl Default for BootstrapOptions {
    fn default() -> Self {
        BootstrapOptions {
            resamples: 2000,
            seed: 0,
            confidence: 0.95,
        }
    }
}

/// Mean original score minus mean modified score.
pub fn gap(pairs: &[Pair]) -> f64 {
    if pairs.is_empty() {
        return 0.0;
    }
    let n = pairs.len() as f64;
    pairs.iter().map(|p| p.original - p.modified).sum::<f64>() / n
}

/// Percentile interval of the gap (original − modified, as a fraction) from a
/// paired cluster bootstrap: whole charts are resampled with replacement,
/// keeping every pair of a chart together, since items on one chart are not
/// independent. Seeded from `opts.seed` and `label`, so the same inputs give
/// the same interval. None without pairs.
pub fn paired_bootstrap(pairs: &[Pair], opts: &BootstrapOptions, label: &str) -> Option<Interval> {
    if pairs.is_empty() || opts.resamples == 0 {
        return None;
    }
    // Per chart: (sum of differences, pair count), in key order for determinism.
    let mut clusters: BTreeMap<&str, (f64, usize)> = BTreeMap::new();
    for p in pairs {
        let e = clusters.entry(p.cluster.as_str()).or_default();
        e.0 += p.original - p.modified;
        e.1 += 1;
    }
    let clusters: Vec<(f64, usize)> = clusters.into_values().collect();
    let mut rng = crate::seed::rng(opts.seed, &["paired_bootstrap", label]);
    let mut gaps = Vec::with_capacity(opts.resamples);
    for _ in 0..opts.resamples {
        let (mut sum, mut count) = (0.0, 0usize);
        for _ in 0..clusters.len() {
            let (s, c) = clusters[rng.random_range(0..clusters.len())];
            sum += s;
            count += c;
        }
        gaps.push(sum / count as f64);
    }
    gaps.sort_by(f64::total_cmp);
    let alpha = (1.0 - opts.confidence) / 2.0;
    Some(Interval {
        low: quantile(&gaps, alpha),
        high: quantile(&gaps, 1.0 - alpha),
    })
}

/// Linear-interpolation quantile of sorted values (R's type 7).
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    let pos = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    #[test]
    fn wilson_known_values() {
        // 8/10: 0.4902 .. 0.9433 (Wilson 1927; matches statsmodels' proportion_confint).
        let i = wilson(8.0, 10);
        assert!(
            close(i.low, 0.490_16, 1e-4) && close(i.high, 0.943_32, 1e-4),
            "{i:?}"
        );
        let i = wilson(0.0, 20);
        assert_eq!(i.low, 0.0);
        assert!(close(i.high, 0.161_13, 1e-4), "{i:?}");
        let i = wilson(50.0, 100);
        assert!(
            close(i.low, 0.403_83, 1e-4) && close(i.high, 0.596_17, 1e-4),
            "{i:?}"
        );
        assert_eq!(
            wilson(0.0, 0),
            Interval {
                low: 0.0,
                high: 1.0
            }
        );
    }

    #[test]
    fn mcnemar_known_tables() {
        assert!(close(mcnemar_exact(10, 2), 0.038_574_2, 1e-6));
        assert!(close(mcnemar_exact(2, 10), 0.038_574_2, 1e-6));
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        assert_eq!(mcnemar_exact(5, 5), 1.0);
        // b = 1, c = 0: 2 · ½ = 1.
        assert_eq!(mcnemar_exact(1, 0), 1.0);
        // b = 6, c = 0: 2 / 64.
        assert!(close(mcnemar_exact(6, 0), 0.031_25, 1e-12));
        // Large counts stay finite: 2 · P(X ≤ 4000 | n = 10000).
        let p = mcnemar_exact(6000, 4000);
        assert!(p > 0.0 && p < 1e-80, "{p}");
    }

    fn pairs() -> Vec<Pair> {
        (0..60)
            .map(|i| Pair {
                cluster: format!("chart{}", i / 3),
                original: f64::from(u8::from(i % 4 != 0)),
                modified: f64::from(u8::from(i % 2 == 0)),
            })
            .collect()
    }

    #[test]
    fn bootstrap_is_deterministic_and_covers_the_gap() {
        let p = pairs();
        let opts = BootstrapOptions::default();
        let a = paired_bootstrap(&p, &opts, "run/modified_chart").unwrap();
        let b = paired_bootstrap(&p, &opts, "run/modified_chart").unwrap();
        assert_eq!(a, b);
        let g = gap(&p);
        assert!(a.low <= g && g <= a.high, "{a:?} {g}");
        let other = paired_bootstrap(
            &p,
            &BootstrapOptions {
                seed: 1,
                ..opts.clone()
            },
            "run/modified_chart",
        )
        .unwrap();
        assert_ne!(a, other);
        assert!(paired_bootstrap(&[], &opts, "x").is_none());
    }

    #[test]
    fn bootstrap_of_identical_scores_is_a_point() {
        let p: Vec<Pair> = (0..10)
            .map(|i| Pair {
                cluster: format!("c{i}"),
                original: 1.0,
                modified: 1.0,
            })
            .collect();
        let i = paired_bootstrap(&p, &BootstrapOptions::default(), "x").unwrap();
        assert_eq!((i.low, i.high), (0.0, 0.0));
    }

    #[test]
    fn flip_counts() {
        let f = flips(&pairs());
        assert_eq!(
            f.right_to_wrong + f.wrong_to_right + f.both_right + f.both_wrong,
            60
        );
        // i odd and i % 4 != 0: original right, modified wrong.
        assert_eq!(f.right_to_wrong, 30);
        assert_eq!(f.wrong_to_right, 15);
        assert_eq!(f.both_right, 15);
        assert_eq!(f.both_wrong, 0);
    }
}
