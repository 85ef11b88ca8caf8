//! Synthesized tables: real and invented names side by side, magnitudes
//! inside each measure's scale and fitted to the named place, trends with
//! bounded noise, seasonality and outliers, negatives, shares that print to
//! exactly 100, and matching titles, labels, units once, and sources dated
//! at or after the data.
//!
//! Every table draws from its own generator, seeded from (seed, kind, index),
//! so table `i` is the same whether 5 or 500 tables are generated.

mod dual_axis;
mod error_bar;
mod fit;
pub(crate) mod kinds;
pub(crate) mod measures;
pub(crate) mod names;
pub(crate) mod real_names;
mod samples;
mod shape;
mod values;
mod waterfall;

pub use values::round_to;

use crate::ir::Table;
use rayon::prelude::*;

pub(crate) type SynthRng = rand_xoshiro::Xoshiro256PlusPlus;

/// The shapes `synth` can produce, each suited to some chart kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SynthKind {
    /// One series over 4–10 categories (vertical bar).
    Categories,
    /// One series over 10–25 long labels, sorted (horizontal bar).
    Ranking,
    /// 2–4 series over categories (grouped bar).
    Grouped,
    /// Parts of a whole over categories (stacked bar).
    Stacked,
    /// 1–4 series over years (line, area).
    Trend,
    /// 1–3 series over 12–24 months with seasonality (line).
    Monthly,
    /// Shares summing to exactly 100 (pie, donut).
    Shares,
    /// Two numeric columns over labelled points (scatter).
    Scatter,
    /// Two numeric columns and a size column (bubble).
    Bubble,
    /// A start value and signed steps (waterfall). Made only when asked
    /// for: it is not in [`SynthKind::ALL`]'s rotation, so unkinded runs
    /// keep their tables.
    Waterfall,
    /// A mean per group with its interval (error bars), also on request only.
    ErrorBar,
    /// Raw observations of a few groups (histogram, box, violin). Not in
    /// the default rotation ([`SynthKind::ALL`]), so tables synthesized
    /// without a kind stay as they were; ask for it by name.
    Samples,
    /// One signed series (a net change) over 5–12 categories (diverging
    /// bar). Made only on request (`--kind`), like the two below.
    Change,
    /// The same measure in two years over 4–8 categories (dumbbell, slope).
    Pair,
    /// Scores of 1–3 items on 5–8 attributes of one scale (radar).
    Profile,
    /// Two measures in different units or scales (a dual-axis chart), also
    /// on request only.
    DualAxis,
}

impl SynthKind {
    pub const ALL: [SynthKind; 9] = [
        SynthKind::Categories,
        SynthKind::Ranking,
        SynthKind::Grouped,
        SynthKind::Stacked,
        SynthKind::Trend,
        SynthKind::Monthly,
        SynthKind::Shares,
        SynthKind::Scatter,
        SynthKind::Bubble,
    ];

    pub fn name(self) -> &'static str {
        match self {
            SynthKind::Change => "change",
            SynthKind::Pair => "pair",
            SynthKind::Profile => "profile",
            SynthKind::Categories => "categories",
            SynthKind::Ranking => "ranking",
            SynthKind::Grouped => "grouped",
            SynthKind::Stacked => "stacked",
            SynthKind::Trend => "trend",
            SynthKind::Monthly => "monthly",
            SynthKind::Shares => "shares",
            SynthKind::Scatter => "scatter",
            SynthKind::Bubble => "bubble",
            SynthKind::Waterfall => "waterfall",
            SynthKind::ErrorBar => "error_bar",
            SynthKind::Samples => "samples",
            SynthKind::DualAxis => "dual_axis",
        }
    }

    /// Shapes made only when asked for: the round robin over [`Self::ALL`]
    /// stays as it was, so every seeded table list is unchanged.
    pub const ON_REQUEST: [SynthKind; 7] = [
        SynthKind::Waterfall,
        SynthKind::ErrorBar,
        SynthKind::Samples,
        SynthKind::Change,
        SynthKind::Pair,
        SynthKind::Profile,
        SynthKind::DualAxis,
    ];

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .chain(Self::ON_REQUEST)
            .find(|k| k.name() == name)
    }

    pub fn names() -> Vec<&'static str> {
        Self::ALL
            .iter()
            .chain(&Self::ON_REQUEST)
            .map(|k| k.name())
            .collect()
    }
}

/// One table of the given kind. The id is `synth-IIII-KIND`.
pub fn synth_table(seed: u64, index: usize, kind: SynthKind) -> Table {
    let id = format!("synth-{index:04}-{}", kind.name());
    let mut rng = crate::seed::rng(seed, &["synth", kind.name(), &index.to_string()]);
    let mut table = kinds::generate(kind, &mut rng);
    table.id = id;
    table
}

/// `count` tables; without a kind, the kinds take turns (table `i` has kind
/// `ALL[i % 9]`), so any 9 consecutive tables cover every shape.
pub fn synth_tables_of(seed: u64, count: usize, kind: Option<SynthKind>) -> Vec<Table> {
    (0..count)
        .into_par_iter()
        .map(|i| {
            synth_table(
                seed,
                i,
                kind.unwrap_or(SynthKind::ALL[i % SynthKind::ALL.len()]),
            )
        })
        .collect()
}

/// `count` tables of varied shapes with realistic names.
pub fn synth_tables(seed: u64, count: usize) -> Vec<Table> {
    synth_tables_of(seed, count, None)
}

#[cfg(test)]
mod plausible_tests;
#[cfg(test)]
mod tests;
