//! `chartstress stats`: question diversity of an items file; on a suite
//! folder, also its composition (counts per set, axis, severity, question
//! type, family, chart kind, … from `suite::composition`).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{BufRead, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use chartstress::ir::Item;
use chartstress::questions::diversity::{TextStats, text_stats, trigram_jaccard};

/// Arguments of `chartstress stats`.
#[derive(Debug, clap::Args)]
#[command(
    long_about = "Print question diversity for an items file (`ir::Item` JSON lines, e.g. a \
suite's items.jsonl or `chartstress ask --jsonl`): count, unique tokens, mean characters and \
tokens, type-token ratio — overall, per set and per realizer — and, for items that carry an \
origin, the mean word-trigram Jaccard similarity between each question and its original's \
(1 = same wording, 0 = no shared trigram). Given a suite folder, also print its composition: \
items, charts, pairs and counts per set, axis, severity, perturbation, question type, family, \
chart kind, answer type and choice letter, checked against suite.json. For modified items, \
print the visual distance to the original's image (1 − MSSIM: min, quartiles, median, max; \
\"–\" for a group without any) per chart axis and measured severity and per change class \
(stress, easing, shifted), and the requested ladder level of each chart perturbation against \
its measured severity. Unreadable lines are \
reported with their line number and make the exit code 1; the rest is still counted.",
    after_help = "Examples:\n  \
chartstress stats out/suite\n  \
chartstress stats out/suite/items.jsonl\n  \
chartstress ask fixtures/cloud_revenue_billions.csv --realizer all --jsonl -o out/items.jsonl\n  \
chartstress stats out/items.jsonl --json"
)]
pub struct Args {
    /// Items file (JSON lines of `ir::Item`) or a suite folder.
    pub items: PathBuf,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

fn stats_json(s: &TextStats) -> serde_json::Value {
    serde_json::json!({
        "count": s.count,
        "unique_tokens": s.unique_tokens,
        "mean_chars": round3(s.mean_chars),
        "mean_tokens": round3(s.mean_tokens),
        "type_token_ratio": round3(s.type_token_ratio),
    })
}

fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

fn composition_json(c: &chartstress::suite::Composition) -> serde_json::Value {
    serde_json::json!({
        "items": c.items,
        "charts": c.charts,
        "paired": c.paired,
        "orphans": c.orphans,
        "counts": c.counts,
        "manifest_agrees": c.manifest_agrees,
        "fingerprint": c.fingerprint,
        "shard": c.shard.map(|(k, n)| format!("{k}/{n}")),
    })
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // A suite folder: its composition, then the diversity of its items.
    let composition = if args.items.is_dir() {
        Some(
            chartstress::suite::composition(&args.items)
                .with_context(|| format!("{}: not a readable suite", args.items.display()))?,
        )
    } else {
        None
    };
    let items_path = if composition.is_some() {
        args.items.join("items.jsonl")
    } else {
        args.items.clone()
    };
    let args = Args {
        items: items_path,
        json: args.json,
    };
    let file = std::fs::File::open(&args.items)
        .with_context(|| format!("cannot open {}", args.items.display()))?;
    let mut items: Vec<Item> = Vec::new();
    let mut bad = 0usize;
    for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line =
            line.with_context(|| format!("{}: line {}: unreadable", args.items.display(), n + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Item>(&line) {
            Ok(item) => items.push(item),
            Err(e) => {
                bad += 1;
                eprintln!(
                    "{}: line {}, column {}: not an item: {e}",
                    args.items.display(),
                    n + 1,
                    e.column()
                );
            }
        }
    }
    let visual = chartstress::suite::visual_stats(&items);
    let has_modified = visual.by_change.values().any(|g| g.items > 0);
    let by_id: BTreeMap<&str, &Item> = items.iter().map(|i| (i.id.as_str(), i)).collect();
    let overall = text_stats(items.iter().map(|i| i.question.as_str()));
    let mut groups: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for i in &items {
        groups
            .entry(format!("set={}", i.set.name()))
            .or_default()
            .push(&i.question);
        groups
            .entry(format!("realizer={}", i.realization.realizer))
            .or_default()
            .push(&i.question);
        groups
            .entry(format!("type={}", i.question_type.name()))
            .or_default()
            .push(&i.question);
        groups
            .entry(format!("family={}", i.family))
            .or_default()
            .push(&i.question);
    }
    // Similarity of each modified question to its original's, per realizer.
    let mut similarity: BTreeMap<String, (f64, usize)> = BTreeMap::new();
    let mut missing_origin = 0usize;
    for i in &items {
        let Some(origin) = &i.origin else { continue };
        match by_id.get(origin.as_str()) {
            Some(o) => {
                let j = trigram_jaccard(&i.question, &o.question);
                for key in ["all".to_string(), i.realization.realizer.clone()] {
                    let e = similarity.entry(key).or_default();
                    e.0 += j;
                    e.1 += 1;
                }
            }
            None => missing_origin += 1,
        }
    }
    let mut out = String::new();
    if args.json {
        let doc = serde_json::json!({
            "file": args.items.display().to_string(),
            "overall": stats_json(&overall),
            "groups": groups.iter().map(|(k, v)| (k.clone(), stats_json(&text_stats(v.iter().copied())))).collect::<serde_json::Map<_, _>>(),
            "trigram_jaccard_to_origin": similarity.iter().map(|(k, (s, n))| (k.clone(), serde_json::json!({"mean": round3(s / *n as f64), "pairs": n}))).collect::<serde_json::Map<_, _>>(),
            "bad_lines": bad,
            "missing_origins": missing_origin,
            "composition": composition.as_ref().map(composition_json),
            "visual": has_modified.then(|| visual.to_json()),
        });
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&doc)?);
    } else {
        if let Some(c) = &composition {
            let _ = writeln!(out, "composition");
            let _ = writeln!(out, "{}", c.to_text());
        }
        if has_modified {
            let _ = writeln!(out, "{}", visual.to_text());
        }
        if composition.is_some() {
            let _ = writeln!(out, "diversity");
        }
        let _ = writeln!(out, "{}", args.items.display());
        let _ = writeln!(
            out,
            "{:<28} {:>7} {:>8} {:>10} {:>11} {:>6}",
            "group", "count", "unique", "mean chars", "mean tokens", "TTR"
        );
        let mut row = |name: &str, s: &TextStats| {
            let _ = writeln!(
                out,
                "{:<28} {:>7} {:>8} {:>10.1} {:>11.1} {:>6.3}",
                name, s.count, s.unique_tokens, s.mean_chars, s.mean_tokens, s.type_token_ratio
            );
        };
        row("all", &overall);
        for (k, v) in &groups {
            row(k, &text_stats(v.iter().copied()));
        }
        if !similarity.is_empty() {
            let _ = writeln!(
                out,
                "\nword-trigram Jaccard to the original question (lower = more different)"
            );
            for (k, (s, n)) in &similarity {
                let _ = writeln!(out, "{:<28} {:>7.3}  ({n} pairs)", k, s / *n as f64);
            }
        }
        if missing_origin > 0 {
            let _ = writeln!(
                out,
                "{missing_origin} items name an origin that is not in the file"
            );
        }
    }
    // A closed pipe (`stats … | head`) is not an error worth a panic.
    let _ = std::io::stdout().write_all(out.as_bytes());
    if bad > 0 {
        eprintln!("{bad} unreadable lines skipped");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
