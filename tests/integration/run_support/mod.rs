//! Shared helpers of the `run_*` integration tests: a tiny suite written in
//! code (items.jsonl, charts.jsonl, a real PNG with printed text), the binary,
//! and a raw HTTP/1.1 server on 127.0.0.1 that can misbehave on purpose.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use chartstress::ir::{
    Answer, AnswerKind, Cell, ChartKind, ChartRecord, ChartSpec, Column, ColumnType, Item, Layout,
    PanelScene, PanelSpec, Prediction, Query, QuestionType, Realization, Scene, SetName, Style,
    Table, TableMeta,
};

pub const CATEGORIES: [&str; 3] = ["Asia", "Europe", "Africa"];
pub const VALUES: [f64; 3] = [42.0, 1234.0, 7.0];
pub const TITLE: &str = "Sales by Region";

pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_chartstress"))
}

/// Runs `cmd`; the test fails with its stderr unless it succeeds.
pub fn succeed(cmd: &mut Command) -> std::process::Output {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{:?}: {}",
        cmd.get_args().collect::<Vec<_>>(),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `chartstress run SUITE ARGS… --no-progress`, which must succeed.
pub fn run_cli(suite: &Path, args: &[&str]) -> std::process::Output {
    succeed(bin().arg("run").arg(suite).args(args).arg("--no-progress"))
}

pub fn table() -> Table {
    Table {
        id: "sales".into(),
        source_path: None,
        meta: TableMeta {
            title: Some(TITLE.into()),
            ..TableMeta::default()
        },
        index: Column {
            name: "Region".into(),
            ctype: ColumnType::Text,
            format: Default::default(),
            cells: CATEGORIES
                .iter()
                .map(|c| Cell::Text(c.to_string()))
                .collect(),
        },
        series: vec![Column {
            name: "Sales".into(),
            ctype: ColumnType::Number,
            format: Default::default(),
            cells: VALUES.iter().map(|v| Cell::Number(*v)).collect(),
        }],
    }
}

pub fn chart_record(id: &str, image: &str) -> ChartRecord {
    let style = Style::default();
    let spec = ChartSpec {
        source_line: None,
        width: 640,
        height: 480,
        title: None,
        style: style.clone(),
        layout: Layout::Single {
            panel: PanelSpec {
                kind: ChartKind::Bar,
                table: table(),
                series: vec!["Sales".into()],
                title: Some(TITLE.into()),
                x_label: None,
                y_label: None,
                style,
                annotation: None,
                subtitle: None,
                samples: None,
                pinned: None,
            },
        },
    };
    let scene = Scene {
        width: 640,
        height: 480,
        title: None,
        grid: (1, 1),
        panels: vec![PanelScene {
            index: 0,
            row: 0,
            col: 0,
            kind: ChartKind::Bar,
            table_id: "sales".into(),
            plot_area: Default::default(),
            title: None,
            subtitle: None,
            x_label: None,
            y_label: None,
            x_ticks: vec![],
            y_ticks: vec![],
            log_y: false,
            marks: vec![],
            legend: vec![],
            direct_labels: vec![],
            annotation: None,
            heatmap: None,
            stat: None,
            category_labels: Vec::new(),
            radar: None,
            dual_axis: None,
        }],
        kpis: vec![],
        paragraph: None,
        extra_text: vec![],
        figure: None,
    };
    ChartRecord {
        id: id.into(),
        image: image.into(),
        spec,
        scene,
    }
}

/// A bar chart drawn as SVG and rasterized with the crate's fonts: a title,
/// three bars with printed values and category labels — text OCR can read.
pub fn chart_png(bar_color: &str) -> Vec<u8> {
    let mut svg = String::from(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480"><rect width="640" height="480" fill="white"/>"#,
    );
    svg.push_str(&format!(
        r#"<text x="320" y="50" font-family="DejaVu Sans" font-size="30" text-anchor="middle">{TITLE}</text>"#
    ));
    let heights = [120.0, 300.0, 40.0];
    let labels = ["42", "1,234", "7"];
    for (k, cat) in CATEGORIES.iter().enumerate() {
        let x = 120.0 + 170.0 * k as f64;
        let h = heights[k];
        svg.push_str(&format!(
            r#"<rect x="{x}" y="{}" width="90" height="{h}" fill="{bar_color}"/>"#,
            420.0 - h
        ));
        svg.push_str(&format!(
            r#"<text x="{}" y="{}" font-family="DejaVu Sans" font-size="20" text-anchor="middle">{}</text>"#,
            x + 45.0,
            410.0 - h,
            labels[k]
        ));
        svg.push_str(&format!(
            r#"<text x="{}" y="450" font-family="DejaVu Sans" font-size="20" text-anchor="middle">{cat}</text>"#,
            x + 45.0
        ));
    }
    svg.push_str("</svg>");
    let mut opts = resvg::usvg::Options::default();
    opts.fontdb_mut()
        .load_font_data(dejavu::sans::regular().to_vec());
    let tree = resvg::usvg::Tree::from_str(&svg, &opts).expect("svg parses");
    let mut pixmap = resvg::tiny_skia::Pixmap::new(640, 480).expect("pixmap");
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    let rgba = image::RgbaImage::from_raw(640, 480, pixmap.data().to_vec()).expect("rgba");
    let mut png = Vec::new();
    image::DynamicImage::ImageRgba8(rgba)
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("png encodes");
    png
}

fn item(
    id: &str,
    set: SetName,
    chart: &str,
    question: String,
    query: Query,
    answer: Answer,
) -> Item {
    let answerable = answer != Answer::Unanswerable;
    Item {
        id: id.into(),
        set,
        origin: None,
        chart_id: chart.into(),
        image: format!("images/{chart}.png"),
        table_id: "sales".into(),
        chart_kind: ChartKind::Bar,
        question,
        question_type: QuestionType::Factoid,
        family: match query {
            Query::Title { .. } => "title".into(),
            _ => "value_at".into(),
        },
        query,
        answer_text: answer.to_text(),
        answer,
        answer_kind: AnswerKind::NumberInChart,
        answerable,
        choices: vec![],
        history: vec![],
        paragraph: None,
        realization: Realization::default(),
        perturbations: vec![],
        visual_distance: None,
        reading_change: None,
    }
}

/// Writes a suite with `n` items, alternating value and title questions
/// over two charts (original set on chart c1, modified_chart on c2). Each
/// question contains its marker `[qK]` so servers can tell items apart.
pub fn tiny_suite(dir: &Path, n: usize) -> PathBuf {
    let suite = dir.join("suite");
    std::fs::create_dir_all(suite.join("images")).unwrap();
    std::fs::write(suite.join("images/c1.png"), chart_png("#1f77b4")).unwrap();
    std::fs::write(suite.join("images/c2.png"), chart_png("#ff7f0e")).unwrap();
    let charts = [
        chart_record("c1", "images/c1.png"),
        chart_record("c2", "images/c2.png"),
    ];
    let mut lines = String::new();
    for c in &charts {
        lines.push_str(&serde_json::to_string(c).unwrap());
        lines.push('\n');
    }
    std::fs::write(suite.join("charts.jsonl"), lines).unwrap();
    let mut items = String::new();
    for k in 0..n {
        let (set, chart) = if k % 2 == 0 {
            (SetName::Original, "c1")
        } else {
            (SetName::ModifiedChart, "c2")
        };
        let id = format!("q{k}");
        let it = match k % 4 {
            3 => item(
                &id,
                set,
                chart,
                format!("[{id}] What is the title of the chart?"),
                Query::Title { panel: 0 },
                Answer::Text {
                    value: TITLE.into(),
                },
            ),
            _ => {
                let c = k % 3;
                item(
                    &id,
                    set,
                    chart,
                    format!("[{id}] What is the value of Sales for {}?", CATEGORIES[c]),
                    Query::ValueAt {
                        panel: 0,
                        series: "Sales".into(),
                        category: CATEGORIES[c].into(),
                    },
                    Answer::Number {
                        value: VALUES[c],
                        decimals: 0,
                        unit: None,
                    },
                )
            }
        };
        items.push_str(&serde_json::to_string(&it).unwrap());
        items.push('\n');
    }
    std::fs::write(suite.join("items.jsonl"), items).unwrap();
    std::fs::write(suite.join("suite.json"), "{}\n").unwrap();
    suite
}

pub fn items(suite: &Path) -> Vec<Item> {
    chartstress::run::suite_files::read_items(suite).unwrap()
}

pub fn predictions(suite: &Path, run: &str) -> Vec<Prediction> {
    chartstress::run::read_predictions(&suite.join("runs").join(run).join("predictions.jsonl"))
        .unwrap()
}

/// The `[qK]` marker inside a text.
pub fn marker(text: &str) -> Option<String> {
    let start = text.find("[q")? + 1;
    let end = start + text[start..].find(']')?;
    Some(text[start..end].to_string())
}

// ---------------------------------------------------------------------------
// A raw HTTP/1.1 server, so faults such as dropped connections are real.

pub struct HttpRequest {
    pub path: String,
    /// Header names lower-cased.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl HttpRequest {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

pub enum Action {
    Respond {
        status: u16,
        headers: Vec<(String, String)>,
        body: String,
    },
    /// Wait, then respond.
    Delay(Duration, Box<Action>),
    /// Close the connection without answering.
    Drop,
}

impl Action {
    pub fn json(status: u16, body: String) -> Action {
        Action::Respond {
            status,
            headers: vec![],
            body,
        }
    }
}

pub type Handler = Arc<dyn Fn(&HttpRequest) -> Action + Send + Sync>;

/// Serves on a free port of 127.0.0.1 until the process ends; returns the base URL.
pub fn serve(handler: Handler) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let handler = handler.clone();
            std::thread::spawn(move || connection(stream, handler));
        }
    });
    format!("http://{addr}/v1")
}

fn connection(stream: TcpStream, handler: Handler) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        let path = request_line
            .split_whitespace()
            .nth(1)
            .unwrap_or("/")
            .to_string();
        let mut length = 0usize;
        let mut headers = Vec::new();
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).unwrap_or(0) == 0 {
                return;
            }
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((k, v)) = header.split_once(':') {
                if k.eq_ignore_ascii_case("content-length") {
                    length = v.trim().parse().unwrap_or(0);
                }
                headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
            }
        }
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let mut action = handler(&HttpRequest {
            path,
            headers,
            body,
        });
        loop {
            match action {
                Action::Delay(d, next) => {
                    std::thread::sleep(d);
                    action = *next;
                }
                Action::Drop => {
                    let _ = writer.shutdown(Shutdown::Both);
                    return;
                }
                Action::Respond {
                    status,
                    headers,
                    body,
                } => {
                    let mut head = format!(
                        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
                        body.len()
                    );
                    for (k, v) in headers {
                        head.push_str(&format!("{k}: {v}\r\n"));
                    }
                    head.push_str("\r\n");
                    if writer
                        .write_all(head.as_bytes())
                        .and_then(|_| writer.write_all(body.as_bytes()))
                        .and_then(|_| writer.flush())
                        .is_err()
                    {
                        return;
                    }
                    break;
                }
            }
        }
    }
}

/// A chat-completions body with `content`.
pub fn completion(content: serde_json::Value) -> String {
    serde_json::json!({
        "id": "x",
        "object": "chat.completion",
        "choices": [{ "index": 0, "message": { "role": "assistant", "content": content }, "finish_reason": "stop" }],
        "usage": { "prompt_tokens": 10, "completion_tokens": 3 }
    })
    .to_string()
}
