//! `chartstress export`: a suite in another harness's dataset format.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

#[derive(Debug, clap::Args)]
#[command(
    long_about = "Write a suite in an evaluation harness's dataset format. `vlmevalkit` writes \
custom-benchmark TSVs (index, id, base64 PNG image, question, answer, category, \
l2-category, split): NAME.tsv (custom VQA: every item but the multiple-choice ones) and, when \
there are any, NAME_MCQ.tsv (custom MCQ: plus hint and A-D option columns); put them in \
$LMUData and run VLMEvalKit with --data NAME NAME_MCQ; bring its result \
file back with `chartstress import-run`. `hf` writes a Hugging Face dataset folder that \
`datasets.load_dataset(DIR)` reads: data/<set>-00000-of-00001.parquet, one split per item set \
(columns id, image, question, prompt, answer, set, origin, chart_id, family, question_type, \
chart_kind, answer_kind, answerable, axis, perturbation, severity, choices) and a README.md \
dataset card. `lmms-eval` writes the same dataset plus a task folder for lmms-eval's \
--include_path: chartstress.yaml (every set), chartstress_<set>.yaml (one set each) and \
utils.py; run lmms-eval with --log_samples and bring the samples back with \
`chartstress import-run --from lmms-eval`. `inspect` writes an inspect_ai task folder: \
dataset.jsonl (id, input = the `direct` prompt text, target, metadata), the charts under \
images/, and chartstress_task.py (one task, `-T set=NAME` keeps one set; its scorer \
approximates the relaxed metric); run `inspect eval DIR/chartstress_task.py@chartstress --model \
...` and bring the log back with `chartstress import-run --from inspect`. `report` on an \
imported run is the authoritative score. Same suite and output folder, same bytes.",
    after_help = "Examples:\n  \
chartstress export out/suite --format vlmevalkit -o ~/LMUData/ChartStress.tsv\n  \
chartstress export out/suite --format hf -o chartstress-hf\n  \
chartstress export out/suite --format lmms-eval -o tasks/chartstress\n  \
chartstress export out/suite --format inspect -o chartstress-inspect"
)]
pub struct Args {
    /// Suite folder (written by `generate`).
    pub suite: PathBuf,
    /// Target format: vlmevalkit, hf, lmms-eval, inspect.
    #[arg(long)]
    pub format: String,
    /// Output file for vlmevalkit (default: SUITE/export/ChartStress.tsv); output folder for
    /// hf, lmms-eval and inspect (default: SUITE/export/FORMAT).
    #[arg(short, long)]
    pub out: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.format.as_str() {
        "vlmevalkit" => {
            let out = args
                .out
                .unwrap_or_else(|| args.suite.join("export").join("ChartStress.tsv"));
            let done = chartstress::interop::vlmevalkit::export(&args.suite, &out)?;
            for (file, n) in &done.files {
                println!("wrote {n} items to {}", file.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        "hf" => {
            let out = args
                .out
                .unwrap_or_else(|| args.suite.join("export").join("hf"));
            let done = chartstress::interop::hf::export(&args.suite, &out)?;
            println!(
                "wrote {} items in {} splits to {}",
                done.items,
                done.splits.len(),
                out.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        "lmms-eval" => {
            let out = args
                .out
                .unwrap_or_else(|| args.suite.join("export").join("lmms-eval"));
            let done = chartstress::interop::lmms_eval::export(&args.suite, &out)?;
            println!(
                "wrote {} items and tasks {} to {}",
                done.data.items,
                done.tasks.join(", "),
                out.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        "inspect" => {
            let out = args
                .out
                .unwrap_or_else(|| args.suite.join("export").join("inspect"));
            let n = chartstress::interop::inspect::export(&args.suite, &out)?;
            println!("wrote {n} items to {}", out.display());
            println!(
                "run: inspect eval {}@chartstress --model PROVIDER/MODEL",
                out.join(chartstress::interop::inspect::TASK_FILE).display()
            );
            Ok(ExitCode::SUCCESS)
        }
        other => {
            bail!("unknown export format {other:?} (known: vlmevalkit, hf, lmms-eval, inspect)")
        }
    }
}
