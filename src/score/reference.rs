//! Reimplementations of two published evaluators, quirks included, so that
//! published numbers can be reproduced. Both were derived from reading the
//! original Python; see docs/scoring.md for the list of quirks.

use super::pylit::{fixed_target_list, parse_to_list, py_float, py_split, py_strip};

/// Levenshtein distance normalized the way the `anls` Python package does:
/// by the longer string's length *after upper-casing* ("ß" counts as two).
fn anls_package_nl(a: &str, b: &str) -> f64 {
    let distance = strsim::levenshtein(a, b);
    let length = a
        .to_uppercase()
        .chars()
        .count()
        .max(b.to_uppercase().chars().count());
    if length == 0 {
        0.0
    } else {
        distance as f64 / length as f64
    }
}

/// The `anls` package's `anls_score` with one gold label: lower-cased,
/// trimmed, whitespace runs collapsed; `1 − NL` when NL < threshold.
fn anls_package_score(prediction: &str, gold: &str, threshold: f64) -> f64 {
    let squash = |s: &str| {
        py_split(&py_strip(s).to_lowercase())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let nl = anls_package_nl(&squash(prediction), &squash(gold));
    if nl < threshold { 1.0 - nl } else { 0.0 }
}

/// Python's `float(text.strip().strip('%'))`.
fn percent_stripped_float(text: &str) -> Option<f64> {
    py_float(py_strip(text).trim_matches('%'))
}

/// The official script's per-element comparison for non-year elements:
/// percent signs are dropped (not divided by 100), numbers get 5% relative
/// tolerance (a zero target needs an exact zero), everything else ANLS.
fn single_answer(target: &str, prediction: &str) -> f64 {
    let t = py_strip(py_strip(target).trim_matches('%'));
    let p = py_strip(py_strip(prediction).trim_matches('%'));
    if let (Some(tf), Some(pf)) = (percent_stripped_float(t), percent_stripped_float(p)) {
        if tf == 0.0 {
            return if pf == 0.0 { 1.0 } else { 0.0 };
        }
        // NaN compares false, as in Python.
        return if (pf - tf).abs() / tf.abs() <= 0.05 {
            1.0
        } else {
            0.0
        };
    }
    anls_package_score(&p.to_lowercase(), &t.to_lowercase(), 0.5)
}

/// ChartQA Pro's official evaluator (vis-nlp/ChartQAPro
/// `evaluate_predictions.py`) for one record.
///
/// `year_flags` are the record's "YES"/"NO" flags; `conversational` keeps only
/// the last one, as the script does for the Conversational split. The script
/// crashes on a record without flags; here an empty list reads as `["NO"]`.
pub fn chartqapro(
    target: &str,
    prediction: &str,
    year_flags: &[String],
    conversational: bool,
) -> f64 {
    let gt = target.trim_matches('.').trim_matches('\n');
    let pred = prediction.trim_matches('.').trim_matches('\n');
    let mut flags: Vec<&str> = year_flags.iter().map(String::as_str).collect();
    if conversational && flags.len() > 1 {
        flags = vec![flags[flags.len() - 1]];
    }
    if flags.is_empty() {
        flags = vec!["NO"];
    }
    let t_list = fixed_target_list(gt)
        .filter(|l| !l.is_empty())
        .unwrap_or_else(|| vec![gt.to_string()]);
    let p_list = parse_to_list(pred)
        .filter(|l| !l.is_empty())
        .unwrap_or_else(|| vec![pred.to_string()]);
    let len = t_list.len().max(p_list.len());
    let mut total = 0.0;
    for idx in 0..len {
        let (Some(t), Some(p)) = (t_list.get(idx), p_list.get(idx)) else {
            continue; // a missing or extra element scores 0
        };
        // `year_flags * n` when there are fewer flags than target elements.
        let flag = flags[idx % flags.len()];
        total += if flag.to_uppercase() == "YES" {
            f64::from(u8::from(
                py_strip(t).to_lowercase() == py_strip(p).to_lowercase(),
            ))
        } else {
            single_answer(t, p)
        };
    }
    if len == 0 { 0.0 } else { total / len as f64 }
}

/// Python's `float()` with the reference's percent handling for pix2struct.
fn pix2struct_float(text: &str) -> Option<f64> {
    if let Some(stripped) = text.strip_suffix('%') {
        py_float(stripped.trim_end_matches('%')).map(|v| v / 100.0)
    } else {
        py_float(text)
    }
}

/// ChartQA's relaxed accuracy as google-research/pix2struct's
/// `relaxed_correctness` computes it: no stripping, "x%" means x/100, 5%
/// relative tolerance when the target is a non-zero number, otherwise a
/// case-insensitive exact string match.
pub fn chartqa(target: &str, prediction: &str) -> f64 {
    let p = pix2struct_float(prediction);
    let t = pix2struct_float(target);
    let correct = match (p, t) {
        (Some(pf), Some(tf)) if tf != 0.0 => (pf - tf).abs() / tf.abs() <= 0.05,
        _ => prediction.to_lowercase() == target.to_lowercase(),
    };
    f64::from(u8::from(correct))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anls_package_quirks() {
        // Threshold is strict: NL exactly 0.5 scores 0.
        assert_eq!(anls_package_score("ab", "ac", 0.5), 0.0);
        // Whitespace runs collapse.
        assert_eq!(anls_package_score("new   york", " New York ", 0.5), 1.0);
        // Length is measured after upper-casing: "ß" counts twice.
        assert!((anls_package_score("aaab", "aaaß", 0.5) - 0.8).abs() < 1e-12);
    }
}
