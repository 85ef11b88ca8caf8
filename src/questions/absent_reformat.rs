//! Another answer form for a question about something the chart does not
//! show. The same question about a drawn stand-in of the same kind is
//! recast (its options, claimed value or earlier turn drawn from the chart
//! as for any answerable question), then the stand-in is named back as the
//! absent entity: the recast question asks the original's absent fact, and
//! its options or claim look like those of any other item.

use rand::RngExt;

use super::Question;
use super::unanswerable::named;
use crate::ir::query::Query;
use crate::ir::{Answer, ChartSpec, QuestionType, Scene};
use crate::query::{PanelData, execute};
use crate::seed;

/// Names under these keys are series or categories (`named` reads the same).
const ENTITY_KEYS: [&str; 6] = ["series", "a", "b", "category", "to", "from"];

/// `query` with every series or category named `from` named `to` instead
/// (options, claims and values untouched).
fn renamed(query: &Query, from: &str, to: &str) -> Option<Query> {
    fn walk(v: &mut serde_json::Value, from: &str, to: &str) {
        match v {
            serde_json::Value::Object(map) => {
                for (k, x) in map.iter_mut() {
                    match x {
                        serde_json::Value::String(s)
                            if ENTITY_KEYS.contains(&k.as_str()) && s == from =>
                        {
                            *s = to.to_string()
                        }
                        serde_json::Value::Array(names) if k == "categories" => {
                            for n in names.iter_mut() {
                                if n.as_str() == Some(from) {
                                    *n = serde_json::Value::String(to.to_string());
                                }
                            }
                        }
                        _ => walk(x, from, to),
                    }
                }
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(|x| walk(x, from, to)),
            _ => {}
        }
    }
    let mut json = serde_json::to_value(query).ok()?;
    walk(&mut json, from, to);
    serde_json::from_value(json).ok()
}

/// How many times the query names `name` as a series or category.
fn times_named(query: &Query, name: &str) -> usize {
    let (series, categories) = named(query);
    series
        .iter()
        .chain(&categories)
        .filter(|n| n.as_str() == name)
        .count()
}

/// The one entity `base` names that its panel does not draw, with a drawn
/// one of the same role (series or category) that `base` does not name.
fn absent_and_stand_in(base: &Query, data: &PanelData, seed: u64) -> Option<(String, String)> {
    let (series, categories) = named(base);
    let drawn_series: Vec<&str> = data.series.iter().map(|s| s.name.as_str()).collect();
    let drawn_categories: Vec<&str> = data.categories.iter().map(String::as_str).collect();
    let absent_series: Vec<&String> = series
        .iter()
        .filter(|s| !drawn_series.contains(&s.as_str()))
        .collect();
    let absent_categories: Vec<&String> = categories
        .iter()
        .filter(|c| !drawn_categories.contains(&c.as_str()))
        .collect();
    let (absent, pool, taken) = match (absent_series.as_slice(), absent_categories.as_slice()) {
        ([s], []) => (*s, drawn_series, &series),
        ([], [c]) => (*c, drawn_categories, &categories),
        _ => return None,
    };
    let free: Vec<&str> = pool
        .into_iter()
        .filter(|p| !taken.iter().any(|t| t == p))
        .collect();
    if free.is_empty() {
        return None;
    }
    let mut rng = seed::rng(seed, &["stand-in", absent]);
    let stand_in = free[rng.random_range(0..free.len())];
    Some((absent.clone(), stand_in.to_string()))
}

/// `q` (unanswerable) asked as a question of type `to`, worded by its
/// realizer; None when no drawn stand-in makes a question of that type or
/// the recast question names the stand-in anywhere but where the absent
/// entity stood (an earlier turn about it, say).
pub(super) fn reformat_absent(
    q: &Question,
    to: QuestionType,
    spec: &ChartSpec,
    scene: &Scene,
    seed: u64,
) -> Option<Question> {
    let base = q.query.base();
    let panels = spec.panels();
    let data = PanelData::from_panel(panels.get(base.panel())?);
    let (absent, stand_in) = absent_and_stand_in(base, &data, seed)?;
    let stand_in_base = renamed(base, &absent, &stand_in)?;
    let stand_in_question = Question {
        query: stand_in_base.clone(),
        ..q.clone()
    };
    let recast = super::reformat(&stand_in_question, to, spec, scene, seed)?;
    if times_named(&recast.query, &stand_in) != times_named(&stand_in_base, &stand_in) {
        return None;
    }
    let query = renamed(&recast.query, &stand_in, &absent)?;
    if query.base() != base || execute(&query, spec, scene).ok() != Some(Answer::Unanswerable) {
        return None;
    }
    super::unanswerable::worded_unanswerable(query, &recast, spec, scene, seed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::query::CellRef;

    /// Unanswerable factoids about a bar chart of four countries.
    fn absent_factoids() -> (ChartSpec, Scene, Vec<Question>) {
        use crate::query::testing as t;
        let values = [Some(120.0), Some(80.0), Some(45.0), Some(60.0)];
        let table = t::category_table(
            "gdp",
            "Country",
            &["France", "Spain", "Greece", "Portugal"],
            vec![t::series("GDP", &values, 0)],
        );
        let spec = t::single(&table, crate::ir::ChartKind::Bar);
        let scene = t::scene_for(&spec);
        let opts = super::super::QuestionOptions {
            seed: 7,
            count: 40,
            types: vec![QuestionType::Factoid],
            unanswerable_share: 1.0,
            ..Default::default()
        };
        let found = super::super::generate("gdp", &spec, &scene, &opts)
            .into_iter()
            .filter(|q| !q.answerable)
            .collect();
        (spec, scene, found)
    }

    #[test]
    fn an_absent_fact_is_recast_with_the_absent_entity_kept() {
        let (spec, scene, absent) = absent_factoids();
        assert!(!absent.is_empty());
        let mut recast = 0;
        for q in &absent {
            for to in [QuestionType::MultipleChoice, QuestionType::FactCheck] {
                for seed in 0..4 {
                    let Some(r) = super::super::reformat(q, to, &spec, &scene, seed) else {
                        continue;
                    };
                    recast += 1;
                    assert_eq!(r.question_type, to);
                    assert_eq!(r.answer, Answer::Unanswerable, "{}", r.text);
                    assert!(!r.answerable);
                    assert_eq!(r.query.base(), q.query.base(), "{}", r.text);
                    // Options and claims come from the drawn stand-in: values or
                    // drawn countries, never the absent one.
                    let (_, absent_names) = named(q.query.base());
                    for option in &r.choices {
                        assert!(!absent_names.contains(option), "{}", r.text);
                    }
                }
            }
        }
        assert!(recast > 0, "no absent question recast");
    }

    #[test]
    fn renaming_touches_entities_only() {
        let q = Query::MultipleChoice {
            base: Box::new(Query::Difference {
                panel: 0,
                a: CellRef {
                    series: "Sales".into(),
                    category: "Paris".into(),
                },
                b: CellRef {
                    series: "Sales".into(),
                    category: "Lyon".into(),
                },
            }),
            options: vec!["Paris".into(), "12".into()],
        };
        let r = renamed(&q, "Paris", "Nice").unwrap();
        let Query::MultipleChoice { base, options } = &r else {
            panic!("{r:?}")
        };
        assert_eq!(options, &vec!["Paris".to_string(), "12".to_string()]);
        assert_eq!(times_named(base, "Nice"), 1);
        assert_eq!(times_named(base, "Paris"), 0);
        assert_eq!(times_named(base, "Lyon"), 1);
    }
}
