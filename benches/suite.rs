//! Suite generation throughput: a ~2,000-item suite from synthesized tables,
//! at 1 and 2 threads. Criterion reports items/s; charts/s is printed once
//! per configuration (charts = distinct images written).

use std::time::Instant;

use chartstress::suite::{SuiteConfig, generate_suite};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// 84 tables × 2 charts × 4 questions × 3 sets ≈ 2,000 items.
const TABLES: usize = 84;

fn bench_suite(c: &mut Criterion) {
    let tables = chartstress::synth::synth_tables(1, TABLES);
    let config = SuiteConfig {
        seed: 1,
        ..SuiteConfig::default()
    };
    let out = tempfile::tempdir().expect("temp dir");
    let mut group = c.benchmark_group("suite");
    group.sample_size(10);
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool");
        let start = Instant::now();
        let summary = pool
            .install(|| generate_suite(&tables, &config, out.path(), false))
            .expect("suite generates");
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "{threads} thread(s): {} items, {} charts in {secs:.2}s = {:.0} items/s, {:.0} charts/s",
            summary.items,
            summary.charts,
            summary.items as f64 / secs,
            summary.charts as f64 / secs
        );
        group.throughput(Throughput::Elements(summary.items));
        group.bench_function(
            format!("generate_{}_items/{threads}_threads", summary.items),
            |b| {
                b.iter(|| {
                    pool.install(|| generate_suite(&tables, &config, out.path(), false))
                        .expect("suite generates")
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench_suite);
criterion_main!(benches);
