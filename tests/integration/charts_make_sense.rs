//! Charts an analyst would draw of their table, checked from what the suite
//! wrote (specs, scenes, items) with rules written here, not the library's:
//! no stack of rates or of years, no waterfall without a level to start
//! from, no interval drawn as a series, no kind recorded that is not drawn,
//! no title the tool wrote, no unit twice, one answer per picture, and no
//! kind crowding out the others.

use crate::support::{bin, jsonl, run_ok};
use regex::Regex;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn generate(inputs: &[PathBuf], out: &Path, seed: &str) {
    run_ok(
        bin()
            .arg("generate")
            .args(inputs)
            .args([
                "--kinds",
                "all",
                "--questions-per-chart",
                "2",
                "--variants-per-original",
                "1",
                "--seed",
                seed,
                "--quiet",
                "--out",
            ])
            .arg(out),
    );
}

fn synth(dir: &Path, seed: &str, count: &str, kind: Option<&str>) {
    let mut cmd = bin();
    cmd.args(["synth", "--seed", seed, "--count", count]);
    if let Some(k) = kind {
        cmd.args(["--kind", k]);
    }
    run_ok(cmd.arg("-o").arg(dir));
}

fn panels(v: &Value) -> Vec<&Value> {
    let mut out = Vec::new();
    match v {
        Value::Object(m) => {
            if m.contains_key("kind") && m.contains_key("table") {
                out.push(v);
            }
            for x in m.values() {
                out.extend(panels(x));
            }
        }
        Value::Array(a) => a.iter().for_each(|x| out.extend(panels(x))),
        _ => {}
    }
    out
}

fn texts<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(t)) = m.get("text") {
                out.push(t);
            }
            m.values().for_each(|x| texts(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| texts(x, out)),
        _ => {}
    }
}

fn has_word(text: &str, words: &[&str]) -> bool {
    let lower = text.to_lowercase();
    words.iter().any(|w| {
        Regex::new(&format!(
            r"(^|[^a-z0-9]){}s?([^a-z0-9]|$)",
            regex::escape(w)
        ))
        .unwrap()
        .is_match(&lower)
    })
}

/// Quantities whose parts do not add up to a whole.
const NOT_PARTS: [&str; 22] = [
    "rate",
    "index",
    "average",
    "mean",
    "median",
    "price",
    "per capita",
    "ratio",
    "growth",
    "temperature",
    "precipitation",
    "rainfall",
    "percentile",
    "anomaly",
    "expectancy",
    "yield",
    "score",
    "wage",
    "salary",
    "concentration",
    "fertility",
    "body mass",
];

/// Headers of an interval's columns.
const INTERVAL_WORDS: [&str; 12] = [
    "sd", "se", "sem", "stderr", "stdev", "std", "ci", "lcl", "ucl", "moe", "lower", "upper",
];

fn label(cell: &Value) -> String {
    match &cell["v"] {
        Value::String(s) => s.clone(),
        v => v.to_string(),
    }
}

/// A table's index cells as text, each through `as_text`.
fn index_labels(table: &Value, as_text: fn(&Value) -> String) -> Vec<String> {
    table["index"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(as_text)
        .collect()
}

/// Whether a waterfall's first row is a level the others move from.
fn starts_from_a_level(table: &Value) -> bool {
    let labels = index_labels(table, label);
    let year = Regex::new(r"\b(18|19|20)\d\d\b").unwrap();
    let first = &labels[0];
    let start = has_word(
        first,
        &[
            "opening",
            "start",
            "beginning",
            "initial",
            "brought forward",
            "budget",
            "1 january",
        ],
    ) || (year.is_match(first) && !labels[1..].iter().any(|l| year.is_match(l)));
    let meta = &table["meta"];
    let bridge = [&meta["title"], &meta["x_label"], &table["index"]["name"]]
        .iter()
        .filter_map(|v| v.as_str())
        .any(|t| has_word(t, &["bridge", "walk", "waterfall", "movement", "step"]));
    start || bridge
}

struct Suite {
    charts: Vec<Value>,
    items: Vec<Value>,
    declared_additive: BTreeSet<String>,
}

fn read_suite(dir: &Path) -> Suite {
    let mut declared_additive = BTreeSet::new();
    for entry in std::fs::read_dir(dir.join("tables")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if let Some(id) = name.strip_suffix(".meta.json") {
            let meta: Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            if meta["additive"] == Value::Bool(true) {
                declared_additive.insert(id.to_string());
            }
        }
    }
    Suite {
        charts: jsonl(&dir.join("charts.jsonl")),
        items: jsonl(&dir.join("items.jsonl")),
        declared_additive,
    }
}

/// Every rule that reads one chart; returns what broke.
fn chart_faults(chart: &Value, suite: &Suite) -> Vec<String> {
    let mut faults = Vec::new();
    let id = chart["id"].as_str().unwrap();
    let years = Regex::new(r"^\s*(18|19|20)\d\d\s*$").unwrap();
    for p in panels(&chart["spec"]) {
        let kind = p["kind"].as_str().unwrap();
        let table = &p["table"];
        let table_id = table["id"].as_str().unwrap();
        let series: Vec<&str> = p["series"]
            .as_array()
            .map(|a| a.iter().filter_map(|s| s.as_str()).collect())
            .unwrap_or_default();
        let meta = &table["meta"];
        if matches!(kind, "stacked_bar" | "stacked_area" | "percent_stacked_bar") {
            if series.len() >= 2 && series.iter().all(|s| years.is_match(s)) {
                faults.push(format!("{id}: {kind} of years {series:?} ({table_id})"));
            }
            if !suite.declared_additive.contains(table_id) {
                let said: Vec<&str> = series
                    .iter()
                    .copied()
                    .chain(
                        ["title", "measure"]
                            .iter()
                            .filter_map(|k| meta[*k].as_str()),
                    )
                    .collect();
                if let Some(t) = said.iter().find(|t| has_word(t, &NOT_PARTS)) {
                    faults.push(format!("{id}: {kind} of \"{t}\" ({table_id})"));
                }
            }
        }
        if matches!(
            kind,
            "grouped_bar" | "stacked_bar" | "stacked_area" | "percent_stacked_bar"
        ) && series.len() < 2
        {
            faults.push(format!("{id}: {kind} drawing {series:?}"));
        }
        if matches!(kind, "stacked_bar" | "stacked_area" | "percent_stacked_bar")
            && let Some(said) = ["subtitle", "title"]
                .iter()
                .filter_map(|k| meta[*k].as_str())
                .find(|t| has_word(t, &["means per", "series with the largest"]))
        {
            faults.push(format!(
                "{id}: {kind} of means or of a selection: \"{said}\" ({table_id})"
            ));
        }
        if kind == "radar" {
            let index = table["index"]["name"].as_str().unwrap_or_default();
            if has_word(index, &PLACES_AND_FIRMS) {
                faults.push(format!("{id}: radar with {index} as spokes ({table_id})"));
            }
        }
        if let Some(a) = p["annotation"].as_object() {
            annotation_faults(id, a, table, &series, &mut faults);
        }
        if kind == "waterfall" && !starts_from_a_level(table) {
            faults.push(format!("{id}: waterfall without a start ({table_id})"));
        }
        if kind != "error_bar"
            && let Some(s) = series.iter().find(|s| has_word(s, &INTERVAL_WORDS))
        {
            faults.push(format!(
                "{id}: {kind} draws the interval \"{s}\" as a series"
            ));
        }
    }
    faults.extend(unnamed_categories(chart));
    let mut shown = Vec::new();
    texts(&chart["scene"], &mut shown);
    let twice = Regex::new(r"\(([^()]+)\)\s*\(([^()]+)\)").unwrap();
    let shaping = Regex::new(
        r"(?i)(rows per|per \S+ of \d+ rows|series with the largest|^top \d+ of|^the last \d+ of)",
    )
    .unwrap();
    for t in &shown {
        if let Some(c) = twice.captures(t)
            && c[1].trim().eq_ignore_ascii_case(c[2].trim())
        {
            faults.push(format!("{id}: unit twice in \"{t}\""));
        }
    }
    let scene = &chart["scene"];
    let mut titles: Vec<&str> = scene["panels"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["title"]["text"].as_str())
        .collect();
    titles.extend(scene["figure"]["title"]["text"].as_str());
    for t in &titles {
        if shaping.is_match(t) {
            faults.push(format!("{id}: the tool's words as a title: \"{t}\""));
        }
    }
    let sources: BTreeSet<&str> = shown
        .iter()
        .copied()
        .filter(|t| t.trim_start().to_lowercase().starts_with("source"))
        .collect();
    if sources.len() > 1 {
        faults.push(format!("{id}: two sources {sources:?}"));
    }
    faults
}

/// Index names of things compared side by side, not aspects of a profile.
const PLACES_AND_FIRMS: [&str; 10] = [
    "country", "city", "state", "province", "region", "county", "district", "company", "firm",
    "team",
];

/// An annotation says only what the data show: a line at the drawn series'
/// average, a band over a run where every drawn series rises (or falls).
fn annotation_faults(
    id: &str,
    mark: &serde_json::Map<String, Value>,
    table: &Value,
    series: &[&str],
    faults: &mut Vec<String>,
) {
    let label = mark
        .get("label")
        .and_then(Value::as_str)
        .unwrap_or_default();
    match mark.get("type").and_then(Value::as_str) {
        Some("reference_line") if !label.starts_with("Average: ") => {
            faults.push(format!("{id}: reference line \"{label}\""));
        }
        Some("band") => {
            let labels = index_labels(table, label_of);
            let at = |k: &str| {
                labels
                    .iter()
                    .position(|l| Some(l.as_str()) == mark[k].as_str())
            };
            let (Some(from), Some(to)) = (at("from"), at("to")) else {
                faults.push(format!("{id}: band bounds not in the index"));
                return;
            };
            let rising = ["Growth", "Rising", "Upswing"].contains(&label);
            let falling = ["Decline", "Falling", "Downturn"].contains(&label);
            let moves = series.iter().all(|name| {
                let column = table["series"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|c| c["name"] == *name)
                    .unwrap();
                let v: Vec<Option<f64>> = column["cells"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c["v"].as_f64())
                    .collect();
                (from..to).all(|r| match (v[r], v[r + 1]) {
                    (Some(a), Some(b)) => (rising && b > a) || (falling && b < a),
                    _ => false,
                })
            });
            if !moves {
                faults.push(format!(
                    "{id}: band \"{label}\" over {}..{} the data do not show",
                    labels[from], labels[to]
                ));
            }
        }
        _ => {}
    }
}

/// An index cell as the chart prints it: whole numbers without ".0".
fn label_of(cell: &Value) -> String {
    match cell["v"].as_f64() {
        Some(v) if v.fract() == 0.0 => format!("{v:.0}"),
        _ => label(cell),
    }
}

/// Bars over named categories (states, firms) print every name: a bar
/// whose name was thinned away cannot be asked about or read.
fn unnamed_categories(chart: &Value) -> Vec<String> {
    let mut faults = Vec::new();
    let spec = &chart["spec"];
    if spec["layout"]["type"] != "single" {
        return faults;
    }
    let panel = &spec["layout"]["panel"];
    let kind = panel["kind"].as_str().unwrap();
    let table = &panel["table"];
    if !matches!(
        kind,
        "bar"
            | "horizontal_bar"
            | "grouped_bar"
            | "stacked_bar"
            | "percent_stacked_bar"
            | "lollipop"
    ) || table["index"]["ctype"] != "text"
    {
        return faults;
    }
    let labels = index_labels(table, label);
    // Names only: numbered bins and periods ("0-4", "2023 Q1") read in order.
    if labels.iter().any(|l| l.chars().any(|c| c.is_ascii_digit())) {
        return faults;
    }
    let scene = &chart["scene"]["panels"][0];
    let ticks = if kind == "horizontal_bar" {
        &scene["y_ticks"]
    } else {
        &scene["x_ticks"]
    };
    let printed: BTreeSet<&str> = ticks
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["label"].as_str())
        .collect();
    // A long name may be cut short with an ellipsis, its start kept.
    let shown = |l: &str| {
        printed.contains(l)
            || printed.iter().any(|p| {
                p.strip_suffix('…')
                    .is_some_and(|head| head.len() >= 8 && l.starts_with(head.trim_end()))
            })
    };
    let missing: Vec<&String> = labels.iter().filter(|l| !shown(l)).collect();
    if !missing.is_empty() {
        faults.push(format!(
            "{}: {kind} of {} named categories leaves {} unnamed ({:?}…)",
            chart["id"],
            labels.len(),
            missing.len(),
            &missing[..missing.len().min(3)]
        ));
    }
    faults
}

fn item_faults(item: &Value, charts: &BTreeMap<&str, &Value>) -> Vec<String> {
    let mut faults = Vec::new();
    let id = item["id"].as_str().unwrap();
    let chart = charts[item["chart_id"].as_str().unwrap()];
    if chart["spec"]["layout"]["type"] == "single" {
        let drawn = &chart["spec"]["layout"]["panel"]["kind"];
        if &item["chart_kind"] != drawn {
            faults.push(format!(
                "{id}: chart_kind {} but {drawn} drawn",
                item["chart_kind"]
            ));
        }
    }
    let shaping = Regex::new(r"(?i)(rows per|of \d+ rows|series with the largest)").unwrap();
    if item["query"]["op"] == "title"
        && let Some(t) = item["answer"]["value"].as_str()
        && shaping.is_match(t)
    {
        faults.push(format!("{id}: title gold \"{t}\""));
    }
    // A panel cited by its title is the only one printing it.
    let question = item["question"].as_str().unwrap_or_default();
    let cited = Regex::new(r#"titled "([^"]+)""#).unwrap();
    for c in cited.captures_iter(question) {
        let n = chart["scene"]["panels"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["title"]["text"].as_str() == Some(&c[1]))
            .count();
        if n != 1 {
            faults.push(format!("{id}: \"{}\" titles {n} panels", &c[1]));
        }
    }
    faults
}

fn check(suite: &Suite) -> Vec<String> {
    let by_id: BTreeMap<&str, &Value> = suite
        .charts
        .iter()
        .map(|c| (c["id"].as_str().unwrap(), c))
        .collect();
    let mut faults: Vec<String> = suite
        .charts
        .iter()
        .flat_map(|c| chart_faults(c, suite))
        .collect();
    faults.extend(suite.items.iter().flat_map(|i| item_faults(i, &by_id)));
    faults
}

fn copy_tables(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() && path.extension().is_some_and(|e| e != "md") {
            std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
        }
    }
}

#[test]
fn real_tables_get_charts_that_fit_them_and_no_kind_crowds_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let suite_dir = dir.path().join("real");
    generate(&[root().join("tests/data/real")], &suite_dir, "35");
    let suite = read_suite(&suite_dir);
    let faults = check(&suite);
    assert!(faults.is_empty(), "{} faults: {faults:#?}", faults.len());
    // Original charts per kind: none above twice its fair share, unless
    // the tables leave no choice. A table that suits at most two kinds (a
    // century of temperatures is a line or bars, never a filled area) draws
    // each of them: those charts are forced, whatever the plan.
    let originals: BTreeSet<&str> = suite
        .items
        .iter()
        .filter(|i| i["set"] == "original")
        .filter_map(|i| i["chart_id"].as_str())
        .collect();
    let mut per_kind: BTreeMap<String, usize> = BTreeMap::new();
    for chart in &suite.charts {
        if originals.contains(chart["id"].as_str().unwrap())
            && chart["spec"]["layout"]["type"] == "single"
        {
            let kind = chart["spec"]["layout"]["panel"]["kind"].as_str().unwrap();
            *per_kind.entry(kind.to_string()).or_default() += 1;
        }
    }
    let mut forced: BTreeMap<String, usize> = BTreeMap::new();
    for path in chartstress::table::table_files(&root().join("tests/data/real")).unwrap() {
        let Ok(table) = chartstress::table::load_table(&path) else {
            continue;
        };
        let kinds = chartstress::spec::suitable_kinds(&table);
        if kinds.len() <= 2 {
            for k in kinds {
                *forced.entry(k.name().to_string()).or_default() += 1;
            }
        }
    }
    let charts: usize = per_kind.values().sum();
    let fair = charts as f64 / per_kind.len() as f64;
    for (kind, n) in &per_kind {
        let allowed = (2.0 * fair).max(1.25 * forced.get(kind).copied().unwrap_or(0) as f64);
        assert!(
            *n as f64 <= allowed,
            "{kind}: {n} of {charts} charts, {allowed:.0} allowed ({per_kind:?}, forced {forced:?})"
        );
    }
    assert!(per_kind.len() >= 10, "{per_kind:?}");
}

#[test]
fn raw_files_synthesized_and_structured_tables_get_charts_that_fit_them() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    copy_tables(&root().join("tests/data/real/raw"), &tables);
    copy_tables(&root().join("tests/data/combo"), &tables);
    synth(&tables, "61", "12", None);
    for kind in ["waterfall", "error_bar", "dual_axis", "samples"] {
        synth(&tables, "61", "2", Some(kind));
    }
    let suite_dir = dir.path().join("suite");
    generate(&[tables], &suite_dir, "61");
    let suite = read_suite(&suite_dir);
    let faults = check(&suite);
    assert!(faults.is_empty(), "{} faults: {faults:#?}", faults.len());
    let kinds: BTreeSet<&str> = suite
        .items
        .iter()
        .filter_map(|i| i["chart_kind"].as_str())
        .collect();
    for k in ["waterfall", "error_bar", "dual_axis", "box"] {
        assert!(kinds.contains(k), "no {k} in {kinds:?}");
    }
}
