//! Decimal numbers for everything printed into a question, an option or a
//! gold answer.
//!
//! A table cell is the f64 nearest to the decimal the table prints; its
//! shortest round-trip representation (what `{}` prints) is that decimal.
//! Printing works on those digits, never on the binary value: 2329.458 at 3
//! decimals is "2329.458", not "2329.45799999999963", and 2.675 at 2
//! decimals is "2.68" (half away from zero), although the binary value lies
//! below 2.675. Arithmetic on such values ([`Decimal`]) is exact, so
//! 1.2 + 2.3 is 3.5, the number a person computes from the printed table.

use std::cmp::Ordering;

/// Largest number of decimals any question asks for or any gold prints.
pub const MAX_DECIMALS: u8 = 6;

/// Decimals printed when values are at least [`SMALL_MAGNITUDE`] in size.
pub const MAX_DECIMALS_NORMAL: u8 = 4;

/// Below this largest magnitude, values keep three significant digits.
pub const SMALL_MAGNITUDE: f64 = 0.01;

/// The decimals a question asks for and a gold prints, given the decimals
/// the table prints (`decimals`) and the largest magnitude of the values
/// involved: at most the table's decimals, at most 4 when the largest
/// magnitude is 0.01 or more (0 too), and otherwise as many as three
/// significant digits of the largest value need (0.005 → 5, 0.00012 → 6),
/// never more than 6. A chart shows no more than this, and "Round to 16
/// decimal places" is nobody's question.
pub fn capped_decimals(decimals: u8, magnitude: f64) -> u8 {
    let m = magnitude.abs();
    let limit = if !m.is_finite() || m == 0.0 || m >= SMALL_MAGNITUDE {
        MAX_DECIMALS_NORMAL
    } else {
        // m = 0.d1d2… × 10^point, so its first significant digit is decimal
        // number 1 - point; two more make three significant digits.
        let (_, point) = shortest_digits(m);
        let needed = (2 - i64::from(point) + 1).clamp(0, i64::from(MAX_DECIMALS));
        needed as u8
    };
    decimals.min(limit)
}

/// [`capped_decimals`] for a column's printed decimals and its values.
pub fn shown_decimals(decimals: u8, values: impl IntoIterator<Item = f64>) -> u8 {
    let magnitude = values
        .into_iter()
        .filter(|v| v.is_finite())
        .fold(0f64, |m, v| m.max(v.abs()));
    capped_decimals(decimals, magnitude)
}

/// Digits of `v`'s shortest round-trip representation and the place of the
/// decimal point: |v| = 0.d1d2… × 10^point. Zero has no digits.
fn shortest_digits(v: f64) -> (Vec<u8>, i32) {
    let v = v.abs();
    if v == 0.0 || !v.is_finite() {
        return (Vec::new(), 0);
    }
    // `{:e}` is the shortest representation in scientific form: "2.329458e3".
    let s = format!("{v:e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: Vec<u8> = mantissa
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    (trim_digits(digits), exp + 1)
}

/// Drops trailing zeros (they carry no value once the point is placed).
fn trim_digits(mut digits: Vec<u8>) -> Vec<u8> {
    while digits.last() == Some(&0) {
        digits.pop();
    }
    digits
}

/// Rounds 0.d1d2… × 10^point half away from zero at `decimals` decimals and
/// prints it with exactly that many, with no negative zero.
fn round_digits(negative: bool, digits: &[u8], point: i32, decimals: u8) -> String {
    let keep = i64::from(point) + i64::from(decimals);
    // round(|v| × 10^decimals) as decimal digits, most significant first.
    let mut units: Vec<u8> = if keep < 0 {
        Vec::new()
    } else {
        let keep = keep as usize;
        let mut kept: Vec<u8> = (0..keep)
            .map(|i| digits.get(i).copied().unwrap_or(0))
            .collect();
        if digits.get(keep).is_some_and(|d| *d >= 5) {
            // Carry the rounding up through the kept digits.
            let mut i = kept.len();
            loop {
                if i == 0 {
                    kept.insert(0, 1);
                    break;
                }
                i -= 1;
                if kept[i] == 9 {
                    kept[i] = 0;
                } else {
                    kept[i] += 1;
                    break;
                }
            }
        }
        kept
    };
    while units.len() > 1 && units[0] == 0 {
        units.remove(0);
    }
    let nonzero = units.iter().any(|d| *d != 0);
    let decimals = usize::from(decimals);
    // At least one digit before the point.
    while units.len() < decimals + 1 {
        units.insert(0, 0);
    }
    let split = units.len() - decimals;
    let mut out = String::with_capacity(units.len() + 2);
    if negative && nonzero {
        out.push('-');
    }
    out.extend(units[..split].iter().map(|d| char::from(b'0' + d)));
    if decimals > 0 {
        out.push('.');
        out.extend(units[split..].iter().map(|d| char::from(b'0' + d)));
    }
    out
}

/// `v` with exactly `decimals` decimals, rounded half away from zero on its
/// shortest decimal representation; never a negative zero, never exponent
/// notation. Non-finite values print as Rust prints them (callers refuse
/// them before anything is printed).
pub fn format_fixed(v: f64, decimals: u8) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    let (digits, point) = shortest_digits(v);
    round_digits(v < 0.0, &digits, point, decimals)
}

/// `v / 10^shift` with exactly `decimals` decimals, shifting the decimal
/// point instead of dividing in binary (1234.5 / 10^3 is 1.2345 exactly).
pub fn format_shifted(v: f64, shift: i32, decimals: u8) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    let (digits, point) = shortest_digits(v);
    round_digits(v < 0.0, &digits, point - shift, decimals)
}

/// `v` rounded half away from zero at `decimals` decimals, as the f64
/// nearest to the rounded decimal.
pub fn round_f64(v: f64, decimals: u8) -> f64 {
    if !v.is_finite() {
        return v;
    }
    format_fixed(v, decimals).parse().unwrap_or(v)
}

/// Decimals needed to print `v` exactly (0.005 → 3, 2500 → 0), from its
/// shortest representation; at most `max`.
pub fn decimals_needed(v: f64, max: u8) -> u8 {
    let (digits, point) = shortest_digits(v);
    let needed = (digits.len() as i64 - i64::from(point)).max(0);
    needed.min(i64::from(max)) as u8
}

/// `v`'s shortest representation in scientific form with a mantissa of at
/// most `decimals` decimals ("2.5e3", "5e-3"), carrying into the exponent
/// when the mantissa rounds up to ten (9.996e3 → "1e4").
pub fn format_scientific(v: f64, decimals: u8) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    let (digits, point) = shortest_digits(v);
    if digits.is_empty() {
        return "0".into();
    }
    let mut exp = point - 1;
    let mut mantissa = round_digits(false, &digits, 1, decimals);
    if mantissa.starts_with("10") {
        exp += 1;
        mantissa = round_digits(false, &[1], 1, decimals);
    }
    if mantissa.contains('.') {
        mantissa = mantissa
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string();
    }
    let sign = if v < 0.0 { "-" } else { "" };
    format!("{sign}{mantissa}e{exp}")
}

/// A decimal number `units × 10^-scale`, exact unless an operation could
/// not be done exactly (a quotient that does not terminate, an overflow);
/// then it holds the truncated or nearest value and says so. A non-finite
/// input stays non-finite through every operation.
#[derive(Debug, Clone, Copy)]
pub struct Decimal {
    units: i128,
    scale: i32,
    exact: bool,
    finite: bool,
}

/// Significant digits a quotient is carried to when it does not terminate.
const QUOTIENT_DIGITS: u32 = 30;

fn pow10(n: u32) -> Option<i128> {
    10i128.checked_pow(n)
}

fn digit_count(mut n: u128) -> u32 {
    let mut d = 1;
    while n >= 10 {
        n /= 10;
        d += 1;
    }
    d
}

impl Decimal {
    pub const ZERO: Decimal = Decimal {
        units: 0,
        scale: 0,
        exact: true,
        finite: true,
    };

    const NOT_FINITE: Decimal = Decimal {
        units: 0,
        scale: 0,
        exact: false,
        finite: false,
    };

    fn new(units: i128, scale: i32, exact: bool) -> Decimal {
        let mut d = Decimal {
            units,
            scale,
            exact,
            finite: true,
        };
        if d.units == 0 {
            d.scale = 0;
        }
        while d.units != 0 && d.units % 10 == 0 {
            d.units /= 10;
            d.scale -= 1;
        }
        d
    }

    /// The decimal the f64 prints as (its shortest round-trip form), exact:
    /// a cell read from "2329.458" is 2329.458.
    pub fn from_f64(v: f64) -> Decimal {
        Decimal::read_f64(v, true)
    }

    fn read_f64(v: f64, exact: bool) -> Decimal {
        if !v.is_finite() {
            return Decimal::NOT_FINITE;
        }
        let (digits, point) = shortest_digits(v);
        // At most 17 digits: always fits.
        let units = digits.iter().fold(0i128, |u, d| u * 10 + i128::from(*d));
        let units = if v < 0.0 { -units } else { units };
        Decimal::new(units, digits.len() as i32 - point, exact)
    }

    pub fn from_int(n: i64) -> Decimal {
        Decimal::new(i128::from(n), 0, true)
    }

    /// Whether every operation that made this value was exact.
    pub fn is_exact(&self) -> bool {
        self.exact
    }

    /// The nearest f64 (parsed from the decimal text, so correctly rounded).
    pub fn to_f64(&self) -> f64 {
        if !self.finite {
            return f64::NAN;
        }
        format!("{}e{}", self.units, -self.scale)
            .parse()
            .unwrap_or(f64::NAN)
    }

    /// Both operands with the same scale, or None on overflow.
    fn aligned(self, other: Decimal) -> Option<(i128, i128, i32)> {
        let scale = self.scale.max(other.scale);
        let up = |d: Decimal| -> Option<i128> {
            let shift = u32::try_from(scale - d.scale).ok()?;
            d.units.checked_mul(pow10(shift)?)
        };
        Some((up(self)?, up(other)?, scale))
    }

    fn approx(v: f64) -> Decimal {
        Decimal::read_f64(v, false)
    }

    pub fn plus(self, other: Decimal) -> Decimal {
        if !self.finite || !other.finite {
            return Decimal::NOT_FINITE;
        }
        let exact = self.exact && other.exact;
        match self
            .aligned(other)
            .and_then(|(a, b, s)| a.checked_add(b).map(|u| (u, s)))
        {
            Some((u, s)) => Decimal::new(u, s, exact),
            None => Decimal::approx(self.to_f64() + other.to_f64()),
        }
    }

    pub fn negate(self) -> Decimal {
        Decimal {
            units: -self.units,
            ..self
        }
    }

    pub fn minus(self, other: Decimal) -> Decimal {
        self.plus(other.negate())
    }

    pub fn times(self, other: Decimal) -> Decimal {
        if !self.finite || !other.finite {
            return Decimal::NOT_FINITE;
        }
        let exact = self.exact && other.exact;
        match (
            self.units.checked_mul(other.units),
            self.scale.checked_add(other.scale),
        ) {
            (Some(u), Some(s)) => Decimal::new(u, s, exact),
            _ => Decimal::approx(self.to_f64() * other.to_f64()),
        }
    }

    /// The quotient, exact when it terminates within [`QUOTIENT_DIGITS`]
    /// significant digits, else truncated toward zero and marked inexact
    /// (truncation never crosses a rounding boundary, so it still rounds
    /// right). None when dividing by zero.
    pub fn over(self, other: Decimal) -> Option<Decimal> {
        if !self.finite || !other.finite {
            return Some(Decimal::NOT_FINITE);
        }
        if other.units == 0 {
            return None;
        }
        let negative = (self.units < 0) != (other.units < 0);
        let (n, m) = (self.units.unsigned_abs(), other.units.unsigned_abs());
        let mut q = n / m;
        let mut r = n % m;
        let mut extra = 0i32;
        while r != 0 {
            let digits = if q == 0 { 0 } else { digit_count(q) };
            if digits >= QUOTIENT_DIGITS {
                break;
            }
            let (Some(q10), Some(r10)) = (q.checked_mul(10), r.checked_mul(10)) else {
                break;
            };
            q = q10 + r10 / m;
            r = r10 % m;
            extra += 1;
        }
        let Ok(q) = i128::try_from(q) else {
            return Some(Decimal::approx(self.to_f64() / other.to_f64()));
        };
        let q = if negative { -q } else { q };
        Some(Decimal::new(
            q,
            self.scale - other.scale + extra,
            self.exact && other.exact && r == 0,
        ))
    }

    /// Rounded half away from zero and printed with exactly `decimals`
    /// decimals, no negative zero.
    pub fn format(&self, decimals: u8) -> String {
        if !self.finite {
            return "NaN".into();
        }
        let text = self.units.unsigned_abs().to_string();
        let digits: Vec<u8> = text.bytes().map(|b| b - b'0').collect();
        let point = digits.len() as i32 - self.scale;
        round_digits(self.units < 0, &trim_digits(digits), point, decimals)
    }

    /// Decimals needed to print this value exactly (0.005 → 3).
    pub fn decimals(&self) -> u32 {
        self.scale.max(0) as u32
    }

    /// Whether the digits after `decimals` are exactly one half: the value
    /// sits on the rounding boundary.
    pub fn on_boundary(&self, decimals: u8) -> bool {
        let d = i32::from(decimals);
        // Beyond `decimals`, exactly one digit, a 5.
        self.scale == d + 1 && self.units.abs() % 10 == 5
    }

    pub fn abs(self) -> Decimal {
        Decimal {
            units: self.units.abs(),
            ..self
        }
    }

    pub fn is_finite(&self) -> bool {
        self.finite
    }

    pub fn is_zero(&self) -> bool {
        self.units == 0
    }

    pub fn cmp_value(&self, other: &Decimal) -> Ordering {
        match self.aligned(*other) {
            Some((a, b, _)) => a.cmp(&b),
            None => self.to_f64().total_cmp(&other.to_f64()),
        }
    }
}

impl std::fmt::Display for Decimal {
    /// All the digits the value has ("3.5", "-0.005", "2500").
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.format(self.decimals().min(u32::from(u8::MAX)) as u8))
    }
}

/// Reads a printed number: optional sign, digits with optional thousands
/// commas and a decimal point, optional exponent ("-1,234.5", "5e-3").
/// None for anything else.
pub fn parse_decimal(text: &str) -> Option<Decimal> {
    let t = text.trim();
    let (negative, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t),
    };
    let (body, exp) = match t.split_once(['e', 'E']) {
        Some((b, e)) => (b, e.parse::<i32>().ok()?),
        None => (t, 0),
    };
    let body = body.replace(',', "");
    let (int, frac) = body.split_once('.').unwrap_or((&body, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = format!("{int}{frac}");
    let digits = digits.trim_start_matches('0');
    if digits.len() > 36 {
        return None;
    }
    let units: i128 = if digits.is_empty() {
        0
    } else {
        digits.parse().ok()?
    };
    let units = if negative { -units } else { units };
    Some(Decimal::new(units, frac.len() as i32 - exp, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(s: &str) -> Decimal {
        parse_decimal(s).unwrap()
    }

    #[test]
    fn prints_the_shortest_decimal_not_the_binary_value() {
        assert_eq!(format_fixed(2329.458, 3), "2329.458");
        assert_eq!(format_fixed(2329.458, 14), "2329.45800000000000");
        assert_eq!(format_fixed(1.836, 16), "1.8360000000000000");
        assert_eq!(format_fixed(81.757, 2), "81.76");
        assert_eq!(format_fixed(79.425, 2), "79.43");
        // The binary values of these lie below the half: still rounded up.
        assert_eq!(format_fixed(2.675, 2), "2.68");
        assert_eq!(format_fixed(1.005, 2), "1.01");
        assert_eq!(format_fixed(0.125, 2), "0.13");
        assert_eq!(format_fixed(1.2 + 2.3, 1), "3.5");
        assert_eq!(format_fixed(0.1 + 0.2, 2), "0.30");
    }

    #[test]
    fn negative_numbers_round_away_from_zero_without_negative_zero() {
        assert_eq!(format_fixed(-2.675, 2), "-2.68");
        assert_eq!(format_fixed(-1.5, 0), "-2");
        assert_eq!(format_fixed(-1.4, 0), "-1");
        assert_eq!(format_fixed(-0.0001, 2), "0.00");
        assert_eq!(format_fixed(-0.0, 1), "0.0");
        assert_eq!(format_fixed(-0.004, 2), "0.00");
        assert_eq!(format_fixed(-0.005, 2), "-0.01");
    }

    #[test]
    fn boundaries_and_carries() {
        assert_eq!(format_fixed(0.5, 0), "1");
        assert_eq!(format_fixed(0.49999, 0), "0");
        assert_eq!(format_fixed(9.995, 2), "10.00");
        assert_eq!(format_fixed(999.5, 0), "1000");
        assert_eq!(format_fixed(0.05, 1), "0.1");
        assert_eq!(format_fixed(0.04, 1), "0.0");
        assert_eq!(format_fixed(0.0049, 2), "0.00");
        assert_eq!(format_fixed(0.0, 3), "0.000");
        assert_eq!(format_fixed(7.0, 0), "7");
        assert_eq!(format_fixed(1234.5678, 2), "1234.57");
    }

    #[test]
    fn huge_and_tiny_magnitudes_print_without_exponent() {
        assert_eq!(format_fixed(1e21, 0), "1000000000000000000000");
        assert_eq!(format_fixed(1.5e20, 1), "150000000000000000000.0");
        assert_eq!(
            format_fixed(1e300, 0).len(),
            301,
            "every digit of a huge number"
        );
        assert_eq!(format_fixed(1e-20, 2), "0.00");
        assert_eq!(format_fixed(1.5e-7, 7), "0.0000002");
        assert_eq!(format_fixed(123456789012345680.0, 0), "123456789012345680");
        assert_eq!(format_fixed(f64::MAX, 0).len(), 309);
        assert_eq!(format_fixed(f64::MIN_POSITIVE, 3), "0.000");
    }

    #[test]
    fn shifted_and_scientific_forms() {
        assert_eq!(format_shifted(1234.5, 3, 2), "1.23");
        assert_eq!(format_shifted(2_500_000.0, 6, 2), "2.50");
        assert_eq!(format_shifted(1_005_000.0, 6, 2), "1.01");
        assert_eq!(format_scientific(2500.0, 2), "2.5e3");
        assert_eq!(format_scientific(0.005, 2), "5e-3");
        assert_eq!(format_scientific(9996.0, 2), "1e4");
        assert_eq!(format_scientific(-0.0123, 2), "-1.23e-2");
        assert_eq!(format_scientific(0.0, 2), "0");
    }

    #[test]
    fn decimal_arithmetic_is_exact() {
        let a = Decimal::from_f64(1.2);
        let b = Decimal::from_f64(2.3);
        assert_eq!(a.plus(b).to_f64(), 3.5);
        assert_eq!(a.plus(b).to_string(), "3.5");
        assert_eq!(
            Decimal::from_f64(0.3)
                .minus(Decimal::from_f64(0.1))
                .to_string(),
            "0.2"
        );
        assert_eq!(
            Decimal::from_f64(0.3)
                .minus(Decimal::from_f64(0.1))
                .to_f64(),
            0.2
        );
        let sum = [0.1, 0.7, 1.15]
            .iter()
            .fold(Decimal::ZERO, |s, v| s.plus(Decimal::from_f64(*v)));
        assert_eq!(sum.to_string(), "1.95");
        assert!(sum.is_exact());
        assert_eq!(
            Decimal::from_f64(1.0905)
                .times(Decimal::from_f64(1.1))
                .to_string(),
            "1.19955"
        );
        let mean = sum.over(Decimal::from_int(3)).unwrap();
        assert!(mean.is_exact());
        assert_eq!(mean.to_string(), "0.65");
        let third = Decimal::from_int(1).over(Decimal::from_int(3)).unwrap();
        assert!(!third.is_exact());
        assert_eq!(third.format(4), "0.3333");
        let two_thirds = Decimal::from_int(-2).over(Decimal::from_int(3)).unwrap();
        assert_eq!(two_thirds.format(2), "-0.67");
        assert!(Decimal::from_int(1).over(Decimal::ZERO).is_none());
        assert_eq!(dec("-0.005").to_string(), "-0.005");
        assert_eq!(dec("2500").to_string(), "2500");
        assert_eq!(dec("1,234.50").to_string(), "1234.5");
        assert_eq!(dec("5e-3").to_string(), "0.005");
        assert!(parse_decimal("1k").is_none());
        assert!(parse_decimal("-").is_none());
    }

    #[test]
    fn non_finite_values_stay_non_finite() {
        let nan = Decimal::from_f64(f64::NAN);
        assert!(!nan.is_finite());
        assert!(nan.plus(Decimal::from_int(1)).to_f64().is_nan());
        assert!(
            Decimal::from_f64(f64::INFINITY)
                .times(Decimal::ZERO)
                .to_f64()
                .is_nan()
        );
        let huge = Decimal::from_f64(f64::MAX).times(Decimal::from_f64(f64::MAX));
        assert!(!huge.to_f64().is_finite());
        assert_eq!(format_fixed(f64::NAN, 2), "NaN");
    }

    #[test]
    fn overflow_falls_back_to_an_inexact_value() {
        let big = Decimal::from_f64(1e30);
        let tiny = Decimal::from_f64(1e-30);
        let s = big.plus(tiny);
        assert!(!s.is_exact());
        assert_eq!(s.to_f64(), 1e30);
    }

    #[test]
    fn boundaries_are_seen_in_decimal() {
        assert!(dec("1.25").on_boundary(1));
        assert!(!dec("1.25").on_boundary(2));
        assert!(!dec("1.251").on_boundary(1));
        assert!(dec("-0.5").on_boundary(0));
        assert_eq!(dec("1.25").format(1), "1.3");
        assert_eq!(dec("-1.25").format(1), "-1.3");
    }

    #[test]
    fn decimals_needed_reads_the_shortest_form() {
        assert_eq!(decimals_needed(0.005, 6), 3);
        assert_eq!(decimals_needed(2500.0, 6), 0);
        assert_eq!(decimals_needed(0.1 + 0.2, 6), 6);
        assert_eq!(decimals_needed(12.5, 6), 1);
    }

    #[test]
    fn precision_is_capped_by_magnitude() {
        // Ordinary values: at most four decimals, never more than printed.
        assert_eq!(capped_decimals(16, 0.1234567890123456), 4);
        assert_eq!(capped_decimals(2, 2329.458), 2);
        assert_eq!(capped_decimals(4, 1.0905), 4);
        assert_eq!(capped_decimals(9, 1.0905), 4);
        assert_eq!(capped_decimals(6, 0.01), 4);
        assert_eq!(capped_decimals(6, 0.0), 4);
        // Small values keep three significant digits, at most six decimals.
        assert_eq!(capped_decimals(16, 0.005), 5);
        assert_eq!(capped_decimals(16, 0.0099), 5);
        assert_eq!(capped_decimals(16, 0.00012), 6);
        assert_eq!(capped_decimals(16, 1e-9), 6);
        assert_eq!(capped_decimals(3, 0.005), 3);
        assert_eq!(shown_decimals(16, [0.002, -0.0075, f64::NAN]), 5);
        assert_eq!(shown_decimals(1, [12.5, 13.0]), 1);
    }
}
