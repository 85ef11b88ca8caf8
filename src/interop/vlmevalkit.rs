//! VLMEvalKit: a suite as custom-benchmark TSVs, and VLMEvalKit's result
//! files (XLSX, its default, or TSV) back as a run.
//!
//! VLMEvalKit reads a custom TSV with `A`, `B`… columns as a multiple-choice
//! benchmark and any other as a VQA benchmark, one kind per file. So the
//! export writes two files:
//!
//! - `NAME.tsv`, every item but the multiple-choice ones, as custom VQA:
//!   `index`, `image` (base64 PNG), `question`, `answer`, `category`,
//!   `l2-category`, `split`, plus chartstress's own `id`. `question` holds
//!   the whole text chartstress's `direct` prompt sends (history, paragraph
//!   and answer format included), so the model sees the same words under
//!   either harness.
//! - `NAME_MCQ.tsv`, the multiple-choice items, as custom MCQ: the same
//!   columns plus `hint` (the paragraph and earlier turns, when any) and
//!   `A`–`D` (the options); `question` is the item's question as worded
//!   (its own inline options included, as chartstress's prompt shows it
//!   before its option list) and `answer` the option letter in VLMEvalKit's
//!   capitals.
//!
//! `index` is the item's position in `items.jsonl` in both files, so results
//! match items by `id`, else by `index`, whichever file they come from.

use std::path::{Path, PathBuf};

use base64::Engine;

use super::{ImportSummary, InteropError, Replies, io_error};
use crate::ir::{Item, QuestionType};
use crate::prompt::{Prompter, Strategy};
use crate::run::suite_files::read_items;

pub const COLUMNS: [&str; 8] = [
    "index",
    "id",
    "image",
    "question",
    "answer",
    "category",
    "l2-category",
    "split",
];

/// The multiple-choice file's columns.
pub const MCQ_COLUMNS: [&str; 13] = [
    "index",
    "id",
    "image",
    "question",
    "hint",
    "A",
    "B",
    "C",
    "D",
    "answer",
    "category",
    "l2-category",
    "split",
];

/// The multiple-choice file written beside `out` (`NAME.tsv` → `NAME_MCQ.tsv`).
pub fn mcq_path(out: &Path) -> PathBuf {
    let stem = out.file_stem().map_or_else(
        || "ChartStress".to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    out.with_file_name(format!("{stem}_MCQ.tsv"))
}

/// The files an export wrote, each with how many items it holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Exported {
    pub files: Vec<(PathBuf, usize)>,
}

fn tsv_writer(path: &Path, header: &[&str]) -> Result<csv::Writer<std::fs::File>, InteropError> {
    let mut w = csv::WriterBuilder::new()
        .delimiter(b'\t')
        .from_path(path)
        .map_err(|e| io_error(path, e))?;
    w.write_record(header).map_err(|e| io_error(path, e))?;
    Ok(w)
}

/// The context VLMEvalKit shows before a multiple-choice question: the
/// accompanying paragraph and the earlier turns of a conversation.
fn hint(item: &Item) -> String {
    let mut parts: Vec<String> = item.paragraph.iter().cloned().collect();
    parts.extend(
        item.history
            .iter()
            .map(|t| format!("Earlier question: {} Answer: {}", t.question, t.answer)),
    );
    parts.join("\n")
}

/// Write the suite's items to `out` (a `.tsv` file) and, when it has
/// multiple-choice items, to [`mcq_path`]`(out)`.
pub fn export(suite: &Path, out: &Path) -> Result<Exported, InteropError> {
    let items = read_items(suite)?;
    let prompter =
        Prompter::new(Strategy::Direct, None).map_err(|e| InteropError::Prompt(e.to_string()))?;
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    }
    // An unanswerable multiple-choice item has no letter to score: its gold
    // is a text, so it goes to the VQA file with its options in the wording.
    let is_mcq = |i: &Item| {
        i.question_type == QuestionType::MultipleChoice && !i.choices.is_empty() && i.answerable
    };
    let mcq_out = mcq_path(out);
    let mut w = tsv_writer(out, &COLUMNS)?;
    let mut mcq = if items.iter().any(is_mcq) {
        Some(tsv_writer(&mcq_out, &MCQ_COLUMNS)?)
    } else {
        None
    };
    let (mut plain_n, mut mcq_n) = (0, 0);
    // A chart carries several questions: read and encode each picture once.
    let mut encoded: std::collections::HashMap<&str, String> = std::collections::HashMap::new();
    for (i, item) in items.iter().enumerate() {
        let image = match encoded.get(item.image.as_str()) {
            Some(b64) => b64.clone(),
            None => {
                let image_path = suite.join(&item.image);
                let png = std::fs::read(&image_path).map_err(|e| io_error(&image_path, e))?;
                let b64 = base64::engine::general_purpose::STANDARD.encode(png);
                encoded.insert(&item.image, b64.clone());
                b64
            }
        };
        let axis = item
            .perturbations
            .first()
            .map_or("none".to_string(), |p| p.axis.clone());
        let (index, id, family, set) = (
            (i + 1).to_string(),
            item.id.clone(),
            item.family.clone(),
            item.set.name().to_string(),
        );
        match mcq.as_mut().filter(|_| is_mcq(item)) {
            Some(m) => {
                let option = |k: usize| item.choices.get(k).cloned().unwrap_or_default();
                let record = [
                    index,
                    id,
                    image,
                    item.question.clone(),
                    hint(item),
                    option(0),
                    option(1),
                    option(2),
                    option(3),
                    item.answer_text.to_uppercase(),
                    family,
                    axis,
                    set,
                ];
                m.write_record(&record).map_err(|e| io_error(&mcq_out, e))?;
                mcq_n += 1;
            }
            None => {
                let question = prompter
                    .render(item)
                    .map_err(|e| InteropError::Prompt(format!("item {}: {e}", item.id)))?;
                let record = [
                    index,
                    id,
                    image,
                    question,
                    item.answer_text.clone(),
                    family,
                    axis,
                    set,
                ];
                w.write_record(&record).map_err(|e| io_error(out, e))?;
                plain_n += 1;
            }
        }
    }
    w.flush().map_err(|e| io_error(out, e))?;
    let mut files = vec![(out.to_path_buf(), plain_n)];
    if let Some(mut m) = mcq {
        m.flush().map_err(|e| io_error(&mcq_out, e))?;
        files.push((mcq_out, mcq_n));
    }
    Ok(Exported { files })
}

/// A result table: its header and rows, every cell as text.
struct Sheet {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

fn read_tsv(path: &Path) -> Result<Sheet, InteropError> {
    let mut r = csv::ReaderBuilder::new()
        .delimiter(b'\t')
        .flexible(true)
        .from_path(path)
        .map_err(|e| io_error(path, e))?;
    let header = r
        .headers()
        .map_err(|e| io_error(path, e))?
        .iter()
        .map(str::to_string)
        .collect();
    let mut rows = Vec::new();
    for rec in r.records() {
        let rec = rec.map_err(|e| InteropError::Format {
            path: path.to_path_buf(),
            msg: e.to_string(),
        })?;
        rows.push(rec.iter().map(str::to_string).collect());
    }
    Ok(Sheet { header, rows })
}

fn read_xlsx(path: &Path) -> Result<Sheet, InteropError> {
    use calamine::{Data, Reader, open_workbook_auto};
    let mut book = open_workbook_auto(path).map_err(|e| io_error(path, e))?;
    let first = book
        .sheet_names()
        .first()
        .cloned()
        .ok_or_else(|| InteropError::Format {
            path: path.to_path_buf(),
            msg: "the workbook has no sheet".into(),
        })?;
    let range = book
        .worksheet_range(&first)
        .map_err(|e| io_error(path, e))?;
    let text = |c: &Data| match c {
        Data::Empty => String::new(),
        // Whole numbers come back as floats: "3", not "3.0", as pandas wrote them.
        Data::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", *f as i64),
        other => other.to_string(),
    };
    let mut rows = range.rows().map(|r| r.iter().map(text).collect::<Vec<_>>());
    let header = rows.next().ok_or_else(|| InteropError::Format {
        path: path.to_path_buf(),
        msg: "the sheet is empty".into(),
    })?;
    Ok(Sheet {
        header,
        rows: rows.collect(),
    })
}

/// The replies of a VLMEvalKit result file, by item id. Rows are matched by
/// the `id` column this export writes, else by `index` (the export's row
/// number, so the suite's item order).
pub fn read_replies(file: &Path, items: &[Item]) -> Result<Replies, InteropError> {
    let is_xlsx = file
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("xlsx"));
    let sheet = if is_xlsx {
        read_xlsx(file)?
    } else {
        read_tsv(file)?
    };
    let col = |name: &str| sheet.header.iter().position(|h| h.trim() == name);
    let format = |msg: String| InteropError::Format {
        path: file.to_path_buf(),
        msg,
    };
    let prediction = col("prediction").ok_or_else(|| {
        format("no `prediction` column (is this VLMEvalKit's result file?)".into())
    })?;
    let (id_col, index_col) = (col("id"), col("index"));
    if id_col.is_none() && index_col.is_none() {
        return Err(format("neither an `id` nor an `index` column".into()));
    }
    let mut replies = Vec::new();
    let mut unmatched = Vec::new();
    for (n, row) in sheet.rows.iter().enumerate() {
        let cell = |c: usize| row.get(c).map(String::as_str).unwrap_or("");
        let id = match (id_col, index_col) {
            (Some(c), _) if !cell(c).is_empty() => Some(cell(c).to_string()),
            (_, Some(c)) => cell(c)
                .parse::<usize>()
                .ok()
                .and_then(|i| i.checked_sub(1))
                .and_then(|i| items.get(i))
                .map(|it| it.id.clone()),
            _ => None,
        };
        match id {
            Some(id) => replies.push((id, cell(prediction).to_string())),
            // Line numbers as a spreadsheet shows them: the header is line 1.
            None => unmatched.push(format!("row {}", n + 2)),
        }
    }
    Ok((replies, unmatched))
}

/// Import VLMEvalKit result files (the VQA one, the multiple-choice one,
/// or both) as `SUITE/runs/NAME/`.
pub fn import(
    suite: &Path,
    files: &[PathBuf],
    name: &str,
) -> Result<(PathBuf, ImportSummary), InteropError> {
    let items = read_items(suite)?;
    let mut replies = Vec::new();
    let mut unmatched = Vec::new();
    for file in files {
        let (r, u) = read_replies(file, &items)?;
        replies.extend(r);
        unmatched.extend(
            u.into_iter()
                .map(|row| format!("{}: {row}", file.display())),
        );
    }
    super::finish_import(
        suite,
        name,
        "vlmevalkit",
        files,
        &items,
        (replies, unmatched),
    )
}
