//! Property: on random synthesized tables and seeds, every generated item is
//! answered right by both built-in checks — the `oracle` (the executor on the
//! chart's data) and the `reader` (only what the image shows) — so each set's
//! accuracy for both is 100%, unanswerable items included.

use chartstress::ir::{ChartRecord, Item};
use chartstress::reader::{self, View};
use chartstress::suite::{SuiteConfig, generate_suite, read_charts, read_items};
use chartstress::synth::synth_tables;
use proptest::prelude::*;
use std::collections::HashMap;

fn suite(table_seed: u64, suite_seed: u64) -> (Vec<Item>, HashMap<String, ChartRecord>) {
    suite_of(table_seed, suite_seed, 3, Vec::new())
}

fn suite_of(
    table_seed: u64,
    suite_seed: u64,
    n_tables: usize,
    kinds: Vec<chartstress::ir::ChartKind>,
) -> (Vec<Item>, HashMap<String, ChartRecord>) {
    let tables = synth_tables(table_seed, n_tables);
    let out = tempfile::tempdir().unwrap();
    let config = SuiteConfig {
        seed: suite_seed,
        charts_per_table: 2,
        questions_per_chart: 4,
        kinds,
        ..SuiteConfig::default()
    };
    generate_suite(&tables, &config, out.path(), false).unwrap();
    let items = read_items(out.path()).unwrap();
    let charts = read_charts(out.path())
        .unwrap()
        .into_iter()
        .map(|c| (c.id.clone(), c))
        .collect();
    (items, charts)
}

/// Every item answered right by the oracle and the reader.
fn check_all(items: &[Item], charts: &HashMap<String, ChartRecord>) -> Result<(), TestCaseError> {
    for item in items {
        let chart = &charts[&item.chart_id];
        let oracle = chartstress::query::execute(&item.query, &chart.spec, &chart.scene)
            .unwrap_or(chartstress::ir::Answer::Unanswerable);
        prop_assert_eq!(
            &oracle,
            &item.answer,
            "oracle on {}: {}",
            &item.id,
            &item.question
        );
        let view = View::for_item(&item.perturbations, item.paragraph.is_some());
        let reading = reader::answer(&item.query, &chart.spec, &chart.scene, &view);
        prop_assert!(
            reader::agrees(&item.answer, &reading),
            "reader on {}: {} gold {:?}, read {:?}",
            &item.id,
            &item.question,
            &item.answer,
            reading
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3, ..ProptestConfig::default() })]

    /// The opt-in kinds, named in `kinds`, on synthesized tables.
    #[test]
    fn reader_and_oracle_answer_every_item_of_the_opt_in_kinds(
        table_seed in 0u64..10_000,
        suite_seed in 0u64..10_000,
    ) {
        use chartstress::ir::ChartKind;
        let (items, charts) = suite_of(
            table_seed,
            suite_seed,
            6,
            vec![ChartKind::PercentStackedBar, ChartKind::Lollipop],
        );
        prop_assert!(!items.is_empty());
        prop_assert!(items.iter().any(|i| i.chart_kind.is_opt_in()));
        check_all(&items, &charts)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, ..ProptestConfig::default() })]

    #[test]
    fn reader_and_oracle_answer_every_item(table_seed in 0u64..10_000, suite_seed in 0u64..10_000) {
        let (items, charts) = suite(table_seed, suite_seed);
        prop_assert!(!items.is_empty());
        for item in &items {
            let chart = &charts[&item.chart_id];
            let oracle = chartstress::query::execute(&item.query, &chart.spec, &chart.scene)
                .unwrap_or(chartstress::ir::Answer::Unanswerable);
            prop_assert_eq!(&oracle, &item.answer, "oracle on {}: {}", &item.id, &item.question);
            let view = View::for_item(&item.perturbations, item.paragraph.is_some());
            let reading = reader::answer(&item.query, &chart.spec, &chart.scene, &view);
            prop_assert!(
                reader::agrees(&item.answer, &reading),
                "reader on {}: {} gold {:?}, read {:?}",
                &item.id, &item.question, &item.answer, reading
            );
        }
    }
}

/// Shares of `key` among items, for values with at least `min` items.
fn shares(items: &[Item], key: impl Fn(&Item) -> String) -> HashMap<String, f64> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for item in items {
        *counts.entry(key(item)).or_default() += 1;
    }
    counts
        .into_iter()
        .map(|(k, n)| (k, n as f64 / items.len() as f64))
        .collect()
}

/// The gate does not buy validity by making the suite easy: on the fixtures,
/// no family, question type or chart kind of any weight loses more than half
/// its share to it.
#[test]
fn the_gate_keeps_the_mix() {
    let (tables, errors) = chartstress::table::load_tables(&["fixtures".into()], false);
    assert!(errors.is_empty());
    let run = |gate: bool| {
        let out = tempfile::tempdir().unwrap();
        let config = SuiteConfig {
            seed: 5,
            readability_gate: gate,
            ..SuiteConfig::default()
        };
        let summary = generate_suite(&tables, &config, out.path(), false).unwrap();
        (read_items(out.path()).unwrap(), summary)
    };
    let (gated, summary) = run(true);
    let (open, _) = run(false);
    let dropped: u64 = summary
        .dropped
        .iter()
        .filter(|(k, _)| k.starts_with("reader:"))
        .map(|(_, n)| n)
        .sum();
    assert!(
        dropped > 0,
        "the gate dropped nothing: {:?}",
        summary.dropped
    );
    type Key = fn(&Item) -> String;
    let dims: [(&str, Key); 3] = [
        ("family", |i| i.family.clone()),
        ("question type", |i| i.question_type.name().to_string()),
        ("chart kind", |i| i.chart_kind.name().to_string()),
    ];
    for (dim, key) in dims {
        let before = shares(&open, key);
        let after = shares(&gated, key);
        for (value, share) in &before {
            if *share < 0.02 {
                continue;
            }
            let kept = after.get(value).copied().unwrap_or(0.0);
            assert!(
                kept * 2.0 >= *share,
                "{dim} {value}: share {:.1}% without the gate, {:.1}% with it",
                share * 100.0,
                kept * 100.0
            );
        }
    }
}

/// A suite of heatmaps only (grouped, monthly and stacked fixtures; every
/// chart set): the oracle and the reader answer every item, the colour bar
/// family and the cell families are asked, and the palette, theme, data
/// labels and kind swap perturbations take heatmaps.
#[test]
fn heatmap_suites_are_answered_by_oracle_and_reader() {
    use chartstress::ir::{ChartKind, SetName};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let paths: Vec<std::path::PathBuf> = [
        "smartphone_shipments_grouped.csv",
        "retail_sales_monthly.csv",
        "synth-0002-grouped.csv",
        "synth-0003-stacked.csv",
        "energy_mix_stacked.csv",
        "synth-0000-monthly.csv",
        "coffee_tea.tsv",
    ]
    .iter()
    .map(|f| dir.join(f))
    .collect();
    let (tables, errors) = chartstress::table::load_tables(&paths, false);
    assert!(errors.is_empty(), "{errors:?}");
    let out = tempfile::tempdir().unwrap();
    let config = SuiteConfig {
        seed: 3,
        charts_per_table: 1,
        questions_per_chart: 8,
        variants_per_original: 2,
        kinds: vec![ChartKind::Heatmap],
        sets: vec![
            SetName::Original,
            SetName::ModifiedChart,
            SetName::ModifiedQuestion,
        ],
        ..SuiteConfig::default()
    };
    generate_suite(&tables, &config, out.path(), false).unwrap();
    let items = read_items(out.path()).unwrap();
    let charts: HashMap<String, ChartRecord> = read_charts(out.path())
        .unwrap()
        .into_iter()
        .map(|c| (c.id.clone(), c))
        .collect();
    for item in &items {
        let chart = &charts[&item.chart_id];
        let oracle = chartstress::query::execute(&item.query, &chart.spec, &chart.scene)
            .unwrap_or(chartstress::ir::Answer::Unanswerable);
        assert_eq!(
            oracle, item.answer,
            "oracle on {}: {}",
            item.id, item.question
        );
        let view = View::for_item(&item.perturbations, item.paragraph.is_some());
        let reading = reader::answer(&item.query, &chart.spec, &chart.scene, &view);
        assert!(
            reader::agrees(&item.answer, &reading),
            "reader on {}: {} gold {:?}, read {:?}",
            item.id,
            item.question,
            item.answer,
            reading
        );
    }
    let originals: Vec<&Item> = items
        .iter()
        .filter(|i| i.set == SetName::Original)
        .collect();
    assert!(originals.iter().all(|i| i.chart_kind == ChartKind::Heatmap));
    for family in ["value_at", "argmax", "argmin", "highest_colorbar_tick"] {
        assert!(
            originals.iter().any(|i| i.family == family),
            "{family} asked of heatmaps"
        );
    }
    let applied = |name: &str| {
        items
            .iter()
            .any(|i| i.perturbations.iter().any(|p| p.name == name))
    };
    for name in [
        "palette",
        "theme",
        "data_labels",
        "kind_swap",
        "font_family",
    ] {
        assert!(applied(name), "{name} applied to heatmaps");
    }
}
