//! `chartstress generate`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use chartstress::ir::{ChartKind, QuestionType, SetName};
use chartstress::suite::{Shard, SuiteConfig};

/// Arguments of `chartstress generate`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  chartstress generate --out out/suite
  chartstress generate fixtures/ --out out/suite --seed 7 --config examples/suite.toml
  chartstress generate data/sales.csv data/shares/ -o out/s --charts-per-table 3 --sets original,modified_chart
  chartstress generate --out out/part2 --shard 2/4 --threads 2   # then: chartstress merge out/part* -o out/suite

TABLES default to the config's `tables`, else `fixtures/` in the current directory, else the
fixtures built into the binary. Flags override the config file.")]
pub struct Args {
    /// Table files (CSV/TSV/JSON) or folders of tables.
    pub tables: Vec<PathBuf>,
    /// Output folder (created; an earlier suite in it is replaced).
    #[arg(short, long)]
    pub out: PathBuf,
    /// Suite config (TOML, see examples/suite.toml).
    #[arg(long)]
    pub config: Option<PathBuf>,
    #[arg(long)]
    pub seed: Option<u64>,
    /// Generate only part K of N (1-based); merge the parts with `chartstress merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Worker threads (default: all cores). The output does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub set: Box<Overrides>,
    /// Fail on the first table that cannot be loaded.
    #[arg(long)]
    pub strict: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Config fields settable by flag (boxed: clap's parsed args stay small).
#[derive(Debug, clap::Args)]
pub struct Overrides {
    #[arg(long)]
    pub charts_per_table: Option<usize>,
    #[arg(long)]
    pub questions_per_chart: Option<usize>,
    /// Modified items per original item, in each modified set.
    #[arg(long)]
    pub variants_per_original: Option<usize>,
    /// Chart kinds of the original charts (comma-separated, e.g. bar,line, or
    /// `all`);
    /// the kinds added after heatmap (percent_stacked_bar, lollipop, waterfall,
    /// error_bar, histogram, box, violin, diverging_bar, dumbbell, slope,
    /// radar, dual_axis) are drawn only when named.
    #[arg(long, value_delimiter = ',')]
    pub kinds: Option<Vec<String>>,
    /// Theme of the original set.
    #[arg(long)]
    pub original_theme: Option<String>,
    /// Themes the theme perturbation may use (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub themes: Option<Vec<String>>,
    /// Perturbation axes to use (comma-separated; default all).
    #[arg(long, value_delimiter = ',')]
    pub axes: Option<Vec<String>>,
    /// Perturbations to leave out (comma-separated names).
    #[arg(long, value_delimiter = ',')]
    pub exclude_perturbations: Option<Vec<String>>,
    /// Opt-in perturbations to use (comma-separated: small_multiples,
    /// furniture_removed, furniture_moved, subtitle_added).
    #[arg(long, value_delimiter = ',')]
    pub opt_in_perturbations: Option<Vec<String>>,
    /// Severities to use (comma-separated, 1..5).
    #[arg(long, value_delimiter = ',')]
    pub severities: Option<Vec<u8>>,
    /// Question types (comma-separated, e.g. factoid,fact_check).
    #[arg(long, value_delimiter = ',')]
    pub question_types: Option<Vec<String>>,
    /// Query families (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub families: Option<Vec<String>>,
    #[arg(long)]
    pub unanswerable_share: Option<f64>,
    /// Share of original charts of several like series drawn as a lettered
    /// figure of small multiples (0..1; default 0).
    #[arg(long)]
    pub figures: Option<f64>,
    /// Also draw each group of related tables (same index column and
    /// categories) as one lettered figure, a panel per table.
    #[arg(long)]
    pub related_figures: bool,
    /// Sets to build (comma-separated: original,modified_chart,modified_question,modified_both).
    #[arg(long, value_delimiter = ',')]
    pub sets: Option<Vec<String>>,
    /// A quota weight DIM.VALUE=W with DIM one of question_type, family, kind, axis (repeatable).
    #[arg(long, value_name = "DIM.VALUE=W")]
    pub quota: Vec<String>,
    /// Candidate questions drawn per kept question, for balancing.
    #[arg(long)]
    pub oversample: Option<usize>,
    /// Keep items the reader cannot answer from the image (to measure what
    /// the readability gate drops; such a suite is not a valid stress test).
    #[arg(long)]
    pub no_readability_gate: bool,
    /// Also keep modified charts that print values the original made the
    /// reader estimate, tagged `easing` and reported apart from stress changes.
    #[arg(long)]
    pub easing: bool,
}

fn parse_list<T>(
    values: &[String],
    what: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> anyhow::Result<Vec<T>> {
    values
        .iter()
        .map(|v| parse(v).with_context(|| format!("unknown {what} `{v}`")))
        .collect()
}

/// The config file (if any) with every flag applied on top.
pub fn resolve_config(args: &Args) -> anyhow::Result<SuiteConfig> {
    let mut c = match &args.config {
        Some(path) => SuiteConfig::from_toml_file(path)?,
        None => SuiteConfig::default(),
    };
    if !args.tables.is_empty() {
        c.tables = args.tables.clone();
    }
    if let Some(v) = args.seed {
        c.seed = v;
    }
    if let Some(v) = args.set.charts_per_table {
        c.charts_per_table = v;
    }
    if let Some(v) = args.set.questions_per_chart {
        c.questions_per_chart = v;
    }
    if let Some(v) = args.set.variants_per_original {
        c.variants_per_original = v;
    }
    if let Some(v) = &args.set.kinds {
        c.kinds = if v.len() == 1 && v[0].trim().eq_ignore_ascii_case("all") {
            ChartKind::ALL.to_vec()
        } else {
            parse_list(v, "chart kind", ChartKind::from_name)?
        };
    }
    if let Some(v) = &args.set.original_theme {
        c.original_theme = v.clone();
    }
    if let Some(v) = &args.set.themes {
        c.themes = v.clone();
    }
    if let Some(v) = &args.set.axes {
        c.axes = v.clone();
    }
    if let Some(v) = &args.set.exclude_perturbations {
        c.exclude_perturbations = v.clone();
    }
    if let Some(v) = &args.set.opt_in_perturbations {
        c.opt_in_perturbations = v.clone();
    }
    if let Some(v) = &args.set.severities {
        c.severities = v.clone();
    }
    if let Some(v) = &args.set.question_types {
        c.question_types = parse_list(v, "question type", QuestionType::from_name)?;
    }
    if let Some(v) = &args.set.families {
        c.families = v.clone();
    }
    if let Some(v) = args.set.figures {
        c.figures = v;
    }
    if args.set.related_figures {
        c.related_figures = true;
    }
    if let Some(v) = args.set.unanswerable_share {
        c.unanswerable_share = v;
    }
    if let Some(v) = &args.set.sets {
        c.sets = parse_list(v, "set", SetName::from_name)?;
    }
    if let Some(v) = args.set.oversample {
        c.oversample = v;
    }
    if args.set.no_readability_gate {
        c.readability_gate = false;
    }
    if args.set.easing {
        c.easing = true;
    }
    for q in &args.set.quota {
        let (key, w) = q
            .split_once('=')
            .with_context(|| format!("--quota `{q}`: expected DIM.VALUE=W"))?;
        let (dim, value) = key
            .split_once('.')
            .with_context(|| format!("--quota `{q}`: expected DIM.VALUE=W"))?;
        let w: f64 = w
            .trim()
            .parse()
            .with_context(|| format!("--quota `{q}`: W is not a number"))?;
        let map = match dim {
            "question_type" => &mut c.quotas.question_type,
            "family" => &mut c.quotas.family,
            "kind" => &mut c.quotas.kind,
            "axis" => &mut c.quotas.axis,
            other => anyhow::bail!("--quota `{q}`: unknown dimension `{other}`"),
        };
        map.insert(value.to_string(), w);
    }
    c.shard = args.shard;
    c.validate()
        .map_err(|e| anyhow::anyhow!("invalid suite config: {e}"))?;
    Ok(c)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let config = resolve_config(&args)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .context("starting worker threads")?;
    generate(&config, &args.out, !args.quiet, args.strict, &pool)
}

fn generate(
    config: &SuiteConfig,
    out: &Path,
    progress: bool,
    strict: bool,
    pool: &rayon::ThreadPool,
) -> anyhow::Result<ExitCode> {
    let (tables, load_errors) = super::load_inputs(&config.tables, strict)?;
    super::print_table_notes(&tables);
    for e in &load_errors {
        eprintln!("error: {e}");
    }
    if strict && !load_errors.is_empty() {
        return Ok(ExitCode::from(2));
    }
    let summary =
        pool.install(|| chartstress::suite::generate_suite(&tables, config, out, progress))?;
    for e in &summary.errors {
        eprintln!("error: {e}");
    }
    let dropped: Vec<String> = summary
        .dropped
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    println!(
        "wrote {} items on {} charts from {} tables to {}{}",
        summary.items,
        summary.charts,
        summary.tables,
        out.display(),
        if dropped.is_empty() {
            String::new()
        } else {
            format!(" (dropped: {})", dropped.join(", "))
        }
    );
    Ok(if load_errors.is_empty() && summary.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
