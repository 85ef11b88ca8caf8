//! Reports and the CI gate (issue 6).
