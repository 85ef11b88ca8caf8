//! Bring-your-own benchmark: another benchmark's charts, tables and
//! human-written questions read into a common form, screened for questions
//! that cannot survive re-drawing, then built into a suite by
//! [`crate::suite::import_benchmark`].

pub mod chartqa;
pub mod screen;

use std::path::PathBuf;

use crate::ir::{ChartKind, Table};

pub use screen::{Exclusion, screen};

#[derive(Debug, thiserror::Error)]
pub enum BenchmarkError {
    #[error("{}: {msg}", .path.display())]
    Io { path: PathBuf, msg: String },
    #[error("{}: {msg}", .path.display())]
    Format { path: PathBuf, msg: String },
    #[error("{}: no question files (expected *_human.json or *_augmented.json)", .0.display())]
    NoQuestions(PathBuf),
}

/// One question of the benchmark with its gold, as written there.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchmarkQuestion {
    /// Stable within the benchmark: question file and position in it.
    pub key: String,
    /// The question file's subset, e.g. `human` or `augmented`.
    pub subset: String,
    pub question: String,
    pub label: String,
}

/// One chart of the benchmark: its picture, its table (or why there is
/// none) and the questions asked on it.
#[derive(Debug, Clone)]
pub struct BenchmarkChart {
    /// File stem shared by the picture and the table.
    pub name: String,
    pub image: PathBuf,
    pub table: Result<Table, String>,
    /// The chart kind the benchmark's annotations give, when they do.
    pub kind: Option<ChartKind>,
    pub questions: Vec<BenchmarkQuestion>,
}

/// A benchmark read from disk: its name and charts in name order.
#[derive(Debug, Clone)]
pub struct Benchmark {
    pub name: String,
    pub charts: Vec<BenchmarkChart>,
    /// Records that could not be used at all (no picture, malformed),
    /// each naming the file and record.
    pub errors: Vec<String>,
}
