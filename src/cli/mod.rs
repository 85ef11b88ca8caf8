//! Command-line front end: one file per subcommand, each parsing its
//! arguments and calling the library.

pub mod ask;
pub mod browse;
pub mod check;
pub mod demo;
pub mod gallery;
pub mod generate;
pub mod merge;
pub mod render;
pub mod report;
pub mod run;
pub mod score;
pub mod stats;
pub mod synth;
