//! Fitting text into widths: word wrapping and truncation with an ellipsis.

use super::fonts::text_width;

/// Shorten `text` with a trailing "…" until it fits `max_w` pixels.
pub fn truncate(text: &str, family: &str, size: f32, bold: bool, max_w: f32) -> String {
    if text_width(text, family, size, bold) <= max_w {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut n = chars.len();
    while n > 1 {
        n -= 1;
        let candidate: String = chars[..n].iter().collect::<String>().trim_end().to_string() + "…";
        if text_width(&candidate, family, size, bold) <= max_w {
            return candidate;
        }
    }
    "…".into()
}

/// The largest size from `size` down to `min_size` (in steps of a tenth)
/// at which `text` fits `max_w` pixels; `min_size` when none does, and the
/// caller truncates there. An axis title a little too long for a small
/// panel is better printed a size smaller than cut off.
pub fn shrink_to_fit(
    text: &str,
    family: &str,
    size: f32,
    bold: bool,
    max_w: f32,
    min_size: f32,
) -> f32 {
    let mut s = size;
    while s > min_size && text_width(text, family, s, bold) > max_w {
        s = (s - size * 0.1).max(min_size);
    }
    s
}

/// Greedy word wrap into at most `max_lines` lines of `max_w` pixels; the last
/// line is truncated when the text does not fit. Returns (lines, fitted):
/// `fitted` is false when something had to be cut.
pub fn wrap(
    text: &str,
    family: &str,
    size: f32,
    bold: bool,
    max_w: f32,
    max_lines: usize,
) -> (Vec<String>, bool) {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut fitted = true;
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        let candidate = if current.is_empty() {
            word.to_string()
        } else {
            format!("{current} {word}")
        };
        if text_width(&candidate, family, size, bold) <= max_w || current.is_empty() {
            if current.is_empty() && text_width(word, family, size, bold) > max_w {
                fitted = false;
            }
            current = candidate;
            i += 1;
        } else {
            lines.push(std::mem::take(&mut current));
            if lines.len() == max_lines {
                break;
            }
        }
    }
    if !current.is_empty() && lines.len() < max_lines {
        lines.push(current);
    } else if i < words.len() || !current.is_empty() {
        fitted = false;
        if let Some(last) = lines.last_mut() {
            let rest: Vec<&str> = words[i..].to_vec();
            let extended = if current.is_empty() {
                format!("{last} {}", rest.join(" "))
            } else {
                format!("{last} {current}")
            };
            *last = extended;
        }
    }
    if lines.is_empty() {
        lines.push(String::new());
    }
    for line in &mut lines {
        if text_width(line, family, size, bold) > max_w {
            *line = truncate(line, family, size, bold, max_w);
            fitted = false;
        }
    }
    (lines, fitted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_and_truncates() {
        let (lines, ok) = wrap(
            "United Kingdom of Great Britain",
            "DejaVu Sans",
            12.0,
            false,
            120.0,
            2,
        );
        assert_eq!(lines.len(), 2);
        assert!(!ok || lines.join(" ") == "United Kingdom of Great Britain");
        let t = truncate(
            "A very long category label indeed",
            "DejaVu Sans",
            12.0,
            false,
            80.0,
        );
        assert!(t.ends_with('…'));
        assert!(text_width(&t, "DejaVu Sans", 12.0, false) <= 80.0);
        let (lines, ok) = wrap("Short", "DejaVu Sans", 12.0, false, 120.0, 2);
        assert_eq!(lines, vec!["Short".to_string()]);
        assert!(ok);
    }

    #[test]
    fn shrink_to_fit_prefers_a_smaller_size_to_an_ellipsis() {
        let family = crate::render::fonts::SANS;
        let text = "Births per woman";
        let full = text_width(text, family, 12.0, false);
        let size = shrink_to_fit(text, family, 12.0, false, full * 0.85, 8.0);
        assert!((8.0..12.0).contains(&size), "{size}");
        assert!(text_width(text, family, size, false) <= full * 0.85);
        assert_eq!(shrink_to_fit(text, family, 12.0, false, full, 8.0), 12.0);
        assert_eq!(shrink_to_fit(text, family, 12.0, false, 5.0, 8.0), 8.0);
    }
}
