//! Tick format: numbers printed short (1k) or scientific (1e3). Applies
//! only to panels with a numeric axis where most printed tick labels change
//! visibly (dropping the thousands separators, or "0.0" becoming "0", is a
//! change people miss; pies have no numeric axis).

use super::util::{drawn, numeric_tick_labels, numeric_ticks, ramp};
use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartSpec, NumberStyle};

pub struct TickFormat;

/// The format, and how many reading aids the upper levels also take away
/// ([`ramp`]: grid, then tick marks); the tick values never change.
const LEVELS: [(NumberStyle, usize); 5] = [
    (NumberStyle::Short, 0),
    (NumberStyle::Scientific, 0),
    (NumberStyle::Short, 1),
    (NumberStyle::Scientific, 1),
    (NumberStyle::Scientific, 2),
];

impl Perturbation for TickFormat {
    fn info(&self) -> Info {
        Info {
            name: "tick_format",
            axis: "axis",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "short numbers (1k, 2.5M); only where most tick labels visibly change",
                "scientific numbers (1e3)",
                "short numbers, no grid",
                "scientific numbers, no grid",
                "scientific numbers, no grid or tick marks",
            ],
        }
    }

    fn not_for(&self, kind: crate::ir::ChartKind) -> Option<&'static str> {
        if kind == crate::ir::ChartKind::Heatmap {
            Some("a heatmap's axes name categories; its values are read on the colour bar")
        } else if kind.is_circular() {
            Some("slices have no numeric axis")
        } else {
            None
        }
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        _ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let (mut style, aids) = LEVELS[super::level("tick_format", severity).ok()?];
        let current = spec.panels().first()?.style.number_style;
        if style == current {
            // Already printed that way: the other compact style.
            style = if current == NumberStyle::Short {
                NumberStyle::Scientific
            } else {
                NumberStyle::Short
            };
        }
        // The format alone must change some printed tick label; a new tick
        // count on top of it is not what this perturbation is about.
        let (_, before) = drawn(spec)?;
        let was = numeric_tick_labels(&before);
        if was.iter().all(|l| l.is_empty()) {
            return None;
        }
        let reformatted = super::restyle(spec, |s| s.number_style = style);
        let (_, after) = drawn(&reformatted)?;
        // Another format of the same ticks: labels change, values do not,
        // and enough to see ("300,000" → "300000" on every tick, or "0.0" →
        // "0" on two of six, is missed by a person looking).
        if !visibly_reformatted(&was, &numeric_tick_labels(&after))
            || tick_values(&after) != tick_values(&before)
        {
            return None;
        }
        let out = super::restyle(&reformatted, |s| ramp(s, aids));
        (out != *spec).then(|| {
            Applied::new(out).param(
                "number_style",
                serde_json::to_value(style).unwrap_or_default(),
            )
        })
    }
}

/// Whether at least half the printed tick labels change, by two or more
/// characters on average (what differs between the common start and end).
fn visibly_reformatted(before: &[Vec<&str>], after: &[Vec<&str>]) -> bool {
    let pairs: Vec<(&str, &str)> = before
        .iter()
        .zip(after)
        .flat_map(|(a, b)| a.iter().copied().zip(b.iter().copied()))
        .collect();
    let edits: Vec<usize> = pairs
        .iter()
        .filter(|(a, b)| a != b)
        .map(|(a, b)| {
            let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
            let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
            let tail = a[head..]
                .iter()
                .rev()
                .zip(b[head..].iter().rev())
                .take_while(|(x, y)| x == y)
                .count();
            (a.len() - head - tail).max(b.len() - head - tail)
        })
        .collect();
    !pairs.is_empty()
        && edits.len() * 2 > pairs.len()
        && edits.iter().sum::<usize>() >= 2 * edits.len()
}

fn tick_values(scene: &crate::ir::Scene) -> Vec<Vec<Option<u64>>> {
    numeric_ticks(scene)
        .into_iter()
        .map(|ticks| {
            ticks
                .into_iter()
                .map(|t| t.value.map(f64::to_bits))
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perturb::util::testing;

    #[test]
    fn only_a_change_a_person_sees() {
        let v = |l: &[&'static str]| vec![l.to_vec()];
        assert!(!visibly_reformatted(
            &v(&["0", "100,000", "200,000", "300,000"]),
            &v(&["0", "100000", "200000", "300000"])
        ));
        assert!(!visibly_reformatted(
            &v(&["0.0", "0.5", "1.0", "1.5", "2.0", "2.5"]),
            &v(&["0", "0.5", "1", "1.5", "2", "2.5"])
        ));
        assert!(visibly_reformatted(
            &v(&["0", "1,000,000", "2,000,000"]),
            &v(&["0", "1M", "2M"])
        ));
    }

    #[test]
    fn only_where_a_printed_tick_changes() {
        let ctx = ChartContext {
            seed: 0,
            themes: &[],
            distractors: &[],
        };
        // Ticks 0..8 print alike in the short style.
        assert!(TickFormat.apply_spec(&testing::bar(), 1, &ctx).is_none());
        let big = testing::single(
            testing::table("big", &[("Sales", &[3000.0, 5200.0, 2100.0])], false),
            crate::ir::ChartKind::Bar,
        );
        for severity in 1..=5 {
            let out = TickFormat.apply_spec(&big, severity, &ctx).unwrap();
            assert_ne!(
                testing::panel_style(&out.value).number_style,
                NumberStyle::Thousands
            );
            let (_, a) = drawn(&big).unwrap();
            let (_, b) = drawn(&out.value).unwrap();
            assert_ne!(numeric_tick_labels(&a), numeric_tick_labels(&b));
        }
        let mut pie = big.clone();
        pie.panels_mut()[0].kind = crate::ir::ChartKind::Pie;
        assert!(TickFormat.apply_spec(&pie, 3, &ctx).is_none());
    }
}
