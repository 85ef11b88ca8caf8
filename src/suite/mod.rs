//! Suite generation, writing, sharding and merging.
//!
//! A suite is a folder (see docs/formats.md, "Suite folder"): `suite.json`,
//! `items.jsonl`, `charts.jsonl`, `images/<chart_id>.png`, `tables/`. It is a
//! pure function of (tables, config, seed, tool version): tables are processed
//! in id order, each table's items are generated from seeds derived from
//! stable ids, and blocks are written in table order, so the bytes do not
//! depend on the thread count or on sharding.

use std::path::{Path, PathBuf};

mod balance;
mod benchmark;
mod browse;
mod chart_variant;
mod claims;
mod composition;
mod config;
mod direction;
mod distinct;
mod frame;
mod io;
mod kind_plan;
mod letters;
mod merge;
mod pipeline;
mod question_variant;
mod readable;
mod recheck;
mod theme_order;
mod writer;

pub use benchmark::{
    BENCHMARK_PERTURBATIONS, ImportOptions, ImportSummary, gold, import_benchmark,
};
pub use browse::{BrowseOptions, browse_html};
pub use composition::{
    Composition, DistanceGroup, Spread, VisualStats, composition, spread, visual_stats,
};
pub use config::{Quotas, Shard, SuiteConfig};
pub use io::{
    Counts, JsonLines, charts_iter, fingerprint, items_iter, read_charts, read_items,
    read_manifest, write_manifest,
};
pub use merge::merge;

#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {message}", path.display())]
    Config { path: PathBuf, message: String },
    #[error("{}: line {line}: {message}", path.display())]
    Record {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error("{}: folder is not empty and holds no suite; refusing to write into it", .0.display())]
    OutNotEmpty(PathBuf),
    #[error("invalid suite config: {0}")]
    InvalidConfig(String),
    #[error("no tables to generate from")]
    NoTables,
    #[error("two tables have the id `{0}`; table ids must be unique in a suite")]
    DuplicateTable(String),
    #[error("merge: {0}")]
    Merge(String),
    #[error("{0}")]
    Stage(String),
}

/// What `generate_suite` did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SuiteSummary {
    pub items: u64,
    pub charts: u64,
    pub tables: usize,
    /// Composition counts as written to `suite.json`.
    pub counts: Counts,
    /// Items dropped, by reason (e.g. `not_visible`, `preserving_violation`).
    pub dropped: std::collections::BTreeMap<String, u64>,
    /// Tables that failed (one message each, naming the table); the rest of
    /// the suite is still written.
    pub errors: Vec<String>,
    pub out: PathBuf,
}

/// Generates a suite from `tables` into `out` (see the module docs).
pub fn generate_suite(
    tables: &[crate::ir::Table],
    config: &SuiteConfig,
    out: &Path,
    progress: bool,
) -> Result<SuiteSummary, SuiteError> {
    config.validate().map_err(SuiteError::InvalidConfig)?;
    pipeline::generate(tables, config, out, progress)
}
