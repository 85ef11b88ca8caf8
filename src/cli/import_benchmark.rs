//! `chartstress import-benchmark`: another benchmark's charts and questions
//! as a suite with `original`, `control` and `modified_chart` sets.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

#[derive(Debug, clap::Args)]
#[command(
    long_about = "Build a suite from an existing benchmark. `chartqa` reads one ChartQA split \
folder (png/NAME.png, tables/NAME.csv, *_human.json and *_augmented.json with imgname, query \
and label; annotations/NAME.json when present, for the chart kind and title). `original` holds \
the benchmark's own picture and question; `control` the same table drawn again in the original \
theme with value labels (what re-drawing alone does); `modified_chart` that control under one \
style, layout or image change. Golds are the benchmark's. Questions that refer to a colour, a \
position or chart furniture, or cite a name or year the table lacks, stay in `original` only \
and are counted. Exit code 1 when a record, picture or table could not be used (each is named).",
    after_help = "Examples:\n  \
chartstress import-benchmark chartqa 'ChartQA Dataset/test' --out out/chartqa\n  \
chartstress run out/chartqa --adapter openai --model my-vlm --name my-vlm\n  \
chartstress report out/chartqa"
)]
pub struct Args {
    /// Benchmark layout: chartqa.
    pub format: String,
    /// The benchmark's folder (for ChartQA, one split folder such as `test/`).
    pub dir: PathBuf,
    /// Suite folder to write (an earlier suite there is replaced).
    #[arg(long)]
    pub out: PathBuf,
    /// Seed of the modified charts' perturbations.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Modified charts per benchmark chart.
    #[arg(long, default_value_t = 1)]
    pub variants: usize,
    /// Theme the control charts are drawn in.
    #[arg(long, default_value = "classic")]
    pub theme: String,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let bench = match args.format.as_str() {
        "chartqa" => chartstress::benchmark::chartqa::read(&args.dir)?,
        other => bail!("unknown benchmark layout {other:?} (known: chartqa)"),
    };
    let opts = chartstress::suite::ImportOptions {
        seed: args.seed,
        variants: args.variants,
        theme: args.theme,
    };
    let summary = chartstress::suite::import_benchmark(&bench, &opts, &args.out)?;
    let sets: Vec<String> = summary
        .sets
        .iter()
        .map(|(set, n)| format!("{set} {n}"))
        .collect();
    println!(
        "wrote {} items on {} charts to {} ({})",
        summary.items,
        summary.charts,
        summary.out.display(),
        sets.join(", ")
    );
    let excluded: usize = summary.excluded.values().sum();
    if excluded > 0 {
        let reasons: Vec<String> = summary
            .excluded
            .iter()
            .map(|(reason, n)| format!("{reason} {n}"))
            .collect();
        println!(
            "kept in original only: {excluded} questions ({})",
            reasons.join(", ")
        );
    }
    for e in &summary.errors {
        eprintln!("error: {e}");
    }
    Ok(if summary.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
