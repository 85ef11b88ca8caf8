//! Suite records: `charts.jsonl` lines and the `suite.json` manifest.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::scene::Scene;
use super::spec::ChartSpec;

/// File names inside a suite folder.
pub const SUITE_MANIFEST: &str = "suite.json";
pub const ITEMS_FILE: &str = "items.jsonl";
pub const CHARTS_FILE: &str = "charts.jsonl";
pub const IMAGES_DIR: &str = "images";
pub const TABLES_DIR: &str = "tables";
pub const RUNS_DIR: &str = "runs";

/// One line of `charts.jsonl`: a rendered chart, its spec and its scene.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChartRecord {
    pub id: String,
    /// PNG path relative to the suite folder.
    pub image: String,
    pub spec: ChartSpec,
    pub scene: Scene,
}

/// `suite.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SuiteManifest {
    pub tool_version: String,
    pub seed: u64,
    /// The resolved suite configuration.
    pub config: serde_json::Value,
    /// Counts keyed by dimension then value, e.g. `set` → `original` → 120.
    pub counts: BTreeMap<String, BTreeMap<String, u64>>,
    /// blake3 over every file of the suite (sorted paths), hex.
    pub fingerprint: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<(u32, u32)>,
}
