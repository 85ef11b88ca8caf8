//! Prompt strategies and templates (issue 5).
