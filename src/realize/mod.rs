//! Realizers turning queries into text.
//!
//! Wordings are data (`templates/questions/*.toml`). The canonical realizer is
//! one fixed terse template per family. Every other realizer is the canonical
//! wording with exactly one kind of change, the one it declares: synonyms
//! swapped in place (lexical), the canonical noun phrase in another sentence
//! shape (syntactic), a greeting or thank-you around the canonical question
//! (register), entities named by their look (visual), a context sentence
//! before it (distractor) or typos (noisy). The answer never changes —
//! `realize` re-executes the query and refuses to return a question whose
//! answer would differ.

pub mod bank;
mod cell;
mod context;
mod grammar;
mod lexicon;
/// Whole-word search, also used to tell whether a chart's text states an answer.
pub(crate) use grammar::names_word;
mod noisy;
mod register;
pub mod slots;
mod undrawn;
mod visual;

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::ir::query::{CellRef, Query};
use crate::ir::{Answer, ChartSpec, Realization, Scene, Turn};
use crate::query::execute;
use crate::questions::Question;
use bank::{Bank, Frames, bank};
use slots::{
    SERIES_KEYS, Slots, asked_decimals, capitalize, decapitalize, decimals_of, decimals_phrase,
    fill, is_yes_no_key, ordinal, reads_plural,
};

/// Every realizer, canonical first.
pub fn realizers() -> Vec<&'static str> {
    vec![
        "canonical",
        "lexical",
        "syntactic",
        "register",
        "visual",
        "distractor",
        "noisy",
    ]
}

/// Paraphrase realizers (all but canonical).
pub fn paraphrase_realizers() -> Vec<&'static str> {
    realizers().into_iter().skip(1).collect()
}

/// A new wording of `q` by `realizer`: same query, same answer, new text.
/// None when the realizer does not apply (e.g. no unique colour to refer to).
pub fn realize(
    q: &Question,
    realizer: &str,
    spec: &ChartSpec,
    scene: &Scene,
    seed: u64,
) -> Option<Question> {
    if !realizers().contains(&realizer) {
        return None;
    }
    let (text, history, realization) = render(q, realizer, spec, scene, seed)?;
    // A twin is a change: one that came out as its original is not made.
    if realizer != "canonical" && text == q.text && history == q.history {
        return None;
    }
    // The wording must not change the answer; re-execute to be sure.
    let answer = execute(&q.query, spec, scene).ok()?;
    if answer != q.answer {
        return None;
    }
    let mut out = q.clone();
    out.text = text;
    out.history = history;
    out.realization = realization;
    Some(out)
}

struct Run<'a> {
    name: &'a str,
    /// The change the wording declares (the realizer asked for); `name` is
    /// the bank whose templates it starts from.
    declared: &'a str,
    frames: &'static Frames,
    rng: Xoshiro256PlusPlus,
    id: Vec<String>,
    transforms: Vec<String>,
    /// The chart's entity names: grammar filler must not name them.
    avoid: Vec<String>,
    domain: Option<&'static bank::Domain>,
    /// Grammar rules left out of the current wording.
    mute: &'static [&'static str],
    /// Canonical wording of a series name that cannot follow an adjective
    /// (wrapped, "the 2020 series", a visual reference, "the blue line", or
    /// an entity's, "Kerluke and Sons"): templates that use the name as a
    /// modifier are swapped.
    wrapped: bool,
    /// Whether the asked measure counts things ("visitors"): templates say
    /// "the most visitors", "the total number of visitors".
    counted: bool,
    /// Whether the last noun phrase drawn holds a clause of its own.
    np_clausal: bool,
    /// Synonyms swapped into every template drawn (the lexical realizer);
    /// empty otherwise.
    lexicon: &'static [(&'static str, &'static [String])],
}

impl Run<'_> {
    /// One alternative of `items`, its `{@rule}`s expanded.
    fn pick(&mut self, label: &str, items: &[&str]) -> Option<String> {
        if items.is_empty() {
            return None;
        }
        let i = self.rng.random_range(0..items.len());
        self.id.push(format!("{label}{i}"));
        let banks = [self.name];
        let source = grammar::Source {
            banks: &banks,
            avoid: &self.avoid,
            domain: self.domain,
            mute: self.mute,
        };
        let t = grammar::expand(items[i], &source, &mut self.rng, &mut self.id)?;
        Some(self.reword(&t))
    }

    /// A template with the lexicon's synonyms swapped in (lexical only).
    fn reword(&mut self, template: &str) -> String {
        if self.lexicon.is_empty() {
            return template.to_string();
        }
        lexicon::rewrite(template, self.lexicon, &mut self.rng, &mut self.transforms)
    }

    fn pick_owned(&mut self, label: &str, items: &'static [String]) -> Option<String> {
        let refs: Vec<&'static str> = items.iter().map(String::as_str).collect();
        self.pick(label, &refs)
    }

    /// A family's canonical templates: every realizer words the answer with
    /// the canonical noun phrase or clause (the lexical one swaps synonyms
    /// into it), so a twin never changes the words that name the answer and
    /// the shape of its sentence at once.
    fn pools(
        &self,
        key: &str,
        which: fn(&Bank) -> &std::collections::BTreeMap<String, bank::Strs>,
    ) -> Vec<&'static str> {
        which(bank("canonical"))
            .get(key)
            .map(|s| s.all())
            .unwrap_or_default()
    }

    fn np(&mut self, key: &str, slots: &Slots) -> Option<String> {
        let canonical = bank("canonical");
        let pool = match (canonical.np_awkward.get(key), canonical.np_count.get(key)) {
            (Some(a), _) if self.wrapped => a.all(),
            (_, Some(c)) if self.counted && !self.wrapped => c.all(),
            _ => self.pools(key, |b| &b.np),
        };
        let t = self.pick("np", &pool)?;
        self.np_clausal = clausal(&t);
        fill(&t, slots)
    }

    fn clause(&mut self, key: &str, yes: bool, slots: &Slots) -> Option<String> {
        let canonical = bank("canonical");
        let (awkward, count) = if yes {
            (
                canonical.clause_awkward.get(key),
                canonical.clause_count.get(key),
            )
        } else {
            (
                canonical.clause_no_awkward.get(key),
                canonical.clause_no_count.get(key),
            )
        };
        let pool = match (awkward, count) {
            (Some(a), _) if self.wrapped => a.all(),
            (_, Some(c)) if self.counted => c.all(),
            _ if yes => self.pools(key, |b| &b.clause),
            _ => self.pools(key, |b| &b.clause_no),
        };
        let t = self.pick("clause", &pool)?;
        fill(&t, slots)
    }

    /// The plain question for a base query.
    /// The canonical question template of `key` for these slots: the
    /// wrapped, counting or plural variant where the names need one.
    fn canonical_template(&self, key: &str, slots: &Slots) -> Option<&'static String> {
        let canonical = bank("canonical");
        let awkward = canonical.question_awkward.get(key).filter(|_| self.wrapped);
        let plural = canonical.question_plural.get(key).filter(|_| {
            !self.wrapped && slots.get("series").is_some_and(|s| slots::reads_plural(s))
        });
        let count = canonical
            .question_count
            .get(key)
            .filter(|_| !self.wrapped && self.counted);
        awkward
            .or(count)
            .or(plural)
            .or_else(|| canonical.question.get(key))
    }

    fn question(&mut self, query: &Query, key: &str, slots: &Slots) -> Option<String> {
        let mut text = if self.name == "canonical" {
            let t = self.canonical_template(key, slots)?;
            self.id.push("q".into());
            let t = self.reword(t);
            fill(&t, slots)?
        } else if let Some(clause) = self
            .canonical_template(key, slots)
            .and_then(|t| embedded_clause(key, t))
        {
            // "Can you tell me which city has the highest rent?": a question
            // that asks for a category keeps its wh-word when embedded
            // ("what the city with the highest rent is" reads like a form).
            let rule = if self.mute.is_empty() {
                "{@embed_question}"
            } else {
                "{@embed_question_ask}"
            };
            let frame = self.pick("whq", &[rule])?;
            let mut s = slots.clone();
            s.insert("q".into(), fill(&clause, slots)?);
            fill(&frame, &s)?
        } else if is_yes_no_key(key) {
            let clause = self.clause(key, true, slots)?;
            let frame = self.pick_owned("yn", &self.frames.yn)?;
            let mut s = slots.clone();
            s.insert("clause".into(), clause);
            fill(&frame, &s)?
        } else {
            let np = self.np(key, slots)?;
            let mark = self.id.len();
            let mut tries = 0;
            loop {
                let frame = self.pick_owned("wh", &self.frames.wh)?;
                let s = slots.clone();
                let text = with_np(&frame, &np, &s)?;
                tries += 1;
                let misfit = misfits(&text, &np, key);
                // Options follow a question, not a request or a statement.
                let before_options = !self.mute.is_empty() && !text.trim_end().ends_with('?');
                let buried = buries(&text, &np, self.np_clausal || heavy(&np));
                if !(buried || misfit || before_options) {
                    break text;
                }
                if tries >= MAX_FRAME_TRIES {
                    // Options need a question before them, and an embedded
                    // request around them is refused below.
                    if before_options {
                        return None;
                    }
                    break text;
                }
                // Another frame, recorded in the template id as if first.
                self.id.truncate(mark);
            }
        };
        // A request ("Could you tell me what … is?") wrapped around a quiz
        // item's options read as stilted to outside readers.
        let request = ["can you tell me", "could you tell me", "do you know"];
        let opening = text.to_lowercase();
        if !self.mute.is_empty() && request.iter().any(|r| opening.starts_with(r)) {
            return None;
        }
        // Options already show the precision: "Round to one decimal place."
        // before them read as redundant to outside readers.
        if let Some(d) = asked_decimals(query).filter(|_| self.mute.is_empty()) {
            text = self.round(&text, d)?;
        }
        Some(capitalize(&text))
    }

    fn round(&mut self, text: &str, decimals: u8) -> Option<String> {
        let frame = self.pick_owned("round", &self.frames.round)?;
        let mut s = Slots::new();
        s.insert("dp".into(), decimals_phrase(decimals));
        Some(format!("{text} {}", capitalize(&fill(&frame, &s)?)))
    }

    fn claim(&mut self, key: &str, stated: &str, slots: &Slots) -> Option<String> {
        if is_yes_no_key(key) {
            let yes = stated.eq_ignore_ascii_case("yes");
            return Some(format!("{}.", capitalize(&self.clause(key, yes, slots)?)));
        }
        let canonical = bank("canonical");
        let sentence = match (
            canonical.claim_sentence_awkward.get(key),
            canonical.claim_sentence_count.get(key),
        ) {
            (Some(t), _) if self.wrapped => Some(t),
            (_, Some(t)) if self.counted && !self.wrapped => Some(t),
            _ => canonical.claim_sentence.get(key),
        };
        if let Some(t) = sentence {
            // "Wind is increasing", but "Wind decreases then increases".
            let plural = !self.wrapped && slots.get("series").is_some_and(|s| reads_plural(s));
            let t = if key == "trend" && stated.contains(" then ") {
                "{series} {answer}"
            } else if key == "trend" && plural {
                "{series} are {answer}"
            } else {
                t.as_str()
            };
            let t = self.pick("claim_sentence", &[t])?;
            let mut s = slots.clone();
            // A rank is said as an ordinal: "Iran ranks 9th by population".
            let said = match stated.parse::<usize>() {
                Ok(n) if key == "rank" => numeric_ordinal(n),
                _ => stated.to_string(),
            };
            s.insert("answer".into(), said);
            return Some(format!("{}.", capitalize(&fill(&t, &s)?)));
        }
        let np = self.np(key, slots)?;
        // "equals" / "comes to" suit numbers; names and labels take the first ("is") frame.
        // A year that names a category ("the year with the largest gap is
        // 2019") is a name too: it "is", it does not "equal".
        let numeric = crate::query::parse_number(stated).is_some()
            && stated.chars().all(|c| !c.is_alphabetic())
            && !names_a_category(key);
        let frames: &'static [String] = if numeric {
            &self.frames.claim
        } else {
            &self.frames.claim[..1.min(self.frames.claim.len())]
        };
        let mut frame = self.pick_owned("claim", frames)?;
        // "The highest weekly wages are 76": a value of a plural measure
        // takes "are" ("the number of …" and a wrapped singular measure do
        // not).
        let plural = if self.wrapped {
            slots.get("be").is_some_and(|b| b == "are")
        } else {
            !self.counted && slots.get("series").is_some_and(|s| reads_plural(s))
        };
        if plural
            && matches!(
                key,
                "value_at" | "max_value" | "min_value" | "mean" | "median"
            )
        {
            frame = frame.replace("{NP} is ", "{NP} are ");
        }
        let mut s = slots.clone();
        s.insert("answer".into(), stated.to_string());
        let claim = capitalize(&with_np(&frame, &np, &s)?);
        // A stated sentence (a note) ends the claim itself: no "..".
        Some(if stated.ends_with(['.', '!', '?']) {
            claim.replace(&format!("{stated}."), stated)
        } else {
            claim
        })
    }
}

/// A canonical question that asks for its subject ("Which city has the
/// highest rent?", "How many years have sales above 10?") as an embedded
/// clause ("which city has the highest rent"); "In which year did sales
/// increase the most?" loses its "did" ("in which year sales increased the
/// most"). None for other families, which embed their noun phrase.
fn embedded_clause(key: &str, template: &str) -> Option<String> {
    const SUBJECT_QUESTIONS: [&str; 15] = [
        "argmax",
        "argmin",
        "argmax_all",
        "argmin_all",
        "widest_interval",
        "narrowest_interval",
        "largest_rise",
        "largest_fall",
        "highest_panel",
        "lowest_panel",
        "highlighted",
        "count_above",
        "count_below",
        "count_above_reference",
        "outlier_count",
    ];
    let body = template.trim_end().strip_suffix('?')?;
    if SUBJECT_QUESTIONS.contains(&key) {
        if key == "outlier_count" {
            // "How many outliers does {category} have" → "… {category} has".
            let (head, tail) = body.split_once(" does ")?;
            let tail = tail.strip_suffix(" have")?;
            return Some(decapitalize(&format!("{head} {tail} has")));
        }
        return Some(decapitalize(body));
    }
    if matches!(key, "largest_increase" | "largest_decrease") {
        let (head, tail) = body.split_once(" did ")?;
        let (subject, verb) = tail.rsplit_once(" the most")?.0.rsplit_once(' ')?;
        return Some(decapitalize(&format!("{head} {subject} {verb}d the most")));
    }
    if matches!(key, "legend_labels" | "reference_value") {
        // "What names does the legend list, in order" → "what names the
        // legend lists, in order" ("what the names the legend lists is"
        // is not English).
        let (head, tail) = body.split_once(" does ")?;
        let (clause, rest) = tail.split_once(',').unwrap_or((tail, ""));
        let sep = if rest.is_empty() { "" } else { "," };
        return Some(decapitalize(&format!("{head} {clause}s{sep}{rest}")));
    }
    None
}

/// "1st", "2nd", "3rd", "11th", "22nd": the number stays in the claim.
fn numeric_ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// A claim as a clause inside a question ("Is it true that the highest
/// value of Coal is 52?"): no closing full stop, and a sentence-initial
/// article or preposition in lower case again (a name keeps its capital).
fn claim_clause(claim: &str) -> String {
    let body = claim.trim_end();
    let body = match body.strip_suffix('.') {
        Some(b) if !b.ends_with('.') => b,
        _ => body,
    };
    let first = body.split_whitespace().next().unwrap_or("");
    const FUNCTION_WORDS: [&str; 10] = [
        "There",
        "The",
        "A",
        "An",
        "According",
        "On",
        "In",
        "Its",
        "Every",
        "No",
    ];
    if FUNCTION_WORDS.contains(&first.trim_end_matches(',')) {
        let mut c = body.chars();
        c.next()
            .map(|f| f.to_lowercase().collect::<String>() + c.as_str())
            .unwrap_or_default()
    } else {
        body.to_string()
    }
}

/// Grammar rules muted inside a multiple-choice question: closers (thanks,
/// sign-offs) and brief context, which read oddly between a question and
/// its options or after a "Which of these is right?" opener; the frame
/// around the options adds context at the front instead.
const MUTED_BEFORE_OPTIONS: &[&str] = &[
    "ask_tail",
    "formal_tail",
    "casual_tail",
    "brief_tail",
    "brief_lead",
];

/// Families whose answer is a category or tick label, not a quantity.
fn names_a_category(key: &str) -> bool {
    [
        "argmax",
        "argmin",
        "largest_",
        "max_gap",
        "leftmost_",
        "rightmost_",
    ]
    .iter()
    .any(|k| key.starts_with(k))
}

/// Families whose answer is a name, a label or a description: "what does
/// it come to?" presumes a number.
fn answers_with_words(key: &str) -> bool {
    names_a_category(key)
        || [
            "title",
            "subtitle",
            "note",
            "x_label",
            "y_label",
            "source",
            "legend_labels",
            "trend",
            "general_trend",
            "subplot_layout",
            "series_axis",
            "shaded_period",
            "highlighted",
            "callout_target",
            "highest_panel",
            "lowest_panel",
            "widest_interval",
            "narrowest_interval",
        ]
        .contains(&key)
}

/// Whether a frame asks for a number ("what does it come to?") where the
/// family's answer is a name.
fn misfits(text: &str, np: &str, key: &str) -> bool {
    let frame = text.to_lowercase().replace(&np.to_lowercase(), " ");
    // "Tell me what the number of lines is" reads like a form; "Tell me the
    // number of lines" does not.
    let counted = ["the number of ", "the total number of "]
        .iter()
        .any(|p| np.to_lowercase().starts_with(p));
    if counted && frame.contains("what ") {
        return true;
    }
    answers_with_words(key)
        && [
            "come to",
            "comes to",
            "amount to",
            "amounts to",
            "figure",
            "reading",
            "what number",
            "how much",
            "how high",
        ]
        .iter()
        .any(|w| frame.contains(w))
}

/// Whether a noun phrase holds a clause ("the city where rent peaks").
fn has_clause(np: &str) -> bool {
    reduced_relative(np)
        || [
            " where ",
            " that ",
            " which ",
            " account for ",
            " in which ",
        ]
        .iter()
        .any(|w| np.contains(w))
}

/// A claim without the phrase saying where its answer is read, and that
/// phrase as a lead for the whole question: "Using the text and the chart,
/// is it true that the difference … is 699?", not "… between 2023 and 2009,
/// using the text and the chart is 699?".
fn source_lead(claim: &str) -> (String, Option<&'static str>) {
    const SOURCES: [(&str, &str); 2] = [
        (
            ", using the text and the chart",
            "Using the text and the chart",
        ),
        (" according to the text", "According to the text"),
    ];
    for (phrase, lead) in SOURCES {
        if claim.contains(phrase) {
            return (claim.replacen(phrase, "", 1), Some(lead));
        }
    }
    (claim.to_string(), None)
}

/// Words that join a noun phrase to the next without opening a clause.
const LINKING_WORDS: &[&str] = &[
    "of", "in", "for", "on", "at", "from", "to", "between", "and", "by", "with", "across", "along",
    "under", "beside", "below", "above", "over", "into", "than", "minus", "divided", "less", "net",
    "after", "before", "as",
];

/// Whether a noun phrase template puts a verb after an entity slot ("the
/// highest level {series} reaches"): a clause once the slot is filled.
fn clausal(template: &str) -> bool {
    [
        "{series} ",
        "{category} ",
        "{a_cat} ",
        "{b_cat} ",
        "{a_series} ",
    ]
    .iter()
    .any(|slot| {
        template.match_indices(slot).any(|(at, _)| {
            let next = template[at + slot.len()..].split_whitespace().next();
            next.is_some_and(|w| {
                let w = w.trim_matches(|c: char| !c.is_alphabetic());
                !w.is_empty() && !w.starts_with('{') && !LINKING_WORDS.contains(&w)
            })
        })
    })
}

/// "the source the chart cites": a second noun phrase opening a clause
/// inside the first, with no preposition before it.
fn reduced_relative(np: &str) -> bool {
    let words: Vec<&str> = np.split_whitespace().collect();
    words.windows(2).skip(1).any(|w| {
        w[1].eq_ignore_ascii_case("the") && !LINKING_WORDS.contains(&w[0].to_lowercase().as_str())
    })
}

/// Frames drawn before a question keeps one that buries its noun phrase.
const MAX_FRAME_TRIES: usize = 8;

/// A noun phrase too long, or too clausal, to embed before its verb.
fn heavy(np: &str) -> bool {
    np.split_whitespace().count() > 8 || has_clause(np)
}

/// Whether `text` asks for a `heavy` noun phrase by embedding it before its
/// verb ("could you say what the city where rent peaks is?", "what would
/// the country where the 2020 data crests be here?"): readable, but not how
/// people ask. Short noun phrases embed naturally ("can you tell me what
/// the title is?").
fn buries(text: &str, np: &str, heavy: bool) -> bool {
    let lower = text.to_lowercase();
    let np = np.to_lowercase();
    heavy
        && [
            " is",
            " be",
            " would be",
            " comes to",
            " amounts to",
            " was",
        ]
        .iter()
        .any(|verb| {
            lower.match_indices(&np).any(|(at, _)| {
                let after = &lower[at + np.len()..];
                after.starts_with(verb)
                    && after[verb.len()..]
                        .chars()
                        .next()
                        .is_none_or(|c| !c.is_alphanumeric())
            })
        })
}

fn with_np(frame: &str, np: &str, slots: &Slots) -> Option<String> {
    let mut s = slots.clone();
    s.insert("np".into(), np.to_string());
    s.insert("NP".into(), capitalize(np));
    fill(frame, &s)
}

fn options_text(style: &str, options: &[String]) -> String {
    let items: Vec<String> = options
        .iter()
        .enumerate()
        .map(|(i, o)| format!("{}) {o}", (b'a' + i as u8) as char))
        .collect();
    match style {
        "newline" => format!("\n{}", items.join("\n")),
        // As a hurried typist leaves it: no commas between the options.
        "bare" => items.join(" "),
        _ => items.join(", "),
    }
}

/// `text` with its options block (as `options_text` printed `old`) printed
/// again for `new`, the same options in another order; None unless the old
/// block occurs exactly once (a noisy wording may have altered it).
pub fn reorder_options(text: &str, old: &[String], new: &[String]) -> Option<String> {
    ["newline", "inline", "bare"].into_iter().find_map(|style| {
        let block = options_text(style, old);
        (text.matches(block.as_str()).count() == 1)
            .then(|| text.replacen(block.as_str(), &options_text(style, new), 1))
    })
}

/// How a conversation turn refers back to the one before it.
fn follow_up(prev: &Query, turn: &Query, spec: &ChartSpec) -> Option<&'static str> {
    if crate::query::wrappers::refers_to_previous(prev, turn) {
        return Some("its_value");
    }
    match (prev, turn) {
        (
            Query::ValueAt {
                series: s1,
                category: c1,
                ..
            },
            Query::ValueAt {
                series: s2,
                category: c2,
                ..
            },
        ) => {
            if s1 == s2 && c1 != c2 {
                Some(neighbour(spec, prev.panel(), c1, c2).unwrap_or("category"))
            } else if c1 == c2 && s1 != s2 {
                Some("series")
            } else {
                None
            }
        }
        (Query::ValueAt { .. }, Query::Difference { .. }) => {
            difference_from(prev, turn).map(|_| "difference")
        }
        _ => None,
    }
}

/// For "What is the difference between that and the value for B?": which
/// side ("a" or "b") of the difference is the cell other than the one the
/// turn before asked, that cell, and whether it differs from that one by
/// series (else by category); None unless exactly one of the two differs.
pub(crate) fn difference_from<'q>(
    prev: &Query,
    turn: &'q Query,
) -> Option<(&'static str, &'q CellRef, bool)> {
    let (
        Query::ValueAt {
            series, category, ..
        },
        Query::Difference { a, b, .. },
    ) = (prev, turn)
    else {
        return None;
    };
    let asked = |c: &CellRef| c.series == *series && c.category == *category;
    let (side, other) = match (asked(a), asked(b)) {
        (true, false) => ("b", b),
        (false, true) => ("a", a),
        _ => return None,
    };
    match (other.series == *series, other.category == *category) {
        (true, false) => Some((side, other, false)),
        (false, true) => Some((side, other, true)),
        _ => None,
    }
}

/// "next" / "previous" when `c2` is the year right after / before `c1`.
fn neighbour(spec: &ChartSpec, panel: usize, c1: &str, c2: &str) -> Option<&'static str> {
    let panels = spec.panels();
    let table = &panels.get(panel)?.table;
    if table.index.ctype != crate::ir::ColumnType::Year {
        return None;
    }
    let i = table.row_of(c1)?;
    let (y1, y2) = (c1.parse::<i32>().ok()?, c2.parse::<i32>().ok()?);
    // "And the year after?" past the last year shown (an unanswerable follow-up).
    let j = match table.row_of(c2) {
        Some(j) => j,
        None if i + 1 == table.n_rows() && y2 == y1 + 1 => i + 1,
        None if i == 0 && y2 == y1 - 1 => return Some("previous"),
        None => return None,
    };
    match (j as i64 - i as i64, y2 - y1) {
        (1, 1) => Some("next"),
        (-1, -1) => Some("previous"),
        _ => None,
    }
}

type Rendered = (String, Vec<Turn>, Realization);

/// The series of the panel's table (plotted or not): among several, a
/// series name may name one of several places or kinds rather than the
/// measure.
fn sibling_series(spec: &ChartSpec, panel: usize) -> Vec<String> {
    spec.panels()
        .get(panel)
        .map(|p| {
            let mut names: Vec<String> = p.table.series.iter().map(|c| c.name.clone()).collect();
            for s in &p.series {
                if !names.contains(s) {
                    names.push(s.clone());
                }
            }
            names
        })
        .unwrap_or_default()
}

/// Series and category names of every panel that read as words (three
/// letters or more; "A" or "Q1" would match ordinary filler too often).
fn entity_names(spec: &ChartSpec) -> Vec<String> {
    let mut names: Vec<String> = spec
        .panels()
        .iter()
        .flat_map(|p| p.series.iter().cloned().chain(p.table.category_labels()))
        .filter(|n| n.chars().filter(|c| c.is_alphabetic()).count() >= 3)
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The subject of the chart, from the words of its titles, series, index,
/// axis labels and units.
fn chart_domain(spec: &ChartSpec) -> Option<&'static bank::Domain> {
    let mut text = String::new();
    for p in spec.panels() {
        let t = &p.table;
        let parts = [
            &p.title,
            &p.y_label,
            &p.x_label,
            &t.meta.title,
            &t.meta.unit,
        ];
        for s in parts.into_iter().flatten() {
            text.push_str(s);
            text.push(' ');
        }
        text.push_str(&t.index.name);
        text.push(' ');
        for s in &p.series {
            text.push_str(s);
            text.push(' ');
        }
    }
    bank::domain_for(&text)
}

fn render(
    q: &Question,
    name: &str,
    spec: &ChartSpec,
    scene: &Scene,
    seed: u64,
) -> Option<Rendered> {
    let query_json = serde_json::to_string(&q.query).ok()?;
    let rng = crate::seed::rng(
        seed,
        &["realize", name, q.question_type.name(), &query_json],
    );
    // Each twin is the canonical wording with its one declared change: only
    // the syntactic realizer has sentence frames of its own; the others start
    // from the canonical templates and change them one way (synonyms, a
    // register, visual references, a context sentence, typos).
    let typos = name == "noisy";
    let context = name == "distractor";
    let visual = name == "visual";
    let declared = name;
    let name = if name == "syntactic" {
        "syntactic"
    } else {
        "canonical"
    };
    let lexicon = if declared == "lexical" {
        lexicon::lexicon()
    } else {
        &[]
    };
    let mut run = Run {
        name,
        declared,
        frames: bank(name).frames.as_ref()?,
        rng,
        id: vec![declared.to_string()],
        transforms: Vec::new(),
        avoid: entity_names(spec),
        domain: chart_domain(spec),
        mute: &[],
        wrapped: false,
        counted: false,
        np_clausal: false,
        lexicon,
    };
    let base = q.query.base();
    let (key, raw, counted) = slots::base_slots_counted(base, spec)?;
    run.counted = counted;
    let mut slots = raw.clone();
    run.id.push(key.clone());
    run.wrapped =
        slots::wrap_awkward_plainly(&mut slots, &sibling_series(spec, base.panel()), &key);
    let mut refs = std::collections::BTreeMap::new();
    if visual {
        // A visual twin exists only where an entity is named by its look.
        let visual::Outcome::All(r) = visual::substitute(
            &mut slots,
            &raw,
            base,
            scene,
            spec,
            &mut run.rng,
            &mut run.transforms,
        ) else {
            return None;
        };
        run.wrapped |= r.keys().any(|k| k.starts_with("series:"));
        refs = r;
    }
    // Wordings of entities outside `slots` (a hypothetical's changed cell),
    // kept free of typos like the slots are.
    let mut extra_protected: Vec<String> = Vec::new();
    let mut history = Vec::new();
    let mut text = match &q.query {
        Query::MultipleChoice { base, options } => {
            run.mute = MUTED_BEFORE_OPTIONS;
            let core = run.question(base, &key, &slots)?;
            run.mute = &[];
            let frame = run.pick_owned("mcq", &run.frames.mcq)?;
            let mut s = slots.clone();
            s.insert("question".into(), core);
            s.insert("options".into(), options_text(&run.frames.options, options));
            fill(&frame, &s)?
        }
        Query::FactCheck { base: _, claim } => {
            let (c, lead) = source_lead(&run.claim(&key, claim, &slots)?);
            let frame = run.pick_owned("fact", &run.frames.fact)?;
            let mut s = slots.clone();
            // A claim that opens with a measure ("Job vacancies is lower in
            // Mining") lowers it again inside the question.
            let mut clause = claim_clause(&c);
            if SERIES_KEYS.iter().any(|k| {
                slots.get(*k).is_some_and(|v| {
                    v.starts_with(|ch: char| ch.is_lowercase())
                        && clause.starts_with(&capitalize(v))
                })
            }) {
                clause = decapitalize(&clause);
            }
            s.insert("claim_clause".into(), clause);
            s.insert("claim".into(), c);
            let text = fill(&frame, &s)?;
            match lead {
                Some(lead) => format!("{lead}, {}", decapitalize(&text)),
                None => text,
            }
        }
        Query::Hypothetical { base: _, change } => {
            if is_yes_no_key(&key) {
                return None;
            }
            let mut s = slots.clone();
            let mut changed = Slots::new();
            let shown = spec.panels().get(change.panel).map_or_else(
                || change.series.clone(),
                |p| slots::spoken_series(p, spec, &change.series),
            );
            changed.insert("series".into(), shown.clone());
            // The changed cell as the question says it: the visual references
            // are keyed by those names.
            let said_category = change.category.as_ref().map(|c| {
                use crate::spec::dates::IndexDates;
                match spec.panels().get(change.panel).copied() {
                    Some(p) => slots::category_as_said(p, &IndexDates::of_panel(p), c),
                    None => slots::with_article(c),
                }
            });
            if let Some(said) = &said_category {
                changed.insert("category".into(), said.clone());
            }
            // The changed cell is said with the question's measure.
            for k in ["measure", "in_cat", "cat_prep", "cat_noun"] {
                if let Some(v) = slots.get(k) {
                    changed.insert(k.into(), v.clone());
                }
            }
            let mut changed_wrapped = slots::wrap_awkward_plainly(
                &mut changed,
                &sibling_series(spec, base.panel()),
                "value_at",
            );
            if visual {
                // The changed cell is always drawn, so naming it plainly when it
                // has no reference says nothing about answerability.
                let mut referred = false;
                if let Some(r) = refs.get(&format!("series:{shown}")) {
                    let r = match change.category {
                        Some(_) => visual::one_mark_of(r),
                        None => r.clone(),
                    };
                    changed.insert("series".into(), r);
                    changed_wrapped = true;
                    referred = true;
                }
                if let Some(c) = &said_category
                    && let Some(r) = refs.get(&format!("category:{c}"))
                {
                    changed.insert("category".into(), r.clone());
                    referred = true;
                }
                if referred {
                    cell::phrase_referred(&mut changed);
                }
            }
            // "If Revenue in 2019 rose 10%, what would the new value be?":
            // naming the changed cell twice reads like a form.
            let same_series = changed.get("series") == slots.get("series");
            let asks_changed_cell = key == "value_at"
                && change.category.is_some()
                && same_series
                && changed.get("category") == slots.get("category");
            // "If every value of Coal rose 10%, what would its total be?",
            // when the whole series changes and the question covers all of it.
            let asks_changed_series = key != "value_at"
                && change.category.is_none()
                && same_series
                && slots.get("scope").is_none_or(|s| s.is_empty());
            // "its" never follows a plural ("If the online sales for Lyon rose by 10%,
            // what would its new value be?"): "the new value" reads right
            // after any subject.
            let plural_subject = [changed.get("series"), slots.get("measure")]
                .into_iter()
                .flatten()
                .any(|m| slots::reads_plural(&m.to_lowercase()));
            extra_protected.extend(changed.values().cloned());
            s.extend(changed);
            let target_frames = if change.category.is_some() {
                if changed_wrapped && !run.frames.target_cell_awkward.is_empty() {
                    &run.frames.target_cell_awkward
                } else {
                    &run.frames.target_cell
                }
            } else if changed_wrapped && !run.frames.target_series_awkward.is_empty() {
                &run.frames.target_series_awkward
            } else {
                &run.frames.target_series
            };
            let target = fill(&run.pick_owned("target", target_frames)?, &s)?;
            s.insert("target".into(), target);
            s.insert(
                "percent".into(),
                crate::ir::answer::format_number(
                    change.percent.abs(),
                    decimals_of(change.percent.abs()),
                ),
            );
            let dir = if change.percent >= 0.0 {
                &run.frames.up
            } else {
                &run.frames.down
            };
            let change_text = fill(&run.pick_owned("change", dir)?, &s)?;
            let frame = run.pick_owned("hypo", &run.frames.hypo)?;
            // A pronoun follows what it refers to; before the change the
            // question says "the new total".
            let change_first = match (frame.find("{change}"), frame.find("{np}")) {
                (Some(c), Some(n)) => c < n,
                _ => false,
            };
            // "its" after "revenue for every company" could be any company's:
            // a whole series changed takes "the new highest value".
            let its = change_first && !asks_changed_series && !plural_subject;
            let anaphor_rule = format!("{}_{key}", if its { "its" } else { "new" });
            let anaphor = ((asks_changed_cell || asks_changed_series)
                && bank::rule(&[run.name], &anaphor_rule).is_some())
            .then(|| format!("{{@{anaphor_rule}}}"));
            let mut np = match &anaphor {
                Some(rule) => {
                    run.np_clausal = false;
                    fill(&run.pick("np", &[rule.as_str()])?, &slots)?
                }
                None => run.np(&key, &slots)?,
            };
            // "What would {np} be?" buries a noun phrase holding a clause;
            // another draw usually has none.
            if anaphor.is_none() {
                for _ in 1..MAX_FRAME_TRIES {
                    if !(run.np_clausal || has_clause(&np)) {
                        break;
                    }
                    np = run.np(&key, &slots)?;
                }
            }
            let mut s2 = slots.clone();
            s2.insert("change".into(), change_text);
            let mut t = capitalize(&with_np(&frame, &np, &s2)?);
            // An unanswerable variant states the rounding its answerable twin
            // would, so the wording gives nothing away.
            let decimals = match &q.answer {
                Answer::Number { decimals, .. } => Some(*decimals),
                Answer::Unanswerable => {
                    slots::asked_decimals(base).or_else(|| slots::series_decimals(base, spec))
                }
                _ => None,
            };
            if let Some(d) = decimals {
                t = run.round(&t, d)?;
            }
            t
        }
        Query::Conversation { turns } => {
            let mut texts = Vec::new();
            for (i, turn) in turns.iter().enumerate() {
                let (tkey, traw, tcounted) = slots::base_slots_counted(turn, spec)?;
                run.counted = tcounted;
                let mut tslots = traw.clone();
                run.wrapped = slots::wrap_awkward_plainly(
                    &mut tslots,
                    &sibling_series(spec, turn.panel()),
                    &tkey,
                );
                if visual {
                    match visual::substitute(
                        &mut tslots,
                        &traw,
                        turn,
                        scene,
                        spec,
                        &mut run.rng,
                        &mut run.transforms,
                    ) {
                        visual::Outcome::All(r) => {
                            run.wrapped |= r.keys().any(|k| k.starts_with("series:"));
                        }
                        visual::Outcome::NoEntities => {}
                        visual::Outcome::Cannot => return None,
                    }
                }
                extra_protected.extend(tslots.values().cloned());
                extra_protected.extend(traw.values().cloned());
                let link = if i > 0 {
                    follow_up(&turns[i - 1], turn, spec)
                } else {
                    None
                };
                if link == Some("difference")
                    && let Some((side, _, by_series)) = difference_from(&turns[i - 1], turn)
                {
                    let (slot, prep) = if by_series {
                        (format!("{side}_series"), "for".to_string())
                    } else {
                        (format!("{side}_cat"), tslots.get("cat_prep")?.clone())
                    };
                    let named = tslots.get(&slot)?.clone();
                    tslots.insert("other".into(), named);
                    tslots.insert("other_prep".into(), prep);
                }
                let t = match link {
                    Some(kind) => {
                        let frames = match kind {
                            "next" if !run.frames.followup_next.is_empty() => {
                                &run.frames.followup_next
                            }
                            "previous" if !run.frames.followup_previous.is_empty() => {
                                &run.frames.followup_previous
                            }
                            "category" | "next" | "previous" => &run.frames.followup_category,
                            "series" => &run.frames.followup_series,
                            "its_value" => &run.frames.followup_its_value,
                            _ => &run.frames.followup_difference,
                        };
                        let f = run.pick_owned(&format!("followup_{kind}"), frames)?;
                        capitalize(&fill(&f, &tslots)?)
                    }
                    None => run.question(turn, &tkey, &tslots)?,
                };
                texts.push(t);
            }
            let last = texts.pop()?;
            for (turn, t) in turns.iter().zip(texts) {
                let a = execute(turn, spec, scene).ok()?;
                history.push(Turn {
                    question: t,
                    answer: a.to_text(),
                });
            }
            last
        }
        base => run.question(base, &key, &slots)?,
    };
    // A figure's subtitle, note and source belong to the whole figure.
    let figure_text = scene.figure.is_some()
        && matches!(
            base,
            Query::Source { .. } | Query::Note { .. } | Query::Subtitle { .. }
        );
    if scene.panels.len() > 1
        && !figure_text
        && !matches!(
            base,
            Query::SubplotLayout
                | Query::SubplotCount
                | Query::KpiValue { .. }
                | Query::PanelCount
                | Query::PanelExtreme { .. }
        )
    {
        let prefix = panel_prefix(&mut run, base.panel(), scene)?;
        let apply = |t: &str| {
            let at = after_context(t);
            format!("{}{prefix}{}", &t[..at], decapitalize(&t[at..]))
        };
        match history.first_mut() {
            Some(first) => first.question = apply(&first.question),
            None => text = apply(&text),
        }
    }
    if context {
        // The preface comes from the distractor bank's grammar.
        run.name = "distractor";
        let ctx = context::build(spec, base, &raw, &q.answer.to_text(), &mut run.rng);
        let mut s = slots.clone();
        s.extend(ctx.slots.clone());
        if let Some(other) = s.get("other_series").cloned()
            && let Some(kind) = slots::awkward_kind(&other)
        {
            // Wrapped as the question wraps its own names of that kind.
            let noun = if kind == "range" { "group" } else { "series" };
            s.insert("other_series".into(), format!("the {other} {noun}"));
        }
        let groups = context::groups(&ctx);
        let group = groups[run.rng.random_range(0..groups.len())];
        let rule = format!("{{@preface_{group}}}");
        let preface = run.pick(&format!("preface_{group}"), &[rule.as_str()])?;
        let preface = capitalize(&fill(&preface, &s)?);
        run.transforms.push(format!("preface:{group}"));
        if matches!(group, "series" | "value") {
            run.transforms.extend(ctx.mentions.iter().cloned());
        }
        match history.first_mut() {
            Some(first) => first.question = format!("{preface} {}", first.question),
            None => text = format!("{preface} {text}"),
        }
    }
    if declared == "register" {
        let options_follow = matches!(q.query, Query::MultipleChoice { .. });
        text = register::apply(&text, &mut history, options_follow, &mut run)?;
    }
    if declared == "lexical" && !run.transforms.iter().any(|t| t.starts_with("lex:")) {
        // A twin declared "lexical" swaps at least one word.
        return None;
    }
    if visual {
        // Visual references bring their own article.
        let fix = |t: &str| t.replace("the the ", "the ").replace("The the ", "The ");
        text = fix(&text);
        for t in &mut history {
            t.question = fix(&t.question);
        }
    }
    if typos {
        let protected: Vec<String> = slots
            .values()
            .chain(raw.values())
            .chain(&extra_protected)
            .cloned()
            .chain(choices_of(&q.query))
            .collect();
        text = noisy::apply(
            &text,
            &protected,
            bank("noisy"),
            &mut run.rng,
            &mut run.transforms,
        );
        // A twin declared "typos" has at least one: casing and punctuation
        // alone are a different change.
        if !run.transforms.iter().any(|t| t.starts_with("typo:")) {
            return None;
        }
    }
    let realization = Realization {
        realizer: declared.to_string(),
        template_id: run.id.join("/"),
        transforms: run.transforms,
    };
    Some((text, history, realization))
}

fn choices_of(query: &Query) -> Vec<String> {
    match query {
        Query::MultipleChoice { options, .. } => options.clone(),
        Query::FactCheck { claim, .. } => vec![claim.clone()],
        Query::Hypothetical { change, .. } => std::iter::once(change.series.clone())
            .chain(change.category.clone())
            .collect(),
        _ => Vec::new(),
    }
}

/// Where a panel reference goes: after the context sentences a question
/// may open with ("A colleague asked me this. "), so that it leads the
/// question proper rather than the aside. A sentence with a number, a colon
/// or a question mark, or a long one, is part of the question and stays
/// after it; and only a question (with its "?") moves past an aside, since a
/// request worded as a statement may be the first sentence itself.
fn after_context(text: &str) -> usize {
    let mut at = 0;
    for _ in 0..3 {
        let rest = &text[at..];
        let Some(end) = rest.find(['.', '!']) else {
            break;
        };
        let sentence = &rest[..end];
        let opens_sentence = rest[end + 1..]
            .strip_prefix(' ')
            .and_then(|n| n.chars().next())
            .is_some_and(char::is_uppercase);
        let part_of_question = sentence.contains(|c: char| c.is_ascii_digit() || ":?".contains(c));
        if !opens_sentence || part_of_question || sentence.len() > MAX_ASIDE {
            break;
        }
        at += end + 2;
    }
    if text[at..].contains('?') { at } else { 0 }
}

/// Longest opening aside a panel reference moves past, in bytes: the short
/// context sentences of the leads, not a request worded at length.
const MAX_ASIDE: usize = 80;

fn panel_prefix(run: &mut Run, panel: usize, scene: &Scene) -> Option<String> {
    let p = scene.panels.iter().find(|p| p.index == panel)?;
    let mut s = Slots::new();
    s.insert("row".into(), (p.row + 1).to_string());
    s.insert("col".into(), (p.col + 1).to_string());
    s.insert("row_ordinal".into(), ordinal(p.row as usize + 1));
    s.insert("col_ordinal".into(), ordinal(p.col as usize + 1));
    let title = p.title.as_ref().map(|t| t.text.trim().to_string());
    let unique_title = title.as_ref().filter(|t| {
        !t.is_empty()
            && scene
                .panels
                .iter()
                .filter(|o| o.title.as_ref().map(|x| x.text.trim()) == Some(t.as_str()))
                .count()
                == 1
    });
    // A lettered figure's panels are cited by their letters, as papers do.
    if let Some(letter) = scene.figure.as_ref().and_then(|f| f.letters.get(panel))
        && !run.frames.panel_letter.is_empty()
    {
        s.insert("letter".into(), letter.text.clone());
        run.transforms.push("panel:letter".into());
        let f = run.pick_owned("panel_letter", &run.frames.panel_letter)?;
        return fill(&f, &s);
    }
    if run.declared == "visual" {
        // A visual twin names the panel by its title where that is unique.
        let refs = &bank("visual").refs;
        let key = match unique_title {
            Some(t) => {
                s.insert("panel_title".into(), t.clone());
                run.transforms.push("panel:title".into());
                "panel_title"
            }
            None => "panel_grid",
        };
        let f = run.pick("panel", &refs.get(key)?.all())?;
        return fill(&f, &s);
    }
    let f = run.pick_owned("panel", &run.frames.panel)?;
    fill(&f, &s)
}

#[cfg(test)]
mod buries_tests {
    use super::buries;

    #[test]
    fn ranks_are_claimed_as_numeric_ordinals() {
        let said: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 103]
            .into_iter()
            .map(super::numeric_ordinal)
            .collect();
        assert_eq!(
            said,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "103rd"
            ]
        );
    }

    #[test]
    fn names_are_not_asked_for_as_numbers() {
        let np = "the title of the chart";
        assert!(super::misfits(
            &format!("Re {np}: what does it come to?"),
            np,
            "title"
        ));
        assert!(!super::misfits(
            &format!("Re {np}: what is it?"),
            np,
            "title"
        ));
        let np = "the value of North in 2020";
        assert!(!super::misfits(
            &format!("What does {np} come to?"),
            np,
            "value_at"
        ));
    }

    #[test]
    fn long_noun_phrases_are_not_embedded_before_their_verb() {
        let np = "the city where Average rent reaches its peak";
        assert!(buries(
            &format!("Could someone say what {np} is?"),
            np,
            super::heavy(np)
        ));
        assert!(buries(
            &format!("What would {np} be here?"),
            np,
            super::heavy(np)
        ));
        assert!(!buries(
            &format!("Could someone name {np}?"),
            np,
            super::heavy(np)
        ));
        assert!(!buries(
            &format!("Which is {np}? It is for a report."),
            np,
            super::heavy(np)
        ));
        let np = "the source the chart cites";
        assert!(buries(
            &format!("I've been puzzling over what {np} is."),
            np,
            super::heavy(np)
        ));
        let np = "the value of the 2020 series in Chad";
        assert!(!super::reduced_relative(np));
        assert!(super::clausal("the highest level {series} reaches"));
        assert!(super::clausal(
            "the cumulative total once {category} is counted"
        ));
        assert!(!super::clausal("the value of {series} in {category}"));
        assert!(!super::clausal("the sum of {series}{scope}"));
        let short = "the title";
        assert!(!buries(
            &format!("Can you tell me what {short} is?"),
            short,
            super::heavy(short)
        ));
    }
}

#[cfg(test)]
mod after_context_tests {
    use super::after_context;

    #[test]
    fn panel_references_go_after_opening_asides_only() {
        let q = "A storm-chasing friend asked me this. The average of New York?";
        assert_eq!(&q[after_context(q)..], "The average of New York?");
        let q = "I'm a planner. My boss asked. What is the mean of North?";
        assert_eq!(&q[after_context(q)..], "What is the mean of North?");
        for q in [
            "What is the value of North in 2020?",
            "The chart gives North as 18.5. True or false?",
            "Here is a statement: North is highest. True or false?",
            "Is North. higher than South?",
            "It would assist me greatly to learn the interval between the x-axis ticks. Our charity funds clinics.",
            "I'm a planner. Tell me the mean of North.",
        ] {
            assert_eq!(after_context(q), 0, "{q}");
        }
    }
}

#[cfg(test)]
mod claim_clause_tests {
    use super::claim_clause;

    #[test]
    fn a_claim_opening_with_a_function_word_is_lowered_inside_a_question() {
        assert_eq!(
            claim_clause("There are fewer rail journeys in 2019-06 than in 2020-02."),
            "there are fewer rail journeys in 2019-06 than in 2020-02"
        );
        assert_eq!(
            claim_clause("Norway has the highest GDP."),
            "Norway has the highest GDP"
        );
    }

    #[test]
    fn where_a_claim_is_read_leads_the_question() {
        let (claim, lead) = super::source_lead(
            "The difference in GDP between 2023 and 2009, using the text and the chart is 699.",
        );
        assert_eq!(claim, "The difference in GDP between 2023 and 2009 is 699.");
        assert_eq!(lead, Some("Using the text and the chart"));
        let (claim, lead) = super::source_lead("The GDP for 2023 according to the text is 5.");
        assert_eq!(claim, "The GDP for 2023 is 5.");
        assert_eq!(lead, Some("According to the text"));
        assert_eq!(super::source_lead("Norway has the highest GDP.").1, None);
    }
}

#[cfg(test)]
mod tests_data;

#[cfg(test)]
mod tests {
    use super::bank::{FILES, banks};
    use super::slots::is_yes_no_key;

    #[test]
    fn options_are_reprinted_in_a_new_order() {
        let old: Vec<String> = ["12", "15", "9", "20"].map(String::from).to_vec();
        let new: Vec<String> = ["15", "12", "9", "20"].map(String::from).to_vec();
        let inline = "Which value? Options: a) 12, b) 15, c) 9, d) 20";
        assert_eq!(
            super::reorder_options(inline, &old, &new).as_deref(),
            Some("Which value? Options: a) 15, b) 12, c) 9, d) 20")
        );
        let newline = "Which value? Select the right option among \na) 12\nb) 15\nc) 9\nd) 20";
        assert_eq!(
            super::reorder_options(newline, &old, &new).as_deref(),
            Some("Which value? Select the right option among \na) 15\nb) 12\nc) 9\nd) 20")
        );
        // A wording that altered the block (typos) cannot be re-printed.
        assert_eq!(
            super::reorder_options("Options: a) 12, b) 1S, c) 9, d) 20", &old, &new),
            None
        );
    }

    #[test]
    fn every_bank_parses_and_canonical_covers_every_key() {
        assert_eq!(banks().len(), FILES.len());
        let canonical = &banks()["canonical"];
        for key in canonical.question.keys() {
            if is_yes_no_key(key) {
                assert!(canonical.clause.contains_key(key), "{key}: no clause");
                assert!(
                    canonical.clause_no.contains_key(key),
                    "{key}: no negated clause"
                );
            } else {
                assert!(canonical.np.contains_key(key), "{key}: no noun phrase");
            }
        }
        // Only canonical and syntactic have sentence frames; every other
        // realizer changes the canonical wording.
        for name in super::realizers() {
            let own = matches!(name, "canonical" | "syntactic");
            assert_eq!(banks()[name].frames.is_some(), own, "{name}");
        }
        assert!(!banks()["lexical"].lexicon.is_empty());
        assert!(banks()["distractor"].grammar.contains_key("preface_plain"));
    }

    #[test]
    fn every_family_has_a_canonical_wording() {
        for family in crate::query::FAMILIES.iter() {
            let canonical = &banks()["canonical"];
            let covered = canonical.question.keys().any(|k| {
                k == family
                    || k.starts_with(&format!("{family}_"))
                    || family.starts_with(k.as_str())
            });
            assert!(covered, "{family}");
        }
    }
}

#[cfg(test)]
mod embedded_clause_tests {
    use super::embedded_clause;

    #[test]
    fn a_question_about_what_the_legend_or_a_line_shows_embeds_with_its_verb() {
        assert_eq!(
            embedded_clause(
                "legend_labels",
                "What names does the legend list, in order?"
            )
            .as_deref(),
            Some("what names the legend lists, in order")
        );
        assert_eq!(
            embedded_clause(
                "reference_value",
                "What value does the dashed reference line mark?"
            )
            .as_deref(),
            Some("what value the dashed reference line marks")
        );
    }
}
