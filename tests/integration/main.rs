//! The integration tests, one test crate: each module runs the real binary
//! (or the library) on real files. One crate links once instead of once per
//! file, which is most of what a fresh `cargo test` spends.

mod fuzz_support;
mod run_support;
mod support;

mod annotations;
mod browse_stats;
mod composites;
mod date_formats;
mod demo;
mod every_kind;
mod furniture;
mod fuzz_process;
mod fuzz_tables;
mod giveaways;
mod golds;
mod heatmap;
mod hostile;
mod import_benchmark;
mod interop;
mod interop_hf;
mod interop_inspect;
mod kind_scenes;
mod kinds_combo;
mod kinds_dist;
mod kinds_dual;
mod kinds_figure;
mod kinds_perturb_matrix;
mod kinds_shape;
mod kinds_stat;
mod new_kinds;
mod pairs;
mod paraphrase;
mod perturb;
mod perturb_scene;
mod questions;
mod questions_e2e;
mod readable;
mod real_corpus;
mod real_raw_corpus;
mod render;
mod report;
mod run_baselines;
mod run_command;
mod run_generated;
mod run_openai;
mod run_robustness;
mod scaleout;
mod score;
mod score_python;
mod secrets;
mod suite;
mod synth;
mod tables;
mod time_axis;
