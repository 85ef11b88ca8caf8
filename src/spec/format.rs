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

fn fixed(v: f64, decimals: usize) -> String {
    format!("{v:.decimals$}")
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
    const UNITS: [(f64, &str); 4] = [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")];
    for (scale, suffix) in UNITS {
        if v >= scale {
            return format!("{}{suffix}", trim_zeros(format!("{:.2}", v / scale)));
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
    let exp = v.log10().floor() as i32;
    let mantissa = v / 10f64.powi(exp);
    let m = trim_zeros(format!("{mantissa:.2}"));
    format!("{m}e{exp}")
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
    let ticks: Vec<f64> = (start..=end).map(|i| clean(i as f64 * step)).collect();
    (ticks, decimals_for(step))
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
    let a = lo.log10().floor() as i32;
    let b = hi.log10().ceil().max(f64::from(a) + 1.0) as i32;
    let mut ticks = Vec::new();
    for e in a..=b {
        let p = 10f64.powi(e);
        ticks.push(clean_rel(p));
        if b - a <= 2 && e < b {
            ticks.push(clean_rel(2.0 * p));
            ticks.push(clean_rel(5.0 * p));
        }
    }
    ticks
}

fn clean_rel(v: f64) -> f64 {
    let d = (-v.log10().floor() as i32 + 6).max(0);
    let f = 10f64.powi(d);
    (v * f).round() / f
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
