//! Writing a suite's blocks: each chart once (record and PNG), then items.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::io::{Counts, LineWriter, io_err};
use super::pipeline::Block;
use super::{SuiteError, SuiteSummary};
use crate::ir::ChartRecord;
use crate::ir::suite::{CHARTS_FILE, ITEMS_FILE};

fn json<T: serde::Serialize>(record: &T) -> String {
    serde_json::to_string(record).expect("record serializes")
}

/// Writes blocks in order: each chart once (record and PNG), then items.
pub(super) struct SuiteWriter {
    out: PathBuf,
    items: LineWriter,
    charts: LineWriter,
    written: HashSet<String>,
}

impl SuiteWriter {
    pub(super) fn create(out: &Path) -> Result<SuiteWriter, SuiteError> {
        Ok(SuiteWriter {
            out: out.to_path_buf(),
            items: LineWriter::create(&out.join(ITEMS_FILE))?,
            charts: LineWriter::create(&out.join(CHARTS_FILE))?,
            written: HashSet::new(),
        })
    }

    pub(super) fn write_block(
        &mut self,
        block: &Block,
        summary: &mut SuiteSummary,
        counts: &mut Counts,
    ) -> Result<(), SuiteError> {
        for item in &block.items {
            if self.written.insert(item.chart_id.clone()) {
                let chart = &block.charts[&item.chart_id];
                self.charts.write_line(&json(&ChartRecord {
                    id: chart.id.clone(),
                    image: chart.image(),
                    spec: (*chart.spec).clone(),
                    scene: (*chart.scene).clone(),
                }))?;
                let path = self.out.join(chart.image());
                std::fs::write(&path, chart.png.as_slice()).map_err(io_err(&path))?;
                summary.charts += 1;
            }
            counts.add_item(item);
            self.items.write_line(&json(item))?;
            summary.items += 1;
        }
        for (reason, n) in &block.dropped {
            *summary.dropped.entry(reason.clone()).or_default() += n;
        }
        summary.errors.extend(block.errors.iter().cloned());
        Ok(())
    }

    pub(super) fn finish(self) -> Result<(), SuiteError> {
        self.items.finish()?;
        self.charts.finish()
    }
}
