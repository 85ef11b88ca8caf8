//! Which way a twin moved the task, measured on the two charts with the
//! reader's model of sight: how precisely the asked marks are read now
//! ([`crate::reader::precision`]), whether more of them print their value,
//! and whether some text the twin added states the answer. A twin that
//! reads more precisely or hands the answer over is `easing`, reported
//! apart from the robustness gap.

use super::pipeline::Chart;
use crate::ir::query::AggregateOp;
use crate::ir::{Answer, Perturbation as Applied, Query};
use crate::questions::Question;
use crate::reader::{View, precision};
use crate::realize::names_word;

/// A reading at most this fraction of the original's width is easier: a
/// change of a few percent is a plot area a few pixels larger, not a task
/// a person finds easier.
const EASIER_READING: f64 = 0.9;

pub(super) struct Direction {
    /// Mean reading width on the twin over the original's.
    pub(super) reading_change: f64,
    /// More of the question's marks print their value.
    pub(super) more_labels: bool,
    /// Text the twin added (a KPI tile, an annotation, a note) states the answer.
    pub(super) prints_answer: bool,
    /// The asked series, named in a legend on the original, is labelled
    /// beside its own marks on the twin: no colour to match any more.
    pub(super) names_series_directly: bool,
}

impl Direction {
    pub(super) fn eases(&self) -> bool {
        self.more_labels
            || self.prints_answer
            || self.names_series_directly
            || self.reading_change <= EASIER_READING
    }
}

/// How `twin` (asked on `chart`, drawn with `perts`) differs in difficulty
/// from the original `q` on `base`.
pub(super) fn measure(
    base: &Chart,
    q: &Question,
    chart: &Chart,
    twin: &Question,
    perts: &[Applied],
) -> Direction {
    Direction {
        reading_change: reading_change(base, q, chart, twin, perts),
        more_labels: labelled_share(chart, twin) > labelled_share(base, q) + 1e-9,
        prints_answer: prints_answer(chart, twin) && !prints_answer(base, q),
        names_series_directly: asks_a_series(chart, twin)
            && legend_only(base, q.query.panel())
            && labelled_directly(chart, twin.query.panel()),
    }
}

fn asks_a_series(chart: &Chart, q: &Question) -> bool {
    crate::realize::slots::base_slots(q.query.base(), &chart.spec)
        .is_some_and(|(_, slots)| slots.contains_key("series"))
}

fn panel_of(chart: &Chart, panel: usize) -> Option<&crate::ir::PanelScene> {
    chart.scene.panels.iter().find(|p| p.index == panel)
}

fn legend_only(chart: &Chart, panel: usize) -> bool {
    panel_of(chart, panel).is_some_and(|p| !p.legend.is_empty() && p.direct_labels.is_empty())
}

fn labelled_directly(chart: &Chart, panel: usize) -> bool {
    panel_of(chart, panel).is_some_and(|p| !p.direct_labels.is_empty())
}

/// The measured reading change alone: what a twin records when nothing
/// else of its direction is decided (a reworded question on the same chart).
pub(super) fn reading_change(
    base: &Chart,
    q: &Question,
    chart: &Chart,
    twin: &Question,
    perts: &[Applied],
) -> f64 {
    let before = precision::widths(
        &q.query,
        &base.spec,
        &base.scene,
        &View::for_item(&[], q.paragraph.is_some()),
    );
    let after = precision::widths(
        &twin.query,
        &chart.spec,
        &chart.scene,
        &View::for_item(perts, twin.paragraph.is_some()),
    );
    precision::change(&before, &after)
}

/// Share of the question's panel marks that print their value.
fn labelled_share(chart: &Chart, q: &Question) -> f64 {
    let Some(p) = panel_of(chart, q.query.panel()) else {
        return 0.0;
    };
    if p.marks.is_empty() {
        return 0.0;
    }
    let labelled = p.marks.iter().filter(|m| m.label.is_some()).count();
    labelled as f64 / p.marks.len() as f64
}

/// Whether text that states values beside the marks (a KPI tile, a note
/// or annotation on the figure, the question panel's annotation) prints
/// the question's answer or the value it is about — a claim's or a what-if's
/// base value (a tile stating a cell hands over the verdict on a claim
/// about it), an option's text, compared as numbers where they are numbers
/// ("1,304,887,562" states 1304887562) — or a third or more of the values
/// it reads on the way (one of the three cells of a mean, either end of a
/// spread; one month of a twelve-month total is no real help).
fn prints_answer(chart: &Chart, q: &Question) -> bool {
    let scene = &chart.scene;
    let kpis = scene.kpis.iter().flat_map(|k| {
        [Some(&k.value), k.delta.as_ref(), Some(&k.label)]
            .into_iter()
            .flatten()
            .map(String::as_str)
    });
    let notes = scene.extra_text.iter().map(|t| t.text.as_str());
    let annotation = scene
        .panels
        .iter()
        .filter(|p| p.index == q.query.panel())
        .filter_map(|p| p.annotation.as_ref()?.label.as_ref())
        .map(|t| t.text.as_str());
    let texts: Vec<&str> = kpis.chain(notes).chain(annotation).collect();
    // Most charts print no such text: nothing to execute the question's steps for.
    if texts.is_empty() {
        return false;
    }
    let printed = |v: &Stated| texts.iter().any(|t| v.stated_in(t));
    if stated_values(chart, q).iter().any(printed) {
        return true;
    }
    let steps = reading_steps(chart, q);
    let shown = steps.iter().filter(|v| printed(v)).count();
    shown > 0 && 3 * shown >= steps.len()
}

/// Whether an arrow the twin added points at a mark that gives the answer
/// away: the answer's own mark (its category, its series or its value is
/// what the question asks for), or one of the few marks the question reads
/// (up to three: one of twelve months summed is no pointer at the answer).
pub(super) fn points_at_answer(base: &Chart, q: &Question, pointed: &[(usize, usize)]) -> bool {
    if pointed.is_empty() {
        return false;
    }
    let view = View::for_item(&[], q.paragraph.is_some());
    let read = precision::read_marks(&q.query, &base.spec, &base.scene, &view);
    let stated = stated_values(base, q);
    pointed.iter().any(|&(pi, mi)| {
        let Some(mark) = base.scene.panels.get(pi).and_then(|p| p.marks.get(mi)) else {
            return false;
        };
        let names = [Some(mark.series.as_str()), mark.category.as_deref()];
        let is_answer = stated.iter().any(|v| match v {
            Stated::Text(t) => names.iter().flatten().any(|n| names_word(n, t)),
            Stated::Number { .. } => v.stated_in(&crate::ir::answer::format_number(mark.value, 12)),
        });
        is_answer || (read.len() <= 3 && read.contains(&mark.bbox))
    })
}

/// A value a question asks for or is about.
enum Stated {
    Number { value: f64, decimals: u8 },
    Text(String),
}

impl Stated {
    fn of(answer: &Answer) -> Option<Stated> {
        match answer {
            Answer::Number {
                value, decimals, ..
            } => Some(Stated::Number {
                value: *value,
                decimals: *decimals,
            }),
            Answer::Choice { text, .. } => Some(Stated::Text(text.clone())),
            Answer::TrueFalse { .. } | Answer::YesNo { .. } | Answer::Unanswerable => None,
            other => {
                let text = other.to_text();
                (!text.trim().is_empty()).then_some(Stated::Text(text))
            }
        }
    }

    fn stated_in(&self, text: &str) -> bool {
        match self {
            Stated::Text(t) => names_word(text, t),
            Stated::Number { value, decimals } => {
                let half = 0.5 * 10f64.powi(-i32::from(*decimals));
                numbers_in(text).any(|x| (x - value).abs() <= half.max(value.abs() * 1e-9))
            }
        }
    }
}

/// The values `q` asks for or is about: its answer, and the answer of the
/// query it wraps (a claim's, an option set's, a what-if's base).
fn stated_values(chart: &Chart, q: &Question) -> Vec<Stated> {
    if !q.answerable {
        return Vec::new();
    }
    let mut out: Vec<Stated> = Stated::of(&q.answer).into_iter().collect();
    for inner in [q.query.asked(), q.query.base()] {
        if inner != &q.query
            && let Ok(answer) = crate::query::execute(inner, &chart.spec, &chart.scene)
        {
            out.extend(Stated::of(&answer));
        }
    }
    // Tiles round totals to whole numbers: matched within half a unit.
    if let Some(other) = counterpart(q.query.base())
        && let Ok(Answer::Number { value, .. }) =
            crate::query::execute(&other, &chart.spec, &chart.scene)
    {
        out.push(Stated::Number { value, decimals: 0 });
    }
    out
}

/// A total and a mean of the same cells give each other by the count of
/// cells drawn: a tile printing "Total Area 60,131" hands over the mean area.
fn counterpart(query: &Query) -> Option<Query> {
    let Query::Aggregate { agg, .. } = query else {
        return None;
    };
    let swapped = match agg {
        AggregateOp::Sum => AggregateOp::Mean,
        AggregateOp::Mean => AggregateOp::Sum,
        _ => return None,
    };
    let mut out = query.clone();
    if let Query::Aggregate { agg, decimals, .. } = &mut out {
        *agg = swapped;
        *decimals = None;
    }
    Some(out)
}

/// The values `q` reads on the way to its answer, as the chart holds them.
fn reading_steps(chart: &Chart, q: &Question) -> Vec<Stated> {
    if !q.answerable {
        return Vec::new();
    }
    operands(q.query.base(), Some(chart))
        .iter()
        .filter_map(|step| crate::query::execute(step, &chart.spec, &chart.scene).ok())
        .filter_map(|answer| Stated::of(&answer))
        .collect()
}

/// The values a two-step, two-cell or whole-series question reads on the
/// way to its answer (the series' cells need the drawn `chart`).
fn operands(query: &Query, chart: Option<&Chart>) -> Vec<Query> {
    let cell = |panel: usize, c: &crate::ir::query::CellRef| Query::ValueAt {
        panel,
        series: c.series.clone(),
        category: c.category.clone(),
    };
    match query {
        Query::Spread { panel, series } => vec![
            Query::MaxValue {
                panel: *panel,
                series: Some(series.clone()),
            },
            Query::MinValue {
                panel: *panel,
                series: Some(series.clone()),
            },
        ],
        Query::Difference { panel, a, b } | Query::Ratio { panel, a, b, .. } => {
            vec![cell(*panel, a), cell(*panel, b)]
        }
        Query::PercentChange {
            panel,
            series,
            from,
            to,
            ..
        } => [from, to]
            .into_iter()
            .map(|category| Query::ValueAt {
                panel: *panel,
                series: series.clone(),
                category: category.clone(),
            })
            .collect(),
        Query::Aggregate {
            panel,
            series,
            categories,
            ..
        } => series_cells(chart, *panel, series, categories),
        Query::TopMean { panel, series, .. } => series_cells(chart, *panel, series, &[]),
        _ => Vec::new(),
    }
}

/// The cells of `series` on `panel` that an aggregate reads: `only` when
/// it names them, else every category the panel draws for the series.
fn series_cells(chart: Option<&Chart>, panel: usize, series: &str, only: &[String]) -> Vec<Query> {
    let mut cells: Vec<String> = if only.is_empty() {
        chart
            .into_iter()
            .flat_map(|c| &c.scene.panels)
            .filter(|p| p.index == panel)
            .flat_map(|p| &p.marks)
            .filter(|m| m.series == series)
            .filter_map(|m| m.category.clone())
            .collect()
    } else {
        only.to_vec()
    };
    cells.dedup();
    cells
        .into_iter()
        .map(|category| Query::ValueAt {
            panel,
            series: series.to_string(),
            category,
        })
        .collect()
}

/// Every number printed in `text` ("1,304,887,562", "0.118", "-3.5%").
fn numbers_in(text: &str) -> impl Iterator<Item = f64> + '_ {
    text.split(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | ',' | '-')))
        .filter_map(|w| {
            let w = w.trim_matches(|c| c == ',' || c == '.');
            w.replace(',', "").parse::<f64>().ok()
        })
}

#[cfg(test)]
mod tests {
    use super::{Query, numbers_in, operands};

    #[test]
    fn a_spread_reads_the_highest_and_lowest_on_the_way() {
        let spread = Query::Spread {
            panel: 0,
            series: "Gas".into(),
        };
        let steps = operands(&spread, None);
        assert!(matches!(&steps[0], Query::MaxValue { series: Some(s), .. } if s == "Gas"));
        assert!(matches!(&steps[1], Query::MinValue { series: Some(s), .. } if s == "Gas"));
        assert!(
            operands(
                &Query::MaxValue {
                    panel: 0,
                    series: None
                },
                None
            )
            .is_empty()
        );
    }
    use crate::realize::names_word as contains_token;

    #[test]
    fn tokens_do_not_match_inside_longer_numbers_or_words() {
        assert!(contains_token("Total 1,204", "1,204"));
        assert!(contains_token("+12%", "12"));
        assert!(!contains_token("2012", "12"));
        assert!(!contains_token("Germanys", "Germany"));
    }

    #[test]
    fn printed_numbers_are_read_with_their_separators() {
        let got: Vec<f64> = numbers_in("Highest Population: China 1,304,887,562").collect();
        assert_eq!(got, vec![1_304_887_562.0]);
        let got: Vec<f64> = numbers_in("Peak Disease: 1855-01-01 2,761").collect();
        assert!(got.contains(&2761.0));
        let got: Vec<f64> = numbers_in("Highest 10000 to 14999: Puerto Rico 0.118.").collect();
        assert!(got.contains(&0.118));
    }

    #[test]
    fn an_arrow_at_the_answer_or_a_read_operand_points_at_it() {
        use crate::ir::{ChartKind, QuestionType};
        use crate::query::testing as t;
        use crate::questions::{QuestionOptions, generate};
        let table = t::category_table(
            "t",
            "City",
            &["Oslo", "Lima", "Kyiv", "Pune", "Baku"],
            vec![t::series(
                "Sales",
                &[Some(12.0), Some(47.0), Some(31.0), Some(20.0), Some(8.0)],
                0,
            )],
        );
        let chart = super::super::pipeline::render(t::single(&table, ChartKind::Bar)).unwrap();
        let mark = |city: &str| {
            let marks = &chart.scene.panels[0].marks;
            (
                0,
                marks
                    .iter()
                    .position(|m| m.category.as_deref() == Some(city))
                    .unwrap(),
            )
        };
        let ask = |family: &str| {
            let opts = QuestionOptions {
                seed: 3,
                count: 4,
                types: vec![QuestionType::Factoid],
                families: vec![family.into()],
                unanswerable_share: 0.0,
            };
            generate(&chart.id, &chart.spec, &chart.scene, &opts)
                .into_iter()
                .find(|q| q.family == family && q.answerable)
                .unwrap_or_else(|| panic!("no {family} question"))
        };
        let argmax = ask("argmax");
        assert!(super::points_at_answer(&chart, &argmax, &[mark("Lima")]));
        // The question reads all five bars: one of them is no pointer.
        assert!(!super::points_at_answer(&chart, &argmax, &[mark("Baku")]));
        assert!(!super::points_at_answer(&chart, &argmax, &[]));
        let value = ask("value_at");
        let Query::ValueAt { category, .. } = &value.query else {
            panic!("{:?}", value.query)
        };
        let other = if category == "Oslo" { "Kyiv" } else { "Oslo" };
        assert!(super::points_at_answer(&chart, &value, &[mark(category)]));
        assert!(!super::points_at_answer(&chart, &value, &[mark(other)]));
    }
}
