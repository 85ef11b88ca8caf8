//! Questions about a panel's annotation (reference line, highlighted bar,
//! shaded interval, callout), answered from what the scene records as drawn:
//! a chart without the annotation answers "unanswerable".

use super::{Ctx, Refusal, data};
use crate::ir::query::Query;
use crate::ir::{AnnotationScene, Answer};

/// Whether the query is one of the annotation families.
pub fn is_annotation(query: &Query) -> bool {
    matches!(
        query.base(),
        Query::ReferenceValue { .. }
            | Query::CountAboveReference { .. }
            | Query::Highlighted { .. }
            | Query::ShadedPeriod { .. }
            | Query::CalloutTarget { .. }
    )
}

/// The number printed on a reference line's label ("Average: 42.5" → 42.5
/// with one decimal), read after its last colon or space.
pub fn printed_value(label: &str) -> Option<(f64, u8)> {
    // Units around the number ("$", "%", " bn") are not part of it.
    let tail: String = label
        .rsplit([':', ' '])
        .find(|t| t.chars().any(|c| c.is_ascii_digit()))?
        .chars()
        .filter(|c| c.is_ascii_digit() || matches!(c, '.' | '-'))
        .collect();
    let tail = tail.trim_end_matches('.');
    let value: f64 = tail.parse().ok()?;
    let decimals = tail.split_once('.').map_or(0, |(_, d)| d.len() as u8);
    value.is_finite().then_some((value, decimals))
}

/// The panel's annotation of `kind`, if drawn.
pub(crate) fn drawn<'a>(ctx: &'a Ctx, kind: &str) -> Option<&'a AnnotationScene> {
    ctx.scene.annotation.as_ref().filter(|a| a.kind == kind)
}

pub(crate) fn execute(query: &Query, ctx: &Ctx) -> Result<Answer, Refusal> {
    let text = |v: &Option<String>| match v {
        Some(t) if !t.trim().is_empty() => Answer::Text {
            value: t.trim().to_string(),
        },
        _ => Answer::Unanswerable,
    };
    Ok(match query {
        Query::ReferenceValue { .. } => {
            match drawn(ctx, "reference_line")
                .and_then(|a| a.label.as_ref())
                .and_then(|l| printed_value(&l.text))
            {
                Some((value, decimals)) => data::number(value, decimals, None)?,
                None => Answer::Unanswerable,
            }
        }
        Query::CountAboveReference { panel, series } => {
            match drawn(ctx, "reference_line").and_then(|a| a.value) {
                // The count over the table's values against the line as drawn.
                Some(threshold) => data::execute(
                    &Query::CountThreshold {
                        panel: *panel,
                        series: series.clone(),
                        threshold,
                        above: true,
                    },
                    ctx,
                )?,
                None => Answer::Unanswerable,
            }
        }
        Query::Highlighted { .. } => match drawn(ctx, "highlight") {
            Some(a) => text(&a.category),
            None => Answer::Unanswerable,
        },
        Query::CalloutTarget { .. } => match drawn(ctx, "callout") {
            Some(a) => text(&a.category),
            None => Answer::Unanswerable,
        },
        Query::ShadedPeriod { .. } => match drawn(ctx, "band") {
            Some(AnnotationScene {
                from: Some(a),
                to: Some(b),
                ..
            }) => Answer::List {
                values: vec![a.clone(), b.clone()],
            },
            _ => Answer::Unanswerable,
        },
        other => {
            return Err(Refusal::new(
                super::RefusalKind::Unsupported,
                format!("not an annotation query: {}", super::family(other)),
            ));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_values_are_read_after_the_label_word() {
        assert_eq!(printed_value("Average: 42.5"), Some((42.5, 1)));
        assert_eq!(printed_value("Target 1,200"), Some((1200.0, 0)));
        assert_eq!(printed_value("Target: 0.25"), Some((0.25, 2)));
        assert_eq!(printed_value("Average"), None);
        assert_eq!(printed_value("Average: 16.7%"), Some((16.7, 1)));
        assert_eq!(printed_value("Target: $1,500"), Some((1500.0, 0)));
    }
}
