//! Per-table balance: counters that steer chart kinds, question types,
//! families, answer polarity/letters, perturbation axes and severities toward
//! the configured quotas.

use std::collections::BTreeMap;

use super::SuiteConfig;
use crate::ir::{Answer, ChartKind, QuestionType, SetName};
use crate::questions::Question;
use crate::seed;

/// Per-table counters that steer choices toward the configured shares.
#[derive(Default)]
pub(super) struct Balance {
    seed: u64,
    kinds: BTreeMap<ChartKind, u64>,
    types: BTreeMap<QuestionType, u64>,
    families: BTreeMap<String, u64>,
    /// Answer balance per set: (set, yes_no|true_false, value) and (set, letter).
    polarity: BTreeMap<(&'static str, &'static str, bool), u64>,
    letters: BTreeMap<(&'static str, char), u64>,
    axes: BTreeMap<String, u64>,
    severities: BTreeMap<(String, u8), u64>,
    /// Questions selected so far, and how many of them are unanswerable.
    selected: u64,
    unanswerable: u64,
    /// Unanswerable questions selected per type, so they spread over the
    /// types as the answerable ones do and no type gives them away.
    unanswerable_types: BTreeMap<QuestionType, u64>,
    /// The same per family.
    unanswerable_families: BTreeMap<String, u64>,
    /// True and false claims selected per family, so no family's claims
    /// lean one way.
    claims: BTreeMap<(String, bool), u64>,
}

pub(super) const ORIGINAL: &str = SetName::Original.name();

pub(super) fn is_polar(answer: &Answer) -> bool {
    matches!(answer, Answer::YesNo { .. } | Answer::TrueFalse { .. })
}

fn weight(quota: &BTreeMap<String, f64>, key: &str) -> f64 {
    if quota.is_empty() {
        1.0
    } else {
        quota.get(key).copied().unwrap_or(0.0)
    }
}

/// How over-represented a value already is (lower = pick me); infinite when
/// its quota is zero.
fn pressure(count: u64, weight: f64) -> f64 {
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

    /// The table's first chart takes the best-suited kind; later ones take
    /// the least-used kinds in a seeded order, so the less obvious suitable
    /// kinds (area, stacked area, donut) appear across a suite too.
    pub(super) fn pick_kind(
        &mut self,
        options: &[ChartKind],
        config: &SuiteConfig,
    ) -> Option<ChartKind> {
        let first = self.kinds.is_empty();
        let kind = options
            .iter()
            .copied()
            .enumerate()
            .map(|(rank, k)| {
                let p = pressure(
                    *self.kinds.get(&k).unwrap_or(&0),
                    weight(&config.quotas.kind, k.name()),
                );
                let tie = if first {
                    rank as f64
                } else {
                    self.offset(k.name())
                };
                (p, tie, k)
            })
            .filter(|(p, _, _)| p.is_finite())
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)))?
            .2;
        *self.kinds.entry(kind).or_default() += 1;
        Some(kind)
    }

    /// Seeded offset in [0, 1) per value, so small per-table counts do not
    /// always favour the same letter or polarity first.
    fn offset(&self, what: &str) -> f64 {
        (seed::derive(self.seed, &["balance", what]) % 1000) as f64 / 1000.0
    }

    /// Sort key of a candidate (lower is picked first): unanswerable target of
    /// this slot, type quota, for an unanswerable pick how rarely questions
    /// of its shape have an unanswerable form, answer balance (polarity,
    /// letter), family quota.
    fn key(
        &self,
        q: &Question,
        want_unanswerable: bool,
        config: &SuiteConfig,
    ) -> (f64, f64, f64, f64, f64) {
        let u = if q.answerable == want_unanswerable {
            1.0
        } else {
            0.0
        };
        // An unanswerable question goes to the type, and then the family,
        // whose questions are least often unanswerable so far: unanswerable
        // questions then make the same share of every type and family, so
        // neither the type nor the family's words tell.
        let unanswerable_pick = want_unanswerable && !q.answerable;
        fn share_or_count<K: Ord>(
            unanswerable_pick: bool,
            unanswerable: &BTreeMap<K, u64>,
            all: &BTreeMap<K, u64>,
            key: &K,
            w: f64,
        ) -> f64 {
            let asked = *all.get(key).unwrap_or(&0);
            if unanswerable_pick {
                let u = *unanswerable.get(key).unwrap_or(&0);
                (u as f64 + 1.0) / (asked as f64 + 1.0) * pressure(0, w)
            } else {
                pressure(asked, w)
            }
        }
        let t = share_or_count(
            unanswerable_pick,
            &self.unanswerable_types,
            &self.types,
            &q.question_type,
            weight(&config.quotas.question_type, q.question_type.name()),
        );
        let f = share_or_count(
            unanswerable_pick,
            &self.unanswerable_families,
            &self.families,
            &q.family,
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
        // A table selects about one unanswerable question, so the shares
        // above mostly tie at its first pick. Taking the candidate whose kind
        // of question least often has an unanswerable form (an absent
        // element before a whole series before a category) spreads them over
        // the suite as the answerable ones are; left to the pool's order,
        // nearly all went to questions naming a category, and the words
        // "the difference" or "in 2018" told.
        let r = if unanswerable_pick {
            f64::from(crate::questions::unanswerable_rarity(&q.query))
        } else {
            0.0
        };
        (u, t, r, p, f)
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
        self.selected += 1;
        self.unanswerable += u64::from(!q.answerable);
        if !q.answerable {
            *self.unanswerable_types.entry(q.question_type).or_default() += 1;
            *self
                .unanswerable_families
                .entry(q.family.clone())
                .or_default() += 1;
        }
        if let Answer::TrueFalse { value } = q.answer {
            *self.claims.entry((q.family.clone(), value)).or_default() += 1;
        }
        *self.types.entry(q.question_type).or_default() += 1;
        *self.families.entry(q.family.clone()).or_default() += 1;
        self.count_answer(ORIGINAL, &q.answer);
    }

    pub(super) fn count_answer(&mut self, set: &'static str, answer: &Answer) {
        match answer {
            Answer::YesNo { value } => {
                *self.polarity.entry((set, "yes_no", *value)).or_default() += 1
            }
            Answer::TrueFalse { value } => {
                *self
                    .polarity
                    .entry((set, "true_false", *value))
                    .or_default() += 1
            }
            Answer::Choice { letter, .. } => *self.letters.entry((set, *letter)).or_default() += 1,
            _ => {}
        }
    }

    /// Greedy balanced choice of `n` questions among the candidates.
    pub(super) fn select(
        &mut self,
        mut pool: Vec<Question>,
        n: usize,
        chart_id: &str,
        config: &SuiteConfig,
    ) -> Vec<Question> {
        let mut out = Vec::new();
        while out.len() < n && !pool.is_empty() {
            // A slot asks for an unanswerable question while the table is
            // below its share; a chart without an unanswerable candidate leaves
            // the debt to the next one, so the share holds over the suite. The
            // seeded offset moves where each table rounds.
            let share = config.unanswerable_share.clamp(0.0, 1.0);
            let want_unanswerable = share > 0.0
                && (self.unanswerable as f64)
                    < share * (self.selected as f64 + 1.0) - 0.5
                        + self.offset(&format!("unanswerable{chart_id}"));
            let (best, key) = pool
                .iter()
                .enumerate()
                .map(|(i, q)| (i, self.key(q, want_unanswerable, config)))
                .min_by(|a, b| {
                    let (x, y) = (a.1, b.1);
                    x.0.total_cmp(&y.0)
                        .then(x.1.total_cmp(&y.1))
                        .then(x.2.total_cmp(&y.2))
                        .then(x.3.total_cmp(&y.3))
                        .then(x.4.total_cmp(&y.4))
                        .then(a.0.cmp(&b.0))
                })
                .expect("pool is not empty");
            if !(key.1.is_finite() && key.4.is_finite()) {
                break;
            }
            let q = pool.remove(best);
            self.count(&q);
            out.push(q);
        }
        out
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
