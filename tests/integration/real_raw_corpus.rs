//! Real tables exactly as published (tests/data/real/raw, copied byte for byte
//! by scripts/real_raw_corpus.py): the real binary must chart at least 95% of
//! them, say why it refuses any other, and every value of every table it
//! shaped must be recomputable from the raw file by the independent code here
//! (its own CSV/JSON reading, number parsing, grouping and pivoting).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use crate::support::bin;
use serde_json::Value;

const RAW: &str = "tests/data/real/raw";

type Records = Vec<HashMap<String, String>>;

fn read_raw(path: &Path) -> Records {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if ext == "json" {
        let v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let cell = |x: &Value| match x {
            Value::String(s) => s.trim().to_string(),
            Value::Null => String::new(),
            other => other.to_string(),
        };
        return match v {
            Value::Array(rows) => rows
                .iter()
                .map(|r| {
                    r.as_object()
                        .unwrap()
                        .iter()
                        .map(|(k, x)| (k.trim().to_string(), cell(x)))
                        .collect()
                })
                .collect(),
            Value::Object(o) => {
                let cols: Vec<String> = o["columns"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_str().unwrap().trim().to_string())
                    .collect();
                o["rows"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| {
                        cols.iter()
                            .cloned()
                            .zip(r.as_array().unwrap().iter().map(cell))
                            .collect()
                    })
                    .collect()
            }
            _ => panic!("{}: unexpected JSON", path.display()),
        };
    }
    let text = String::from_utf8(std::fs::read(path).unwrap()).unwrap();
    let text = text.trim_start_matches('\u{feff}');
    let delimiter = if ext == "tsv" { b'\t' } else { b',' };
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .from_reader(text.as_bytes());
    let headers: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(|h| h.trim().to_string())
        .collect();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            headers
                .iter()
                .cloned()
                .zip(r.iter().map(|c| c.trim().to_string()))
                .collect()
        })
        .collect()
}

/// A number as a person reads it: thousands commas, `$` and `%` ignored.
fn number(s: &str) -> Option<f64> {
    let t: String = s
        .trim()
        .chars()
        .filter(|c| !matches!(c, ',' | '$' | '%'))
        .collect();
    t.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Labels compared as the chart prints them: dates in ISO form, whole-number
/// years without decimals.
fn label(s: &str) -> String {
    let t = s.trim();
    for fmt in ["%Y-%m-%d", "%Y/%m/%d", "%b %d %Y", "%Y-%m-%dT%H:%M:%S%.fZ"] {
        if let Ok(d) = chrono::NaiveDate::parse_from_str(t, fmt) {
            return d.format("%Y-%m-%d").to_string();
        }
        if let Ok(d) = chrono::NaiveDateTime::parse_from_str(t, fmt) {
            return d.date().format("%Y-%m-%d").to_string();
        }
    }
    if let Some(v) = number(t) {
        return format!("{v}");
    }
    // Quarters (`1974Q1`, `Q1 1974`) are labelled `1974 Q1`.
    let compact: String = t
        .to_ascii_uppercase()
        .chars()
        .filter(|c| !matches!(c, ' ' | '-'))
        .collect();
    let year_first = compact.len() == 6 && compact.as_bytes()[4] == b'Q';
    let quarter_first = compact.len() == 6 && compact.as_bytes()[0] == b'Q';
    let (y, q) = if year_first {
        (&compact[..4], &compact[5..])
    } else if quarter_first {
        (&compact[2..], &compact[1..2])
    } else {
        ("", "")
    };
    if y.parse::<u16>().is_ok() && matches!(q, "1" | "2" | "3" | "4") {
        return format!("{y} Q{q}");
    }
    t.to_string()
}

fn decimals(printed: &str) -> i32 {
    printed.split_once('.').map_or(0, |(_, f)| {
        f.chars().filter(char::is_ascii_digit).count() as i32
    })
}

/// A value recomputed here agrees with the printed one at its precision.
fn agrees(printed: &str, recomputed: f64) -> bool {
    let Some(v) = number(printed) else {
        return false;
    };
    let half = 0.5 * 10f64.powi(-decimals(printed));
    (v - recomputed).abs() <= half + 1e-9 * recomputed.abs().max(1.0)
}

fn quoted_after<'a>(note: &'a str, marker: &str) -> Option<&'a str> {
    let rest = &note[note.find(marker)? + marker.len()..];
    let start = rest.find("(\"")? + 2;
    let end = rest[start..].find("\")")? + start;
    Some(&rest[start..end])
}

struct Shaped {
    index: String,
    labels: Vec<String>,
    series: Vec<(String, Vec<String>)>,
    notes: Vec<String>,
}

fn read_shaped(dir: &Path, id: &str) -> Shaped {
    let mut reader = csv::Reader::from_path(dir.join(format!("{id}.csv"))).unwrap();
    let headers: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    let meta: Value = std::fs::read(dir.join(format!("{id}.meta.json")))
        .ok()
        .map(|b| serde_json::from_slice(&b).unwrap())
        .unwrap_or(Value::Null);
    let notes = meta["notes"]
        .as_array()
        .map(|n| n.iter().map(|x| x.as_str().unwrap().to_string()).collect())
        .unwrap_or_default();
    Shaped {
        index: headers[0].clone(),
        labels: rows.iter().map(|r| r[0].clone()).collect(),
        series: headers[1..]
            .iter()
            .enumerate()
            .map(|(i, h)| (h.clone(), rows.iter().map(|r| r[i + 1].clone()).collect()))
            .collect(),
        notes,
    }
}

/// (cells checked, cells that disagree) for one shaped table, or None when
/// its shaping (time buckets, transposes, row numbers) is not recomputed here.
fn recompute(raw: &Records, shaped: &Shaped) -> Option<(usize, Vec<String>)> {
    let all = shaped.notes.join(" | ");
    let skipped = [
        "monthly ",
        "yearly ",
        "became the rows",
        "together label the rows",
        "numbered from 1",
        "latest column",
    ];
    if skipped.iter().any(|s| all.contains(s)) {
        return None;
    }
    let mut checked = 0;
    let mut wrong = Vec::new();
    let mut check = |what: String, printed: &str, values: &[f64], mean: bool| {
        if printed.is_empty() {
            return;
        }
        checked += 1;
        let r = if mean {
            values.iter().sum::<f64>() / values.len().max(1) as f64
        } else if values.len() == 1 {
            values[0]
        } else {
            f64::NAN
        };
        if !agrees(printed, r) {
            wrong.push(format!(
                "{what}: printed {printed}, recomputed {r} from {values:?}"
            ));
        }
    };
    let long = shaped.notes.iter().find(|n| n.starts_with("long table:"));
    if let Some(note) = long {
        if all.contains("means per") || all.contains("totals per") {
            return None;
        }
        let key = quoted_after(note, "one series per ")?;
        let index = quoted_after(note, "rows labelled by ")?;
        let value = quoted_after(note, "values from ")?;
        for (s, cells) in &shaped.series {
            for (l, printed) in shaped.labels.iter().zip(cells) {
                let values: Vec<f64> = raw
                    .iter()
                    .filter(|r| label(&r[index]) == label(l) && label(&r[key]) == label(s))
                    .filter_map(|r| number(&r[value]))
                    .collect();
                check(format!("{l} / {s}"), printed, &values, false);
            }
        }
        return Some((checked, wrong));
    }
    let grouped = all.contains("charted: means per");
    if all.contains("charted: totals per") {
        return None;
    }
    let index = &shaped.index;
    for (s, cells) in &shaped.series {
        for (l, printed) in shaped.labels.iter().zip(cells) {
            let values: Vec<f64> = raw
                .iter()
                .filter(|r| r.get(index).is_some_and(|x| label(x) == label(l)))
                .filter_map(|r| r.get(s).and_then(|x| number(x)))
                .collect();
            check(format!("{l} / {s}"), printed, &values, grouped);
        }
    }
    Some((checked, wrong))
}

#[test]
fn raw_tables_are_charted_and_every_shaped_value_recomputes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files: BTreeMap<String, std::path::PathBuf> = std::fs::read_dir(root.join(RAW))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            ["csv", "tsv", "json"].contains(&ext)
        })
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    assert!(files.len() >= 30, "only {} raw tables", files.len());
    let out = tempfile::tempdir().unwrap();
    let output = bin()
        .current_dir(root)
        .args(["generate", RAW, "-o"])
        .arg(out.path())
        .args(["--seed", "3", "--charts-per-table", "1"])
        .args(["--questions-per-chart", "3", "--quiet"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let items = std::fs::read_to_string(out.path().join("items.jsonl")).unwrap();
    let with_items: BTreeSet<String> = items
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|i| i["table_id"].as_str().map(String::from))
        .collect();
    let refused: Vec<&String> = files
        .keys()
        .filter(|id| !with_items.contains(*id))
        .collect();
    // Every refusal is explained: an error naming the file.
    for id in &refused {
        assert!(
            stderr
                .lines()
                .any(|l| l.starts_with("error:") && l.contains(id.as_str())),
            "{id} yields no item and no error explains why:\n{stderr}"
        );
    }
    assert!(
        with_items.len() * 100 >= files.len() * 95,
        "{} of {} raw tables yield items; refused: {refused:?}",
        with_items.len(),
        files.len()
    );
    // Every table the tool shaped says so on stderr, and its values recompute.
    let tables = out.path().join("tables");
    let mut checked_tables = 0;
    let mut checked_cells = 0;
    let mut wrong = Vec::new();
    for (id, path) in &files {
        if !tables.join(format!("{id}.csv")).exists() {
            continue;
        }
        let shaped = read_shaped(&tables, id);
        for note in &shaped.notes {
            assert!(
                stderr.contains(note.as_str()),
                "{id}: note {note:?} not printed"
            );
        }
        if let Some((cells, bad)) = recompute(&read_raw(path), &shaped) {
            checked_tables += 1;
            checked_cells += cells;
            wrong.extend(bad.into_iter().map(|b| format!("{id}: {b}")));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} cells disagree:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(
        checked_tables >= 25 && checked_cells >= 1000,
        "only {checked_tables} tables / {checked_cells} cells recomputed"
    );
    eprintln!(
        "{} of {} raw tables yield items; {checked_cells} cells of {checked_tables} shaped tables recomputed",
        with_items.len(),
        files.len()
    );
}
