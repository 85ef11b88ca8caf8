//! Program-of-thought execution: runs the model's Python program in a
//! `python3` subprocess with a timeout and takes the last printed line as the
//! answer. Only done when the user opts in (`--execute-pot`): the code comes
//! from a model and is run with the user's permissions.

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::LazyLock;
use std::time::{Duration, Instant};

use regex::Regex;

static CODE_BLOCK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?s)```(?:python|py)?[ \t]*\r?\n(.*?)```").expect("code block regex")
});

/// The program in a model reply: the first fenced code block, or the whole
/// reply (reasoning removed) when there is no fence.
pub fn program(raw: &str) -> String {
    let text = crate::extract::strip_reasoning(raw);
    match CODE_BLOCK.captures(&text) {
        Some(c) => c[1].to_string(),
        None => text,
    }
}

/// Runs the program of a reply; `Ok(last printed line)` or `Err(why)`.
pub fn execute(raw: &str, timeout: Duration) -> Result<String, String> {
    let code = program(raw);
    let dir = tempfile::tempdir().map_err(|e| format!("temp dir: {e}"))?;
    let path = dir.path().join("program.py");
    std::fs::write(&path, code).map_err(|e| format!("write program: {e}"))?;
    let mut child = Command::new("python3")
        .arg("-I")
        .arg(&path)
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start python3: {e}"))?;
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("program ran longer than {timeout:?}"));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("wait: {e}")),
        }
    };
    let out = out_reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    if !status.success() {
        let last = err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        return Err(format!("program failed ({status}): {last}"));
    }
    out.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .map(|l| l.trim().to_string())
        .ok_or_else(|| "program printed nothing".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_the_fenced_program() {
        let raw = "Here:\n```python\na = 3\nb = 4\nprint(a * b)\n```\n";
        assert_eq!(execute(raw, Duration::from_secs(20)).unwrap(), "12");
    }

    #[test]
    fn failing_and_endless_programs_are_errors() {
        assert!(
            execute(
                "```python\nraise SystemExit(3)\n```",
                Duration::from_secs(20)
            )
            .is_err()
        );
        let endless = "```python\nwhile True:\n    pass\n```";
        assert!(
            execute(endless, Duration::from_millis(300))
                .unwrap_err()
                .contains("longer")
        );
    }
}
