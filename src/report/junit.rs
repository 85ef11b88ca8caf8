//! `junit.xml`: one test case per run × set (fails when the set has no
//! scored item or crosses `--min-accuracy` for the original set) and one per
//! gap threshold, so CI systems can show robustness next to unit tests.

use std::fmt::Write as _;

use super::check::{CheckOptions, evaluate};
use super::{Report, fmt_ci, fmt_opt};

fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 forbids most control characters.
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

struct Case {
    class: String,
    name: String,
    failure: Option<String>,
    out: String,
}

pub fn render(report: &Report, thresholds: &CheckOptions) -> String {
    let mut suites = String::new();
    let (mut total, mut total_failed) = (0, 0);
    for run in &report.runs {
        let mut cases = Vec::new();
        let outcome = evaluate(run, thresholds);
        for set in &run.sets {
            let acc_line = outcome
                .lines
                .iter()
                .find(|l| set.set == "original" && l.name == "accuracy original");
            let failure = if set.scored == 0 {
                Some(format!(
                    "no scored items ({} errors, {} missing)",
                    set.errors, set.missing
                ))
            } else {
                acc_line.filter(|l| !l.passed).map(|l| {
                    format!(
                        "accuracy judged {:.1} {} {:.1} required",
                        l.judged, l.relation, l.threshold
                    )
                })
            };
            cases.push(Case {
                class: format!("{}.accuracy", run.name),
                name: set.set.clone(),
                failure,
                out: format!(
                    "accuracy {} {} over {} scored of {} items; {} errors, {} missing",
                    fmt_opt(set.accuracy, 1),
                    fmt_ci(set.ci),
                    set.scored,
                    set.items,
                    set.errors,
                    set.missing
                ),
            });
        }
        for line in outcome.lines.iter().filter(|l| l.name.starts_with("gap")) {
            cases.push(Case {
                class: format!("{}.gap", run.name),
                name: format!(
                    "{} {} {:.1}",
                    line.name.trim_start_matches("gap "),
                    line.relation,
                    line.threshold
                ),
                failure: (!line.passed).then(|| {
                    format!(
                        "gap {:.1} {} judged {:.1}, allowed {} {:.1}",
                        line.point, line.interval, line.judged, line.relation, line.threshold
                    )
                }),
                out: format!("gap {:.1} {}", line.point, line.interval),
            });
        }
        for u in &outcome.unusable {
            cases.push(Case {
                class: format!("{}.input", run.name),
                name: "thresholds".into(),
                failure: Some(u.clone()),
                out: String::new(),
            });
        }
        let failed = cases.iter().filter(|c| c.failure.is_some()).count();
        total += cases.len();
        total_failed += failed;
        let _ = writeln!(
            suites,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failed}\" errors=\"0\">",
            esc(&run.name),
            cases.len()
        );
        for c in cases {
            let _ = write!(
                suites,
                "    <testcase classname=\"{}\" name=\"{}\">",
                esc(&c.class),
                esc(&c.name)
            );
            if let Some(f) = &c.failure {
                let _ = write!(
                    suites,
                    "<failure message=\"{}\">{}</failure>",
                    esc(f),
                    esc(f)
                );
            }
            let _ = writeln!(
                suites,
                "<system-out>{}</system-out></testcase>",
                esc(&c.out)
            );
        }
        let _ = writeln!(suites, "  </testsuite>");
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"chartstress {}\" tests=\"{total}\" failures=\"{total_failed}\">\n{suites}</testsuites>\n",
        esc(&report.suite)
    )
}
