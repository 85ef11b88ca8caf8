//! `oracle`: answers by re-executing each item's query on the chart's spec and
//! scene — the pipeline's own check. It must score 100% on answerable items;
//! when the executor refuses (the query has no answer on that chart) it
//! abstains with the abstention phrase.
//!
//! The executor is injected (`OracleFn`) so this adapter does not depend on
//! the question stage; the CLI passes a closure around `query::execute`.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use crate::ir::answer::UNANSWERABLE_TEXT;
use crate::ir::{ChartRecord, Item};

use super::{Adapter, AdapterError, AdapterOptions, Request, Response, RunContext};

/// Answers an item from its chart record: `Ok(answer text)` or
/// `Err(refusal)` when the query cannot be answered on that chart.
pub type OracleFn = Arc<dyn Fn(&Item, &ChartRecord) -> Result<String, String> + Send + Sync>;

pub struct Oracle {
    execute: OracleFn,
    charts: OnceLock<HashMap<String, ChartRecord>>,
}

impl Oracle {
    pub fn new(opts: &AdapterOptions) -> Result<Oracle, AdapterError> {
        let execute = opts.oracle_fn.clone().ok_or_else(|| {
            AdapterError::Config("the oracle adapter needs a query executor".into())
        })?;
        Ok(Oracle {
            execute,
            charts: OnceLock::new(),
        })
    }

    /// An oracle over already loaded chart records (no `start` needed).
    pub fn with_charts(execute: OracleFn, charts: Vec<ChartRecord>) -> Oracle {
        let oracle = Oracle {
            execute,
            charts: OnceLock::new(),
        };
        let _ = oracle
            .charts
            .set(charts.into_iter().map(|c| (c.id.clone(), c)).collect());
        oracle
    }
}

impl Adapter for Oracle {
    fn name(&self) -> &str {
        "oracle"
    }

    fn cache_key(&self) -> String {
        "oracle".into()
    }

    fn cacheable(&self) -> bool {
        false
    }

    fn concurrency(&self) -> usize {
        1
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
            .ok_or_else(|| AdapterError::Config("oracle used before start()".into()))?;
        let record = charts.get(&req.item.chart_id).ok_or_else(|| {
            AdapterError::Other(format!(
                "item {}: chart {} is not in charts.jsonl",
                req.item_id, req.item.chart_id
            ))
        })?;
        let text = match (self.execute)(&req.item, record) {
            Ok(text) => text,
            Err(_refusal) => UNANSWERABLE_TEXT.to_string(),
        };
        Ok(Response {
            answer: Some(text.clone()),
            text,
            usage: None,
            attempts: 1,
        })
    }
}
