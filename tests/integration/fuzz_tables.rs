//! Property test over hostile tables: random headers and cells drawn from
//! the shapes that broke loaders and renderers (float limits, NaN, control
//! characters, very long labels, duplicates, blanks, dates, units). For every
//! table: loading never panics; an accepted table holds only finite numbers
//! within the chartable range, and every kind suited to it renders without
//! panicking into a scene whose numbers are all finite. The same for tables
//! with hostile sidecars, and for hostile score records under every metric.

use crate::fuzz_support::*;
use chartstress::ir::Cell;
use chartstress::score::Metric;
use chartstress::score::records::score_record;
use chartstress::{render, spec, table};
use proptest::prelude::*;

proptest! {
    // 300 cases in the test suite; FUZZ_CASES=N for a longer run.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300),
        ..ProptestConfig::default()
    })]

    #[test]
    fn hostile_tables_load_or_refuse_and_render_finite_scenes(csv in table_csv()) {
        check_table(&csv, None)?;
    }

    #[test]
    fn hostile_sidecars_load_or_refuse_and_render_finite_scenes(
        csv in table_csv(),
        sidecar in sidecar_json(),
    ) {
        check_table(&csv, Some(&sidecar))?;
    }

    #[test]
    fn hostile_score_records_score_in_range_or_name_their_line(line in score_line()) {
        for metric in Metric::ALL {
            match score_record(metric, &line, 3) {
                Ok((_, s)) => prop_assert!((0.0..=1.0).contains(&s), "{metric:?}: {s} for {line}"),
                Err(e) => prop_assert!(e.to_string().starts_with("line 3"), "{e}"),
            }
        }
    }
}

/// Loads a table (and its sidecar): never a panic; an accepted table holds
/// only finite numbers in the chartable range, and each suited kind renders
/// a scene of finite numbers.
fn check_table(csv: &str, sidecar: Option<&str>) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.csv");
    std::fs::write(&path, csv).unwrap();
    if let Some(sidecar) = sidecar {
        std::fs::write(dir.path().join("t.meta.json"), sidecar).unwrap();
    }
    let Ok(t) = table::load_table(&path) else {
        return Ok(());
    };
    if std::env::var_os("FUZZ_TRACE").is_some() {
        eprintln!("accepted {} rows x {} series", t.n_rows(), t.series.len());
    }
    for col in &t.series {
        for c in &col.cells {
            if let Cell::Number(v) = c {
                prop_assert!(
                    v.is_finite() && (*v == 0.0 || (1e-6..=1e15).contains(&v.abs())),
                    "{v}"
                );
            }
        }
    }
    let style = spec::theme("classic").unwrap();
    for kind in spec::suitable_kinds(&t) {
        let Ok(chart) = spec::single(&t, kind, &style) else {
            continue;
        };
        if let Ok(r) = render::render(&chart) {
            let scene = serde_json::to_value(&r.scene).unwrap();
            prop_assert!(
                finite_json(&scene),
                "{kind:?}: non-finite scene for\n{csv}\n{sidecar:?}"
            );
        }
    }
    Ok(())
}
