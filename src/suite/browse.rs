//! `browse`: a static HTML page showing each original item next to its
//! modified counterparts (image, question, answer, perturbations), for a
//! person to check a suite. Text is escaped by minijinja's HTML auto-escape.

use std::collections::BTreeMap;
use std::path::Path;

use base64::Engine;
use serde::Serialize;

use super::SuiteError;
use super::io::{items_iter, read_manifest};
use crate::ir::Item;

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
    perturbations: Vec<String>,
}

#[derive(Serialize)]
struct Row {
    original: Card,
    modified: Vec<Card>,
}

const PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>chartstress suite {{ fingerprint[:12] }}</title>
<style>
body{font-family:sans-serif;margin:1em;background:#fafafa}
.row{display:flex;gap:12px;overflow-x:auto;border-bottom:1px solid #ccc;padding:12px 0}
.card{flex:0 0 320px;background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px;font-size:13px}
.card.original{border-color:#1f77b4}
.card img{width:100%;height:auto;border:1px solid #eee}
.set{font-weight:bold;text-transform:uppercase;font-size:11px;color:#555}
.answer{color:#006400;font-weight:bold}.unanswerable{color:#a00}
.pert{font-family:monospace;font-size:11px;color:#444}
</style></head><body>
<h1>chartstress suite</h1>
<p>{{ items }} items, tool {{ tool_version }}, seed {{ seed }}, fingerprint <code>{{ fingerprint }}</code>.
Showing {{ rows|length }} original items with their modified counterparts.</p>
{% for row in rows %}<div class="row">
{% for card in [row.original] + row.modified %}<div class="card{% if card.set == 'original' %} original{% endif %}">
<div class="set">{{ card.set }} · {{ card.question_type }} · {{ card.family }}</div>
<img src="{{ card.image }}" alt="chart of {{ card.id }}" loading="lazy">
<p>{{ card.question }}</p>
{% if card.choices %}<ol type="a">{% for c in card.choices %}<li>{{ c }}</li>{% endfor %}</ol>{% endif %}
<p class="{% if card.answerable %}answer{% else %}unanswerable{% endif %}">Answer: {{ card.answer }}</p>
{% for p in card.perturbations %}<div class="pert">{{ p }}</div>{% endfor %}
<div class="pert">{{ card.id }}</div>
</div>{% endfor %}
</div>
{% endfor %}</body></html>
"#;

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
        perturbations: item
            .perturbations
            .iter()
            .map(|p| {
                let params = serde_json::to_string(&p.params).unwrap_or_default();
                format!("{}/{} s{} {}", p.axis, p.name, p.severity, params)
            })
            .collect(),
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
    let mut rows = Vec::new();
    for original in &originals {
        let mods = modified.get(&original.id).map(Vec::as_slice).unwrap_or(&[]);
        rows.push(Row {
            original: card(original, suite, opts)?,
            modified: mods
                .iter()
                .map(|m| card(m, suite, opts))
                .collect::<Result<_, _>>()?,
        });
    }
    let mut env = minijinja::Environment::new();
    env.add_template("page.html", PAGE)
        .map_err(|e| SuiteError::Stage(format!("browse template: {e}")))?;
    env.get_template("page.html")
        .and_then(|t| {
            t.render(minijinja::context! {
                rows => rows,
                items => items,
                seed => manifest.seed,
                tool_version => manifest.tool_version,
                fingerprint => manifest.fingerprint,
            })
        })
        .map_err(|e| SuiteError::Stage(format!("browse page: {e}")))
}
