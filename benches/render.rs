//! End-to-end chart rendering: spec → SVG → PNG bytes, 800×600, one thread.
//! Run with `cargo bench --features bench --bench render`. Two-thread throughput over 200
//! charts is printed by `cargo test --release --test render throughput -- --ignored --nocapture`.

use chartstress::ir::{Cell, ChartKind, Column, ColumnType, NumberFormat, Table, TableMeta};
use chartstress::{render, spec};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn column(name: &str, values: &[f64]) -> Column {
    Column {
        name: name.into(),
        ctype: ColumnType::Number,
        format: NumberFormat::default(),
        cells: values.iter().copied().map(Cell::Number).collect(),
    }
}

fn bar_table() -> Table {
    Table {
        id: "fruit".into(),
        source_path: None,
        meta: TableMeta {
            title: Some("Fruit sales in 2023".into()),
            ..Default::default()
        },
        index: Column {
            name: "Fruit".into(),
            ctype: ColumnType::Text,
            format: NumberFormat::default(),
            cells: [
                "Apples",
                "Bananas",
                "Cherries",
                "Dates",
                "Elderberries",
                "Figs",
            ]
            .iter()
            .map(|s| Cell::Text(s.to_string()))
            .collect(),
        },
        series: vec![column("Sales", &[120.0, 95.0, 143.0, 40.0, 77.0, 61.0])],
    }
}

fn line_table() -> Table {
    Table {
        id: "energy".into(),
        source_path: None,
        meta: TableMeta {
            title: Some("Electricity generation by source".into()),
            ..Default::default()
        },
        index: Column {
            name: "Year".into(),
            ctype: ColumnType::Year,
            format: NumberFormat::default(),
            cells: (2011..=2022).map(Cell::Year).collect(),
        },
        series: vec![
            column(
                "Coal",
                &[
                    340.0, 330.0, 320.0, 300.0, 280.0, 250.0, 210.0, 180.0, 190.0, 160.0, 150.0,
                    140.0,
                ],
            ),
            column(
                "Gas",
                &[
                    140.0, 145.0, 150.0, 160.0, 170.0, 175.0, 180.0, 170.0, 165.0, 172.0, 168.0,
                    160.0,
                ],
            ),
            column(
                "Wind",
                &[
                    20.0, 30.0, 40.0, 55.0, 70.0, 90.0, 115.0, 140.0, 150.0, 180.0, 200.0, 230.0,
                ],
            ),
        ],
    }
}

fn bench(c: &mut Criterion) {
    let style = spec::theme("classic").expect("classic theme");
    let mut group = c.benchmark_group("render_800x600");
    group.throughput(Throughput::Elements(1));
    for (name, table, kind) in [
        ("bar", bar_table(), ChartKind::Bar),
        ("line", line_table(), ChartKind::Line),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let chart = spec::single(&table, kind, &style).expect("spec");
                render::render(&chart).expect("render").png
            })
        });
    }
    group.finish();
}

fn config() -> Criterion {
    // Charts take milliseconds: 40 samples over 4 s give stable figures quickly.
    Criterion::default()
        .sample_size(40)
        .measurement_time(std::time::Duration::from_secs(4))
        .warm_up_time(std::time::Duration::from_secs(1))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench
}
criterion_main!(benches);
