//! Annotations of original charts: which bar and line charts carry one and
//! what it marks, decided from stable ids (the suite seed, the table id and
//! the chart kind), so a suite stays a pure function of its inputs.

use rand::RngExt;

use crate::ir::decimal::Decimal;
use crate::ir::{Annotation, AnnotationMark, ChartKind, PanelSpec};
use crate::seed;

/// Labels of shaded intervals over which the data rise, or fall: what the
/// band says is read off the data, never an event the table does not name.
const RISE_LABELS: [&str; 3] = ["Growth", "Rising", "Upswing"];
const FALL_LABELS: [&str; 3] = ["Decline", "Falling", "Downturn"];
/// Texts of callouts pointing at a series' highest value.
const PEAK_TEXTS: [&str; 3] = ["Peak", "Highest", "Record high"];
/// Nearest a reference line may come to a data value, as a share of the
/// data's span: closer, "above the line" could not be told by eye.
const LINE_CLEARANCE: f64 = 0.04;

/// Whether annotations are drawn on panels of this kind.
pub fn annotates(kind: ChartKind) -> bool {
    matches!(
        kind,
        ChartKind::Bar | ChartKind::GroupedBar | ChartKind::Line
    )
}

/// The annotation a panel gets, one of those that fit its data, chosen by
/// `seed` and the table id; None when none fits.
pub fn choose(panel: &PanelSpec, seed: u64) -> Option<Annotation> {
    let candidates = candidates(panel);
    if candidates.is_empty() {
        return None;
    }
    let mut rng = seed::rng(seed, &["annotation", &panel.table.id, panel.kind.name()]);
    let mut mark = candidates[rng.random_range(0..candidates.len())].clone();
    // Labels picked from their lists on the same stream.
    match &mut mark {
        AnnotationMark::Band { label, .. } => {
            let words = if RISE_LABELS.contains(&label.as_str()) {
                RISE_LABELS
            } else {
                FALL_LABELS
            };
            *label = words[rng.random_range(0..words.len())].to_string()
        }
        AnnotationMark::Callout { text, .. } => {
            *text = PEAK_TEXTS[rng.random_range(0..PEAK_TEXTS.len())].to_string()
        }
        _ => {}
    }
    Some(Annotation { mark, moved: false })
}

/// The annotation named `name` (`reference_line`, `highlight`, `band`,
/// `callout`) if the panel's data fits one, with its first label.
pub fn named(panel: &PanelSpec, name: &str) -> Option<Annotation> {
    candidates(panel)
        .into_iter()
        .find(|m| m.name() == name)
        .map(|mark| Annotation { mark, moved: false })
}

/// Annotation kind names, as `named` takes them.
pub const NAMES: [&str; 4] = ["reference_line", "highlight", "band", "callout"];

/// Every annotation that fits the panel: a reference line, a highlighted
/// bar, a shaded interval, a callout at the highest value.
pub fn candidates(panel: &PanelSpec) -> Vec<AnnotationMark> {
    let mut out = Vec::new();
    if !annotates(panel.kind) || panel.style.log_scale || panel.series.is_empty() {
        return out;
    }
    let table = &panel.table;
    let cats = table.category_labels();
    let n = cats.len();
    let columns: Vec<Vec<Option<f64>>> = panel
        .series
        .iter()
        .filter_map(|s| table.series(s))
        .map(|c| c.cells.iter().map(|v| v.as_f64()).collect())
        .collect();
    if columns.len() != panel.series.len() || !(3..=40).contains(&n) {
        return out;
    }
    let all: Vec<f64> = columns.iter().flatten().flatten().copied().collect();
    if all.len() < 3 || all.iter().any(|v| !v.is_finite()) {
        return out;
    }
    let (lo, hi) = all
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(*v), b.max(*v))
        });
    let span = hi - lo;
    let format = table
        .series(&panel.series[0])
        .map(|c| c.format.clone())
        .unwrap_or_default();
    if span > 0.0
        && let Some(mut line) = reference_line(&columns, lo, hi, format.decimals)
    {
        // The label prints the value with the series' unit ("$", "%").
        if let AnnotationMark::ReferenceLine { label, .. } = &mut line
            && let Some((word, number)) = label.split_once(": ")
        {
            *label = format!(
                "{word}: {}{number}{}",
                format.prefix.as_deref().unwrap_or(""),
                format.suffix.as_deref().unwrap_or("")
            );
        }
        out.push(line);
    }
    if panel.kind == ChartKind::Bar && columns.len() == 1 {
        // Any drawn bar may be singled out, picked from the table id.
        let drawn: Vec<usize> = (0..n).filter(|r| columns[0][*r].is_some()).collect();
        let i = drawn[(seed::derive(0, &[&table.id, "highlight"]) % drawn.len() as u64) as usize];
        out.push(AnnotationMark::Highlight {
            category: cats[i].clone(),
        });
    }
    if crate::spec::is_ordered_index(table) && n >= 6 {
        // Three to four periods: two points make a step, not a period.
        let len = (n / 4).clamp(3, 4);
        let runs = monotone_runs(&columns, n, len);
        if !runs.is_empty() {
            let pick = seed::derive(0, &[&table.id, "band"]) % runs.len() as u64;
            let (start, label) = runs[pick as usize];
            out.push(AnnotationMark::Band {
                from: cats[start].clone(),
                to: cats[start + len - 1].clone(),
                label: label.to_string(),
            });
        }
    }
    // A callout at the first series' highest value when no other comes close.
    let first = &columns[0];
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|a, b| {
        first[*b]
            .unwrap_or(f64::MIN)
            .total_cmp(&first[*a].unwrap_or(f64::MIN))
    });
    // "Highest" must be true of the whole chart, not of the first series
    // among taller bars of others.
    if let (Some(top), Some(next)) = (first[order[0]], first[order[1]])
        && top > 0.0
        && top - next >= crate::query::MIN_REL_GAP * 3.0 * top.abs()
        && all.iter().all(|v| *v <= top)
    {
        out.push(AnnotationMark::Callout {
            series: panel.series[0].clone(),
            category: cats[order[0]].clone(),
            text: PEAK_TEXTS[0].to_string(),
        });
    }
    out
}

/// A reference line: the single series' average, when it stays clear of
/// every value. A line at any other value would need a label the data does
/// not give ("Target: 50" is a claim about the owner's plans).
fn reference_line(
    columns: &[Vec<Option<f64>>],
    lo: f64,
    hi: f64,
    decimals: u8,
) -> Option<AnnotationMark> {
    let [only] = columns else {
        return None;
    };
    let span = hi - lo;
    let values: Vec<f64> = only.iter().flatten().copied().collect();
    let clear = |v: f64| {
        values
            .iter()
            .all(|x| (x - v).abs() >= LINE_CLEARANCE * span)
    };
    // Decimal arithmetic, so the printed average is the true one rounded.
    let sum = values.iter().fold(Decimal::from_int(0), |acc, v| {
        acc.plus(Decimal::from_f64(*v))
    });
    let mean = sum.over(Decimal::from_int(values.len() as i64))?;
    let shown = decimals.clamp(1, 2);
    let text = mean.format(shown);
    let value: f64 = text.parse().ok()?;
    if !clear(value) || mean.on_boundary(shown) {
        return None;
    }
    let text = trim_zeros(&text);
    Some(AnnotationMark::ReferenceLine {
        value,
        decimals: decimals_of(&text),
        label: format!("Average: {}", thousands(&text)),
    })
}

/// The periods a band may shade: runs of `len` categories (not the first
/// or the last) over which every series rises at each step, or falls at
/// each step, with the label that says which.
fn monotone_runs(columns: &[Vec<Option<f64>>], n: usize, len: usize) -> Vec<(usize, &'static str)> {
    let step = |r: usize, rising: bool| {
        columns.iter().all(|c| match (c[r], c[r + 1]) {
            (Some(a), Some(b)) => (rising && b > a) || (!rising && b < a),
            _ => false,
        })
    };
    (1..n.saturating_sub(len))
        .filter_map(|start| {
            let steps = start..start + len - 1;
            if steps.clone().all(|r| step(r, true)) {
                Some((start, RISE_LABELS[0]))
            } else if steps.clone().all(|r| step(r, false)) {
                Some((start, FALL_LABELS[0]))
            } else {
                None
            }
        })
        .collect()
}

fn trim_zeros(text: &str) -> String {
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text.to_string()
    }
}

/// "55000.5" → "55,000.5", as the axis prints thousands.
fn thousands(text: &str) -> String {
    let (sign, rest) = text.strip_prefix('-').map_or(("", text), |r| ("-", r));
    let (int, frac) = rest
        .split_once('.')
        .map_or((rest, None), |(i, f)| (i, Some(f)));
    let mut out = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    match frac {
        Some(f) => format!("{sign}{out}.{f}"),
        None => format!("{sign}{out}"),
    }
}

fn decimals_of(text: &str) -> u8 {
    text.split_once('.').map_or(0, |(_, d)| d.len() as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_fit_the_data_and_are_stable() {
        use crate::query::testing::{category_table, panel as panel_of, series};
        let table = category_table(
            "sales",
            "Shop",
            &["A", "B", "C", "D"],
            vec![series(
                "Sales",
                &[Some(3.0), Some(5.0), Some(2.0), Some(8.0)],
                0,
            )],
        );
        let panel = &panel_of(&table, ChartKind::Bar);
        let kinds: Vec<&str> = candidates(panel).iter().map(|a| a.name()).collect();
        assert!(kinds.contains(&"highlight"), "{kinds:?}");
        assert_eq!(choose(panel, 3), choose(panel, 3));
        for mark in candidates(panel) {
            if let AnnotationMark::ReferenceLine {
                value,
                label,
                decimals,
            } = mark
            {
                let printed = crate::query::annotation::printed_value(&label);
                assert_eq!(printed, Some((value, decimals)));
            }
        }
        let mut pie = panel.clone();
        pie.kind = ChartKind::Pie;
        assert!(candidates(&pie).is_empty());
    }

    #[test]
    fn labels_print_thousands_like_the_axis() {
        assert_eq!(thousands("55000"), "55,000");
        assert_eq!(thousands("-1234567.25"), "-1,234,567.25");
        assert_eq!(thousands("950"), "950");
    }

    #[test]
    fn reference_lines_stay_clear_of_every_value() {
        let columns = vec![vec![Some(10.0), Some(20.0), Some(30.0)]];
        // The average, 20, is a value: no line, and no invented target.
        assert_eq!(reference_line(&columns, 10.0, 30.0, 0), None);
        let two = vec![vec![Some(10.0), Some(12.0)], vec![Some(41.0), Some(3.0)]];
        assert_eq!(reference_line(&two, 3.0, 41.0, 0), None);
        let columns = vec![vec![Some(10.0), Some(12.0), Some(41.0)]];
        match reference_line(&columns, 10.0, 41.0, 0) {
            Some(AnnotationMark::ReferenceLine { value, label, .. }) => {
                assert_eq!(label, "Average: 21");
                assert_eq!(value, 21.0);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bands_shade_a_run_the_data_show() {
        let up_then_down = vec![vec![
            Some(1.0),
            Some(2.0),
            Some(3.0),
            Some(4.0),
            Some(3.0),
            Some(2.0),
            Some(1.0),
            Some(0.5),
        ]];
        let runs = monotone_runs(&up_then_down, 8, 3);
        assert_eq!(runs, vec![(1, "Growth"), (3, "Decline"), (4, "Decline")]);
        let flat = vec![vec![Some(1.0); 8]];
        assert!(monotone_runs(&flat, 8, 3).is_empty());
        // Every series must move the same way.
        let crossing = vec![
            vec![
                Some(1.0),
                Some(2.0),
                Some(3.0),
                Some(4.0),
                Some(5.0),
                Some(6.0),
            ],
            vec![
                Some(6.0),
                Some(5.0),
                Some(4.0),
                Some(3.0),
                Some(2.0),
                Some(1.0),
            ],
        ];
        assert!(monotone_runs(&crossing, 6, 3).is_empty());
    }
}
