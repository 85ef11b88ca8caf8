//! Parsing single cells (numbers with units, years, dates, missing markers).

use regex::Regex;
use std::sync::LazyLock;

/// Tokens that mean "no value" (compared case-insensitively after trimming).
/// `..` is the World Bank / OECD convention; dashes are common in reports.
const MISSING_TOKENS: &[&str] = &["", "na", "n/a", "-", "–", "—", "null", ".."];

pub const MIN_YEAR: i64 = 1800;
pub const MAX_YEAR: i64 = 2100;

pub fn is_missing(raw: &str) -> bool {
    let t = raw.trim();
    MISSING_TOKENS.iter().any(|m| t.eq_ignore_ascii_case(m))
}

/// A number as printed in the input.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedNumber {
    pub value: f64,
    /// Decimals of the value as printed (`1.25e2` has 0, `12.50` has 2).
    pub decimals: u8,
    pub prefix: Option<String>,
    pub suffix: Option<String>,
    pub thousands: bool,
    /// Plain digits only: no sign, unit, separator, decimals or exponent.
    pub plain_integer: bool,
}

/// Sign, optional currency prefix (US$ $ € £ ¥ ₹), digits with optional
/// thousands commas, decimals, exponent, optional `%`.
static NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?P<s1>[-+−])?(?P<pre>US\$|\$|€|£|¥|₹)?(?P<s2>[-+−])?(?P<int>\d{1,3}(?:,\d{3})+|\d+)?(?:\.(?P<frac>\d+))?(?:[eE](?P<exp>[-+]?\d{1,3}))?\s?(?P<suf>%)?$",
    )
    .expect("number regex")
});

/// Digits past this relative precision in a long printed number are taken
/// for binary rounding noise ("5.757999999999999" written out by a program
/// that computed 5.758), not for data: an f64 holds about 16 significant
/// digits, and its last few are where such noise lives.
const NOISE_RELATIVE: f64 = 1e-12;
/// Numbers printed with fewer significant digits are taken as written.
const NOISE_MIN_DIGITS: usize = 15;

/// The value and decimals a long number meant, when its tail is float noise
/// (a run of zeros or nines ending in a stray digit): the fewest decimals
/// whose rounding moves it by less than [`NOISE_RELATIVE`]. A long number
/// without such a run (π to 15 decimals) is data and kept.
fn float_noise_decimals(
    value: f64,
    decimals: u8,
    significant: usize,
    noisy_tail: bool,
) -> Option<(f64, u8)> {
    if !noisy_tail || significant < NOISE_MIN_DIGITS || value == 0.0 {
        return None;
    }
    (0..decimals.min(15)).find_map(|d| {
        let scale = 10f64.powi(i32::from(d));
        let rounded = (value * scale).round() / scale;
        ((rounded - value).abs() <= NOISE_RELATIVE * value.abs() && rounded.is_finite())
            .then_some((rounded, d))
    })
}

/// Parse a number like `1,234`, `12.5%`, `$3.2`, `-4`, `−4`, `1.2e6`.
/// Returns `None` for anything else (text, NaN, infinity).
pub fn parse_number(raw: &str) -> Option<ParsedNumber> {
    let t = raw.trim();
    let caps = NUMBER.captures(t)?;
    let int = caps.name("int").map(|m| m.as_str());
    let frac = caps.name("frac").map(|m| m.as_str());
    if int.is_none() && frac.is_none() {
        return None;
    }
    if caps.name("s1").is_some() && caps.name("s2").is_some() {
        return None;
    }
    let sign = caps
        .name("s1")
        .or_else(|| caps.name("s2"))
        .map(|m| m.as_str());
    let negative = matches!(sign, Some("-") | Some("−"));
    let exp: i64 = caps
        .name("exp")
        .map(|m| m.as_str().parse().unwrap_or(0))
        .unwrap_or(0);
    let int_digits = int.unwrap_or("0").replace(',', "");
    let mut normal = String::new();
    if negative {
        normal.push('-');
    }
    normal.push_str(&int_digits);
    if let Some(f) = frac {
        normal.push('.');
        normal.push_str(f);
    }
    if caps.name("exp").is_some() {
        normal.push('e');
        normal.push_str(&exp.to_string());
    }
    let value: f64 = normal.parse().ok()?;
    if !value.is_finite() {
        return None;
    }
    let frac_len = frac.map_or(0, str::len) as i64;
    let mut decimals = (frac_len - exp).clamp(0, 40) as u8;
    let significant = format!("{int_digits}{}", frac.unwrap_or(""))
        .trim_start_matches('0')
        .len();
    let noisy_tail = exp == 0 && frac.is_some_and(|f| f.contains("000000") || f.contains("999999"));
    let value = match float_noise_decimals(value, decimals, significant, noisy_tail) {
        Some((snapped, d)) => {
            decimals = d;
            snapped
        }
        None => value,
    };
    let prefix = caps.name("pre").map(|m| m.as_str().to_string());
    let suffix = caps.name("suf").map(|m| m.as_str().to_string());
    let thousands = int.is_some_and(|i| i.contains(','));
    let plain_integer = sign.is_none()
        && prefix.is_none()
        && suffix.is_none()
        && !thousands
        && frac.is_none()
        && caps.name("exp").is_none();
    Some(ParsedNumber {
        value,
        decimals,
        prefix,
        suffix,
        thousands,
        plain_integer,
    })
}

/// `NaN`, `inf`, `-Infinity` and numbers too large for f64: values that look
/// numeric but cannot be charted.
pub fn is_non_finite(raw: &str) -> bool {
    let t = raw.trim().trim_start_matches(['-', '+', '−']);
    if ["nan", "inf", "infinity"]
        .iter()
        .any(|w| t.eq_ignore_ascii_case(w))
    {
        return true;
    }
    // Overflowing literals such as 1e400 parse to infinity.
    let plain: String = t.chars().filter(|c| *c != ',').collect();
    plain.parse::<f64>().is_ok_and(|v| v.is_infinite())
}

/// A year: a plain integer between 1800 and 2100.
pub fn parse_year(raw: &str) -> Option<i32> {
    let n = parse_number(raw)?;
    if !n.plain_integer {
        return None;
    }
    let v = n.value as i64;
    (MIN_YEAR..=MAX_YEAR).contains(&v).then_some(v as i32)
}

/// A year written as a whole decimal (`1700.0`), as some exports print a
/// year column: only read so where the header says the column holds years.
pub fn parse_whole_year(raw: &str) -> Option<i32> {
    let n = parse_number(raw)?;
    let v = n.value;
    let plain = n.prefix.is_none() && n.suffix.is_none() && !n.thousands;
    (plain && v.fract() == 0.0 && (MIN_YEAR as f64..=MAX_YEAR as f64).contains(&v))
        .then_some(v as i32)
}

/// Whether a column name says it holds years ("Year", "fiscal year", "yr").
pub fn name_means_year(name: &str) -> bool {
    let lower = name.to_lowercase();
    lower
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| matches!(w, "year" | "years" | "yr" | "fy"))
}

static ISO_DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?P<y>\d{4})[-/](?P<m>\d{1,2})(?:[-/](?P<d>\d{1,2}))?$").expect("date regex")
});
/// `2009-07-01T07:00:00.000Z`, `2015/03/15 05:00:00`: the date part is kept.
static ISO_DATETIME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?P<date>\d{4}[-/]\d{1,2}[-/]\d{1,2})[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s?(?:Z|[+-]\d{2}:?\d{2})?$",
    )
    .expect("datetime regex")
});
/// `Jan 1 2000`, `January 1, 2000`.
static MONTH_DAY_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?P<mon>[A-Za-z]{3,9})\.? (?P<d>\d{1,2}),? (?P<y>\d{4})$").expect("mdy regex")
});
/// `1 Jan 2000`, `1 January 2000`.
static DAY_MONTH_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?P<d>\d{1,2}) (?P<mon>[A-Za-z]{3,9})\.? (?P<y>\d{4})$").expect("dmy regex")
});
static MONTH_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?P<mon>[A-Za-z]{3,9})\.?[ \-](?P<y>\d{4})$").expect("month regex")
});

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// The month a name or its three-letter (or "Sept") abbreviation names, 1–12.
pub(crate) fn month_number(word: &str) -> Option<u32> {
    let w = word.to_lowercase();
    MONTHS
        .iter()
        .position(|m| {
            *m == w || (w.len() >= 3 && m.starts_with(&w) && (w.len() == 3 || w == "sept"))
        })
        .map(|i| i as u32 + 1)
}

/// A date normalised to ISO: `2021-03-04`, `2021/03/04` → `2021-03-04`;
/// `2021-03`, `2021/3`, `Mar 2021`, `March 2021` → `2021-03`.
pub fn parse_date(raw: &str) -> Option<String> {
    let t = raw.trim();
    if let Some(c) = ISO_DATE.captures(t) {
        let y: i32 = c["y"].parse().ok()?;
        let m: u32 = c["m"].parse().ok()?;
        return match c.name("d") {
            Some(d) => {
                let d: u32 = d.as_str().parse().ok()?;
                chrono::NaiveDate::from_ymd_opt(y, m, d)
                    .map(|date| date.format("%Y-%m-%d").to_string())
            }
            None => (1..=12).contains(&m).then(|| format!("{y:04}-{m:02}")),
        };
    }
    if let Some(c) = ISO_DATETIME.captures(t) {
        return parse_date(&c["date"]);
    }
    if let Some(c) = MONTH_DAY_YEAR
        .captures(t)
        .or_else(|| DAY_MONTH_YEAR.captures(t))
    {
        let m = month_number(&c["mon"])?;
        let y: i32 = c["y"].parse().ok()?;
        let d: u32 = c["d"].parse().ok()?;
        return chrono::NaiveDate::from_ymd_opt(y, m, d)
            .map(|date| date.format("%Y-%m-%d").to_string());
    }
    if let Some(c) = MONTH_YEAR.captures(t) {
        let m = month_number(&c["mon"])?;
        let y: i32 = c["y"].parse().ok()?;
        return Some(format!("{y:04}-{m:02}"));
    }
    None
}

/// `2023Q1`, `2023 Q1`, `2023-Q1`, `Q1 2023`, `Q1-2023` (any case) as
/// (year, quarter). Tables keep a quarter as the text `2023 Q1`
/// ([`quarter_label`]), which sorts and prints as the shaped year+quarter
/// tables already do.
pub fn parse_quarter(raw: &str) -> Option<(i32, u32)> {
    let c = QUARTER_YEAR
        .captures(raw.trim())
        .or_else(|| YEAR_QUARTER.captures(raw.trim()))?;
    let y: i32 = c["y"].parse().ok()?;
    let q: u32 = c["q"].parse().ok()?;
    ((MIN_YEAR..=MAX_YEAR).contains(&i64::from(y)) && (1..=4).contains(&q)).then_some((y, q))
}

/// The canonical text of a quarter: `2023 Q1`.
pub fn quarter_label(year: i32, quarter: u32) -> String {
    format!("{year} Q{quarter}")
}

static QUARTER_YEAR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?i:q)(?P<q>\d)[ \-](?P<y>\d{4})$").expect("quarter regex"));
static YEAR_QUARTER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?P<y>\d{4})[ \-]?(?i:q)(?P<q>\d)$").expect("quarter regex"));

/// `19580329` as a date: only read so where the column is named as time,
/// since such integers are ordinary numbers elsewhere.
pub fn parse_compact_date(raw: &str) -> Option<String> {
    let t = raw.trim();
    if t.len() != 8 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let y: i32 = t[..4].parse().ok()?;
    if !(MIN_YEAR..=MAX_YEAR).contains(&i64::from(y)) {
        return None;
    }
    chrono::NaiveDate::from_ymd_opt(y, t[4..6].parse().ok()?, t[6..].parse().ok()?)
        .map(|date| date.format("%Y-%m-%d").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(s: &str) -> ParsedNumber {
        parse_number(s).unwrap_or_else(|| panic!("{s:?} should parse"))
    }

    #[test]
    fn number_forms() {
        let n = num("1,234");
        assert_eq!((n.value, n.decimals, n.thousands), (1234.0, 0, true));
        let n = num("12.5%");
        assert_eq!((n.value, n.decimals), (12.5, 1));
        assert_eq!(n.suffix.as_deref(), Some("%"));
        let n = num("$3.2");
        assert_eq!((n.value, n.prefix.as_deref()), (3.2, Some("$")));
        assert_eq!(num("€3.2").prefix.as_deref(), Some("€"));
        assert_eq!(num("US$1,500").prefix.as_deref(), Some("US$"));
        assert_eq!(num("-4").value, -4.0);
        assert_eq!(num("−4").value, -4.0, "Unicode minus");
        assert_eq!(num("-$3.2").value, -3.2);
        assert_eq!(num("$-3.2").value, -3.2);
        assert_eq!(num("+7").value, 7.0);
        let n = num("1.2e6");
        assert_eq!((n.value, n.decimals), (1.2e6, 0));
        let n = num("1.5e-3");
        assert_eq!((n.value, n.decimals), (0.0015, 4));
        assert_eq!(num("12.50").decimals, 2);
        // Binary rounding noise written out in full is read as the number
        // meant; a long number without such a tail keeps its digits.
        let n = num("5.757999999999999");
        assert_eq!((n.value, n.decimals), (5.758, 3));
        let n = num("5.8420000000000005");
        assert_eq!((n.value, n.decimals), (5.842, 3));
        let n = num("0.30000000000000004");
        assert_eq!((n.value, n.decimals), (0.3, 1));
        let n = num("3.141592653589793");
        assert_eq!((n.value, n.decimals), (std::f64::consts::PI, 15));
        assert_eq!(num("0.000123456789").decimals, 12);
        assert_eq!(num(".5").value, 0.5);
        assert_eq!(num(" 42 ").value, 42.0);
        assert_eq!(num("12.5 %").suffix.as_deref(), Some("%"));
        assert_eq!(num("1,234,567.89").value, 1_234_567.89);
        assert!(num("2019").plain_integer);
        assert!(!num("2,019").plain_integer);
    }

    #[test]
    fn not_numbers() {
        for s in [
            "abc",
            "12,34",
            "1,2345",
            "--4",
            "-$-4",
            "$",
            "%",
            "1.2.3",
            "NaN",
            "inf",
            "1e400",
            "(4)",
            "12 apples",
            "",
        ] {
            assert!(parse_number(s).is_none(), "{s:?} must not parse");
        }
        assert!(is_non_finite("NaN"));
        assert!(is_non_finite("-inf"));
        assert!(is_non_finite("Infinity"));
        assert!(is_non_finite("1e400"));
        assert!(!is_non_finite("12"));
    }

    #[test]
    fn years() {
        assert_eq!(parse_year("2019"), Some(2019));
        assert_eq!(parse_year("1800"), Some(1800));
        assert_eq!(parse_year("2100"), Some(2100));
        assert_eq!(parse_year("1799"), None);
        assert_eq!(parse_year("2101"), None);
        assert_eq!(parse_year("2019.0"), None);
        assert_eq!(parse_year("2,019"), None);
        assert!(name_means_year("Year"));
        assert!(name_means_year("fiscal_year"));
        assert!(name_means_year("FY"));
        assert!(!name_means_year("yearly sales"));
        assert!(!name_means_year("Country"));
    }

    #[test]
    fn dates() {
        assert_eq!(parse_date("2021-03-04").as_deref(), Some("2021-03-04"));
        assert_eq!(parse_date("2021-03").as_deref(), Some("2021-03"));
        assert_eq!(parse_date("2021/03/04").as_deref(), Some("2021-03-04"));
        assert_eq!(parse_date("2021/3").as_deref(), Some("2021-03"));
        assert_eq!(parse_date("Mar 2021").as_deref(), Some("2021-03"));
        assert_eq!(parse_date("March 2021").as_deref(), Some("2021-03"));
        assert_eq!(parse_date("Sept 2021").as_deref(), Some("2021-09"));
        assert_eq!(parse_date("Dec-2024").as_deref(), Some("2024-12"));
        assert_eq!(parse_date("2021-02-30"), None);
        assert_eq!(parse_date("2021-13"), None);
        assert_eq!(parse_date("Foo 2021"), None);
        assert_eq!(parse_date("2021"), None);
        assert_eq!(parse_date("Jan 1 2000").as_deref(), Some("2000-01-01"));
        assert_eq!(
            parse_date("January 12, 2000").as_deref(),
            Some("2000-01-12")
        );
        assert_eq!(parse_date("3 Mar 2001").as_deref(), Some("2001-03-03"));
        assert_eq!(parse_date("Feb 30 2001"), None);
        assert_eq!(
            parse_date("2009-07-01T07:00:00.000Z").as_deref(),
            Some("2009-07-01")
        );
        assert_eq!(
            parse_date("2015/03/15 05:00:00").as_deref(),
            Some("2015-03-15")
        );
        assert_eq!(
            parse_compact_date("19580329").as_deref(),
            Some("1958-03-29")
        );
        assert_eq!(parse_compact_date("19581329"), None);
        assert_eq!(parse_compact_date("800102"), None);
    }

    #[test]
    fn quarters() {
        for s in [
            "2023Q1",
            "2023 Q1",
            "2023-Q1",
            "2023q1",
            "Q1 2023",
            "q1-2023",
            " Q1 2023 ",
        ] {
            assert_eq!(parse_quarter(s), Some((2023, 1)), "{s:?}");
        }
        assert_eq!(parse_quarter("1974Q4"), Some((1974, 4)));
        for s in [
            "2023Q5", "2023Q0", "Q1 23", "2023", "Q12023x", "2023 Q 1", "1700Q1", "",
        ] {
            assert_eq!(parse_quarter(s), None, "{s:?}");
        }
        assert_eq!(quarter_label(2023, 2), "2023 Q2");
        // Quarters are not dates.
        assert_eq!(parse_date("2023Q1"), None);
    }

    #[test]
    fn missing_markers() {
        for s in [
            "", " ", "NA", "na", "N/A", "n/a", "-", "null", "NULL", "..", "—",
        ] {
            assert!(is_missing(s), "{s:?} is missing");
        }
        for s in ["0", "nan", "None", "x"] {
            assert!(!is_missing(s), "{s:?} is not missing");
        }
    }
}
