//! Content-addressed response cache. The key is blake3 over everything that
//! changes a response — tool version, the adapter's `cache_key` (model, base
//! URL, generation parameters, command line), the prompt text, the question
//! parts sent beside it, and the image bytes' hash — and nothing that does
//! not (concurrency, timeouts, retries, run name). Entries are one JSON file
//! each, `DIR/ab/abcdef….json`, written atomically; errors are never cached.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::adapter::{Adapter, Request, Response};

use super::RunError;

/// Environment variable naming the cache folder.
pub const CACHE_ENV: &str = "CHARTSTRESS_CACHE";

/// `explicit`, else `$CHARTSTRESS_CACHE`, else `SUITE/cache`.
pub fn cache_dir(suite: &Path, explicit: Option<&Path>) -> PathBuf {
    if let Some(dir) = explicit {
        return dir.to_path_buf();
    }
    match std::env::var_os(CACHE_ENV) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => suite.join("cache"),
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Entry {
    pub response: Response,
    pub latency_ms: f64,
}

pub struct Cache {
    dir: PathBuf,
}

/// The cache key of one request (hex).
pub fn key(adapter: &dyn Adapter, req: &Request) -> String {
    let image_hash = blake3::hash(req.image_png.as_slice()).to_hex().to_string();
    let material = serde_json::json!([
        crate::VERSION,
        adapter.cache_key(),
        req.prompt,
        req.question,
        req.question_type.name(),
        req.history,
        req.paragraph,
        req.choices,
        image_hash,
    ]);
    blake3::hash(material.to_string().as_bytes())
        .to_hex()
        .to_string()
}

impl Cache {
    pub fn open(dir: &Path) -> Result<Cache, RunError> {
        std::fs::create_dir_all(dir).map_err(|e| RunError::io(dir, e))?;
        Ok(Cache {
            dir: dir.to_path_buf(),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(&key[..2]).join(format!("{key}.json"))
    }

    /// A stored entry; unreadable entries count as misses.
    pub fn get(&self, key: &str) -> Option<Entry> {
        let text = std::fs::read_to_string(self.path(key)).ok()?;
        serde_json::from_str(&text).ok()
    }

    pub fn put(&self, key: &str, response: &Response, latency_ms: f64) -> std::io::Result<()> {
        let path = self.path(key);
        let dir = path.parent().expect("entry has a parent");
        std::fs::create_dir_all(dir)?;
        let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
        let entry = Entry {
            response: response.clone(),
            latency_ms,
        };
        tmp.write_all(&serde_json::to_vec(&entry).expect("entry serializes"))?;
        tmp.persist(&path).map_err(|e| e.error)?;
        Ok(())
    }
}
