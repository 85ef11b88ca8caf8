//! Rendering chart specs to SVG, PNG and Scene (issue 2).
