//! The ChartQA layout: one split folder holding `png/NAME.png` (the
//! benchmark's pictures), `tables/NAME.csv` (their data), question files
//! `*_human.json` and `*_augmented.json` (arrays of `{imgname, query,
//! label}`), and optionally `annotations/NAME.json`, whose `type`
//! (`v_bar`, `h_bar`, `line`, `pie`) and `general_figure_info.title.text`
//! say what kind of chart it was and its title.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Benchmark, BenchmarkChart, BenchmarkError, BenchmarkQuestion};
use crate::ir::ChartKind;

fn io(path: &Path, e: impl std::fmt::Display) -> BenchmarkError {
    BenchmarkError::Io {
        path: path.to_path_buf(),
        msg: e.to_string(),
    }
}

/// The question files of a split folder, sorted, with their subset names.
fn question_files(dir: &Path) -> Result<Vec<(PathBuf, String)>, BenchmarkError> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| io(dir, e))? {
        let path = entry.map_err(|e| io(dir, e))?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(stem) = name.strip_suffix(".json") else {
            continue;
        };
        for subset in ["human", "augmented"] {
            if stem.ends_with(&format!("_{subset}")) || stem == subset {
                files.push((path.clone(), subset.to_string()));
            }
        }
    }
    files.sort();
    Ok(files)
}

/// A label as ChartQA stores it: mostly strings, sometimes bare numbers.
fn label_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(if *b { "Yes" } else { "No" }.to_string()),
        Value::Array(a) => {
            let parts: Option<Vec<String>> = a.iter().map(label_text).collect();
            Some(format!("[{}]", parts?.join(", ")))
        }
        _ => None,
    }
}

/// Questions grouped by picture file name; bad records are reported in
/// `errors` by file and record number.
fn read_questions(
    files: &[(PathBuf, String)],
    errors: &mut Vec<String>,
) -> BTreeMap<String, Vec<BenchmarkQuestion>> {
    let mut by_image: BTreeMap<String, Vec<BenchmarkQuestion>> = BTreeMap::new();
    for (path, subset) in files {
        let file = path.display();
        let records: Vec<Value> = match std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|t| {
                serde_json::from_str::<Value>(&t)
                    .map_err(|e| format!("line {}, column {}: {e}", e.line(), e.column()))
            }) {
            Ok(Value::Array(a)) => a,
            Ok(_) => {
                errors.push(format!("{file}: expected a JSON array of questions"));
                continue;
            }
            Err(e) => {
                errors.push(format!("{file}: {e}"));
                continue;
            }
        };
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or(subset);
        for (n, record) in records.iter().enumerate() {
            let field = |k: &str| record.get(k);
            let image = field("imgname").and_then(Value::as_str);
            let query = field("query").and_then(Value::as_str);
            let label = field("label").and_then(label_text);
            match (image, query, label) {
                (Some(image), Some(query), Some(label))
                    if !image.trim().is_empty() && !query.trim().is_empty() =>
                {
                    by_image
                        .entry(image.trim().to_string())
                        .or_default()
                        .push(BenchmarkQuestion {
                            key: format!("{stem}#{n}"),
                            subset: subset.clone(),
                            question: query.trim().to_string(),
                            label,
                        })
                }
                _ => errors.push(format!(
                    "{file}: record {n}: needs non-empty `imgname`, `query` and `label`"
                )),
            }
        }
    }
    by_image
}

/// What ChartQA's annotation file says about a chart: kind, title and the
/// value axis's label.
fn annotation(path: &Path, series: usize) -> (Option<ChartKind>, Option<String>, Option<String>) {
    let Some(v) = std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
    else {
        return (None, None, None);
    };
    let kind = match v.get("type").and_then(Value::as_str) {
        Some("v_bar") if series > 1 => Some(ChartKind::GroupedBar),
        Some("v_bar") => Some(ChartKind::Bar),
        Some("h_bar") => Some(ChartKind::HorizontalBar),
        Some("line") => Some(ChartKind::Line),
        Some("pie") => Some(ChartKind::Pie),
        _ => None,
    };
    let text = |pointer: &str| {
        v.pointer(pointer)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_string)
    };
    let value_axis = if kind == Some(ChartKind::HorizontalBar) {
        "/general_figure_info/x_axis/label/text"
    } else {
        "/general_figure_info/y_axis/label/text"
    };
    (
        kind,
        text("/general_figure_info/title/text"),
        text(value_axis),
    )
}

/// Reads one ChartQA split folder.
pub fn read(dir: &Path) -> Result<Benchmark, BenchmarkError> {
    if !dir.is_dir() {
        return Err(io(dir, "not a folder"));
    }
    for sub in ["png", "tables"] {
        if !dir.join(sub).is_dir() {
            return Err(BenchmarkError::Format {
                path: dir.to_path_buf(),
                msg: format!("no `{sub}/` folder: not a ChartQA split folder"),
            });
        }
    }
    let files = question_files(dir)?;
    if files.is_empty() {
        return Err(BenchmarkError::NoQuestions(dir.to_path_buf()));
    }
    let mut errors = Vec::new();
    let by_image = read_questions(&files, &mut errors);
    if by_image.is_empty() {
        return Err(BenchmarkError::NoQuestions(dir.to_path_buf()));
    }
    let mut charts = Vec::new();
    for (image_name, questions) in by_image {
        let image = dir.join("png").join(&image_name);
        let name = Path::new(&image_name)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or(&image_name)
            .to_string();
        if !image.is_file() || name.contains(['/', '\\']) {
            for q in &questions {
                errors.push(format!(
                    "{}: picture `png/{image_name}` not found",
                    q.key.replace('#', ".json: record ")
                ));
            }
            continue;
        }
        let table_path = dir.join("tables").join(format!("{name}.csv"));
        let mut table = if table_path.is_file() {
            crate::table::load_table(&table_path).map_err(|e| e.to_string())
        } else {
            Err(format!("no table `tables/{name}.csv`"))
        };
        let series = table.as_ref().map_or(1, |t| t.series.len());
        let (kind, title, value_label) = annotation(
            &dir.join("annotations").join(format!("{name}.json")),
            series,
        );
        if let Ok(t) = &mut table {
            if t.meta.title.is_none() {
                t.meta.title = title;
            }
            // The benchmark drew every column on one value axis: they measure
            // one quantity, whether or not the headers say which.
            if t.series.len() > 1 && t.meta.measure.is_none() {
                t.meta.measure = Some(value_label.unwrap_or_else(|| "Value".to_string()));
            }
        }
        charts.push(BenchmarkChart {
            name,
            image,
            table,
            kind,
            questions,
        });
    }
    let name = dir
        .file_name()
        .and_then(|n| n.to_str())
        .map_or_else(|| "chartqa".to_string(), |n| format!("chartqa/{n}"));
    Ok(Benchmark {
        name,
        charts,
        errors,
    })
}
