//! `openai`: any OpenAI-compatible chat-completions server (vLLM, SGLang,
//! Ollama, llama.cpp server, LM Studio, TGI, hosted APIs).
//!
//! The image goes as the suite's PNG bytes in a `data:image/png;base64,…` URL
//! inside the standard content-array user message. Calls are blocking (ureq)
//! and made from the run engine's worker threads; a shared [`Limiter`] keeps
//! at most `concurrency` calls in flight, halves that on 429 and grows it back
//! by one per window of successes. Retries use exponential backoff with
//! seeded jitter on 429, 5xx, timeouts, dropped connections and malformed or
//! empty responses; Retry-After is honoured up to `max_retry_after`. After
//! `max_consecutive_failures` connection failures in a row the run stops.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use base64::Engine;
use serde_json::{Value, json};

use crate::ir::Usage;
use crate::secrets::{self, Secrets};

use super::{Adapter, AdapterError, AdapterOptions, FailureStreak, Request, Response};

pub struct OpenAi {
    agent: ureq::Agent,
    url: String,
    base_url: String,
    /// The base URL as settings and messages show it: credentials redacted.
    shown_url: String,
    model: String,
    /// Read from the environment at build time; never serialized or logged.
    api_key: Option<String>,
    /// The `Authorization` header: the key, else the base URL's user info.
    authorization: Option<String>,
    api_key_env: String,
    secrets: Secrets,
    temperature: f64,
    max_tokens: Option<u32>,
    seed: Option<u64>,
    extra_json: Option<serde_json::Map<String, Value>>,
    concurrency: usize,
    timeout: Duration,
    retry: bool,
    max_retries: u32,
    retry_base: Duration,
    retry_max_wait: Duration,
    max_retry_after: Duration,
    max_consecutive_failures: u32,
    streak: FailureStreak,
    /// Whether the note about a capped Retry-After was printed.
    capped_noted: AtomicBool,
    limiter: Limiter,
}

impl OpenAi {
    pub fn new(opts: &AdapterOptions) -> Result<OpenAi, AdapterError> {
        let model = opts
            .model
            .clone()
            .ok_or_else(|| AdapterError::Config("the openai adapter needs --model NAME".into()))?;
        let base_url = opts.base_url.trim().trim_end_matches('/').to_string();
        if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
            return Err(AdapterError::Config(format!(
                "--base-url must start with http:// or https://, got `{}`",
                secrets::redact_url(&base_url)
            )));
        }
        let (url, basic_auth) = endpoint(&base_url);
        let extra_json = match &opts.extra_json {
            None => None,
            Some(Value::Object(map)) => Some(map.clone()),
            Some(other) => {
                return Err(AdapterError::Config(format!(
                    "--extra-json must be a JSON object, got {other}"
                )));
            }
        };
        let concurrency = opts.concurrency.max(1);
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(opts.timeout))
            .max_idle_connections(concurrency * 2)
            .max_idle_connections_per_host(concurrency * 2)
            .user_agent(format!("chartstress/{}", crate::VERSION))
            .build()
            .into();
        let api_key = std::env::var(&opts.api_key_env)
            .ok()
            .filter(|k| !k.trim().is_empty());
        let authorization = match (&api_key, basic_auth) {
            (Some(key), _) => Some(format!("Bearer {key}")),
            (None, Some(user_password)) => Some(format!(
                "Basic {}",
                base64::engine::general_purpose::STANDARD.encode(user_password)
            )),
            (None, None) => None,
        };
        Ok(OpenAi {
            agent,
            url,
            shown_url: secrets::redact_url(&base_url),
            base_url,
            model,
            api_key,
            authorization,
            api_key_env: opts.api_key_env.clone(),
            secrets: super::option_secrets(opts),
            temperature: opts.temperature,
            max_tokens: opts.max_tokens,
            seed: opts.seed,
            extra_json,
            concurrency,
            timeout: opts.timeout,
            retry: opts.retry,
            max_retries: opts.max_retries,
            retry_base: opts.retry_base,
            retry_max_wait: opts.retry_max_wait,
            max_retry_after: opts.max_retry_after,
            max_consecutive_failures: opts.max_consecutive_failures,
            streak: FailureStreak::new(opts.max_consecutive_failures),
            capped_noted: AtomicBool::new(false),
            limiter: Limiter::new(concurrency),
        })
    }

    /// The chat-completions request body for one request.
    pub fn body(&self, req: &Request) -> Value {
        let mut content = vec![json!({ "type": "text", "text": req.prompt })];
        // Text-only requests (paraphrasing, checks against the table) send no image.
        if !req.image_png.is_empty() {
            let b64 = base64::engine::general_purpose::STANDARD.encode(req.image_png.as_slice());
            content.push(json!({ "type": "image_url", "image_url": { "url": format!("data:image/png;base64,{b64}") } }));
        }
        let mut body = json!({
            "model": self.model,
            "messages": [{ "role": "user", "content": content }],
            "temperature": self.temperature,
        });
        let map = body.as_object_mut().expect("object");
        if let Some(max_tokens) = self.max_tokens {
            map.insert("max_tokens".into(), json!(max_tokens));
        }
        if let Some(seed) = self.seed {
            map.insert("seed".into(), json!(seed));
        }
        if let Some(extra) = &self.extra_json {
            for (k, v) in extra {
                map.insert(k.clone(), v.clone());
            }
        }
        body
    }

    fn call_once(&self, body: &[u8]) -> Result<Response, Failure> {
        let mut request = self
            .agent
            .post(&self.url)
            .header("Content-Type", "application/json");
        if let Some(authorization) = &self.authorization {
            request = request.header("Authorization", authorization);
        }
        let mut response = request.send(body).map_err(Failure::from_ureq)?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(parse_retry_after);
        let text = response
            .body_mut()
            .with_config()
            .limit(64 * 1024 * 1024)
            .read_to_string()
            .map_err(Failure::from_ureq)?;
        // Before anything cuts it: a server may echo the key, and a cut key
        // would no longer be found.
        let text = self.secrets.redact(&text).into_owned();
        if status != 200 {
            return Err(Failure::Status {
                status,
                body: truncate(&text, 300),
                retry_after,
            });
        }
        let response = parse_completion(&text).map_err(Failure::Malformed)?;
        if response.is_empty_reply() {
            return Err(Failure::Empty);
        }
        Ok(response)
    }

    /// How long to wait before the next attempt: the backoff, or longer when
    /// the server asked for it, up to `max_retry_after`.
    fn retry_wait(&self, item_id: &str, attempt: u32, failure: &Failure) -> Duration {
        let wait = super::backoff(item_id, attempt, self.retry_base, self.retry_max_wait);
        let Failure::Status {
            retry_after: Some(after),
            ..
        } = failure
        else {
            return wait;
        };
        if *after > self.max_retry_after && !self.capped_noted.swap(true, Ordering::Relaxed) {
            let secs = |d: Duration| (d.as_secs_f64() * 10.0).round() / 10.0;
            eprintln!(
                "note: {} asked to wait {} s (Retry-After); waiting at most {} s \
                 (--max-retry-after)",
                self.shown_url,
                secs(*after),
                secs(self.max_retry_after)
            );
        }
        wait.max((*after).min(self.max_retry_after))
    }
}

impl Adapter for OpenAi {
    fn name(&self) -> &str {
        "openai"
    }

    fn cache_key(&self) -> String {
        json!({
            "adapter": "openai",
            "base_url": self.base_url,
            "model": self.model,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
            "extra_json": self.extra_json,
        })
        .to_string()
    }

    fn settings(&self) -> Value {
        json!({
            "adapter": "openai",
            "base_url": self.shown_url,
            "model": self.model,
            "api_key_env": self.api_key_env,
            "api_key_set": self.api_key.is_some(),
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
            "extra_json": self.extra_json.clone().map(|m| secrets::redact_json_fields(&Value::Object(m))),
            "concurrency": self.concurrency,
            "timeout_secs": self.timeout.as_secs_f64(),
            "retry": self.retry,
            "max_retries": self.max_retries,
            "max_retry_after_secs": self.max_retry_after.as_secs_f64(),
            "max_consecutive_failures": self.max_consecutive_failures,
        })
    }

    fn concurrency(&self) -> usize {
        self.concurrency
    }

    fn secrets(&self) -> Secrets {
        self.secrets.clone()
    }

    fn answer(&self, req: &Request) -> Result<Response, AdapterError> {
        let body = serde_json::to_vec(&self.body(req)).expect("body serializes");
        let max_attempts = if self.retry { 1 + self.max_retries } else { 1 };
        let mut attempt = 0;
        loop {
            attempt += 1;
            let permit = self.limiter.acquire();
            // Checked after the wait for a permit, which may have outlasted the stop.
            if let Some(stop) = self.streak.stopped() {
                permit.release(false, false);
                return Err(AdapterError::Unreachable(stop));
            }
            let outcome = self.call_once(&body);
            let rate_limited = matches!(outcome, Err(Failure::Status { status: 429, .. }));
            permit.release(outcome.is_ok(), rate_limited);
            let failure = match outcome {
                Ok(mut response) => {
                    self.streak.reply();
                    response.attempts = attempt;
                    return Ok(response);
                }
                Err(f) => f,
            };
            let unreachable = match &failure {
                Failure::Timeout(m) => Some(format!("timed out ({m})")),
                Failure::Transport(m) => Some(m.clone()),
                _ => None,
            };
            if let Some(reason) = unreachable {
                let stop = self.streak.failure(|count| {
                    format!(
                        "stopped after {count} consecutive connection failures to {}: {reason}",
                        self.shown_url
                    )
                });
                if let Some(stop) = stop {
                    return Err(AdapterError::Unreachable(stop));
                }
            } else if !matches!(failure, Failure::Fatal(_)) {
                // Anything else came from the server: it is reachable.
                self.streak.reply();
            }
            if !failure.retryable() || attempt >= max_attempts {
                return Err(failure.into_error(attempt));
            }
            let wait = self.retry_wait(&req.item_id, attempt, &failure);
            if let Some(stop) = self.streak.sleep(wait) {
                return Err(AdapterError::Unreachable(stop));
            }
        }
    }
}

/// One failed call, before deciding whether to retry.
#[derive(Debug)]
enum Failure {
    Status {
        status: u16,
        body: String,
        retry_after: Option<Duration>,
    },
    Timeout(String),
    Transport(String),
    Malformed(String),
    /// A reply with no content (and no reasoning) at all.
    Empty,
    Fatal(String),
}

impl Failure {
    fn from_ureq(err: ureq::Error) -> Failure {
        match err {
            ureq::Error::Timeout(t) => Failure::Timeout(format!("{t:?}")),
            ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::TimedOut => {
                Failure::Timeout(e.to_string())
            }
            ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
                Failure::Transport("connection refused".into())
            }
            ureq::Error::HostNotFound => Failure::Transport("host not found".into()),
            ureq::Error::Io(_) | ureq::Error::ConnectionFailed | ureq::Error::Protocol(_) => {
                Failure::Transport(err.to_string())
            }
            ureq::Error::BadUri(_) | ureq::Error::Http(_) | ureq::Error::InvalidProxyUrl => {
                Failure::Fatal(err.to_string())
            }
            other => Failure::Transport(other.to_string()),
        }
    }

    fn retryable(&self) -> bool {
        match self {
            Failure::Status { status, .. } => *status == 429 || *status == 408 || *status >= 500,
            Failure::Timeout(_)
            | Failure::Transport(_)
            | Failure::Malformed(_)
            | Failure::Empty => true,
            Failure::Fatal(_) => false,
        }
    }

    fn into_error(self, attempts: u32) -> AdapterError {
        match self {
            Failure::Status { status, body, .. } => AdapterError::Http {
                status,
                body,
                attempts,
            },
            Failure::Timeout(message) => AdapterError::Timeout { message, attempts },
            Failure::Transport(message) => AdapterError::Transport { message, attempts },
            Failure::Malformed(message) => AdapterError::Protocol { message, attempts },
            Failure::Empty => AdapterError::EmptyReply { attempts },
            Failure::Fatal(message) => AdapterError::Config(message),
        }
    }
}

/// The chat-completions URL of a base URL (its query kept after the path,
/// its user info taken out) and the decoded `user:password` of that user info.
fn endpoint(base_url: &str) -> (String, Option<String>) {
    let Some(parts) = secrets::url_parts(base_url) else {
        return (format!("{base_url}/chat/completions"), None);
    };
    let path = parts.rest.trim_end_matches('/');
    let mut url = format!("{}{path}", parts.head);
    if !path.ends_with("/chat/completions") {
        url.push_str("/chat/completions");
    }
    if let Some(query) = parts.query {
        url.push('?');
        url.push_str(query);
    }
    let user_password = parts.userinfo.map(|info| {
        let (user, password) = info.split_once(':').unwrap_or((info, ""));
        format!(
            "{}:{}",
            secrets::percent_decoded(user),
            secrets::percent_decoded(password)
        )
    });
    (url, user_password)
}

/// Seconds (`"3"`, `"1.5"`) or an HTTP date.
fn parse_retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs));
    }
    let date = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let delta = date.with_timezone(&chrono::Utc) - chrono::Utc::now();
    Some(delta.to_std().unwrap_or(Duration::ZERO))
}

fn truncate(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// Text of a content value that is a string, null, or an array of parts.
fn content_text(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) => Some(s.clone()),
        Value::Array(parts) => {
            let texts: Vec<&str> = parts
                .iter()
                .filter_map(|p| match p {
                    Value::String(s) => Some(s.as_str()),
                    Value::Object(o) => o.get("text").and_then(Value::as_str),
                    _ => None,
                })
                .collect();
            (!texts.is_empty()).then(|| texts.join(""))
        }
        _ => None,
    }
}

/// Parses a chat-completions response body into the raw answer text. Separate
/// reasoning fields (`reasoning_content`, `reasoning`) are kept in front of the
/// content inside `<think>…</think>` so extraction sees the same shape as
/// inline reasoning.
pub fn parse_completion(body: &str) -> Result<Response, String> {
    let value: Value = serde_json::from_str(body)
        .map_err(|e| format!("not JSON ({e}): {}", truncate(body, 120)))?;
    if let Some(err) = value.get("error") {
        return Err(format!("server error object: {err}"));
    }
    let message = value
        .get("choices")
        .and_then(|c| c.get(0))
        .and_then(|c| c.get("message"))
        .ok_or_else(|| format!("no choices[0].message: {}", truncate(body, 120)))?;
    let content =
        content_text(message.get("content")).or_else(|| content_text(message.get("refusal")));
    let reasoning = content_text(message.get("reasoning_content"))
        .or_else(|| content_text(message.get("reasoning")));
    // Null content without reasoning gives "": an empty reply, retried by the caller.
    let text = match (reasoning, content) {
        (Some(r), Some(c)) if !r.trim().is_empty() => format!("<think>{r}</think>\n{c}"),
        (_, Some(c)) => c,
        (Some(r), None) if !r.trim().is_empty() => format!("<think>{r}</think>"),
        _ => String::new(),
    };
    let usage = value.get("usage").map(|u| Usage {
        prompt_tokens: u.get("prompt_tokens").and_then(Value::as_u64).unwrap_or(0),
        completion_tokens: u
            .get("completion_tokens")
            .and_then(Value::as_u64)
            .unwrap_or(0),
    });
    Ok(Response {
        text,
        usage,
        attempts: 1,
        answer: None,
    })
}

/// Additive-increase / multiplicative-decrease gate on calls in flight.
struct Limiter {
    max: usize,
    state: Mutex<LimiterState>,
    changed: Condvar,
}

struct LimiterState {
    limit: usize,
    in_flight: usize,
    successes: usize,
}

struct Permit<'a> {
    limiter: &'a Limiter,
}

impl Limiter {
    fn new(max: usize) -> Limiter {
        Limiter {
            max,
            state: Mutex::new(LimiterState {
                limit: max,
                in_flight: 0,
                successes: 0,
            }),
            changed: Condvar::new(),
        }
    }

    fn acquire(&self) -> Permit<'_> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while state.in_flight >= state.limit {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state.in_flight += 1;
        Permit { limiter: self }
    }
}

impl Permit<'_> {
    fn release(self, success: bool, rate_limited: bool) {
        let limiter = self.limiter;
        let mut state = limiter.state.lock().unwrap_or_else(|e| e.into_inner());
        state.in_flight -= 1;
        if rate_limited {
            state.limit = (state.limit / 2).max(1);
            state.successes = 0;
        } else if success && state.limit < limiter.max {
            state.successes += 1;
            if state.successes >= state.limit {
                state.limit += 1;
                state.successes = 0;
            }
        }
        drop(state);
        limiter.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_keep_the_query_and_take_out_the_user_info() {
        assert_eq!(
            endpoint("http://h:8000/v1"),
            ("http://h:8000/v1/chat/completions".into(), None)
        );
        assert_eq!(
            endpoint("https://h/openai/deployments/d?api-version=2024-06-01"),
            (
                "https://h/openai/deployments/d/chat/completions?api-version=2024-06-01".into(),
                None
            )
        );
        assert_eq!(
            endpoint("http://al%40x:p%3Aw@h/v1/chat/completions"),
            (
                "http://h/v1/chat/completions".into(),
                Some("al@x:p:w".into())
            )
        );
    }

    #[test]
    fn content_shapes_are_handled() {
        let plain = r#"{"choices":[{"message":{"content":"42"}}],"usage":{"prompt_tokens":5,"completion_tokens":1}}"#;
        let r = parse_completion(plain).unwrap();
        assert_eq!(r.text, "42");
        assert_eq!(r.usage.unwrap().prompt_tokens, 5);
        let parts = r#"{"choices":[{"message":{"content":[{"type":"text","text":"4"},{"type":"text","text":"2"}]}}]}"#;
        assert_eq!(parse_completion(parts).unwrap().text, "42");
        let reasoning = r#"{"choices":[{"message":{"content":"42","reasoning_content":"think"}}]}"#;
        assert_eq!(
            parse_completion(reasoning).unwrap().text,
            "<think>think</think>\n42"
        );
        let null = r#"{"choices":[{"message":{"content":null}}]}"#;
        assert!(parse_completion(null).unwrap().is_empty_reply());
        let blank = r#"{"choices":[{"message":{"content":" \n "}}]}"#;
        assert!(parse_completion(blank).unwrap().is_empty_reply());
        assert!(parse_completion("{not json").is_err());
    }

    #[test]
    fn retry_after_forms() {
        assert_eq!(parse_retry_after("2"), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after("0.5"), Some(Duration::from_millis(500)));
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("soon"), None);
    }

    #[test]
    fn retry_after_is_kept_up_to_its_cap_not_the_backoff_cap() {
        let opts = AdapterOptions {
            model: Some("m".into()),
            retry_base: Duration::from_millis(1),
            ..AdapterOptions::default()
        };
        let adapter = OpenAi::new(&opts).unwrap();
        let asked = |secs: u64| Failure::Status {
            status: 429,
            body: String::new(),
            retry_after: Some(Duration::from_secs(secs)),
        };
        // 120 s is over the 60 s backoff cap but under the default 300 s.
        assert_eq!(
            adapter.retry_wait("x", 1, &asked(120)),
            Duration::from_secs(120)
        );
        assert_eq!(
            adapter.retry_wait("x", 1, &asked(3600)),
            Duration::from_secs(300)
        );
        assert!(adapter.retry_wait("x", 1, &Failure::Empty) < Duration::from_millis(2));
    }

    #[test]
    fn limiter_halves_on_rate_limit_and_recovers() {
        let limiter = Limiter::new(8);
        limiter.acquire().release(false, true);
        assert_eq!(limiter.state.lock().unwrap().limit, 4);
        for _ in 0..4 {
            limiter.acquire().release(true, false);
        }
        assert_eq!(limiter.state.lock().unwrap().limit, 5);
    }
}
