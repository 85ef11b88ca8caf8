//! `chartstress synth`.

use anyhow::Context;
use chartstress::synth::{SynthKind, synth_tables_of};
use chartstress::table::{load_table, write_table};
use clap::builder::PossibleValuesParser;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `chartstress synth`.
#[derive(Debug, clap::Args)]
#[command(
    long_about = "Synthesize realistic data tables: country, company, product, city and people \
names from `fake`; years and months; shares that print to exactly 100; trends with noise, \
seasonality and outliers; negative values; large magnitudes. Each table comes with a title \
(most of the time), axis labels, unit, source and sometimes a paragraph that states a fact \
not in the table. Writes ID.csv and ID.meta.json per table. Output depends only on the seed: \
table i is the same whatever --count is.",
    after_help = "Examples:\n  \
chartstress synth --seed 7 --count 18 -o out/tables\n  \
chartstress synth --seed 1 --count 5 --kind shares -o out/pies\n  \
chartstress synth --seed 3 --count 9 --kind trend -o out/lines\n\n\
Kinds: categories (bar), ranking (horizontal bar, long labels), grouped, stacked, \
trend (years), monthly (dates), shares (pie/donut), scatter, bubble; on request only \
(--kind): waterfall (start value and signed steps), error_bar (means with CI bounds or \
± SE/SD), samples (raw observations: histogram, box, violin), change (diverging bar), \
pair (dumbbell, slope), profile (radar), dual_axis (two measures in different units, \
e.g. revenue and margin). Without --kind the first nine take turns."
)]
pub struct Args {
    /// Base seed; the same seed gives byte-identical files.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Number of tables to write.
    #[arg(long, default_value_t = 9)]
    pub count: usize,
    /// Output folder (created if needed).
    #[arg(short = 'o', long = "out", default_value = "out/tables")]
    pub out: PathBuf,
    /// Only this shape of table (default: all kinds in turn).
    #[arg(long, value_parser = PossibleValuesParser::new(SynthKind::names()))]
    pub kind: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let kind = args
        .kind
        .as_deref()
        .map(|k| SynthKind::from_name(k).with_context(|| format!("unknown kind {k:?}")))
        .transpose()?;
    let tables = synth_tables_of(args.seed, args.count, kind);
    for table in &tables {
        let path = write_table(table, &args.out)?;
        // Reload what was written: a table that does not come back identical
        // would give wrong answers downstream.
        let mut back = load_table(&path)?;
        back.source_path = None;
        anyhow::ensure!(
            &back == table,
            "{}: the written table does not reload identically",
            path.display()
        );
    }
    println!("wrote {} tables to {}", tables.len(), args.out.display());
    Ok(ExitCode::SUCCESS)
}
