//! Command-line front end: one file per subcommand, each parsing its
//! arguments and calling the library.

use std::path::PathBuf;

use anyhow::Context;

pub mod ask;
pub mod browse;
pub mod check;
pub mod demo;
pub mod export;
pub mod gallery;
pub mod generate;
pub mod import_benchmark;
pub mod import_run;
pub mod merge;
pub mod merge_runs;
pub mod paraphrase;
pub mod render;
pub mod report;
pub mod run;
pub mod score;
pub mod stats;
pub mod synth;

/// Tell the person who brought a table how it was shaped (columns left out,
/// pivots, summaries), one `note:` line each on stderr.
pub fn print_table_notes(tables: &[chartstress::ir::Table]) {
    for t in tables {
        let file = t.source_path.as_deref().unwrap_or(&t.id);
        for note in &t.meta.notes {
            eprintln!("note: {file}: {note}");
        }
    }
}

/// The named tables, or with none `fixtures/` here if present, else the
/// fixtures built into the binary.
pub fn load_inputs(
    inputs: &[PathBuf],
    strict: bool,
) -> anyhow::Result<(
    Vec<chartstress::ir::Table>,
    Vec<chartstress::table::TableError>,
)> {
    if inputs.is_empty() {
        chartstress::table::builtin::load_default().context("unpacking the built-in fixtures")
    } else {
        Ok(chartstress::table::load_tables(inputs, strict))
    }
}
