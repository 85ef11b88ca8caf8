//! `browse`: a static HTML page showing each original item next to its
//! modified counterparts (image, history, paragraph, question, answer,
//! perturbations with change class, severity, ladder level and visual
//! distance), for a person to check a suite. One self-contained file: the
//! filters and the full-size image view are plain inline JS over data
//! attributes, so it works from file://. Text is escaped by minijinja's HTML
//! auto-escape.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use base64::Engine;
use serde::Serialize;

use super::SuiteError;
use super::io::{items_iter, read_manifest};
use crate::ir::{Change, Item, SetName, Turn};

#[derive(Debug, Clone)]
pub struct BrowseOptions {
    /// Prefix put before item image paths (the suite folder relative to the page).
    pub image_base: String,
    /// Inline images as data URIs instead of referencing them.
    pub inline: bool,
    /// Show at most this many originals (with their modified items).
    pub limit: usize,
}

impl Default for BrowseOptions {
    fn default() -> Self {
        BrowseOptions {
            image_base: String::new(),
            inline: false,
            limit: 200,
        }
    }
}

#[derive(Serialize)]
struct PertView {
    axis: String,
    name: String,
    change: &'static str,
    /// Measured severity (the band of the change's distance on its axis).
    severity: u8,
    /// Requested ladder step (`params.level`), when the perturbation has one.
    level: Option<String>,
    params: String,
}

#[derive(Serialize)]
struct Card {
    id: String,
    set: &'static str,
    image: String,
    question: String,
    question_type: &'static str,
    family: String,
    answer: String,
    answerable: bool,
    choices: Vec<String>,
    history: Vec<Turn>,
    paragraph: Option<String>,
    perturbations: Vec<PertView>,
    /// Change class of a modified item; `None` for originals.
    change: Option<&'static str>,
    /// Highest measured severity over the item's perturbations.
    severity: Option<u8>,
    /// Fixed three decimals, so the page never shows a float artefact.
    visual_distance: Option<String>,
    /// Space-separated values for the client-side filters.
    axes: String,
    names: String,
    severities: String,
}

#[derive(Serialize)]
struct Row {
    original: Card,
    modified: Vec<Card>,
}

/// Values offered by the filter controls: those present on the page.
#[derive(Serialize, Default)]
struct Filters {
    sets: Vec<&'static str>,
    axes: BTreeSet<String>,
    perturbations: BTreeSet<String>,
    severities: BTreeSet<u8>,
    changes: Vec<&'static str>,
}

impl Filters {
    fn add(&mut self, item: &Item) {
        for p in &item.perturbations {
            self.axes.insert(p.axis.clone());
            self.perturbations.insert(p.name.clone());
            self.severities.insert(p.severity);
        }
    }
}

const PAGE: &str = include_str!("../../templates/browse/page.html.j2");

fn join<T: ToString>(values: impl Iterator<Item = T>) -> String {
    let set: BTreeSet<String> = values.map(|v| v.to_string()).collect();
    set.into_iter().collect::<Vec<_>>().join(" ")
}

fn card(item: &Item, suite: &Path, opts: &BrowseOptions) -> Result<Card, SuiteError> {
    let image = if opts.inline {
        let path = suite.join(&item.image);
        let bytes = std::fs::read(&path).map_err(super::io::io_err(&path))?;
        format!(
            "data:image/png;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(bytes)
        )
    } else {
        format!("{}{}", opts.image_base, item.image)
    };
    let modified = item.set != SetName::Original;
    Ok(Card {
        id: item.id.clone(),
        set: item.set.name(),
        image,
        question: item.question.clone(),
        question_type: item.question_type.name(),
        family: item.family.clone(),
        answer: item.answer_text.clone(),
        answerable: item.answerable,
        choices: item.choices.clone(),
        history: item.history.clone(),
        paragraph: item.paragraph.clone().filter(|p| !p.trim().is_empty()),
        perturbations: item
            .perturbations
            .iter()
            .map(|p| {
                let mut params = p.params.clone();
                let level = params.remove("level").map(|l| match l {
                    serde_json::Value::String(s) => s,
                    other => other.to_string(),
                });
                PertView {
                    axis: p.axis.clone(),
                    name: p.name.clone(),
                    change: p.change.name(),
                    severity: p.severity,
                    level,
                    params: if params.is_empty() {
                        String::new()
                    } else {
                        serde_json::to_string(&params).unwrap_or_default()
                    },
                }
            })
            .collect(),
        change: modified.then(|| item.change().name()),
        severity: item.perturbations.iter().map(|p| p.severity).max(),
        visual_distance: item
            .visual_distance
            .filter(|d| d.is_finite())
            .map(|d| format!("{d:.3}")),
        axes: join(item.perturbations.iter().map(|p| &p.axis)),
        names: join(item.perturbations.iter().map(|p| &p.name)),
        severities: join(item.perturbations.iter().map(|p| p.severity)),
    })
}

/// Renders the browse page for the suite in `suite`.
pub fn browse_html(suite: &Path, opts: &BrowseOptions) -> Result<String, SuiteError> {
    let manifest = read_manifest(suite)?;
    let mut originals: Vec<Item> = Vec::new();
    let mut modified: BTreeMap<String, Vec<Item>> = BTreeMap::new();
    let mut items = 0u64;
    for item in items_iter(suite)? {
        let item = item?;
        items += 1;
        match &item.origin {
            None if originals.len() < opts.limit => originals.push(item),
            None => {}
            Some(origin) => modified.entry(origin.clone()).or_default().push(item),
        }
    }
    let header = minijinja::context! {
        items => items,
        seed => manifest.seed,
        tool_version => manifest.tool_version,
        fingerprint => manifest.fingerprint,
    };
    render(&originals, &modified, suite, opts, header)
}

/// The page for `originals`, each followed by its modified items (keyed by
/// origin id); `header` holds the suite's items, seed, tool version and
/// fingerprint.
fn render(
    originals: &[Item],
    modified: &BTreeMap<String, Vec<Item>>,
    suite: &Path,
    opts: &BrowseOptions,
    header: minijinja::Value,
) -> Result<String, SuiteError> {
    let mut rows = Vec::new();
    let mut filters = Filters::default();
    let mut sets = BTreeSet::new();
    for original in originals {
        let mods = modified.get(&original.id).map(Vec::as_slice).unwrap_or(&[]);
        sets.insert(original.set);
        for m in mods {
            sets.insert(m.set);
            filters.add(m);
        }
        rows.push(Row {
            original: card(original, suite, opts)?,
            modified: mods
                .iter()
                .map(|m| card(m, suite, opts))
                .collect::<Result<_, _>>()?,
        });
    }
    filters.sets = sets.into_iter().map(SetName::name).collect();
    filters.changes = Change::ALL.iter().map(|c| c.name()).collect();
    let mut env = minijinja::Environment::new();
    // Every value on the page is data from the suite: escape all of it,
    // whatever the template's name.
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    env.add_template("page.html", PAGE)
        .map_err(|e| SuiteError::Stage(format!("browse template: {e}")))?;
    env.get_template("page.html")
        .and_then(|t| {
            t.render(minijinja::context! {
                rows => rows,
                filters => filters,
                ..header
            })
        })
        .map_err(|e| SuiteError::Stage(format!("browse page: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &str = "<script>alert(1)</script>";

    fn original() -> Item {
        let mut item: Item = serde_json::from_value(serde_json::json!({
            "id": "o1", "set": "original", "chart_id": "c", "image": "images/c.png",
            "table_id": "t", "chart_kind": "bar", "question": "Diff between those two?",
            "question_type": "conversational", "family": "difference",
            "query": {"op": "title", "panel": 0}, "answer": {"type": "unanswerable"},
            "answer_text": "12", "answer_kind": "number_in_general", "answerable": true,
            "realization": {"realizer": "canonical", "template_id": "t"},
        }))
        .unwrap();
        item.history = vec![
            Turn {
                question: format!("Which bar is {HOSTILE} highest?"),
                answer: "A & B".into(),
            },
            Turn {
                question: "And its value?".into(),
                answer: "30".into(),
            },
        ];
        item.paragraph = Some(format!("Note: {HOSTILE} \"quoted\""));
        item
    }

    fn modified(
        id: &str,
        set: SetName,
        perts: &[(&str, &str, u8, Change, Option<u64>)],
        d: Option<f64>,
    ) -> Item {
        let mut item = original();
        item.id = id.into();
        item.set = set;
        item.origin = Some("o1".into());
        item.image = format!("images/{id}.png");
        item.visual_distance = d;
        item.perturbations = perts
            .iter()
            .map(crate::ir::Perturbation::at_level)
            .collect();
        item
    }

    fn page(items: &[Item]) -> String {
        let mut mods: BTreeMap<String, Vec<Item>> = BTreeMap::new();
        for m in &items[1..] {
            mods.entry("o1".into()).or_default().push(m.clone());
        }
        let header = minijinja::context! {
            items => items.len(), seed => 1, tool_version => "t", fingerprint => "f00d",
        };
        let opts = BrowseOptions::default();
        render(&items[..1], &mods, Path::new("."), &opts, header).unwrap()
    }

    #[test]
    fn cards_carry_distance_change_severity_level_history_and_paragraph() {
        let items = [
            original(),
            modified(
                "m1",
                SetName::ModifiedChart,
                &[("dashboard", "dashboard", 2, Change::Easing, Some(4))],
                Some(0.64831),
            ),
            modified(
                "m2",
                SetName::ModifiedQuestion,
                &[("lexical", "lexical", 3, Change::Stress, None)],
                None,
            ),
            modified(
                "m3",
                SetName::ModifiedChart,
                &[("font", "font_size", 1, Change::Stress, Some(1))],
                Some(f64::NAN),
            ),
        ];
        let html = page(&items);
        assert!(html.contains("distance 0.648<"), "fixed decimals");
        assert!(!html.contains("NaN"));
        assert!(html.contains(r#"<span class="badge easing">easing</span>"#));
        assert!(html.contains("severity 2 · level 4"));
        assert!(html.contains(
            r#"data-axis="dashboard" data-pert="dashboard" data-sev="2" data-change="easing""#
        ));
        // History and paragraph on every card: 4 cards, escaped.
        let turn =
            "Q: Which bar is &lt;script&gt;alert(1)&lt;&#x2f;script&gt; highest?<br>A: A &amp; B";
        assert_eq!(html.matches(turn).count(), 4, "{html}");
        assert_eq!(
            html.matches("<p class=\"paragraph\">Note: &lt;script&gt;")
                .count(),
            4
        );
        assert!(html.contains("&quot;quoted&quot;"));
        assert!(!html.contains(HOSTILE));
        assert_eq!(
            html.matches("<script").count(),
            1,
            "only the page's own script"
        );
        for name in ["set", "axis", "pert", "sev", "change"] {
            assert!(
                html.contains(&format!(r#"<select name="{name}">"#)),
                "{name} filter"
            );
        }
        for opt in [
            "dashboard",
            "lexical",
            "font",
            "modified_question",
            "shifted",
            "easing",
        ] {
            assert!(
                html.contains(&format!(r#"<option value="{opt}">"#)),
                "{opt} option"
            );
        }
        // Images open full size: a link to the file around each thumbnail.
        assert!(html.contains(r#"<a class="zoom" href="images&#x2f;m1.png""#));
        assert!(html.contains(r#"<div id="lightbox" hidden>"#));
    }

    #[test]
    fn items_without_history_or_paragraph_show_neither() {
        let mut plain = original();
        plain.history.clear();
        plain.paragraph = Some("  ".into());
        let html = page(&[plain]);
        assert!(!html.contains(r#"<ol class="history">"#));
        assert!(!html.contains(r#"<p class="paragraph">"#));
        assert!(
            !html.contains("badge dist"),
            "no distance badge on originals"
        );
    }
}
