//! Text cells made safe to lay out: control characters (which no chart can
//! print and SVG rejects) become spaces, and very long texts are cut with an
//! ellipsis before anything measures them, so layout cost stays linear.

/// Longest cell or header kept, in characters; longer ones end in "…".
pub const MAX_TEXT_CHARS: usize = 200;

/// What cleaning did to one text.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Cleaned {
    pub control: bool,
    pub shortened: bool,
}

/// The text as a chart may print it, and what was changed.
pub fn clean_text(raw: &str, max_chars: usize) -> (String, Cleaned) {
    let mut done = Cleaned::default();
    let mut out = String::with_capacity(raw.len().min(max_chars * 4));
    for (kept, c) in raw.chars().enumerate() {
        if kept == max_chars {
            done.shortened = true;
            break;
        }
        if c.is_control() {
            done.control = true;
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    let mut out = out.trim().to_string();
    if done.shortened {
        // Room for the ellipsis within the limit.
        if let Some((i, _)) = out.char_indices().nth(max_chars.saturating_sub(1)) {
            out.truncate(i);
        }
        out = format!("{}…", out.trim_end());
    }
    (out, done)
}

/// The text with its first letter in upper case ("mean of …" → "Mean of …").
pub fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Counts of cleaned cells in one file, for the note to its owner.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CleanCounts {
    pub control: usize,
    pub shortened: usize,
}

impl CleanCounts {
    pub fn add(&mut self, c: Cleaned) {
        self.control += usize::from(c.control);
        self.shortened += usize::from(c.shortened);
    }

    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.control > 0 {
            notes.push(format!(
                "{} cells had control characters, replaced by spaces",
                self.control
            ));
        }
        if self.shortened > 0 {
            notes.push(format!(
                "{} cells longer than {MAX_TEXT_CHARS} characters were shortened with \"…\"",
                self.shortened
            ));
        }
        notes
    }
}

/// The lower-case words of a name (a header, a variable, a field), split at
/// anything not alphanumeric and where camelCase changes case (`budgetYear`).
pub fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            out.push(std::mem::take(&mut cur));
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_lowercase());
    }
    out.push(cur);
    out.retain(|w| !w.is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_and_long_texts() {
        assert_eq!(
            clean_text("a\u{1}b", 10),
            (
                "a b".into(),
                Cleaned {
                    control: true,
                    shortened: false
                }
            )
        );
        assert_eq!(clean_text("  plain ", 10).0, "plain");
        let (s, c) = clean_text(&"x".repeat(100_000), 5);
        assert_eq!(s, "xxxx…");
        assert!(c.shortened);
        assert_eq!(s.chars().count(), 5);
        let (s, _) = clean_text("ééééééé", 4);
        assert_eq!(s, "ééé…");
    }
}
