//! Reading a file into raw string cells with their file line numbers.
//! Types are inferred afterwards (see `build`), so every format shares one path.

use super::MAX_ROWS;
use super::clean::{CleanCounts, MAX_TEXT_CHARS, clean_text};
use super::error::{ColumnRef, TableError, TableErrorKind};
use serde_json::Value;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;

/// One data row: the 1-based file line it starts on and its trimmed cells
/// (empty string for JSON `null` or an absent key).
#[derive(Debug, Clone)]
pub(crate) struct RawRow {
    pub line: u64,
    pub cells: Vec<String>,
}

#[derive(Debug, Clone)]
pub(crate) struct RawTable {
    pub header_line: u64,
    pub headers: Vec<String>,
    pub rows: Vec<RawRow>,
    /// Cells whose control characters or length were cleaned.
    pub cleaned: CleanCounts,
}

impl RawTable {
    /// Headers and cells made safe to lay out (see `clean`), counted.
    pub fn clean(&mut self) {
        let mut counts = CleanCounts::default();
        let mut fix = |text: &mut String| {
            if text.len() > MAX_TEXT_CHARS || text.chars().any(char::is_control) {
                let (out, done) = clean_text(text, MAX_TEXT_CHARS);
                counts.add(done);
                *text = out;
            }
        };
        self.headers.iter_mut().for_each(&mut fix);
        for row in &mut self.rows {
            row.cells.iter_mut().for_each(&mut fix);
        }
        self.cleaned = counts;
    }
}

fn io_error(file: &str, e: &std::io::Error) -> TableError {
    TableError::new(file, TableErrorKind::Io(e.to_string()))
}

/// CSV or TSV, streamed record by record (never the whole file in memory).
pub(crate) fn read_delimited(
    path: &Path,
    file: &str,
    delimiter: u8,
) -> Result<RawTable, TableError> {
    let handle = File::open(path).map_err(|e| io_error(file, &e))?;
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .from_reader(BufReader::new(handle));
    let mut record = csv::ByteRecord::new();
    let mut header: Option<(u64, Vec<String>)> = None;
    let mut rows = Vec::new();
    loop {
        match reader.read_byte_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                let line = e.position().map(csv::Position::line);
                let err = TableError::new(file, TableErrorKind::Csv(e.to_string()));
                return Err(match line {
                    Some(l) => err.at_line(l),
                    None => err,
                });
            }
        }
        let line = record.position().map_or(0, csv::Position::line);
        let mut cells = Vec::with_capacity(record.len());
        for (i, field) in record.iter().enumerate() {
            let text = std::str::from_utf8(field).map_err(|_| {
                let name = header
                    .as_ref()
                    .and_then(|(_, h)| h.get(i))
                    .map_or("", String::as_str);
                TableError::new(file, TableErrorKind::InvalidUtf8)
                    .at_line(line)
                    .at_column(ColumnRef::new(i, name))
            })?;
            cells.push(text.trim().to_string());
        }
        // Spreadsheet exports often end with rows of bare separators.
        if cells.iter().all(String::is_empty) {
            continue;
        }
        match &header {
            None => {
                if let Some(first) = cells.first_mut() {
                    *first = first.trim_start_matches('\u{feff}').trim().to_string();
                }
                header = Some((line, cells));
            }
            Some((_, h)) => {
                if cells.len() != h.len() {
                    return Err(TableError::new(
                        file,
                        TableErrorKind::Ragged {
                            expected: h.len(),
                            found: cells.len(),
                        },
                    )
                    .at_line(line));
                }
                if rows.len() >= MAX_ROWS {
                    return Err(TableError::new(
                        file,
                        TableErrorKind::TooManyRows { max: MAX_ROWS },
                    )
                    .at_line(line));
                }
                rows.push(RawRow { line, cells });
            }
        }
    }
    let (header_line, headers) =
        header.ok_or_else(|| TableError::new(file, TableErrorKind::NoRows))?;
    Ok(RawTable {
        header_line,
        headers,
        rows,
        cleaned: CleanCounts::default(),
    })
}

/// Line and character column of a byte offset (both 1-based).
fn line_col(text: &[u8], offset: usize) -> (u64, u64) {
    let before = &text[..offset];
    let line = before.iter().filter(|b| **b == b'\n').count() as u64 + 1;
    let line_start = before
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |p| p + 1);
    let col = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count() as u64
        + 1;
    (line, col)
}

/// Lines on which a container opened with `open` starts at nesting `depth`
/// (the depth before it opens): the records of `[{..},{..}]` are `{` at depth 1,
/// the rows of `{"rows": [[..],[..]]}` are `[` at depth 2. serde_json does not
/// report positions of parsed values, so this light scan recovers them.
fn container_lines(text: &str, depth: usize, open: char) -> Vec<u64> {
    let mut lines = Vec::new();
    let mut line = 1u64;
    let mut level = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for c in text.chars() {
        if c == '\n' {
            line += 1;
        }
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' | '[' => {
                if level == depth && c == open {
                    lines.push(line);
                }
                level += 1;
            }
            '}' | ']' => level = level.saturating_sub(1),
            _ => {}
        }
    }
    lines
}

fn json_cell(
    value: &Value,
    file: &str,
    line: u64,
    column: ColumnRef,
) -> Result<String, TableError> {
    Ok(match value {
        Value::Null => String::new(),
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Array(_) | Value::Object(_) => {
            return Err(TableError::new(file, TableErrorKind::NestedValue)
                .at_line(line)
                .at_column(column));
        }
    })
}

fn shape(file: &str, message: &str) -> TableError {
    TableError::new(file, TableErrorKind::JsonShape(message.to_string()))
}

/// Parse JSON text, turning serde_json's error into one with line and column.
pub(crate) fn parse_json(bytes: &[u8], file: &str) -> Result<Value, TableError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let (line, col) = line_col(bytes, e.valid_up_to());
        TableError::new(file, TableErrorKind::InvalidUtf8)
            .at_line(line)
            .at_char(col)
    })?;
    serde_json::from_str(text).map_err(|e| {
        let full = e.to_string();
        // serde_json appends " at line L column C"; we print those ourselves.
        let message = full
            .rfind(" at line ")
            .map_or(full.as_str(), |i| &full[..i]);
        TableError::new(file, TableErrorKind::Json(message.to_string()))
            .at_line(e.line() as u64)
            .at_char(e.column() as u64)
    })
}

/// JSON: an array of records, or `{"columns": [...], "rows": [[...], ...]}`.
pub(crate) fn read_json(path: &Path, file: &str) -> Result<RawTable, TableError> {
    let bytes = std::fs::read(path).map_err(|e| io_error(file, &e))?;
    let value = parse_json(&bytes, file)?;
    // parse_json has checked the bytes are UTF-8.
    let text = String::from_utf8_lossy(&bytes);
    match value {
        Value::Array(records) => read_records(&records, &text, file),
        Value::Object(map) => {
            if let Some(key) = map.keys().find(|k| *k != "columns" && *k != "rows") {
                return Err(shape(
                    file,
                    &format!("unknown key {key:?} (expected \"columns\" and \"rows\")"),
                ));
            }
            let columns = match map.get("columns") {
                Some(Value::Array(c)) => c,
                _ => return Err(shape(file, "\"columns\" must be an array of strings")),
            };
            let headers = columns
                .iter()
                .map(|c| c.as_str().map(|s| s.trim().to_string()))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| shape(file, "\"columns\" must be an array of strings"))?;
            let rows = match map.get("rows") {
                Some(Value::Array(r)) => r,
                _ => return Err(shape(file, "\"rows\" must be an array of arrays")),
            };
            let lines = container_lines(&text, 2, '[');
            let mut out = Vec::with_capacity(rows.len());
            for (r, row) in rows.iter().enumerate() {
                let line = lines.get(r).copied().unwrap_or(0);
                let Value::Array(cells) = row else {
                    return Err(shape(file, &format!("row {} is not an array", r + 1)));
                };
                if cells.len() != headers.len() {
                    return Err(TableError::new(
                        file,
                        TableErrorKind::Ragged {
                            expected: headers.len(),
                            found: cells.len(),
                        },
                    )
                    .at_line(line));
                }
                if out.len() >= MAX_ROWS {
                    return Err(TableError::new(
                        file,
                        TableErrorKind::TooManyRows { max: MAX_ROWS },
                    )
                    .at_line(line));
                }
                let cells = cells
                    .iter()
                    .enumerate()
                    .map(|(i, v)| json_cell(v, file, line, ColumnRef::new(i, &headers[i])))
                    .collect::<Result<Vec<_>, _>>()?;
                out.push(RawRow { line, cells });
            }
            Ok(RawTable {
                header_line: container_lines(&text, 1, '[').first().copied().unwrap_or(1),
                headers,
                rows: out,
                cleaned: CleanCounts::default(),
            })
        }
        _ => Err(shape(
            file,
            "expected an array of records or an object with \"columns\" and \"rows\"",
        )),
    }
}

fn read_records(records: &[Value], text: &str, file: &str) -> Result<RawTable, TableError> {
    let lines = container_lines(text, 1, '{');
    let mut headers: Vec<String> = Vec::new();
    let mut maps = Vec::with_capacity(records.len());
    for (r, record) in records.iter().enumerate() {
        let Value::Object(map) = record else {
            return Err(shape(file, &format!("record {} is not an object", r + 1)));
        };
        maps.push(map);
        for key in map.keys() {
            if !headers.iter().any(|h| h == key.trim()) {
                headers.push(key.trim().to_string());
            }
        }
    }
    if records.len() > MAX_ROWS {
        return Err(TableError::new(
            file,
            TableErrorKind::TooManyRows { max: MAX_ROWS },
        ));
    }
    let mut rows = Vec::with_capacity(records.len());
    for (r, map) in maps.into_iter().enumerate() {
        let line = lines.get(r).copied().unwrap_or(0);
        let mut cells = vec![String::new(); headers.len()];
        for (key, value) in map {
            let i = headers
                .iter()
                .position(|h| h == key.trim())
                .expect("collected above");
            cells[i] = json_cell(value, file, line, ColumnRef::new(i, &headers[i]))?;
        }
        if cells.iter().all(String::is_empty) {
            continue;
        }
        rows.push(RawRow { line, cells });
    }
    Ok(RawTable {
        header_line: lines.first().copied().unwrap_or(1),
        headers,
        rows,
        cleaned: CleanCounts::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn container_lines_skip_strings() {
        let text = "[\n {\"a\": \"[{\"},\n {\"a\": 2}\n]";
        assert_eq!(container_lines(text, 1, '{'), vec![2, 3]);
        let text = "{\"columns\": [\"a\"],\n \"rows\": [\n  [1],\n  [2]\n ]}";
        assert_eq!(container_lines(text, 2, '['), vec![3, 4]);
    }

    #[test]
    fn line_col_counts_chars() {
        let text = "ab\ncé\u{1}x".as_bytes();
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 3), (2, 1));
        assert_eq!(line_col(text, 6), (2, 3));
    }
}
