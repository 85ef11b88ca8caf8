//! `merge`: joins the shards of one suite into the suite an unsharded run
//! writes, byte for byte. Items are table-ordered blocks (each table belongs
//! to exactly one shard), so a k-way merge of the shards by table id restores
//! the global order; charts are written at their first use, as the generator
//! does.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::SuiteError;
use super::io::{
    Counts, LineWriter, collect_files, io_err, prepare_out, read_manifest, write_manifest,
};
use crate::ir::suite::{CHARTS_FILE, ITEMS_FILE, TABLES_DIR};
use crate::ir::{Item, SuiteManifest};

#[derive(Deserialize)]
struct IdOnly {
    id: String,
}

/// Raw item lines of one shard, with the parsed item.
struct ShardItems {
    path: PathBuf,
    lines: std::io::Lines<BufReader<File>>,
    line_no: usize,
    next: Option<(String, Item)>,
}

impl ShardItems {
    fn open(dir: &Path) -> Result<Self, SuiteError> {
        let path = dir.join(ITEMS_FILE);
        let file = File::open(&path).map_err(io_err(&path))?;
        let mut s = ShardItems {
            path,
            lines: BufReader::new(file).lines(),
            line_no: 0,
            next: None,
        };
        s.advance()?;
        Ok(s)
    }

    fn advance(&mut self) -> Result<(), SuiteError> {
        self.next = None;
        for line in self.lines.by_ref() {
            self.line_no += 1;
            let line = line.map_err(io_err(&self.path))?;
            if line.trim().is_empty() {
                continue;
            }
            let item: Item = serde_json::from_str(&line).map_err(|e| SuiteError::Record {
                path: self.path.clone(),
                line: self.line_no,
                message: e.to_string(),
            })?;
            self.next = Some((line, item));
            break;
        }
        Ok(())
    }
}

/// Byte ranges of the records of one shard's `charts.jsonl`, by chart id.
fn index_charts(dir: &Path) -> Result<HashMap<String, (u64, usize)>, SuiteError> {
    let path = dir.join(CHARTS_FILE);
    let mut reader = BufReader::new(File::open(&path).map_err(io_err(&path))?);
    let mut index = HashMap::new();
    let (mut offset, mut line_no) = (0u64, 0usize);
    let mut line = String::new();
    loop {
        line.clear();
        let n = reader.read_line(&mut line).map_err(io_err(&path))?;
        if n == 0 {
            break;
        }
        line_no += 1;
        let record = line.trim_end_matches(['\n', '\r']);
        if !record.trim().is_empty() {
            let id: IdOnly = serde_json::from_str(record).map_err(|e| SuiteError::Record {
                path: path.clone(),
                line: line_no,
                message: e.to_string(),
            })?;
            index.insert(id.id, (offset, record.len()));
        }
        offset += n as u64;
    }
    Ok(index)
}

fn read_range(path: &Path, (offset, len): (u64, usize)) -> Result<String, SuiteError> {
    let mut file = File::open(path).map_err(io_err(path))?;
    file.seek(SeekFrom::Start(offset)).map_err(io_err(path))?;
    let mut buf = vec![0u8; len];
    file.read_exact(&mut buf).map_err(io_err(path))?;
    String::from_utf8(buf).map_err(|e| SuiteError::Record {
        path: path.to_path_buf(),
        line: 0,
        message: e.to_string(),
    })
}

fn check_shards(shards: &[PathBuf], manifests: &[SuiteManifest]) -> Result<(), SuiteError> {
    let bad = |msg: String| SuiteError::Merge(msg);
    let first = manifests
        .first()
        .ok_or_else(|| bad("no shards given".into()))?;
    let Some((_, n)) = first.shard else {
        return Err(bad(format!(
            "{} is not a shard (no `shard` in suite.json)",
            shards[0].display()
        )));
    };
    let mut seen = vec![false; n as usize];
    for (dir, m) in shards.iter().zip(manifests) {
        let Some((k, count)) = m.shard else {
            return Err(bad(format!("{} is not a shard", dir.display())));
        };
        if count != n {
            return Err(bad(format!(
                "{} is shard {k}/{count}, expected …/{n}",
                dir.display()
            )));
        }
        if m.config != first.config || m.seed != first.seed || m.tool_version != first.tool_version
        {
            return Err(bad(format!(
                "{} was generated with another config, seed or tool version than {}",
                dir.display(),
                shards[0].display()
            )));
        }
        let slot = &mut seen[(k - 1) as usize];
        if *slot {
            return Err(bad(format!("shard {k}/{n} given twice")));
        }
        *slot = true;
    }
    if let Some(missing) = seen.iter().position(|s| !s) {
        return Err(bad(format!("shard {}/{n} is missing", missing + 1)));
    }
    Ok(())
}

fn copy_file(from: &Path, to: &Path) -> Result<(), SuiteError> {
    if to.exists() {
        let (a, b) = (
            std::fs::read(from).map_err(io_err(from))?,
            std::fs::read(to).map_err(io_err(to))?,
        );
        if a != b {
            return Err(SuiteError::Merge(format!(
                "{} differs between shards",
                to.display()
            )));
        }
        return Ok(());
    }
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).map_err(io_err(parent))?;
    }
    std::fs::copy(from, to).map_err(io_err(from))?;
    Ok(())
}

pub fn merge(shards: &[PathBuf], out: &Path) -> Result<(), SuiteError> {
    let manifests: Vec<SuiteManifest> = shards
        .iter()
        .map(|s| read_manifest(s))
        .collect::<Result<_, _>>()?;
    check_shards(shards, &manifests)?;
    for s in shards {
        if s.canonicalize().ok() == out.canonicalize().ok() {
            return Err(SuiteError::Merge(format!(
                "the output folder {} is one of the shards",
                out.display()
            )));
        }
    }
    prepare_out(out)?;

    for shard in shards {
        let dir = shard.join(TABLES_DIR);
        if dir.exists() {
            let mut files = Vec::new();
            collect_files(&dir, &dir, &mut files)?;
            files.sort();
            for rel in files {
                copy_file(&dir.join(&rel), &out.join(TABLES_DIR).join(&rel))?;
            }
        }
    }

    let indexes: Vec<_> = shards
        .iter()
        .map(|s| index_charts(s))
        .collect::<Result<_, _>>()?;
    let mut streams: Vec<ShardItems> = shards
        .iter()
        .map(|s| ShardItems::open(s))
        .collect::<Result<_, _>>()?;
    let mut items_out = LineWriter::create(&out.join(ITEMS_FILE))?;
    let mut charts_out = LineWriter::create(&out.join(CHARTS_FILE))?;
    let mut written: HashSet<String> = HashSet::new();
    let mut counts = Counts::default();
    let mut last_table: Option<String> = None;
    while let Some(pick) = streams
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.next.as_ref().map(|(_, item)| (i, item.table_id.clone())))
        .min_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)))
        .map(|(i, _)| i)
    {
        let table = streams[pick]
            .next
            .as_ref()
            .map(|(_, it)| it.table_id.clone())
            .unwrap_or_default();
        if last_table.as_ref().is_some_and(|t| *t >= table) {
            return Err(SuiteError::Merge(format!(
                "items of table `{table}` are not in one block sorted by table id in {}",
                streams[pick].path.display()
            )));
        }
        while let Some((line, item)) = streams[pick].next.take() {
            if item.table_id != table {
                streams[pick].next = Some((line, item));
                break;
            }
            if written.insert(item.chart_id.clone()) {
                let (shard, range) = std::iter::once(pick)
                    .chain(0..shards.len())
                    .find_map(|i| indexes[i].get(&item.chart_id).map(|r| (i, *r)))
                    .ok_or_else(|| {
                        SuiteError::Merge(format!(
                            "item {} uses chart {} that no shard's charts.jsonl has",
                            item.id, item.chart_id
                        ))
                    })?;
                charts_out.write_line(&read_range(&shards[shard].join(CHARTS_FILE), range)?)?;
                copy_file(&shards[shard].join(&item.image), &out.join(&item.image))?;
            }
            counts.add_item(&item);
            items_out.write_line(&line)?;
            streams[pick].advance()?;
        }
        last_table = Some(table);
    }
    items_out.finish()?;
    charts_out.finish()?;
    super::distinct::distinct_wordings(out, manifests[0].seed)?;
    super::claims::balance_claims(out, manifests[0].seed)?;
    super::letters::balance_letters(out, manifests[0].seed, &mut counts)?;
    for m in &manifests {
        if let Some(dropped) = m.counts.get("dropped") {
            for (reason, n) in dropped {
                counts.bump("dropped", reason, *n);
            }
        }
    }
    let first = &manifests[0];
    write_manifest(out, first.config.clone(), first.seed, &counts, None)?;
    Ok(())
}
