//! Per-table balance: counters that steer question types,
//! families, answer polarity/letters, perturbation axes and severities toward
//! the configured quotas.

use std::collections::BTreeMap;

use super::SuiteConfig;
use crate::ir::{Answer, QuestionType, SetName};
use crate::questions::Question;
use crate::seed;

/// Per-table counters that steer choices toward the configured shares.
#[derive(Default)]
pub(super) struct Balance {
    seed: u64,
    types: BTreeMap<QuestionType, u64>,
    families: BTreeMap<String, u64>,
    /// Answer balance per set: (set, yes_no|true_false, value) and (set, letter).
    polarity: BTreeMap<(&'static str, &'static str, bool), u64>,
    letters: BTreeMap<(&'static str, char), u64>,
    axes: BTreeMap<String, u64>,
    severities: BTreeMap<(String, u8), u64>,
    /// Questions about data selected so far (descriptive ones aside), and
    /// how many of them were made unanswerable.
    data_questions: u64,
    made_unanswerable: u64,
    /// True and false claims selected per family, so no family's claims
    /// lean one way.
    claims: BTreeMap<(String, bool), u64>,
}

pub(super) const ORIGINAL: &str = SetName::Original.name();

pub(super) fn is_polar(answer: &Answer) -> bool {
    matches!(answer, Answer::YesNo { .. } | Answer::TrueFalse { .. })
}

pub(super) fn weight(quota: &BTreeMap<String, f64>, key: &str) -> f64 {
    if quota.is_empty() {
        1.0
    } else {
        quota.get(key).copied().unwrap_or(0.0)
    }
}

/// How over-represented a value already is (lower = pick me); infinite when
/// its quota is zero.
pub(super) fn pressure(count: u64, weight: f64) -> f64 {
    if weight <= 0.0 {
        f64::INFINITY
    } else {
        (count as f64 + 1.0) / weight
    }
}

impl Balance {
    pub(super) fn new(seed: u64) -> Balance {
        Balance {
            seed,
            ..Balance::default()
        }
    }

    /// Seeded offset in [0, 1) per value, so small per-table counts do not
    /// always favour the same letter or polarity first.
    fn offset(&self, what: &str) -> f64 {
        (seed::derive(self.seed, &["balance", what]) % 1000) as f64 / 1000.0
    }

    /// Sort key of a candidate (lower is picked first): type quota, answer
    /// balance (polarity, letter), family quota.
    fn key(&self, q: &Question, config: &SuiteConfig) -> (f64, f64, f64) {
        let t = pressure(
            *self.types.get(&q.question_type).unwrap_or(&0),
            weight(&config.quotas.question_type, q.question_type.name()),
        );
        let f = pressure(
            *self.families.get(&q.family).unwrap_or(&0),
            weight(&config.quotas.family, &q.family),
        );
        // A claim's truth is evened per family (here within the table, and
        // over the suite by the claims pass); evening the set's true and
        // false claims here too would make the families whose claims cannot
        // be re-stated (a comparison's yes or no) make up for the others.
        let p = match q.answer {
            Answer::TrueFalse { .. } => self.claim_pressure(q),
            _ => self.answer_pressure(ORIGINAL, &q.answer),
        };
        (t, p, f)
    }

    /// How over-used this truth value already is among the family's claims.
    fn claim_pressure(&self, q: &Question) -> f64 {
        let Answer::TrueFalse { value } = q.answer else {
            return 0.0;
        };
        let n = |v: bool| *self.claims.get(&(q.family.clone(), v)).unwrap_or(&0) as f64;
        n(value) - n(!value)
    }

    /// How over-used this yes/no polarity or option letter already is in
    /// `set` (0 for the least used; 0 for other answers).
    pub(super) fn answer_pressure(&self, set: &'static str, answer: &Answer) -> f64 {
        let polar = |kind: &'static str, value: bool| {
            let n = |v: bool| {
                *self.polarity.get(&(set, kind, v)).unwrap_or(&0) as f64
                    + self.offset(&format!("{kind}{v}"))
            };
            n(value) - n(!value)
        };
        match answer {
            Answer::YesNo { value } => polar("yes_no", *value),
            Answer::TrueFalse { value } => polar("true_false", *value),
            Answer::Choice { letter, .. } => {
                let n = |l: char| {
                    *self.letters.get(&(set, l)).unwrap_or(&0) as f64 + self.offset(&l.to_string())
                };
                n(*letter)
                    - ['a', 'b', 'c', 'd']
                        .into_iter()
                        .map(n)
                        .fold(f64::INFINITY, f64::min)
            }
            _ => 0.0,
        }
    }

    fn count(&mut self, q: &Question) {
        if let Answer::TrueFalse { value } = q.answer {
            *self.claims.entry((q.family.clone(), value)).or_default() += 1;
        }
        *self.types.entry(q.question_type).or_default() += 1;
        *self.families.entry(q.family.clone()).or_default() += 1;
        self.count_answer(ORIGINAL, &q.answer);
    }

    /// Takes back the answer `count` recorded for a question that was then
    /// made unanswerable (it has no truth or letter left to balance).
    fn uncount_answer(&mut self, q: &Question) {
        if let Answer::TrueFalse { value } = q.answer {
            let n = self.claims.entry((q.family.clone(), value)).or_default();
            *n = n.saturating_sub(1);
        }
        if let Some(n) = self.answer_tally(ORIGINAL, &q.answer) {
            *n = n.saturating_sub(1);
        }
    }

    pub(super) fn count_answer(&mut self, set: &'static str, answer: &Answer) {
        if let Some(n) = self.answer_tally(set, answer) {
            *n += 1;
        }
    }

    /// The counter of `answer`'s polarity or letter in `set` (None for
    /// answers that are not balanced).
    fn answer_tally(&mut self, set: &'static str, answer: &Answer) -> Option<&mut u64> {
        match answer {
            Answer::YesNo { value } => {
                Some(self.polarity.entry((set, "yes_no", *value)).or_default())
            }
            Answer::TrueFalse { value } => Some(
                self.polarity
                    .entry((set, "true_false", *value))
                    .or_default(),
            ),
            Answer::Choice { letter, .. } => Some(self.letters.entry((set, *letter)).or_default()),
            _ => None,
        }
    }

    /// Greedy balanced choice of `n` questions among the candidates, then
    /// which of them are asked about something the chart does not show.
    ///
    /// Answerability is decided after the choice, by a seeded draw over the
    /// chosen questions about data: each is as likely to be made
    /// unanswerable (by `unanswerable_form`) as any other, whatever its type,
    /// family or wording, so none of these tells. Chosen while choosing
    /// (an unanswerable candidate preferred for a slot), they went to
    /// whichever kind of question the table had asked most so far: 6% of
    /// conversations against 30% of multiple-choice items on default suites.
    /// A descriptive question is unanswerable as the generator asked it
    /// (of an element the chart does not draw), at its own measured rate.
    pub(super) fn select(
        &mut self,
        mut pool: Vec<Question>,
        n: usize,
        chart_id: &str,
        config: &SuiteConfig,
        unanswerable_form: impl Fn(&Question, u64) -> Option<Question>,
    ) -> Vec<Question> {
        let mut out = Vec::new();
        while out.len() < n && !pool.is_empty() {
            let (best, key) = pool
                .iter()
                .enumerate()
                .map(|(i, q)| (i, self.key(q, config)))
                .min_by(|a, b| {
                    let (x, y) = (a.1, b.1);
                    x.0.total_cmp(&y.0)
                        .then(x.1.total_cmp(&y.1))
                        .then(x.2.total_cmp(&y.2))
                        .then(a.0.cmp(&b.0))
                })
                .expect("pool is not empty");
            if !(key.0.is_finite() && key.2.is_finite()) {
                break;
            }
            let q = pool.remove(best);
            self.count(&q);
            out.push(q);
        }
        self.make_unanswerable(&mut out, chart_id, config, unanswerable_form);
        out
    }

    /// Turns as many of `chosen` unanswerable as the table owes (its share
    /// of the questions about data chosen so far, rounded at a seeded point
    /// so the share holds in expectation), trying them in a seeded order; a
    /// question without an unanswerable form passes the turn to the next,
    /// and a chart without any leaves the debt to the table's next chart.
    fn make_unanswerable(
        &mut self,
        chosen: &mut [Question],
        chart_id: &str,
        config: &SuiteConfig,
        unanswerable_form: impl Fn(&Question, u64) -> Option<Question>,
    ) {
        let about_data =
            |q: &Question| q.answerable && q.question_type != QuestionType::Descriptive;
        self.data_questions += chosen.iter().filter(|q| about_data(q)).count() as u64;
        let share = config.unanswerable_share.clamp(0.0, 1.0);
        let owed =
            (share * self.data_questions as f64 + self.offset("unanswerable")).floor() as u64;
        let mut order: Vec<usize> = (0..chosen.len())
            .filter(|i| about_data(&chosen[*i]))
            .collect();
        order.sort_by_key(|i| seed::derive(self.seed, &["unanswerable", chart_id, &i.to_string()]));
        for i in order {
            if self.made_unanswerable >= owed {
                break;
            }
            let form_seed =
                seed::derive(self.seed, &["unanswerable form", chart_id, &i.to_string()]);
            if let Some(u) = unanswerable_form(&chosen[i], form_seed) {
                self.uncount_answer(&chosen[i]);
                chosen[i] = u;
                self.made_unanswerable += 1;
            }
        }
    }

    /// `axis`' configured share among `axes` (equal shares without quotas).
    pub(super) fn axis_share(axis: &str, axes: &[&str], config: &SuiteConfig) -> f64 {
        let total: f64 = axes.iter().map(|a| weight(&config.quotas.axis, a)).sum();
        if total > 0.0 {
            (weight(&config.quotas.axis, axis) / total).clamp(0.0, 1.0)
        } else {
            0.0
        }
    }

    /// Axes ordered by how much they are owed; ties broken by a seeded rotation.
    pub(super) fn axes_in_order(
        &self,
        axes: &[&'static str],
        config: &SuiteConfig,
        seed: u64,
    ) -> Vec<&'static str> {
        let rot = if axes.is_empty() {
            0
        } else {
            (seed % axes.len() as u64) as usize
        };
        let mut order: Vec<(f64, usize, &'static str)> = axes
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let p = pressure(
                    *self.axes.get(*a).unwrap_or(&0),
                    weight(&config.quotas.axis, a),
                );
                (p, (i + axes.len() - rot) % axes.len(), *a)
            })
            .filter(|(p, _, _)| p.is_finite())
            .collect();
        order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        order.into_iter().map(|(_, _, a)| a).collect()
    }

    pub(super) fn severity(&self, name: &str, config: &SuiteConfig, seed: u64) -> u8 {
        let sevs = &config.severities;
        let rot = (seed % sevs.len() as u64) as usize;
        (0..sevs.len())
            .map(|i| sevs[(i + rot) % sevs.len()])
            .min_by_key(|s| *self.severities.get(&(name.to_string(), *s)).unwrap_or(&0))
            .unwrap_or(1)
    }

    pub(super) fn used(&mut self, axis: &str, name: &str, severity: u8) {
        *self.axes.entry(axis.to_string()).or_default() += 1;
        *self
            .severities
            .entry((name.to_string(), severity))
            .or_default() += 1;
    }
}
