//! Annotation moved: the label of the chart's reference line, shaded
//! interval or callout drawn at its alternative place (the other end of the
//! line, the foot of the band, the other side of the mark). What it marks is
//! unchanged, so every answer is kept. A highlight has no label to move; the
//! move is judged on the drawing: the label must land elsewhere.

use super::util::drawn;
use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{BBox, ChartKind, ChartSpec, Scene};

pub struct AnnotationMoved;

/// The drawn annotation's kind and label box, per panel that has one.
fn labels(scene: &Scene) -> Vec<(usize, String, BBox)> {
    scene
        .panels
        .iter()
        .filter_map(|p| {
            let a = p.annotation.as_ref()?;
            Some((p.index, a.kind.clone(), a.label.as_ref()?.bbox))
        })
        .collect()
}

impl Perturbation for AnnotationMoved {
    fn info(&self) -> Info {
        Info {
            name: "annotation_moved",
            axis: "clutter",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "annotation label at its alternative place",
                "annotation label at its alternative place; grid lines removed",
                "annotation label at its alternative place; no grid, no tick marks",
                "annotation label at its alternative place; no grid, no tick marks, open frame",
                "annotation label at its alternative place; no grid, no tick marks, open frame, thin axes",
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
        let level = super::level("annotation_moved", severity).ok()?;
        let (_, before) = drawn(spec)?;
        let was = labels(&before);
        if was.is_empty() {
            return None;
        }
        let mut out = super::restyle(spec, |s| super::util::ramp(s, level));
        for panel in out.panels_mut() {
            if let Some(a) = &mut panel.annotation {
                a.moved = !a.moved;
            }
        }
        let (_, after) = drawn(&out)?;
        let now = labels(&after);
        // Every label drawn again, none where it was.
        let moved = now.len() == was.len()
            && now.iter().zip(&was).all(|(a, b)| {
                a.0 == b.0
                    && a.1 == b.1
                    && ((a.2.x - b.2.x).abs() > 4.0 || (a.2.y - b.2.y).abs() > 4.0)
            });
        let kind = was[0].1.clone();
        moved.then(|| Applied::new(out).param("annotation", kind))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perturb::util::testing;

    use crate::perturb::util::testing::ctx;

    #[test]
    fn moves_labels_and_keeps_what_they_mark() {
        assert!(
            AnnotationMoved
                .apply_spec(&testing::bar(), 1, &ctx())
                .is_none()
        );
        for name in ["reference_line", "callout", "highlight"] {
            let mut spec = testing::bar();
            let panel = &mut spec.panels_mut()[0];
            panel.annotation = crate::spec::annotation::named(panel, name);
            assert!(panel.annotation.is_some(), "{name}");
            let out = AnnotationMoved.apply_spec(&spec, 1, &ctx());
            if name == "highlight" {
                assert!(out.is_none(), "a highlight has no label to move");
                continue;
            }
            let out = out.unwrap_or_else(|| panic!("{name} label moves"));
            let (_, before) = drawn(&spec).unwrap();
            let (_, after) = drawn(&out.value).unwrap();
            let (a, b) = (
                before.panels[0].annotation.as_ref().unwrap(),
                after.panels[0].annotation.as_ref().unwrap(),
            );
            assert_ne!(
                a.label.as_ref().unwrap().bbox,
                b.label.as_ref().unwrap().bbox
            );
            assert_eq!((&a.value, &a.category), (&b.value, &b.category));
        }
    }
}
