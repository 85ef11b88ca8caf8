//! Suite composition for `chartstress stats SUITE`: the manifest's counts,
//! checked against the items actually in `items.jsonl`.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

use super::SuiteError;
use super::io::{Counts, items_iter, read_manifest};

#[derive(Debug, Clone, PartialEq)]
pub struct Composition {
    pub items: u64,
    pub charts: u64,
    /// Modified items whose `origin` is an original item of the suite.
    pub paired: u64,
    /// Modified items whose origin is missing (should be 0).
    pub orphans: u64,
    /// Counts by dimension then value, recomputed from the items, plus the
    /// manifest's `dropped` counts.
    pub counts: BTreeMap<String, BTreeMap<String, u64>>,
    /// Whether the recomputed counts equal those recorded in `suite.json`.
    pub manifest_agrees: bool,
    pub fingerprint: String,
    pub shard: Option<(u32, u32)>,
}

pub fn composition(suite: &Path) -> Result<Composition, SuiteError> {
    let manifest = read_manifest(suite)?;
    let mut counts = Counts::default();
    let mut originals = HashSet::new();
    let mut origins = Vec::new();
    let mut charts = HashSet::new();
    let mut items = 0;
    for item in items_iter(suite)? {
        let item = item?;
        items += 1;
        counts.add_item(&item);
        charts.insert(item.chart_id.clone());
        match &item.origin {
            None => {
                originals.insert(item.id.clone());
            }
            Some(o) => origins.push(o.clone()),
        }
    }
    if let Some(dropped) = manifest.counts.get("dropped") {
        for (reason, n) in dropped {
            counts.bump("dropped", reason, *n);
        }
    }
    let paired = origins.iter().filter(|o| originals.contains(*o)).count() as u64;
    Ok(Composition {
        items,
        charts: charts.len() as u64,
        paired,
        orphans: origins.len() as u64 - paired,
        manifest_agrees: counts.0 == manifest.counts,
        counts: counts.0,
        fingerprint: manifest.fingerprint,
        shard: manifest.shard,
    })
}

impl Composition {
    /// A plain-text table, one block per dimension.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "items {}  charts {}  paired {}  orphans {}  fingerprint {}",
            self.items, self.charts, self.paired, self.orphans, self.fingerprint
        );
        if let Some((k, n)) = self.shard {
            let _ = writeln!(out, "shard {k}/{n}");
        }
        if !self.manifest_agrees {
            let _ = writeln!(out, "warning: suite.json counts differ from items.jsonl");
        }
        for (dim, values) in &self.counts {
            let total: u64 = values.values().sum();
            let _ = writeln!(out, "\n{dim}");
            for (value, n) in values {
                let share = if total > 0 {
                    *n as f64 * 100.0 / total as f64
                } else {
                    0.0
                };
                let _ = writeln!(out, "  {value:<28} {n:>7}  {share:5.1}%");
            }
        }
        out
    }
}
