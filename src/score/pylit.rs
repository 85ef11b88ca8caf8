//! Just enough of Python's `float()`, `ast.literal_eval`, `str()` and one
//! regex substitution to reproduce the reference evaluators, which are
//! Python scripts whose behaviour depends on these builtins.

/// A value `ast.literal_eval` can produce (the subset reference inputs use).
#[derive(Debug, Clone, PartialEq)]
pub enum PyVal {
    Str(String),
    Int(i128),
    Float(f64),
    Bool(bool),
    None,
    List(Vec<PyVal>),
    Tuple(Vec<PyVal>),
}

/// Python's `str.isspace()` for one character: Rust's `White_Space` plus the
/// four ASCII separators U+001C–U+001F, which Python also counts.
pub fn py_is_space(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\u{1c}'..='\u{1f}')
}

/// Python's `str.strip()` without arguments.
pub fn py_strip(text: &str) -> &str {
    text.trim_matches(py_is_space)
}

/// Python's `str.split()` without arguments.
pub fn py_split(text: &str) -> impl Iterator<Item = &str> {
    text.split(py_is_space).filter(|w| !w.is_empty())
}

/// Unicode decimal digits (`Nd`: Arabic-Indic, Devanagari, full-width …),
/// which Python's `float()` reads like ASCII digits.
static DECIMAL_DIGIT: std::sync::LazyLock<regex::Regex> =
    std::sync::LazyLock::new(|| regex::Regex::new(r"^\d$").expect("valid regex"));

fn is_decimal_digit(c: char) -> bool {
    DECIMAL_DIGIT.is_match(c.encode_utf8(&mut [0; 4]))
}

/// The value of a decimal digit: decimal digits come in runs of ten from
/// zero (some runs adjacent, as the mathematical digit styles are).
fn decimal_value(c: char) -> u32 {
    let mut start = c as u32;
    while let Some(previous) = start.checked_sub(1).and_then(char::from_u32) {
        if !is_decimal_digit(previous) {
            break;
        }
        start -= 1;
    }
    (c as u32 - start) % 10
}

/// Python's `float(text)`: any Unicode decimal digit reads as its ASCII
/// digit and any Python whitespace as a space (as CPython's
/// `_PyUnicode_TransformDecimalAndSpaceToASCII` does), any other non-ASCII
/// character fails; surrounding whitespace allowed, underscores only between
/// digits, `inf`/`nan` in any case.
pub fn py_float(text: &str) -> Option<f64> {
    let ascii: std::borrow::Cow<str> = if text.is_ascii() {
        std::borrow::Cow::Borrowed(text)
    } else {
        let mut out = String::with_capacity(text.len());
        for c in text.chars() {
            if c.is_ascii() {
                out.push(c);
            } else if py_is_space(c) {
                out.push(' ');
            } else if is_decimal_digit(c) {
                out.push(char::from_digit(decimal_value(c), 10).expect("a digit"));
            } else {
                return None;
            }
        }
        std::borrow::Cow::Owned(out)
    };
    let s = ascii.trim_matches(|c: char| c.is_ascii_whitespace() || c == '\u{b}');
    if s.is_empty() {
        return None;
    }
    let chars: Vec<char> = s.chars().collect();
    let mut cleaned = String::with_capacity(s.len());
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' {
            let before = i > 0 && chars[i - 1].is_ascii_digit();
            let after = chars.get(i + 1).is_some_and(|n| n.is_ascii_digit());
            if !(before && after) {
                return None;
            }
        } else {
            cleaned.push(c);
        }
    }
    let lower = cleaned.to_ascii_lowercase();
    let unsigned = lower.trim_start_matches(['+', '-']);
    if lower.len() - unsigned.len() > 1 {
        return None;
    }
    if !matches!(unsigned, "inf" | "infinity" | "nan")
        && !unsigned
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | '+' | '-'))
    {
        return None;
    }
    cleaned.parse::<f64>().ok()
}

/// Python's `repr(float)`: shortest round-trip digits, exponent form outside
/// 1e-4 ≤ |x| < 1e16, always a `.0` on integral values.
pub fn py_float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    let exp_form = format!("{x:e}"); // e.g. "1.5e-7", "-1e20"
    let (mantissa, exp) = exp_form.split_once('e').expect("LowerExp has an e");
    let exp: i32 = exp.parse().expect("integer exponent");
    if (-4..16).contains(&exp) {
        let s = format!("{x}");
        if s.contains('.') { s } else { format!("{s}.0") }
    } else {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.abs())
    }
}

/// Python's `str(value)`.
pub fn py_str(value: &PyVal) -> String {
    match value {
        PyVal::Str(s) => s.clone(),
        other => py_repr(other),
    }
}

fn py_repr(value: &PyVal) -> String {
    match value {
        PyVal::Str(s) => {
            let quote = if s.contains('\'') && !s.contains('"') {
                '"'
            } else {
                '\''
            };
            let mut out = String::new();
            out.push(quote);
            for c in s.chars() {
                match c {
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\t' => out.push_str("\\t"),
                    '\r' => out.push_str("\\r"),
                    c if c == quote => {
                        out.push('\\');
                        out.push(c);
                    }
                    c => out.push(c),
                }
            }
            out.push(quote);
            out
        }
        PyVal::Int(i) => i.to_string(),
        PyVal::Float(f) => py_float_repr(*f),
        PyVal::Bool(b) => if *b { "True" } else { "False" }.into(),
        PyVal::None => "None".into(),
        PyVal::List(items) => {
            let inner: Vec<String> = items.iter().map(py_repr).collect();
            format!("[{}]", inner.join(", "))
        }
        PyVal::Tuple(items) => {
            let inner: Vec<String> = items.iter().map(py_repr).collect();
            if items.len() == 1 {
                format!("({},)", inner[0])
            } else {
                format!("({})", inner.join(", "))
            }
        }
    }
}

/// `ast.literal_eval(text)` for strings, numbers, booleans, None, lists and
/// tuples. Other literal kinds (dicts, sets, bytes, complex numbers) are
/// treated as a parse failure.
pub fn literal_eval(text: &str) -> Option<PyVal> {
    let mut p = Parser {
        chars: text.trim_start_matches([' ', '\t']).chars().collect(),
        pos: 0,
        depth: 0,
    };
    let value = p.expr()?;
    p.skip_ws();
    (p.pos == p.chars.len()).then_some(value)
}

/// The reference's `parse_to_list`: a list literal's elements as
/// `str(x).strip(" '")`, or None when the text is not a list literal.
pub fn parse_to_list(text: &str) -> Option<Vec<String>> {
    match literal_eval(text)? {
        PyVal::List(items) => Some(
            items
                .iter()
                .map(|v| py_str(v).trim_matches([' ', '\'']).to_string())
                .collect(),
        ),
        _ => None,
    }
}

/// Python's `\\w` on str patterns: letters, anything numeric, `_`. Not
/// Rust's `is_alphanumeric`, which also counts combining vowel signs.
static PY_WORD_CHAR: std::sync::LazyLock<regex::Regex> =
    std::sync::LazyLock::new(|| regex::Regex::new(r"^[\p{L}\p{N}_]$").expect("valid regex"));

fn is_word(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    PY_WORD_CHAR.is_match(c.encode_utf8(&mut [0; 4]))
}

/// The reference's `fix_list_format` substitution
/// `re.sub(r"(?<!['\w])(\w[^,]*?)(?!['\w])", r"'\1'", content)`, emulated
/// by hand because the `regex` crate has no look-around.
pub fn quote_bare_words(content: &str) -> String {
    let chars: Vec<char> = content.chars().collect();
    let mut out = String::with_capacity(content.len() + 8);
    let mut i = 0;
    while i < chars.len() {
        let starts =
            is_word(chars[i]) && (i == 0 || !(chars[i - 1] == '\'' || is_word(chars[i - 1])));
        if !starts {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        // Lazy `[^,]*?`: the shortest run after which the look-ahead holds.
        let mut end = i + 1;
        loop {
            let lookahead_ok = end >= chars.len() || !(chars[end] == '\'' || is_word(chars[end]));
            if lookahead_ok {
                break;
            }
            if chars[end] == ',' {
                // Cannot extend over a comma; a comma always satisfies the
                // look-ahead, so this is unreachable, kept for safety.
                break;
            }
            end += 1;
        }
        out.push('\'');
        out.extend(&chars[i..end]);
        out.push('\'');
        i = end;
    }
    out
}

/// The reference's `fix_list_format` followed by `parse_to_list(str(..))`:
/// Some(elements) when the target is a (possibly unquoted) list.
pub fn fixed_target_list(target: &str) -> Option<Vec<String>> {
    let trimmed = py_strip(target);
    // `re.match(r"^\[(.*)\]$", …)`: `.` does not cross a line break.
    if let Some(content) = trimmed
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .filter(|content| !content.contains('\n'))
        && let Some(PyVal::List(items)) = literal_eval(&format!("[{}]", quote_bare_words(content)))
    {
        // str(list) then literal_eval again is the identity on these values.
        return Some(
            items
                .iter()
                .map(|v| py_str(v).trim_matches([' ', '\'']).to_string())
                .collect(),
        );
    }
    parse_to_list(target)
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    /// Brackets open at this point.
    depth: usize,
}

/// Python's tokenizer refuses more nested brackets ("too many nested
/// parentheses", a `SyntaxError` the reference catches); it also keeps the
/// recursion here from exhausting the stack.
const MAX_NESTING: usize = 200;

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while self
            .peek()
            .is_some_and(|c| matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{c}'))
        {
            self.pos += 1;
        }
    }

    /// A possibly unparenthesized expression: `1, 2` is a tuple.
    fn expr(&mut self) -> Option<PyVal> {
        let first = self.atom()?;
        self.skip_ws();
        if self.peek() != Some(',') {
            return Some(first);
        }
        let mut items = vec![first];
        while self.peek() == Some(',') {
            self.pos += 1;
            self.skip_ws();
            if self.pos == self.chars.len() {
                break;
            }
            items.push(self.atom()?);
            self.skip_ws();
        }
        Some(PyVal::Tuple(items))
    }

    fn sequence(&mut self, close: char) -> Option<(Vec<PyVal>, bool)> {
        let mut items = Vec::new();
        let mut saw_comma = false;
        loop {
            self.skip_ws();
            if self.peek() == Some(close) {
                self.pos += 1;
                return Some((items, saw_comma));
            }
            items.push(self.atom()?);
            self.skip_ws();
            match self.peek()? {
                ',' => {
                    saw_comma = true;
                    self.pos += 1;
                }
                c if c == close => {
                    self.pos += 1;
                    return Some((items, saw_comma));
                }
                _ => return None,
            }
        }
    }

    fn atom(&mut self) -> Option<PyVal> {
        self.skip_ws();
        let c = self.peek()?;
        match c {
            '[' | '(' if self.depth >= MAX_NESTING => None,
            '[' => {
                self.pos += 1;
                self.depth += 1;
                let items = self.sequence(']')?.0;
                self.depth -= 1;
                Some(PyVal::List(items))
            }
            '(' => {
                self.pos += 1;
                self.depth += 1;
                let (items, comma) = self.sequence(')')?;
                self.depth -= 1;
                if items.len() == 1 && !comma {
                    items.into_iter().next()
                } else {
                    Some(PyVal::Tuple(items))
                }
            }
            '\'' | '"' => self.strings(),
            '+' | '-' => {
                self.pos += 1;
                self.skip_ws();
                // One sign on a number constant only, as literal_eval allows.
                if matches!(self.peek(), Some('+' | '-')) {
                    return None;
                }
                match self.atom()? {
                    PyVal::Int(i) => Some(PyVal::Int(if c == '-' { -i } else { i })),
                    PyVal::Float(f) => Some(PyVal::Float(if c == '-' { -f } else { f })),
                    _ => None,
                }
            }
            c if c.is_ascii_digit() || c == '.' => self.number(),
            c if c.is_alphabetic() || c == '_' => {
                let start = self.pos;
                while self.peek().is_some_and(is_word) {
                    self.pos += 1;
                }
                let name: String = self.chars[start..self.pos].iter().collect();
                match name.as_str() {
                    "True" => Some(PyVal::Bool(true)),
                    "False" => Some(PyVal::Bool(false)),
                    "None" => Some(PyVal::None),
                    "r" | "R" | "u" | "U" if matches!(self.peek(), Some('\'' | '"')) => {
                        self.pos = start;
                        self.strings()
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// One or more adjacent string literals, concatenated as Python does.
    fn strings(&mut self) -> Option<PyVal> {
        let mut out = String::new();
        let mut any = false;
        loop {
            self.skip_ws();
            let raw = match self.peek() {
                Some('r' | 'R') => true,
                Some('u' | 'U') => false,
                Some('\'' | '"') => false,
                _ => break,
            };
            if matches!(self.peek(), Some('r' | 'R' | 'u' | 'U')) {
                if !matches!(self.chars.get(self.pos + 1), Some('\'' | '"')) {
                    break;
                }
                self.pos += 1;
            }
            out.push_str(&self.string_literal(raw)?);
            any = true;
        }
        any.then_some(PyVal::Str(out))
    }

    fn string_literal(&mut self, raw: bool) -> Option<String> {
        let quote = self.peek()?;
        let triple = self.chars.get(self.pos + 1) == Some(&quote)
            && self.chars.get(self.pos + 2) == Some(&quote);
        self.pos += if triple { 3 } else { 1 };
        let mut out = String::new();
        loop {
            let c = self.peek()?;
            if c == quote {
                if !triple {
                    self.pos += 1;
                    return Some(out);
                }
                if self.chars.get(self.pos + 1) == Some(&quote)
                    && self.chars.get(self.pos + 2) == Some(&quote)
                {
                    self.pos += 3;
                    return Some(out);
                }
            }
            if c == '\n' && !triple {
                return None;
            }
            self.pos += 1;
            if c != '\\' {
                out.push(c);
                continue;
            }
            let e = self.peek()?;
            self.pos += 1;
            if raw {
                out.push('\\');
                out.push(e);
                continue;
            }
            match e {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                '\\' => out.push('\\'),
                '\'' => out.push('\''),
                '"' => out.push('"'),
                '\n' => {}
                // Python's \N{NAME} escapes are not supported: a parse failure.
                'N' => return None,
                'x' | 'u' | 'U' => {
                    let len = match e {
                        'x' => 2,
                        'u' => 4,
                        _ => 8,
                    };
                    let hex: String = self.chars.get(self.pos..self.pos + len)?.iter().collect();
                    let code = u32::from_str_radix(&hex, 16).ok()?;
                    out.push(char::from_u32(code)?);
                    self.pos += len;
                }
                other => {
                    out.push('\\');
                    out.push(other);
                }
            }
        }
    }

    fn number(&mut self) -> Option<PyVal> {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        {
            let c = self.peek()?;
            self.pos += 1;
            // A sign belongs to the number only right after an exponent mark.
            if (c == 'e' || c == 'E') && matches!(self.peek(), Some('+' | '-')) {
                let is_hex = self.chars[start..self.pos]
                    .iter()
                    .any(|c| *c == 'x' || *c == 'X');
                if !is_hex {
                    self.pos += 1;
                }
            }
        }
        let token: String = self.chars[start..self.pos].iter().collect();
        let lower = token.to_ascii_lowercase();
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
            if let Some(digits) = lower.strip_prefix(prefix) {
                let digits = digits.strip_prefix('_').unwrap_or(digits);
                if digits.is_empty()
                    || digits.starts_with('_')
                    || digits.ends_with('_')
                    || digits.contains("__")
                {
                    return None;
                }
                return i128::from_str_radix(&digits.replace('_', ""), radix)
                    .ok()
                    .map(PyVal::Int);
            }
        }
        if token.ends_with('_')
            || token.contains("__")
            || token.contains("_.")
            || token.contains("._")
        {
            return None;
        }
        let plain = token.replace('_', "");
        if plain.chars().all(|c| c.is_ascii_digit()) {
            // Python rejects leading zeros in a non-zero decimal integer.
            if plain.len() > 1 && plain.starts_with('0') && plain.chars().any(|c| c != '0') {
                return None;
            }
            return plain.parse::<i128>().ok().map(PyVal::Int);
        }
        if !plain
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
        {
            return None;
        }
        plain.parse::<f64>().ok().map(PyVal::Float)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_float_rules() {
        assert_eq!(py_float(" 12.5 "), Some(12.5));
        assert_eq!(py_float("1_000"), Some(1000.0));
        assert_eq!(py_float("1__000"), None);
        assert_eq!(py_float("_1"), None);
        assert_eq!(py_float("1e3"), Some(1000.0));
        assert_eq!(py_float("1,000"), None);
        assert_eq!(py_float("$5"), None);
        assert!(py_float("NaN").is_some_and(f64::is_nan));
        assert_eq!(py_float("-Infinity"), Some(f64::NEG_INFINITY));
        assert_eq!(py_float(""), None);
        assert_eq!(py_float("+-1"), None);
        let nested = |n: usize| literal_eval(&format!("{}{}", "[".repeat(n), "]".repeat(n)));
        assert!(nested(MAX_NESTING).is_some());
        assert_eq!(nested(MAX_NESTING + 1), None);
        assert_eq!(nested(100_000), None, "no stack overflow either");
        // Any script's decimal digits; Python's extra whitespace only where
        // `strip()` applies, not inside `float()` on ASCII text.
        assert_eq!(py_float("١٢٣"), Some(123.0));
        assert_eq!(py_float("\u{3000}１２.５\u{a0}"), Some(12.5));
        assert_eq!(py_float("𝟏𝟐"), Some(12.0));
        assert_eq!(py_float("²"), None);
        assert_eq!(py_float("٣٫٥"), None);
        assert_eq!(py_float("\u{1f}5"), None);
        assert_eq!(py_strip("\u{1f} 5\u{1c}"), "5");
        assert_eq!(py_split("a\u{1e}b").collect::<Vec<_>>(), ["a", "b"]);
    }

    #[test]
    fn float_repr_matches_python() {
        assert_eq!(py_float_repr(1.5), "1.5");
        assert_eq!(py_float_repr(1000.0), "1000.0");
        assert_eq!(py_float_repr(1e16), "1e+16");
        assert_eq!(py_float_repr(1.5e-7), "1.5e-07");
        assert_eq!(py_float_repr(0.0001), "0.0001");
        assert_eq!(py_float_repr(0.1 + 0.2), "0.30000000000000004");
    }

    #[test]
    fn literal_lists() {
        assert_eq!(
            parse_to_list("['a', 'b']"),
            Some(vec!["a".into(), "b".into()])
        );
        assert_eq!(
            parse_to_list("[1.50, 2]"),
            Some(vec!["1.5".into(), "2".into()])
        );
        assert_eq!(
            parse_to_list("['a' 'b', \"c\"]"),
            Some(vec!["ab".into(), "c".into()])
        );
        assert_eq!(parse_to_list("[a, b]"), None);
        assert_eq!(parse_to_list("(1, 2)"), None);
        assert_eq!(parse_to_list("[01]"), None);
        assert_eq!(
            parse_to_list("[True, None, -3]"),
            Some(vec!["True".into(), "None".into(), "-3".into()])
        );
        assert_eq!(parse_to_list("[[1, 'x']]"), Some(vec!["[1, 'x']".into()]));
        assert_eq!(parse_to_list("[]"), Some(vec![]));
        assert_eq!(parse_to_list("5"), None);
        // Python refuses a sign on a boolean and a bare \N escape.
        assert_eq!(parse_to_list("[-True]"), None);
        assert_eq!(parse_to_list("['A\\NB']"), None);
        assert_eq!(parse_to_list("[1E400]"), Some(vec!["inf".into()]));
    }

    #[test]
    fn bare_word_quoting_like_the_reference_regex() {
        assert_eq!(quote_bare_words("a, b"), "'a', 'b'");
        assert_eq!(quote_bare_words("New York, LA"), "'New' 'York', 'LA'");
        assert_eq!(quote_bare_words("1.5, 2"), "'1'.'5', '2'");
        assert_eq!(quote_bare_words("'x y', z"), "'x 'y'', 'z'");
        assert_eq!(
            fixed_target_list("[New York, Los Angeles]"),
            Some(vec!["NewYork".into(), "LosAngeles".into()])
        );
        assert_eq!(
            fixed_target_list("[1.5, 2.25]"),
            Some(vec!["1.5".into(), "2.25".into()])
        );
        assert_eq!(
            fixed_target_list("[1,000, 2,000]"),
            Some(vec!["1".into(), "000".into(), "2".into(), "000".into()])
        );
        assert_eq!(fixed_target_list("[$5, $10]"), None);
        assert_eq!(fixed_target_list("plain"), None);
    }
}
