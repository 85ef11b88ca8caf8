//! Paired statistics: Wilson intervals, bootstrap, McNemar (issue 6).
