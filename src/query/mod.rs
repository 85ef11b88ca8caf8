//! Query executor over tables and scenes (issue 3).
