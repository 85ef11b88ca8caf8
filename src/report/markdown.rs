//! `report.md`: the report's numbers as Markdown tables.

use std::fmt::Write as _;

use super::{Report, RunReport, fmt_ci, fmt_opt, fmt_p};

/// Table cells must not break the table: escape pipes, drop newlines.
fn cell(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
        .replace('<', "&lt;")
}

pub fn render(report: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# chartstress report: {}\n", cell(&report.suite));
    let _ = writeln!(
        s,
        "Metric `{}`; accuracies and gaps in percentage points; 95% Wilson intervals for accuracies, \
         paired cluster-bootstrap intervals (by chart, {} resamples, seed {}) for gaps; exact McNemar p \
         on pairs, an item counting as right when its score ≥ {}. Errored model calls are left out of \
         accuracies and counted apart.\n",
        report.metric, report.bootstrap_resamples, report.bootstrap_seed, report.right_threshold
    );
    if report.runs.len() > 1 {
        let _ = writeln!(s, "## Runs side by side\n");
        // One column per set any run has, in set order.
        let sets: Vec<&str> = crate::ir::SetName::ALL
            .iter()
            .map(|set| set.name())
            .filter(|name| {
                report
                    .runs
                    .iter()
                    .any(|r| r.sets.iter().any(|x| x.set == *name))
            })
            .collect();
        let _ = writeln!(s, "| run | adapter | {} | errors |", sets.join(" | "));
        let _ = writeln!(s, "|---|---|{}---|", "---|".repeat(sets.len()));
        for run in &report.runs {
            let acc = |set: &str| {
                run.sets
                    .iter()
                    .find(|x| x.set == set)
                    .map_or("–".to_string(), |x| fmt_opt(x.accuracy, 1))
            };
            let accs: Vec<String> = sets.iter().map(|set| acc(set)).collect();
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} |",
                cell(&run.name),
                cell(&run.adapter),
                accs.join(" | "),
                run.errors
            );
        }
        s.push('\n');
    }
    for run in &report.runs {
        run_section(&mut s, run);
    }
    s
}

fn run_section(s: &mut String, run: &RunReport) {
    let _ = writeln!(
        s,
        "## Run `{}` (adapter {})\n",
        cell(&run.name),
        cell(&run.adapter)
    );
    let _ = writeln!(
        s,
        "{} items; scored: {}; errors (failed calls, not counted as wrong): {}; without prediction: {}{}.\n",
        run.items,
        run.scored,
        run.errors,
        run.missing,
        if run.unknown_ids > 0 {
            format!("; predictions for unknown ids: {}", run.unknown_ids)
        } else {
            String::new()
        }
    );
    for w in &run.warnings {
        let _ = writeln!(s, "- warning: {}", cell(w));
    }
    if !run.warnings.is_empty() {
        s.push('\n');
    }
    let _ = writeln!(s, "### Accuracy per set\n");
    let _ = writeln!(
        s,
        "| set | items | scored | errors | missing | accuracy | 95% CI |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|");
    for set in &run.sets {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} |",
            set.set,
            set.items,
            set.scored,
            set.errors,
            set.missing,
            fmt_opt(set.accuracy, 1),
            fmt_ci(set.ci)
        );
    }
    let _ = writeln!(
        s,
        "\n### Gap original − modified\n\nOver pairs whose two items were both scored; `original` and `modified` are accuracies over those pairs. \
         Only `stress` rows measure robustness: an `easing` row's modified charts print values their originals made the reader estimate, \
         and a `shifted` row asks for a different fact: the original's question family about another table, or (`SET/shifted`) \
         a fact the changed chart or question no longer holds, whose gold is `Unanswerable`; it measures abstention, not robustness.\n"
    );
    gap_table(s, "set", run.gaps.iter());
    if !run.axes.is_empty() {
        let _ = writeln!(s, "\n### Gap per perturbation axis\n");
        gap_table(s, "axis", run.axes.iter().map(|a| &a.gap));
        let _ = writeln!(
            s,
            "\n### Robustness curves (accuracy by severity; 0 = the paired originals)\n"
        );
        let _ = writeln!(s, "| axis | 0 | 1 | 2 | 3 | 4 | 5 |");
        let _ = writeln!(s, "|---|---|---|---|---|---|---|");
        for a in &run.axes {
            let cells: Vec<String> = (0..=5u8)
                .map(|sev| {
                    a.curve
                        .iter()
                        .find(|p| p.severity == sev)
                        .map_or("–".to_string(), |p| {
                            format!("{} (n={})", fmt_opt(p.accuracy, 1), p.n)
                        })
                })
                .collect();
            let _ = writeln!(s, "| {} | {} |", cell(&a.axis), cells.join(" | "));
        }
    }
    for b in &run.breakdowns {
        let _ = writeln!(s, "\n### By {}\n", b.dimension.replace('_', " "));
        let _ = writeln!(s, "| {} | n | accuracy | 95% CI | per set |", b.dimension);
        let _ = writeln!(s, "|---|---|---|---|---|");
        for g in &b.groups {
            let per_set: Vec<String> = g
                .sets
                .iter()
                .map(|c| format!("{} {} (n={})", c.set, fmt_opt(c.accuracy, 1), c.n))
                .collect();
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} |",
                cell(&g.key),
                g.n,
                fmt_opt(g.accuracy, 1),
                fmt_ci(g.ci),
                per_set.join("; ")
            );
        }
    }
    if run.failures_total > 0 {
        let _ = writeln!(
            s,
            "\n### Flipped pairs (right → wrong): {} in total, first {} shown\n",
            run.failures_total,
            run.failures.len()
        );
        let _ = writeln!(
            s,
            "| set | perturbations | original question | modified question | gold | original prediction | modified prediction |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|---|---|");
        for f in &run.failures {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} |",
                f.set,
                cell(&f.perturbations.join(", ")),
                cell(&f.original.question),
                cell(&f.modified.question),
                cell(&f.modified.gold),
                cell(&f.original.prediction),
                cell(&f.modified.prediction)
            );
        }
    }
    s.push('\n');
}

fn gap_table<'a>(s: &mut String, what: &str, gaps: impl Iterator<Item = &'a super::GapStats>) {
    let _ = writeln!(
        s,
        "| {what} | change | pairs | original | modified | gap | 95% CI | McNemar p | right→wrong | wrong→right |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|");
    for g in gaps {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(&g.name),
            g.change.name(),
            g.pairs,
            fmt_opt(g.original_accuracy, 1),
            fmt_opt(g.modified_accuracy, 1),
            fmt_opt(g.gap, 1),
            fmt_ci(g.ci),
            fmt_p(g.mcnemar_p),
            g.flips.right_to_wrong,
            g.flips.wrong_to_right
        );
    }
}
