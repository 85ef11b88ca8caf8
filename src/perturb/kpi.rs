//! KPI tiles computed from the tables a dashboard shows: the latest value of
//! a series with its change from the period before, the highest and lowest
//! category, a total where adding the values means something. Every number
//! is a table value (or a decimal sum of them) printed as the chart prints
//! values, so a tile never disagrees with the charts beside it.

use crate::ir::decimal::{Decimal, shown_decimals};
use crate::ir::{Column, KpiTile, NumberStyle, Style, Table};
use crate::spec::format::format_number;

/// Words that say values are rates, shares or levels, which do not add up.
const NOT_ADDITIVE: &[&str] = &[
    "%",
    "°",
    "rate",
    "average",
    "mean",
    "per",
    "share",
    "growth",
    "change",
    "anomaly",
    "expectancy",
    "index",
    "price",
    "ratio",
    "temperature",
    "score",
    "median",
];

fn additive(table: &Table, col: &Column) -> bool {
    if col
        .format
        .suffix
        .as_deref()
        .is_some_and(|s| s.contains('%'))
    {
        return false;
    }
    let text = [
        table.meta.unit.as_deref(),
        table.meta.y_label.as_deref(),
        table.meta.title.as_deref(),
        Some(col.name.as_str()),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" ")
    .to_lowercase();
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric() && c != '%' && c != '°')
        .collect();
    !NOT_ADDITIVE
        .iter()
        .any(|w| words.contains(w) || (w.len() == 1 && text.contains(w)))
}

/// Exact printing: abbreviated styles ("1.2k") would round the value.
fn exact_style(style: &Style) -> NumberStyle {
    match style.number_style {
        NumberStyle::Plain => NumberStyle::Plain,
        _ => NumberStyle::Thousands,
    }
}

/// Candidate tiles of one table, most telling first.
pub fn table_tiles(table: &Table, style: &Style) -> Vec<KpiTile> {
    let ordered = crate::spec::is_ordered_index(table);
    // Periods as the dashboard's charts print them.
    let labels = crate::spec::dates::IndexDates::of(table, style.date_style).labels(table);
    let ns = exact_style(style);
    let mut latest = Vec::new();
    let mut extremes = Vec::new();
    let mut totals = Vec::new();
    for name in crate::spec::numeric_series(table).into_iter().take(3) {
        let Some(col) = table.series(name) else {
            continue;
        };
        let present: Vec<(usize, f64)> = col
            .cells
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.as_f64().filter(|v| v.is_finite()).map(|v| (i, v)))
            .collect();
        if present.is_empty() {
            continue;
        }
        let decimals = usize::from(shown_decimals(
            col.format.decimals,
            present.iter().map(|p| p.1),
        ));
        let print = |v: f64| format_number(v, ns, decimals, &col.format);
        if ordered {
            let &(last_i, last) = present.last().expect("not empty");
            // A change only between consecutive periods of the same series.
            let delta = last_i
                .checked_sub(1)
                .and_then(|pi| Some((pi, col.cells.get(pi)?.as_f64()?)))
                .and_then(|(pi, prev)| {
                    let pct = crate::spec::percent_change(prev, last)?;
                    let sign = if pct.starts_with('-') { "" } else { "+" };
                    Some(format!("{sign}{pct}% vs {}", labels[pi]))
                });
            latest.push(KpiTile {
                label: format!("{name}, {}", labels[last_i]),
                value: print(last),
                delta,
            });
        }
        let unique = |v: f64| present.iter().filter(|p| p.1 == v).count() == 1;
        // "Lowest: Others" says nothing: a catch-all row is no category.
        let named = |i: usize| {
            let l = labels[i].trim().to_lowercase();
            !matches!(l.as_str(), "other" | "others" | "rest" | "total" | "all")
        };
        if present.len() >= 3 {
            let hi = present.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1));
            let lo = present.iter().copied().min_by(|a, b| a.1.total_cmp(&b.1));
            let (high, low) = if ordered {
                ("Peak", "Low")
            } else {
                ("Highest", "Lowest")
            };
            for (word, best) in [(high, hi), (low, lo)] {
                if let Some((i, v)) = best.filter(|b| unique(b.1) && named(b.0)) {
                    extremes.push(KpiTile {
                        label: format!("{word} {name}: {}", labels[i]),
                        value: print(v),
                        delta: None,
                    });
                }
            }
        }
        if additive(table, col) && present.len() >= 2 {
            // Summed in decimal: the total a reader adds up from the table.
            let total = present
                .iter()
                .fold(Decimal::ZERO, |s, p| s.plus(Decimal::from_f64(p.1)))
                .to_f64();
            let span = if ordered {
                format!(
                    ", {}–{}",
                    labels[present[0].0],
                    labels[present[present.len() - 1].0]
                )
            } else {
                String::new()
            };
            totals.push(KpiTile {
                label: format!("Total {name}{span}"),
                value: print(total),
                delta: None,
            });
        }
    }
    // One tile of each sort before a second of any.
    let mut out = Vec::new();
    let mut lists = [latest, extremes, totals].map(|l| l.into_iter());
    loop {
        let before = out.len();
        for l in lists.iter_mut() {
            out.extend(l.next());
        }
        if out.len() == before {
            break;
        }
    }
    out
}

/// Up to `max` tiles from the tables of the charts beside the target. The
/// target's own table gives none: a tile printing one of its values (a peak,
/// a latest value) would sit next to the asked reading and could state it or
/// nearly state it, which makes the dashboard easier, not harder.
pub fn dashboard_tiles(others: &[&Table], style: &Style, max: usize, seed: u64) -> Vec<KpiTile> {
    // Each table leads with another sort of tile, so a row mixes latest
    // values, extremes and totals; the seed varies which.
    let offset = (seed % 3) as usize;
    let mut per_table: Vec<std::vec::IntoIter<KpiTile>> = others
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let mut tiles = table_tiles(t, style);
            let n = tiles.len().min(3);
            if n > 0 {
                tiles[..n].rotate_left((i + offset) % n);
            }
            tiles.into_iter()
        })
        .collect();
    let mut out: Vec<KpiTile> = Vec::new();
    loop {
        let before = out.len();
        for it in per_table.iter_mut() {
            if let Some(t) = it.next()
                && out.len() < max
                && !out.iter().any(|o| o.label == t.label)
            {
                out.push(t);
            }
        }
        if out.len() >= max || out.len() == before {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(csv: &str, title: &str) -> Table {
        // Removed when it goes out of scope: the table is read by then.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        std::fs::write(&path, csv).unwrap();
        let mut t = crate::table::load_table(&path).unwrap();
        t.meta.title = Some(title.into());
        t
    }

    #[test]
    fn latest_value_with_change_from_the_period_before() {
        let t = load(
            "Year,Sales,Costs\n2021,100,80\n2022,110.5,\n2023,121,90\n",
            "Sales and costs",
        );
        let style = crate::spec::theme("classic").unwrap();
        let tiles = table_tiles(&t, &style);
        let sales = tiles
            .iter()
            .find(|k| k.label == "Sales, 2023")
            .unwrap_or_else(|| panic!("{tiles:?}"));
        assert_eq!(sales.value, "121.0");
        assert_eq!(sales.delta.as_deref(), Some("+9.5% vs 2022"));
        // Costs skip 2022: no change across a gap.
        let costs = tiles.iter().find(|k| k.label == "Costs, 2023").unwrap();
        assert_eq!(costs.delta, None);
        let total = tiles
            .iter()
            .find(|k| k.label == "Total Sales, 2021–2023")
            .unwrap();
        assert_eq!(total.value, "331.5");
    }

    #[test]
    fn categories_get_extremes_and_no_change() {
        let t = load(
            "Country,Growth (%)\nA,1.5%\nB,-0.5%\nC,2.0%\n",
            "GDP growth rate",
        );
        let style = crate::spec::theme("classic").unwrap();
        let tiles = table_tiles(&t, &style);
        assert!(tiles.iter().all(|k| k.delta.is_none()));
        assert!(
            tiles
                .iter()
                .any(|k| k.label.starts_with("Highest") && k.value == "2.0%")
        );
        assert!(
            tiles
                .iter()
                .any(|k| k.label.starts_with("Lowest") && k.value == "-0.5%")
        );
        assert!(
            !tiles.iter().any(|k| k.label.starts_with("Total")),
            "{tiles:?}"
        );
    }
}
