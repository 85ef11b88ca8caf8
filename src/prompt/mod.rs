//! Prompt strategies and templates.
//!
//! One template per question type lives in `templates/prompts/` (embedded at
//! build time); each renders the question with the chosen strategy (direct
//! answer, chain of thought, program of thought). `--prompt-template FILE`
//! replaces them with one user template that sees the same variables:
//! `strategy`, `question`, `question_type`, `choices` (list of `{letter,
//! text}`), `history` (list of `{question, answer}`), `paragraph`.

pub mod pot;

use std::path::Path;

use serde::Serialize;

use crate::ir::{Item, QuestionType};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    #[default]
    Direct,
    /// Chain of thought: reason, then a final `Answer:` line.
    Cot,
    /// Program of thought: a Python program printing the answer.
    Pot,
}

impl Strategy {
    pub const ALL: [Strategy; 3] = [Strategy::Direct, Strategy::Cot, Strategy::Pot];

    pub fn name(self) -> &'static str {
        match self {
            Strategy::Direct => "direct",
            Strategy::Cot => "cot",
            Strategy::Pot => "pot",
        }
    }

    pub fn from_name(name: &str) -> Option<Strategy> {
        let n = name.trim().to_ascii_lowercase();
        Strategy::ALL.into_iter().find(|s| s.name() == n)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PromptError {
    #[error("cannot read prompt template {path}: {message}")]
    Read { path: String, message: String },
    #[error("prompt template {name}: {message}")]
    Template { name: String, message: String },
}

const PARTS: [(&str, &str); 8] = [
    (
        "_context.j2",
        include_str!("../../templates/prompts/_context.j2"),
    ),
    (
        "_strategy.j2",
        include_str!("../../templates/prompts/_strategy.j2"),
    ),
    (
        "factoid.j2",
        include_str!("../../templates/prompts/factoid.j2"),
    ),
    (
        "multiple_choice.j2",
        include_str!("../../templates/prompts/multiple_choice.j2"),
    ),
    (
        "fact_check.j2",
        include_str!("../../templates/prompts/fact_check.j2"),
    ),
    (
        "hypothetical.j2",
        include_str!("../../templates/prompts/hypothetical.j2"),
    ),
    (
        "conversational.j2",
        include_str!("../../templates/prompts/conversational.j2"),
    ),
    (
        "descriptive.j2",
        include_str!("../../templates/prompts/descriptive.j2"),
    ),
];

const USER_TEMPLATE: &str = "user";

/// Renders prompts for items.
pub struct Prompter {
    env: minijinja::Environment<'static>,
    strategy: Strategy,
    custom: bool,
}

#[derive(Serialize)]
struct Choice<'a> {
    letter: char,
    text: &'a str,
}

impl Prompter {
    /// The built-in templates, or `template` (one file for every question type).
    pub fn new(strategy: Strategy, template: Option<&Path>) -> Result<Prompter, PromptError> {
        let mut env = minijinja::Environment::new();
        env.set_keep_trailing_newline(false);
        for (name, source) in PARTS {
            env.add_template(name, source)
                .map_err(|e| template_error(name, &e))?;
        }
        let custom = template.is_some();
        if let Some(path) = template {
            let source = std::fs::read_to_string(path).map_err(|e| PromptError::Read {
                path: path.display().to_string(),
                message: e.to_string(),
            })?;
            env.add_template_owned(USER_TEMPLATE, source)
                .map_err(|e| template_error(&path.display().to_string(), &e))?;
        }
        Ok(Prompter {
            env,
            strategy,
            custom,
        })
    }

    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    pub fn render(&self, item: &Item) -> Result<String, PromptError> {
        let name = if self.custom {
            USER_TEMPLATE.to_string()
        } else {
            format!("{}.j2", template_for(item.question_type))
        };
        let template = self
            .env
            .get_template(&name)
            .map_err(|e| template_error(&name, &e))?;
        let choices: Vec<Choice> = item
            .choices
            .iter()
            .enumerate()
            .map(|(k, text)| Choice {
                letter: (b'a' + (k % 26) as u8) as char,
                text,
            })
            .collect();
        let text = template
            .render(minijinja::context! {
                strategy => self.strategy.name(),
                question => &item.question,
                question_type => item.question_type.name(),
                choices => choices,
                history => &item.history,
                paragraph => &item.paragraph,
            })
            .map_err(|e| template_error(&name, &e))?;
        Ok(text.trim().to_string())
    }
}

fn template_for(question_type: QuestionType) -> &'static str {
    question_type.name()
}

fn template_error(name: &str, err: &minijinja::Error) -> PromptError {
    let mut message = err.to_string();
    if let Some(line) = err.line() {
        message = format!("line {line}: {message}");
    }
    PromptError::Template {
        name: name.to_string(),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Answer, AnswerKind, ChartKind, Query, Realization, SetName, Turn};

    fn item(question_type: QuestionType) -> Item {
        Item {
            id: "i".into(),
            set: SetName::Original,
            origin: None,
            chart_id: "c".into(),
            image: "images/c.png".into(),
            table_id: "t".into(),
            chart_kind: ChartKind::Bar,
            question: "Which region sold most?".into(),
            question_type,
            family: "argmax".into(),
            query: Query::Argmax {
                panel: 0,
                series: None,
            },
            answer: Answer::Text {
                value: "Asia".into(),
            },
            answer_text: "Asia".into(),
            answer_kind: AnswerKind::TextInChart,
            answerable: true,
            choices: vec!["Asia".into(), "Europe".into()],
            history: vec![Turn {
                question: "What is shown?".into(),
                answer: "Sales".into(),
            }],
            paragraph: Some("Sales rose in 2020.".into()),
            realization: Realization::default(),
            perturbations: vec![],
            visual_distance: None,
            reading_change: None,
        }
    }

    #[test]
    fn every_type_and_strategy_renders() {
        for strategy in Strategy::ALL {
            let prompter = Prompter::new(strategy, None).unwrap();
            for t in QuestionType::ALL {
                let text = prompter.render(&item(t)).unwrap();
                assert!(
                    text.contains("Which region sold most?"),
                    "{t:?} {strategy:?}"
                );
                assert!(text.contains("Sales rose in 2020."));
                assert!(text.contains("Q: What is shown?\nA: Sales"));
                assert!(!text.contains("{{") && !text.contains("{%"));
            }
        }
    }

    #[test]
    fn wording_follows_type_and_strategy() {
        let direct = Prompter::new(Strategy::Direct, None).unwrap();
        let mc = direct.render(&item(QuestionType::MultipleChoice)).unwrap();
        assert!(mc.contains("(a) Asia\n(b) Europe"), "{mc}");
        assert!(mc.ends_with("Reply with the answer only, no explanation."));
        let desc = direct.render(&item(QuestionType::Descriptive)).unwrap();
        assert!(desc.contains("answer \"Unanswerable\""), "{desc}");
        let cot = Prompter::new(Strategy::Cot, None).unwrap();
        assert!(
            cot.render(&item(QuestionType::Factoid))
                .unwrap()
                .contains("\"Answer: <answer>\"")
        );
        let pot = Prompter::new(Strategy::Pot, None).unwrap();
        assert!(
            pot.render(&item(QuestionType::Factoid))
                .unwrap()
                .contains("```python")
        );
    }

    #[test]
    fn user_template_errors_name_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.j2");
        std::fs::write(&path, "{{ question ").unwrap();
        let err = Prompter::new(Strategy::Direct, Some(&path)).err().unwrap();
        assert!(err.to_string().contains("bad.j2"), "{err}");
        assert!(Strategy::from_name("COT") == Some(Strategy::Cot));
    }
}
