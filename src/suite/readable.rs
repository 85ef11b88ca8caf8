//! The readability gate: a candidate item is kept only when the `reader`,
//! seeing only what its image shows, gives the gold answer (an unanswerable
//! item must look unanswerable to it too). Rejections are counted by the
//! reader's reason, so `suite.json` says what each rule dropped.

use super::pipeline::{Chart, Env};
use crate::ir::Perturbation as Applied;
use crate::questions::Question;
use crate::reader::{self, Reading, View};

impl Env<'_> {
    /// None when the reader answers `q` right on `chart` as corrupted by
    /// `perturbations` (or the gate is off); else the drop reason.
    pub(super) fn unreadable(
        &self,
        q: &Question,
        chart: &Chart,
        perturbations: &[Applied],
    ) -> Option<String> {
        if !self.config.readability_gate {
            return None;
        }
        judge(q, chart, perturbations)
    }
}

fn judge(q: &Question, chart: &Chart, perturbations: &[Applied]) -> Option<String> {
    let view = View::for_item(perturbations, q.paragraph.is_some());
    let reading = reader::answer(&q.query, &chart.spec, &chart.scene, &view);
    if reader::agrees(&q.answer, &reading) {
        return None;
    }
    Some(match reading {
        Reading::Undetermined { reason, .. } => format!("reader:{reason}"),
        Reading::Unanswerable(_) => "reader:sees_it_absent".into(),
        Reading::Answer(_) if !q.answerable => "reader:answers_unanswerable".into(),
        Reading::Answer(_) => "reader:reads_otherwise".into(),
    })
}
