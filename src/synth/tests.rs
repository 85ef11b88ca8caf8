use super::*;
use crate::ir::{ChartKind, ColumnType, Table};
use crate::table::{format_value, load_table, write_table};
use proptest::prelude::*;

fn round_trip(table: &Table) -> Table {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write_table(table, dir.path()).expect("write");
    let mut back =
        load_table(&path).unwrap_or_else(|e| panic!("{} does not reload: {e}", table.id));
    back.source_path = None;
    back
}

#[test]
fn deterministic_and_prefix_stable() {
    let a = synth_tables(42, 12);
    let b = synth_tables(42, 13);
    assert_eq!(a[..], b[..12]);
    assert_eq!(a, synth_tables(42, 12));
    assert_ne!(a, synth_tables(43, 12));
    let ids: Vec<&str> = a.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids[0], "synth-0000-categories");
    assert_eq!(ids[8], "synth-0008-bubble");
    assert_eq!(ids[9], "synth-0009-categories");
}

#[test]
fn every_kind_has_its_shape() {
    for seed in 0..6 {
        for kind in SynthKind::ALL.into_iter().chain(SynthKind::ON_REQUEST) {
            let t = synth_table(seed, 0, kind);
            let offered = crate::spec::suitable_kinds(&t);
            let k = t.series.len();
            match kind {
                SynthKind::Categories => assert_eq!(k, 1),
                SynthKind::Ranking => {
                    assert_eq!(k, 1);
                    assert!(t.n_rows() >= 10);
                    let v: Vec<f64> = t.series[0].values().into_iter().flatten().collect();
                    assert!(v.windows(2).all(|w| w[0] >= w[1]), "ranking is sorted");
                }
                SynthKind::Grouped => assert!((2..=4).contains(&k)),
                SynthKind::Stacked => {
                    // A few named parts and "Other", or every bin of a range.
                    assert!((2..=8).contains(&k), "{k} parts");
                    let names: Vec<&str> = t.series.iter().map(|c| c.name.as_str()).collect();
                    let bins = names.iter().all(|n| {
                        n.starts_with(|c: char| c.is_ascii_digit()) || n.ends_with("and over")
                    });
                    let other_last = names.last() == Some(&"Other");
                    let full_list = crate::synth::measures::COMPOSITIONS.iter().any(|c| {
                        c.parts.len() == k && c.parts.iter().zip(&names).all(|(a, b)| a == b)
                    });
                    assert!(bins || other_last || full_list, "{names:?}");
                    let all_positive = t
                        .series
                        .iter()
                        .flat_map(|c| c.values())
                        .flatten()
                        .all(|v| v >= 0.0);
                    assert!(all_positive);
                }
                SynthKind::Trend => {
                    assert_eq!(t.index.ctype, ColumnType::Year);
                    assert!((1..=4).contains(&k));
                }
                SynthKind::Monthly => assert_eq!(t.index.ctype, ColumnType::Date),
                SynthKind::Shares => {
                    assert_eq!(k, 1);
                    let f = &t.series[0].format;
                    let sum: f64 = t.series[0]
                        .values()
                        .into_iter()
                        .flatten()
                        .map(|v| {
                            format_value(v, f)
                                .trim_end_matches('%')
                                .parse::<f64>()
                                .expect("number")
                        })
                        .sum();
                    assert!((sum - 100.0).abs() < 1e-9, "{}: sum {sum}", t.id);
                }
                SynthKind::Scatter => assert_eq!(k, 2),
                SynthKind::Bubble => assert_eq!(k, 3),
                // The on-request shapes are made for their kinds.
                SynthKind::Waterfall => {
                    assert!(offered.contains(&ChartKind::Waterfall), "{offered:?}")
                }
                SynthKind::ErrorBar => {
                    assert!(offered.contains(&ChartKind::ErrorBar), "{offered:?}")
                }
                SynthKind::Samples => {
                    assert!(offered.contains(&ChartKind::Histogram), "{offered:?}")
                }
                SynthKind::Change => {
                    assert_eq!(k, 1);
                    assert!(offered.contains(&ChartKind::DivergingBar), "{offered:?}");
                }
                SynthKind::Pair => {
                    assert_eq!(k, 2);
                    assert!(offered.contains(&ChartKind::Dumbbell), "{offered:?}");
                    assert!(offered.contains(&ChartKind::Slope), "{offered:?}");
                }
                SynthKind::Profile => {
                    assert!((1..=3).contains(&k));
                    assert!(offered.contains(&ChartKind::Radar), "{offered:?}");
                }
                SynthKind::DualAxis => {
                    assert!(offered.contains(&ChartKind::DualAxis), "{offered:?}")
                }
            }
            assert_eq!(
                t.index.ctype == ColumnType::Text,
                t.index
                    .cells
                    .iter()
                    .all(|c| matches!(c, crate::ir::Cell::Text(_)))
            );
            assert!(t.meta.source.is_some());
        }
    }
}

#[test]
fn variety_across_seeds() {
    let tables = synth_tables(7, 90);
    let titles: std::collections::HashSet<_> =
        tables.iter().filter_map(|t| t.meta.title.clone()).collect();
    assert!(titles.len() > 60, "only {} distinct titles", titles.len());
    assert!(
        tables.iter().any(|t| t.meta.title.is_none()),
        "some tables have no title"
    );
    assert!(tables.iter().any(|t| t.meta.paragraph.is_some()));
    let has_negative = tables.iter().any(|t| {
        t.series
            .iter()
            .flat_map(|c| c.values())
            .flatten()
            .any(|v| v < 0.0)
    });
    assert!(has_negative);
    let has_billions = tables
        .iter()
        .any(|t| t.meta.unit.as_deref() == Some("US$ billion"));
    assert!(has_billions);
    let has_missing = tables.iter().any(|t| {
        t.series
            .iter()
            .any(|c| c.cells.iter().any(|c| c.is_missing()))
    });
    assert!(has_missing);
}

#[test]
fn synthesized_tables_round_trip() {
    for table in synth_tables(3, 27) {
        let mut expected = table.clone();
        expected.source_path = None;
        assert_eq!(round_trip(&table), expected, "{}", table.id);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn write_then_load_is_identity(seed in any::<u64>(), index in 0usize..200) {
        let kind = SynthKind::ALL[index % SynthKind::ALL.len()];
        let table = synth_table(seed, index, kind);
        prop_assert_eq!(round_trip(&table), table);
    }
}

#[test]
fn some_tables_carry_a_subtitle_or_a_note_without_numbers() {
    let tables = synth_tables(7, 300);
    let subtitles = tables.iter().filter(|t| t.meta.subtitle.is_some()).count();
    let notes = tables.iter().filter(|t| t.meta.footnote.is_some()).count();
    // About 0.35 × 0.9 and 0.25 of the tables.
    assert!((60..=140).contains(&subtitles), "{subtitles}");
    assert!((45..=110).contains(&notes), "{notes}");
    for t in &tables {
        if t.meta.subtitle.is_some() {
            assert!(t.meta.title.is_some(), "a subtitle goes under a title");
        }
        if let Some(note) = &t.meta.footnote {
            assert!(!note.chars().any(|c| c.is_ascii_digit()), "{note}");
        }
    }
}

#[test]
fn waterfall_tables_suit_a_waterfall() {
    for seed in 0..40 {
        let t = synth_table(seed, 0, SynthKind::Waterfall);
        assert!(
            crate::spec::suitable_kinds(&t).contains(&crate::ir::ChartKind::Waterfall),
            "{seed}: {t:?}"
        );
    }
    // Made only on request: the rotation is unchanged.
    assert!(!SynthKind::ALL.contains(&SynthKind::Waterfall));
    assert_eq!(
        SynthKind::from_name("waterfall"),
        Some(SynthKind::Waterfall)
    );
}

#[test]
fn error_bar_tables_suit_error_bars() {
    for seed in 0..40 {
        let t = synth_table(seed, 0, SynthKind::ErrorBar);
        assert!(
            crate::spec::suitable_kinds(&t).contains(&crate::ir::ChartKind::ErrorBar),
            "{seed}: {t:?}"
        );
    }
}

#[test]
fn samples_are_groups_of_raw_observations() {
    let mut with_outliers = 0;
    for seed in 0..8 {
        let t = synth_table(seed, 0, SynthKind::Samples);
        assert!(t.meta.samples && crate::spec::stat::is_samples(&t));
        assert!((2..=4).contains(&t.series.len()));
        let mut outliers = 0;
        for c in &t.series {
            let v: Vec<f64> = c.values().into_iter().flatten().collect();
            assert!((30..=200).contains(&v.len()), "{}: {}", c.name, v.len());
            outliers += crate::spec::stat::BoxStats::of(&v).unwrap().outliers.len();
        }
        with_outliers += usize::from(outliers > 0);
        assert_eq!(
            t,
            synth_table(seed, 0, SynthKind::Samples),
            "seeded: the same table twice"
        );
    }
    // Skew and planted outliers leave points beyond the whiskers on most tables.
    assert!(
        with_outliers >= 6,
        "{with_outliers} of 8 tables with outliers"
    );
}

#[test]
fn dual_axis_tables_suit_dual_axes() {
    for seed in 0..40 {
        let t = synth_table(seed, 0, SynthKind::DualAxis);
        assert!(
            crate::spec::suitable_kinds(&t).contains(&crate::ir::ChartKind::DualAxis),
            "{seed}: {t:?}"
        );
    }
}
