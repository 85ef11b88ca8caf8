//! An exclusive lock on a run folder, so two `chartstress run` processes
//! never append to (or repair, or rewrite) the same `predictions.jsonl`.
//!
//! The lock is an OS file lock (`flock` on `RUN/run.lock`), not a pid file:
//! the kernel releases it when the holder exits in any way, `kill -9`
//! included, so a crashed run never leaves a stale lock behind. The holder
//! writes its pid into the file only so that a refused run can name it.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use super::RunError;

pub const LOCK_FILE: &str = "run.lock";

/// Held for the whole run; dropping it (or the process dying) releases the lock.
#[derive(Debug)]
pub struct RunLock {
    _file: File,
}

/// Takes the lock on `run_dir` or fails at once, naming the holder's pid.
pub fn acquire(run_dir: &Path) -> Result<RunLock, RunError> {
    let path = run_dir.join(LOCK_FILE);
    // Never truncated on open: the holder's pid must stay readable.
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| RunError::io(&path, e))?;
    // Called through the trait: std's `File::try_lock` is newer than this crate's MSRV.
    match fs4::FileExt::try_lock(&file) {
        Ok(()) => {
            let pid = format!("{}\n", std::process::id());
            file.set_len(0)
                .and_then(|_| file.seek(SeekFrom::Start(0)))
                .and_then(|_| file.write_all(pid.as_bytes()))
                .and_then(|_| file.flush())
                .map_err(|e| RunError::io(&path, e))?;
            Ok(RunLock { _file: file })
        }
        Err(fs4::TryLockError::WouldBlock) => Err(RunError::Locked {
            run_dir: run_dir.display().to_string(),
            pid: holder_pid(&mut file),
        }),
        Err(fs4::TryLockError::Error(e)) => Err(RunError::io(&path, e)),
    }
}

/// The pid the holder wrote; it may be a moment away when the holder has
/// only just taken the lock.
fn holder_pid(file: &mut File) -> Option<u32> {
    let deadline = Instant::now() + Duration::from_millis(500);
    loop {
        let mut text = String::new();
        let read = file
            .seek(SeekFrom::Start(0))
            .and_then(|_| file.read_to_string(&mut text));
        if read.is_ok()
            && let Ok(pid) = text.trim().parse()
        {
            return Some(pid);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_with_the_pid_and_released_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        let held = acquire(dir.path()).unwrap();
        // flock locks belong to the open file, so a second open in the same
        // process conflicts just as another process would.
        let err = acquire(dir.path()).unwrap_err();
        match &err {
            RunError::Locked { pid, .. } => assert_eq!(*pid, Some(std::process::id())),
            other => panic!("{other}"),
        }
        assert!(err.to_string().contains(&std::process::id().to_string()));
        drop(held);
        acquire(dir.path()).unwrap();
    }
}
