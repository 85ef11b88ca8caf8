//! The fixture tables shipped inside the binary, so `demo`, `gallery` and
//! `generate` work from any directory once the tool is installed with
//! `cargo install`: a `fixtures/` folder in the current directory wins, the
//! built-in copy is the fallback.

use std::path::{Path, PathBuf};

use include_dir::{Dir, include_dir};

use super::{TableError, load_tables};
use crate::ir::Table;

static FIXTURES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/fixtures");

/// How the built-in tables are named in messages: as the folder they came from.
pub const LABEL: &str = "fixtures (built in)";

/// Every built-in file: name and bytes, sorted by name.
fn files() -> Vec<(&'static str, &'static [u8])> {
    let mut out: Vec<(&str, &[u8])> = FIXTURES
        .files()
        .filter_map(|f| Some((f.path().to_str()?, f.contents())))
        .collect();
    out.sort_by_key(|(name, _)| *name);
    out
}

/// Write the built-in files into `dir` (which must exist); returns `dir`.
fn write_to(dir: &Path) -> std::io::Result<PathBuf> {
    for (name, bytes) in files() {
        std::fs::write(dir.join(name), bytes)?;
    }
    Ok(dir.to_path_buf())
}

/// Load the built-in tables as `load_tables` would load the `fixtures/`
/// folder. They pass through a private temporary folder (the loaders read
/// files); messages name them `fixtures (built in)/FILE`, not that folder.
pub fn load() -> std::io::Result<(Vec<Table>, Vec<TableError>)> {
    let tmp = tempfile::Builder::new()
        .prefix("chartstress-fixtures-")
        .tempdir()?;
    let dir = write_to(tmp.path())?;
    let (mut tables, mut errors) = load_tables(std::slice::from_ref(&dir), false);
    let rename = |path: &str| match Path::new(path).strip_prefix(&dir) {
        Ok(rest) => format!("{LABEL}/{}", rest.display()),
        Err(_) => path.to_string(),
    };
    for t in &mut tables {
        t.source_path = t.source_path.as_deref().map(rename);
    }
    for e in &mut errors {
        e.file = rename(&e.file);
    }
    Ok((tables, errors))
}

/// The tables a command uses when none are named: `fixtures/` in the current
/// directory when there is one, else the built-in copy.
pub fn load_default() -> std::io::Result<(Vec<Table>, Vec<TableError>)> {
    let local = Path::new("fixtures");
    if local.is_dir() {
        Ok(load_tables(&[local.to_path_buf()], false))
    } else {
        load()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_tables_match_the_fixtures_folder() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let (from_disk, disk_errors) = load_tables(&[dir], false);
        let (built_in, errors) = load().unwrap();
        assert!(disk_errors.is_empty() && errors.is_empty(), "{errors:?}");
        assert!(
            built_in.len() >= 20,
            "only {} built-in tables",
            built_in.len()
        );
        let unplaced = |ts: &[Table]| -> Vec<Table> {
            ts.iter()
                .cloned()
                .map(|mut t| {
                    t.source_path = None;
                    t
                })
                .collect()
        };
        assert_eq!(unplaced(&from_disk), unplaced(&built_in));
        for t in &built_in {
            let path = t.source_path.as_deref().unwrap();
            assert!(path.starts_with(LABEL), "{path}");
        }
    }
}
