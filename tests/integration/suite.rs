//! End-to-end tests of `generate`, `merge` and `browse`, running the real
//! binary on the fixture tables (and on hand-made suite folders).

use crate::support::{bin, run_ok};

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use chartstress::ir::suite::{CHARTS_FILE, ITEMS_FILE};
use chartstress::ir::{
    Answer, AnswerKind, BBox, ChartKind, ChartRecord, Item, Layout, PanelScene, PanelSpec, Query,
    QuestionType, Realization, Scene, SetName, Style, SuiteManifest,
};
use chartstress::suite::{Counts, read_items, read_manifest, write_manifest};

/// Every file of a folder by relative path.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn assert_same_tree(a: &Path, b: &Path) {
    let (ta, tb) = (tree(a), tree(b));
    assert_eq!(
        ta.keys().collect::<Vec<_>>(),
        tb.keys().collect::<Vec<_>>(),
        "same files in {} and {}",
        a.display(),
        b.display()
    );
    for (k, v) in &ta {
        assert!(
            v == &tb[k],
            "{k} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

// ---- hand-made suites: merge logic without the rendering stages ----

fn hand_chart(id: &str, table: &str) -> ChartRecord {
    let t = chartstress::ir::Table {
        id: table.into(),
        source_path: None,
        meta: Default::default(),
        index: chartstress::ir::Column {
            name: "x".into(),
            ctype: chartstress::ir::ColumnType::Text,
            format: Default::default(),
            cells: vec![chartstress::ir::Cell::Text("a".into())],
        },
        series: vec![],
    };
    ChartRecord {
        id: id.into(),
        image: format!("images/{id}.png"),
        spec: chartstress::ir::ChartSpec {
            source_line: None,
            width: 10,
            height: 10,
            title: None,
            style: Style::default(),
            layout: Layout::Single {
                panel: PanelSpec {
                    kind: ChartKind::Bar,
                    table: t,
                    series: vec![],
                    title: None,
                    x_label: None,
                    y_label: None,
                    style: Style::default(),
                    annotation: None,
                    subtitle: None,
                    samples: None,
                    pinned: None,
                },
            },
        },
        scene: Scene {
            width: 10,
            height: 10,
            title: None,
            grid: (1, 1),
            panels: vec![PanelScene {
                index: 0,
                row: 0,
                col: 0,
                kind: ChartKind::Bar,
                table_id: table.into(),
                plot_area: BBox::default(),
                title: None,
                subtitle: None,
                x_label: None,
                y_label: None,
                x_ticks: vec![],
                y_ticks: vec![],
                log_y: false,
                marks: vec![],
                legend: vec![],
                direct_labels: vec![],
                annotation: None,
                heatmap: None,
                stat: None,
                category_labels: Vec::new(),
                radar: None,
                dual_axis: None,
            }],
            kpis: vec![],
            paragraph: None,
            extra_text: vec![],
            figure: None,
        },
    }
}

fn hand_item(id: &str, table: &str, chart: &str, origin: Option<&str>) -> Item {
    Item {
        id: id.into(),
        set: if origin.is_some() {
            SetName::ModifiedChart
        } else {
            SetName::Original
        },
        origin: origin.map(str::to_string),
        chart_id: chart.into(),
        image: format!("images/{chart}.png"),
        table_id: table.into(),
        chart_kind: ChartKind::Bar,
        question: format!("What is the title of {chart}?"),
        question_type: QuestionType::Descriptive,
        family: "title".into(),
        query: Query::Title { panel: 0 },
        answer: Answer::Text { value: "T".into() },
        answer_text: "T".into(),
        answer_kind: AnswerKind::TextInChart,
        answerable: true,
        choices: vec![],
        history: vec![],
        paragraph: None,
        realization: Realization::default(),
        perturbations: vec![],
        visual_distance: None,
        reading_change: None,
    }
}

/// Writes a suite folder holding the given blocks (table id, items, charts).
fn write_hand_suite(
    dir: &Path,
    blocks: &[(&str, Vec<Item>, Vec<ChartRecord>)],
    shard: Option<(u32, u32)>,
    all_tables: &[&str],
) {
    std::fs::create_dir_all(dir.join("images")).unwrap();
    std::fs::create_dir_all(dir.join("tables")).unwrap();
    for t in all_tables {
        std::fs::write(
            dir.join("tables").join(format!("{t}.csv")),
            format!("x,{t}\na,1\n"),
        )
        .unwrap();
    }
    let mut items = String::new();
    let mut charts = String::new();
    let mut written = HashSet::new();
    let mut counts = Counts::default();
    for (_, block_items, block_charts) in blocks {
        for item in block_items {
            if written.insert(item.chart_id.clone()) {
                let c = block_charts.iter().find(|c| c.id == item.chart_id).unwrap();
                charts.push_str(&serde_json::to_string(c).unwrap());
                charts.push('\n');
                std::fs::write(dir.join(&c.image), format!("png of {}", c.id)).unwrap();
            }
            counts.add_item(item);
            items.push_str(&serde_json::to_string(item).unwrap());
            items.push('\n');
        }
    }
    counts.bump(
        "dropped",
        "not_visible",
        if shard == Some((2, 2)) { 0 } else { 1 },
    );
    std::fs::write(dir.join(ITEMS_FILE), items).unwrap();
    std::fs::write(dir.join(CHARTS_FILE), charts).unwrap();
    write_manifest(dir, serde_json::json!({"seed": 3}), 3, &counts, shard).unwrap();
}

type HandBlock = (&'static str, Vec<Item>, Vec<ChartRecord>);

fn block(t: &'static str, charts: &[&str]) -> HandBlock {
    let recs: Vec<ChartRecord> = charts.iter().map(|c| hand_chart(c, t)).collect();
    let orig = format!("{t}-o");
    let mut items = vec![hand_item(&orig, t, charts[0], None)];
    for (i, c) in charts.iter().enumerate().skip(1) {
        items.push(hand_item(&format!("{orig}-c{i}"), t, c, Some(&orig)));
    }
    (t, items, recs)
}

#[test]
fn hand_made_shards_merge_into_the_unsharded_suite() {
    let tmp = tempfile::tempdir().unwrap();
    // Table b's data-shift item reuses table a's chart: it must appear once.
    let a = block("a", &["ca1", "ca2"]);
    let b = block("b", &["cb1", "ca1"]);
    let c = block("c", &["cc1"]);
    let tables = ["a", "b", "c"];
    let full = tmp.path().join("full");
    let mut dropped_full = vec![a.clone(), b.clone(), c.clone()];
    write_hand_suite(&full, &dropped_full, None, &tables);
    // The unsharded run counted one drop per shard-1 table: rewrite its manifest to match two shards' sums.
    let mut counts = Counts::default();
    for (_, items, _) in &dropped_full {
        for it in items {
            counts.add_item(it);
        }
    }
    counts.bump("dropped", "not_visible", 1);
    write_manifest(&full, serde_json::json!({"seed": 3}), 3, &counts, None).unwrap();
    dropped_full.clear();

    let s1 = tmp.path().join("s1");
    let s2 = tmp.path().join("s2");
    write_hand_suite(&s1, &[a, c], Some((1, 2)), &tables);
    write_hand_suite(&s2, &[b], Some((2, 2)), &tables);
    let merged = tmp.path().join("merged");
    // Shard order on the command line does not matter.
    run_ok(
        bin()
            .args(["merge"])
            .arg(&s2)
            .arg(&s1)
            .arg("-o")
            .arg(&merged),
    );
    assert_same_tree(&full, &merged);
    let items = read_items(&merged).unwrap();
    assert_eq!(
        items
            .iter()
            .map(|i| i.table_id.as_str())
            .collect::<Vec<_>>(),
        ["a", "a", "b", "b", "c"]
    );
    assert_eq!(read_manifest(&merged).unwrap().shard, None);
}

#[test]
fn merge_rejects_missing_duplicate_or_foreign_shards() {
    let tmp = tempfile::tempdir().unwrap();
    let s1 = tmp.path().join("s1");
    write_hand_suite(
        &s1,
        &[(
            "a",
            vec![hand_item("a-o", "a", "ca", None)],
            vec![hand_chart("ca", "a")],
        )],
        Some((1, 2)),
        &["a"],
    );
    let out = tmp.path().join("out");
    for (args, needle) in [
        (vec![s1.clone()], "shard 2/2 is missing"),
        (vec![s1.clone(), s1.clone()], "given twice"),
    ] {
        let o = bin()
            .arg("merge")
            .args(&args)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "{err}");
    }
    let full = tmp.path().join("full");
    write_hand_suite(&full, &[], None, &["a"]);
    let o = bin()
        .arg("merge")
        .arg(&full)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains("is not a shard"));
}

#[test]
fn bad_config_is_reported_with_line_and_column() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("bad.toml");
    std::fs::write(&cfg, "seed = 1\nquestions_per_chart = -3\n").unwrap();
    let o = bin()
        .args(["generate", "--out"])
        .arg(tmp.path().join("out"))
        .arg("--config")
        .arg(&cfg)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad.toml") && err.contains("line 2, column"),
        "{err}"
    );
}

#[test]
fn generate_refuses_a_folder_that_is_not_a_suite() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("thesis.tex"), "precious").unwrap();
    let o = bin()
        .args(["generate", "--out"])
        .arg(tmp.path())
        .output()
        .unwrap();
    assert_ne!(o.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("thesis.tex")).unwrap(),
        "precious"
    );
}

// ---- end-to-end on the fixture tables ----

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Copies a few fixture tables (with their sidecars) into `dir`.
fn fixture_subset(dir: &Path, stems: &[&str]) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    for e in std::fs::read_dir(fixtures()).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if stems.iter().any(|s| name.starts_with(&format!("{s}."))) {
            std::fs::copy(&p, dir.join(&name)).unwrap();
        }
    }
    dir.to_path_buf()
}

const SUBSET: [&str; 5] = [
    "browser_share_pie",
    "gdp_growth_g7",
    "retail_sales_monthly",
    "smartphone_shipments_grouped",
    "city_budget_millions",
];

fn generate(tables: &Path, out: &Path, extra: &[&str]) -> String {
    run_ok(
        bin()
            .arg("generate")
            .arg(tables)
            .arg("--out")
            .arg(out)
            .args([
                "--seed",
                "11",
                "--quiet",
                "--charts-per-table",
                "1",
                "--questions-per-chart",
                "3",
            ])
            .args(extra),
    )
}

#[test]
fn suite_is_byte_identical_at_1_and_2_threads_and_sharded() {
    let tmp = tempfile::tempdir().unwrap();
    let tables = fixture_subset(&tmp.path().join("tables"), &SUBSET);
    let one = tmp.path().join("one");
    let two = tmp.path().join("two");
    generate(
        &tables,
        &one,
        &[
            "--threads",
            "1",
            "--sets",
            "original,modified_chart,modified_question,modified_both",
        ],
    );
    generate(
        &tables,
        &two,
        &[
            "--threads",
            "2",
            "--sets",
            "original,modified_chart,modified_question,modified_both",
        ],
    );
    assert_same_tree(&one, &two);
    assert!(!read_items(&one).unwrap().is_empty());

    let parts: Vec<std::path::PathBuf> = (1..=3)
        .map(|k| tmp.path().join(format!("part{k}")))
        .collect();
    for (k, part) in parts.iter().enumerate() {
        let shard = format!("{}/3", k + 1);
        generate(
            &tables,
            part,
            &[
                "--shard",
                &shard,
                "--threads",
                "2",
                "--sets",
                "original,modified_chart,modified_question,modified_both",
            ],
        );
        assert_eq!(read_manifest(part).unwrap().shard, Some((k as u32 + 1, 3)));
    }
    let merged = tmp.path().join("merged");
    run_ok(bin().arg("merge").args(&parts).arg("-o").arg(&merged));
    assert_same_tree(&one, &merged);
}

/// The executor's answer with a refusal read as "unanswerable", as the suite does.
fn executed(item: &Item, chart: &ChartRecord) -> Answer {
    chartstress::query::execute(&item.query, &chart.spec, &chart.scene)
        .unwrap_or(Answer::Unanswerable)
}

#[test]
fn every_fixture_suite_item_agrees_with_the_executor_on_its_own_chart() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("suite");
    let stdout = generate(
        &fixtures(),
        &out,
        &[
            "--sets",
            "original,modified_chart,modified_question,modified_both,shifted",
        ],
    );
    let items = read_items(&out).unwrap();
    let charts: std::collections::HashMap<String, ChartRecord> =
        chartstress::suite::read_charts(&out)
            .unwrap()
            .into_iter()
            .map(|c| (c.id.clone(), c))
            .collect();
    assert!(items.len() > 100, "{stdout}");
    let originals: HashSet<&str> = items
        .iter()
        .filter(|i| i.origin.is_none())
        .map(|i| i.id.as_str())
        .collect();
    let mut ids = HashSet::new();
    for item in &items {
        assert!(ids.insert(item.id.as_str()), "duplicate id {}", item.id);
        let chart = &charts[&item.chart_id];
        assert_eq!(
            executed(item, chart),
            item.answer,
            "item {} disagrees with the executor",
            item.id
        );
        assert_eq!(item.answer_text, item.answer.to_text());
        assert_eq!(
            item.answerable,
            item.answer != Answer::Unanswerable,
            "{}",
            item.id
        );
        assert!(out.join(&item.image).is_file(), "{} has its image", item.id);
        match &item.origin {
            None => assert!(item.perturbations.is_empty() && item.set == SetName::Original),
            Some(o) => {
                assert!(
                    originals.contains(o.as_str()),
                    "{} points at original {o}",
                    item.id
                );
                assert!(!item.perturbations.is_empty());
                for p in &item.perturbations {
                    assert!((1..=5).contains(&p.severity));
                    assert!(
                        chartstress::perturb::info(&p.name).is_some(),
                        "known perturbation {}",
                        p.name
                    );
                }
            }
        }
    }
    let manifest = read_manifest(&out).unwrap();
    let dropped = manifest.counts.get("dropped").cloned().unwrap_or_default();
    assert_eq!(
        dropped.get("preserving_violation"),
        None,
        "no answer-preserving perturbation changed an answer: {dropped:?}"
    );
    assert_eq!(dropped.get("executor_mismatch"), None, "{dropped:?}");
    // `control` is an imported benchmark's set, never generated.
    for set in SetName::ALL.into_iter().filter(|s| *s != SetName::Control) {
        assert!(
            manifest.counts["set"].get(set.name()).copied().unwrap_or(0) > 0,
            "set {} has items",
            set.name()
        );
    }
    let c = chartstress::suite::composition(&out).unwrap();
    assert!(c.manifest_agrees && c.orphans == 0);
    assert_eq!(
        manifest.fingerprint,
        chartstress::suite::fingerprint(&out).unwrap()
    );
    mcq_letters_are_even_per_set_and_printed_in_order(&items, &manifest);
}

/// Option letters are spread evenly within every set (counts differ by at
/// most one), an item asking its original's very question keeps its letter,
/// and the question text lists the options in the order the answer refers to.
fn mcq_letters_are_even_per_set_and_printed_in_order(items: &[Item], manifest: &SuiteManifest) {
    let by_id: std::collections::HashMap<&str, &Item> =
        items.iter().map(|i| (i.id.as_str(), i)).collect();
    let mut total: BTreeMap<String, u64> = BTreeMap::new();
    for set in SetName::ALL {
        let mut n: BTreeMap<char, usize> = ['a', 'b', 'c', 'd'].map(|l| (l, 0)).into();
        for it in items.iter().filter(|i| i.set == set) {
            let Answer::Choice { letter, text } = &it.answer else {
                continue;
            };
            *n.entry(*letter).or_default() += 1;
            *total.entry(letter.to_string()).or_default() += 1;
            let i = (*letter as u8 - b'a') as usize;
            assert_eq!(&it.choices[i], text, "{}", it.id);
            if !it.perturbations.iter().any(|p| p.name == "typos") {
                let positions: Vec<usize> = it
                    .choices
                    .iter()
                    .enumerate()
                    .map(|(k, o)| {
                        let block = format!("{}) {o}", (b'a' + k as u8) as char);
                        it.question
                            .find(&block)
                            .unwrap_or_else(|| panic!("{}: {block:?} in {:?}", it.id, it.question))
                    })
                    .collect();
                assert!(positions.is_sorted(), "{}: {}", it.id, it.question);
            }
            let origin = it.origin.as_deref().and_then(|o| by_id.get(o));
            if let Some(o) = origin
                && let Answer::Choice { letter: ol, .. } = &o.answer
            {
                let (mut a, mut b) = (o.choices.clone(), it.choices.clone());
                a.sort();
                b.sort();
                if a == b {
                    assert_eq!(ol, letter, "{} keeps the letter of {}", it.id, o.id);
                }
            }
        }
        let (lo, hi) = (n.values().min().unwrap(), n.values().max().unwrap());
        assert!(hi - lo <= 1, "{set:?}: letters {n:?}");
    }
    assert_eq!(manifest.counts.get("choice_letter"), Some(&total));
}

#[test]
fn answers_are_balanced() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("suite");
    run_ok(
        bin()
            .arg("generate")
            .arg(fixtures())
            .arg("--out")
            .arg(&out)
            .args([
                "--quiet",
                "--sets",
                "original",
                "--charts-per-table",
                "2",
                "--questions-per-chart",
                "6",
            ])
            .args([
                "--question-types",
                "fact_check,multiple_choice,factoid",
                "--unanswerable-share",
                "0.2",
            ]),
    );
    let items = read_items(&out).unwrap();
    let mut tf = [0usize; 2];
    let mut letters: BTreeMap<char, usize> = BTreeMap::new();
    for it in &items {
        match &it.answer {
            Answer::TrueFalse { value } | Answer::YesNo { value } => tf[usize::from(*value)] += 1,
            Answer::Choice { letter, .. } => *letters.entry(*letter).or_default() += 1,
            _ => {}
        }
    }
    let total = tf[0] + tf[1];
    assert!(total >= 20, "enough fact checks: {tf:?}");
    let share_true = tf[1] as f64 / total as f64;
    assert!(
        (0.4..=0.6).contains(&share_true),
        "true/false share {share_true}"
    );
    let mcq: usize = letters.values().sum();
    assert!(mcq >= 20, "{letters:?}");
    // Letters are evened out suite-wide: counts differ by at most one.
    assert_eq!(letters.len(), 4, "{letters:?}");
    let (lo, hi) = (letters.values().min(), letters.values().max());
    assert!(hi.unwrap() - lo.unwrap() <= 1, "{letters:?}");
    // A table's second chart takes a less obvious suitable kind: every kind
    // appears (scatter and bubble charts get descriptive questions only,
    // which this suite does not ask; opt-in kinds only when named).
    let kinds: HashSet<ChartKind> = items.iter().map(|i| i.chart_kind).collect();
    for kind in ChartKind::ALL {
        let xy = matches!(kind, ChartKind::Scatter | ChartKind::Bubble);
        assert!(
            xy || kind.is_opt_in() || kinds.contains(&kind),
            "{kind:?} appears: {kinds:?}"
        );
    }
    let unanswerable = items.iter().filter(|i| !i.answerable).count() as f64 / items.len() as f64;
    assert!(
        (0.1..=0.3).contains(&unanswerable),
        "unanswerable share {unanswerable}"
    );
}

/// A small validator for the item schema documented in docs/formats.md:
/// required properties and their JSON types.
#[test]
fn items_jsonl_matches_the_documented_schema() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/formats.md"))
            .unwrap();
    let start = readme
        .find("```json\n{\n  \"$schema\"")
        .expect("schema block in docs/formats.md")
        + 8;
    let end = start + readme[start..].find("```").unwrap();
    let schema: serde_json::Value =
        serde_json::from_str(&readme[start..end]).expect("schema is JSON");
    let tmp = tempfile::tempdir().unwrap();
    let tables = fixture_subset(&tmp.path().join("tables"), &SUBSET);
    let out = tmp.path().join("suite");
    generate(
        &tables,
        &out,
        &[
            "--sets",
            "original,modified_chart,modified_question,modified_both",
        ],
    );
    let text = std::fs::read_to_string(out.join(ITEMS_FILE)).unwrap();
    let props = schema["properties"].as_object().unwrap();
    for (n, line) in text.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let obj = v.as_object().unwrap();
        for req in schema["required"].as_array().unwrap() {
            assert!(
                obj.contains_key(req.as_str().unwrap()),
                "line {}: missing {req}",
                n + 1
            );
        }
        for (k, val) in obj {
            let prop = props
                .get(k)
                .unwrap_or_else(|| panic!("line {}: undocumented field {k}", n + 1));
            let types: Vec<&str> = match &prop["type"] {
                serde_json::Value::String(s) => vec![s.as_str()],
                serde_json::Value::Array(a) => a.iter().filter_map(|t| t.as_str()).collect(),
                _ => vec![],
            };
            let actual = match val {
                serde_json::Value::Null => "null",
                serde_json::Value::Bool(_) => "boolean",
                serde_json::Value::Number(n) if n.is_u64() || n.is_i64() => "integer",
                serde_json::Value::Number(_) => "number",
                serde_json::Value::String(_) => "string",
                serde_json::Value::Array(_) => "array",
                serde_json::Value::Object(_) => "object",
            };
            assert!(
                types.contains(&actual) || (actual == "integer" && types.contains(&"number")),
                "line {}: {k} is {actual}, schema says {types:?}",
                n + 1
            );
            if let Some(allowed) = prop.get("enum").and_then(|e| e.as_array()) {
                assert!(
                    allowed.contains(val),
                    "line {}: {k} = {val} not in {allowed:?}",
                    n + 1
                );
            }
        }
    }
}

#[test]
fn browse_page_shows_pairs_with_relative_images() {
    let tmp = tempfile::tempdir().unwrap();
    let tables = fixture_subset(&tmp.path().join("tables"), &SUBSET[..2]);
    let out = tmp.path().join("suite");
    generate(&tables, &out, &[]);
    let page = tmp.path().join("pages/browse.html");
    run_ok(bin().arg("browse").arg(&out).arg("-o").arg(&page));
    // minijinja escapes `/` in attributes; browsers decode it.
    let html = std::fs::read_to_string(&page)
        .unwrap()
        .replace("&#x2f;", "/");
    let items = read_items(&out).unwrap();
    assert!(html.contains("modified_chart") && html.contains("original"));
    let first = &items[0];
    let src = format!("../suite/{}", first.image);
    assert!(html.contains(&src), "relative image path {src}");
    assert!(page.parent().unwrap().join(&src).is_file());
    assert_eq!(
        html.matches("<script").count(),
        1,
        "only the page's own filter script; question text is escaped"
    );
    let inline = tmp.path().join("inline.html");
    run_ok(
        bin()
            .arg("browse")
            .arg(&out)
            .arg("-o")
            .arg(&inline)
            .arg("--inline"),
    );
    assert!(
        std::fs::read_to_string(&inline)
            .unwrap()
            .replace("&#x2f;", "/")
            .contains("data:image/png;base64,")
    );
}
