//! Number parsing for the `relaxed` metric, applied alike to gold text and
//! predictions so both sides read "1,234", "$1.2M", "−5", "12.5%" the same way.

/// A number read from text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ParsedNumber {
    /// The printed magnitude, before any scale word.
    pub value: f64,
    /// Multiplier from a scale word (k, M, B, million, …), 1 without one.
    pub scale: f64,
    /// Whether a percent sign or word followed; the value is not divided by 100.
    pub percent: bool,
    /// Digits printed after the decimal point.
    pub decimals: u8,
    /// Only digits (no separators, sign, decimals, exponent, scale or unit).
    pub bare_integer: bool,
}

impl ParsedNumber {
    pub fn full(&self) -> f64 {
        self.value * self.scale
    }
}

const APPROX_PREFIXES: [&str; 9] = [
    "approximately ",
    "approx. ",
    "approx ",
    "about ",
    "around ",
    "roughly ",
    "nearly ",
    "~",
    "≈",
];

const CURRENCY_PREFIXES: [&str; 10] = [
    "us$", "$", "€", "£", "¥", "₹", "usd ", "eur ", "gbp ", "usd",
];

/// Scale words, matched case-sensitively for single letters (lower-case `m`
/// and `t` are units — metres, tonnes — not million/trillion).
fn scale_of(word: &str) -> Option<f64> {
    Some(match word {
        "k" | "K" => 1e3,
        "M" | "mn" | "Mn" | "MM" => 1e6,
        "b" | "B" | "bn" | "Bn" => 1e9,
        "T" | "tn" | "Tn" => 1e12,
        _ => match word.to_lowercase().as_str() {
            "thousand" | "thousands" => 1e3,
            "million" | "millions" => 1e6,
            "billion" | "billions" => 1e9,
            "trillion" | "trillions" => 1e12,
            _ => return None,
        },
    })
}

/// The multiplier a gold answer's unit stands for ("million" → 1e6).
pub fn unit_scale(unit: &str) -> f64 {
    scale_of(unit.trim()).unwrap_or(1.0)
}

fn strip_prefix_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

/// Reads a number with optional approximation word, sign, currency,
/// thousands separators, decimals, exponent, scale word, percent sign and up
/// to three trailing unit words. None when the text is anything else.
pub fn parse_number(text: &str) -> Option<ParsedNumber> {
    let mut s: String = text.trim().replace(['\u{2212}', '\u{2013}'], "-");
    while s.ends_with('.') && !s.ends_with("..") {
        s.pop();
    }
    let mut rest = s.trim();
    for prefix in APPROX_PREFIXES {
        if let Some(r) = strip_prefix_ci(rest, prefix) {
            rest = r.trim_start();
            break;
        }
    }
    let mut negative = false;
    let mut currency = false;
    for _ in 0..2 {
        if let Some(r) = rest.strip_prefix('-') {
            negative = !negative;
            rest = r.trim_start();
        } else if let Some(r) = rest.strip_prefix('+') {
            rest = r.trim_start();
        }
        if !currency {
            for prefix in CURRENCY_PREFIXES {
                if let Some(r) = strip_prefix_ci(rest, prefix) {
                    rest = r.trim_start();
                    currency = true;
                    break;
                }
            }
        }
    }
    let bytes = rest.as_bytes();
    let mut i = 0;
    let mut int_digits = String::new();
    let mut separators = false;
    // Integer part, with comma groups of exactly three digits.
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        int_digits.push(bytes[i] as char);
        i += 1;
    }
    if !int_digits.is_empty() && int_digits.len() <= 3 {
        while i < bytes.len()
            && bytes[i] == b','
            && bytes
                .get(i + 1..i + 4)
                .is_some_and(|g| g.iter().all(u8::is_ascii_digit))
            && !bytes.get(i + 4).is_some_and(u8::is_ascii_digit)
        {
            int_digits.push_str(&rest[i + 1..i + 4]);
            separators = true;
            i += 4;
        }
    }
    let mut frac_digits = String::new();
    if i < bytes.len() && bytes[i] == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            frac_digits.push(bytes[i] as char);
            i += 1;
        }
    }
    if int_digits.is_empty() && frac_digits.is_empty() {
        return None;
    }
    let mut exponent = String::new();
    if i < bytes.len()
        && (bytes[i] == b'e' || bytes[i] == b'E')
        && let Some(tail) = rest.get(i + 1..)
    {
        let digits_start = usize::from(tail.starts_with(['+', '-']));
        let digit_count = tail[digits_start..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        if digit_count > 0 {
            exponent = tail[..digits_start + digit_count].to_string();
            i += 1 + digits_start + digit_count;
        }
    }
    let literal = format!(
        "{}{}.{}{}",
        if negative { "-" } else { "" },
        if int_digits.is_empty() {
            "0"
        } else {
            &int_digits
        },
        if frac_digits.is_empty() {
            "0"
        } else {
            &frac_digits
        },
        if exponent.is_empty() {
            String::new()
        } else {
            format!("e{exponent}")
        }
    );
    let value: f64 = literal.parse().ok()?;
    let mut tail = rest[i..].trim_start();
    let mut scale = 1.0;
    let mut percent = false;
    // A scale word may touch the number ("3k") or follow a space ("3 million").
    let word_end = tail
        .char_indices()
        .find(|(_, c)| !c.is_alphabetic())
        .map_or(tail.len(), |(idx, _)| idx);
    if word_end > 0
        && let Some(f) = scale_of(&tail[..word_end])
    {
        scale = f;
        tail = tail[word_end..].trim_start();
    }
    if let Some(t) = tail.strip_prefix('%') {
        percent = true;
        tail = t.trim_start();
    } else if let Some(t) =
        strip_prefix_ci(tail, "percent").or_else(|| strip_prefix_ci(tail, "per cent"))
    {
        percent = true;
        tail = t.trim_start();
    }
    // Trailing units: up to three words without digits ("kg", "°C", "people").
    let words: Vec<&str> = tail.split_whitespace().collect();
    if words.len() > 3
        || words
            .iter()
            .any(|w| w.chars().any(|c| c.is_ascii_digit() || c == ','))
    {
        return None;
    }
    let bare_integer = !separators
        && !negative
        && !currency
        && frac_digits.is_empty()
        && exponent.is_empty()
        && scale == 1.0
        && !percent
        && words.is_empty()
        && rest.len() == int_digits.len();
    Some(ParsedNumber {
        value,
        scale,
        percent,
        decimals: u8::try_from(frac_digits.len()).unwrap_or(u8::MAX),
        bare_integer,
    })
}

/// Whether `p` is within 5% of the gold number. Scale words are applied on
/// both sides; a prediction without a scale word may also match the gold's
/// printed magnitude ("3.2" for "3.2 million", as read off an axis in
/// millions). A zero gold needs a prediction that rounds to zero at the
/// gold's printed precision.
pub fn numbers_match(
    p: &ParsedNumber,
    gold_value: f64,
    gold_scale: f64,
    gold_decimals: u8,
) -> bool {
    let within = |pred: f64, gold: f64| -> bool {
        if gold == 0.0 {
            pred.abs() <= 0.5 * 10f64.powi(-i32::from(gold_decimals))
        } else {
            (pred - gold).abs() <= 0.05 * gold.abs()
        }
    };
    within(p.full(), gold_value * gold_scale) || (p.scale == 1.0 && within(p.value, gold_value))
}

/// A four-digit integer that reads as a year when nothing says otherwise.
pub fn looks_like_year(text: &str) -> Option<i32> {
    let t = text.trim();
    if t.len() == 4 && t.bytes().all(|b| b.is_ascii_digit()) {
        let y: i32 = t.parse().ok()?;
        (1800..=2100).contains(&y).then_some(y)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full(s: &str) -> Option<f64> {
        parse_number(s).map(|p| p.full())
    }

    #[test]
    fn reads_common_number_forms() {
        assert_eq!(full("1,234,567"), Some(1_234_567.0));
        assert_eq!(full("$1.2M"), Some(1_200_000.0));
        assert_eq!(full("3 million"), Some(3e6));
        assert_eq!(full("2.5 billion people"), Some(2.5e9));
        assert_eq!(full("\u{2212}5"), Some(-5.0));
        assert_eq!(full("-$5"), Some(-5.0));
        assert_eq!(full("1.5e3"), Some(1500.0));
        assert_eq!(full("12.5%"), Some(12.5));
        assert_eq!(full("about 40 kg"), Some(40.0));
        assert_eq!(full("3k"), Some(3000.0));
        assert_eq!(full(".5"), Some(0.5));
        assert_eq!(full("45."), Some(45.0));
        assert_eq!(full("5m"), Some(5.0)); // metres, not million
        assert_eq!(full("1,5"), None);
        assert_eq!(full("12, 15"), None);
        assert_eq!(full("Paris"), None);
        assert_eq!(full("5 or 6"), None);
        assert_eq!(full("1,2345"), None);
        assert!(parse_number("2019").unwrap().bare_integer);
        assert!(!parse_number("2,019").unwrap().bare_integer);
        assert_eq!(parse_number("3.250").unwrap().decimals, 3);
        assert!(parse_number("40 percent").unwrap().percent);
    }

    #[test]
    fn tolerance_and_scale() {
        let p = parse_number("3.2").unwrap();
        assert!(numbers_match(&p, 3.2, 1e6, 1));
        let p = parse_number("3,200,000").unwrap();
        assert!(numbers_match(&p, 3.2, 1e6, 1));
        let p = parse_number("3.2 billion").unwrap();
        assert!(!numbers_match(&p, 3.2, 1e6, 1));
        let p = parse_number("105").unwrap();
        assert!(numbers_match(&p, 100.0, 1.0, 0));
        let p = parse_number("105.1").unwrap();
        assert!(!numbers_match(&p, 100.0, 1.0, 0));
        let p = parse_number("0.04").unwrap();
        assert!(numbers_match(&p, 0.0, 1.0, 1));
        assert!(!numbers_match(&p, 0.0, 1.0, 2));
    }
}
