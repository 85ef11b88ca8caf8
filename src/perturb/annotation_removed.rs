//! Annotation removed: the chart's reference line, highlight, shaded interval
//! or callout is not drawn. Questions about it become unanswerable (their
//! items are tagged `shifted`, as a removed legend's are); other answers stay.
//! Applies only where an annotation is drawn.

use super::util::drawn;
use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartKind, ChartSpec};

pub struct AnnotationRemoved;

impl Perturbation for AnnotationRemoved {
    fn info(&self) -> Info {
        Info {
            name: "annotation_removed",
            axis: "clutter",
            stage: Stage::Spec,
            effect: AnswerEffect::Breaking,
            ladder: [
                "annotation not drawn",
                "annotation not drawn; grid lines removed",
                "annotation not drawn; no grid, no tick marks",
                "annotation not drawn; no grid, no tick marks, open frame",
                "annotation not drawn; no grid, no tick marks, open frame, thin axes",
            ],
        }
    }

    fn not_for(&self, kind: ChartKind) -> Option<&'static str> {
        (!crate::spec::annotation::annotates(kind))
            .then_some("annotations are drawn on bars, grouped bars and lines only")
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let level = super::level("annotation_removed", severity).ok()?;
        let (_, before) = drawn(spec)?;
        let kind = before
            .panels
            .iter()
            .find_map(|p| p.annotation.as_ref())?
            .kind
            .clone();
        let mut out = super::restyle(spec, |s| super::util::ramp(s, level));
        for panel in out.panels_mut() {
            panel.annotation = None;
        }
        let (_, after) = drawn(&out)?;
        if after.panels.iter().any(|p| p.annotation.is_some()) {
            return None;
        }
        Some(Applied::new(out).param("annotation", kind))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Answer, Query};
    use crate::perturb::util::testing;

    use crate::perturb::util::testing::ctx;

    #[test]
    fn removes_drawn_annotations_and_their_answers() {
        let plain = testing::bar();
        assert!(AnnotationRemoved.apply_spec(&plain, 1, &ctx()).is_none());
        let mut spec = plain.clone();
        let panel = &mut spec.panels_mut()[0];
        panel.annotation = crate::spec::annotation::named(panel, "highlight");
        let (_, scene) = drawn(&spec).unwrap();
        let q = Query::Highlighted { panel: 0 };
        assert!(matches!(
            crate::query::execute(&q, &spec, &scene),
            Ok(Answer::Text { .. })
        ));
        let out = AnnotationRemoved.apply_spec(&spec, 2, &ctx()).unwrap();
        assert_eq!(out.params["annotation"], "highlight");
        let (_, after) = drawn(&out.value).unwrap();
        assert!(after.panels[0].annotation.is_none());
        assert_eq!(
            crate::query::execute(&q, &out.value, &after),
            Ok(Answer::Unanswerable)
        );
    }
}
