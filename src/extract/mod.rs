//! Answer extraction from raw model text (issue 5).
