//! Reading and writing suite files: JSON-lines readers that name the file and
//! line of a bad record, composition counts, the fingerprint and the manifest.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use super::SuiteError;
use crate::ir::suite::{CHARTS_FILE, ITEMS_FILE, SUITE_MANIFEST};
use crate::ir::{ChartRecord, Item, SuiteManifest};

pub(crate) fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> SuiteError + '_ {
    move |source| SuiteError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Rewrites the non-blank lines of a JSON-lines file in place: `edit` gets
/// each line's index and text and returns its replacement, or None to keep
/// it. The file is replaced only once every line is written.
pub(crate) fn rewrite_lines(
    path: &Path,
    mut edit: impl FnMut(usize, &str) -> Result<Option<String>, SuiteError>,
) -> Result<(), SuiteError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let mut out = LineWriter::create(&tmp)?;
    let file = File::open(path).map_err(io_err(path))?;
    let raws = BufReader::new(file)
        .lines()
        .filter(|l| l.as_ref().map_or(true, |l| !l.trim().is_empty()));
    for (line, raw) in raws.enumerate() {
        let raw = raw.map_err(io_err(path))?;
        match edit(line, &raw)? {
            None => out.write_line(&raw)?,
            Some(new) => out.write_line(&new)?,
        }
    }
    out.finish()?;
    std::fs::rename(&tmp, path).map_err(io_err(path))
}

/// Streams the records of a JSON-lines file; each error names file and line.
pub struct JsonLines<T> {
    path: PathBuf,
    lines: std::io::Lines<BufReader<File>>,
    line: usize,
    _record: PhantomData<T>,
}

impl<T: DeserializeOwned> JsonLines<T> {
    pub fn open(path: &Path) -> Result<Self, SuiteError> {
        let file = File::open(path).map_err(io_err(path))?;
        Ok(JsonLines {
            path: path.to_path_buf(),
            lines: BufReader::new(file).lines(),
            line: 0,
            _record: PhantomData,
        })
    }
}

impl<T: DeserializeOwned> Iterator for JsonLines<T> {
    type Item = Result<T, SuiteError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let line = self.lines.next()?;
            self.line += 1;
            let line = match line {
                Ok(l) => l,
                Err(source) => {
                    return Some(Err(SuiteError::Io {
                        path: self.path.clone(),
                        source,
                    }));
                }
            };
            if line.trim().is_empty() {
                continue;
            }
            return Some(serde_json::from_str(&line).map_err(|e| SuiteError::Record {
                path: self.path.clone(),
                line: self.line,
                message: e.to_string(),
            }));
        }
    }
}

/// Streaming reader over `items.jsonl` of a suite folder.
pub fn items_iter(suite: &Path) -> Result<JsonLines<Item>, SuiteError> {
    JsonLines::open(&suite.join(ITEMS_FILE))
}

/// Streaming reader over `charts.jsonl` of a suite folder.
pub fn charts_iter(suite: &Path) -> Result<JsonLines<ChartRecord>, SuiteError> {
    JsonLines::open(&suite.join(CHARTS_FILE))
}

pub fn read_items(suite: &Path) -> Result<Vec<Item>, SuiteError> {
    items_iter(suite)?.collect()
}

pub fn read_charts(suite: &Path) -> Result<Vec<ChartRecord>, SuiteError> {
    charts_iter(suite)?.collect()
}

pub fn read_manifest(suite: &Path) -> Result<SuiteManifest, SuiteError> {
    let path = suite.join(SUITE_MANIFEST);
    let text = std::fs::read_to_string(&path).map_err(io_err(&path))?;
    serde_json::from_str(&text).map_err(|e| SuiteError::Record {
        path,
        line: e.line(),
        message: e.to_string(),
    })
}

/// Composition counts keyed by dimension then value (`suite.json` `counts`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Counts(pub BTreeMap<String, BTreeMap<String, u64>>);

impl Counts {
    pub fn bump(&mut self, dim: &str, value: &str, by: u64) {
        *self
            .0
            .entry(dim.to_string())
            .or_default()
            .entry(value.to_string())
            .or_default() += by;
    }

    pub fn add_item(&mut self, item: &Item) {
        self.bump("set", item.set.name(), 1);
        self.bump("question_type", item.question_type.name(), 1);
        self.bump("family", &item.family, 1);
        self.bump("chart_kind", item.chart_kind.name(), 1);
        self.bump("answer_type", item.answer.type_name(), 1);
        self.bump("answerable", if item.answerable { "yes" } else { "no" }, 1);
        if let crate::ir::Answer::Choice { letter, .. } = item.answer {
            self.bump("choice_letter", &letter.to_string(), 1);
        }
        for p in &item.perturbations {
            self.bump("axis", &p.axis, 1);
            self.bump("perturbation", &p.name, 1);
            self.bump("severity", &p.severity.to_string(), 1);
        }
    }

    pub fn merge(&mut self, other: &Counts) {
        for (dim, values) in &other.0 {
            for (value, n) in values {
                self.bump(dim, value, *n);
            }
        }
    }
}

/// blake3 over every file of the suite except `suite.json` (which holds the
/// result): sorted relative paths, each followed by its length and bytes.
pub fn fingerprint(suite: &Path) -> Result<String, SuiteError> {
    let mut files = Vec::new();
    collect_files(suite, suite, &mut files)?;
    files.retain(|rel| rel != SUITE_MANIFEST);
    files.sort();
    let mut hasher = blake3::Hasher::new();
    for rel in files {
        let path = suite.join(&rel);
        let bytes = std::fs::read(&path).map_err(io_err(&path))?;
        hasher.update(&(rel.len() as u64).to_le_bytes());
        hasher.update(rel.as_bytes());
        hasher.update(&(bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    Ok(hasher.finalize().to_hex().to_string())
}

/// Relative paths with `/` separators, so fingerprints match across systems.
pub(crate) fn collect_files(
    root: &Path,
    dir: &Path,
    out: &mut Vec<String>,
) -> Result<(), SuiteError> {
    for entry in std::fs::read_dir(dir).map_err(io_err(dir))? {
        let entry = entry.map_err(io_err(dir))?;
        let path = entry.path();
        if path.is_dir() {
            collect_files(root, &path, out)?;
        } else {
            let rel = path.strip_prefix(root).unwrap_or(&path);
            let parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push(parts.join("/"));
        }
    }
    Ok(())
}

/// Writes `suite.json` last, with the fingerprint of everything else.
pub fn write_manifest(
    suite: &Path,
    config: serde_json::Value,
    seed: u64,
    counts: &Counts,
    shard: Option<(u32, u32)>,
) -> Result<SuiteManifest, SuiteError> {
    let manifest = SuiteManifest {
        tool_version: crate::VERSION.to_string(),
        seed,
        config,
        counts: counts.0.clone(),
        fingerprint: fingerprint(suite)?,
        shard,
    };
    let path = suite.join(SUITE_MANIFEST);
    let mut text = serde_json::to_string_pretty(&manifest).expect("manifest serializes");
    text.push('\n');
    // Written last and renamed into place: a suite without `suite.json` is
    // incomplete, and a reader never sees half a manifest.
    let partial = suite.join(format!("{SUITE_MANIFEST}.partial"));
    std::fs::write(&partial, text).map_err(io_err(&partial))?;
    std::fs::rename(&partial, &path).map_err(io_err(&path))?;
    Ok(manifest)
}

/// Appends JSON lines to a buffered file.
pub struct LineWriter {
    path: PathBuf,
    out: std::io::BufWriter<File>,
}

impl LineWriter {
    pub fn create(path: &Path) -> Result<Self, SuiteError> {
        let file = File::create(path).map_err(io_err(path))?;
        Ok(LineWriter {
            path: path.to_path_buf(),
            out: std::io::BufWriter::new(file),
        })
    }

    pub fn write_line(&mut self, line: &str) -> Result<(), SuiteError> {
        self.out
            .write_all(line.as_bytes())
            .and_then(|()| self.out.write_all(b"\n"))
            .map_err(io_err(&self.path))
    }

    pub fn finish(mut self) -> Result<(), SuiteError> {
        self.out.flush().map_err(io_err(&self.path))
    }
}

/// Prepares an output folder: created if missing; an earlier suite in it is
/// replaced; any other non-empty folder is refused so no work is lost.
pub fn prepare_out(out: &Path) -> Result<(), SuiteError> {
    use crate::ir::suite::{IMAGES_DIR, TABLES_DIR};
    if out.exists() {
        let mut entries = std::fs::read_dir(out).map_err(io_err(out))?.peekable();
        if entries.peek().is_some() {
            if !out.join(SUITE_MANIFEST).exists() && !out.join(ITEMS_FILE).exists() {
                return Err(SuiteError::OutNotEmpty(out.to_path_buf()));
            }
            for name in [SUITE_MANIFEST, ITEMS_FILE, CHARTS_FILE] {
                let p = out.join(name);
                if p.exists() {
                    std::fs::remove_file(&p).map_err(io_err(&p))?;
                }
            }
            for dir in [IMAGES_DIR, TABLES_DIR] {
                let p = out.join(dir);
                if p.exists() {
                    std::fs::remove_dir_all(&p).map_err(io_err(&p))?;
                }
            }
        }
    }
    for dir in [
        out.to_path_buf(),
        out.join(IMAGES_DIR),
        out.join(TABLES_DIR),
    ] {
        std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_names_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(ITEMS_FILE), "\n{\"id\": 3}\n").unwrap();
        let err = read_items(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains("items.jsonl") && err.contains("line 2"),
            "{err}"
        );
        let err = read_charts(dir.path()).unwrap_err().to_string();
        assert!(err.contains("charts.jsonl"), "{err}");
    }

    #[test]
    fn fingerprint_covers_paths_and_bytes_but_not_the_manifest() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("images")).unwrap();
        std::fs::write(dir.path().join("images/a.png"), b"x").unwrap();
        std::fs::write(dir.path().join(ITEMS_FILE), b"{}\n").unwrap();
        let a = fingerprint(dir.path()).unwrap();
        std::fs::write(dir.path().join(SUITE_MANIFEST), b"{}").unwrap();
        assert_eq!(a, fingerprint(dir.path()).unwrap());
        std::fs::write(dir.path().join("images/a.png"), b"y").unwrap();
        let b = fingerprint(dir.path()).unwrap();
        assert_ne!(a, b);
        std::fs::rename(
            dir.path().join("images/a.png"),
            dir.path().join("images/b.png"),
        )
        .unwrap();
        assert_ne!(b, fingerprint(dir.path()).unwrap());
    }

    #[test]
    fn refuses_a_foreign_non_empty_folder() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("notes.txt"), b"keep me").unwrap();
        assert!(matches!(
            prepare_out(dir.path()),
            Err(SuiteError::OutNotEmpty(_))
        ));
        assert!(dir.path().join("notes.txt").exists());
    }
}
