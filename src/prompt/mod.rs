//! Prompt strategies and templates (issue 5).
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
