//! Rendering: PNG validity, text really drawn, determinism, scene ↔ data.

mod support;

use chartstress::ir::{ChartKind, ChartSpec};
use chartstress::{render, spec};

fn single(table: &chartstress::ir::Table, kind: ChartKind, theme: &str) -> ChartSpec {
    spec::single(table, kind, &spec::theme(theme).unwrap()).unwrap()
}

/// Writes sample PNGs for eyeballing: `SAMPLES=dir cargo test --test render samples -- --ignored`.
#[test]
#[ignore]
fn samples() {
    let dir = std::path::PathBuf::from(
        std::env::var("SAMPLES").unwrap_or_else(|_| "target/samples".into()),
    );
    std::fs::create_dir_all(&dir).unwrap();
    let tables = [
        support::fruit(),
        support::energy(),
        support::shares(),
        support::countries(),
        support::cities(),
        support::profit(),
    ];
    let themes: Vec<String> = std::env::var("THEMES")
        .map(|t| t.split(',').map(str::to_string).collect())
        .unwrap_or_else(|_| vec!["classic".into()]);
    for theme in &themes {
        for t in &tables {
            for kind in spec::suitable_kinds(t) {
                let s = single(t, kind, theme);
                let r = render::render(&s).unwrap();
                let name = format!("{}_{}_{}", t.id, kind.name(), theme);
                std::fs::write(dir.join(format!("{name}.png")), &r.png).unwrap();
                std::fs::write(dir.join(format!("{name}.svg")), &r.svg).unwrap();
                std::fs::write(
                    dir.join(format!("{name}.json")),
                    serde_json::to_string_pretty(&r.scene).unwrap(),
                )
                .unwrap();
            }
        }
    }
}
