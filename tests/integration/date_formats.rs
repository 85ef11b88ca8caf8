//! Date formats end to end: a monthly table generated with a theme that
//! prints month names and with the `date_format` perturbation. The charts'
//! scenes print the new labels and record the table label behind each; the
//! questions name periods as their chart prints them; and the `oracle` and
//! `reader` baselines still answer every item.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chartstress::ir::{ChartRecord, DateStyle, Item, PanelScene, Query, SetName};
use chartstress::score::{Metric, score_item};
use chartstress::spec::dates::{IndexDates, names_period};

use crate::run_support::{items, predictions};
use crate::support::{bin, jsonl, run_ok};

fn monthly_table() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/retail_sales_monthly.csv")
}

fn generate(out: &Path, theme: &str) -> PathBuf {
    let suite = out.join(theme);
    run_ok(
        bin()
            .arg("generate")
            .arg(monthly_table())
            .arg("-o")
            .arg(&suite)
            .args(["--original-theme", theme, "--axes", "axis"])
            .args(["--charts-per-table", "2", "--questions-per-chart", "10"])
            .args([
                "--sets",
                "original,modified_chart",
                "--seed",
                "3",
                "--quiet",
            ]),
    );
    suite
}

fn charts(suite: &Path) -> BTreeMap<String, ChartRecord> {
    jsonl(&suite.join("charts.jsonl"))
        .into_iter()
        .map(|v| {
            let r: ChartRecord = serde_json::from_value(v).unwrap();
            (r.id.clone(), r)
        })
        .collect()
}

/// (printed label, table label) of every category tick of a panel.
fn category_ticks(p: &PanelScene) -> Vec<(String, String)> {
    p.x_ticks
        .iter()
        .chain(&p.y_ticks)
        .filter(|t| t.value.is_none())
        .map(|t| {
            (
                t.label.clone(),
                t.category.clone().unwrap_or_else(|| t.label.clone()),
            )
        })
        .collect()
}

/// Every category a base query names.
fn categories(q: &Query) -> Vec<String> {
    match q.base() {
        Query::ValueAt { category, .. } | Query::Rank { category, .. } => vec![category.clone()],
        Query::Difference { a, b, .. }
        | Query::Ratio { a, b, .. }
        | Query::Compare { a, b, .. } => {
            vec![a.category.clone(), b.category.clone()]
        }
        Query::PercentChange { from, to, .. } => vec![from.clone(), to.clone()],
        Query::Aggregate { categories, .. } => categories.clone(),
        _ => Vec::new(),
    }
}

fn assert_baselines_answer_everything(suite: &Path) {
    let items = items(suite);
    for adapter in ["oracle", "reader"] {
        run_ok(bin().arg("run").arg(suite).args([
            "--adapter",
            adapter,
            "--name",
            adapter,
            "--no-progress",
        ]));
        let preds = predictions(suite, adapter);
        assert_eq!(preds.len(), items.len());
        for (item, p) in items.iter().zip(&preds) {
            assert_eq!(item.id, p.id);
            assert_eq!(
                score_item(Metric::Relaxed, item, p),
                1.0,
                "{adapter}: {:?} gold {:?}, answered {:?}",
                item.question,
                item.answer_text,
                p.answer
            );
        }
    }
}

#[test]
fn a_theme_printing_month_names_prints_them_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let suite = generate(dir.path(), "pastel");
    let charts = charts(&suite);
    let items: Vec<Item> = items(&suite);
    let iso_month = regex::Regex::new(r"\b\d{4}-\d{2}\b").unwrap();
    let mut named = 0;
    for item in items.iter().filter(|i| i.set == SetName::Original) {
        let chart = &charts[&item.chart_id];
        let panel = chart.spec.panels()[0];
        assert_eq!(panel.style.date_style, DateStyle::FullMonth);
        // The scene prints full month names and keeps the table's months.
        let ticks = category_ticks(&chart.scene.panels[0]);
        assert!(!ticks.is_empty(), "{}", item.chart_id);
        for (printed, month) in &ticks {
            assert!(
                printed.contains(" 202") && !iso_month.is_match(printed),
                "{printed:?}"
            );
            assert!(names_period(printed, month), "{printed:?} for {month:?}");
            assert!(panel.table.row_of(month).is_some(), "{month:?}");
        }
        // Questions name the months as printed, never in the table's form.
        let text = std::iter::once(item.question.as_str())
            .chain(item.history.iter().map(|t| t.question.as_str()))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(!iso_month.is_match(&text), "{text}");
        let dates = IndexDates::of_panel(panel);
        // A conversation's later turns may point back ("its value").
        let named_here = if item.history.is_empty() {
            categories(&item.query)
        } else {
            Vec::new()
        };
        for c in named_here {
            assert!(text.contains(&dates.print(&c)), "{c:?} in {text}");
            named += 1;
        }
    }
    assert!(named > 0, "no question names a month");
    assert_baselines_answer_everything(&suite);
}

#[test]
fn the_date_format_perturbation_changes_only_the_printed_dates() {
    let dir = tempfile::tempdir().unwrap();
    let suite = generate(dir.path(), "classic");
    let charts = charts(&suite);
    let items: Vec<Item> = items(&suite);
    let by_id: BTreeMap<&str, &Item> = items.iter().map(|i| (i.id.as_str(), i)).collect();
    let mut seen = 0;
    for item in &items {
        if !item.perturbations.iter().any(|p| p.name == "date_format") {
            continue;
        }
        seen += 1;
        let origin = by_id[item.origin.as_deref().unwrap()];
        let (before, after) = (&charts[&origin.chart_id], &charts[&item.chart_id]);
        assert_eq!(
            before.spec.panels()[0].table,
            after.spec.panels()[0].table,
            "same data"
        );
        assert_eq!(item.answer, origin.answer);
        let (was, now) = (
            category_ticks(&before.scene.panels[0]),
            category_ticks(&after.scene.panels[0]),
        );
        assert_ne!(was, now);
        // ISO before; afterwards every printed label maps back to its month.
        for (printed, month) in was {
            assert_eq!(printed, month);
        }
        for (printed, month) in now {
            assert_ne!(printed, month);
            assert!(names_period(&printed, &month), "{printed:?} for {month:?}");
        }
    }
    assert!(seen > 0, "no date_format item");
    assert_baselines_answer_everything(&suite);
}
