//! `reader`: answers from what each item's image shows, through
//! [`crate::reader`] — the baseline that proves every item is answerable
//! from its picture (the `oracle` proves the arithmetic).

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::ir::ChartRecord;
use crate::reader::View;

use super::{Adapter, AdapterError, Request, Response, RunContext};

#[derive(Default)]
pub struct Reader {
    charts: OnceLock<HashMap<String, ChartRecord>>,
}

impl Reader {
    /// A reader over already loaded chart records (no `start` needed).
    pub fn with_charts(charts: Vec<ChartRecord>) -> Reader {
        let reader = Reader::default();
        let _ = reader
            .charts
            .set(charts.into_iter().map(|c| (c.id.clone(), c)).collect());
        reader
    }
}

impl Adapter for Reader {
    fn name(&self) -> &str {
        "reader"
    }

    fn cache_key(&self) -> String {
        "reader".into()
    }

    fn cacheable(&self) -> bool {
        false
    }

    fn start(&self, ctx: &RunContext) -> Result<(), AdapterError> {
        if self.charts.get().is_some() {
            return Ok(());
        }
        let charts = crate::run::suite_files::read_charts(&ctx.suite)
            .map_err(|e| AdapterError::Config(e.to_string()))?;
        let _ = self
            .charts
            .set(charts.into_iter().map(|c| (c.id.clone(), c)).collect());
        Ok(())
    }

    fn answer(&self, req: &Request) -> Result<Response, AdapterError> {
        let charts = self
            .charts
            .get()
            .ok_or_else(|| AdapterError::Config("reader used before start()".into()))?;
        let item = &req.item;
        let record = charts.get(&item.chart_id).ok_or_else(|| {
            AdapterError::Other(format!(
                "item {}: chart {} is not in charts.jsonl",
                req.item_id, item.chart_id
            ))
        })?;
        let view = View::for_item(&item.perturbations, req.paragraph.is_some());
        let text = crate::reader::answer(&item.query, &record.spec, &record.scene, &view).text();
        Ok(Response {
            answer: Some(text.clone()),
            text,
            usage: None,
            attempts: 1,
        })
    }
}
