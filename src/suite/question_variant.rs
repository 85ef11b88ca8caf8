//! Modified-question variants: a question perturbation applied on the same
//! chart, preferring the answer polarity its set has used least.

use std::collections::HashSet;

use super::balance::{Balance, is_polar};
use super::chart_variant::shuffled;
use super::pipeline::{Block, Chart, Env, record};
use super::recheck::executed;
use crate::ir::{Perturbation as Applied, SetName};
use crate::perturb::{self, AnswerEffect};
use crate::questions::Question;
use crate::seed;
use rand::RngExt;

/// Seeded draws a question variant gets to offer the verdict its set needs.
const POLAR_DRAWS: u8 = 3;

impl Env<'_> {
    fn question_axes(&self) -> Vec<&'static str> {
        let mut seen = HashSet::new();
        self.question_perts
            .iter()
            .filter_map(|n| perturb::question::info(n).map(|i| i.axis))
            .filter(|a| seen.insert(*a))
            .collect()
    }

    /// One modified-question variant of `q` on `chart` (itself modified by
    /// `chart_perts`, which the readability gate needs to know).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn question_variant(
        &self,
        q: &Question,
        chart: &Chart,
        chart_perts: &[Applied],
        item_seed: u64,
        set: SetName,
        balance: &mut Balance,
        block: &mut Block,
    ) -> Option<(Question, Applied)> {
        let axes = balance.axes_in_order(&self.question_axes(), self.config, item_seed);
        // The unanswerable twin is drawn per item at its axis' configured
        // share, whatever the question, and tried first when drawn. Owed by
        // turns like the other axes, it went to the questions the other axes
        // could not take (a what-if has no what-if form, a question about
        // the chart no absent twin): 37% of the set's what-ifs were
        // unanswerable against 14% of its conversations.
        let unanswerable = perturb::registry::UNANSWERABLE.axis;
        let axes: Vec<&'static str> = if axes.len() > 1 && axes.contains(&unanswerable) {
            let share = Balance::axis_share(unanswerable, &axes, self.config);
            let drawn = seed::rng(item_seed, &[unanswerable, "drawn"]).random_bool(share);
            let others = axes.iter().copied().filter(|a| *a != unanswerable);
            if drawn {
                std::iter::once(unanswerable).chain(others).collect()
            } else {
                others.collect()
            }
        } else {
            axes
        };
        for axis in axes {
            let names: Vec<&'static str> = self
                .question_perts
                .iter()
                .copied()
                .filter(|n| perturb::question::info(n).is_some_and(|i| i.axis == axis))
                .collect();
            for name in shuffled(&names, seed::derive(item_seed, &[axis])) {
                let info = perturb::question::info(name)?;
                let severity =
                    balance.severity(name, self.config, seed::derive(item_seed, &[name]));
                // Fact checks and yes/no reformats take the verdict this set
                // has used least when any of a few seeded draws offers it;
                // otherwise the first draw's pick stands. Option letters are
                // evened out suite-wide afterwards (`letters`).
                let wanted = |c: &Question| {
                    !is_polar(&c.answer) || balance.answer_pressure(set.name(), &c.answer) <= 0.0
                };
                let mut best = None;
                let mut fallback = None;
                for draw in 0..POLAR_DRAWS {
                    let Some(a) = perturb::question::apply_preferring(
                        name,
                        q,
                        &chart.spec,
                        &chart.scene,
                        severity,
                        seed::derive(item_seed, &[name, &draw.to_string()]),
                        &wanted,
                    ) else {
                        continue;
                    };
                    if wanted(&a.value) {
                        best = Some(a);
                        break;
                    }
                    fallback.get_or_insert(a);
                }
                let best = best.or(fallback);
                let Some(applied) = best else {
                    continue;
                };
                let new = applied.value;
                if executed(&new.query, chart) != new.answer {
                    block.drop_item("executor_mismatch");
                    continue;
                }
                if info.effect == AnswerEffect::Preserving
                    && (new.answer != q.answer || new.query != q.query)
                {
                    block.drop_item("preserving_violation");
                    continue;
                }
                // A format shift asks the original's fact in another form: a
                // what-if keeps its base; every other form keeps the whole
                // asked fact, a what-if included.
                let format = info.axis == "format_shift";
                let same_fact = if name == "format_hypothetical" {
                    new.query.base() == q.query.base()
                } else {
                    new.query.asked() == q.query.asked()
                };
                if format && !same_fact {
                    block.drop_item("different_fact");
                    continue;
                }
                let mut rec = record(&info, severity, applied.params);
                // A what-if asks another number than its original (the
                // fact after a change): another fact, not another form.
                if format {
                    rec.change = if name == "format_hypothetical" {
                        crate::ir::Change::Shifted
                    } else {
                        crate::ir::Change::Format
                    };
                }
                let mut perts = chart_perts.to_vec();
                perts.push(rec.clone());
                if let Some(reason) = self.unreadable(&new, chart, &perts) {
                    block.drop_item(&reason);
                    continue;
                }
                balance.used(axis, name, severity);
                balance.count_answer(set.name(), &new.answer);
                return Some((new, rec));
            }
        }
        None
    }
}
