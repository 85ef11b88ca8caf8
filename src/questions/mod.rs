//! Question generation for every question type (issue 3).

mod types;

pub use types::Question;
