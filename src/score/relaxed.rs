//! The `relaxed` metric on typed gold answers: ChartQA Pro's relaxed
//! accuracy as its paper defines it, with consistent parsing on both sides.

use crate::ir::Answer;
use crate::ir::answer::format_number;

use super::number::{looks_like_year, numbers_match, parse_number, unit_scale};
use super::text::{
    anls, choice_letter, is_abstention, normalize, normalize_text_answer, split_list_readings,
    verdict, yes_no,
};

/// Score of `prediction` against a typed gold answer. `choices` are the
/// multiple-choice options (may be empty); `year_elems[i]` says whether list
/// element `i` is a year (repeated when shorter; empty = guess from the text).
pub fn score_typed(
    gold: &Answer,
    prediction: &str,
    choices: &[String],
    year_elems: &[bool],
) -> f64 {
    let abstains = is_abstention(prediction);
    if matches!(gold, Answer::Unanswerable) {
        // Models tuned on CharXiv say "Not Applicable" (or "N/A") of a
        // chart element that is not drawn: the same refusal.
        let not_applicable = normalize_text_answer(prediction) == "not applicable";
        return f64::from(u8::from(abstains || not_applicable));
    }
    if abstains {
        return 0.0;
    }
    let hit = |b: bool| f64::from(u8::from(b));
    match gold {
        Answer::Choice { letter, .. } => {
            if let Some(p) = choice_letter(prediction) {
                return hit(p == letter.to_ascii_lowercase());
            }
            // The option's full text is unambiguous too.
            let idx = (*letter as usize).wrapping_sub('a' as usize);
            hit(choices
                .get(idx)
                .is_some_and(|c| normalize(c) == normalize(prediction)))
        }
        // A claim asked as a question ("Is it true that …?") is answered
        // yes or no as often as true or false: both say the same.
        Answer::TrueFalse { value } | Answer::YesNo { value } => {
            hit(verdict(prediction).or_else(|| yes_no(prediction)) == Some(*value))
        }
        Answer::Year { value } => hit(year_matches(*value, prediction)
            || period_score(&value.to_string(), prediction) == Some(1.0)),
        Answer::Number {
            value,
            decimals,
            unit,
        } => {
            let scale = unit.as_deref().map_or(1.0, unit_scale);
            // The exact value or the gold as printed (e.g. 1.9 printed "2" when
            // the question asks for a whole number): either is a right answer.
            let printed = format_number(*value, *decimals)
                .parse::<f64>()
                .unwrap_or(*value);
            hit(parse_number(prediction).is_some_and(|p| {
                numbers_match(&p, *value, scale, *decimals)
                    || numbers_match(&p, printed, scale, *decimals)
            }))
        }
        Answer::Text { value } => text_score(value, prediction),
        Answer::List { values } => {
            // "a, b and c" and "Recreation and culture, Health" both occur: score
            // the reading with and without splitting on "and", keep the better.
            split_list_readings(prediction)
                .iter()
                .map(|predicted| list_score(values, predicted, year_elems))
                .fold(0.0, f64::max)
        }
        Answer::Unanswerable => unreachable!("handled above"),
    }
}

fn list_score(values: &[String], predicted: &[String], year_elems: &[bool]) -> f64 {
    let len = values.len().max(predicted.len());
    if len == 0 {
        return 1.0;
    }
    let mut total = 0.0;
    for (i, (g, p)) in values.iter().zip(predicted).enumerate() {
        let is_year = if year_elems.is_empty() {
            looks_like_year(g).is_some()
        } else {
            year_elems[i % year_elems.len()]
        };
        total += element_score(g, p, is_year);
    }
    total / len as f64
}

fn year_matches(year: i32, prediction: &str) -> bool {
    parse_number(prediction).is_some_and(|p| p.scale == 1.0 && p.value == f64::from(year))
}

/// A gold that is a period (`2023-01`, or as a chart printed it, `Jan '23`)
/// against a prediction that writes a period: right when both are the same
/// period in any form (`January 2023`, `Jan 2023`, `2023-01`), wrong for any
/// other period, however alike the texts. None when either is no period.
fn period_score(gold: &str, prediction: &str) -> Option<f64> {
    use crate::spec::dates::Period;
    let g = Period::read(gold, None)?;
    let p = Period::read(prediction, Some(g.year()))?;
    Some(f64::from(u8::from(p.same(&g))))
}

fn text_score(gold: &str, prediction: &str) -> f64 {
    if let Some(score) = period_score(gold, prediction) {
        return score;
    }
    anls(
        &normalize_text_answer(gold),
        &normalize_text_answer(prediction),
    )
}

fn element_score(gold: &str, prediction: &str, is_year: bool) -> f64 {
    if is_year && let Some(year) = gold.trim().parse::<i32>().ok() {
        return f64::from(u8::from(
            year_matches(year, prediction) || period_score(gold, prediction) == Some(1.0),
        ));
    }
    match (parse_number(gold), parse_number(prediction)) {
        (Some(g), Some(p)) => f64::from(u8::from(numbers_match(&p, g.value, g.scale, g.decimals))),
        _ => text_score(gold, prediction),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(value: f64, decimals: u8, unit: Option<&str>) -> Answer {
        Answer::Number {
            value,
            decimals,
            unit: unit.map(str::to_string),
        }
    }

    #[test]
    fn a_period_is_right_in_any_form_and_only_that_period() {
        let month = Answer::Text {
            value: "2023-01".into(),
        };
        for right in [
            "2023-01",
            "Jan 2023",
            "January 2023",
            "jan 2023",
            "Jan '23",
            "Jan. 2023",
            "2023/1",
        ] {
            assert_eq!(score_typed(&month, right, &[], &[]), 1.0, "{right:?}");
        }
        for wrong in [
            "Jan 2024",
            "2024-01",
            "Feb 2023",
            "2023-02",
            "Jan '24",
            "2023",
            "5 Jan 2023",
        ] {
            assert_eq!(score_typed(&month, wrong, &[], &[]), 0.0, "{wrong:?}");
        }
        // A quarterly chart prints the month that starts a quarter as it.
        let q_start = Answer::Text {
            value: "2023-04".into(),
        };
        assert_eq!(score_typed(&q_start, "Q2 2023", &[], &[]), 1.0);
        assert_eq!(score_typed(&q_start, "Q1 2023", &[], &[]), 0.0);
        let quarter = Answer::Text {
            value: "2023 Q1".into(),
        };
        for right in ["Q1 2023", "2023Q1", "2023 Q1", "Q1 '23"] {
            assert_eq!(score_typed(&quarter, right, &[], &[]), 1.0, "{right:?}");
        }
        assert_eq!(score_typed(&quarter, "Q2 2023", &[], &[]), 0.0);
        assert_eq!(score_typed(&quarter, "Q1 2022", &[], &[]), 0.0);
        let day = Answer::Text {
            value: "2023-01-05".into(),
        };
        for right in ["5 Jan 2023", "Jan 5, 2023", "January 5, 2023", "2023-01-05"] {
            assert_eq!(score_typed(&day, right, &[], &[]), 1.0, "{right:?}");
        }
        assert_eq!(score_typed(&day, "Jan 6, 2023", &[], &[]), 0.0);
        assert_eq!(score_typed(&day, "Jan 2023", &[], &[]), 0.0);
        // Fiscal and short years are relabellings of the year.
        let year = Answer::Year { value: 2023 };
        for right in ["2023", "FY2023", "FY23", "FY 2023", "'23"] {
            assert_eq!(score_typed(&year, right, &[], &[]), 1.0, "{right:?}");
        }
        for wrong in ["FY2024", "FY22", "'24", "1923"] {
            assert_eq!(score_typed(&year, wrong, &[], &[]), 0.0, "{wrong:?}");
        }
        // A gold stored as printed is matched the same way.
        let printed = Answer::Text {
            value: "Jan 2023".into(),
        };
        assert_eq!(score_typed(&printed, "2023-01", &[], &[]), 1.0);
        assert_eq!(score_typed(&printed, "2024-01", &[], &[]), 0.0);
        let list = Answer::List {
            values: vec!["2023-01".into(), "2023-02".into()],
        };
        assert_eq!(score_typed(&list, "Jan 2023, Feb 2023", &[], &[]), 1.0);
        assert_eq!(score_typed(&list, "Jan 2023, Mar 2023", &[], &[]), 0.5);
    }

    #[test]
    fn typed_answers() {
        let c = Answer::Choice {
            letter: 'b',
            text: "Paris".into(),
        };
        let choices = vec!["Rome".to_string(), "Paris".to_string()];
        assert_eq!(score_typed(&c, "(B)", &choices, &[]), 1.0);
        assert_eq!(score_typed(&c, "b. Paris", &choices, &[]), 1.0);
        assert_eq!(score_typed(&c, "Paris", &choices, &[]), 1.0);
        assert_eq!(score_typed(&c, "a", &choices, &[]), 0.0);
        let tf = Answer::TrueFalse { value: false };
        assert_eq!(score_typed(&tf, "FALSE.", &[], &[]), 1.0);
        assert_eq!(score_typed(&tf, "True", &[], &[]), 0.0);
        let y = Answer::Year { value: 2019 };
        assert_eq!(score_typed(&y, "2019", &[], &[]), 1.0);
        assert_eq!(score_typed(&y, "2018", &[], &[]), 0.0); // within 5%, but years are exact
        assert_eq!(
            score_typed(&num(3.2, 1, Some("million")), "3,200,000", &[], &[]),
            1.0
        );
        assert_eq!(
            score_typed(&num(3.2, 1, Some("million")), "$3.3M", &[], &[]),
            1.0
        );
        assert_eq!(
            score_typed(&num(12.5, 1, Some("%")), "12.5%", &[], &[]),
            1.0
        );
        assert_eq!(
            score_typed(&num(12.5, 1, Some("%")), "0.125", &[], &[]),
            0.0
        );
        assert_eq!(score_typed(&num(-4.0, 0, None), "\u{2212}4", &[], &[]), 1.0);
        let text = Answer::Text {
            value: "Not Applicable".into(),
        };
        assert_eq!(score_typed(&text, "N/A", &[], &[]), 1.0);
        assert_eq!(score_typed(&text, "Unanswerable", &[], &[]), 0.0);
        // CharXiv's refusal for an element not drawn is the same refusal.
        for refusal in ["Not Applicable", "N/A", "Unanswerable"] {
            assert_eq!(score_typed(&Answer::Unanswerable, refusal, &[], &[]), 1.0);
        }
        assert_eq!(
            score_typed(&Answer::Unanswerable, "Not shown: 12", &[], &[]),
            0.0
        );
        let list = Answer::List {
            values: vec!["2019".into(), "Paris".into()],
        };
        assert_eq!(score_typed(&list, "2019, Paris", &[], &[]), 1.0);
        assert_eq!(score_typed(&list, "2018, Paris", &[], &[]), 0.5);
        assert_eq!(score_typed(&list, "2019", &[], &[]), 0.5);
        let names = Answer::List {
            values: vec!["Mante and Murazik Group".into(), "Others".into()],
        };
        assert_eq!(
            score_typed(&names, "Mante and Murazik Group, Others", &[], &[]),
            1.0
        );
        let abc = Answer::List {
            values: vec!["a".into(), "b".into(), "c".into()],
        };
        assert_eq!(score_typed(&abc, "a, b and c", &[], &[]), 1.0);
        // 1.9 printed "2" (round to a whole number): both are right.
        assert_eq!(score_typed(&num(1.9, 0, None), "2", &[], &[]), 1.0);
        assert_eq!(score_typed(&num(1.9, 0, None), "1.9", &[], &[]), 1.0);
        assert_eq!(
            score_typed(&Answer::Unanswerable, "cannot be determined", &[], &[]),
            1.0
        );
        assert_eq!(score_typed(&Answer::Unanswerable, "42", &[], &[]), 0.0);
        assert_eq!(
            score_typed(&num(42.0, 0, None), "Unanswerable", &[], &[]),
            0.0
        );
    }
}
