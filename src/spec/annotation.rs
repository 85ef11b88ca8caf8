//! Annotations of original charts: which bar and line charts carry one and
//! what it marks, decided from stable ids (the suite seed, the table id and
//! the chart kind), so a suite stays a pure function of its inputs.

use rand::RngExt;

use crate::ir::decimal::Decimal;
use crate::ir::{Annotation, AnnotationMark, ChartKind, PanelSpec};
use crate::seed;

/// Labels of shaded intervals, as news charts name a period.
const BAND_LABELS: [&str; 5] = ["Recession", "Slowdown", "Lockdown", "Boom", "Reform period"];
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
            *label = BAND_LABELS[rng.random_range(0..BAND_LABELS.len())].to_string()
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
        let len = (n / 4).clamp(2, 4);
        let start = (seed::derive(0, &[&table.id, "band"]) % (n - len - 1) as u64) as usize + 1;
        out.push(AnnotationMark::Band {
            from: cats[start].clone(),
            to: cats[start + len - 1].clone(),
            label: BAND_LABELS[0].to_string(),
        });
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

/// A reference line: the single series' average when it stays clear of every
/// value, else a round target inside the data's range that does.
fn reference_line(
    columns: &[Vec<Option<f64>>],
    lo: f64,
    hi: f64,
    decimals: u8,
) -> Option<AnnotationMark> {
    let span = hi - lo;
    let all: Vec<f64> = columns.iter().flatten().flatten().copied().collect();
    let clear = |v: f64| all.iter().all(|x| (x - v).abs() >= LINE_CLEARANCE * span);
    if columns.len() == 1 {
        // Decimal arithmetic, so the printed average is the true one rounded.
        let sum = all.iter().fold(Decimal::from_int(0), |acc, v| {
            acc.plus(Decimal::from_f64(*v))
        });
        let mean = sum.over(Decimal::from_int(all.len() as i64))?;
        let shown = decimals.clamp(1, 2);
        let text = mean.format(shown);
        let value: f64 = text.parse().ok()?;
        if clear(value) && !mean.on_boundary(shown) {
            let text = trim_zeros(&text);
            return Some(AnnotationMark::ReferenceLine {
                value,
                decimals: decimals_of(&text),
                label: format!("Average: {}", thousands(&text)),
            });
        }
    }
    // Round candidates: multiples of a step a tenth of the span's magnitude,
    // tried from the middle of the data outwards.
    let step = 10f64.powf(span.log10().floor()) / 2.0;
    if !step.is_finite() || step <= 0.0 {
        return None;
    }
    let mid = (lo + hi) / 2.0;
    let mut tries: Vec<f64> = (-10..=10)
        .map(|k| ((mid / step).round() + f64::from(k)) * step)
        .filter(|v| *v > lo + 0.1 * span && *v < hi - 0.1 * span && *v > 0.0)
        .collect();
    tries.sort_by(|a, b| (a - mid).abs().total_cmp(&(b - mid).abs()));
    let value = tries.into_iter().find(|v| clear(*v))?;
    let text = trim_zeros(&crate::ir::answer::format_number(value, 2));
    Some(AnnotationMark::ReferenceLine {
        value: text.parse().ok()?,
        decimals: decimals_of(&text),
        label: format!("Target: {}", thousands(&text)),
    })
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
        // The average, 20, is a value: a round target is drawn instead.
        match reference_line(&columns, 10.0, 30.0, 0) {
            Some(AnnotationMark::ReferenceLine { value, label, .. }) => {
                assert!(label.starts_with("Target"));
                assert!([10.0, 20.0, 30.0].iter().all(|x| (x - value).abs() >= 0.8));
            }
            other => panic!("{other:?}"),
        }
        let columns = vec![vec![Some(10.0), Some(12.0), Some(41.0)]];
        match reference_line(&columns, 10.0, 41.0, 0) {
            Some(AnnotationMark::ReferenceLine { value, label, .. }) => {
                assert_eq!(label, "Average: 21");
                assert_eq!(value, 21.0);
            }
            other => panic!("{other:?}"),
        }
    }
}
