//! Realizers turning queries into text (issue 3).
