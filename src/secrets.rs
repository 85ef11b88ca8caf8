//! Secrets a run must never write: API keys, passwords and tokens, wherever
//! the user handed them over (an environment variable, `user:password@` or a
//! `key=` query in a URL, an auth field of a JSON object, an argument or an
//! environment assignment in a command line). Settings are redacted by
//! structure ([`redact_url`], [`redact_json_fields`], [`redact_command`]);
//! free text (model replies, server error bodies, worker logs) by searching
//! for every known secret value with [`Secrets::redact`].

use std::borrow::Cow;
use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, MatchKind};
use regex::Regex;
use serde_json::Value;

/// What a secret is replaced with.
pub const MARK: &str = "[REDACTED]";

/// Shorter values are not searched for in free text: replacing every
/// "abc" of a reply would destroy it, and such a value is no real key.
const MIN_SECRET_CHARS: usize = 4;
/// Environment values are only guessed to be secrets from their variable's
/// name, so they must look like a key, not like `true` or `1`.
const MIN_ENVIRONMENT_CHARS: usize = 8;

/// Words that make a variable, field, flag or query parameter name a secret's.
const SECRET_WORDS: &[&str] = &[
    "apikey",
    "key",
    "token",
    "secret",
    "password",
    "passwd",
    "passphrase",
    "pass",
    "auth",
    "authorization",
    "credential",
    "credentials",
    "cookie",
    "signature",
    "sig",
    "bearer",
];

/// `Bearer …` / `Basic …` credentials seen in free text (an echoed header).
static SCHEME_CREDENTIAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(bearer|basic)(\s+)([A-Za-z0-9._~+/=-]{8,})").expect("valid regex")
});

/// Whether the word after `Bearer`/`Basic` is a credential rather than
/// prose ("basic arithmetic", "Basic Statistics"): long enough, with a
/// digit, a base64 sign, or a capital after its first letter.
fn looks_like_credential(token: &str) -> bool {
    token.len() >= 12
        && (token
            .chars()
            .any(|c| c.is_ascii_digit() || "=+/_.~-".contains(c))
            || token.chars().skip(1).any(|c| c.is_ascii_uppercase()))
}

/// Last words that make a name about a secret rather than one
/// (`api_key_env` names a variable, `api_key_set` says whether there is one).
const ABOUT_WORDS: &[&str] = &["env", "set", "file", "path", "len", "length", "count"];

/// Whether a name (`OPENAI_API_KEY`, `x-api-key`, `apiKey`, `access_token`)
/// names a secret: one of its words is a secret word, and it is not about one.
pub fn is_secret_name(name: &str) -> bool {
    let words = crate::table::clean::words(name);
    words.iter().any(|w| SECRET_WORDS.contains(&w.as_str()))
        && !words
            .last()
            .is_some_and(|w| ABOUT_WORDS.contains(&w.as_str()))
}

/// The secret values a process's environment holds: values of variables
/// whose names name a secret, long enough to be one.
pub fn environment_secrets() -> Vec<String> {
    std::env::vars_os()
        .filter_map(|(name, value)| Some((name.into_string().ok()?, value.into_string().ok()?)))
        .filter(|(name, value)| {
            is_secret_name(name) && value.trim().chars().count() >= MIN_ENVIRONMENT_CHARS
        })
        .map(|(_, value)| value.trim().to_string())
        .collect()
}

/// The parts of a URL: everything before the user info, the user info,
/// the host and path, the query and the fragment.
pub(crate) struct UrlParts<'a> {
    /// The scheme and `://`.
    pub head: &'a str,
    /// `user:password`, without the `@`.
    pub userinfo: Option<&'a str>,
    /// Host, port and path.
    pub rest: &'a str,
    /// Without the `?`.
    pub query: Option<&'a str>,
    /// With its `#`.
    pub fragment: &'a str,
}

pub(crate) fn url_parts(url: &str) -> Option<UrlParts<'_>> {
    let scheme_end = url.find("://")? + 3;
    let (head, after) = url.split_at(scheme_end);
    let authority_end = after.find(['/', '?', '#']).unwrap_or(after.len());
    let (userinfo, rest_start) = match after[..authority_end].rfind('@') {
        Some(at) => (Some(&after[..at]), at + 1),
        None => (None, 0),
    };
    let rest = &after[rest_start..];
    let (path, fragment) = match rest.find('#') {
        Some(k) => rest.split_at(k),
        None => (rest, ""),
    };
    let (rest, query) = match path.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (path, None),
    };
    Some(UrlParts {
        head,
        userinfo,
        rest,
        query,
        fragment,
    })
}

pub(crate) fn percent_decoded(text: &str) -> String {
    percent_encoding::percent_decode_str(text)
        .decode_utf8_lossy()
        .into_owned()
}

/// A query's parameters whose names name a secret, as `(name, raw value)`.
fn secret_query_values(query: &str) -> impl Iterator<Item = &str> {
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .filter(|(name, value)| is_secret_name(&percent_decoded(name)) && !value.is_empty())
        .map(|(_, value)| value)
}

/// The secrets inside a URL (user name and password, secret query values),
/// as written and percent-decoded.
pub fn url_secrets(url: &str) -> Vec<String> {
    let Some(parts) = url_parts(url) else {
        return Vec::new();
    };
    let mut raw: Vec<&str> = Vec::new();
    if let Some(userinfo) = parts.userinfo {
        raw.extend(userinfo.split(':').filter(|s| !s.is_empty()));
    }
    if let Some(query) = parts.query {
        raw.extend(secret_query_values(query));
    }
    raw.iter()
        .flat_map(|s| [s.to_string(), percent_decoded(s)])
        .collect()
}

/// The URL with its user info and secret query values replaced by [`MARK`]:
/// what settings and messages show of it.
pub fn redact_url(url: &str) -> String {
    let Some(parts) = url_parts(url) else {
        return url.to_string();
    };
    let mut out = parts.head.to_string();
    if let Some(userinfo) = parts.userinfo {
        match userinfo.split_once(':') {
            Some((user, _)) if !user.is_empty() => out.push_str(&format!("{user}:{MARK}@")),
            _ => out.push_str(&format!("{MARK}@")),
        }
    }
    out.push_str(parts.rest);
    if let Some(query) = parts.query {
        let pairs: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((name, value))
                    if is_secret_name(&percent_decoded(name)) && !value.is_empty() =>
                {
                    format!("{name}={MARK}")
                }
                _ => pair.to_string(),
            })
            .collect();
        out.push('?');
        out.push_str(&pairs.join("&"));
    }
    out.push_str(parts.fragment);
    out
}

/// Values under secret-named fields of a JSON value, at any depth (an
/// `Authorization` header map, an `api_key` field), and URL secrets in any
/// string.
pub fn json_secrets(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    collect_json_secrets(value, false, &mut out);
    out
}

fn collect_json_secrets(value: &Value, under_secret: bool, out: &mut Vec<String>) {
    match value {
        Value::String(s) if under_secret => {
            out.push(s.clone());
            // `Bearer KEY`: the key alone is also searched for.
            if let Some((_, token)) = s.split_once(char::is_whitespace) {
                out.push(token.trim().to_string());
            }
        }
        Value::String(s) => out.extend(url_secrets(s)),
        Value::Number(n) if under_secret => out.push(n.to_string()),
        Value::Array(items) => items
            .iter()
            .for_each(|v| collect_json_secrets(v, under_secret, out)),
        Value::Object(map) => map
            .iter()
            .for_each(|(k, v)| collect_json_secrets(v, under_secret || is_secret_name(k), out)),
        _ => {}
    }
}

/// The JSON value with every secret-named field's value replaced by
/// [`MARK`] and every URL redacted.
pub fn redact_json_fields(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let v = if is_secret_name(k) && !matches!(v, Value::Null | Value::Bool(_)) {
                        Value::String(MARK.into())
                    } else {
                        redact_json_fields(v)
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(redact_json_fields).collect()),
        Value::String(s) => Value::String(redact_url_in_text(s).into_owned()),
        other => other.clone(),
    }
}

/// URL secrets of every URL inside a text.
fn redact_url_in_text(text: &str) -> Cow<'_, str> {
    let secrets: Vec<String> = text.split_whitespace().flat_map(url_secrets).collect();
    if secrets.is_empty() {
        return Cow::Borrowed(text);
    }
    Cow::Owned(Secrets::exact(secrets).redact(text).into_owned())
}

/// The secrets of a shell command line: values of `NAME=VALUE` assignments
/// and `--flag=VALUE` / `--flag VALUE` arguments whose names name a secret,
/// `Bearer TOKEN` arguments, and URL secrets.
pub fn command_secrets(cmd: &str) -> Vec<String> {
    let tokens =
        shlex::split(cmd).unwrap_or_else(|| cmd.split_whitespace().map(str::to_string).collect());
    let mut out = Vec::new();
    for (k, token) in tokens.iter().enumerate() {
        let next = tokens.get(k + 1).filter(|t| !t.starts_with('-'));
        if let Some((name, value)) = token.split_once('=')
            && is_secret_name(name.trim_start_matches('-'))
            && !value.is_empty()
        {
            out.push(value.to_string());
        } else if (token.starts_with('-') && is_secret_name(token.trim_start_matches('-')))
            || token.eq_ignore_ascii_case("bearer")
            || token.eq_ignore_ascii_case("basic")
        {
            out.extend(next.cloned());
        }
        // `-H "Authorization: Bearer KEY"`: a header inside one argument.
        if let Some((name, value)) = token.split_once(':')
            && is_secret_name(name)
            && !value.trim().is_empty()
        {
            let value = value.trim();
            out.push(value.to_string());
            if let Some((_, credential)) = value.split_once(char::is_whitespace) {
                out.push(credential.trim().to_string());
            }
        }
        out.extend(url_secrets(token));
    }
    out
}

/// The command line with its secrets replaced by [`MARK`].
pub fn redact_command(cmd: &str) -> String {
    Secrets::exact(command_secrets(cmd))
        .redact(cmd)
        .into_owned()
}

/// A set of secret values to search for in free text.
#[derive(Clone, Default)]
pub struct Secrets {
    patterns: Vec<String>,
    matcher: Option<AhoCorasick>,
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the values themselves: a Debug print must not leak them.
        write!(f, "Secrets({} values)", self.patterns.len())
    }
}

impl Secrets {
    /// Searches for each value of at least four characters (and its trimmed form).
    pub fn new(values: impl IntoIterator<Item = String>) -> Secrets {
        Secrets::build(values, MIN_SECRET_CHARS)
    }

    /// Searches for every non-empty value, however short: for redacting
    /// settings whose secrets are known by structure.
    fn exact(values: impl IntoIterator<Item = String>) -> Secrets {
        Secrets::build(values, 1)
    }

    fn build(values: impl IntoIterator<Item = String>, min_chars: usize) -> Secrets {
        let mut values: Vec<String> = values
            .into_iter()
            .flat_map(|v| [v.trim().to_string(), v])
            .filter(|v| v.chars().count() >= min_chars)
            .collect();
        values.sort();
        values.dedup();
        if values.is_empty() {
            return Secrets::default();
        }
        let matcher = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .build(&values)
            .expect("literal patterns build");
        Secrets {
            patterns: values,
            matcher: Some(matcher),
        }
    }

    /// These secrets and those of the environment.
    pub fn with_environment(self, extra: impl IntoIterator<Item = String>) -> Secrets {
        let mut values = self.patterns;
        values.extend(extra);
        values.extend(environment_secrets());
        Secrets::new(values)
    }

    pub fn is_empty(&self) -> bool {
        self.matcher.is_none()
    }

    /// The text with every secret, and every `Bearer …` credential, replaced.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut out = Cow::Borrowed(text);
        if let Some(matcher) = &self.matcher
            && matcher.is_match(text)
        {
            let mut replaced = String::with_capacity(text.len());
            matcher.replace_all_with(text, &mut replaced, |_, _, dst| {
                dst.push_str(MARK);
                true
            });
            out = Cow::Owned(replaced);
        }
        if SCHEME_CREDENTIAL.is_match(&out) {
            let replaced = SCHEME_CREDENTIAL
                .replace_all(&out, |caps: &regex::Captures| {
                    if looks_like_credential(&caps[3]) {
                        format!("{}{}{MARK}", &caps[1], &caps[2])
                    } else {
                        caps[0].to_string()
                    }
                })
                .into_owned();
            out = Cow::Owned(replaced);
        }
        out
    }

    /// Every string of a JSON value redacted.
    pub fn redact_json(&self, value: &mut Value) {
        match value {
            Value::String(s) => {
                if let Cow::Owned(r) = self.redact(s) {
                    *s = r;
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| self.redact_json(v)),
            Value::Object(map) => map.values_mut().for_each(|v| self.redact_json(v)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn secret_names_are_recognized_by_their_words() {
        for name in [
            "OPENAI_API_KEY",
            "x-api-key",
            "apiKey",
            "APIKEY",
            "access_token",
            "HF_TOKEN",
            "client_secret",
            "DB_PASSWORD",
            "Authorization",
            "sig",
        ] {
            assert!(is_secret_name(name), "{name}");
        }
        for name in [
            "max_tokens",
            "api_key_env",
            "api_key_set",
            "keyboard",
            "monkey",
            "PWD",
            "top_p",
            "model",
        ] {
            assert!(!is_secret_name(name), "{name}");
        }
    }

    #[test]
    fn urls_lose_their_credentials_and_secret_query_values() {
        let url = "https://bob:pa%2Fss@api.example.com/v1?api-version=2024&api-key=Q-123456#x";
        assert_eq!(
            redact_url(url),
            "https://bob:[REDACTED]@api.example.com/v1?api-version=2024&api-key=[REDACTED]#x"
        );
        let found = url_secrets(url);
        for s in ["bob", "pa%2Fss", "pa/ss", "Q-123456"] {
            assert!(found.iter().any(|f| f == s), "{s} in {found:?}");
        }
        assert_eq!(redact_url("http://KEYONLY@h/v1"), "http://[REDACTED]@h/v1");
        assert_eq!(redact_url("http://h:8000/v1"), "http://h:8000/v1");
        assert_eq!(redact_url("not a url"), "not a url");
    }

    #[test]
    fn json_auth_fields_are_found_at_any_depth() {
        let extra = json!({
            "top_p": 1,
            "api_key": "ak-0001",
            "extra_headers": {"Authorization": "Bearer tok-0002"},
            "callbacks": ["https://u:pw-0003@h/x"],
        });
        let found = json_secrets(&extra);
        for s in ["ak-0001", "Bearer tok-0002", "tok-0002", "pw-0003"] {
            assert!(found.iter().any(|f| f == s), "{s} in {found:?}");
        }
        let shown = redact_json_fields(&extra).to_string();
        assert!(
            !["ak-0001", "tok-0002", "pw-0003"]
                .iter()
                .any(|s| shown.contains(s)),
            "{shown}"
        );
        assert!(shown.contains("\"top_p\":1"), "{shown}");
    }

    #[test]
    fn command_lines_lose_assignments_flags_and_headers() {
        let cmd = "HF_TOKEN=hf_abc123 python3 w.py --api-key sk-xyz789 --token=t0k3n \
                   -H 'Authorization: Bearer bearer-99' --model m";
        let shown = redact_command(cmd);
        for s in ["hf_abc123", "sk-xyz789", "t0k3n", "bearer-99"] {
            assert!(!shown.contains(s), "{s} in {shown}");
        }
        assert!(shown.contains("--model m"), "{shown}");
        assert_eq!(
            redact_command("python3 w.py --model m"),
            "python3 w.py --model m"
        );
    }

    #[test]
    fn free_text_loses_known_values_and_bearer_credentials() {
        let secrets = Secrets::new(["sk-live-123456".to_string(), "abc".to_string()]);
        assert_eq!(
            secrets.redact("bad key sk-live-123456; abc stays"),
            "bad key [REDACTED]; abc stays"
        );
        assert_eq!(
            secrets.redact("sent Authorization: Bearer zz-9f8e7d6c5b"),
            "sent Authorization: Bearer [REDACTED]"
        );
        assert!(matches!(
            secrets.redact("The answer is 42"),
            Cow::Borrowed(_)
        ));
        let mut value = json!({"raw": ["sk-live-123456"], "n": 1});
        secrets.redact_json(&mut value);
        assert_eq!(value, json!({"raw": ["[REDACTED]"], "n": 1}));
        assert_eq!(format!("{secrets:?}"), "Secrets(1 values)");
    }
}
