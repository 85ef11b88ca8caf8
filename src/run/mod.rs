//! Resumable runs of an adapter over a suite (issue 5).
