//! The built-in themes, embedded so the binary works from any directory.
//! A new theme is one TOML file plus one line here.

pub const THEMES: &[(&str, &str)] = &[
    (
        "classic",
        include_str!("../../templates/themes/classic.toml"),
    ),
    (
        "newsprint",
        include_str!("../../templates/themes/newsprint.toml"),
    ),
    (
        "business",
        include_str!("../../templates/themes/business.toml"),
    ),
    (
        "spreadsheet",
        include_str!("../../templates/themes/spreadsheet.toml"),
    ),
    ("paper", include_str!("../../templates/themes/paper.toml")),
    ("dark", include_str!("../../templates/themes/dark.toml")),
    (
        "minimal",
        include_str!("../../templates/themes/minimal.toml"),
    ),
    (
        "grayscale",
        include_str!("../../templates/themes/grayscale.toml"),
    ),
    ("pastel", include_str!("../../templates/themes/pastel.toml")),
    (
        "contrast",
        include_str!("../../templates/themes/contrast.toml"),
    ),
    (
        "terminal",
        include_str!("../../templates/themes/terminal.toml"),
    ),
];
