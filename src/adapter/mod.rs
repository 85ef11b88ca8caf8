//! Model adapters (issue 5).
