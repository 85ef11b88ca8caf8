//! Answer: the typed result of executing a query.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Answer {
    /// A number printed with `decimals` decimals and an optional unit.
    Number {
        value: f64,
        decimals: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unit: Option<String>,
    },
    Year {
        value: i32,
    },
    Text {
        value: String,
    },
    /// Ordered list.
    List {
        values: Vec<String>,
    },
    /// Yes/No answers (open yes/no questions).
    YesNo {
        value: bool,
    },
    /// Fact-check verdicts (`True` / `False`).
    TrueFalse {
        value: bool,
    },
    /// Multiple-choice letter, lower case `a`..`d`.
    Choice {
        letter: char,
        /// The option text the letter stands for.
        text: String,
    },
    Unanswerable,
}

/// What an abstaining model should say for unanswerable items, and the gold text.
pub const UNANSWERABLE_TEXT: &str = "Unanswerable";

impl Answer {
    /// The gold answer as a short string, the form the scorer compares against.
    pub fn to_text(&self) -> String {
        match self {
            Answer::Number {
                value, decimals, ..
            } => format_number(*value, *decimals),
            Answer::Year { value } => value.to_string(),
            Answer::Text { value } => value.clone(),
            Answer::List { values } => values.join(", "),
            Answer::YesNo { value } => if *value { "Yes" } else { "No" }.into(),
            Answer::TrueFalse { value } => if *value { "True" } else { "False" }.into(),
            Answer::Choice { letter, .. } => letter.to_string(),
            Answer::Unanswerable => UNANSWERABLE_TEXT.into(),
        }
    }

    pub fn type_name(&self) -> &'static str {
        match self {
            Answer::Number { .. } => "number",
            Answer::Year { .. } => "year",
            Answer::Text { .. } => "text",
            Answer::List { .. } => "list",
            Answer::YesNo { .. } => "yes_no",
            Answer::TrueFalse { .. } => "true_false",
            Answer::Choice { .. } => "choice",
            Answer::Unanswerable => "unanswerable",
        }
    }
}

/// Prints a number with a fixed number of decimals, rounded half away from
/// zero on its shortest decimal form (no binary artefacts), without
/// thousands separators and without a negative zero.
pub fn format_number(value: f64, decimals: u8) -> String {
    super::decimal::format_fixed(value, decimals)
}

/// CharXiv's answer kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerKind {
    TextInChart,
    TextInGeneral,
    NumberInChart,
    NumberInGeneral,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_without_negative_zero() {
        assert_eq!(format_number(-0.0001, 2), "0.00");
        assert_eq!(format_number(-1.5, 1), "-1.5");
        assert_eq!(format_number(1234.5678, 2), "1234.57");
        assert_eq!(format_number(2329.458, 14), "2329.45800000000000");
        assert_eq!(format_number(2.675, 2), "2.68");
    }

    #[test]
    fn gold_text_forms() {
        assert_eq!(Answer::TrueFalse { value: false }.to_text(), "False");
        assert_eq!(
            Answer::Choice {
                letter: 'c',
                text: "x".into()
            }
            .to_text(),
            "c"
        );
        assert_eq!(Answer::Unanswerable.to_text(), "Unanswerable");
    }
}
