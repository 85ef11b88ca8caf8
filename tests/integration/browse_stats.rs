//! End-to-end tests of `stats` (visual distance per chart axis × severity,
//! change classes) and `browse` (distance, history, paragraph, filters,
//! escaping), running the real binary on a suite generated from two
//! fixture tables, one of them with a hostile title and paragraph.

use crate::support::{bin, run_ok};

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use chartstress::ir::{Item, SetName};

const HOSTILE_TITLE: &str = "<script>alert(1)</script> budget";
const HOSTILE_PARAGRAPH: &str = r#"Council note: <b onmouseover="x()">"quoted" & spent</b>."#;

/// minijinja's HTML escaping, to find suite text on the page.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#x27;")
        .replace('/', "&#x2f;")
}

/// Generates every set (with easing and conversational questions) from two
/// fixture tables, the second retitled and given a paragraph full of markup.
fn hostile_suite(dir: &Path) -> (PathBuf, Vec<Item>) {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let tables = dir.join("tables");
    std::fs::create_dir_all(&tables).unwrap();
    for stem in ["gdp_growth_g7", "city_budget_millions"] {
        for ext in ["csv", "meta.json"] {
            let name = format!("{stem}.{ext}");
            std::fs::copy(fixtures.join(&name), tables.join(&name)).unwrap();
        }
    }
    let meta = tables.join("city_budget_millions.meta.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&meta).unwrap()).unwrap();
    m["title"] = HOSTILE_TITLE.into();
    m["paragraph"] = HOSTILE_PARAGRAPH.into();
    std::fs::write(&meta, m.to_string()).unwrap();
    let suite = dir.join("suite");
    run_ok(
        bin()
            .arg("generate")
            .arg(&tables)
            .arg("-o")
            .arg(&suite)
            .args(["--seed", "11", "--quiet", "--threads", "1"])
            .args(["--charts-per-table", "1", "--questions-per-chart", "6"])
            .args([
                "--sets",
                "original,modified_chart,modified_question,modified_both,shifted",
                "--easing",
                "--question-types",
                "conversational,factoid,descriptive",
                // The title among the families, so the hostile title is asked.
                "--families",
                "title,value_at,difference,argmax,source,y_label",
            ]),
    );
    let items: Vec<Item> = std::fs::read_to_string(suite.join("items.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (suite, items)
}

/// Modified items per (chart axis, severity), recomputed from the items: an
/// item counts once per group one of its chart perturbations falls in.
fn expected_groups(items: &[Item]) -> BTreeMap<(String, u8), (u64, Vec<f64>)> {
    let mut groups: BTreeMap<(String, u8), (u64, Vec<f64>)> = BTreeMap::new();
    for i in items.iter().filter(|i| i.set != SetName::Original) {
        let keys: BTreeSet<(String, u8)> = i
            .perturbations
            .iter()
            .filter(|p| chartstress::perturb::question::info(&p.name).is_none())
            .map(|p| (p.axis.clone(), p.severity))
            .collect();
        for k in keys {
            let g = groups.entry(k).or_default();
            g.0 += 1;
            g.1.extend(i.visual_distance);
        }
    }
    groups
}

#[test]
fn stats_rows_per_chart_axis_and_severity_match_the_items() {
    let dir = tempfile::tempdir().unwrap();
    let (suite, items) = hostile_suite(dir.path());
    let expected = expected_groups(&items);
    assert!(
        expected.keys().any(|(a, _)| a == "dashboard"),
        "{expected:?}"
    );
    assert!(expected.keys().any(|(a, _)| a == "data"), "shifted items");

    let text = run_ok(bin().arg("stats").arg(&suite));
    assert!(!text.contains("NaN"), "{text}");
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("visual distance"))
        .skip(2)
        .take_while(|l| !l.is_empty())
        .collect();
    let axes: BTreeSet<&str> = expected.keys().map(|(a, _)| a.as_str()).collect();
    assert_eq!(
        table.len(),
        axes.len() * 5,
        "a row per axis × severity:\n{text}"
    );
    for axis in &axes {
        for sev in 1..=5u8 {
            let label = format!("{axis} {sev}");
            let row = table
                .iter()
                .find(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" ") == label)
                .unwrap_or_else(|| panic!("no row {label} in\n{text}"));
            let cols: Vec<&str> = row.split_whitespace().collect();
            let (n, distances) = expected
                .get(&(axis.to_string(), sev))
                .cloned()
                .unwrap_or_default();
            assert_eq!(cols[2], n.to_string(), "items of {label}: {row}");
            // Columns: axis, severity, items, stress, easing, format,
            // shifted, measured, min, q1, median, q3, max.
            assert_eq!(cols[7], distances.len().to_string(), "measured of {label}");
            if distances.is_empty() {
                assert!(cols[8..].iter().all(|c| *c == "–"), "{row}");
            } else {
                let min = distances.iter().copied().fold(f64::INFINITY, f64::min);
                let max = distances.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                assert_eq!(cols[8], format!("{min:.3}"), "{row}");
                assert_eq!(cols[12], format!("{max:.3}"), "{row}");
            }
        }
    }
    for class in ["stress", "easing", "shifted"] {
        let n = items
            .iter()
            .filter(|i| i.set != SetName::Original && i.change().name() == class)
            .count();
        let row = text
            .lines()
            .skip_while(|l| !l.starts_with("by change class"))
            .find(|l| l.starts_with(&format!("{class} ")))
            .unwrap_or_else(|| panic!("no {class} row in\n{text}"));
        assert_eq!(row.split_whitespace().nth(1), Some(n.to_string().as_str()));
    }
    assert!(text.contains("requested ladder level (rows) vs measured severity"));

    let json: serde_json::Value =
        serde_json::from_str(&run_ok(bin().args(["stats", "--json"]).arg(&suite))).unwrap();
    let rows = json["visual"]["by_axis_severity"].as_array().unwrap();
    assert_eq!(rows.len(), axes.len() * 5);
    for r in rows {
        let key = (
            r["axis"].as_str().unwrap().to_string(),
            r["severity"].as_u64().unwrap() as u8,
        );
        let (n, distances) = expected.get(&key).cloned().unwrap_or_default();
        assert_eq!(r["items"], n, "{key:?}");
        let d = &r["visual_distance"];
        assert_eq!(d["measured"], distances.len());
        assert_eq!(d["median"].is_null(), distances.is_empty(), "{r}");
    }
    let levels: u64 = json["visual"]["level_vs_severity"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|row| row.as_object().unwrap().values())
        .map(|n| n.as_u64().unwrap())
        .sum();
    let with_level = items
        .iter()
        .flat_map(|i| &i.perturbations)
        .filter(|p| p.params.contains_key("level"))
        .count() as u64;
    assert_eq!(levels, with_level);
}

/// The card of item `id`: from its opening tag to the next card.
fn card_of<'a>(html: &'a str, id: &str) -> &'a str {
    let marker = format!(r#"<div class="pert">{}</div>"#, escape(id));
    let end = html.find(&marker).unwrap_or_else(|| panic!("no card {id}"));
    let start = html[..end].rfind(r#"<div class="card "#).unwrap();
    &html[start..end]
}

#[test]
fn browse_shows_distance_history_paragraph_filters_and_escapes_everything() {
    let dir = tempfile::tempdir().unwrap();
    let (suite, items) = hostile_suite(dir.path());
    assert!(
        items
            .iter()
            .any(|i| !i.history.is_empty() && i.set != SetName::Original)
    );
    assert!(
        items
            .iter()
            .any(|i| i.perturbations.iter().any(|p| p.axis == "dashboard"))
    );
    let page = dir.path().join("browse.html");
    run_ok(bin().arg("browse").arg(&suite).arg("-o").arg(&page));
    let html = std::fs::read_to_string(&page).unwrap();

    for item in &items {
        let card = card_of(&html, &item.id);
        match item.visual_distance {
            Some(d) => assert!(card.contains(&format!("distance {d:.3}<")), "{card}"),
            None if item.set != SetName::Original => {
                assert!(card.contains("distance –<"), "{card}")
            }
            None => assert!(!card.contains("badge dist"), "{card}"),
        }
        if item.set != SetName::Original {
            let change = item.change().name();
            assert!(card.contains(&format!(r#"data-change="{change}""#)));
            assert!(card.contains(&format!(r#"<span class="badge {change}">"#)));
        }
        for t in &item.history {
            let turn = format!("Q: {}<br>A: {}", escape(&t.question), escape(&t.answer));
            assert!(card.contains(&turn), "turn {turn} not in {card}");
        }
        if let Some(p) = &item.paragraph {
            assert!(card.contains(&escape(p)), "paragraph of {}", item.id);
        }
        for p in &item.perturbations {
            assert!(card.contains(&format!("severity {}", p.severity)));
            if let Some(level) = p.params.get("level") {
                assert!(card.contains(&format!("· level {level}")), "{card}");
            }
        }
        // The page sits beside the suite folder: images open from it, full size.
        let src = format!("suite/{}", item.image);
        assert!(card.contains(&format!(r#"<a class="zoom" href="{}""#, escape(&src))));
        assert!(dir.path().join(&src).is_file());
    }
    for name in ["set", "axis", "pert", "sev", "change"] {
        assert!(
            html.contains(&format!(r#"<select name="{name}">"#)),
            "{name}"
        );
    }
    assert!(html.contains(r#"<option value="dashboard">"#));
    assert!(html.contains(r#"<option value="shifted">"#));

    // Hostile text: present, escaped, never markup.
    let mentions = |i: &Item| {
        i.question.contains(HOSTILE_TITLE)
            || i.answer_text.contains(HOSTILE_TITLE)
            || i.history.iter().any(|t| t.question.contains(HOSTILE_TITLE))
    };
    assert!(items.iter().any(mentions), "the title is asked about");
    assert!(html.contains(&escape(HOSTILE_TITLE)));
    assert!(html.contains(&escape(HOSTILE_PARAGRAPH)));
    assert!(!html.contains("<script>alert"));
    assert!(!html.contains("<b onmouseover"));
    assert_eq!(
        html.matches("<script").count(),
        1,
        "only the page's own script"
    );
    // A single static file: nothing fetched from elsewhere.
    assert!(!html.contains("http://") && !html.contains("https://"));
}
