//! Chart and question perturbations (issue 4).
