//! Which kinds each table's original charts take, planned once over the
//! whole suite (every table, fewest options first, before any is drawn): each chart
//! takes the suitable kind drawn least often so far, so a kind that suits
//! almost every table (bars, lollipops) does not crowd out the rest. The
//! plan depends only on the tables and the config, never on threads or
//! shards.

use std::collections::{BTreeMap, HashMap};

use super::SuiteConfig;
use super::balance::{pressure, weight};
use crate::ir::{ChartKind, Table};

/// Kinds made for one structure of data: a table that suits one draws it
/// first (a bridge as a waterfall, a value with its interval as error bars,
/// observations as a distribution, two unlike measures on two axes).
fn is_specialised(kind: ChartKind) -> bool {
    matches!(
        kind,
        ChartKind::Waterfall
            | ChartKind::ErrorBar
            | ChartKind::Histogram
            | ChartKind::BoxPlot
            | ChartKind::Violin
            | ChartKind::DualAxis
    )
}

/// How much a kind's place in the table's list (best first) weighs against
/// how often it was drawn, as a share of that count per place. A table's
/// first chart leans towards its best kind (a kind is passed over for the
/// next only when drawn a quarter more often); later charts lean lightly,
/// so among kinds drawn about equally often the better ones win.
const FIRST_RANK_COST: f64 = 0.25;
const RANK_COST: f64 = 0.1;

/// The kinds `table` may be drawn as under `config`, specialised kinds first.
pub(super) fn options(table: &Table, config: &SuiteConfig) -> Vec<ChartKind> {
    let suitable = crate::spec::suitable_kinds(table);
    let allowed: Vec<ChartKind> = if config.kinds.is_empty() {
        suitable.into_iter().filter(|k| !k.is_opt_in()).collect()
    } else {
        suitable
            .into_iter()
            .filter(|k| config.kinds.contains(k))
            .collect()
    };
    // A bridge is drawn as a bridge: as plain bars its start would stand
    // among its steps as one more item.
    if allowed.contains(&ChartKind::Waterfall) {
        return vec![ChartKind::Waterfall];
    }
    let (special, general): (Vec<_>, Vec<_>) =
        allowed.into_iter().partition(|k| is_specialised(*k));
    special.into_iter().chain(general).collect()
}

/// Up to `charts_per_table` distinct kinds per table id, in drawing order.
pub(super) fn plan(tables: &[Table], config: &SuiteConfig) -> HashMap<String, Vec<ChartKind>> {
    let mut drawn: BTreeMap<ChartKind, u64> = BTreeMap::new();
    let mut out = HashMap::new();
    // The tables with the fewest kinds to choose from choose first: a long
    // yearly series can only be a line, a bar or an area, while a table of
    // many kinds can then make room around them.
    let mut queue: Vec<(Vec<ChartKind>, &Table)> =
        tables.iter().map(|t| (options(t, config), t)).collect();
    queue.sort_by(|a, b| a.0.len().cmp(&b.0.len()).then_with(|| a.1.id.cmp(&b.1.id)));
    for (options, table) in queue {
        let mut chosen: Vec<ChartKind> = Vec::new();
        if let Some(first) = options.first().filter(|k| is_specialised(**k)) {
            chosen.push(*first);
        }
        while chosen.len() < config.charts_per_table {
            let next = options
                .iter()
                .enumerate()
                .filter(|(_, k)| !chosen.contains(k))
                .map(|(rank, k)| {
                    let p = pressure(
                        drawn.get(k).copied().unwrap_or(0),
                        weight(&config.quotas.kind, k.name()),
                    );
                    let cost = if chosen.is_empty() {
                        FIRST_RANK_COST
                    } else {
                        RANK_COST
                    };
                    (p * (1.0 + cost * rank as f64), rank, *k)
                })
                .filter(|(p, _, _)| p.is_finite())
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let Some((_, _, kind)) = next else { break };
            chosen.push(kind);
        }
        for k in &chosen {
            *drawn.entry(*k).or_default() += 1;
        }
        out.insert(table.id.clone(), chosen);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_kind_crowds_out_the_others_and_specialised_kinds_come_first() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let tables: Vec<Table> = crate::table::table_files(&dir.join("tests/data/real"))
            .unwrap()
            .iter()
            .filter_map(|p| crate::table::load_table(p).ok())
            .chain(
                crate::table::table_files(&dir.join("tests/data/combo"))
                    .unwrap()
                    .iter()
                    .filter_map(|p| crate::table::load_table(p).ok()),
            )
            .collect();
        let config = SuiteConfig {
            kinds: ChartKind::ALL.to_vec(),
            ..SuiteConfig::default()
        };
        let plan = plan(&tables, &config);
        let largest = |lists: &mut dyn Iterator<Item = Vec<ChartKind>>| {
            let mut counts: BTreeMap<ChartKind, usize> = BTreeMap::new();
            for kinds in lists {
                for k in kinds {
                    *counts.entry(k).or_default() += 1;
                }
            }
            (counts.values().copied().max().unwrap_or(0), counts.len())
        };
        // Each table's own best kinds, as a per-table choice would take them.
        let (alone, alone_kinds) = largest(&mut tables.iter().map(|t| {
            let mut o = options(t, &config);
            o.truncate(config.charts_per_table);
            o
        }));
        let (planned, planned_kinds) = largest(&mut plan.values().cloned());
        assert!(
            planned < alone,
            "largest kind {planned} charts planned, {alone} alone"
        );
        assert!(planned_kinds >= alone_kinds);
        // The bridge is drawn as a waterfall first, the interval as error bars.
        assert_eq!(plan["profit_bridge"][0], ChartKind::Waterfall);
        assert_eq!(plan["reaction_times"][0], ChartKind::ErrorBar);
        // Every table keeps its kinds distinct.
        for kinds in plan.values() {
            let distinct: std::collections::BTreeSet<_> = kinds.iter().collect();
            assert_eq!(distinct.len(), kinds.len());
        }
    }
}
