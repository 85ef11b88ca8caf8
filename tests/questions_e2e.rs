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
