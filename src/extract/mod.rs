//! Answer extraction from raw model text. The raw text is always
//! kept next to the extracted answer; extraction only decides which short
//! string the scorer compares against the gold answer.
//!
//! Order: reasoning blocks are removed (`<think>…</think>` and similar); then
//! a JSON object reply with an `answer` field (`{"answer": 42}`, also in a
//! ```` ```json ```` fence or on the last line); then the last `\boxed{X}`; then the last "The answer is X" / "Answer: X" /
//! "Final answer: X"; otherwise the last non-empty line when it is short,
//! else the whole remaining text. Markdown emphasis, code ticks, quotes,
//! surrounding parentheses of a choice letter and trailing periods are stripped.

use std::sync::LazyLock;

use regex::Regex;

/// Tag pairs whose content is reasoning, not the answer.
const REASONING_TAGS: [(&str, &str); 5] = [
    ("<think>", "</think>"),
    ("<thinking>", "</thinking>"),
    ("<reasoning>", "</reasoning>"),
    ("<thought>", "</thought>"),
    ("<|begin_of_thought|>", "<|end_of_thought|>"),
];

static ANSWER_IS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\banswer\s*(?:is\s*[:：]?|[:：])\s*(.+)").expect("answer regex")
});
static SENTENCE_END: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[.!?]\s+[A-Z(]").expect("sentence regex"));
static FENCE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?s)```[A-Za-z]*[ \t]*\r?\n?(.*?)```").expect("fence regex"));
static CHOICE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\(?([a-zA-Z])\)$").expect("choice regex"));

/// Longest last line (in words) still taken as the answer on its own.
const SHORT_LINE_WORDS: usize = 20;

/// The text without reasoning blocks. An unclosed opening tag means the
/// model never finished thinking; a lone closing tag (servers that strip the
/// opening one) drops everything before it.
pub fn strip_reasoning(raw: &str) -> String {
    let mut text = raw.to_string();
    for (open, close) in REASONING_TAGS {
        loop {
            let lower = text.to_ascii_lowercase();
            match (lower.find(open), lower.find(close)) {
                (Some(start), Some(end)) if start < end => {
                    text.replace_range(start..end + close.len(), "");
                }
                (_, Some(end)) => {
                    text.replace_range(..end + close.len(), "");
                }
                (Some(start), None) => {
                    text.replace_range(start..start + open.len(), "");
                }
                (None, None) => break,
            }
        }
    }
    text.trim().to_string()
}

/// Content of the last `\boxed{…}`, braces balanced.
fn last_boxed(text: &str) -> Option<String> {
    let start = text.rfind("\\boxed{")? + "\\boxed{".len();
    let mut depth = 1usize;
    for (i, c) in text[start..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(text[start..start + i].to_string());
                }
            }
            _ => {}
        }
    }
    None
}

fn strip_markdown(text: &str) -> String {
    text.replace("**", "").replace("__", "").replace('`', "")
}

/// Removes quotes, wrappers and trailing punctuation around a short answer.
pub fn clean(answer: &str) -> String {
    let mut s = strip_markdown(answer).trim().to_string();
    loop {
        let before = s.clone();
        s = s.trim().trim_start_matches(['#', '>']).trim().to_string();
        // List bullets, but not the sign of a negative number.
        for bullet in ["- ", "* ", "• "] {
            if let Some(rest) = s.strip_prefix(bullet) {
                s = rest.trim().to_string();
            }
        }
        for (open, close) in [
            ('"', '"'),
            ('\'', '\''),
            ('“', '”'),
            ('‘', '’'),
            ('$', '$'),
            ('[', ']'),
        ] {
            if s.len() >= 2 && s.starts_with(open) && s.ends_with(close) {
                s = s[open.len_utf8()..s.len() - close.len_utf8()].to_string();
            }
        }
        while s.ends_with(['.', '。', ',', ';', '!']) {
            s.pop();
        }
        if let Some(inner) = s.strip_prefix("\\text{").and_then(|r| r.strip_suffix('}')) {
            s = inner.to_string();
        }
        if s == before {
            break;
        }
    }
    if let Some(c) = CHOICE.captures(&s) {
        return c[1].to_string();
    }
    s
}

/// Keys of a JSON reply that hold the answer, compared without case.
const JSON_ANSWER_KEYS: [&str; 3] = ["answer", "final_answer", "final answer"];

/// The answer of a JSON object reply: the whole text, the last fenced block,
/// or the last line, when it is an object with an answer field that is not
/// null. Models asked for "the answer only" often reply `{"answer": 42}`.
fn json_answer(text: &str) -> Option<String> {
    let mut candidates = vec![text.trim()];
    candidates.extend(
        FENCE
            .captures_iter(text)
            .filter_map(|c| c.get(1))
            .map(|m| m.as_str().trim())
            .collect::<Vec<_>>()
            .into_iter()
            .rev(),
    );
    if let Some(last) = text.lines().rev().find(|l| !l.trim().is_empty()) {
        candidates.push(last.trim());
    }
    candidates.into_iter().find_map(|candidate| {
        if !candidate.starts_with('{') {
            return None;
        }
        let serde_json::Value::Object(map) = serde_json::from_str(candidate).ok()? else {
            return None;
        };
        let value = JSON_ANSWER_KEYS.iter().find_map(|key| {
            map.iter()
                .find(|(k, _)| k.trim().eq_ignore_ascii_case(key))
                .map(|(_, v)| v)
        })?;
        json_text(value)
    })
}

/// A JSON answer value as answer text; lists are joined like gold lists.
fn json_text(value: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    match value {
        Value::Null => None,
        Value::String(s) => Some(clean(s)),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(if *b { "True" } else { "False" }.to_string()),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().filter_map(json_text).collect();
            Some(parts.join(", "))
        }
        Value::Object(_) => Some(value.to_string()),
    }
}

/// The answer the scorer sees.
pub fn extract(raw: &str) -> String {
    let text = strip_reasoning(raw);
    if let Some(answer) = json_answer(&text) {
        return answer;
    }
    if let Some(boxed) = last_boxed(&text) {
        return clean(&boxed);
    }
    let plain = strip_markdown(&text);
    if let Some(caps) = ANSWER_IS.captures_iter(&plain).last() {
        let mut answer = caps[1].lines().next().unwrap_or("").to_string();
        if let Some(m) = SENTENCE_END.find(&answer) {
            answer.truncate(m.start());
        }
        let answer = clean(&answer);
        if !answer.is_empty() {
            return answer;
        }
    }
    let last = plain
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    if last.split_whitespace().count() <= SHORT_LINE_WORDS {
        clean(last)
    } else {
        clean(&plain)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasoning_blocks_are_removed() {
        assert_eq!(extract("<think>maybe 3? no, 4</think>\n42"), "42");
        assert_eq!(extract("long thoughts</think>The answer is 7."), "7");
        assert_eq!(extract("<Thinking>x</Thinking> Paris"), "Paris");
    }

    #[test]
    fn answer_markers() {
        assert_eq!(extract("Step 1...\nSo \\boxed{12.5} is it"), "12.5");
        assert_eq!(extract("\\boxed{\\text{Asia}}"), "Asia");
        assert_eq!(
            extract("The bars show growth. The answer is 2019. It rose."),
            "2019"
        );
        assert_eq!(extract("Reasoning here.\nAnswer: \"Europe\""), "Europe");
        assert_eq!(extract("**Final Answer:** (b)"), "b");
        assert_eq!(extract("blah\n\n  True.  \n"), "True");
        assert_eq!(extract("`3.5`"), "3.5");
        assert_eq!(extract("-21.3"), "-21.3");
        assert_eq!(extract("Answer: -4"), "-4");
        assert_eq!(extract("- Paris"), "Paris");
    }

    #[test]
    fn json_replies() {
        assert_eq!(extract(r#"{"answer": 42}"#), "42");
        assert_eq!(extract(r#"{"answer": "France"}"#), "France");
        assert_eq!(extract("```json\n{\"answer\": \"France\"}\n```"), "France");
        assert_eq!(
            extract(
                "Looking at the bars.\n```json\n{\n  \"reasoning\": \"tallest\",\n  \"Answer\": 12.5\n}\n```\n"
            ),
            "12.5"
        );
        assert_eq!(
            extract(
                "<think>{\"answer\": 1}</think>The asia bar is tallest.\n{\"final_answer\": \"Asia.\"}"
            ),
            "Asia"
        );
        assert_eq!(extract(r#"{"answer": true}"#), "True");
        assert_eq!(extract(r#"{"answer": ["Asia", "Europe"]}"#), "Asia, Europe");
        assert_eq!(extract(r#"{"answer": -3}"#), "-3");
        // No answer field, or a null one: the usual rules apply.
        assert_eq!(extract(r#"{"value": 42}"#), r#"{"value": 42}"#);
        assert_eq!(extract("{\"answer\": null}\nThe answer is 7."), "7");
    }

    #[test]
    fn long_last_lines_keep_the_text() {
        let raw = "word ".repeat(30);
        assert_eq!(extract(&raw), raw.trim());
    }
}
