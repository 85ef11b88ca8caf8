//! VLMEvalKit: a suite as a custom-benchmark TSV, and VLMEvalKit's result
//! file (XLSX, its default, or TSV) back as a run.
//!
//! The TSV is a custom VQA benchmark: `index`, `image` (base64 PNG),
//! `question`, `answer`, `category`, `l2-category`, `split`, plus chartstress's
//! own `id`. `question` holds the whole text chartstress's `direct` prompt
//! sends (history, paragraph, options and answer format included), so the
//! model sees the same words under either harness. Multiple-choice items keep
//! their options inside that text rather than in `A`–`D` columns: with those
//! columns VLMEvalKit would treat the file as a multiple-choice benchmark and
//! print a second option list of its own.

use std::path::{Path, PathBuf};

use base64::Engine;

use super::{ImportSummary, InteropError, io_error};
use crate::ir::Item;
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

/// Write the suite's items to `out` (a `.tsv` file); returns how many.
pub fn export(suite: &Path, out: &Path) -> Result<usize, InteropError> {
    let items = read_items(suite)?;
    let prompter =
        Prompter::new(Strategy::Direct, None).map_err(|e| InteropError::Prompt(e.to_string()))?;
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    }
    let mut w = csv::WriterBuilder::new()
        .delimiter(b'\t')
        .from_path(out)
        .map_err(|e| io_error(out, e))?;
    w.write_record(COLUMNS).map_err(|e| io_error(out, e))?;
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
        let question = prompter
            .render(item)
            .map_err(|e| InteropError::Prompt(format!("item {}: {e}", item.id)))?;
        let axis = item
            .perturbations
            .first()
            .map_or("none".to_string(), |p| p.axis.clone());
        let record = [
            (i + 1).to_string(),
            item.id.clone(),
            image,
            question,
            item.answer_text.clone(),
            item.family.clone(),
            axis,
            item.set.name().to_string(),
        ];
        w.write_record(&record).map_err(|e| io_error(out, e))?;
    }
    w.flush().map_err(|e| io_error(out, e))?;
    Ok(items.len())
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

/// Replies by item id, and the rows that matched no item (as "row N").
pub type Replies = (Vec<(String, String)>, Vec<String>);

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

/// Import a VLMEvalKit result file as `SUITE/runs/NAME/`.
pub fn import(
    suite: &Path,
    file: &Path,
    name: &str,
) -> Result<(PathBuf, ImportSummary), InteropError> {
    let items = read_items(suite)?;
    let (replies, unmatched) = read_replies(file, &items)?;
    let (predictions, mut summary) = super::predictions_from_replies(&items, replies);
    summary.unknown.extend(unmatched);
    let dir = super::write_run(
        suite,
        name,
        "vlmevalkit",
        &[file.to_path_buf()],
        &items,
        predictions,
    )?;
    Ok((dir, summary))
}
