//! chartstress: a robustness stress-test generator for chart question answering.
//!
//! Data flows one way (see DESIGN.md): tables → chart specs → rendered charts
//! (PNG + SVG + scene) and question IR → executor → answers → realized text →
//! suite → adapter (model) → predictions → scores → report. Each module below
//! imports only modules upstream of it.

pub mod ir;
pub mod seed;

pub mod synth;
pub mod table;

pub mod render;
pub mod spec;
pub mod visual;

pub mod query;
pub mod questions;
pub mod reader;
pub mod realize;

pub mod benchmark;
pub mod perturb;
pub mod suite;

pub mod secrets;

pub mod adapter;
pub mod extract;
pub mod interop;
pub mod paraphrase;
pub mod prompt;
pub mod run;

pub mod report;
pub mod score;
pub mod stats;

/// Tool version recorded in every manifest.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
