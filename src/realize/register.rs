//! The register realizer's one change: the canonical question in another
//! tone — a greeting or opener before it, a thank-you after it, or a casual
//! contraction — with every word of the question itself kept.

use rand::RngExt;

use super::Run;
use super::bank::bank;
use super::slots::decapitalize;
use crate::ir::Turn;

/// Tones, each a pair of grammar rules in `register.toml` (a
/// second-language tone, "Please, what is …", read as a form to outside
/// readers).
const STYLES: [&str; 2] = ["formal", "casual"];

/// Words a canonical question opens with that may follow an opener in
/// lower case ("Hey, what is …"); anything else (a name) keeps its capital.
const OPENING_WORDS: &[&str] = &[
    "What",
    "What's",
    "Which",
    "How",
    "Is",
    "Are",
    "Do",
    "Does",
    "Did",
    "In",
    "If",
    "For",
    "According",
    "Using",
    "Can",
];

/// `text` (and, in a conversation, its first turn) in another tone; None for
/// a question followed by options, which takes no greeting or thanks.
pub(super) fn apply(
    text: &str,
    history: &mut [Turn],
    options_follow: bool,
    run: &mut Run,
) -> Option<String> {
    // A greeting before a quiz item with options, or a thank-you after a
    // rounding instruction, read as stacked politeness to outside readers.
    if options_follow {
        return None;
    }
    let style = STYLES[run.rng.random_range(0..STYLES.len())];
    let grammar = &bank("register").grammar;
    let leads = grammar.get(&format!("{style}_lead"))?;
    let tails = grammar.get(&format!("{style}_tail"))?;
    // An opener or a closer, never both: an outside reader found "Hey, is
    // it true that … ? Cheers!" stilted where either alone read as a
    // person's. A question ending in a rounding instruction only opens.
    // A follow-up turn is no place for a sign-off ("And for Ondricka Inc?
    // Thank you in advance."): a conversation opens its first turn.
    let instructed = text.contains("Round to");
    let lead = instructed || !history.is_empty() || run.rng.random_bool(0.5);
    let tail = !lead;
    run.id.push(format!("register.{style}"));
    let mut out = text.to_string();
    if style == "casual" && run.rng.random_bool(0.5) {
        let first = history.first_mut().map_or(&mut out, |t| &mut t.question);
        if let Some(rest) = first.strip_prefix("What is ") {
            *first = format!("What's {rest}");
            run.transforms.push("register:contraction".into());
        }
    }
    if lead {
        let opener = &leads[run.rng.random_range(0..leads.len())];
        let first = history.first_mut().map_or(&mut out, |t| &mut t.question);
        *first = open_with(opener, first);
        run.transforms.push(format!("register:{style}:opener"));
    }
    if tail {
        let closer = &tails[run.rng.random_range(0..tails.len())];
        out.push_str(closer);
        run.transforms.push(format!("register:{style}:closer"));
    }
    Some(out)
}

/// `question` after `opener`: lower case after a comma or colon when the
/// question opens with a function word, as typed.
fn open_with(opener: &str, question: &str) -> String {
    let continues = opener.trim_end().ends_with([',', ':']);
    let first = question.split_whitespace().next().unwrap_or("");
    if continues && OPENING_WORDS.contains(&first) {
        format!("{opener}{}", decapitalize(question))
    } else {
        format!("{opener}{question}")
    }
}

#[cfg(test)]
mod tests {
    use super::open_with;

    #[test]
    fn an_opener_runs_on_only_into_a_function_word() {
        assert_eq!(
            open_with("Hey, ", "What is the highest value of Coal?"),
            "Hey, what is the highest value of Coal?"
        );
        assert_eq!(
            open_with("Good morning. ", "What is the title of the chart?"),
            "Good morning. What is the title of the chart?"
        );
        assert_eq!(
            open_with("Okay, ", "What's the title of the chart?"),
            "Okay, what's the title of the chart?"
        );
        assert_eq!(
            open_with("So, ", "Brazil: is it higher?"),
            "So, Brazil: is it higher?"
        );
    }
}
