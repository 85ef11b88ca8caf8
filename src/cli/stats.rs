//! `chartstress stats`: question diversity of an items file; on a suite
//! folder, also its composition (counts per set, axis, severity, question
//! type, family, chart kind, … from `suite::composition`).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::{BufRead, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use chartstress::ir::Item;
use chartstress::questions::diversity::{TextStats, text_stats, tokens, trigram_jaccard};
use chartstress::questions::language::{
    FamilyBalance, LanguageStats, answer_balance, language_stats,
};

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
its measured severity. Per set, the language of its questions: distinct strings, the realizers' \
own vocabulary (word types that are neither numbers nor words of the chart's table, entities or \
options) and token-length percentiles; per family in the original set, the answer balance: true \
and false fact checks, yes and no answers, correct letters, and the correct option's rank among \
numeric options (a family far from even can be answered without the chart). Unreadable lines are \
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

/// Lower-case words of every table a suite holds (headers and cells), by
/// table id; unreadable tables are left out (the language figures then count
/// their words as the realizers' own, never fewer).
fn suite_table_words(items_file: &std::path::Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut out = BTreeMap::new();
    let Some(dir) = items_file.parent().map(|d| d.join("tables")) else {
        return out;
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let id = name
            .strip_suffix(".meta.json")
            .or_else(|| name.strip_suffix(".csv"))
            .or_else(|| name.strip_suffix(".tsv"));
        let (Some(id), Ok(text)) = (id, std::fs::read_to_string(&path)) else {
            continue;
        };
        out.entry(id.to_string())
            .or_insert_with(BTreeSet::new)
            .extend(tokens(&text));
    }
    out
}

fn language_text(language: &BTreeMap<&str, LanguageStats>) -> String {
    let mut out =
        String::from("language per set (own words: neither numbers nor the chart's names)\n");
    let _ = writeln!(
        out,
        "{:<20} {:>9} {:>9} {:>9} {:>11} {:>11} {:>10}  tokens min/p10/median/p90/max",
        "set", "questions", "distinct", "own words", "chart words", "mean tokens", "mean chars"
    );
    for (set, s) in language {
        let [lo, p10, mid, p90, hi] = s.token_percentiles;
        let _ = writeln!(
            out,
            "{:<20} {:>9} {:>9} {:>9} {:>11} {:>11.1} {:>10.1}  {lo}/{p10}/{mid}/{p90}/{hi}",
            set,
            s.questions,
            s.distinct_questions,
            s.own_words,
            s.chart_words,
            s.mean_tokens,
            s.mean_chars
        );
    }
    out
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        "–".into()
    } else {
        format!("{:.0}", 100.0 * part as f64 / whole as f64)
    }
}

fn balance_text(balance: &BTreeMap<String, FamilyBalance>) -> String {
    let mut out =
        String::from("answer balance per family, original set (% of each kind; even is 50 / 25)\n");
    let _ = writeln!(
        out,
        "{:<32} {:>6} {:>7} {:>6} {:>5} {:>15} {:>18}",
        "family", "items", "unans.", "true", "yes", "letters a/b/c/d", "value rank 1/2/3/4"
    );
    for (family, b) in balance {
        let tf = b.true_false.0 + b.true_false.1;
        let yn = b.yes_no.0 + b.yes_no.1;
        let letters: usize = b.letters.iter().sum();
        let ranks: usize = b.value_rank.iter().sum();
        let spread = |counts: &[usize; 4], total: usize| {
            if total == 0 {
                "–".to_string()
            } else {
                counts
                    .iter()
                    .map(|c| percent(*c, total))
                    .collect::<Vec<_>>()
                    .join("/")
            }
        };
        let _ = writeln!(
            out,
            "{:<32} {:>6} {:>7} {:>6} {:>5} {:>15} {:>18}",
            family,
            b.items,
            percent(b.unanswerable, b.items),
            percent(b.true_false.0, tf),
            percent(b.yes_no.0, yn),
            spread(&b.letters, letters),
            spread(&b.value_rank, ranks)
        );
    }
    out
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
    let table_words = match &composition {
        Some(_) => suite_table_words(&args.items),
        None => BTreeMap::new(),
    };
    let lookup = |id: &str| table_words.get(id);
    let mut by_set: BTreeMap<String, Vec<&Item>> = BTreeMap::new();
    for i in &items {
        by_set.entry(i.set.name().to_string()).or_default().push(i);
    }
    let language: BTreeMap<&str, LanguageStats> = by_set
        .iter()
        .map(|(set, v)| (set.as_str(), language_stats(v.iter().copied(), &lookup)))
        .collect();
    let balance = answer_balance(items.iter().filter(|i| i.origin.is_none()));
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
            "language": language,
            "answer_balance_original": balance,
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
        let _ = writeln!(out, "\n{}", language_text(&language));
        let _ = writeln!(out, "{}", balance_text(&balance));
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
