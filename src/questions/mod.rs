//! Question generation for every question type (issue 3).
