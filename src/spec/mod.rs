//! Building chart specs: themes, styles, kinds, layouts (issue 2).
