//! `command`: a user program speaking JSON lines. It is started once per
//! worker (`--workers N`) with `sh -c CMD`, reads one request object per line
//! on stdin and writes one response object per line on stdout (the protocol
//! is documented in docs/models.md, "The command protocol"). A worker that exits or stops
//! answering within the timeout is killed and restarted, and the item is
//! retried; each worker's stderr is appended to `RUN/worker-K.stderr.log`.
//!
//! Workers die with the run: each runs in its own process group beside a
//! watchdog (see [`spawn_watchdog`]) that kills the whole group as soon as
//! chartstress lets go of it, also when chartstress is killed with `kill -9`.

use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStderr, ChildStdin, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use base64::Engine;
use serde::{Deserialize, Serialize};

use crate::ir::{Turn, Usage};
use crate::secrets::{self, Secrets};

use super::{Adapter, AdapterError, AdapterOptions, Request, Response, RunContext};

/// One request line written to the program's stdin.
#[derive(Debug, Serialize, Deserialize)]
pub struct WireRequest {
    pub id: String,
    pub question: String,
    pub prompt: String,
    pub question_type: String,
    pub history: Vec<Turn>,
    pub paragraph: Option<String>,
    pub choices: Vec<String>,
    /// The suite's PNG bytes, base64 (standard alphabet, padded).
    pub image_png_base64: String,
}

/// One response line read from the program's stdout.
#[derive(Debug, Serialize, Deserialize)]
pub struct WireResponse {
    pub id: String,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub usage: Option<Usage>,
    /// The final answer, when the program extracts it itself (skips extraction).
    #[serde(default)]
    pub answer: Option<String>,
    /// Set when the program could not answer this item.
    #[serde(default)]
    pub error: Option<String>,
}

pub struct Command {
    cmd: String,
    /// The command line as settings and messages show it: secrets redacted.
    shown_cmd: String,
    secrets: Secrets,
    workers: usize,
    timeout: Duration,
    max_retries: u32,
    log_dir: OnceLock<PathBuf>,
    idle: Mutex<Vec<(usize, Option<Worker>)>>,
    returned: Condvar,
    /// Whether any worker ever answered; until then repeated deaths mean the
    /// command is broken rather than one item being hard.
    answered_any: AtomicBool,
    early_deaths: AtomicU32,
}

struct Worker {
    child: Child,
    /// The process group of the program and its watchdog.
    group: u32,
    stdin: Option<ChildStdin>,
    lines: Receiver<std::io::Result<String>>,
    /// The watchdog process and the pipe that keeps it waiting.
    watchdog: Option<(Child, Option<ChildStdin>)>,
}

impl Drop for Worker {
    fn drop(&mut self) {
        // Closing stdin asks a well-behaved program to exit; kill the rest.
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_millis(500);
        let mut exited = false;
        while !exited && Instant::now() < deadline {
            exited = matches!(self.child.try_wait(), Ok(Some(_)));
            if !exited {
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        if !exited {
            kill_group(self.group, &mut self.child);
        }
        // Releasing the watchdog kills what the program left behind in its group.
        if let Some((mut watchdog, pipe)) = self.watchdog.take() {
            drop(pipe);
            let _ = watchdog.wait();
        }
    }
}

/// Starts `sh` in a process group of its own, blocked reading a pipe whose
/// only writer is this process; the worker is then started in that group. When the pipe closes — the worker is
/// dropped, or chartstress exits or is killed, even with `kill -9` — the
/// read ends and the watchdog kills the whole group, so neither the program
/// nor anything it started (a `sh -c` wrapper's children, a model server it
/// forked) outlives the run, whether or not it reads its stdin.
///
/// A parent-death signal (`PR_SET_PDEATHSIG`) would not do: it fires when
/// the spawning *thread* exits, and workers are restarted from the run's
/// worker threads, which end before the run does; it also reaches only the
/// direct child, not what a `sh -c` wrapper forks.
///
/// The watchdog starts first: a worker started before it could fork and be
/// orphaned by a run killed in between, with no watchdog yet to kill them.
#[cfg(unix)]
fn spawn_watchdog() -> std::io::Result<(Child, Option<ChildStdin>)> {
    let mut command = std::process::Command::new("sh");
    command.arg("-c").arg("read -r line; kill -9 0");
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    // Rust opens the parent's end of the pipe close-on-exec, so no worker
    // started later inherits it and keeps another worker's watchdog waiting.
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()?;
    let pipe = child.stdin.take();
    Ok((child, pipe))
}

enum Outcome {
    Answered(WireResponse),
    /// The worker is unusable (exited, timed out, wrote garbage) and must be replaced.
    Broken(AdapterError),
}

impl Command {
    pub fn new(opts: &AdapterOptions) -> Result<Command, AdapterError> {
        let cmd = opts
            .cmd
            .clone()
            .filter(|c| !c.trim().is_empty())
            .ok_or_else(|| {
                AdapterError::Config("the command adapter needs --cmd \"PROGRAM ARGS\"".into())
            })?;
        let workers = opts.workers.max(1);
        Ok(Command {
            shown_cmd: secrets::redact_command(&cmd),
            secrets: super::option_secrets(opts),
            cmd,
            workers,
            timeout: opts.timeout,
            max_retries: if opts.retry { opts.max_retries } else { 0 },
            log_dir: OnceLock::new(),
            idle: Mutex::new((0..workers).rev().map(|k| (k, None)).collect()),
            returned: Condvar::new(),
            answered_any: AtomicBool::new(false),
            early_deaths: AtomicU32::new(0),
        })
    }

    fn spawn(&self, index: usize) -> Result<Worker, AdapterError> {
        let log: Box<dyn Write + Send> = match self.log_dir.get() {
            Some(dir) => {
                let path = dir.join(format!("worker-{index}.stderr.log"));
                let file = OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&path)
                    .map_err(|e| {
                        AdapterError::Config(format!("cannot open {}: {e}", path.display()))
                    })?;
                Box::new(file)
            }
            None => Box::new(std::io::stderr()),
        };
        #[cfg(unix)]
        let watchdog = spawn_watchdog().map_err(|e| {
            AdapterError::Config(format!(
                "cannot start the watchdog of `{}`: {e}",
                self.shown_cmd
            ))
        })?;
        let mut command = std::process::Command::new("sh");
        command.arg("-c").arg(&self.cmd);
        #[cfg(unix)]
        let group = watchdog.0.id();
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, group as i32);
        let spawned = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn();
        let mut child = match spawned {
            Ok(child) => child,
            Err(e) => {
                // Closing its pipe ends the watchdog (and its group).
                #[cfg(unix)]
                {
                    let (mut dog, pipe) = watchdog;
                    drop(pipe);
                    let _ = dog.wait();
                }
                return Err(AdapterError::Config(format!(
                    "cannot start `{}`: {e}",
                    self.shown_cmd
                )));
            }
        };
        #[cfg(not(unix))]
        let group = child.id();
        #[cfg(unix)]
        let watchdog = Some(watchdog);
        #[cfg(not(unix))]
        let watchdog = None;
        copy_redacted(
            child.stderr.take().expect("piped stderr"),
            log,
            self.secrets.clone(),
        );
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let failed = line.is_err();
                if tx.send(line).is_err() || failed {
                    return;
                }
            }
        });
        Ok(Worker {
            stdin: child.stdin.take(),
            child,
            group,
            lines: rx,
            watchdog,
        })
    }

    fn take_worker(&self) -> (usize, Option<Worker>) {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(slot) = idle.pop() {
                return slot;
            }
            idle = self.returned.wait(idle).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn put_worker(&self, index: usize, worker: Option<Worker>) {
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((index, worker));
        self.returned.notify_one();
    }

    fn exchange(&self, worker: &mut Worker, line: &str, id: &str, attempt: u32) -> Outcome {
        let broken = |message: String| {
            Outcome::Broken(AdapterError::Worker {
                message,
                attempts: attempt,
            })
        };
        let Some(stdin) = worker.stdin.as_mut() else {
            return broken("stdin closed".into());
        };
        if let Err(e) = stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush())
        {
            return broken(format!(
                "cannot write the request: {e}{}",
                exit_note(worker)
            ));
        }
        let deadline = Instant::now() + self.timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match worker.lines.recv_timeout(left) {
                Ok(Ok(out)) => {
                    let out = out.trim();
                    // Only JSON objects are responses; other stdout chatter is skipped.
                    if !out.starts_with('{') {
                        continue;
                    }
                    return match serde_json::from_str::<WireResponse>(out) {
                        Ok(resp) if resp.id == id => Outcome::Answered(resp),
                        Ok(resp) => broken(format!(
                            "answered id {} while {id} was asked (one request at a time, in order)",
                            resp.id
                        )),
                        Err(e) => broken(format!("malformed response line ({e}): {out}")),
                    };
                }
                Ok(Err(e)) => return broken(format!("cannot read stdout: {e}")),
                Err(RecvTimeoutError::Timeout) => {
                    return Outcome::Broken(AdapterError::Timeout {
                        message: format!("no answer within {:?}", self.timeout),
                        attempts: attempt,
                    });
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return broken(format!("the program exited{}", exit_note(worker)));
                }
            }
        }
    }
}

/// Kills the worker and anything it started (it runs in its own process group,
/// so a `sh -c` wrapper does not leave its model process behind).
/// Copies a worker's stderr to its log line by line with secrets removed: a
/// program that prints its environment or its request headers leaks nothing.
fn copy_redacted(stderr: ChildStderr, mut log: Box<dyn Write + Send>, secrets: Secrets) {
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).split(b'\n') {
            let Ok(line) = line else { return };
            let text = String::from_utf8_lossy(&line);
            let mut text = secrets.redact(&text).into_owned();
            text.push('\n');
            if log
                .write_all(text.as_bytes())
                .and_then(|_| log.flush())
                .is_err()
            {
                return;
            }
        }
    });
}

fn kill_group(group: u32, child: &mut Child) {
    #[cfg(unix)]
    {
        let _ = std::process::Command::new("kill")
            .arg("-KILL")
            .arg(format!("-{group}"))
            .stderr(Stdio::null())
            .status();
    }
    let _ = child.kill();
    let _ = child.wait();
}

fn exit_note(worker: &mut Worker) -> String {
    // Give a crashing process a moment to be reaped so its status is known.
    for _ in 0..50 {
        if let Ok(Some(status)) = worker.child.try_wait() {
            return format!(" ({status})");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    String::new()
}

impl Adapter for Command {
    fn name(&self) -> &str {
        "command"
    }

    fn cache_key(&self) -> String {
        format!("command: {}", self.cmd)
    }

    fn settings(&self) -> serde_json::Value {
        serde_json::json!({
            "adapter": "command",
            "cmd": self.shown_cmd,
            "workers": self.workers,
            "timeout_secs": self.timeout.as_secs_f64(),
            "max_retries": self.max_retries,
        })
    }

    fn concurrency(&self) -> usize {
        self.workers
    }

    fn secrets(&self) -> Secrets {
        self.secrets.clone()
    }

    fn start(&self, ctx: &RunContext) -> Result<(), AdapterError> {
        let _ = self.log_dir.set(ctx.run_dir.clone());
        // Start every worker now so slow model loading overlaps.
        let slots: Vec<_> = (0..self.workers).map(|_| self.take_worker()).collect();
        let mut first_error = None;
        for (index, worker) in slots {
            let worker = match worker {
                Some(w) => Some(w),
                None => match self.spawn(index) {
                    Ok(w) => Some(w),
                    Err(e) => {
                        first_error.get_or_insert(e);
                        None
                    }
                },
            };
            self.put_worker(index, worker);
        }
        first_error.map_or(Ok(()), Err)
    }

    fn answer(&self, req: &Request) -> Result<Response, AdapterError> {
        let wire = WireRequest {
            id: req.item_id.clone(),
            question: req.question.clone(),
            prompt: req.prompt.clone(),
            question_type: req.question_type.name().to_string(),
            history: req.history.clone(),
            paragraph: req.paragraph.clone(),
            choices: req.choices.clone(),
            image_png_base64: base64::engine::general_purpose::STANDARD
                .encode(req.image_png.as_slice()),
        };
        let line = serde_json::to_string(&wire).expect("request serializes");
        let mut attempt = 0;
        loop {
            attempt += 1;
            let (index, worker) = self.take_worker();
            let mut worker = match worker {
                Some(w) => w,
                None => match self.spawn(index) {
                    Ok(w) => w,
                    Err(e) => {
                        self.put_worker(index, None);
                        return Err(e);
                    }
                },
            };
            match self.exchange(&mut worker, &line, &req.item_id, attempt) {
                Outcome::Answered(resp) => {
                    self.answered_any.store(true, Ordering::Relaxed);
                    self.put_worker(index, Some(worker));
                    if let Some(error) = resp.error {
                        return Err(AdapterError::Model(error));
                    }
                    let blank =
                        |s: &Option<String>| s.as_deref().is_none_or(|t| t.trim().is_empty());
                    // No answer at all: retried like a failed call, never stored as "".
                    if blank(&resp.text) && blank(&resp.answer) {
                        if attempt > self.max_retries {
                            return Err(AdapterError::EmptyReply { attempts: attempt });
                        }
                        continue;
                    }
                    return Ok(Response {
                        text: resp.text.unwrap_or_default(),
                        usage: resp.usage,
                        attempts: attempt,
                        answer: resp.answer,
                    });
                }
                Outcome::Broken(err) => {
                    let status = worker.child.try_wait().ok().flatten();
                    drop(worker);
                    self.put_worker(index, None);
                    // sh's "not found" / "not executable": no retry will help.
                    if let Some(code @ (126 | 127)) = status.and_then(|s| s.code()) {
                        return Err(AdapterError::Config(format!(
                            "`{}` could not be run (exit status {code}); see worker-{index}.stderr.log",
                            self.shown_cmd
                        )));
                    }
                    if !self.answered_any.load(Ordering::Relaxed) {
                        let deaths = self.early_deaths.fetch_add(1, Ordering::Relaxed) + 1;
                        if deaths > self.max_retries + self.workers as u32 {
                            return Err(AdapterError::Config(format!(
                                "`{}` failed {deaths} times without answering any request ({err}); \
                                 see the worker-K.stderr.log files",
                                self.shown_cmd
                            )));
                        }
                    }
                    if attempt > self.max_retries {
                        return Err(err);
                    }
                }
            }
        }
    }
}
