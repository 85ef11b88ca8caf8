//! Property test over hostile tables: random headers and cells drawn from
//! the shapes that broke loaders and renderers (float limits, NaN, control
//! characters, very long labels, duplicates, blanks, dates, units). For every
//! table: loading never panics; an accepted table holds only finite numbers
//! within the chartable range, and every kind suited to it renders without
//! panicking into a scene whose numbers are all finite.

use chartstress::ir::Cell;
use chartstress::{render, spec, table};
use proptest::prelude::*;

fn hostile() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("1e308".to_string()),
        Just("-1e308".to_string()),
        Just("9e307".to_string()),
        Just("1e-300".to_string()),
        Just("999999999999999".to_string()),
        Just("-999999999999999".to_string()),
        Just("0.000001".to_string()),
        Just("NaN".to_string()),
        Just("inf".to_string()),
        Just(String::new()),
        Just("NA".to_string()),
        Just("$1,200".to_string()),
        Just("12.5%".to_string()),
        Just("2021-03".to_string()),
        Just("Jan 1 2000".to_string()),
        Just("1999".to_string()),
        "[\\x00-\\x1f]{1,3}",
        (1usize..3000).prop_map(|n| "w".repeat(n)),
        Just("\u{202e}evil<script>".to_string()),
    ]
}

/// A value cell: mostly ordinary numbers, sometimes hostile.
fn cell() -> impl Strategy<Value = String> {
    prop_oneof![
        40 => (-1e6f64..1e6).prop_map(|v| format!("{v:.2}")),
        10 => (0u32..3000).prop_map(|v| v.to_string()),
        1 => "[a-z]{1,8}",
        1 => hostile(),
    ]
}

/// A label cell: mostly names, sometimes years, duplicates or hostile text.
fn label() -> impl Strategy<Value = String> {
    prop_oneof![
        16 => "[A-Z][a-z]{1,7}",
        4 => (1990u32..2030).prop_map(|y| y.to_string()),
        1 => Just("Same".to_string()),
        1 => hostile(),
    ]
}

fn csv_field(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

fn table_csv() -> impl Strategy<Value = String> {
    (1usize..6, 2usize..16).prop_flat_map(|(cols, rows)| {
        (
            prop::collection::vec(
                prop_oneof!["[A-Za-z ]{0,10}", Just("year".to_string())],
                cols + 1,
            ),
            prop::collection::vec((label(), prop::collection::vec(cell(), cols)), rows),
        )
            .prop_map(|(headers, rows)| {
                // Distinct, non-empty headers: header errors are tested elsewhere,
                // and most cases should reach shaping and rendering.
                let mut out = headers
                    .iter()
                    .enumerate()
                    .map(|(i, h)| csv_field(&format!("{h}{i}")))
                    .collect::<Vec<_>>()
                    .join(",");
                out.push('\n');
                for (l, r) in rows {
                    let cells = std::iter::once(&l).chain(&r).map(|c| csv_field(c));
                    out.push_str(&cells.collect::<Vec<_>>().join(","));
                    out.push('\n');
                }
                out
            })
    })
}

fn finite_json(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::Number(n) => n.as_f64().is_some_and(f64::is_finite),
        serde_json::Value::Array(a) => a.iter().all(finite_json),
        serde_json::Value::Object(o) => o.values().all(finite_json),
        _ => true,
    }
}

proptest! {
    // 300 cases in the test suite; FUZZ_CASES=N for a longer run.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300),
        ..ProptestConfig::default()
    })]

    #[test]
    fn hostile_tables_load_or_refuse_and_render_finite_scenes(csv in table_csv()) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        std::fs::write(&path, &csv).unwrap();
        let Ok(t) = table::load_table(&path) else {
            return Ok(());
        };
        if std::env::var_os("FUZZ_TRACE").is_some() {
            eprintln!("accepted {} rows x {} series", t.n_rows(), t.series.len());
        }
        for col in &t.series {
            for c in &col.cells {
                if let Cell::Number(v) = c {
                    prop_assert!(v.is_finite() && (*v == 0.0 || (1e-6..=1e15).contains(&v.abs())), "{v}");
                }
            }
        }
        let style = spec::theme("classic").unwrap();
        for kind in spec::suitable_kinds(&t) {
            let Ok(chart) = spec::single(&t, kind, &style) else { continue };
            let rendered = render::render(&chart);
            if let Ok(r) = rendered {
                let scene = serde_json::to_value(&r.scene).unwrap();
                prop_assert!(finite_json(&scene), "{kind:?}: non-finite scene for\n{csv}");
            }
        }
    }
}
