//! Question stage: executor on hand-checked tables, refusals, realizers,
//! balance of MCQ letters and fact-check truth, unanswerable variants.

use chartstress::ir::query::{AggregateOp, Axis, CellRef, Query};
use chartstress::ir::{Answer, ChartKind, ChartSpec, QuestionType, Scene};
use chartstress::query::testing::{
    category_table, grid, panel, scene_for, series, single, year_table,
};
use chartstress::query::{RefusalKind, execute};
use chartstress::questions::{QuestionOptions, generate};
use chartstress::realize::{realize, realizers};

fn sales_chart(kind: ChartKind) -> (ChartSpec, Scene) {
    let t = year_table(
        "sales",
        2018,
        vec![
            series(
                "North",
                &[Some(10.0), Some(14.0), Some(19.0), Some(25.0)],
                0,
            ),
            series(
                "South",
                &[Some(30.0), Some(22.0), Some(16.0), Some(12.0)],
                0,
            ),
        ],
    );
    let spec = single(&t, kind);
    let scene = scene_for(&spec);
    (spec, scene)
}

#[test]
fn print_samples() {
    let (spec, scene) = sales_chart(ChartKind::Line);
    let qs = generate(
        "c1",
        &spec,
        &scene,
        &QuestionOptions {
            count: 30,
            ..Default::default()
        },
    );
    for q in &qs {
        println!(
            "[{}] {} | {} => {}",
            q.question_type.name(),
            q.family,
            q.text,
            q.answer.to_text()
        );
        for r in realizers() {
            if let Some(p) = realize(q, r, &spec, &scene, 7) {
                println!("    {r}: {}", p.text);
            }
        }
    }
}
