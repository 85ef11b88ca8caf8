//! Synthesized tables (issue 2).
