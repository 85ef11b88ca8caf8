//! Loads every shipped fixture and every broken table under tests/data/bad.

use chartstress::ir::{ColumnType, Table};
use chartstress::table::{format_value, load_table, load_tables, write_table};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn fixtures() -> Vec<Table> {
    let (tables, errors) = load_tables(&[root().join("fixtures")], true);
    assert!(errors.is_empty(), "fixture errors: {errors:?}");
    tables
}

fn fixture(tables: &[Table], id: &str) -> Table {
    tables
        .iter()
        .find(|t| t.id == id)
        .unwrap_or_else(|| panic!("fixture {id} is missing"))
        .clone()
}

fn printed_sum(t: &Table, series: usize) -> f64 {
    let col = &t.series[series];
    col.values()
        .into_iter()
        .flatten()
        .map(|v| {
            format_value(v, &col.format)
                .trim_end_matches('%')
                .parse::<f64>()
                .expect("number")
        })
        .sum()
}

#[test]
fn every_fixture_loads_with_a_sidecar() {
    let tables = fixtures();
    assert!(tables.len() >= 20, "only {} fixtures", tables.len());
    let hand_written = tables
        .iter()
        .filter(|t| !t.id.starts_with("synth-"))
        .count();
    assert!(
        hand_written >= 16,
        "only {hand_written} hand-written fixtures"
    );
    for t in &tables {
        let path = PathBuf::from(t.source_path.as_deref().expect("source path"));
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("stem");
        assert_eq!(stem, t.id);
        assert!(
            path.with_file_name(format!("{stem}.meta.json")).exists(),
            "{} has no sidecar",
            t.id
        );
        assert!(t.meta.source.is_some(), "{} has no source", t.id);
        assert!(!t.series.is_empty() && t.n_rows() > 0);
        for s in &t.series {
            assert!(
                matches!(s.ctype, ColumnType::Number | ColumnType::Year),
                "{}",
                t.id
            );
            assert_eq!(s.cells.len(), t.n_rows());
        }
    }
    let untitled = tables.iter().filter(|t| t.meta.title.is_none()).count();
    assert!(untitled >= 2, "some fixtures have no title on purpose");
    // Folder order is path order.
    let ids: Vec<&str> = tables.iter().map(|t| t.id.as_str()).collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    assert_eq!(ids, sorted);
}

#[test]
fn fixture_shapes_and_types() {
    let tables = fixtures();
    let t = fixture(&tables, "gdp_growth_g7");
    assert_eq!((t.n_rows(), t.series.len()), (7, 1));
    assert_eq!(t.index.ctype, ColumnType::Text);
    assert_eq!(
        t.value("GDP growth 2023", t.row_of("Germany").expect("row")),
        Some(-0.3)
    );
    assert_eq!(t.series[0].format.suffix.as_deref(), Some("%"));

    let t = fixture(&tables, "largest_employers_long_labels");
    assert!(t.category_labels().iter().any(|l| l.len() > 45));

    let t = fixture(&tables, "smartphone_shipments_grouped");
    assert_eq!(t.series_names(), vec!["2021", "2022", "2023"]);

    let t = fixture(&tables, "energy_mix_stacked");
    assert_eq!(t.series.len(), 4);

    let t = fixture(&tables, "ev_diesel_crossing");
    assert_eq!(t.index.ctype, ColumnType::Year);
    let ev = t.series[0].values();
    let diesel = t.series[1].values();
    assert!(
        ev[0] < diesel[0] && ev[ev.len() - 1] > diesel[diesel.len() - 1],
        "lines cross"
    );

    let t = fixture(&tables, "life_expectancy_no_cross");
    assert!(t.meta.title.is_none());
    assert!(
        t.series[0]
            .values()
            .iter()
            .zip(t.series[1].values())
            .all(|(a, b)| a > &b)
    );

    let t = fixture(&tables, "browser_share_pie");
    assert!((printed_sum(&t, 0) - 100.0).abs() < 1e-9);
    let t = fixture(&tables, "household_budget_donut");
    assert!((printed_sum(&t, 0) - 100.0).abs() < 1e-9);
    assert_eq!(t.series[0].format.decimals, 0);

    let t = fixture(&tables, "city_income_rent_scatter");
    assert_eq!(t.series.len(), 2);
    assert!(t.series.iter().all(|s| s.format.thousands));
    let t = fixture(&tables, "country_bubble");
    assert_eq!(t.series.len(), 3);

    let t = fixture(&tables, "company_profit_loss");
    assert_eq!(t.series[0].format.prefix.as_deref(), Some("$"));
    assert_eq!(t.value("Net income 2022", 1), Some(-310.2), "Unicode minus");

    let t = fixture(&tables, "rainfall_missing");
    assert_eq!(t.index.ctype, ColumnType::Date);
    assert_eq!(t.category_labels()[0], "2023-01");
    let missing: usize = t
        .series
        .iter()
        .map(|s| s.cells.iter().filter(|c| c.is_missing()).count())
        .sum();
    assert_eq!(missing, 5);

    let t = fixture(&tables, "city_budget_millions");
    assert_eq!(t.value("Budget 2024", 1), Some(2_915_750_000.0));
    let t = fixture(&tables, "cloud_revenue_billions");
    assert_eq!(t.meta.unit.as_deref(), Some("US$ billion"));

    let t = fixture(&tables, "exchange_rates_decimals");
    let decimals: Vec<u8> = t.series.iter().map(|s| s.format.decimals).collect();
    assert_eq!(decimals, vec![4, 4, 2]);
    assert_eq!(t.index.ctype, ColumnType::Date);

    let t = fixture(&tables, "internet_users_many_countries");
    assert_eq!(t.n_rows(), 30);
    let t = fixture(&tables, "retail_sales_monthly");
    assert_eq!((t.n_rows(), t.index.ctype), (24, ColumnType::Date));
    let t = fixture(&tables, "coffee_tea");
    assert!(
        t.source_path
            .as_deref()
            .is_some_and(|p| p.ends_with(".tsv"))
    );
    assert_eq!(t.series.len(), 2);
    let t = fixture(&tables, "air_quality_columns");
    assert_eq!((t.n_rows(), t.series.len()), (10, 2));

    let t = fixture(&tables, "social_media_long");
    assert_eq!(t.category_labels(), vec!["18–29", "30–49", "50–64", "65+"]);
    assert_eq!(
        t.series_names(),
        vec!["YouTube", "Instagram", "TikTok", "Facebook"]
    );
    assert_eq!(t.value("TikTok", 3), Some(10.0));

    let t = fixture(&tables, "temperature_anomaly");
    assert_eq!(t.index.ctype, ColumnType::Year);
    assert!(t.series[0].values().iter().flatten().any(|v| *v < 0.0));
    assert_eq!(t.series[0].format.decimals, 2);
}

#[test]
fn every_fixture_round_trips_through_write_table() {
    let out = tempfile::tempdir().expect("tempdir");
    for t in fixtures() {
        let path = write_table(&t, out.path()).expect("write");
        let mut back = load_table(&path).unwrap_or_else(|e| panic!("{e}"));
        back.source_path = t.source_path.clone();
        assert_eq!(back, t, "{}", t.id);
    }
}

/// Every broken table and the exact message it gets (file, line, column).
const BAD: &[(&str, &str)] = &[
    (
        "bad_sidecar.csv",
        "bad_sidecar.meta.json: line 3, column 12: bad metadata sidecar: unknown field `subtitel`, expected one of `title`, `subtitle`, `footnote`, `note`, `x_label`, `y_label`, `unit`, `units`, `source`, `paragraph`, `index`, `series`, `additive`, `measure`, `notes`",
    ),
    (
        "duplicate_header.csv",
        "duplicate_header.csv: line 1, column 3 (\"Sales\"): duplicate column header \"Sales\" (first used by column 2)",
    ),
    (
        "duplicate_label.csv",
        "duplicate_label.csv: line 4, column 1 (\"Country\"): duplicate category \"France\" (first on line 2)",
    ),
    (
        "duplicate_pair_long.csv",
        "duplicate_pair_long.csv: line 5, column 1 (\"region\"): duplicate (category, series) pair (\"North\", \"Cars\") in a long table (first on line 2)",
    ),
    ("empty.csv", "empty.csv: the table has no data rows"),
    (
        "empty_header.csv",
        "empty_header.csv: line 1, column 2: empty column header",
    ),
    (
        "header_only.csv",
        "header_only.csv: the table has no data rows",
    ),
    (
        "infinite.csv",
        "infinite.csv: line 3, column 2 (\"Population\"): value \"1e400\" is not a finite number (NaN and infinity cannot be charted)",
    ),
    (
        "invalid_utf8.csv",
        "invalid_utf8.csv: line 3, column 1 (\"City\"): invalid UTF-8",
    ),
    (
        "malformed.json",
        "malformed.json: line 3, column 19: malformed JSON: expected `,` or `}`",
    ),
    (
        "missing_label.csv",
        "missing_label.csv: line 3, column 1 (\"Country\"): missing category label in the index column",
    ),
    (
        "mixed_units.csv",
        "mixed_units.csv: line 3, column 2 (\"Price\"): value \"$3.10\" uses unit \"$\" but the column uses \"€\"",
    ),
    (
        "nan.csv",
        "nan.csv: line 3, column 2 (\"Rainfall\"): value \"NaN\" is not a finite number (NaN and infinity cannot be charted)",
    ),
    (
        "nested.json",
        "nested.json: line 3, column 2 (\"Visitors\"): a cell holds a JSON array or object; cells must be strings, numbers or null",
    ),
    (
        "no_series.csv",
        "no_series.csv: the table has no series columns (only an index column)",
    ),
    (
        "non_numeric.csv",
        "non_numeric.csv: line 3, column 2 (\"Units\"): non-numeric value \"n/k\" in a numeric series",
    ),
    (
        "ragged.csv",
        "ragged.csv: line 3: row has 2 cells but the header has 3",
    ),
    (
        "ragged.tsv",
        "ragged.tsv: line 3: row has 4 cells but the header has 3",
    ),
];

fn bad_dir() -> PathBuf {
    root().join("tests/data/bad")
}

fn relative(message: &str) -> String {
    message.replace(&format!("{}/", bad_dir().display()), "")
}

#[test]
fn every_bad_table_gets_its_message() {
    for (file, expected) in BAD {
        let err = load_table(&bad_dir().join(file)).expect_err(file);
        assert_eq!(relative(&err.to_string()), *expected, "for {file}");
    }
}

#[test]
fn batch_skips_bad_tables_and_strict_stops() {
    let inputs = [root().join("fixtures/gdp_growth_g7.csv"), bad_dir()];
    let (tables, errors) = load_tables(&inputs, false);
    assert_eq!(tables.len(), 1);
    let messages: Vec<String> = errors.iter().map(|e| relative(&e.to_string())).collect();
    let expected: Vec<&str> = BAD.iter().map(|(_, m)| *m).collect();
    assert_eq!(messages, expected, "one error per bad table, in path order");
    let (tables, errors) = load_tables(&inputs, true);
    assert_eq!((tables.len(), errors.len()), (1, 1));
    assert_eq!(relative(&errors[0].to_string()), BAD[0].1);
}

#[test]
fn synthesized_fixtures_are_what_synth_writes() {
    // The synth-* fixtures were made with these commands; regenerating them
    // must give the same bytes (a change in synth shows up here).
    let out = tempfile::tempdir().expect("tempdir");
    let bin = env!("CARGO_BIN_EXE_chartstress");
    for extra in [
        &["--count", "4"][..],
        &["--count", "1", "--kind", "shares"],
        &["--count", "1", "--kind", "monthly"],
    ] {
        let status = Command::new(bin)
            .args(["synth", "--seed", "2026", "-o"])
            .arg(out.path())
            .args(extra)
            .status()
            .expect("run synth");
        assert!(status.success());
    }
    let mut count = 0;
    for entry in std::fs::read_dir(out.path()).expect("read dir") {
        let path = entry.expect("entry").path();
        let name = path.file_name().expect("name");
        let shipped = std::fs::read(root().join("fixtures").join(name)).expect("fixture exists");
        assert_eq!(std::fs::read(&path).expect("read"), shipped, "{name:?}");
        count += 1;
    }
    assert_eq!(count, 12);
}

/// Tables that were once refused and are now shaped: each says what was done.
#[test]
fn once_refused_tables_are_shaped_with_a_note() {
    let dir = root().join("tests/data/shaped");
    let cases: &[(&str, &str, usize, usize)] = &[
        (
            "all_missing.csv",
            "column 3 (\"Returns\") is empty, not charted",
            3,
            1,
        ),
        ("too_many_categories.csv", "charted: top 20 of 61 by", 20, 1),
        (
            "too_many_series.csv",
            "charted: the 8 of 13 series with the largest values",
            1,
            8,
        ),
    ];
    for (file, note, rows, series) in cases {
        let t = load_table(&dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(
            t.meta.notes.iter().any(|n| n.starts_with(note)),
            "{file}: {:?}",
            t.meta.notes
        );
        assert_eq!((t.n_rows(), t.series.len()), (*rows, *series), "{file}");
    }
}
