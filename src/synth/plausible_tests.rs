//! Hundreds of synthesized tables of every shape, checked against bounds
//! stated here (not the generators' constants): values inside their
//! scale, each unit once, sources dated at or after the data, and real and
//! invented names of each kind side by side.

use super::real_names::{self, is_real};
use super::*;
use crate::ir::{Cell, ColumnType, Table};
use std::sync::OnceLock;

/// The unkinded rotation and every kind on request, for three seeds.
fn corpus() -> &'static [Table] {
    static TABLES: OnceLock<Vec<Table>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut out = Vec::new();
        for seed in [1, 7, 2026] {
            out.extend(synth_tables(seed, 90));
            for kind in SynthKind::ALL.into_iter().chain(SynthKind::ON_REQUEST) {
                out.extend(synth_tables_of(seed, 12, Some(kind)));
            }
        }
        out
    })
}

fn kind_of(t: &Table) -> &str {
    t.id.splitn(3, '-').nth(2).unwrap_or("")
}

/// Plausible real-world bounds of every measure the tables label, by the
/// label a series, an axis or a sample carries.
const BOUNDS: &[(&str, f64, f64)] = &[
    ("GDP (US$ billion)", 0.0, 30_000.0),
    ("GDP growth (%)", -20.0, 20.0),
    ("Coffee consumption (kg per person)", 0.0, 15.0),
    ("Population (people)", 1e4, 1.5e9),
    ("Net migration (thousand people)", -2000.0, 2000.0),
    ("Revenue (US$ million)", 0.0, 700_000.0),
    ("Net income (US$ million)", -60_000.0, 120_000.0),
    ("Market capitalisation (US$ billion)", 0.0, 4000.0),
    ("Units sold", 0.0, 5e6),
    ("Average price (€)", 0.0, 10_000.0),
    ("Customer rating (stars out of 5)", 0.0, 5.0),
    ("Average rent (US$ per month)", 100.0, 10_000.0),
    ("January temperature (°C)", -50.0, 35.0),
    ("Annual rainfall (mm)", 0.0, 12_000.0),
    ("Deals closed", 0.0, 365.0),
    ("Employment (thousand jobs)", 0.0, 50_000.0),
    ("Job vacancies", 0.0, 5e6),
    ("Medals won", 0.0, 400.0),
    ("Tourist arrivals (million arrivals)", 0.0, 120.0),
    ("Wheat yield (tonnes per hectare)", 0.0, 12.0),
    ("Homicide rate (per 100,000 people)", 0.0, 100.0),
    ("Voter turnout (%)", 0.0, 100.0),
    ("Scientific publications (thousand articles)", 0.0, 1000.0),
    ("Metro ridership (million journeys)", 0.0, 4000.0),
    ("Hotel occupancy (%)", 0.0, 100.0),
    ("Recycling rate (%)", 0.0, 100.0),
    ("Cinema admissions (thousand admissions)", 0.0, 100_000.0),
    ("Solar generation (TWh)", 0.0, 1000.0),
    ("Unemployment rate (%)", 0.0, 50.0),
    ("Temperature anomaly (°C)", -3.0, 4.0),
    ("Revenue (US$ billion)", 0.0, 800.0),
    ("Subscribers (million)", 0.0, 1000.0),
    ("Average house price (US$)", 10_000.0, 5e6),
    ("Visitors (thousand)", 0.0, 50_000.0),
    ("Online sales (US$ million)", 0.0, 10_000.0),
    ("Rail journeys (million journeys)", 0.0, 12_000.0),
    ("Recorded crime (thousand offences)", 0.0, 12_000.0),
    ("TWh", 0.0, 10_000.0),
    ("US$ per month", 0.0, 10_000.0),
    ("Respondents", 0.0, 5000.0),
    ("People", 0.0, 10_000.0),
    ("Thousand visits", 0.0, 1000.0),
    ("Thousand tonnes", 0.0, 10_000.0),
    ("Offences", 0.0, 200_000.0),
    ("Billion tonne-kilometres", 0.0, 5000.0),
    ("Share (%)", 0.0, 100.0),
    ("GDP per capita (US$)", 0.0, 150_000.0),
    ("Life expectancy (years)", 30.0, 95.0),
    ("Population (million)", 0.0, 1500.0),
    ("Median household income (US$)", 0.0, 300_000.0),
    ("Median rent (US$ per month)", 0.0, 10_000.0),
    ("Population (thousand)", 0.0, 40_000.0),
    ("Advertising spend (US$ million)", 0.0, 100.0),
    ("Sales (US$ million)", 0.0, 5000.0),
    ("Employees", 0.0, 1e6),
    ("Hours studied", 0.0, 80.0),
    ("Exam score", 0.0, 100.0),
    ("Practice tests taken", 0.0, 30.0),
    ("Reaction time", 50.0, 3000.0),
    ("Length of stay", 0.0, 100.0),
    ("Delivery time", 0.0, 300.0),
    ("Tensile strength", 0.0, 2000.0),
    ("Systolic blood pressure", 60.0, 260.0),
    ("Page load time", 0.0, 60.0),
    ("Mean reaction time (ms)", 50.0, 3000.0),
    ("Yield (t/ha)", 0.0, 12.0),
    ("Mean systolic pressure (mmHg)", 60.0, 260.0),
    ("Satisfaction score (points)", 0.0, 100.0),
    ("Revenue ($M)", 0.0, 100_000.0),
    ("Operating margin", -100.0, 100.0),
    ("Rainfall (mm)", 0.0, 1000.0),
    ("Temperature (°C)", -50.0, 50.0),
    ("Visitors", 0.0, 1e7),
    ("Conversion rate", 0.0, 100.0),
    ("Average price", 0.0, 1000.0),
    ("Change in employment (%)", -100.0, 100.0),
    ("Net migration (thousand people)", -2000.0, 2000.0),
    ("Change in net income (US$ million)", -100_000.0, 100_000.0),
    ("Net approval (points)", -100.0, 100.0),
    ("Score (0–10)", 0.0, 10.0),
    ("Score (0–100)", 0.0, 100.0),
];

/// Largest year-on-year ratio a yearly series of each measure may show
/// (for one crossing zero, the largest step in its unit).
const YEARLY: &[(&str, f64)] = &[
    ("Solar generation (TWh)", 1.7),
    ("Unemployment rate (%)", 1.5),
    ("Temperature anomaly (°C)", 0.8),
    ("Revenue (US$ billion)", 1.5),
    ("Subscribers (million)", 1.6),
    ("Average house price (US$)", 1.25),
    ("Visitors (thousand)", 1.4),
    ("Online sales (US$ million)", 1.6),
    ("Rail journeys (million journeys)", 1.3),
    ("Recorded crime (thousand offences)", 1.3),
    ("Cinema admissions (thousand admissions)", 1.4),
    ("Revenue ($M)", 1.2),
    ("TWh", 1.6),
    ("US$ per month", 1.6),
    ("Respondents", 1.6),
    ("People", 1.6),
    ("Thousand visits", 1.6),
    ("Thousand tonnes", 1.6),
    ("Offences", 1.6),
    ("Billion tonne-kilometres", 1.6),
];

/// The scale a label or unit states itself: "out of 5", "(0–10)", a
/// percentage (of something, unless it is a change or a growth).
fn stated_scale(label: &str, unit: &str, suffix: Option<&str>) -> Option<(f64, f64)> {
    let text = format!("{label} {unit}");
    if let Some(rest) = text.split("out of ").nth(1) {
        let top: f64 = rest
            .split(|c: char| !c.is_ascii_digit())
            .next()?
            .parse()
            .ok()?;
        return Some((0.0, top));
    }
    if let Some(rest) = text.split("(0–").nth(1) {
        let top: f64 = rest.split(')').next()?.parse().ok()?;
        return Some((0.0, top));
    }
    let percent = unit == "%" || suffix == Some("%") || label.contains("(%)");
    let signed = ["change", "growth", "margin"]
        .iter()
        .any(|w| label.to_lowercase().contains(w));
    percent.then_some(if signed {
        (-100.0, 100.0)
    } else {
        (0.0, 100.0)
    })
}

fn bound(label: &str) -> Option<(f64, f64)> {
    BOUNDS
        .iter()
        .find(|(l, _, _)| *l == label)
        .map(|(_, lo, hi)| (*lo, *hi))
}

/// The label whose bounds a series keeps: its own name, else the axis's,
/// else the sampled measure's.
fn label_of<'a>(t: &'a Table, series: &'a str) -> &'a str {
    let own = [
        Some(series),
        t.meta.y_label.as_deref(),
        t.meta.measure.as_deref(),
    ];
    own.into_iter()
        .flatten()
        .find(|l| bound(l).is_some())
        .unwrap_or(series)
}

#[test]
fn corpus_covers_every_kind_with_over_500_tables() {
    let tables = corpus();
    assert!(tables.len() > 500, "{}", tables.len());
    for kind in SynthKind::ALL.into_iter().chain(SynthKind::ON_REQUEST) {
        assert!(tables.iter().any(|t| kind_of(t) == kind.name()), "{kind:?}");
    }
}

#[test]
fn every_value_is_inside_its_stated_scale() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for t in corpus() {
        let unit = t.meta.unit.as_deref().unwrap_or("");
        if kind_of(t) == "waterfall" {
            // Steps are signed; the running total is a headcount or a balance.
            let mut total = 0.0;
            for v in t.series[0].values().into_iter().flatten() {
                total += v;
                if total < 0.0 {
                    failures.push(format!("{}: running total {total}", t.id));
                }
            }
            continue;
        }
        for c in &t.series {
            let label = label_of(t, &c.name);
            let Some(plausible) = bound(label) else {
                failures.push(format!("{}: no stated bound for {label:?}", t.id));
                continue;
            };
            // A spread (SE, SD) is at least zero and at most the measure's top.
            let spread = matches!(c.name.as_str(), "SE" | "SD");
            let plausible = if spread {
                (0.0, plausible.1)
            } else {
                plausible
            };
            let stated = stated_scale(label, unit, c.format.suffix.as_deref());
            for v in c.values().into_iter().flatten() {
                checked += 1;
                let inside = |(lo, hi): (f64, f64)| (lo..=hi).contains(&v);
                if !inside(plausible) || !stated.is_none_or(inside) {
                    failures.push(format!("{}: {label} = {v}", t.id));
                }
            }
        }
    }
    assert!(checked > 20_000, "{checked}");
    assert!(failures.is_empty(), "{}: {failures:#?}", failures.len());
}

/// How far a real place's value may be from its listed figure: a ratio,
/// or for temperatures a difference.
fn listed(label: &str, place: &str) -> Option<(f64, f64, bool)> {
    let people = real_names::population_millions(place);
    let city = real_names::CITIES.iter().find(|c| c.name == place);
    let income = real_names::income_thousands(place);
    // Figures are of the early 2020s; tables go back to 2005.
    match label {
        "Population (people)" => Some((people? * 1e6, 1.4, false)),
        "Population (million)" => Some((people?, 1.4, false)),
        "Population (thousand)" => Some((people? * 1e3, 1.4, false)),
        "January temperature (°C)" => Some((city?.january, 5.0, true)),
        "Annual rainfall (mm)" => Some((city?.rainfall, 2.0, false)),
        "GDP per capita (US$)" => Some((income? * 1e3, 3.0, false)),
        _ => None,
    }
}

#[test]
fn a_real_place_has_its_own_figures() {
    let mut seen = std::collections::BTreeMap::new();
    for t in corpus() {
        for c in &t.series {
            let label = label_of(t, &c.name);
            for (cell, v) in t.index.cells.iter().zip(c.values()) {
                let (Cell::Text(place), Some(v)) = (cell, v) else {
                    continue;
                };
                let Some((figure, off, difference)) = listed(label, place) else {
                    continue;
                };
                *seen.entry(label).or_insert(0) += 1;
                let near = if difference {
                    (v - figure).abs() <= off
                } else {
                    (1.0 / off..=off).contains(&(v / figure))
                };
                assert!(near, "{}: {place} {label} {v}, listed {figure}", t.id);
            }
        }
    }
    assert!(
        seen.len() >= 5 && seen.values().all(|n| *n > 10),
        "{seen:?}"
    );
}

#[test]
fn yearly_series_move_as_their_measures_can() {
    let mut steps = 0;
    for t in corpus() {
        if t.index.ctype != ColumnType::Year {
            continue;
        }
        for c in &t.series {
            let label = label_of(t, &c.name);
            let Some((_, most)) = YEARLY.iter().find(|(l, _)| *l == label) else {
                continue;
            };
            // Values a few printed steps from zero jump by rounding alone.
            let step = 10f64.powi(-i32::from(c.format.decimals));
            let v = c.values();
            for w in v.windows(2) {
                let (Some(a), Some(b)) = (w[0], w[1]) else {
                    continue;
                };
                steps += 1;
                let ok = if *most < 1.0 {
                    (b - a).abs() <= *most
                } else if a.abs() < 20.0 * step || b.abs() < 20.0 * step {
                    (b - a).abs() <= 20.0 * step
                } else {
                    (b / a).max(a / b) <= *most
                };
                assert!(ok, "{}: {label} {a} → {b} in {}", t.id, c.name);
            }
        }
    }
    assert!(steps > 1000, "{steps}");
}

#[test]
fn a_category_moves_little_between_consecutive_years() {
    let mut steps = 0;
    for t in corpus().iter().filter(|t| kind_of(t) == "grouped") {
        // Measures that cross zero (growth, net income) move by amounts,
        // not ratios.
        let label = label_of(t, &t.series[0].name);
        if bound(label).is_none_or(|(lo, _)| lo < 0.0) {
            continue;
        }
        let step = 10f64.powi(-i32::from(t.series[0].format.decimals));
        for row in 0..t.n_rows() {
            let v: Vec<f64> = t
                .series
                .iter()
                .filter_map(|c| c.cells[row].as_f64())
                .collect();
            for w in v.windows(2) {
                let (a, b) = (w[0], w[1]);
                // Values a few printed steps from zero jump by rounding alone.
                if a <= 20.0 * step || b <= 20.0 * step {
                    continue;
                }
                steps += 1;
                assert!((b / a).max(a / b) <= 1.6, "{}: {a} → {b}", t.id);
            }
        }
    }
    assert!(steps > 300, "{steps}");
}

/// How often `unit` stands as a word of its own in `text` ("s" is not in
/// "Figures").
fn as_word(text: &str, unit: &str) -> usize {
    let letter = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    text.match_indices(unit)
        .filter(|(i, _)| {
            !letter(text[..*i].chars().next_back())
                && !letter(text[i + unit.len()..].chars().next())
        })
        .count()
}

/// Every text that names or labels something in a table.
fn labels(t: &Table) -> Vec<&str> {
    let m = &t.meta;
    let mut out: Vec<&str> = [&m.title, &m.subtitle, &m.x_label, &m.y_label, &m.unit]
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect();
    out.push(&t.index.name);
    out.extend(t.series.iter().map(|c| c.name.as_str()));
    out
}

#[test]
fn no_unit_is_stated_twice() {
    for t in corpus() {
        let unit = t.meta.unit.as_deref().unwrap_or("").to_lowercase();
        for text in labels(t) {
            let lower = text.to_lowercase();
            let groups: Vec<&str> = lower.split('(').skip(1).collect();
            for (i, g) in groups.iter().enumerate() {
                let g = g.split(')').next().unwrap_or("");
                let again = groups[i + 1..]
                    .iter()
                    .any(|h| h.starts_with(&format!("{g})")));
                assert!(!again, "{}: ({g}) twice in {text:?}", t.id);
            }
            if !unit.is_empty() {
                let n = as_word(&lower, &unit);
                assert!(n <= 1, "{}: {unit:?} {n} times in {text:?}", t.id);
            }
        }
        if let Some(p) = &t.meta.paragraph {
            let dollar_figure = p.contains('$')
                && p.split('$')
                    .skip(1)
                    .any(|s| s.starts_with(|c: char| c.is_ascii_digit()));
            assert!(!p.contains("% %"), "{}: {p}", t.id);
            assert!(!(dollar_figure && p.contains("US$")), "{}: {p}", t.id);
            assert!(p.matches('€').count() <= 1, "{}: {p}", t.id);
        }
    }
}

/// Four-digit years in a text (not counts such as "2000 respondents").
fn years_in(text: &str) -> Vec<i32> {
    let words: Vec<&str> = text.split(|c: char| !c.is_ascii_digit()).collect();
    let pieces: Vec<&str> = text.split(" respondents").collect();
    let counted = pieces[..pieces.len() - 1]
        .iter()
        .filter_map(|s| s.rsplit(|c: char| !c.is_ascii_digit()).next())
        .collect::<Vec<_>>();
    words
        .into_iter()
        .filter(|w| w.len() == 4 && !counted.contains(w))
        .filter_map(|w| w.parse().ok())
        .filter(|y| (1900..2100).contains(y))
        .collect()
}

fn latest_year(t: &Table) -> Option<i32> {
    years_of_data(t).into_iter().max()
}

/// The years a table's figures are of: its year index, months, year
/// columns and the years its title names.
fn years_of_data(t: &Table) -> Vec<i32> {
    let index = t.index.cells.iter().filter_map(|c| match c {
        Cell::Year(y) => Some(*y),
        Cell::Date(d) => d.get(..4)?.parse().ok(),
        _ => None,
    });
    let names = t.series.iter().flat_map(|c| years_in(&c.name));
    let title = t.meta.title.iter().flat_map(|s| years_in(s));
    index.chain(names).chain(title).collect()
}

#[test]
fn sources_are_not_older_than_the_data() {
    let mut dated = 0;
    for t in corpus() {
        let source = t.meta.source.as_deref().unwrap_or("");
        let Some(latest) = latest_year(t) else {
            continue;
        };
        for year in years_in(source) {
            dated += 1;
            assert!(year >= latest, "{}: {source:?} before {latest}", t.id);
        }
    }
    assert!(dated > 100, "{dated}");
}

/// The entity kind of a table's labels, by its index header (or, for
/// profiles, the products compared), with the labels.
fn entity_labels(t: &Table) -> Option<(&'static str, Vec<&str>)> {
    if kind_of(t) == "profile" {
        return Some((
            "product",
            t.series.iter().map(|c| c.name.as_str()).collect(),
        ));
    }
    let kind = match t.index.name.as_str() {
        "Country" => "country",
        "City" => "city",
        "Company" => "company",
        "Product" => "product",
        "Sales representative" | "Student" => "person",
        _ => return None,
    };
    let names = t
        .index
        .cells
        .iter()
        .filter_map(|c| match c {
            Cell::Text(s) if s != "Others" => Some(s.as_str()),
            _ => None,
        })
        .collect();
    Some((kind, names))
}

#[test]
fn each_kind_of_name_mixes_real_and_invented() {
    use std::collections::BTreeMap;
    // kind → (real names seen, invented seen, tables of 3+, of them with both)
    let mut tally: BTreeMap<&str, (usize, usize, usize, usize)> = BTreeMap::new();
    for t in corpus() {
        let Some((kind, names)) = entity_labels(t) else {
            continue;
        };
        let distinct: std::collections::HashSet<&&str> = names.iter().collect();
        assert_eq!(distinct.len(), names.len(), "{}: {names:?}", t.id);
        // No label is another with a word before it ("Republic of Kaluria"
        // beside "Kaluria" reads as one place twice).
        for a in &names {
            for b in &names {
                assert!(
                    a == b || !b.ends_with(&format!(" {a}")),
                    "{}: {a} and {b}",
                    t.id
                );
            }
        }
        let real = names.iter().filter(|n| is_real(n)).count();
        let e = tally.entry(kind).or_default();
        e.0 += real;
        e.1 += names.len() - real;
        if names.len() >= 3 {
            e.2 += 1;
            e.3 += usize::from(real > 0 && real < names.len());
        }
    }
    for kind in ["country", "city", "company", "product", "person"] {
        let (real, invented, tables, both) = tally.get(kind).copied().unwrap_or_default();
        assert!(
            real > 0 && invented > 0,
            "{kind}: {real} real, {invented} invented"
        );
        assert!(tables >= 20, "{kind}: {tables} tables");
        assert!(
            both * 10 >= tables * 6,
            "{kind}: both in {both} of {tables}"
        );
    }
}

#[test]
fn invented_countries_are_not_real_and_the_city_lists_agree() {
    use fake::locales::{Data, EN};
    for head in real_names::COUNTRY_HEADS {
        for tail in real_names::COUNTRY_TAILS {
            let name = format!("{head}{tail}");
            assert!(!is_real(&name), "{name}");
            let faker_real = EN::ADDRESS_COUNTRY
                .iter()
                .any(|c| c.contains(name.as_str()));
            assert!(!faker_real, "{name}");
        }
    }
    let cities: Vec<&str> = real_names::CITIES.iter().map(|c| c.name).collect();
    assert_eq!(cities, names::WORLD_CITIES);
}

#[test]
fn same_seed_same_tables() {
    for kind in SynthKind::ALL.into_iter().chain(SynthKind::ON_REQUEST) {
        assert_eq!(
            synth_tables_of(5, 4, Some(kind)),
            synth_tables_of(5, 4, Some(kind))
        );
    }
}

#[test]
fn no_real_company_or_product_outside_its_years() {
    let mut seen = 0;
    for t in corpus() {
        let years = years_of_data(t);
        let (Some(first), Some(last)) = (years.iter().min(), years.iter().max()) else {
            continue;
        };
        // Trend and monthly tables name their companies and products in series.
        let names = entity_labels(t).map_or_else(
            || t.series.iter().map(|c| c.name.as_str()).collect(),
            |(_, names)| names,
        );
        for name in names {
            if let Some((_, founded)) = real_names::COMPANIES.iter().find(|c| c.0 == name) {
                seen += 1;
                assert!(founded <= first, "{}: {name} in {first}", t.id);
            }
            if let Some((_, from, to)) = real_names::PRODUCTS.iter().find(|p| p.0 == name) {
                seen += 1;
                assert!(
                    from <= first && last <= to,
                    "{}: {name} in {first}–{last}",
                    t.id
                );
            }
        }
    }
    assert!(seen > 50, "{seen}");
}
