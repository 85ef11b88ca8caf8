//! Requests per second through the `openai` adapter against an instant local
//! chat-completions server (tiny_http on 127.0.0.1) at concurrency 64: the
//! adapter's own cost (request JSON with a base64 PNG, HTTP, parsing, the
//! concurrency limiter), so the tool is never the bottleneck.

use std::sync::Arc;
use std::time::Duration;

use chartstress::adapter::{self, Adapter, AdapterOptions, Request};
use chartstress::ir::{
    Answer, AnswerKind, ChartKind, Item, Query, QuestionType, Realization, SetName,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const CONCURRENCY: usize = 64;
const BATCH: usize = 2000;

fn server() -> String {
    let server = Arc::new(tiny_http::Server::http("127.0.0.1:0").expect("bind"));
    let addr = server.server_addr().to_ip().expect("ip address");
    let body = r#"{"choices":[{"message":{"role":"assistant","content":"The answer is 42."}}],"usage":{"prompt_tokens":100,"completion_tokens":5}}"#;
    for _ in 0..8 {
        let server = server.clone();
        std::thread::spawn(move || {
            while let Ok(mut req) = server.recv() {
                let mut sink = Vec::new();
                let _ = std::io::Read::read_to_end(req.as_reader(), &mut sink);
                let _ = req.respond(tiny_http::Response::from_string(body).with_header(
                    tiny_http::Header::from_bytes("Content-Type", "application/json").unwrap(),
                ));
            }
        });
    }
    format!("http://{addr}/v1")
}

fn request(k: usize, png: &Arc<Vec<u8>>) -> Request {
    let item = Item {
        id: format!("item-{k}"),
        set: SetName::Original,
        origin: None,
        chart_id: "c".into(),
        image: "images/c.png".into(),
        table_id: "t".into(),
        chart_kind: ChartKind::Bar,
        question: "What is the value of Sales for Asia?".into(),
        question_type: QuestionType::Factoid,
        family: "value_at".into(),
        query: Query::Title { panel: 0 },
        answer: Answer::Unanswerable,
        answer_text: "Unanswerable".into(),
        answer_kind: AnswerKind::NumberInChart,
        answerable: false,
        choices: vec![],
        history: vec![],
        paragraph: None,
        realization: Realization::default(),
        perturbations: vec![],
        visual_distance: None,
        reading_change: None,
    };
    Request {
        item_id: item.id.clone(),
        image_png: png.clone(),
        question: item.question.clone(),
        prompt: format!(
            "Look at the chart and answer the question.\nQuestion: {}",
            item.question
        ),
        question_type: item.question_type,
        history: vec![],
        paragraph: None,
        choices: vec![],
        item: Arc::new(item),
    }
}

fn bench(c: &mut Criterion) {
    let url = server();
    let opts = AdapterOptions {
        base_url: url,
        model: Some("bench".into()),
        concurrency: CONCURRENCY,
        timeout: Duration::from_secs(30),
        ..AdapterOptions::default()
    };
    let adapter: Arc<dyn Adapter> = adapter::build("openai", &opts).expect("adapter");
    // A typical chart PNG is tens of kilobytes; its base64 encoding is part of the cost.
    let png = Arc::new(
        (0..40_000u32)
            .map(|i| (i * 31 % 251) as u8)
            .collect::<Vec<u8>>(),
    );
    let requests: Vec<Request> = (0..BATCH).map(|k| request(k, &png)).collect();
    let mut group = c.benchmark_group("openai_adapter");
    group.throughput(Throughput::Elements(BATCH as u64));
    group.sample_size(10);
    group.bench_function("instant_server_concurrency_64", |b| {
        b.iter(|| {
            let next = std::sync::atomic::AtomicUsize::new(0);
            std::thread::scope(|s| {
                for _ in 0..CONCURRENCY {
                    s.spawn(|| {
                        loop {
                            let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(req) = requests.get(k) else { break };
                            adapter.answer(req).expect("answer");
                        }
                    });
                }
            });
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
