//! `chartstress score`: score arbitrary target/prediction records.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use chartstress::score::{Metric, score_record};

/// Arguments of `chartstress score`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Metric: relaxed, chartqapro-reference, chartqa, exact, anls.
    #[arg(long, short, default_value = "relaxed")]
    pub metric: Metric,
    /// JSON lines with `target` and `prediction` (and optional `question_type`,
    /// `year_flags`, `answer_history`, `choices`).
    pub input: PathBuf,
    /// Where to write the records with `score` added (default: standard output).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let file =
        File::open(&args.input).with_context(|| format!("cannot open {}", args.input.display()))?;
    let mut out: Box<dyn Write> = match &args.output {
        Some(path) => Box::new(BufWriter::new(
            File::create(path).with_context(|| format!("cannot create {}", path.display()))?,
        )),
        None => Box::new(BufWriter::new(std::io::stdout().lock())),
    };
    let (mut total, mut scored, mut failed) = (0.0, 0usize, 0usize);
    // Lines as bytes: one line of invalid UTF-8 is that record's error, not
    // the end of the file.
    for (idx, line) in BufReader::new(file).split(b'\n').enumerate() {
        let line_no = idx + 1;
        let bytes =
            line.with_context(|| format!("{}:{line_no}: cannot read", args.input.display()))?;
        let Ok(text) = String::from_utf8(bytes) else {
            eprintln!(
                "error: {}: line {line_no}: invalid UTF-8",
                args.input.display()
            );
            failed += 1;
            continue;
        };
        if text.trim().is_empty() {
            continue;
        }
        match score_record(args.metric, &text, line_no) {
            Ok((record, s)) => {
                serde_json::to_writer(&mut out, &record)?;
                out.write_all(b"\n")?;
                total += s;
                scored += 1;
            }
            Err(err) => {
                eprintln!("error: {}: {err}", args.input.display());
                failed += 1;
            }
        }
    }
    out.flush()?;
    let mean = if scored == 0 {
        0.0
    } else {
        total / scored as f64
    };
    eprintln!(
        "{}: {scored} records scored, mean {} = {:.4}{}",
        args.input.display(),
        args.metric,
        mean,
        if failed > 0 {
            format!(", {failed} malformed (skipped)")
        } else {
            String::new()
        }
    );
    if args.output.is_some() {
        let _ = writeln!(std::io::stdout(), "{mean:.4}");
    }
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
