//! `reader`: answers from what each item's image shows, through
//! [`crate::reader`] — the baseline that proves every item is answerable
//! from its picture (the `oracle` proves the arithmetic).

use crate::ir::ChartRecord;
use crate::reader::View;

use super::{Adapter, AdapterError, ChartIndex, Request, Response, RunContext};

#[derive(Default)]
pub struct Reader {
    charts: ChartIndex,
}

impl Reader {
    /// A reader over already loaded chart records (no `start` needed).
    pub fn with_charts(charts: Vec<ChartRecord>) -> Reader {
        Reader {
            charts: ChartIndex::with(charts),
        }
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
        self.charts.load(ctx)
    }

    fn answer(&self, req: &Request) -> Result<Response, AdapterError> {
        let item = &req.item;
        let record = self.charts.chart("reader", item)?;
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
