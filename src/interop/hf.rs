//! Hugging Face datasets: a suite as a dataset folder that
//! `datasets.load_dataset(DIR)` reads, one split per item set.
//!
//! `DIR/data/<set>-00000-of-00001.parquet` holds the rows, `DIR/README.md`
//! the dataset card (YAML `configs` and `dataset_info`, then prose). The
//! Parquet files are written with the `parquet` crate's low-level writer
//! (no arrow): plain encoding, no compression (the bulk is PNG bytes, which
//! do not compress further), no statistics, so the same suite gives the same
//! bytes. The `huggingface` key of each file's metadata carries the
//! features, so the `image` column decodes to a PIL image even when a file
//! is read without the card (as lmms-eval does).

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use parquet::basic::Compression;
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, Int32Type};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use serde_json::{Value, json};

use super::{InteropError, io_error};
use crate::ir::{Item, SetName, SuiteManifest};
use crate::prompt::{Prompter, Strategy};
use crate::run::suite_files::read_items;

/// Columns in file order, with their Hugging Face feature and what they hold
/// (the dataset card's column table is built from this list).
pub const COLUMNS: [(&str, &str, &str); 17] = [
    ("id", "string", "chartstress item id"),
    (
        "image",
        "image",
        "the chart: PNG bytes, and its path inside the suite folder",
    ),
    ("question", "string", "the question as generated"),
    (
        "prompt",
        "string",
        "the whole text chartstress's `direct` prompt sends: shown paragraph, conversation history, the question with its options, the answer-format instruction",
    ),
    ("answer", "string", "the gold answer as text"),
    (
        "set",
        "string",
        "the item set (also the split): original, modified_chart, modified_question, modified_both, shifted",
    ),
    (
        "origin",
        "string",
        "id of the original item this one modifies; null for originals",
    ),
    (
        "chart_id",
        "string",
        "the chart (items on the same picture share it)",
    ),
    (
        "family",
        "string",
        "question family, e.g. value_at, argmax, title",
    ),
    (
        "question_type",
        "string",
        "factoid, multiple_choice, fact_check, hypothetical, conversational, descriptive",
    ),
    ("chart_kind", "string", "bar, line, pie, …"),
    (
        "answer_kind",
        "string",
        "text_in_chart, text_in_general, number_in_chart, number_in_general",
    ),
    (
        "answerable",
        "bool",
        "false when the chart does not hold the answer (gold: unanswerable)",
    ),
    (
        "axis",
        "string",
        "axis of the first perturbation; `none` for originals",
    ),
    (
        "perturbation",
        "string",
        "perturbation names joined by `+`; `none` for originals",
    ),
    (
        "severity",
        "int32",
        "highest perturbation severity (1 mild … 5 strong); null for originals",
    ),
    (
        "choices",
        "list of string",
        "multiple-choice options in letter order (a, b, …); empty otherwise",
    ),
];

/// Rows per Parquet row group: bounds the writer's memory on big suites.
const ROW_GROUP: usize = 64;

const SCHEMA: &str = "
message chartstress {
  optional binary id (STRING);
  optional group image {
    optional binary bytes;
    optional binary path (STRING);
  }
  optional binary question (STRING);
  optional binary prompt (STRING);
  optional binary answer (STRING);
  optional binary set (STRING);
  optional binary origin (STRING);
  optional binary chart_id (STRING);
  optional binary family (STRING);
  optional binary question_type (STRING);
  optional binary chart_kind (STRING);
  optional binary answer_kind (STRING);
  optional boolean answerable;
  optional binary axis (STRING);
  optional binary perturbation (STRING);
  optional int32 severity;
  optional group choices (LIST) {
    repeated group list {
      optional binary element (STRING);
    }
  }
}
";

/// One split as written: its set name, file (relative to the dataset
/// folder) and row count.
#[derive(Debug, Clone, PartialEq)]
pub struct Split {
    pub name: String,
    pub file: String,
    pub rows: usize,
    /// Uncompressed size of the split's data.
    pub bytes: u64,
}

/// What an export wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Exported {
    pub splits: Vec<Split>,
    pub items: usize,
}

/// One dataset row, every column as it is written.
struct Row<'a> {
    item: &'a Item,
    prompt: String,
    png: Arc<Vec<u8>>,
}

impl Row<'_> {
    fn axis(&self) -> &str {
        self.item
            .perturbations
            .first()
            .map_or("none", |p| p.axis.as_str())
    }

    fn perturbation(&self) -> String {
        if self.item.perturbations.is_empty() {
            return "none".into();
        }
        let names: Vec<&str> = self
            .item
            .perturbations
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        names.join("+")
    }

    fn severity(&self) -> Option<i32> {
        self.item
            .perturbations
            .iter()
            .map(|p| i32::from(p.severity))
            .max()
    }
}

/// The `huggingface` Parquet metadata and the card's `dataset_info.features`
/// say the same thing; this is the former.
fn features_json() -> Value {
    let mut features = serde_json::Map::new();
    for (name, kind, _) in COLUMNS {
        let f = match kind {
            "image" => json!({"_type": "Image"}),
            "list of string" => {
                json!({"feature": {"dtype": "string", "_type": "Value"}, "_type": "Sequence"})
            }
            dtype => json!({"dtype": dtype, "_type": "Value"}),
        };
        features.insert(name.to_string(), f);
    }
    json!({"info": {"features": features}})
}

fn parquet_error(path: &Path, e: impl std::fmt::Display) -> InteropError {
    InteropError::Format {
        path: path.to_path_buf(),
        msg: format!("writing Parquet: {e}"),
    }
}

/// Write one split's rows to `path`; returns the uncompressed size of the
/// data (the card's `num_bytes`, close to what Arrow holds in memory).
fn write_parquet(path: &Path, rows: &[Row]) -> Result<u64, InteropError> {
    let err = |e: parquet::errors::ParquetError| parquet_error(path, e);
    let schema = Arc::new(parse_message_type(SCHEMA).map_err(err)?);
    let props = WriterProperties::builder()
        .set_writer_version(WriterVersion::PARQUET_1_0)
        .set_compression(Compression::UNCOMPRESSED)
        .set_dictionary_enabled(false)
        .set_statistics_enabled(EnabledStatistics::None)
        .set_key_value_metadata(Some(vec![KeyValue::new(
            "huggingface".to_string(),
            features_json().to_string(),
        )]))
        .build();
    let file = File::create(path).map_err(|e| io_error(path, e))?;
    let mut writer = SerializedFileWriter::new(file, schema, Arc::new(props)).map_err(err)?;
    for chunk in rows.chunks(ROW_GROUP) {
        let mut group = writer.next_row_group().map_err(err)?;
        let mut column = 0;
        while let Some(mut col) = group.next_column().map_err(err)? {
            write_column(&mut col, column, chunk).map_err(err)?;
            col.close().map_err(err)?;
            column += 1;
        }
        group.close().map_err(err)?;
    }
    let meta = writer.close().map_err(err)?;
    Ok(meta
        .row_groups()
        .iter()
        .map(|g| g.total_byte_size().max(0) as u64)
        .sum())
}

fn text(s: &str) -> ByteArray {
    ByteArray::from(s.as_bytes().to_vec())
}

/// Optional text: the values present and a definition level per row.
fn optional_text<'a>(
    rows: &'a [Row],
    f: impl Fn(&'a Row) -> Option<String>,
) -> (Vec<ByteArray>, Vec<i16>) {
    let mut values = Vec::new();
    let mut defs = Vec::new();
    for r in rows {
        match f(r) {
            Some(v) => {
                values.push(text(&v));
                defs.push(1);
            }
            None => defs.push(0),
        }
    }
    (values, defs)
}

/// Write leaf column `index` (schema order) for `rows`.
fn write_column(
    col: &mut parquet::file::writer::SerializedColumnWriter<'_>,
    index: usize,
    rows: &[Row],
) -> parquet::errors::Result<()> {
    let present = vec![1i16; rows.len()];
    let strings = |f: &dyn Fn(&Row) -> String| -> Vec<ByteArray> {
        rows.iter().map(|r| text(&f(r))).collect()
    };
    let values = match index {
        0 => strings(&|r| r.item.id.clone()),
        // image.bytes and image.path sit one level down: defined at 2.
        1 => {
            let v: Vec<ByteArray> = rows
                .iter()
                .map(|r| ByteArray::from(r.png.as_ref().clone()))
                .collect();
            col.typed::<ByteArrayType>()
                .write_batch(&v, Some(&vec![2; rows.len()]), None)?;
            return Ok(());
        }
        2 => {
            let v = strings(&|r| r.item.image.clone());
            col.typed::<ByteArrayType>()
                .write_batch(&v, Some(&vec![2; rows.len()]), None)?;
            return Ok(());
        }
        3 => strings(&|r| r.item.question.clone()),
        4 => strings(&|r| r.prompt.clone()),
        5 => strings(&|r| r.item.answer_text.clone()),
        6 => strings(&|r| r.item.set.name().to_string()),
        7 => {
            let (v, defs) = optional_text(rows, |r| r.item.origin.clone());
            col.typed::<ByteArrayType>()
                .write_batch(&v, Some(&defs), None)?;
            return Ok(());
        }
        8 => strings(&|r| r.item.chart_id.clone()),
        9 => strings(&|r| r.item.family.clone()),
        10 => strings(&|r| r.item.question_type.name().to_string()),
        11 => strings(&|r| r.item.chart_kind.name().to_string()),
        12 => strings(&|r| enum_name(&r.item.answer_kind)),
        13 => {
            let v: Vec<bool> = rows.iter().map(|r| r.item.answerable).collect();
            col.typed::<BoolType>()
                .write_batch(&v, Some(&present), None)?;
            return Ok(());
        }
        14 => strings(&|r| r.axis().to_string()),
        15 => strings(&|r| r.perturbation()),
        16 => {
            let mut v = Vec::new();
            let mut defs = Vec::new();
            for r in rows {
                match r.severity() {
                    Some(s) => {
                        v.push(s);
                        defs.push(1);
                    }
                    None => defs.push(0),
                }
            }
            col.typed::<Int32Type>()
                .write_batch(&v, Some(&defs), None)?;
            return Ok(());
        }
        // choices: a present list (definition 1) when empty, else one
        // element per option (definition 3); repetition 0 starts a row.
        17 => {
            let (mut v, mut defs, mut reps) = (Vec::new(), Vec::new(), Vec::new());
            for r in rows {
                if r.item.choices.is_empty() {
                    defs.push(1);
                    reps.push(0);
                }
                for (k, c) in r.item.choices.iter().enumerate() {
                    v.push(text(c));
                    defs.push(3);
                    reps.push(i16::from(k > 0));
                }
            }
            col.typed::<ByteArrayType>()
                .write_batch(&v, Some(&defs), Some(&reps))?;
            return Ok(());
        }
        other => {
            return Err(parquet::errors::ParquetError::General(format!(
                "unexpected column {other}"
            )));
        }
    };
    col.typed::<ByteArrayType>()
        .write_batch(&values, Some(&present), None)?;
    Ok(())
}

/// A serde enum's name as written in `items.jsonl`.
fn enum_name<T: serde::Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(Value::String(s)) => s,
        other => format!("{other:?}"),
    }
}

/// Items grouped by set in `SetName::ALL` order, suite order inside a set:
/// the splits, and the order lmms-eval's `doc_id` counts in.
pub fn items_by_set(items: &[Item]) -> Vec<(SetName, Vec<&Item>)> {
    SetName::ALL
        .into_iter()
        .map(|s| (s, items.iter().filter(|i| i.set == s).collect::<Vec<_>>()))
        .filter(|(_, v)| !v.is_empty())
        .collect()
}

pub fn split_file(set: SetName) -> String {
    format!("data/{}-00000-of-00001.parquet", set.name())
}

/// Write the suite as a Hugging Face dataset folder `out`.
pub fn export(suite: &Path, out: &Path) -> Result<Exported, InteropError> {
    let items = read_items(suite)?;
    let manifest = crate::suite::read_manifest(suite)?;
    let prompter =
        Prompter::new(Strategy::Direct, None).map_err(|e| InteropError::Prompt(e.to_string()))?;
    let data = out.join("data");
    std::fs::create_dir_all(&data).map_err(|e| io_error(&data, e))?;
    // A chart carries several questions: read each picture once.
    let mut pngs: HashMap<&str, Arc<Vec<u8>>> = HashMap::new();
    let mut splits = Vec::new();
    for (set, set_items) in items_by_set(&items) {
        let mut rows = Vec::with_capacity(set_items.len());
        for item in set_items {
            let png = match pngs.get(item.image.as_str()) {
                Some(p) => p.clone(),
                None => {
                    let path = suite.join(&item.image);
                    let p = Arc::new(std::fs::read(&path).map_err(|e| io_error(&path, e))?);
                    pngs.insert(&item.image, p.clone());
                    p
                }
            };
            let prompt = prompter
                .render(item)
                .map_err(|e| InteropError::Prompt(format!("item {}: {e}", item.id)))?;
            rows.push(Row { item, prompt, png });
        }
        let file = split_file(set);
        let bytes = write_parquet(&out.join(&file), &rows)?;
        splits.push(Split {
            name: set.name().to_string(),
            file,
            rows: rows.len(),
            bytes,
        });
    }
    let card = out.join("README.md");
    std::fs::write(&card, dataset_card(&manifest, &splits)).map_err(|e| io_error(&card, e))?;
    Ok(Exported {
        splits,
        items: items.len(),
    })
}

/// The dataset card: YAML front matter `datasets` reads (configs, features,
/// splits), then what a reader needs to use the data.
fn dataset_card(manifest: &SuiteManifest, splits: &[Split]) -> String {
    let mut s = String::from("---\nconfigs:\n- config_name: default\n  data_files:\n");
    for sp in splits {
        s.push_str(&format!(
            "  - split: {}\n    path: {}\n",
            sp.name,
            // Split names are `\w+`, file names plain: no YAML quoting needed.
            sp.file
        ));
    }
    s.push_str("dataset_info:\n  features:\n");
    for (name, kind, _) in COLUMNS {
        let ty = match kind {
            "image" => "    dtype: image".to_string(),
            "list of string" => "    sequence: string".to_string(),
            dtype => format!("    dtype: {dtype}"),
        };
        s.push_str(&format!("  - name: {name}\n{ty}\n"));
    }
    s.push_str("  splits:\n");
    for sp in splits {
        s.push_str(&format!(
            "  - name: {}\n    num_bytes: {}\n    num_examples: {}\n",
            sp.name, sp.bytes, sp.rows
        ));
    }
    s.push_str("task_categories:\n- visual-question-answering\ntags:\n- chart-question-answering\n- robustness\n- chartstress\n---\n\n");

    let total: usize = splits.iter().map(|s| s.rows).sum();
    s.push_str(&format!(
        "# chartstress suite\n\nA chart question-answering robustness suite generated by chartstress {} \
with seed {}: {total} items, one split per item set. Load it with \
`datasets.load_dataset(\"path/to/this/folder\")`.\n\n",
        manifest.tool_version, manifest.seed
    ));
    s.push_str("| split | items |\n|---|---|\n");
    for sp in splits {
        s.push_str(&format!("| `{}` | {} |\n", sp.name, sp.rows));
    }
    s.push_str(
        "\n## Pairs\n\nEvery item of a modified set (`modified_chart`: the chart changed, \
`modified_question`: the wording changed, `modified_both`) is a variant of one original: \
its `origin` column holds the `id` of that item in the `original` split, and its id is that \
id followed by `-c<v>`, `-q<v>` or `-b<v>`. The robustness gap of a model is its accuracy on \
the originals minus its accuracy on their variants, pair by pair. `shifted` items ask the \
same question family about another table's chart: a different fact, reported on its own. \
`axis`, `perturbation` and `severity` say what was changed.\n\n",
    );
    s.push_str("## Columns\n\n| column | type | content |\n|---|---|---|\n");
    for (name, kind, what) in COLUMNS {
        s.push_str(&format!("| `{name}` | {kind} | {what} |\n"));
    }
    s.push_str(
        "\nScore with chartstress's relaxed accuracy: run the model on `prompt` and the \
image, then bring the replies back with `chartstress import-run` (or score them with \
`chartstress score`).\n\n## Suite configuration\n\nFrom `suite.json` (input tables by file \
name):\n\n```json\n",
    );
    let mut config = manifest.config.clone();
    // The tables were given as paths on the generating machine: keep the names.
    if let Some(tables) = config.get_mut("tables").and_then(Value::as_array_mut) {
        for t in tables.iter_mut() {
            if let Some(p) = t.as_str() {
                let name = Path::new(p)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| p.to_string());
                *t = Value::String(name);
            }
        }
    }
    s.push_str(&serde_json::to_string_pretty(&config).unwrap_or_default());
    s.push_str("\n```\n\nSuite fingerprint (blake3 over the suite's files): `");
    s.push_str(&manifest.fingerprint);
    s.push_str("`.\n\n## Composition\n\n");
    let counts: &BTreeMap<String, BTreeMap<String, u64>> = &manifest.counts;
    for dim in ["question_type", "family", "chart_kind", "axis"] {
        if let Some(c) = counts.get(dim) {
            let parts: Vec<String> = c.iter().map(|(k, v)| format!("{k} {v}")).collect();
            s.push_str(&format!("- {dim}: {}\n", parts.join(", ")));
        }
    }
    s
}
