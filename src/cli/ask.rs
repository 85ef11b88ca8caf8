//! `chartstress ask`: render one table and print generated questions about it.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use chartstress::ir::{ChartKind, Item, Perturbation, QuestionType, SetName};
use chartstress::questions::{Question, QuestionOptions, generate};
use chartstress::realize::{realize, realizers};

/// Arguments of `chartstress ask`.
#[derive(Debug, clap::Args)]
#[command(
    long_about = "Render a table as a chart (in memory) and print questions generated about it, \
with answers computed by the executor: data questions from the table, descriptive questions \
from what the renderer drew. Every question is printed in canonical wording, and again in each \
--realizer given.",
    after_help = "Examples:\n  \
chartstress ask fixtures/cloud_revenue_billions.csv\n  \
chartstress ask fixtures/browser_share_pie.csv --kind donut -n 8 --types multiple_choice,fact_check\n  \
chartstress ask TABLE.csv --realizer lexical --realizer noisy --seed 3\n  \
chartstress ask TABLE.csv --jsonl -o out/items.jsonl && chartstress stats out/items.jsonl\n\n\
Types: factoid, multiple_choice, fact_check, hypothetical, conversational, descriptive.\n\
Realizers: canonical, lexical, syntactic, register, visual, distractor, noisy."
)]
pub struct Args {
    /// Table file (CSV, TSV or JSON, with an optional NAME.meta.json sidecar).
    pub table: PathBuf,
    /// Chart kind (default: the most suitable for the table).
    #[arg(long)]
    pub kind: Option<String>,
    /// Theme name (default: the first built-in theme).
    #[arg(long)]
    pub theme: Option<String>,
    /// Number of questions.
    #[arg(short = 'n', long = "count", default_value_t = 20)]
    pub count: usize,
    /// Question types, comma separated (default: all).
    #[arg(long, value_delimiter = ',')]
    pub types: Vec<String>,
    /// Query families, comma separated (default: all).
    #[arg(long, value_delimiter = ',')]
    pub families: Vec<String>,
    /// Paraphrase realizers to apply besides canonical (repeatable, or `all`).
    #[arg(long = "realizer")]
    pub realizers: Vec<String>,
    /// Share of factoid questions made unanswerable.
    #[arg(long, default_value_t = 0.1)]
    pub unanswerable: f64,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Print `ir::Item` JSON lines instead of text.
    #[arg(long)]
    pub jsonl: bool,
    /// Write to this file instead of standard output.
    #[arg(short = 'o', long = "out")]
    pub out: Option<PathBuf>,
}

fn item(
    q: &Question,
    id: String,
    chart_id: &str,
    table_id: &str,
    kind: ChartKind,
    origin: Option<String>,
) -> Item {
    let modified = origin.is_some();
    Item {
        id,
        set: if modified {
            SetName::ModifiedQuestion
        } else {
            SetName::Original
        },
        origin,
        chart_id: chart_id.to_string(),
        image: String::new(),
        table_id: table_id.to_string(),
        chart_kind: kind,
        question: q.text.clone(),
        question_type: q.question_type,
        family: q.family.clone(),
        query: q.query.clone(),
        answer: q.answer.clone(),
        answer_text: q.answer.to_text(),
        answer_kind: q.answer_kind,
        answerable: q.answerable,
        choices: q.choices.clone(),
        history: q.history.clone(),
        paragraph: q.paragraph.clone(),
        realization: q.realization.clone(),
        perturbations: if modified {
            vec![Perturbation {
                axis: "question".into(),
                name: q.realization.realizer.clone(),
                severity: 2,
                change: Default::default(),
                params: BTreeMap::new(),
            }]
        } else {
            Vec::new()
        },
        visual_distance: None,
        reading_change: None,
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let table = chartstress::table::load_table(&args.table)?;
    let kind = match &args.kind {
        Some(k) => ChartKind::from_name(k).with_context(|| {
            format!(
                "unknown chart kind {k:?} (known: {})",
                ChartKind::ALL.map(|k| k.name()).join(", ")
            )
        })?,
        None => *chartstress::spec::suitable_kinds(&table)
            .first()
            .with_context(|| format!("{}: no chart kind fits this table", args.table.display()))?,
    };
    let style = match &args.theme {
        Some(t) => chartstress::spec::theme(t)?,
        None => chartstress::spec::builtin_themes()
            .into_iter()
            .next()
            .context("no built-in theme")?,
    };
    let types = args
        .types
        .iter()
        .map(|t| QuestionType::from_name(t).with_context(|| format!("unknown question type {t:?}")))
        .collect::<anyhow::Result<Vec<_>>>()?;
    if let Some(f) = args
        .families
        .iter()
        .find(|f| !chartstress::query::FAMILIES.contains(&f.as_str()))
    {
        anyhow::bail!(
            "unknown family {f:?} (known: {})",
            chartstress::query::FAMILIES.join(", ")
        );
    }
    let mut chosen: Vec<String> = Vec::new();
    for r in &args.realizers {
        if r == "all" {
            chosen.extend(realizers().into_iter().skip(1).map(String::from));
        } else if realizers().contains(&r.as_str()) {
            if r != "canonical" {
                chosen.push(r.clone());
            }
        } else {
            anyhow::bail!("unknown realizer {r:?} (known: {})", realizers().join(", "));
        }
    }
    let spec = chartstress::spec::single(&table, kind, &style)
        .with_context(|| format!("{}: cannot draw as {}", args.table.display(), kind.name()))?;
    let (_, scene) = chartstress::render::render_svg(&spec)
        .with_context(|| format!("{}: rendering failed", args.table.display()))?;
    let chart_id = spec.fingerprint();
    let opts = QuestionOptions {
        seed: args.seed,
        count: args.count,
        types,
        families: args.families.clone(),
        unanswerable_share: args.unanswerable,
    };
    let questions = generate(&chart_id, &spec, &scene, &opts);
    let mut out: Box<dyn Write> = match &args.out {
        Some(p) => {
            if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create {}", dir.display()))?;
            }
            Box::new(std::io::BufWriter::new(
                std::fs::File::create(p)
                    .with_context(|| format!("cannot write {}", p.display()))?,
            ))
        }
        None => Box::new(std::io::stdout().lock()),
    };
    for (k, q) in questions.iter().enumerate() {
        let id = format!("{}-{k:03}", &chart_id);
        let variants: Vec<(String, Question)> = chosen
            .iter()
            .filter_map(|r| {
                let item_seed = chartstress::seed::derive(args.seed, &[&id, r]);
                realize(q, r, &spec, &scene, item_seed).map(|p| (r.clone(), p))
            })
            .collect();
        if args.jsonl {
            let original = item(q, id.clone(), &chart_id, &table.id, kind, None);
            writeln!(out, "{}", serde_json::to_string(&original)?)?;
            for (r, p) in &variants {
                let it = item(
                    p,
                    format!("{id}-{r}"),
                    &chart_id,
                    &table.id,
                    kind,
                    Some(id.clone()),
                );
                writeln!(out, "{}", serde_json::to_string(&it)?)?;
            }
        } else {
            writeln!(out, "[{}/{}] {}", q.question_type.name(), q.family, q.text)?;
            for turn in &q.history {
                writeln!(out, "    (earlier: {} -> {})", turn.question, turn.answer)?;
            }
            writeln!(out, "    answer: {}", q.answer.to_text())?;
            for (r, p) in &variants {
                writeln!(out, "    {r}: {}", p.text)?;
            }
        }
    }
    out.flush()?;
    if questions.is_empty() {
        eprintln!(
            "{}: no question could be generated for this chart",
            args.table.display()
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
