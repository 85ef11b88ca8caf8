//! Question stage: executor on hand-checked tables, refusals, descriptive
//! answers from the scene, realizer round trips, MCQ letter and fact-check
//! balance, unanswerable variants, paraphrase distance from canonical.

use std::collections::BTreeMap;

use chartstress::ir::query::{AggregateOp, Axis, CellRef, Change, Query};
use chartstress::ir::{Answer, ChartKind, ChartSpec, QuestionType, Scene, Table};
use chartstress::query::testing::{
    category_table, grid, panel, scene_for, series, single, year_table,
};
use chartstress::query::{RefusalKind, execute, family};
use chartstress::questions::{QuestionOptions, generate, reformat, unanswerable_variant};
use chartstress::realize::{realize, realizers};
use proptest::prelude::*;

fn sales_table() -> Table {
    year_table(
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
    )
}

fn chart(table: &Table, kind: ChartKind) -> (ChartSpec, Scene) {
    let spec = single(table, kind);
    let scene = scene_for(&spec);
    (spec, scene)
}

fn num(value: f64, decimals: u8) -> Answer {
    Answer::Number {
        value,
        decimals,
        unit: None,
    }
}

fn cell(series: &str, category: &str) -> CellRef {
    CellRef {
        series: series.into(),
        category: category.into(),
    }
}

fn run(q: Query, spec: &ChartSpec, scene: &Scene) -> Answer {
    execute(&q, spec, scene).unwrap_or_else(|r| panic!("{q:?} refused: {r}"))
}

fn refusal(q: Query, spec: &ChartSpec, scene: &Scene) -> RefusalKind {
    match execute(&q, spec, scene) {
        Err(r) => r.kind,
        Ok(a) => panic!("{q:?} answered {a:?}, expected a refusal"),
    }
}

fn approx(a: &Answer, value: f64, decimals: u8) -> bool {
    matches!(a, Answer::Number { value: v, decimals: d, .. } if (v - value).abs() < 1e-9 && *d == decimals)
}

#[test]
fn executor_answers_hand_checked_sales_table() {
    let (spec, scene) = chart(&sales_table(), ChartKind::Line);
    let p = 0;
    let s = |n: &str| Some(n.to_string());
    assert_eq!(
        run(
            Query::ValueAt {
                panel: p,
                series: "North".into(),
                category: "2020".into()
            },
            &spec,
            &scene
        ),
        num(19.0, 0)
    );
    assert_eq!(
        run(
            Query::Argmax {
                panel: p,
                series: s("North")
            },
            &spec,
            &scene
        ),
        Answer::Year { value: 2021 }
    );
    assert_eq!(
        run(
            Query::Argmin {
                panel: p,
                series: s("South")
            },
            &spec,
            &scene
        ),
        Answer::Year { value: 2021 }
    );
    assert_eq!(
        run(
            Query::Argmax {
                panel: p,
                series: None
            },
            &spec,
            &scene
        ),
        Answer::Year { value: 2018 }
    );
    assert_eq!(
        run(
            Query::MaxValue {
                panel: p,
                series: None
            },
            &spec,
            &scene
        ),
        num(30.0, 0)
    );
    assert_eq!(
        run(
            Query::MinValue {
                panel: p,
                series: s("North")
            },
            &spec,
            &scene
        ),
        num(10.0, 0)
    );
    assert_eq!(
        run(
            Query::Difference {
                panel: p,
                a: cell("North", "2021"),
                b: cell("North", "2018")
            },
            &spec,
            &scene
        ),
        num(15.0, 0)
    );
    assert_eq!(
        run(
            Query::Ratio {
                panel: p,
                a: cell("South", "2018"),
                b: cell("North", "2018"),
                decimals: 2
            },
            &spec,
            &scene
        ),
        num(3.0, 2)
    );
    let pc = run(
        Query::PercentChange {
            panel: p,
            series: "North".into(),
            from: "2018".into(),
            to: "2020".into(),
            decimals: 1,
        },
        &spec,
        &scene,
    );
    assert!(approx(&pc, 90.0, 1), "{pc:?}");
    let agg = |agg, series: &str, decimals| Query::Aggregate {
        panel: p,
        agg,
        series: series.into(),
        categories: vec![],
        decimals,
    };
    assert_eq!(
        run(agg(AggregateOp::Sum, "North", None), &spec, &scene),
        num(68.0, 0)
    );
    assert_eq!(
        run(agg(AggregateOp::Mean, "North", Some(1)), &spec, &scene),
        num(17.0, 1)
    );
    assert_eq!(
        run(agg(AggregateOp::Median, "South", Some(1)), &spec, &scene),
        num(19.0, 1)
    );
    let subset = Query::Aggregate {
        panel: p,
        agg: AggregateOp::Sum,
        series: "South".into(),
        categories: vec!["2018".into(), "2021".into()],
        decimals: None,
    };
    assert_eq!(run(subset, &spec, &scene), num(42.0, 0));
    assert_eq!(
        run(
            Query::CountThreshold {
                panel: p,
                series: "North".into(),
                threshold: 15.0,
                above: true
            },
            &spec,
            &scene
        ),
        num(2.0, 0)
    );
    assert_eq!(
        run(
            Query::Compare {
                panel: p,
                a: cell("North", "2021"),
                b: cell("South", "2021")
            },
            &spec,
            &scene
        ),
        Answer::YesNo { value: true }
    );
    assert_eq!(
        run(
            Query::Rank {
                panel: p,
                series: "North".into(),
                category: "2019".into()
            },
            &spec,
            &scene
        ),
        num(3.0, 0)
    );
    let trend = |s: &str| Query::Trend {
        panel: p,
        series: s.into(),
    };
    assert_eq!(
        run(trend("North"), &spec, &scene),
        Answer::Text {
            value: "increasing".into()
        }
    );
    assert_eq!(
        run(trend("South"), &spec, &scene),
        Answer::Text {
            value: "decreasing".into()
        }
    );
    assert_eq!(
        run(
            Query::LargestChange {
                panel: p,
                series: "North".into(),
                increase: true
            },
            &spec,
            &scene
        ),
        Answer::Year { value: 2021 }
    );
    assert_eq!(
        run(
            Query::LargestChange {
                panel: p,
                series: "South".into(),
                increase: false
            },
            &spec,
            &scene
        ),
        Answer::Year { value: 2019 }
    );
    assert_eq!(
        run(
            Query::MaxGap {
                panel: p,
                a: "North".into(),
                b: "South".into()
            },
            &spec,
            &scene
        ),
        Answer::Year { value: 2018 }
    );
    assert_eq!(
        run(
            Query::Crosses {
                panel: p,
                a: "North".into(),
                b: "South".into()
            },
            &spec,
            &scene
        ),
        Answer::YesNo { value: true }
    );
    assert_eq!(
        run(
            Query::Spread {
                panel: p,
                series: "North".into()
            },
            &spec,
            &scene
        ),
        num(15.0, 0)
    );
    assert_eq!(
        run(
            Query::TopMean {
                panel: p,
                series: "North".into(),
                k: 2,
                decimals: 1
            },
            &spec,
            &scene
        ),
        num(22.0, 1)
    );
}

#[test]
fn shares_of_a_pie() {
    let t = category_table(
        "fruit",
        "Fruit",
        &["Apples", "Pears", "Plums", "Figs"],
        vec![series(
            "Tonnes",
            &[Some(50.0), Some(30.0), Some(15.0), Some(5.0)],
            0,
        )],
    );
    let (spec, scene) = chart(&t, ChartKind::Pie);
    let share = run(
        Query::Share {
            panel: 0,
            series: "Tonnes".into(),
            category: "Pears".into(),
            decimals: 1,
        },
        &spec,
        &scene,
    );
    assert_eq!(
        share,
        Answer::Number {
            value: 30.0,
            decimals: 1,
            unit: Some("%".into())
        }
    );
    let both = run(
        Query::ShareSum {
            panel: 0,
            series: "Tonnes".into(),
            categories: vec!["Apples".into(), "Figs".into()],
            decimals: 1,
        },
        &spec,
        &scene,
    );
    assert!(approx(&both, 55.0, 1));
    assert_eq!(
        run(
            Query::Argmax {
                panel: 0,
                series: Some("Tonnes".into())
            },
            &spec,
            &scene
        ),
        Answer::Text {
            value: "Apples".into()
        }
    );
}

#[test]
fn hypothetical_conversation_and_wrappers() {
    let (spec, scene) = chart(&sales_table(), ChartKind::Bar);
    let base = Query::Aggregate {
        panel: 0,
        agg: AggregateOp::Sum,
        series: "North".into(),
        categories: vec![],
        decimals: None,
    };
    let hypo = Query::Hypothetical {
        base: Box::new(base.clone()),
        change: Change {
            panel: 0,
            series: "North".into(),
            category: Some("2021".into()),
            percent: 20.0,
        },
    };
    // 68 - 25 + 30 = 73.
    assert_eq!(run(hypo, &spec, &scene), num(73.0, 0));
    // 68 - 25 + 27.5 = 70.5: halfway between 70 and 71, so no one gold.
    let tie = Query::Hypothetical {
        base: Box::new(base.clone()),
        change: Change {
            panel: 0,
            series: "North".into(),
            category: Some("2021".into()),
            percent: 10.0,
        },
    };
    assert_eq!(refusal(tie, &spec, &scene), RefusalKind::TooClose);
    let mcq = Query::MultipleChoice {
        base: Box::new(base.clone()),
        options: vec!["50".into(), "68".into(), "90".into(), "20".into()],
    };
    assert_eq!(
        run(mcq, &spec, &scene),
        Answer::Choice {
            letter: 'b',
            text: "68".into()
        }
    );
    let close = Query::MultipleChoice {
        base: Box::new(base.clone()),
        options: vec!["66".into(), "68".into(), "90".into(), "20".into()],
    };
    assert_eq!(refusal(close, &spec, &scene), RefusalKind::TooClose);
    let fact = |claim: &str| Query::FactCheck {
        base: Box::new(base.clone()),
        claim: claim.into(),
    };
    assert_eq!(
        run(fact("68"), &spec, &scene),
        Answer::TrueFalse { value: true }
    );
    assert_eq!(
        run(fact("90"), &spec, &scene),
        Answer::TrueFalse { value: false }
    );
    assert_eq!(refusal(fact("70"), &spec, &scene), RefusalKind::TooClose);
    let conv = Query::Conversation {
        turns: vec![
            Query::Argmax {
                panel: 0,
                series: Some("North".into()),
            },
            Query::ValueAt {
                panel: 0,
                series: "North".into(),
                category: "2021".into(),
            },
        ],
    };
    assert_eq!(run(conv, &spec, &scene), num(25.0, 0));
    // "Its value" must refer to the argmax; a mismatched follow-up is refused.
    let wrong = Query::Conversation {
        turns: vec![
            Query::Argmax {
                panel: 0,
                series: Some("North".into()),
            },
            Query::ValueAt {
                panel: 0,
                series: "North".into(),
                category: "2019".into(),
            },
        ],
    };
    assert_eq!(refusal(wrong, &spec, &scene), RefusalKind::Unsupported);
}

#[test]
fn refusals() {
    let tie = year_table(
        "tie",
        2000,
        vec![series(
            "A",
            &[Some(5.0), Some(9.0), Some(9.0), Some(1.0)],
            0,
        )],
    );
    let (spec, scene) = chart(&tie, ChartKind::Bar);
    assert_eq!(
        refusal(
            Query::Argmax {
                panel: 0,
                series: Some("A".into())
            },
            &spec,
            &scene
        ),
        RefusalKind::Tie
    );
    assert_eq!(
        refusal(
            Query::Rank {
                panel: 0,
                series: "A".into(),
                category: "2001".into()
            },
            &spec,
            &scene
        ),
        RefusalKind::Tie
    );

    let missing = year_table(
        "gap",
        2000,
        vec![series("A", &[Some(5.0), None, Some(7.0)], 0)],
    );
    let (spec, scene) = chart(&missing, ChartKind::Line);
    assert_eq!(
        refusal(
            Query::ValueAt {
                panel: 0,
                series: "A".into(),
                category: "2001".into()
            },
            &spec,
            &scene
        ),
        RefusalKind::MissingCell
    );
    assert_eq!(
        refusal(
            Query::Trend {
                panel: 0,
                series: "A".into()
            },
            &spec,
            &scene
        ),
        RefusalKind::MissingCell
    );

    let meet = year_table(
        "meet",
        2000,
        vec![
            series("A", &[Some(1.0), Some(5.0), Some(9.0)], 0),
            series("B", &[Some(3.0), Some(5.0), Some(7.0)], 0),
        ],
    );
    let (spec, scene) = chart(&meet, ChartKind::Line);
    assert_eq!(
        refusal(
            Query::Crosses {
                panel: 0,
                a: "A".into(),
                b: "B".into()
            },
            &spec,
            &scene
        ),
        RefusalKind::CrossingAtTick
    );
    assert_eq!(
        refusal(Query::LinesIntersect { panel: 0 }, &spec, &scene),
        RefusalKind::CrossingAtTick
    );

    let dip = year_table(
        "dip",
        2000,
        vec![series(
            "A",
            &[Some(1.0), Some(5.0), Some(9.0), Some(8.9)],
            1,
        )],
    );
    let (spec, scene) = chart(&dip, ChartKind::Line);
    assert_eq!(
        refusal(
            Query::Trend {
                panel: 0,
                series: "A".into()
            },
            &spec,
            &scene
        ),
        RefusalKind::AmbiguousTrend
    );

    let halves = year_table("half", 2000, vec![series("A", &[Some(1.0), Some(2.0)], 0)]);
    let (spec, scene) = chart(&halves, ChartKind::Bar);
    let mean = Query::Aggregate {
        panel: 0,
        agg: AggregateOp::Mean,
        series: "A".into(),
        categories: vec![],
        decimals: Some(0),
    };
    // 1.5 is exact in decimal: it rounds half away from zero, no refusal.
    assert_eq!(run(mean, &spec, &scene).to_text(), "2");

    let close = category_table(
        "close",
        "Team",
        &["Red", "Blue"],
        vec![series("Points", &[Some(100.0), Some(100.5)], 1)],
    );
    let (spec, mut scene) = chart(&close, ChartKind::Bar);
    assert_eq!(
        refusal(
            Query::Compare {
                panel: 0,
                a: cell("Points", "Red"),
                b: cell("Points", "Blue")
            },
            &spec,
            &scene
        ),
        RefusalKind::TooClose
    );
    assert_eq!(
        refusal(
            Query::CountThreshold {
                panel: 0,
                series: "Points".into(),
                threshold: 100.2,
                above: true
            },
            &spec,
            &scene
        ),
        RefusalKind::TooClose
    );
    // A mark that does not show the table value is never trusted.
    scene.panels[0].marks[0].value = 42.0;
    assert_eq!(
        refusal(
            Query::ValueAt {
                panel: 0,
                series: "Points".into(),
                category: "Red".into()
            },
            &spec,
            &scene
        ),
        RefusalKind::NotDrawn
    );
}

#[test]
fn entities_and_elements_not_drawn_are_unanswerable() {
    let mut spec = single(&sales_table(), ChartKind::Bar);
    if let chartstress::ir::Layout::Single { panel } = &mut spec.layout {
        panel.series = vec!["North".into()];
        panel.title = None;
    }
    let scene = scene_for(&spec);
    // South exists in the table but is not drawn.
    assert_eq!(
        run(
            Query::ValueAt {
                panel: 0,
                series: "South".into(),
                category: "2019".into()
            },
            &spec,
            &scene
        ),
        Answer::Unanswerable
    );
    assert_eq!(
        run(
            Query::ValueAt {
                panel: 0,
                series: "North".into(),
                category: "2030".into()
            },
            &spec,
            &scene
        ),
        Answer::Unanswerable
    );
    assert_eq!(
        run(Query::Source { panel: 0 }, &spec, &scene),
        Answer::Unanswerable
    );
    // A chart element that is not drawn answers the same.
    let na = Answer::Unanswerable;
    assert_eq!(run(Query::Title { panel: 0 }, &spec, &scene), na);
    assert_eq!(run(Query::LegendLabels { panel: 0 }, &spec, &scene), na);
    assert_eq!(run(Query::LinesIntersect { panel: 0 }, &spec, &scene), na);
    assert_eq!(
        run(Query::LineCount { panel: 0 }, &spec, &scene),
        num(0.0, 0)
    );
}

#[test]
fn descriptive_answers_equal_the_scene() {
    let t = sales_table();
    let other = category_table(
        "fruit",
        "Fruit",
        &["Apples", "Pears"],
        vec![series("Tonnes", &[Some(5.0), Some(3.0)], 0)],
    );
    let spec = grid(
        2,
        2,
        vec![
            panel(&t, ChartKind::Line),
            panel(&other, ChartKind::Bar),
            panel(&t, ChartKind::Bar),
        ],
    );
    let scene = scene_for(&spec);
    let p = &scene.panels[0];
    let text = |s: &str| Answer::Text { value: s.into() };
    assert_eq!(
        run(Query::Title { panel: 0 }, &spec, &scene),
        text(&p.title.as_ref().unwrap().text)
    );
    assert_eq!(
        run(
            Query::AxisLabel {
                panel: 0,
                axis: Axis::X
            },
            &spec,
            &scene
        ),
        text("Year")
    );
    assert_eq!(
        run(
            Query::AxisLabel {
                panel: 0,
                axis: Axis::Y
            },
            &spec,
            &scene
        ),
        text("Value")
    );
    assert_eq!(
        run(
            Query::EdgeTick {
                panel: 0,
                axis: Axis::X,
                last: false
            },
            &spec,
            &scene
        ),
        Answer::Year { value: 2018 }
    );
    assert_eq!(
        run(
            Query::EdgeTick {
                panel: 0,
                axis: Axis::X,
                last: true
            },
            &spec,
            &scene
        ),
        Answer::Year { value: 2021 }
    );
    let top = p.y_ticks.last().unwrap();
    assert_eq!(
        run(
            Query::EdgeTick {
                panel: 0,
                axis: Axis::Y,
                last: true
            },
            &spec,
            &scene
        ),
        num(top.value.unwrap(), 0)
    );
    let step = p.y_ticks[1].value.unwrap() - p.y_ticks[0].value.unwrap();
    assert_eq!(
        run(
            Query::TickStep {
                panel: 0,
                axis: Axis::Y
            },
            &spec,
            &scene
        ),
        num(step, 0)
    );
    // Year ticks are labels of categories, with a constant step of one.
    assert_eq!(
        run(
            Query::TickStep {
                panel: 0,
                axis: Axis::X
            },
            &spec,
            &scene
        ),
        num(1.0, 0)
    );
    assert_eq!(
        run(
            Query::TickStep {
                panel: 1,
                axis: Axis::X
            },
            &spec,
            &scene
        ),
        Answer::Unanswerable
    );
    assert_eq!(
        run(Query::LineCount { panel: 0 }, &spec, &scene),
        num(2.0, 0)
    );
    assert_eq!(
        run(Query::LinesIntersect { panel: 0 }, &spec, &scene),
        Answer::YesNo { value: true }
    );
    assert_eq!(
        run(Query::LegendCount { panel: 0 }, &spec, &scene),
        num(2.0, 0)
    );
    assert_eq!(
        run(Query::LegendLabels { panel: 0 }, &spec, &scene),
        Answer::List {
            values: vec!["North".into(), "South".into()]
        }
    );
    assert_eq!(
        run(Query::LegendCount { panel: 1 }, &spec, &scene),
        Answer::Unanswerable
    );
    // Two bars are too few for a trend: refused, not guessed.
    assert_eq!(
        refusal(Query::GeneralTrend { panel: 1 }, &spec, &scene),
        RefusalKind::Unsupported
    );
    assert_eq!(
        run(Query::TickCount { panel: 0 }, &spec, &scene),
        num((p.x_ticks.len() + p.y_ticks.len()) as f64, 0)
    );
    assert_eq!(run(Query::SubplotLayout, &spec, &scene), text("2 by 2"));
    assert_eq!(run(Query::SubplotCount, &spec, &scene), num(3.0, 0));
    assert_eq!(
        chartstress::query::reference::panel_at(&scene, 1, 0),
        Some(2)
    );
}

fn every_question_type() -> QuestionOptions {
    QuestionOptions {
        count: 40,
        unanswerable_share: 0.2,
        ..Default::default()
    }
}

#[test]
fn generation_is_deterministic_and_answers_re_execute() {
    let (spec, scene) = chart(&sales_table(), ChartKind::Line);
    let a = generate("c1", &spec, &scene, &every_question_type());
    let b = generate("c1", &spec, &scene, &every_question_type());
    assert_eq!(a, b);
    assert!(a.len() >= 30, "only {} questions", a.len());
    for ty in QuestionType::ALL {
        assert!(
            a.iter().any(|q| q.question_type == ty),
            "no {} question",
            ty.name()
        );
    }
    for q in &a {
        assert_eq!(
            execute(&q.query, &spec, &scene).as_ref(),
            Ok(&q.answer),
            "{}",
            q.text
        );
        assert_eq!(q.family, family(&q.query));
        assert_eq!(q.realization.realizer, "canonical");
        if q.question_type == QuestionType::Conversational {
            assert!((1..=3).contains(&q.history.len()), "{q:?}");
        }
        if q.question_type == QuestionType::MultipleChoice {
            assert_eq!(q.choices.len(), 4);
        }
    }
}

/// A small table generator for property tests: years or names, 1–3 series.
fn arb_chart() -> impl Strategy<Value = (ChartSpec, Scene)> {
    let kinds = prop::sample::select(vec![
        ChartKind::Bar,
        ChartKind::Line,
        ChartKind::GroupedBar,
        ChartKind::HorizontalBar,
        ChartKind::Pie,
        ChartKind::Area,
    ]);
    (3usize..8, 1usize..4, kinds, any::<bool>(), 0u8..2).prop_flat_map(
        |(rows, cols, kind, years, decimals)| {
            let cols = if kind.is_circular() { 1 } else { cols };
            prop::collection::vec(prop::collection::vec(1u32..2000, rows), cols).prop_map(
                move |values| {
                    const NAMES: [&str; 8] = [
                        "Oslo", "Lima", "Kyiv", "Doha", "Riga", "Baku", "Sofia", "Quito",
                    ];
                    const SERIES: [&str; 3] = ["Imports", "Exports", "Transit"];
                    let scale = if decimals == 0 { 1.0 } else { 10.0 };
                    let cols: Vec<_> = values
                        .iter()
                        .enumerate()
                        .map(|(i, v)| {
                            let v: Vec<Option<f64>> =
                                v.iter().map(|x| Some(f64::from(*x) / scale)).collect();
                            series(SERIES[i], &v, decimals)
                        })
                        .collect();
                    let table = if years {
                        year_table("gen", 2001, cols)
                    } else {
                        category_table("gen", "City", &NAMES[..rows], cols)
                    };
                    chart(&table, kind)
                },
            )
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn every_family_round_trips_through_every_realizer((spec, scene) in arb_chart(), seed in 0u64..1000) {
        let qs = generate("gen", &spec, &scene, &QuestionOptions { seed, count: 24, ..every_question_type() });
        for q in &qs {
            let again = execute(&q.query, &spec, &scene);
            prop_assert_eq!(again.as_ref(), Ok(&q.answer));
            for r in realizers() {
                let Some(p) = realize(q, r, &spec, &scene, seed) else {
                    // Visual wording needs a visible mark to name; typos need a
                    // word outside names, numbers and operation words; synonyms
                    // a word the lexicon lists.
                    // A question followed by options takes no greeting and no
                    // embedded request ("Could you tell me …? Options: …").
                    let quiz = q.question_type == QuestionType::MultipleChoice;
                    prop_assert!(
                        matches!(r, "visual" | "noisy" | "lexical")
                            || (quiz && matches!(r, "register" | "syntactic")),
                        "{} did not realize {}", r, q.text
                    );
                    continue;
                };
                if q.question_type == QuestionType::MultipleChoice {
                    prop_assert!(r != "register", "register reworded a quiz item: {}", p.text);
                    let opening = p.text.to_lowercase();
                    prop_assert!(
                        !["can you tell me", "could you tell me", "do you know"]
                            .iter()
                            .any(|w| opening.starts_with(w)),
                        "{}", p.text
                    );
                }
                prop_assert_eq!(&p.answer, &q.answer);
                prop_assert_eq!(&p.query, &q.query);
                prop_assert_eq!(p.history.len(), q.history.len());
                prop_assert!(!p.text.trim().is_empty());
                prop_assert!(!p.text.contains('{') && !p.text.contains('}'), "unfilled slot: {}", p.text);
                prop_assert_eq!(&p.realization.realizer, r);
                // Entity names survive every wording but the visual one (which replaces them).
                if r != "visual" && q.question_type != QuestionType::Conversational {
                    let (_, slots) = chartstress::realize::slots::base_slots(q.query.base(), &spec).unwrap();
                    for key in ["series", "category", "a_series", "b_series", "a_cat", "b_cat", "series_a", "series_b", "from", "to", "pcat"] {
                        if let Some(name) = slots.get(key) {
                            prop_assert!(p.text.to_lowercase().contains(&name.to_lowercase()), "{} lost {:?}: {}", r, name, p.text);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn unanswerable_variants_are_never_answerable((spec, scene) in arb_chart(), seed in 0u64..1000) {
        let opts = QuestionOptions { seed, count: 24, unanswerable_share: 0.0, ..Default::default() };
        for q in generate("gen", &spec, &scene, &opts) {
            let Some(u) = unanswerable_variant(&q, &spec, &scene, seed) else { continue };
            prop_assert!(q.question_type != QuestionType::Descriptive);
            prop_assert!(!u.answerable);
            prop_assert_eq!(u.question_type, q.question_type);
            prop_assert_eq!(&u.answer, &Answer::Unanswerable);
            prop_assert_eq!(execute(&u.query, &spec, &scene), Ok(Answer::Unanswerable));
            // Not answerable from the table even after unwrapping the question type.
            prop_assert_eq!(execute(u.query.base(), &spec, &scene), Ok(Answer::Unanswerable));
            prop_assert_eq!(&u.family, &q.family);
            prop_assert_eq!(&u.realization.template_id, &q.realization.template_id);
            prop_assert_eq!(u.history.len(), q.history.len());
            prop_assert_eq!(&u.choices, &q.choices);
            // Every realizer keeps it unanswerable.
            for r in realizers() {
                if let Some(p) = realize(&u, r, &spec, &scene, seed) {
                    prop_assert_eq!(&p.answer, &Answer::Unanswerable);
                }
            }
        }
    }
}

fn sample_charts(n: usize) -> Vec<(String, ChartSpec, Scene)> {
    (0..n)
        .map(|i| {
            let v = |k: usize| -> Vec<Option<f64>> {
                (0..5)
                    .map(|j| Some(((i * 37 + j * 53 + k * 11) % 97 + 3) as f64))
                    .collect()
            };
            let t = year_table(
                "s",
                2010,
                vec![series("Alpha", &v(0), 0), series("Beta", &v(1), 0)],
            );
            let kind = [ChartKind::Bar, ChartKind::Line, ChartKind::GroupedBar][i % 3];
            let (spec, scene) = chart(&t, kind);
            (format!("chart{i}"), spec, scene)
        })
        .collect()
}

#[test]
fn mcq_letters_are_uniform_and_fact_checks_balanced() {
    let mut letters: BTreeMap<char, usize> = BTreeMap::new();
    let mut truth: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for (id, spec, scene) in sample_charts(120) {
        let opts = QuestionOptions {
            count: 12,
            types: vec![QuestionType::MultipleChoice, QuestionType::FactCheck],
            ..Default::default()
        };
        for q in generate(&id, &spec, &scene, &opts) {
            match q.answer {
                Answer::Choice { letter, .. } => *letters.entry(letter).or_default() += 1,
                Answer::TrueFalse { value } => {
                    let e = truth.entry(q.family.clone()).or_default();
                    if value { e.0 += 1 } else { e.1 += 1 }
                }
                // Any type of question may come out unanswerable.
                Answer::Unanswerable => {}
                ref other => panic!("unexpected answer {other:?}"),
            }
        }
    }
    let total: usize = letters.values().sum();
    assert!(total >= 400, "only {total} MCQs");
    for l in ['a', 'b', 'c', 'd'] {
        let share = letters.get(&l).copied().unwrap_or(0) as f64 / total as f64;
        assert!(
            (share - 0.25).abs() < 0.04,
            "letter {l}: {share:.3} of {total}"
        );
    }
    // Alternation keeps every (chart, family) within one of 50/50; what is left
    // is a fair coin per chart, so the bound is three standard deviations.
    let (mut all_t, mut all_f) = (0, 0);
    for (fam, (t, f)) in &truth {
        let n = (t + f) as f64;
        let gap = t.abs_diff(*f) as f64;
        assert!(gap <= 3.0 * n.sqrt() + 2.0, "{fam}: {t} true vs {f} false");
        all_t += t;
        all_f += f;
    }
    let n = (all_t + all_f) as f64;
    assert!(n >= 400.0);
    assert!(
        (all_t.abs_diff(all_f) as f64) <= 3.0 * n.sqrt(),
        "{all_t} true vs {all_f} false"
    );
}

/// The question as one string: every conversation turn, then the last.
fn whole_text(q: &chartstress::questions::Question) -> String {
    q.history
        .iter()
        .map(|t| t.question.as_str())
        .chain([q.text.as_str()])
        .collect::<Vec<_>>()
        .join(" || ")
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_lowercase).collect()
}

/// Lower-case words and punctuation marks as separate tokens ("top?" →
/// "top", "?"), so that two swaps a mark apart are two runs.
fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() || matches!(c, '-' | '\'' | '%') {
            word.extend(c.to_lowercase());
            continue;
        }
        if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        if !c.is_whitespace() {
            out.push(c.to_string());
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// The runs of words where `b` differs from `a`, as (a's words, b's words),
/// by a longest common subsequence of words.
fn differing_runs(a: &[String], b: &[String]) -> Vec<(String, String)> {
    let (n, m) = (a.len(), b.len());
    let mut lcs = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut runs = Vec::new();
    let (mut da, mut db): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            if !da.is_empty() || !db.is_empty() {
                runs.push((da.join(" "), db.join(" ")));
                da.clear();
                db.clear();
            }
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
            db.push(&b[j]);
            j += 1;
        } else {
            da.push(&a[i]);
            i += 1;
        }
    }
    if !da.is_empty() || !db.is_empty() {
        runs.push((da.join(" "), db.join(" ")));
    }
    runs
}

/// Words of a canonical question that belong to its frame, not to what it
/// names: a syntactic twin may drop them when it reshapes the sentence.
const FRAME_WORDS: &[&str] = &[
    "what",
    "which",
    "how",
    "many",
    "is",
    "are",
    "has",
    "have",
    "does",
    "do",
    "did",
    "the",
    "it",
    "true",
    "that",
    "there",
    "in",
    "for",
    "any",
    "its",
    "say",
    "best",
    "describes",
];

/// Whether `w` or an inflection of it ("increase" / "increased") is in `kept`.
fn kept_word(kept: &[String], w: &str) -> bool {
    let stem: String = w.chars().take(4).collect();
    kept.iter()
        .any(|k| k == w || (w.chars().count() >= 4 && k.starts_with(&stem)))
}

/// Each twin is its original with exactly one kind of change: a lexical
/// twin differs only where the lexicon lists the swap; a syntactic twin
/// keeps every word that names the answer and adds no greeting; a register
/// twin holds the original word for word; a visual twin keeps the frame.
#[test]
fn each_twin_changes_only_its_declared_class() {
    let lexicon = &chartstress::realize::bank::bank("lexical").lexicon;
    // A differing run is part of one listed swap: the phrase with the run's
    // words replaced is the synonym ("highest value" → "peak value" differs
    // in "highest" → "peak"; "the x-axis" → "the horizontal axis" in
    // "x-axis" → "horizontal axis").
    let swap_listed = |from: &str, to: &str| {
        lexicon.iter().any(|(k, alts)| {
            let k = k.to_lowercase();
            k.contains(from)
                && alts
                    .iter()
                    .any(|alt| k.replacen(from, to, 1) == alt.to_lowercase())
        })
    };
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (id, spec, scene) in sample_charts(30) {
        let opts = QuestionOptions {
            count: 12,
            ..Default::default()
        };
        for q in generate(&id, &spec, &scene, &opts) {
            let original = whole_text(&q);
            for r in ["lexical", "syntactic", "register", "visual"] {
                let Some(p) = realize(&q, r, &spec, &scene, 3) else {
                    continue;
                };
                let twin = whole_text(&p);
                assert_ne!(twin, original, "{r}: no change");
                *seen.entry(r).or_default() += 1;
                match r {
                    "lexical" => {
                        let runs = differing_runs(&tokens(&original), &tokens(&twin));
                        assert!(!runs.is_empty(), "{original:?} -> {twin:?}");
                        for (from, to) in &runs {
                            assert!(
                                swap_listed(from, to),
                                "lexical: {from:?} -> {to:?} is no listed swap in {original:?} -> {twin:?}"
                            );
                        }
                    }
                    "syntactic" => {
                        let bare = |t: &str| words(&t.replace(['?', '.', ',', ':', '(', ')'], " "));
                        let kept = bare(&twin);
                        for w in bare(&original) {
                            if !FRAME_WORDS.contains(&w.as_str()) {
                                assert!(
                                    kept_word(&kept, &w),
                                    "syntactic dropped {w:?}: {original:?} -> {twin:?}"
                                );
                            }
                        }
                        let lower = twin.to_lowercase();
                        for marker in ["please", "thank", "hey", "hello", "cheers", "kindly"] {
                            assert!(
                                !lower.contains(marker),
                                "syntactic adds {marker:?}: {twin:?}"
                            );
                        }
                    }
                    "register" => {
                        let plain = twin
                            .replace("What's ", "What is ")
                            .replace("what's ", "what is ");
                        for part in original.split(" || ") {
                            let mut c = part.chars();
                            let tail: String = c.by_ref().skip(1).collect();
                            assert!(
                                plain.contains(&tail),
                                "register changed the words: {original:?} -> {twin:?}"
                            );
                        }
                    }
                    _ => {
                        let (a, b) = (words(&original), words(&twin));
                        assert_eq!(
                            a.first(),
                            b.first(),
                            "visual reframed: {original:?} -> {twin:?}"
                        );
                        assert_eq!(
                            original.chars().last(),
                            twin.chars().last(),
                            "visual reframed: {original:?} -> {twin:?}"
                        );
                    }
                }
            }
        }
    }
    for r in ["lexical", "syntactic", "register", "visual"] {
        assert!(seen.get(r).copied().unwrap_or(0) >= 50, "{r}: {seen:?}");
    }
}

#[test]
fn format_shift_keeps_the_base_query() {
    let (spec, scene) = chart(&sales_table(), ChartKind::Bar);
    let opts = QuestionOptions {
        count: 10,
        types: vec![QuestionType::Factoid],
        unanswerable_share: 0.0,
        ..Default::default()
    };
    let mut shifted = 0;
    for q in generate("c", &spec, &scene, &opts) {
        for to in [QuestionType::MultipleChoice, QuestionType::FactCheck] {
            if let Some(r) = reformat(&q, to, &spec, &scene, 5) {
                assert_eq!(r.query.base(), q.query.base());
                assert_eq!(r.question_type, to);
                assert_eq!(execute(&r.query, &spec, &scene), Ok(r.answer.clone()));
                shifted += 1;
            }
        }
    }
    assert!(shifted >= 10);
}

#[test]
fn wordings_per_frequent_family() {
    // Distinct wordings (templates with entities masked, and the words
    // swapped or added in them) across realizers.
    let mut wordings: BTreeMap<String, std::collections::BTreeSet<String>> = BTreeMap::new();
    for (id, spec, scene) in sample_charts(60) {
        let opts = QuestionOptions {
            count: 12,
            types: vec![QuestionType::Factoid],
            unanswerable_share: 0.0,
            ..Default::default()
        };
        for q in generate(&id, &spec, &scene, &opts) {
            for r in realizers() {
                for seed in 0..4 {
                    if let Some(p) = realize(&q, r, &spec, &scene, seed) {
                        wordings
                            .entry(q.family.clone())
                            .or_default()
                            .insert(format!(
                                "{} {:?}",
                                p.realization.template_id, p.realization.transforms
                            ));
                    }
                }
            }
        }
    }
    for fam in ["value_at", "argmax", "sum", "difference"] {
        let n = wordings.get(fam).map_or(0, |w| w.len());
        // Wordings outside readers found stilted were dropped, not replaced.
        assert!(n >= 20, "{fam}: only {n} distinct wordings");
    }
}

#[test]
fn paragraph_facts_alone_and_with_the_chart() {
    let mut t = category_table(
        "trade",
        "City",
        &["Oslo", "Lima", "Riga"],
        vec![series(
            "Exports",
            &[Some(900.0), Some(1200.0), Some(400.0)],
            0,
        )],
    );
    t.meta.paragraph = Some(
        "Trade grew in every port. A later estimate put the exports figure for Quito at 1,250.5 tonnes, a value not shown in the chart."
            .into(),
    );
    let (spec, scene) = chart(&t, ChartKind::Bar);
    let value = Query::ParagraphValue {
        panel: 0,
        series: "Exports".into(),
        category: "Quito".into(),
    };
    assert_eq!(run(value.clone(), &spec, &scene), num(1250.5, 1));
    let diff = Query::ParagraphDifference {
        panel: 0,
        series: "Exports".into(),
        paragraph_category: "Quito".into(),
        category: "Oslo".into(),
    };
    assert!(approx(&run(diff, &spec, &scene), 350.5, 1));
    // Not in the text either: unanswerable. A category the chart shows: refused.
    let absent = Query::ParagraphValue {
        panel: 0,
        series: "Exports".into(),
        category: "Baku".into(),
    };
    assert_eq!(run(absent, &spec, &scene), Answer::Unanswerable);
    let shown = Query::ParagraphValue {
        panel: 0,
        series: "Exports".into(),
        category: "Oslo".into(),
    };
    assert_eq!(refusal(shown, &spec, &scene), RefusalKind::Unsupported);
    let found = chartstress::query::paragraph::paragraph_queries(&spec, 0);
    assert!(found.contains(&value), "{found:?}");
    assert!(found.iter().all(|q| !matches!(q, Query::ParagraphValue { category, .. } if category == "Trade" || category == "A")));
    // Generation asks some of them, with the paragraph attached.
    let qs = generate(
        "trade",
        &spec,
        &scene,
        &QuestionOptions {
            count: 30,
            types: vec![QuestionType::Factoid],
            ..Default::default()
        },
    );
    let para: Vec<_> = qs
        .iter()
        .filter(|q| q.family.starts_with("paragraph"))
        .collect();
    assert!(!para.is_empty());
    assert!(
        para.iter()
            .all(|q| q.paragraph.as_deref() == t.meta.paragraph.as_deref())
    );
}

#[test]
fn a_typos_twin_is_the_original_with_a_few_misspelt_words() {
    let words = |t: &str| -> Vec<String> {
        t.split_whitespace()
            .map(|w| {
                w.trim_matches(|c: char| !c.is_alphanumeric())
                    .replace('\'', "")
                    .to_lowercase()
            })
            .filter(|w| !w.is_empty())
            .collect()
    };
    let mut seen = 0;
    for (id, spec, scene) in sample_charts(30) {
        let opts = QuestionOptions {
            count: 12,
            ..Default::default()
        };
        for q in generate(&id, &spec, &scene, &opts) {
            let Some(twin) = realize(&q, "noisy", &spec, &scene, 3) else {
                continue;
            };
            let (a, b) = (words(&q.text), words(&twin.text));
            assert_eq!(a.len(), b.len(), "{:?} -> {:?}", q.text, twin.text);
            let changed = a.iter().zip(&b).filter(|(x, y)| x != y).count();
            assert!(
                (1..=3).contains(&changed),
                "{changed} words differ: {:?} -> {:?}",
                q.text,
                twin.text
            );
            seen += 1;
        }
    }
    assert!(seen >= 50, "only {seen} typos twins");
}

#[test]
fn same_questions_at_any_thread_count() {
    use rayon::prelude::*;
    let charts = sample_charts(24);
    let opts = QuestionOptions {
        count: 15,
        ..Default::default()
    };
    let one = |(id, spec, scene): &(String, ChartSpec, Scene)| {
        let qs = generate(id, spec, scene, &opts);
        let worded: Vec<_> = qs
            .iter()
            .filter_map(|q| realize(q, "noisy", spec, scene, 11))
            .collect();
        (qs, worded)
    };
    let serial: Vec<_> = charts.iter().map(one).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let parallel: Vec<_> = pool.install(|| charts.par_iter().map(one).collect());
    assert_eq!(serial, parallel);
}

#[test]
fn canonical_questions_snapshot() {
    // The canonical wording is the "original set": changes to it must be deliberate.
    let (spec, scene) = chart(&sales_table(), ChartKind::Line);
    let qs = generate(
        "sales",
        &spec,
        &scene,
        &QuestionOptions {
            count: 24,
            seed: 1,
            ..Default::default()
        },
    );
    let lines: Vec<String> = qs
        .iter()
        .map(|q| {
            format!(
                "{} | {} | {} => {}",
                q.question_type.name(),
                q.family,
                q.text.replace('\n', " / "),
                q.answer.to_text()
            )
        })
        .collect();
    insta::assert_yaml_snapshot!("questions_sales_canonical", lines);
}

/// Every data question type has unanswerable variants, each about an entity
/// of the same kind the chart does not show, with the rounding and options of
/// its answerable twin.
#[test]
fn unanswerable_variants_for_every_data_type() {
    let (spec, scene) = chart(&sales_table(), ChartKind::Line);
    let mut found: BTreeMap<&str, usize> = BTreeMap::new();
    for seed in 0..40u64 {
        let opts = QuestionOptions {
            seed,
            count: 20,
            unanswerable_share: 0.0,
            ..Default::default()
        };
        for q in generate("sales", &spec, &scene, &opts) {
            let Some(u) = unanswerable_variant(&q, &spec, &scene, seed) else {
                continue;
            };
            assert_eq!(execute(&u.query, &spec, &scene), Ok(Answer::Unanswerable));
            *found.entry(q.question_type.name()).or_default() += 1;
            // Years outside 2018..=2021 or a series that is not drawn.
            let json = serde_json::to_string(u.query.base()).unwrap();
            let outside = ["2015", "2016", "2017", "2022", "2023", "2024"]
                .iter()
                .any(|y| json.contains(&format!("\"{y}\"")));
            assert!(outside, "{json}");
            if q.question_type == QuestionType::Hypothetical && q.text.contains("Round to") {
                assert!(u.text.contains("Round to"), "{} / {}", q.text, u.text);
            }
        }
    }
    for ty in [
        "factoid",
        "multiple_choice",
        "fact_check",
        "hypothetical",
        "conversational",
    ] {
        assert!(found.get(ty).copied().unwrap_or(0) > 0, "{ty}: {found:?}");
    }
    assert!(!found.contains_key("descriptive"));
}

/// Questions of one type about a chart, each with its unanswerable variant
/// where it has one, over seeds `0..seeds`.
fn with_variants(
    name: &str,
    spec: &ChartSpec,
    scene: &Scene,
    seeds: u64,
    count: usize,
    ty: QuestionType,
) -> Vec<(
    chartstress::questions::Question,
    Option<chartstress::questions::Question>,
)> {
    (0..seeds)
        .flat_map(|seed| {
            let opts = QuestionOptions {
                seed,
                count,
                types: vec![ty],
                unanswerable_share: 0.0,
                ..Default::default()
            };
            generate(name, spec, scene, &opts)
                .into_iter()
                .map(move |q| {
                    let u = unanswerable_variant(&q, spec, scene, seed);
                    (q, u)
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A conversation's difference turn names its other cell, so its
/// unanswerable variant names a year the chart lacks there and keeps the
/// earlier turns as they were.
#[test]
fn a_difference_follow_up_names_the_cell_it_swaps() {
    let (spec, scene) = chart(&sales_table(), ChartKind::Line);
    let mut variants = 0;
    for (q, u) in with_variants("sales", &spec, &scene, 60, 10, QuestionType::Conversational) {
        let Query::Conversation { turns } = &q.query else {
            continue;
        };
        if !matches!(turns.last(), Some(Query::Difference { .. })) {
            continue;
        }
        assert!(
            q.text
                .starts_with("What is the difference between that and the value in "),
            "{}",
            q.text
        );
        let Some(u) = u else {
            continue;
        };
        variants += 1;
        assert_eq!(execute(&u.query, &spec, &scene), Ok(Answer::Unanswerable));
        assert_eq!(u.history, q.history, "{}", u.text);
        let year = u.text.trim_end_matches('?').rsplit(' ').next().unwrap();
        assert!(
            !["2018", "2019", "2020", "2021"].contains(&year) && year.parse::<i32>().is_ok(),
            "{}",
            u.text
        );
    }
    assert!(variants >= 5, "{variants}");
}

/// Same-kind entities: a city for cities, a browser for browsers, the same
/// measure in another year; no invented measure for a lone series.
#[test]
fn unanswerable_entities_are_of_the_same_kind() {
    let t = category_table(
        "browsers",
        "Browser",
        &["Chrome", "Safari", "Edge", "Firefox"],
        vec![series(
            "Share 2024",
            &[Some(64.0), Some(19.0), Some(5.0), Some(3.0)],
            0,
        )],
    );
    let (spec, scene) = chart(&t, ChartKind::Bar);
    let browsers = [
        "Opera",
        "Samsung Internet",
        "Brave",
        "Vivaldi",
        "UC Browser",
        "Yandex Browser",
    ];
    let mut seen = 0;
    for (_, u) in with_variants("browsers", &spec, &scene, 30, 12, QuestionType::Factoid) {
        let Some(u) = u else {
            continue;
        };
        seen += 1;
        let json = serde_json::to_string(&u.query).unwrap();
        let same_kind = browsers.iter().any(|b| json.contains(&format!("\"{b}\"")))
            || [
                "Share 2021",
                "Share 2022",
                "Share 2023",
                "Share 2025",
                "Share 2026",
                "Share 2027",
            ]
            .iter()
            .any(|s| json.contains(s));
        assert!(same_kind, "{}: {json}", u.text);
    }
    assert!(seen > 10, "{seen}");
}

/// A chart printed with a paragraph still has unanswerable questions: only
/// an entity the paragraph names is kept out (it may answer them), not every
/// swap because the paragraph names the measure, as it always does.
#[test]
fn a_paragraph_keeps_out_only_the_entities_it_names() {
    let mut t = category_table(
        "migration",
        "Country",
        &["Iceland", "Mexico", "Uzbekistan", "Gambia", "Indonesia"],
        vec![series(
            "Net migration",
            &[
                Some(12.0),
                Some(131.0),
                Some(107.0),
                Some(30.0),
                Some(157.0),
            ],
            0,
        )],
    );
    t.meta.paragraph = Some(
        "A later estimate put the net migration figure for Saint Lucia at 299, \
         a value not shown in the chart."
            .into(),
    );
    let (spec, scene) = chart(&t, ChartKind::Bar);
    let variants: Vec<_> = with_variants("migration", &spec, &scene, 20, 8, QuestionType::Factoid)
        .into_iter()
        .filter_map(|(_, u)| u)
        .collect();
    assert!(
        variants.len() >= 10,
        "{} unanswerable variants",
        variants.len()
    );
    for u in &variants {
        assert!(u.paragraph.is_some(), "{}", u.text);
        let json = serde_json::to_string(&u.query).unwrap();
        assert!(!json.contains("Saint Lucia"), "{}: {json}", u.text);
    }
}

/// A count question about a series not shown prints its threshold like the
/// answerable one ("$1,500", not "1500").
#[test]
fn unanswerable_thresholds_keep_the_chart_format() {
    let mut money = series(
        "Budget 2024",
        &[Some(1500.0), Some(2400.0), Some(800.0), Some(3100.0)],
        0,
    );
    money.format.prefix = Some("$".into());
    money.format.thousands = true;
    let mut t = category_table(
        "budget",
        "Department",
        &["Police", "Education", "Health", "Parks"],
        vec![money],
    );
    // The chart names its series, so a reader sees another one is absent.
    t.meta.title = Some("Budget 2024 by department".into());
    let (spec, scene) = chart(&t, ChartKind::Bar);
    let mut checked = 0;
    for seed in 0..60u64 {
        let opts = QuestionOptions {
            seed,
            count: 12,
            types: vec![QuestionType::Factoid],
            families: vec!["count_above".into(), "count_below".into()],
            unanswerable_share: 0.0,
        };
        for q in generate("budget", &spec, &scene, &opts) {
            let Some(u) = unanswerable_variant(&q, &spec, &scene, seed) else {
                continue;
            };
            assert!(u.text.contains('$'), "{} / {}", q.text, u.text);
            checked += 1;
        }
    }
    assert!(checked > 0);
}

/// Grammar: plural noun phrases never meet "is" (legend lists, bar series).
#[test]
fn plural_noun_phrases_agree() {
    let t = category_table(
        "energy",
        "Country",
        &["France", "Germany", "Poland", "Spain"],
        vec![
            series("Coal", &[Some(3.0), Some(131.0), Some(102.0), Some(5.0)], 0),
            series(
                "Nuclear",
                &[Some(336.0), Some(7.0), Some(1.0), Some(54.0)],
                0,
            ),
        ],
    );
    let bad = regex::Regex::new(
        r"(?i)\b(bars|slices|labels|entries|names) (is|reaches|stands)\b|what is the (labels|legend's entries|names)",
    )
    .unwrap();
    let closing =
        regex::Regex::new(r"(?i)\b(for|in|of|and|between) the [a-z]+ (bars|dots)\b").unwrap();
    for kind in [
        ChartKind::GroupedBar,
        ChartKind::Bar,
        ChartKind::HorizontalBar,
    ] {
        let (spec, scene) = chart(&t, kind);
        for seed in 0..40u64 {
            let opts = QuestionOptions {
                seed,
                count: 20,
                ..Default::default()
            };
            for q in generate("energy", &spec, &scene, &opts) {
                for r in realizers() {
                    if let Some(p) = realize(&q, r, &spec, &scene, seed) {
                        // "The number … for the orange bars is 3": the
                        // bars close a phrase, they are not its subject.
                        let text = closing.replace_all(&p.text, "for X");
                        assert!(!bad.is_match(&text), "{r}: {}", p.text);
                    }
                }
            }
        }
    }
}

/// Wrong options and false claims about values read off the axis are far
/// enough from the truth to tell apart by eye (3% of the largest value), and a
/// wrong axis label is never a tick value.
#[test]
fn distractors_are_readable_and_of_the_right_kind() {
    let t = category_table(
        "energy",
        "Country",
        &["France", "Germany", "Poland", "Sweden"],
        vec![
            series("Gas", &[Some(32.0), Some(80.0), Some(18.0), Some(1.0)], 0),
            series(
                "Nuclear",
                &[Some(336.0), Some(7.0), Some(2.0), Some(47.0)],
                0,
            ),
        ],
    );
    let (spec, scene) = chart(&t, ChartKind::GroupedBar);
    let ticks: Vec<String> = scene.panels[0]
        .x_ticks
        .iter()
        .chain(&scene.panels[0].y_ticks)
        .map(|t| t.label.clone())
        .collect();
    let mut checked = 0;
    for seed in 0..80u64 {
        for q in [
            Query::ValueAt {
                panel: 0,
                series: "Gas".into(),
                category: "Sweden".into(),
            },
            Query::ValueAt {
                panel: 0,
                series: "Nuclear".into(),
                category: "Poland".into(),
            },
            Query::AxisLabel {
                panel: 0,
                axis: Axis::Y,
            },
        ] {
            let fact = canonical_question(&q, &spec, &scene);
            for ty in [QuestionType::MultipleChoice, QuestionType::FactCheck] {
                let Some(r) = reformat(&fact, ty, &spec, &scene, seed) else {
                    continue;
                };
                let offered: Vec<String> = match &r.query {
                    Query::MultipleChoice { options, .. } => options.clone(),
                    Query::FactCheck { claim, .. } => vec![claim.clone()],
                    _ => unreachable!(),
                };
                let truth = execute(&q, &spec, &scene).unwrap();
                for o in offered {
                    if matches!(q, Query::AxisLabel { .. }) {
                        assert!(!ticks.contains(&o), "tick offered as a label: {o}");
                    } else if let (Answer::Number { value, .. }, Some(x)) =
                        (&truth, chartstress::query::parse_number(&o))
                        && (x - value).abs() > 1e-9
                    {
                        assert!((x - value).abs() >= 0.03 * 336.0 - 1e-9, "{o} vs {value}");
                    }
                    checked += 1;
                }
            }
        }
    }
    // Claims about the chart's furniture (the axis label here) are not
    // made, so only the label's options count among the descriptive ones.
    assert!(checked > 60, "{checked}");
}

fn canonical_question(
    q: &Query,
    spec: &ChartSpec,
    scene: &Scene,
) -> chartstress::questions::Question {
    let answer = execute(q, spec, scene).unwrap();
    let ty = if chartstress::query::is_descriptive(q) {
        QuestionType::Descriptive
    } else {
        QuestionType::Factoid
    };
    let draft = chartstress::questions::Question {
        query: q.clone(),
        question_type: ty,
        family: family(q).to_string(),
        text: String::new(),
        answer_kind: chartstress::query::answer_kind(q, &answer),
        answerable: true,
        answer,
        choices: Vec::new(),
        history: Vec::new(),
        paragraph: None,
        realization: Default::default(),
    };
    realize(&draft, "canonical", spec, scene, 0).unwrap()
}

/// A claimed year that names a category "is" it; it never "equals" or "comes to" it.
#[test]
fn category_claims_use_is() {
    let (spec, scene) = chart(&sales_table(), ChartKind::Line);
    let q = canonical_question(
        &Query::Argmax {
            panel: 0,
            series: Some("North".into()),
        },
        &spec,
        &scene,
    );
    let mut seen = 0;
    for seed in 0..60u64 {
        let Some(f) = reformat(&q, QuestionType::FactCheck, &spec, &scene, seed) else {
            continue;
        };
        for r in realizers() {
            if let Some(p) = realize(&f, r, &spec, &scene, seed) {
                assert!(
                    !p.text.contains(" equals ") && !p.text.contains(" comes to "),
                    "{}",
                    p.text
                );
                seen += 1;
            }
        }
    }
    assert!(seen > 20, "{seen}");
}

#[test]
fn rounding_in_words() {
    assert_eq!(
        chartstress::realize::slots::decimals_phrase(4),
        "four decimal places"
    );
    assert_eq!(
        chartstress::realize::slots::decimals_phrase(1),
        "one decimal place"
    );
}

/// Month indexes are "months" ("In which month did …"), and visual references
/// never double their article ("the the blue bar series").
#[test]
fn month_nouns_and_single_articles() {
    let mut t = year_table(
        "monthly",
        2001,
        vec![
            series(
                "Online",
                &[Some(10.0), Some(14.0), Some(30.0), Some(25.0)],
                0,
            ),
            series(
                "Stores",
                &[Some(40.0), Some(35.0), Some(20.0), Some(22.0)],
                0,
            ),
        ],
    );
    t.index.ctype = chartstress::ir::ColumnType::Date;
    t.index.cells = ["2023-01", "2023-02", "2023-03", "2023-04"]
        .iter()
        .map(|m| chartstress::ir::Cell::Date(m.to_string()))
        .collect();
    let (spec, scene) = chart(&t, ChartKind::Line);
    let mut months = 0;
    for seed in 0..30u64 {
        let opts = QuestionOptions {
            seed,
            count: 20,
            ..Default::default()
        };
        for q in generate("monthly", &spec, &scene, &opts) {
            for r in realizers() {
                let Some(p) = realize(&q, r, &spec, &scene, seed) else {
                    continue;
                };
                let all = p
                    .history
                    .iter()
                    .map(|h| h.question.as_str())
                    .chain([p.text.as_str()]);
                for text in all {
                    let lower = text.to_lowercase();
                    assert!(!lower.contains("the the "), "{r}: {text}");
                    assert!(!lower.contains("which date"), "{r}: {text}");
                    months += usize::from(lower.contains("month"));
                }
            }
        }
    }
    assert!(months > 0);
}

/// Options taken from the chart are of a comparable size to the truth (an
/// income is not offered a rent), apart from the deliberate ×10 / ÷10 misread.
#[test]
fn chart_value_options_are_comparable() {
    let t = category_table(
        "cities",
        "City",
        &["Austin", "Boston", "Detroit", "Miami"],
        vec![
            series(
                "Income",
                &[Some(86530.0), Some(89212.0), Some(37761.0), Some(54858.0)],
                0,
            ),
            series(
                "Rent",
                &[Some(1520.0), Some(2110.0), Some(980.0), Some(1850.0)],
                0,
            ),
        ],
    );
    let (spec, scene) = chart(&t, ChartKind::GroupedBar);
    let q = canonical_question(
        &Query::ValueAt {
            panel: 0,
            series: "Income".into(),
            category: "Boston".into(),
        },
        &spec,
        &scene,
    );
    let mut seen = 0;
    for seed in 0..40u64 {
        let Some(m) = reformat(&q, QuestionType::MultipleChoice, &spec, &scene, seed) else {
            continue;
        };
        let Query::MultipleChoice { options, .. } = &m.query else {
            unreachable!()
        };
        for o in options {
            let x = chartstress::query::parse_number(o).unwrap();
            let r = x / 89212.0;
            let misread = (r - 10.0).abs() < 1e-3 || (r - 0.1).abs() < 1e-3;
            assert!(
                misread || (0.2..=5.0).contains(&r),
                "{o} offered for 89,212"
            );
        }
        seen += 1;
    }
    assert!(seen > 10);
}
