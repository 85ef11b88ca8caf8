//! Diversity measures over question texts (used by `chartstress stats` and tests).

use std::collections::BTreeSet;

/// Lower-case word tokens (letters, digits, apostrophes, `%`, `.` inside numbers).
pub fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '%' || c == '.'))
        .map(|t| t.trim_matches('.').to_lowercase())
        .filter(|t| !t.is_empty())
        .collect()
}

fn trigrams(text: &str) -> BTreeSet<String> {
    let t = tokens(text);
    if t.len() < 3 {
        return t.into_iter().collect();
    }
    t.windows(3).map(|w| w.join(" ")).collect()
}

/// Jaccard similarity of the word-trigram sets of two texts (1 = same trigrams).
pub fn trigram_jaccard(a: &str, b: &str) -> f64 {
    let (x, y) = (trigrams(a), trigrams(b));
    let union = x.union(&y).count();
    if union == 0 {
        return 1.0;
    }
    x.intersection(&y).count() as f64 / union as f64
}

/// Count, unique tokens, mean characters, mean tokens, type-token ratio.
#[derive(Debug, Clone, PartialEq)]
pub struct TextStats {
    pub count: usize,
    pub unique_tokens: usize,
    pub mean_chars: f64,
    pub mean_tokens: f64,
    pub type_token_ratio: f64,
}

pub fn text_stats<'a>(texts: impl IntoIterator<Item = &'a str>) -> TextStats {
    let mut count = 0usize;
    let mut chars = 0usize;
    let mut total_tokens = 0usize;
    let mut vocab = BTreeSet::new();
    for t in texts {
        count += 1;
        chars += t.chars().count();
        let tok = tokens(t);
        total_tokens += tok.len();
        vocab.extend(tok);
    }
    let n = count.max(1) as f64;
    TextStats {
        count,
        unique_tokens: vocab.len(),
        mean_chars: chars as f64 / n,
        mean_tokens: total_tokens as f64 / n,
        type_token_ratio: if total_tokens == 0 {
            0.0
        } else {
            vocab.len() as f64 / total_tokens as f64
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jaccard_bounds() {
        assert_eq!(
            trigram_jaccard("what is the value", "what is the value"),
            1.0
        );
        assert_eq!(trigram_jaccard("a b c", "d e f"), 0.0);
        let s = text_stats(["a b", "b c d"]);
        assert_eq!(s.count, 2);
        assert_eq!(s.unique_tokens, 4);
        assert!((s.type_token_ratio - 0.8).abs() < 1e-9);
    }
}
