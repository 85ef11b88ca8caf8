//! Independent checks of the wording data and of answer preservation: every
//! template parses and uses only slots and rules the code provides, and every
//! realized question over the fixture tables still names each entity of its
//! query (or, for `visual`, a reference that resolves to it in the Scene)
//! while naming no other series or category as the asked one.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::bank::{Bank, FILES, banks};
use super::slots::{SERIES_KEYS, base_slots};
use super::{realize, realizers};
use crate::ir::query::{Query, Reference};
use crate::ir::{ChartSpec, PanelScene, Scene};
use crate::query::reference::{category_by_color, resolve, resolve_color};
use crate::questions::{Question, QuestionOptions, generate};

/// Slots the code fills somewhere (base slots, frame slots, visual and context slots).
const KNOWN_SLOTS: &[&str] = &[
    "claim_clause",
    "in_cat",
    "series_article",
    "series",
    "letter",
    "a_series",
    "b_series",
    "series_a",
    "series_b",
    "category",
    "a_cat",
    "b_cat",
    "from",
    "to",
    "cat_noun",
    "cat_nouns",
    "cat_prep",
    "other",
    "other_prep",
    "scope",
    "scope_in",
    "whole",
    "measure",
    "measure_for",
    "measured_cell",
    "be",
    "Be",
    "series_be",
    "Series_be",
    "a_series_be",
    "A_series_be",
    "cats",
    "threshold",
    "k",
    "pcat",
    "kpi",
    "np",
    "NP",
    "clause",
    "dp",
    "answer",
    "claim",
    "question",
    "q",
    "options",
    "change",
    "target",
    "percent",
    "row",
    "col",
    "row_ordinal",
    "col_ordinal",
    "panel_title",
    "color",
    "mark",
    "mark_one",
    "big",
    "small",
    "ordinal",
    "position",
    "name",
    "other_series",
    "other_cat",
    "other_value",
];

fn slot_names(t: &str) -> Vec<(bool, String)> {
    let mut out = Vec::new();
    let mut rest = t;
    while let Some(i) = rest.find('{') {
        let after = &rest[i + 1..];
        let Some(j) = after.find('}') else { break };
        let name = &after[..j];
        out.push(match name.strip_prefix('@') {
            Some(r) => (true, r.to_string()),
            None => (false, name.to_string()),
        });
        rest = &after[j + 1..];
    }
    out
}

fn all_templates(b: &Bank) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = Vec::new();
    let mut add = |section: &str, key: &str, items: Vec<&str>| {
        for t in items {
            v.push((format!("{section}.{key}"), t.to_string()));
        }
    };
    for (k, t) in b.question.iter().chain(&b.question_awkward) {
        add("question", k, vec![t]);
    }
    for (section, map) in [
        ("np", &b.np),
        ("np_awkward", &b.np_awkward),
        ("clause", &b.clause),
        ("clause_no", &b.clause_no),
        ("refs", &b.refs),
    ] {
        for (k, s) in map {
            add(section, k, s.all());
        }
    }
    for (k, s) in &b.grammar {
        add("grammar", k, s.iter().map(String::as_str).collect());
    }
    if let Some(f) = &b.frames {
        for (k, list) in frame_lists(f) {
            add("frames", k, list.iter().map(String::as_str).collect());
        }
    }
    v
}

fn frame_lists(f: &super::bank::Frames) -> [(&'static str, &Vec<String>); 20] {
    [
        ("wh", &f.wh),
        ("yn", &f.yn),
        ("round", &f.round),
        ("claim", &f.claim),
        ("fact", &f.fact),
        ("mcq", &f.mcq),
        ("hypo", &f.hypo),
        ("target_cell", &f.target_cell),
        ("target_series", &f.target_series),
        ("up", &f.up),
        ("down", &f.down),
        ("followup_category", &f.followup_category),
        ("followup_series", &f.followup_series),
        ("followup_its_value", &f.followup_its_value),
        ("followup_difference", &f.followup_difference),
        ("followup_next", &f.followup_next),
        ("followup_previous", &f.followup_previous),
        ("panel", &f.panel),
        ("panel_grid", &f.panel_grid),
        ("panel_letter", &f.panel_letter),
    ]
}

#[test]
fn every_template_uses_known_slots_and_rules() {
    assert_eq!(banks().len(), FILES.len());
    for (name, bank) in banks() {
        for (where_, t) in all_templates(bank) {
            let opens = t.matches('{').count();
            let closes = t.matches('}').count();
            assert_eq!(opens, closes, "{name} {where_}: unbalanced braces in {t:?}");
            for (is_rule, slot) in slot_names(&t) {
                if is_rule {
                    let found = [*name, "distractor", "lexical", "common"]
                        .iter()
                        .any(|b| banks()[b].grammar.contains_key(&slot));
                    assert!(found, "{name} {where_}: unknown rule @{slot} in {t:?}");
                } else {
                    assert!(
                        KNOWN_SLOTS.contains(&slot.as_str()),
                        "{name} {where_}: unknown slot {{{slot}}} in {t:?}"
                    );
                }
            }
        }
    }
    // Rules must not nest without end: expanding each one terminates.
    let mut rng = crate::seed::rng(1, &["rules"]);
    for (name, bank) in banks() {
        for rule in bank.grammar.keys() {
            for _ in 0..20 {
                let t = format!("{{@{rule}}}");
                assert!(
                    super::grammar::expand(
                        &t,
                        &super::grammar::Source {
                            banks: &[name],
                            avoid: &[],
                            domain: None,
                            mute: &[],
                        },
                        &mut rng,
                        &mut Vec::new()
                    )
                    .is_some(),
                    "{name}: rule {rule} does not expand"
                );
            }
        }
    }
}

#[test]
fn paraphrase_templates_use_series_as_a_whole_noun_phrase() {
    // "the {series} figure" or "the highest {series}" break with a series
    // named "2022"; only canonical (fixed wording) may do that.
    for (name, bank) in banks() {
        if *name == "canonical" {
            continue;
        }
        for (where_, t) in all_templates(bank) {
            // A what-if's changed cell takes this frame only when its series
            // reads as a measure ("the population for China"); awkward
            // names take `target_cell_awkward`.
            if where_ == "frames.target_cell" {
                continue;
            }
            for key in SERIES_KEYS {
                let slot = format!("{{{key}}}");
                let mut rest = t.as_str();
                while let Some(i) = rest.find(&slot) {
                    let before = rest[..i].trim_end();
                    let prev = before
                        .rsplit(|c: char| c.is_whitespace())
                        .next()
                        .unwrap_or("");
                    assert!(
                        !matches!(
                            prev.to_lowercase().as_str(),
                            "the"
                                | "a"
                                | "highest"
                                | "lowest"
                                | "top"
                                | "maximum"
                                | "minimum"
                                | "combined"
                                | "total"
                                | "average"
                                | "mean"
                                | "all"
                                | "every"
                                | "each"
                        ),
                        "{name} {where_}: {slot} used as a modifier in {t:?}"
                    );
                    rest = &rest[i + slot.len()..];
                }
            }
        }
    }
}

fn fixture_tables() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| {
        let n = p.to_string_lossy();
        !n.ends_with(".meta.json")
            && (n.ends_with(".csv") || n.ends_with(".tsv") || n.ends_with(".json"))
    });
    v.sort();
    v
}

struct Chart {
    spec: ChartSpec,
    scene: Scene,
    questions: Vec<Question>,
}

fn charts(tables: &[PathBuf], per_table_kinds: usize, count: usize) -> Vec<Chart> {
    let mut out = Vec::new();
    let style = crate::spec::builtin_themes().into_iter().next().unwrap();
    for path in tables {
        let Ok(table) = crate::table::load_table(path) else {
            continue;
        };
        for kind in crate::spec::suitable_kinds(&table)
            .into_iter()
            .take(per_table_kinds)
        {
            let Ok(spec) = crate::spec::single(&table, kind, &style) else {
                continue;
            };
            let Ok((_, scene)) = crate::render::render_svg(&spec) else {
                continue;
            };
            let opts = QuestionOptions {
                seed: 7,
                count,
                unanswerable_share: 0.3,
                ..QuestionOptions::default()
            };
            let questions = generate(&spec.fingerprint(), &spec, &scene, &opts);
            out.push(Chart {
                spec,
                scene,
                questions,
            });
        }
    }
    out
}

/// The entity strings a wording must carry, by slot key, plus free strings
/// (options, claims, changed cells, listed categories).
fn entities(q: &Question, spec: &ChartSpec) -> (BTreeMap<String, String>, Vec<String>) {
    let base = q.query.base();
    let mut keyed = BTreeMap::new();
    if let Some((_, slots)) = base_slots(base, spec) {
        for key in SERIES_KEYS.iter().chain(&[
            "category",
            "a_cat",
            "b_cat",
            "from",
            "to",
            "pcat",
            "kpi",
            "threshold",
            "k",
        ]) {
            if let Some(v) = slots.get(*key) {
                keyed.insert(key.to_string(), v.clone());
            }
        }
        // A pie of shares asks for "the total": its one series is the whole.
        if slots.get("whole").is_some_and(|w| w == "the total") {
            keyed.remove("series");
        }
    }
    let mut free: Vec<String> = q.choices.clone();
    match &q.query {
        // A yes/no claim's "Yes"/"No" is a polarity, not a string in the text.
        Query::FactCheck { claim, .. } if !matches!(claim.as_str(), "Yes" | "No") => {
            free.push(claim.clone())
        }
        Query::Hypothetical { change, .. } => {
            // Called by the name the chart prints for it.
            let shown = spec.panels().get(change.panel).map_or_else(
                || change.series.clone(),
                |p| super::slots::spoken_series(p, spec, &change.series),
            );
            free.push(shown);
            free.extend(change.category.clone());
        }
        _ => {}
    }
    if let Query::Aggregate { categories, .. } | Query::ShareSum { categories, .. } = base {
        free.extend(categories.iter().cloned());
    }
    (keyed, free)
}

/// The entity a visual transform (`{slot}:{kind}:{params}`) points at.
fn resolve_transform(p: &PanelScene, kind: &str, params: &[&str]) -> Option<String> {
    match (kind, params) {
        ("color", [c]) => resolve_color(p, c),
        ("position", [pos, end]) => resolve(
            p,
            &Reference::Position {
                position: pos.parse().ok()?,
                from_end: end.parse().ok()?,
            },
        ),
        ("extreme", [largest]) => resolve(
            p,
            &Reference::Extreme {
                largest: largest.parse().ok()?,
            },
        ),
        ("slice", [c]) => category_by_color(p, c),
        _ => None,
    }
}

#[test]
fn realized_questions_keep_every_entity_over_the_fixtures() {
    let charts = charts(&fixture_tables(), 2, 40);
    assert!(
        charts.len() >= 20,
        "too few fixture charts: {}",
        charts.len()
    );
    let mut checked: BTreeMap<&str, usize> = BTreeMap::new();
    let mut keys_seen: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    let mut failures: Vec<String> = Vec::new();
    let mut absent_checked = 0;
    for chart in &charts {
        let (spec, scene) = (&chart.spec, &chart.scene);
        for q in &chart.questions {
            if q.realization.realizer == "canonical" {
                let again = realize(q, "canonical", spec, scene, 0).map(|r| r.text);
                assert_eq!(again.as_deref(), Some(q.text.as_str()), "canonical changed");
            }
            let (keyed, free) = entities(q, spec);
            let panel = scene.panels.iter().find(|p| p.index == q.query.panel());
            let table_panel = spec.panels().get(q.query.panel()).map(|p| (*p).clone());
            for name in realizers() {
                for seed in 0..3u64 {
                    let Some(r) = realize(q, name, spec, scene, seed) else {
                        continue;
                    };
                    // Same seed, same bytes.
                    let again = realize(q, name, spec, scene, seed).map(|x| x.text);
                    assert_eq!(again.as_deref(), Some(r.text.as_str()));
                    *checked.entry(name).or_default() += 1;
                    if let Some((key, _)) = base_slots(q.query.base(), spec) {
                        keys_seen.entry(name).or_default().insert(key);
                    }
                    let mut all_text = r.text.clone();
                    for t in &r.history {
                        all_text.push('\n');
                        all_text.push_str(&t.question);
                    }
                    let visual_slots: BTreeMap<&str, (String, Vec<&str>)> = r
                        .realization
                        .transforms
                        .iter()
                        .filter_map(|t| {
                            let mut parts = t.split(':');
                            let slot = parts.next()?;
                            let kind = parts.next()?.to_string();
                            (kind != "wrapped").then(|| (slot, (kind, parts.collect())))
                        })
                        .collect();
                    let conversation = matches!(q.query, Query::Conversation { .. });
                    for (key, value) in &keyed {
                        let visual = name == "visual" && visual_slots.contains_key(key.as_str());
                        if visual {
                            let (kind, params) = &visual_slots[key.as_str()];
                            if kind == "absent_color" {
                                // Unanswerable: the colour and the entity are both undrawn.
                                let undrawn = panel.is_some_and(|p| {
                                    params.iter().all(|c| {
                                        resolve_color(p, c).is_none()
                                            && category_by_color(p, c).is_none()
                                    }) && !p.marks.iter().any(|m| {
                                        m.series == *value
                                            || m.category.as_deref() == Some(value.as_str())
                                    })
                                });
                                absent_checked += 1;
                                if q.answerable || !undrawn {
                                    failures.push(format!(
                                        "{name}: {key} absent reference {params:?} to {value:?} on a drawn entity or colour: {}",
                                        r.text
                                    ));
                                }
                                continue;
                            }
                            let to = panel.and_then(|p| resolve_transform(p, kind, params));
                            // The question says the entity its way ("the Netherlands",
                            // "annual rainfall"); the scene holds the table's name.
                            let in_table = table_panel.as_ref().and_then(|tp| {
                                super::slots::series_named(tp, spec, value)
                                    .or_else(|| super::slots::category_named(tp, value))
                            });
                            if to.is_none()
                                || (to.as_deref() != Some(value.as_str()) && to != in_table)
                            {
                                failures.push(format!(
                                    "{name}: {key} reference {kind}:{params:?} resolves to {to:?}, not {value:?}: {}",
                                    r.text
                                ));
                            }
                        } else if !conversation
                            // A name opening the sentence is capitalised.
                            && !all_text.to_lowercase().contains(&value.to_lowercase())
                        {
                            failures.push(format!("{name}: {key}={value:?} missing: {}", r.text));
                        }
                    }
                    if !conversation {
                        for f in &free {
                            // Visual items may refer to the changed cell visually.
                            let referred = name == "visual" && !r.text.contains(f.as_str());
                            if !referred && !all_text.contains(f.as_str()) {
                                failures.push(format!("{name}: {f:?} missing: {}", r.text));
                            }
                        }
                    }
                    // No other series or category named as the asked one (a
                    // conversation's history names its earlier turns' entities).
                    let Some(tp) = &table_panel else { continue };
                    if conversation {
                        continue;
                    }
                    let mut allowed: BTreeSet<String> = keyed.values().cloned().collect();
                    allowed.extend(free.iter().cloned());
                    for t in &r.realization.transforms {
                        if let Some(m) = t.strip_prefix("mentions:") {
                            allowed.insert(m.split_once(':').map(|x| x.1).unwrap_or(m).into());
                        }
                    }
                    let body = all_text.clone();
                    let others = tp
                        .series
                        .iter()
                        .cloned()
                        .chain(tp.table.category_labels())
                        .filter(|n| n.chars().filter(|c| c.is_alphabetic()).count() >= 3)
                        // Measures read in lower case mid-sentence ("job vacancies").
                        .filter(|n| {
                            !allowed
                                .iter()
                                .any(|a| a.to_lowercase().contains(&n.to_lowercase()))
                        });
                    for other in others {
                        if super::grammar::names_word(&body, &other) && !q.text.contains(&other) {
                            failures.push(format!("{name}: names {other:?}: {}", r.text));
                        }
                    }
                }
            }
        }
    }
    failures.sort();
    failures.dedup();
    assert!(
        failures.is_empty(),
        "{} failures, e.g.:\n{}",
        failures.len(),
        failures
            .iter()
            .take(25)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    for name in realizers() {
        assert!(
            checked.get(name).copied().unwrap_or(0) > 50,
            "{name}: {checked:?}"
        );
    }
    // Unanswerable twins name their absent entity by an undrawn colour.
    assert!(absent_checked > 5, "{absent_checked} absent references");
    // Every family key of the lexical bank that the fixtures can ask is covered.
    let lexical = &keys_seen["lexical"];
    assert!(lexical.len() >= 25, "{lexical:?}");
}

#[test]
fn fact_check_claims_carry_no_hedges() {
    let charts = charts(&fixture_tables()[..8], 1, 30);
    for chart in &charts {
        for q in &chart.questions {
            if !matches!(q.query, Query::FactCheck { .. }) {
                continue;
            }
            for name in realizers() {
                for seed in 0..4u64 {
                    let Some(r) = realize(q, name, &chart.spec, &chart.scene, seed) else {
                        continue;
                    };
                    let lower = r.text.to_lowercase();
                    let Query::FactCheck { claim, .. } = &q.query else {
                        continue;
                    };
                    let claim = claim.to_lowercase();
                    let near = [
                        format!("about {claim}"),
                        format!("around {claim}"),
                        format!("roughly {claim}"),
                        format!("approximately {claim}"),
                        format!("nearly {claim}"),
                    ];
                    for hedge in ["i think", "exactly", "statement: what", "statement: which"]
                        .into_iter()
                        .chain(near.iter().map(String::as_str))
                    {
                        assert!(!lower.contains(hedge), "{name}: {hedge:?} in {}", r.text);
                    }
                }
            }
        }
    }
}

#[test]
fn multiple_choice_wordings_put_no_closer_before_the_options() {
    let closers: Vec<String> = ["ask_tail", "formal_tail", "casual_tail"]
        .iter()
        .flat_map(|rule| banks().values().filter_map(move |b| b.grammar.get(*rule)))
        .flatten()
        .map(|t| t.trim().to_string())
        .filter(|t| t.len() > 3 && !t.contains('{'))
        .collect();
    assert!(closers.len() >= 5, "{closers:?}");
    let charts = charts(&fixture_tables()[..10], 1, 30);
    let mut seen = 0;
    for chart in &charts {
        for q in &chart.questions {
            let Query::MultipleChoice { options, .. } = &q.query else {
                continue;
            };
            for name in ["lexical", "register", "syntactic", "visual"] {
                for seed in 0..6u64 {
                    let Some(r) = realize(q, name, &chart.spec, &chart.scene, seed) else {
                        continue;
                    };
                    let Some(at) = r.text.find(&format!("a) {}", options[0])) else {
                        continue;
                    };
                    seen += 1;
                    let before = r.text[..at].trim_end();
                    // Options answer a question, not a request or a statement.
                    assert!(
                        before.contains('?'),
                        "{name}: no question before the options: {}",
                        r.text
                    );
                    for c in &closers {
                        assert!(
                            !before.contains(c.as_str()),
                            "{name}: {c:?} before the options: {}",
                            r.text
                        );
                    }
                }
            }
        }
    }
    assert!(
        seen > 30,
        "too few multiple-choice wordings checked: {seen}"
    );
}

/// Charts (two kinds each, 60 questions) of tables written from text into a
/// fixed folder: a table's id, and so every seed, follows its path.
fn charts_of_csv(folder: &str, tables: &[(&str, &str)]) -> Vec<Chart> {
    let dir = std::env::temp_dir().join(folder);
    std::fs::create_dir_all(&dir).unwrap();
    let paths: Vec<PathBuf> = tables
        .iter()
        .map(|(name, csv)| {
            let path = dir.join(name);
            std::fs::write(&path, csv).unwrap();
            path
        })
        .collect();
    let out = charts(&paths, 2, 60);
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// Words before a name that would make it a measure ("the highest 2022").
const MODIFIERS: [&str; 12] = [
    "highest", "lowest", "largest", "smallest", "average", "mean", "median", "total", "combined",
    "most", "fewest", "maximum",
];

#[test]
fn awkward_series_names_are_wrapped() {
    let charts = charts_of_csv(
        "chartstress-realize-awkward",
        &[(
            "awkward.csv",
            "Region,2022,2023,18-24,SKU-114\nNorth,12,14,30,7\nSouth,15,11,22,9\nEast,9,10,41,12\nWest,20,23,18,5\n",
        )],
    );
    assert!(!charts.is_empty());
    let wrappers = ["the", "for", "labelled", "dated", "coded", "named"];
    // Search-style text keeps the head noun and drops the article.
    let head_nouns = [
        "series", "data", "group", "band", "bracket", "range", "segment", "entry", "line",
    ];
    let mut seen = 0;
    let year_wrappings: Vec<String> = banks()
        .values()
        .filter_map(|b| b.grammar.get("awkward_year"))
        .flatten()
        .cloned()
        .chain(["the {name} series".to_string()])
        .collect();
    for chart in &charts {
        for q in &chart.questions {
            let skip: Vec<String> = q.choices.clone();
            let realizers = [
                "canonical",
                "lexical",
                "syntactic",
                "register",
                "distractor",
                "noisy",
            ];
            for (name, seed) in realizers
                .iter()
                .flat_map(|n| (1..=4u64).map(move |s| (*n, s)))
            {
                let Some(r) = realize(q, name, &chart.spec, &chart.scene, seed) else {
                    continue;
                };
                let mut text = r.text.clone();
                for s in &skip {
                    text = text.replace(s.as_str(), "");
                }
                if let Query::FactCheck { claim, .. } = &q.query {
                    text = text.replace(claim.as_str(), "");
                }
                // Two year-named series in one question share one wrapping.
                let lower = text.to_lowercase();
                let wrapping = |year: &str| -> BTreeSet<&str> {
                    year_wrappings
                        .iter()
                        .filter(|w| lower.contains(&w.replace("{name}", year)))
                        .map(String::as_str)
                        .collect()
                };
                let (a, b) = (wrapping("2022"), wrapping("2023"));
                if !a.is_empty() && !b.is_empty() {
                    assert!(!a.is_disjoint(&b), "{name}: two wrappings in {}", r.text);
                }
                for series in ["2022", "2023", "18-24", "SKU-114"] {
                    for (i, _) in text.match_indices(series) {
                        let prev = text[..i]
                            .trim_end()
                            .rsplit(' ')
                            .next()
                            .unwrap_or("")
                            .to_lowercase();
                        let next = text[i + series.len()..]
                            .split_whitespace()
                            .next()
                            .unwrap_or("")
                            .trim_matches(|c: char| !c.is_alphabetic())
                            .to_lowercase();
                        seen += 1;
                        // A year, date or code may stand as itself ("the
                        // population for 2022 in North", "between North and
                        // East in 2022"), never as a measure after an
                        // adjective ("the highest 2022"); a band keeps its
                        // noun ("the 18-24 group").
                        let with_noun = head_nouns.contains(&next.as_str());
                        let ok = if series == "18-24" {
                            wrappers.contains(&prev.as_str()) || with_noun
                        } else {
                            !MODIFIERS.contains(&prev.as_str()) || with_noun
                        };
                        assert!(ok, "{name}: bare {series:?} in {}", r.text);
                    }
                }
            }
        }
    }
    assert!(seen > 20, "{seen}");
    // Two year-named series in one question came from unanswerable variants
    // naming a series this chart does not draw; it prints no series name,
    // so a reader cannot see that one absent and none is generated. The
    // one-wrapping rule above is checked wherever such a pair occurs.
}

/// "Which year has the highest Brazil?" is not English: among several series a
/// one-word capitalised name is a place or kind, so canonical wording says
/// "the highest value for Brazil", even on a chart that plots one of them. A
/// table's only series is the measure itself: "the highest Population".
#[test]
fn place_named_series_are_not_read_as_measures() {
    let charts = charts_of_csv(
        "chartstress-realize-place-series",
        &[
            (
                "places.csv",
                "Year,Brazil,China\n2016,3.1,6.8\n2017,1.3,6.9\n2018,1.8,6.7\n2019,1.2,6.0\n2020,-3.3,2.2\n",
            ),
            (
                "measure.csv",
                "Country,Population\nPeru,34\nChile,19\nBolivia,12\nEcuador,18\nUruguay,3\n",
            ),
        ],
    );
    let (mut places, mut measures) = (0, 0);
    for chart in &charts {
        let lone = chart.spec.panels()[0].table.series.len() == 1;
        for q in &chart.questions {
            let Some(r) = realize(q, "canonical", &chart.spec, &chart.scene, 0) else {
                continue;
            };
            // A measure reads in lower case mid-sentence ("the highest population").
            let text = r.text.to_lowercase();
            for adjective in ["highest", "lowest"] {
                for name in ["brazil", "china", "population"] {
                    if text.contains(&format!("{adjective} value for {name}")) {
                        assert!(!lone, "{}", r.text);
                        places += 1;
                    }
                    if text.contains(&format!("{adjective} {name}")) {
                        assert!(lone, "a place read as a measure: {}", r.text);
                        measures += 1;
                    }
                }
            }
            for name in ["Brazil", "China"] {
                assert!(
                    !r.text.contains(&format!("have {name} above")),
                    "{}",
                    r.text
                );
                assert!(
                    !r.text.contains(&format!("have {name} below")),
                    "{}",
                    r.text
                );
            }
        }
    }
    assert!(places > 0 && measures > 0, "{places} {measures}");
}

/// A what-if asks for the very cell it changes, names that cell once and
/// then refers back to it ("what would its new value be?"); none changes a
/// whole series (an outside reader found those puzzles).
#[test]
fn a_what_if_names_what_it_changes_once() {
    let charts = charts(&fixture_tables(), 1, 60);
    let (mut cells, mut series_wide, mut plural) = (0, 0, 0);
    for chart in &charts {
        for q in &chart.questions {
            let Query::Hypothetical { base, change } = &q.query else {
                continue;
            };
            let Some((key, slots)) = base_slots(base, &chart.spec) else {
                continue;
            };
            let Some(series) = slots.get("series") else {
                continue;
            };
            let whole_series = slots.get("scope").is_none_or(|s| s.is_empty());
            // The name said once: the cell's label, or the series' name.
            let once = match (&change.category, slots.get("category")) {
                (Some(_), Some(category)) if key == "value_at" => category,
                (None, None) if whole_series && key != "value_at" => series,
                _ => continue,
            };
            if series != &change.series || once.chars().count() < 3 {
                continue;
            }
            for (name, seed) in ["lexical", "syntactic", "register"]
                .iter()
                .flat_map(|n| (0..3u64).map(move |s| (*n, s)))
            {
                let Some(r) = realize(q, name, &chart.spec, &chart.scene, seed) else {
                    continue;
                };
                if change.category.is_some() {
                    cells += 1;
                } else {
                    series_wide += 1;
                }
                assert_eq!(
                    r.text.matches(once.as_str()).count(),
                    1,
                    "{name}: {}",
                    r.text
                );
                // "its" never refers back to a plural ("the online sales").
                if crate::realize::slots::reads_plural(&series.to_lowercase()) {
                    plural += 1;
                    assert!(!r.text.contains("its new"), "{name}: {}", r.text);
                }
            }
        }
    }
    assert!(cells >= 9 && series_wide == 0, "{cells} {series_wide}");
    assert!(plural > 0, "no what-if about a plural measure");
}

#[test]
fn no_single_typo_dominates_noisy_wordings() {
    let charts = charts(&fixture_tables()[..10], 1, 30);
    let (mut total, mut teh) = (0usize, 0usize);
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    for chart in &charts {
        for q in &chart.questions {
            for seed in 0..3u64 {
                let Some(r) = realize(q, "noisy", &chart.spec, &chart.scene, seed) else {
                    continue;
                };
                total += 1;
                if r.text.to_lowercase().split_whitespace().any(|w| w == "teh") {
                    teh += 1;
                }
                for t in &r.realization.transforms {
                    if let Some(k) = t.strip_prefix("typo:") {
                        *kinds.entry(k.to_string()).or_default() += 1;
                    }
                }
            }
        }
    }
    assert!(total > 100, "{total}");
    assert!(teh * 20 < total, "'teh' in {teh} of {total}");
    assert!(kinds.len() >= 5, "{kinds:?}");
    let most = kinds.values().max().copied().unwrap_or(0);
    let all: usize = kinds.values().sum();
    assert!(most * 2 < all, "{kinds:?}");
}

/// A register twin has an opener or a closer, never both ("Hey, is it true
/// that … ? Cheers!" read stilted), and both kinds occur.
#[test]
fn register_adds_one_pleasantry() {
    let charts = charts(&fixture_tables(), 1, 30);
    let (mut openers, mut closers) = (0, 0);
    for chart in &charts {
        for q in &chart.questions {
            for seed in 0..3u64 {
                let Some(r) = realize(q, "register", &chart.spec, &chart.scene, seed) else {
                    continue;
                };
                let has = |kind: &str| r.realization.transforms.iter().any(|t| t.ends_with(kind));
                assert!(!(has(":opener") && has(":closer")), "{}", r.text);
                openers += usize::from(has(":opener"));
                closers += usize::from(has(":closer"));
            }
        }
    }
    assert!(openers > 10 && closers > 10, "{openers} {closers}");
}
