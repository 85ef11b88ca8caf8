//! The CI gate: thresholds on one run's report, judged on confidence bounds
//! by default so that sampling noise does not make the check flap.

use std::fmt::Write as _;

use super::{GapStats, RunReport, fmt_ci, fmt_opt};
use crate::ir::Change;

/// Which number a threshold is compared with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Bound {
    /// The pessimistic end of the 95% interval: the gap's upper bound, the
    /// accuracy's lower bound.
    #[default]
    Upper,
    /// The point estimate.
    Point,
}

impl std::str::FromStr for Bound {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "upper" => Ok(Bound::Upper),
            "point" => Ok(Bound::Point),
            other => Err(format!("unknown bound `{other}` (expected upper or point)")),
        }
    }
}

/// Thresholds, all in percentage points.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CheckOptions {
    /// Largest allowed gap (original − modified) for every modified set.
    pub max_gap: Option<f64>,
    /// Largest allowed gap per perturbation axis.
    pub max_gap_axis: Vec<(String, f64)>,
    /// Smallest allowed accuracy on the original set.
    pub min_accuracy: Option<f64>,
    pub bound: Bound,
}

impl CheckOptions {
    pub fn is_empty(&self) -> bool {
        self.max_gap.is_none() && self.max_gap_axis.is_empty() && self.min_accuracy.is_none()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct CheckLine {
    /// e.g. "gap modified_chart", "gap axis theme", "accuracy original".
    pub name: String,
    pub point: f64,
    /// The number compared with the threshold (a bound or the point).
    pub judged: f64,
    pub threshold: f64,
    pub passed: bool,
    /// The interval, printed.
    pub interval: String,
    /// "≤" or "≥": the condition that must hold.
    pub relation: &'static str,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct CheckOutcome {
    pub lines: Vec<CheckLine>,
    /// Thresholds that could not be judged (no pairs, unknown axis, nothing scored).
    pub unusable: Vec<String>,
    /// Easing and shifted gaps: shown, never judged against `--max-gap`.
    pub not_judged: Vec<String>,
}

impl CheckOutcome {
    pub fn passed(&self) -> bool {
        self.unusable.is_empty() && self.lines.iter().all(|l| l.passed)
    }

    /// A readable table of every threshold and its verdict.
    pub fn summary(&self, run: &RunReport, bound: Bound) -> String {
        let mut s = String::new();
        let judged_on = match bound {
            Bound::Upper => "95% bound (gap: upper, accuracy: lower)",
            Bound::Point => "point estimate",
        };
        let _ = writeln!(
            s,
            "run {} ({}): {} items, {} scored, {} errors, {} missing; judged on the {judged_on}",
            run.name, run.adapter, run.items, run.scored, run.errors, run.missing
        );
        for l in &self.lines {
            let _ = writeln!(
                s,
                "  {:<5} {:<32} {:>6.1} {:<16} judged {:>6.1} {} {:.1}",
                if l.passed { "ok" } else { "FAIL" },
                l.name,
                l.point,
                l.interval,
                l.judged,
                l.relation,
                l.threshold
            );
        }
        for u in &self.unusable {
            let _ = writeln!(s, "  ERROR {u}");
        }
        for n in &self.not_judged {
            let _ = writeln!(s, "  info  {n} (not a robustness gap; not judged)");
        }
        let failed = self.lines.iter().filter(|l| !l.passed).count();
        let _ = if !self.unusable.is_empty() {
            writeln!(
                s,
                "unusable input: {} threshold(s) could not be judged",
                self.unusable.len()
            )
        } else if failed > 0 {
            writeln!(
                s,
                "FAILED: {failed} of {} threshold(s) crossed",
                self.lines.len()
            )
        } else {
            writeln!(s, "passed: {} threshold(s)", self.lines.len())
        };
        s
    }
}

fn gap_line(name: String, g: &GapStats, threshold: f64, bound: Bound) -> Option<CheckLine> {
    let point = g.gap?;
    let judged = match bound {
        Bound::Upper => g.ci.map_or(point, |c| c.high),
        Bound::Point => point,
    };
    Some(CheckLine {
        name,
        point,
        judged,
        threshold,
        passed: judged <= threshold,
        interval: fmt_ci(g.ci),
        relation: "≤",
    })
}

/// Judges one run against the thresholds.
pub fn evaluate(run: &RunReport, opts: &CheckOptions) -> CheckOutcome {
    let mut out = CheckOutcome::default();
    if run.scored == 0 {
        out.unusable.push(format!(
            "run `{}` has no scored predictions ({} errors, {} missing)",
            run.name, run.errors, run.missing
        ));
        return out;
    }
    if let Some(min) = opts.min_accuracy {
        match run
            .sets
            .iter()
            .find(|s| s.set == "original")
            .filter(|s| s.accuracy.is_some())
        {
            Some(set) => {
                let point = set.accuracy.unwrap_or_default();
                let judged = match opts.bound {
                    Bound::Upper => set.ci.map_or(point, |c| c.low),
                    Bound::Point => point,
                };
                out.lines.push(CheckLine {
                    name: "accuracy original".into(),
                    point,
                    judged,
                    threshold: min,
                    passed: judged >= min,
                    interval: fmt_ci(set.ci),
                    relation: "≥",
                });
            }
            None => out
                .unusable
                .push("--min-accuracy: no scored items in the original set".into()),
        }
    }
    if let Some(max) = opts.max_gap {
        let before = out.lines.len();
        // Only stress changes measure robustness; easing and shifted rows
        // are reported but not judged.
        for g in run.gaps.iter().filter(|g| g.change == Change::Stress) {
            if let Some(line) = gap_line(format!("gap {}", g.name), g, max, opts.bound) {
                out.lines.push(line);
            }
        }
        if out.lines.len() == before {
            out.unusable
                .push("--max-gap: no scored original/modified pairs".into());
        }
    }
    for g in run.gaps.iter().filter(|g| g.change != Change::Stress) {
        out.not_judged.push(format!(
            "gap {} ({} change): {} over {} pairs",
            g.name,
            g.change.name(),
            fmt_opt(g.gap, 1),
            g.pairs
        ));
    }
    for (axis, max) in &opts.max_gap_axis {
        match run.axes.iter().find(|a| &a.axis == axis) {
            Some(a) => match gap_line(format!("gap axis {axis}"), &a.gap, *max, opts.bound) {
                Some(line) => out.lines.push(line),
                None => out.unusable.push(format!(
                    "--max-gap-axis {axis}: no scored pairs on this axis"
                )),
            },
            None => {
                let known: Vec<&str> = run.axes.iter().map(|a| a.axis.as_str()).collect();
                out.unusable.push(format!(
                    "--max-gap-axis: no axis `{axis}` in the suite (axes: {})",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ));
            }
        }
    }
    out
}

/// Parses `AXIS=P`.
pub fn parse_axis_threshold(text: &str) -> Result<(String, f64), String> {
    let (axis, value) = text
        .split_once('=')
        .ok_or_else(|| format!("expected AXIS=POINTS, got `{text}`"))?;
    let value: f64 = value
        .trim()
        .parse()
        .map_err(|_| format!("`{value}` in `{text}` is not a number"))?;
    if axis.trim().is_empty() {
        return Err(format!("missing axis name in `{text}`"));
    }
    Ok((axis.trim().to_string(), value))
}

/// A one-line accuracy summary per set, for command output.
pub fn set_summary(run: &RunReport) -> String {
    run.sets
        .iter()
        .map(|s| format!("{} {}", s.set, fmt_opt(s.accuracy, 1)))
        .collect::<Vec<_>>()
        .join(", ")
}
