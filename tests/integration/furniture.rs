//! Text furniture from a sidecar: a subtitle under the title and a note
//! above the source line, drawn where a reader expects them (checked on the
//! scene and on the pixels), and asked about with golds equal to what the
//! sidecar says.

use std::path::{Path, PathBuf};

use chartstress::ir::{BBox, ChartKind};
use serde_json::{Value, json};

use crate::support::{bin, jsonl, run_ok};

const SUBTITLE: &str = "Net generation in thousand megawatt hours";
const NOTE: &str = "Renewables are mostly wind; figures for 2017 are preliminary.";

/// A real table of the corpus with a sidecar that adds a subtitle and a
/// note (under the key `note`, which `footnote` also names).
fn table_with_furniture(dir: &Path) -> PathBuf {
    let real = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/real");
    let name = "iowa_electricity_by_source";
    let csv = dir.join(format!("{name}.csv"));
    std::fs::copy(real.join(format!("{name}.csv")), &csv).unwrap();
    let mut meta: Value = serde_json::from_str(
        &std::fs::read_to_string(real.join(format!("{name}.meta.json"))).unwrap(),
    )
    .unwrap();
    meta["subtitle"] = json!(SUBTITLE);
    meta["note"] = json!(NOTE);
    std::fs::write(dir.join(format!("{name}.meta.json")), meta.to_string()).unwrap();
    csv
}

fn bottom(b: &BBox) -> f32 {
    b.y + b.h
}

#[test]
fn subtitles_and_notes_are_drawn_under_the_title_and_above_the_source() {
    let dir = tempfile::tempdir().unwrap();
    let table = chartstress::table::load_table(&table_with_furniture(dir.path())).unwrap();
    assert_eq!(table.meta.subtitle.as_deref(), Some(SUBTITLE));
    assert_eq!(table.meta.footnote.as_deref(), Some(NOTE));
    let style = chartstress::spec::theme("classic").unwrap();
    for kind in [ChartKind::Line, ChartKind::StackedBar] {
        let mut spec = chartstress::spec::single(&table, kind, &style).unwrap();
        spec.source_line = table.meta.source.clone();
        let drawn = chartstress::render::render(&spec).unwrap();
        let scene = &drawn.scene;
        let panel = &scene.panels[0];
        let title = panel.title.as_ref().unwrap();
        let subtitle = panel.subtitle.as_ref().expect("subtitle in the scene");
        assert_eq!(subtitle.text, SUBTITLE);
        assert!(
            bottom(&title.bbox) <= subtitle.bbox.y,
            "{kind:?}: under the title"
        );
        assert!(
            bottom(&subtitle.bbox) <= panel.plot_area.y,
            "{kind:?}: above the plot"
        );
        let note = scene
            .extra_text
            .iter()
            .find(|t| t.text.starts_with("Note: "))
            .expect("note in the scene");
        assert_eq!(note.text, format!("Note: {NOTE}"));
        let source = scene
            .extra_text
            .iter()
            .find(|t| t.text.starts_with("Source: "))
            .unwrap();
        let x_label = panel.x_label.as_ref().unwrap();
        assert!(
            bottom(&x_label.bbox) <= note.bbox.y,
            "{kind:?}: note under the axis title"
        );
        assert!(
            bottom(&note.bbox) <= source.bbox.y,
            "{kind:?}: note above the source"
        );
        assert!(bottom(&source.bbox) <= scene.height as f32);

        // The pixels say the same: without the furniture, the subtitle's and
        // the note's boxes are blank.
        let mut bare_table = table.clone();
        bare_table.meta.subtitle = None;
        bare_table.meta.footnote = None;
        let mut bare = chartstress::spec::single(&bare_table, kind, &style).unwrap();
        bare.source_line = table.meta.source.clone();
        let bare = chartstress::render::render(&bare).unwrap();
        let ink = |png: &[u8], b: &BBox| -> usize {
            let img = image::load_from_memory(png).unwrap().to_rgb8();
            let (x0, y0) = (b.x.max(0.0) as u32, b.y.max(0.0) as u32);
            let (x1, y1) = (
                (b.x + b.w).min(img.width() as f32) as u32,
                (b.y + b.h).min(img.height() as f32) as u32,
            );
            (y0..y1)
                .flat_map(|y| (x0..x1).map(move |x| (x, y)))
                .filter(|&(x, y)| img.get_pixel(x, y).0.iter().any(|&c| c < 160))
                .count()
        };
        for b in [&subtitle.bbox, &note.bbox] {
            assert!(ink(&drawn.png, b) > 50, "{kind:?}: text drawn in {b:?}");
        }
        assert!(bare.scene.panels[0].subtitle.is_none());
        assert!(
            !bare
                .scene
                .extra_text
                .iter()
                .any(|t| t.text.starts_with("Note")),
            "no note without a footnote"
        );
    }
}

#[test]
fn subtitle_and_note_questions_are_answered_from_the_picture() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    std::fs::create_dir(&tables).unwrap();
    table_with_furniture(&tables);
    let suite = dir.path().join("suite");
    run_ok(
        bin()
            .arg("generate")
            .arg(&tables)
            .arg("--out")
            .arg(&suite)
            .args(["--families", "subtitle,note", "--questions-per-chart", "8"])
            .arg("--quiet"),
    );
    let items = jsonl(&suite.join("items.jsonl"));
    let asked: Vec<&Value> = items
        .iter()
        .filter(|i| i["family"] == "subtitle" || i["family"] == "note")
        .collect();
    assert!(
        asked.iter().any(|i| i["family"] == "subtitle")
            && asked.iter().any(|i| i["family"] == "note"),
        "both families asked"
    );
    // Golds are what the sidecar says, whatever the wording; claims about
    // them are true exactly when they quote it, and a false one quotes
    // another line of the chart's prose.
    for item in &asked {
        let expected = if item["family"] == "subtitle" {
            SUBTITLE
        } else {
            NOTE
        };
        let question = item["question"].as_str().unwrap();
        match item["question_type"].as_str().unwrap() {
            "factoid" if item["answerable"] == true => {
                assert_eq!(item["answer_text"], expected, "{question}")
            }
            "fact_check" => {
                // A quoted sentence's full stop gives way to the question mark.
                let truth = if question.contains(expected.trim_end_matches('.')) {
                    "True"
                } else {
                    "False"
                };
                assert_eq!(item["answer_text"], truth, "{question}");
                assert!(!question.contains("Year"), "{question}");
                assert!(!question.contains(".."), "{question}");
            }
            _ => {}
        }
    }
    for adapter in ["oracle", "reader"] {
        run_ok(
            bin()
                .arg("run")
                .arg(&suite)
                .args(["--adapter", adapter, "--name", adapter]),
        );
        let predictions = jsonl(&suite.join(format!("runs/{adapter}/predictions.jsonl")));
        for item in &asked {
            let p = predictions.iter().find(|p| p["id"] == item["id"]).unwrap();
            assert_eq!(
                p["answer"], item["answer_text"],
                "{adapter}: {}",
                item["question"]
            );
        }
    }
}
