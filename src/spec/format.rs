//! Number formatting for ticks, value labels and KPI tiles, and "nice" tick
//! placement. Lives in `spec` so that spec building (KPI values) and the
//! renderer print numbers the same way.

use crate::ir::{NumberFormat, NumberStyle};

/// Format `v` with `decimals` decimals in the given style, with the column's
/// unit prefix/suffix (`-$3.20`, `12.5%`, `1.2k`).
pub fn format_number(v: f64, style: NumberStyle, decimals: usize, unit: &NumberFormat) -> String {
    let body = match style {
        NumberStyle::Plain => fixed(v.abs(), decimals),
        NumberStyle::Thousands => group_thousands(&fixed(v.abs(), decimals)),
        NumberStyle::Short => short(v.abs(), decimals),
        NumberStyle::Scientific => scientific(v.abs(), decimals),
    };
    let negative = v < 0.0 && body.chars().any(|c| c.is_ascii_digit() && c != '0');
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    if let Some(p) = &unit.prefix {
        out.push_str(p);
    }
    out.push_str(&body);
    if let Some(s) = &unit.suffix {
        out.push_str(s);
    }
    out
}

/// Decimal rounding of the shortest representation: 2.675 prints "2.68"
/// and no binary artefact ever shows.
fn fixed(v: f64, decimals: usize) -> String {
    crate::ir::decimal::format_fixed(v, clamp_decimals(decimals))
}

fn clamp_decimals(decimals: usize) -> u8 {
    u8::try_from(decimals).unwrap_or(u8::MAX)
}

fn group_thousands(s: &str) -> String {
    let (int, frac) = match s.find('.') {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    };
    let digits: Vec<char> = int.chars().collect();
    let mut out = String::new();
    for (i, c) in digits.iter().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(*c);
    }
    out.push_str(frac);
    out
}

fn trim_zeros(s: String) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

fn short(v: f64, decimals: usize) -> String {
    const UNITS: [(f64, i32, &str); 4] =
        [(1e12, 12, "T"), (1e9, 9, "B"), (1e6, 6, "M"), (1e3, 3, "k")];
    for (scale, shift, suffix) in UNITS {
        if v >= scale {
            // Shift the decimal point rather than divide in binary.
            let scaled = crate::ir::decimal::format_shifted(v, shift, 2);
            return format!("{}{suffix}", trim_zeros(scaled));
        }
    }
    trim_zeros(fixed(v, decimals))
}

fn scientific(v: f64, decimals: usize) -> String {
    if v == 0.0 {
        return "0".into();
    }
    if (1.0..10.0).contains(&v) && decimals == 0 && v.fract() == 0.0 {
        return fixed(v, 0);
    }
    crate::ir::decimal::format_scientific(v, 2)
}

/// Ticks covering [lo, hi] with about `count` steps of 1, 2, 2.5 or 5 × 10^k.
/// Returns (ticks, decimals needed to print them).
pub fn nice_ticks(lo: f64, hi: f64, count: u32) -> (Vec<f64>, usize) {
    let (lo, hi) = if hi > lo {
        (lo, hi)
    } else if lo == 0.0 {
        (0.0, 1.0)
    } else {
        (lo - lo.abs() * 0.1, hi + hi.abs() * 0.1)
    };
    let steps = f64::from(count.clamp(2, 20) - 1);
    let raw = (hi - lo) / steps;
    let mag = 10f64.powf(raw.log10().floor());
    let norm = raw / mag;
    let nice = if norm <= 1.0 {
        1.0
    } else if norm <= 2.0 {
        2.0
    } else if norm <= 2.5 {
        2.5
    } else if norm <= 5.0 {
        5.0
    } else {
        10.0
    };
    let step = nice * mag;
    let start = (lo / step + 1e-9).floor() as i64;
    let end = (hi / step - 1e-9).ceil() as i64;
    // A step that is not finite or too fine for f64 here gives the bounds alone.
    if !step.is_finite() || step <= 0.0 || end.saturating_sub(start) > MAX_TICKS {
        return (vec![clean(lo), clean(hi)], 6);
    }
    let ticks: Vec<f64> = (start..=end).map(|i| clean(i as f64 * step)).collect();
    (ticks, decimals_for(step))
}

/// More ticks than any axis prints: a bound on every tick loop.
const MAX_TICKS: i64 = 200;

/// Ticks from exactly `start` up to at least `hi`, spaced by the nice step
/// [`nice_ticks`] picks for that range (so `start` is always printed even
/// when it is not a multiple of the step). Returns (ticks, decimals).
pub fn ticks_from(start: f64, hi: f64, count: u32) -> (Vec<f64>, usize) {
    let (nice, decimals) = nice_ticks(start, hi, count);
    let step = match nice.as_slice() {
        [a, b, ..] => b - a,
        _ => return (vec![start], decimals_for(start.abs().max(1e-9))),
    };
    let mut ticks = vec![clean(start)];
    let mut k = 1.0;
    while *ticks.last().unwrap_or(&start) < hi - 1e-9 * hi.abs().max(1.0)
        && step > 0.0
        && ticks.len() <= MAX_TICKS as usize
    {
        ticks.push(clean(start + k * step));
        k += 1.0;
    }
    let decimals = decimals.max(if start == 0.0 { 0 } else { decimals_for(start) });
    (ticks, decimals)
}

/// About `count` ticks on an axis that spans exactly `lo` to `hi`: the same
/// axis at another density. Ticks are the multiples of a nice step (1, 2,
/// 2.5 or 5 times a power of ten, or a multiple of the span's own step)
/// inside the span, printed with no more decimals than its ends; the count
/// nearest the wanted one wins, then a step that keeps both ends printed. None when no step prints two ticks. Returns (ticks, decimals).
pub fn span_ticks(lo: f64, hi: f64, count: u32) -> Option<(Vec<f64>, usize)> {
    if !(lo.is_finite() && hi.is_finite() && hi > lo) {
        return None;
    }
    let span = hi - lo;
    let whole = |x: f64| (x - x.round()).abs() < 1e-6 * x.abs().max(1.0);
    let target = f64::from(count.clamp(2, 20));
    let ends = decimals_for(lo).max(decimals_for(hi));
    let top = span.log10().ceil() as i32;
    let mut steps: Vec<f64> = Vec::new();
    for exp in (top - 3)..=top {
        for m in [1.0, 2.0, 2.5, 4.0, 5.0] {
            steps.push(m * 10f64.powi(exp));
        }
    }
    steps.extend((1..=20).map(|n| span / f64::from(n)));
    let ticks_of = |step: f64| -> Vec<f64> {
        let first = (lo / step - 1e-9).ceil() as i64;
        let last = (hi / step + 1e-9).floor() as i64;
        if last - first > MAX_TICKS {
            return Vec::new();
        }
        (first..=last).map(|k| clean(k as f64 * step)).collect()
    };
    let (_, _, step) = steps
        .into_iter()
        .filter(|s| *s > 0.0 && decimals_for(*s) <= ends)
        .filter_map(|step| {
            let ticks = ticks_of(step);
            (ticks.len() >= 2).then(|| {
                let keeps_ends = whole(lo / step) && whole(hi / step);
                (
                    usize::from(!keeps_ends),
                    (ticks.len() as f64 - target).abs(),
                    step,
                )
            })
        })
        .min_by(|a, b| {
            a.1.total_cmp(&b.1)
                .then(a.0.cmp(&b.0))
                .then(b.2.total_cmp(&a.2))
        })?;
    Some((ticks_of(step), decimals_for(step).max(ends)))
}

/// Decimals needed to print multiples of `step` exactly.
pub fn decimals_for(step: f64) -> usize {
    (0..=6)
        .find(|d| {
            let scaled = step * 10f64.powi(*d as i32);
            (scaled - scaled.round()).abs() < 1e-6 * scaled.abs().max(1.0)
        })
        .unwrap_or(6)
}

/// Remove floating noise (0.30000000000000004 → 0.3).
fn clean(v: f64) -> f64 {
    let r = (v * 1e9).round() / 1e9;
    if r == 0.0 { 0.0 } else { r }
}

/// Log-axis ticks: powers of ten covering [lo, hi] (lo > 0), with 2 and 5
/// multiples when the range spans few decades.
pub fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite() && lo > 0.0) {
        return vec![1.0, 10.0];
    }
    // Exponents within f64's range (5e307 is the largest 1-2-5 step), so
    // the tick list is bounded whatever the data.
    let a = (lo.log10().floor() as i32).clamp(-300, 306);
    let b = (hi.log10().ceil().max(f64::from(a) + 1.0) as i32).clamp(a + 1, 307);
    if b - a > 2 {
        return (a..=b).map(|e| clean_rel(10f64.powi(e))).collect();
    }
    // Within two decades: 1-2-5 steps from the largest at or below the data
    // to the smallest at or above it, so narrow data is not squeezed into
    // the bottom of a decade it never reaches (at least 3 ticks, to read by).
    let steps: Vec<f64> = (a - 1..=b)
        .flat_map(|e| [1.0, 2.0, 5.0].map(|m| clean_rel(m * 10f64.powi(e))))
        .collect();
    let start = steps
        .iter()
        .rposition(|t| *t <= lo * (1.0 + 1e-9))
        .unwrap_or(0);
    let end = steps
        .iter()
        .position(|t| *t >= hi * (1.0 - 1e-9))
        .unwrap_or(steps.len() - 1)
        .max(start);
    let start = start.min(end.saturating_sub(2));
    steps[start..=end].to_vec()
}

fn clean_rel(v: f64) -> f64 {
    let d = (-v.log10().floor() as i32 + 6).max(0);
    let f = 10f64.powi(d);
    (v * f).round() / f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_lists_stay_bounded_at_the_float_limits() {
        for (lo, hi) in [
            (1e-300, 1e308),
            (5e307, 1.7e308),
            (0.0, 1.0),
            (-1.0, 1.0),
            (1.0, f64::INFINITY),
            (f64::NAN, 1.0),
        ] {
            let t = log_ticks(lo, hi);
            assert!(!t.is_empty() && t.len() <= 700, "{lo}..{hi}: {}", t.len());
            assert!(t.iter().all(|v| v.is_finite()), "{lo}..{hi}: {t:?}");
        }
        for (lo, hi) in [(1e15, 1e15 + 0.001), (1e-12, 2e-12), (-1e308, 1e308)] {
            let (t, _) = nice_ticks(lo, hi, 6);
            assert!(t.len() <= 201, "{lo}..{hi}: {}", t.len());
            let (t, _) = ticks_from(lo, hi, 6);
            assert!(t.len() <= 202, "{lo}..{hi}: {}", t.len());
        }
    }

    fn unit(prefix: Option<&str>, suffix: Option<&str>) -> NumberFormat {
        NumberFormat {
            decimals: 0,
            prefix: prefix.map(str::to_string),
            suffix: suffix.map(str::to_string),
            thousands: false,
        }
    }

    #[test]
    fn styles() {
        let u = unit(None, None);
        assert_eq!(format_number(1000.0, NumberStyle::Plain, 0, &u), "1000");
        assert_eq!(
            format_number(1234567.0, NumberStyle::Thousands, 0, &u),
            "1,234,567"
        );
        assert_eq!(format_number(1000.0, NumberStyle::Short, 0, &u), "1k");
        assert_eq!(
            format_number(2_500_000.0, NumberStyle::Short, 0, &u),
            "2.5M"
        );
        assert_eq!(format_number(1000.0, NumberStyle::Scientific, 0, &u), "1e3");
        assert_eq!(
            format_number(2500.0, NumberStyle::Scientific, 0, &u),
            "2.5e3"
        );
        assert_eq!(
            format_number(-3.2, NumberStyle::Thousands, 2, &unit(Some("$"), None)),
            "-$3.20"
        );
        assert_eq!(
            format_number(12.5, NumberStyle::Plain, 1, &unit(None, Some("%"))),
            "12.5%"
        );
        assert_eq!(format_number(-0.0001, NumberStyle::Plain, 1, &u), "0.0");
        // Decimal rounding, not binary: these lie just below the half in binary.
        assert_eq!(format_number(2.675, NumberStyle::Plain, 2, &u), "2.68");
        assert_eq!(format_number(1005.0, NumberStyle::Short, 0, &u), "1.01k");
        assert_eq!(format_number(0.005, NumberStyle::Scientific, 3, &u), "5e-3");
        assert_eq!(format_number(9996.0, NumberStyle::Scientific, 0, &u), "1e4");
        assert_eq!(
            format_number(79.425, NumberStyle::Thousands, 2, &u),
            "79.43"
        );
    }

    #[test]
    fn another_density_keeps_the_span() {
        let ticks = |lo, hi, n| span_ticks(lo, hi, n).map(|(t, _)| t);
        // 0-50 by 10 thinned to about three ticks: by 25, still 0 to 50.
        assert_eq!(ticks(0.0, 50.0, 3), Some(vec![0.0, 25.0, 50.0]));
        assert_eq!(ticks(0.0, 8.0, 2), Some(vec![0.0, 8.0]));
        // A span from -500 has no coarser step through both ends: the axis
        // keeps its span and prints the multiples of 1,000 inside it.
        assert_eq!(ticks(-500.0, 2500.0, 3), Some(vec![0.0, 1000.0, 2000.0]));
        // Denser: 0-400 in about 8 ticks by 50.
        assert_eq!(
            ticks(0.0, 400.0, 9),
            Some((0..=8).map(|i| f64::from(i) * 50.0).collect())
        );
        // A step that would print more decimals than the ends is not taken.
        let (t, d) = span_ticks(0.0, 8.0, 4).unwrap();
        assert_eq!((t.first(), t.last(), d), (Some(&0.0), Some(&8.0), 0));
        assert_eq!(span_ticks(5.0, 5.0, 4), None);
        assert_eq!(span_ticks(f64::NAN, 5.0, 4), None);
    }

    #[test]
    fn ticks_are_nice() {
        let (t, d) = nice_ticks(0.0, 87.0, 6);
        assert_eq!(t, vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        assert_eq!(d, 0);
        let (t, d) = nice_ticks(0.0, 1.1, 6);
        assert_eq!(t.last().copied(), Some(1.25));
        assert_eq!(d, 2);
        assert_eq!(log_ticks(1.0, 1000.0), vec![1.0, 10.0, 100.0, 1000.0]);
        // Narrow data keeps its axis near it rather than a decade above.
        assert_eq!(log_ticks(1230.0, 1570.0), vec![500.0, 1000.0, 2000.0]);
        assert_eq!(
            log_ticks(40.0, 900.0),
            vec![20.0, 50.0, 100.0, 200.0, 500.0, 1000.0]
        );
        // A start off the step's grid is still the first tick.
        let (t, d) = ticks_from(10.0, 95.0, 6);
        assert_eq!(t, vec![10.0, 30.0, 50.0, 70.0, 90.0, 110.0]);
        assert_eq!(d, 0);
        let (t, d) = ticks_from(2.5, 9.0, 4);
        assert_eq!(t.first().copied(), Some(2.5));
        assert!(*t.last().unwrap() >= 9.0);
        assert_eq!(d, 1);
    }

    proptest::proptest! {
        #[test]
        fn ticks_cover_the_range_and_print_back(lo in -1e6f64..1e6, span in 1e-3f64..1e6, count in 2u32..12) {
            let hi = lo + span;
            let (ticks, decimals) = nice_ticks(lo, hi, count);
            proptest::prop_assert!(ticks[0] <= lo + 1e-9 * lo.abs().max(1.0));
            proptest::prop_assert!(*ticks.last().unwrap() >= hi - 1e-9 * hi.abs().max(1.0));
            proptest::prop_assert!(ticks.len() <= 2 * count as usize + 2);
            let u = NumberFormat::default();
            for t in &ticks {
                let printed = format_number(*t, NumberStyle::Thousands, decimals, &u).replace(',', "");
                let back: f64 = printed.parse().unwrap();
                proptest::prop_assert!((back - t).abs() <= 1e-6 * t.abs().max(1.0), "{} printed as {}", t, printed);
            }
        }
    }
}
