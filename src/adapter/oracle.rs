//! `oracle`: answers by re-executing each item's query on the chart's spec and
//! scene — the pipeline's own check. It must score 100% on answerable items;
//! when the executor refuses (the query has no answer on that chart) it
//! abstains with the abstention phrase.
//!
//! The executor is injected (`OracleFn`) so this adapter does not depend on
//! the question stage; the CLI passes a closure around `query::execute`.

use std::sync::Arc;

use crate::ir::answer::UNANSWERABLE_TEXT;
use crate::ir::{ChartRecord, Item};

use super::{Adapter, AdapterError, AdapterOptions, ChartIndex, Request, Response, RunContext};

/// Answers an item from its chart record: `Ok(answer text)` or
/// `Err(refusal)` when the query cannot be answered on that chart.
pub type OracleFn = Arc<dyn Fn(&Item, &ChartRecord) -> Result<String, String> + Send + Sync>;

pub struct Oracle {
    execute: OracleFn,
    charts: ChartIndex,
}

impl Oracle {
    pub fn new(opts: &AdapterOptions) -> Result<Oracle, AdapterError> {
        let execute = opts.oracle_fn.clone().ok_or_else(|| {
            AdapterError::Config("the oracle adapter needs a query executor".into())
        })?;
        Ok(Oracle {
            execute,
            charts: ChartIndex::default(),
        })
    }

    /// An oracle over already loaded chart records (no `start` needed).
    pub fn with_charts(execute: OracleFn, charts: Vec<ChartRecord>) -> Oracle {
        Oracle {
            execute,
            charts: ChartIndex::with(charts),
        }
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
        self.charts.load(ctx)
    }

    fn answer(&self, req: &Request) -> Result<Response, AdapterError> {
        let record = self.charts.chart("oracle", &req.item)?;
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
