//! Loading tables from CSV/TSV/JSON with type inference (issue 2).
