//! Scoring metrics (issue 6).
