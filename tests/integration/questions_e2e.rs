//! End to end: synthesized and fixture tables, real specs and real renders
//! (SVG + scene, no rasterization), questions through every realizer.

use std::collections::BTreeMap;
use std::path::PathBuf;

use chartstress::ir::{Answer, ChartSpec, Scene};
use chartstress::query::execute;
use chartstress::questions::{QuestionOptions, generate};
use chartstress::realize::{realize, realizers};

fn charts() -> Vec<(String, ChartSpec, Scene)> {
    let mut tables = chartstress::synth::synth_tables(11, 24);
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let (loaded, _) = chartstress::table::load_tables(&[fixtures], false);
    tables.extend(loaded);
    let themes = chartstress::spec::builtin_themes();
    let mut out = Vec::new();
    for (i, t) in tables.iter().enumerate() {
        for (k, kind) in chartstress::spec::suitable_kinds(t)
            .into_iter()
            .take(3)
            .enumerate()
        {
            let style = &themes[(i + k) % themes.len()];
            let Ok(spec) = chartstress::spec::single(t, kind, style) else {
                continue;
            };
            let Ok((_, scene)) = chartstress::render::render_svg(&spec) else {
                continue;
            };
            out.push((format!("{}-{}", t.id, kind.name()), spec, scene));
        }
    }
    out
}

#[test]
fn rendered_charts_get_exact_questions_in_every_wording() {
    let charts = charts();
    assert!(charts.len() >= 30, "only {} charts", charts.len());
    let mut per_family: BTreeMap<String, usize> = BTreeMap::new();
    let mut realized: BTreeMap<&str, usize> = BTreeMap::new();
    for (id, spec, scene) in &charts {
        let qs = generate(
            id,
            spec,
            scene,
            &QuestionOptions {
                count: 16,
                ..Default::default()
            },
        );
        for q in &qs {
            *per_family.entry(q.family.clone()).or_default() += 1;
            assert_eq!(
                execute(&q.query, spec, scene).as_ref(),
                Ok(&q.answer),
                "{id}: {}",
                q.text
            );
            if q.answerable {
                assert_ne!(q.answer, Answer::Unanswerable);
            }
            for r in realizers() {
                if let Some(p) = realize(q, r, spec, scene, 1) {
                    assert_eq!(p.answer, q.answer);
                    assert!(!p.text.contains('{'), "{}", p.text);
                    *realized.entry(r).or_default() += 1;
                }
            }
        }
    }
    eprintln!("{per_family:?}\n{realized:?}");
    assert!(per_family.len() >= 25, "families seen: {per_family:?}");
    for r in realizers() {
        assert!(
            realized.get(r).copied().unwrap_or(0) > 50,
            "{r}: {realized:?}"
        );
    }
}

#[test]
fn data_questions_agree_with_the_rendered_marks() {
    use chartstress::ir::query::Query;
    use chartstress::query::RefusalKind;
    let mut answered = 0;
    for (id, spec, scene) in charts() {
        let p = spec.panels()[0];
        for s in &p.series {
            for c in p.table.category_labels() {
                let q = Query::ValueAt {
                    panel: 0,
                    series: s.clone(),
                    category: c,
                };
                match execute(&q, &spec, &scene) {
                    Ok(Answer::Number { .. }) => answered += 1,
                    Ok(other) => panic!("{id}: {q:?} gave {other:?}"),
                    // Missing cells and scatter plots are refused; a drawn mark never disagrees.
                    Err(r) => assert!(
                        matches!(r.kind, RefusalKind::MissingCell | RefusalKind::Unsupported),
                        "{id}: {q:?} refused: {r}"
                    ),
                }
            }
        }
    }
    assert!(answered > 1000);
}

fn bin() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_chartstress"))
}

#[test]
fn ask_writes_items_and_stats_reads_them() {
    let dir = tempfile::tempdir().unwrap();
    let items = dir.path().join("items.jsonl");
    let table =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/cloud_revenue_billions.csv");
    let out = bin()
        .args([
            "ask",
            table.to_str().unwrap(),
            "-n",
            "12",
            "--realizer",
            "all",
            "--seed",
            "4",
            "--jsonl",
            "-o",
        ])
        .arg(&items)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&items).unwrap();
    let parsed: Vec<chartstress::ir::Item> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(parsed.iter().filter(|i| i.origin.is_none()).count() == 12);
    assert!(parsed.iter().any(|i| i.realization.realizer == "noisy"));
    // Same seed, same bytes.
    let again = bin()
        .args([
            "ask",
            table.to_str().unwrap(),
            "-n",
            "12",
            "--realizer",
            "all",
            "--seed",
            "4",
            "--jsonl",
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text);

    let stats = bin()
        .args(["stats", "--json"])
        .arg(&items)
        .output()
        .unwrap();
    assert!(stats.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
    assert_eq!(doc["overall"]["count"], parsed.len());
    let mean = doc["trigram_jaccard_to_origin"]["all"]["mean"]
        .as_f64()
        .unwrap();
    // Each twin is its original with one declared change, so it shares most
    // trigrams with it, but never all of them.
    assert!(mean > 0.0 && mean < 0.8, "{mean}");

    // A torn line is reported with its line number and changes the exit code.
    std::fs::write(&items, format!("{text}{{\"id\": 3\n")).unwrap();
    let torn = bin().arg("stats").arg(&items).output().unwrap();
    assert_eq!(torn.status.code(), Some(1));
    let err = String::from_utf8_lossy(&torn.stderr);
    assert!(err.contains(&format!("line {}", parsed.len() + 1)), "{err}");
}

#[test]
fn ask_reports_bad_arguments() {
    let table =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/cloud_revenue_billions.csv");
    let out = bin()
        .args(["ask", table.to_str().unwrap(), "--kind", "sunburst"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown chart kind"));
    let out = bin().args(["ask", "no/such/table.csv"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no/such/table.csv"));
}

#[test]
fn subplots_and_dashboards_name_their_panel() {
    let tables = chartstress::synth::synth_tables(5, 6);
    let style = chartstress::spec::builtin_themes().remove(0);
    let panels: Vec<_> = tables
        .iter()
        .take(4)
        .filter_map(|t| {
            let kind = *chartstress::spec::suitable_kinds(t).first()?;
            chartstress::spec::panel(t, kind, &style).ok()
        })
        .collect();
    assert!(panels.len() >= 3);
    let grid =
        chartstress::spec::grid(2, 2, panels.clone(), &style, Some("Four views".into())).unwrap();
    let kpis = vec![
        chartstress::ir::KpiTile {
            label: "Revenue".into(),
            value: "$1.2M".into(),
            delta: None,
        },
        chartstress::ir::KpiTile {
            label: "Users".into(),
            value: "4,210".into(),
            delta: Some("+3%".into()),
        },
    ];
    let dash = chartstress::spec::dashboard(
        panels[..2].to_vec(),
        kpis,
        Some("Board".into()),
        None,
        &style,
    )
    .unwrap();
    {
        use chartstress::ir::query::Query;
        let (_, scene) = chartstress::render::render_svg(&dash).unwrap();
        let kpi = |l: &str| execute(&Query::KpiValue { label: l.into() }, &dash, &scene);
        assert_eq!(
            kpi("Revenue"),
            Ok(Answer::Text {
                value: "$1.2M".into()
            })
        );
        assert_eq!(
            kpi("users"),
            Ok(Answer::Number {
                value: 4210.0,
                decimals: 0,
                unit: None
            })
        );
        assert_eq!(kpi("Churn"), Ok(Answer::Unanswerable));
        let opts = QuestionOptions {
            count: 4,
            types: vec![chartstress::ir::QuestionType::Descriptive],
            families: vec!["kpi_value".into()],
            ..Default::default()
        };
        let qs = generate("dash", &dash, &scene, &opts);
        assert!(!qs.is_empty());
        assert!(
            qs.iter()
                .all(|q| q.family == "kpi_value" && q.text.contains(" tile")),
            "{qs:?}"
        );
    }
    for (name, spec) in [("grid", grid), ("dash", dash)] {
        let (_, scene) = chartstress::render::render_svg(&spec).unwrap();
        let qs = generate(
            name,
            &spec,
            &scene,
            &QuestionOptions {
                count: 30,
                ..Default::default()
            },
        );
        assert!(qs.len() >= 20, "{name}: {}", qs.len());
        let mut panels_asked = std::collections::BTreeSet::new();
        for q in &qs {
            assert_eq!(execute(&q.query, &spec, &scene).as_ref(), Ok(&q.answer));
            let figure_level = matches!(
                q.family.as_str(),
                "subplot_layout" | "subplot_count" | "kpi_value"
            );
            let first = q
                .history
                .first()
                .map_or(q.text.as_str(), |t| t.question.as_str());
            if !figure_level {
                assert!(
                    first.starts_with("In the subplot at row"),
                    "{name}: {first}"
                );
                panels_asked.insert(q.query.panel());
            }
            for r in realizers() {
                if let Some(p) = realize(q, r, &spec, &scene, 9) {
                    assert_eq!(p.answer, q.answer);
                }
            }
        }
        assert!(panels_asked.len() >= 2, "{name}: {panels_asked:?}");
    }
}

/// `stats SUITE` on a small generated suite: the composition (per set, axis,
/// severity, question type, family, chart kind) agrees with the items file,
/// and the diversity measures cover the suite's items.
#[test]
fn stats_on_a_suite_prints_composition_and_diversity() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite");
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let out = bin()
        .arg("generate")
        .arg(fixtures.join("cloud_revenue_billions.csv"))
        .arg(fixtures.join("browser_share_pie.csv"))
        .arg(fixtures.join("gdp_growth_g7.csv"))
        .args([
            "--charts-per-table",
            "1",
            "--questions-per-chart",
            "4",
            "--variants-per-original",
            "1",
            "--seed",
            "5",
            "--threads",
            "1",
            "--out",
        ])
        .arg(&suite)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let items: Vec<chartstress::ir::Item> = std::fs::read_to_string(suite.join("items.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(!items.is_empty());

    let json = bin()
        .args(["stats", "--json"])
        .arg(&suite)
        .output()
        .unwrap();
    assert!(
        json.status.success(),
        "{}",
        String::from_utf8_lossy(&json.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let comp = &doc["composition"];
    assert_eq!(comp["items"], items.len());
    assert_eq!(comp["manifest_agrees"], true);
    assert_eq!(comp["orphans"], 0);
    let count = |dim: &str, value: &str| comp["counts"][dim][value].as_u64().unwrap_or(0);
    for set in ["original", "modified_chart", "modified_question"] {
        let n = items.iter().filter(|i| i.set.name() == set).count() as u64;
        assert_eq!(count("set", set), n, "{set}");
    }
    for i in &items {
        assert!(count("family", &i.family) > 0);
        assert!(count("question_type", i.question_type.name()) > 0);
        assert!(count("chart_kind", i.chart_kind.name()) > 0);
        for p in &i.perturbations {
            assert!(count("axis", &p.axis) > 0);
            assert!(count("severity", &p.severity.to_string()) > 0);
        }
    }
    // Diversity over the suite's items.
    assert_eq!(doc["overall"]["count"], items.len());
    assert!(
        doc["trigram_jaccard_to_origin"]["all"]["pairs"]
            .as_u64()
            .unwrap()
            > 0
    );

    let text = bin().arg("stats").arg(&suite).output().unwrap();
    assert!(text.status.success());
    let text = String::from_utf8(text.stdout).unwrap();
    for heading in [
        "composition",
        "\nset\n",
        "\naxis\n",
        "\nseverity\n",
        "\nquestion_type\n",
        "\nfamily\n",
        "\nchart_kind\n",
        "diversity",
        "word-trigram Jaccard",
    ] {
        assert!(text.contains(heading), "missing {heading:?} in\n{text}");
    }

    // A folder that is not a suite is a clear error, not a panic.
    let bad = bin().arg("stats").arg(dir.path()).output().unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a readable suite"));
}
