//! Tables built in code for render tests (independent of the table loader).
#![allow(dead_code)]

pub mod kind_suite;
pub mod pixels;
pub mod printed_csv;
pub mod sweep;

use chartstress::ir::{Cell, Column, ColumnType, NumberFormat, Table, TableMeta};

pub fn column(name: &str, values: &[Option<f64>], format: NumberFormat) -> Column {
    Column {
        name: name.into(),
        ctype: ColumnType::Number,
        format,
        cells: values
            .iter()
            .map(|v| v.map_or(Cell::Missing, Cell::Number))
            .collect(),
    }
}

pub fn text_index(name: &str, labels: &[&str]) -> Column {
    Column {
        name: name.into(),
        ctype: ColumnType::Text,
        format: NumberFormat::default(),
        cells: labels.iter().map(|l| Cell::Text(l.to_string())).collect(),
    }
}

pub fn year_index(name: &str, years: std::ops::RangeInclusive<i32>) -> Column {
    Column {
        name: name.into(),
        ctype: ColumnType::Year,
        format: NumberFormat::default(),
        cells: years.map(Cell::Year).collect(),
    }
}

pub fn table(id: &str, title: Option<&str>, index: Column, series: Vec<Column>) -> Table {
    Table {
        id: id.into(),
        source_path: None,
        meta: TableMeta {
            title: title.map(str::to_string),
            ..Default::default()
        },
        index,
        series,
    }
}

fn some(v: &[f64]) -> Vec<Option<f64>> {
    v.iter().copied().map(Some).collect()
}

pub fn fmt(prefix: Option<&str>, suffix: Option<&str>, decimals: u8) -> NumberFormat {
    NumberFormat {
        decimals,
        prefix: prefix.map(str::to_string),
        suffix: suffix.map(str::to_string),
        thousands: false,
    }
}

/// Categories with one series.
pub fn fruit() -> Table {
    table(
        "fruit_sales",
        Some("Fruit sales in 2023"),
        text_index(
            "Fruit",
            &["Apples", "Bananas", "Cherries", "Dates", "Elderberries"],
        ),
        vec![column(
            "Sales",
            &some(&[120.0, 95.0, 143.0, 40.0, 77.0]),
            fmt(Some("$"), None, 0),
        )],
    )
}

/// Years with three series and a missing cell.
pub fn energy() -> Table {
    let mut t = table(
        "energy_mix",
        Some("Electricity generation by source (TWh)"),
        year_index("Year", 2015..=2022),
        vec![
            column(
                "Coal",
                &some(&[320.0, 300.0, 280.0, 250.0, 210.0, 180.0, 190.0, 160.0]),
                fmt(None, None, 0),
            ),
            column(
                "Gas",
                &[
                    Some(150.0),
                    Some(160.0),
                    None,
                    Some(175.0),
                    Some(180.0),
                    Some(170.0),
                    Some(165.0),
                    Some(172.0),
                ],
                fmt(None, None, 0),
            ),
            column(
                "Wind",
                &some(&[40.0, 55.0, 70.0, 90.0, 115.0, 140.0, 150.0, 180.0]),
                fmt(None, None, 0),
            ),
        ],
    );
    // One quantity in one unit (the title's TWh): the series share an axis.
    t.meta.measure = Some("Electricity generation".into());
    t
}

/// Shares summing to 100.
pub fn shares() -> Table {
    table(
        "browser_share",
        Some("Browser market share"),
        text_index(
            "Browser",
            &["Chrome", "Safari", "Edge", "Firefox", "Opera", "Other"],
        ),
        vec![column(
            "Share",
            &some(&[64.5, 18.8, 5.2, 3.1, 2.4, 6.0]),
            fmt(None, Some("%"), 1),
        )],
    )
}

/// Long labels, many categories.
pub fn countries() -> Table {
    let names = [
        "United States of America",
        "China",
        "Japan",
        "Germany",
        "United Kingdom",
        "India",
        "France",
        "Italy",
        "Canada",
        "Republic of Korea",
        "Russian Federation",
        "Brazil",
        "Australia",
        "Spain",
        "Mexico",
        "Indonesia",
    ];
    let gdp = [
        25.4, 17.9, 4.2, 4.1, 3.1, 3.4, 2.8, 2.0, 2.1, 1.7, 2.2, 1.9, 1.7, 1.4, 1.4, 1.3,
    ];
    table(
        "gdp_2022",
        Some("GDP by country, 2022 (trillion US$)"),
        text_index("Country", &names),
        vec![column("GDP", &some(&gdp), fmt(Some("$"), Some("T"), 1))],
    )
}

/// Three numeric series per labelled item (scatter, bubble) with negatives.
pub fn cities() -> Table {
    table(
        "cities",
        Some("Cities: temperature, rainfall and population"),
        text_index(
            "City",
            &[
                "Oslo", "Cairo", "Lima", "Perth", "Tokyo", "Quito", "Dakar", "Minsk",
            ],
        ),
        vec![
            column(
                "Mean temperature",
                &some(&[6.0, 22.0, 19.0, 18.0, 16.0, 14.0, 24.0, 6.5]),
                fmt(None, Some("°C"), 1),
            ),
            column(
                "Rainfall",
                &some(&[760.0, 25.0, 15.0, 730.0, 1520.0, 1000.0, 350.0, 690.0]),
                fmt(None, Some(" mm"), 0),
            ),
            column(
                "Population",
                &some(&[0.7, 10.0, 10.7, 2.1, 14.0, 2.8, 3.9, 2.0]),
                fmt(None, Some("M"), 1),
            ),
        ],
    )
}

/// Profit with negatives, two series.
pub fn profit() -> Table {
    table(
        "quarterly_profit",
        Some("Quarterly profit by division"),
        text_index(
            "Quarter",
            &[
                "Q1 2023", "Q2 2023", "Q3 2023", "Q4 2023", "Q1 2024", "Q2 2024",
            ],
        ),
        vec![
            column(
                "Retail",
                &some(&[1200.0, -350.0, 800.0, 1500.0, 900.0, -120.0]),
                fmt(Some("$"), None, 0),
            ),
            column(
                "Online",
                &some(&[600.0, 750.0, 1100.0, 1650.0, 1800.0, 2100.0]),
                fmt(Some("$"), None, 0),
            ),
        ],
    )
}

/// The binary under test.
pub fn bin() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_chartstress"))
}

/// Runs `cmd`, fails the test with its output unless it succeeds, and
/// returns its stdout.
pub fn run_ok(cmd: &mut std::process::Command) -> String {
    let out = cmd.output().expect("binary runs");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The shipped fixture tables, loaded by the table loader, in id order.
pub fn fixture_tables() -> Vec<Table> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let (mut tables, errors) = chartstress::table::load_tables(&[dir], false);
    assert!(errors.is_empty(), "{errors:?}");
    tables.sort_by(|a, b| a.id.cmp(&b.id));
    tables
}

/// Every line of a JSON-lines file (a suite's items, a run's predictions).
pub fn jsonl(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Every file under `dir`, as (relative path, bytes), sorted: two folders
/// are byte-identical when these are equal.
pub fn files(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// The items of a default suite (`synth --count 84`, `generate` with every
/// set) of synthesized tables, seeded alike, written under `dir`: about
/// 2,000 items.
pub fn default_synth_suite(dir: &std::path::Path, seed: &str) -> Vec<serde_json::Value> {
    let tables = dir.join("tables");
    run_ok(
        bin()
            .args(["synth", "--seed", seed, "--count", "84", "-o"])
            .arg(&tables),
    );
    let suite = dir.join("suite");
    run_ok(
        bin()
            .arg("generate")
            .arg(&tables)
            .args(["--seed", seed, "--quiet", "--out"])
            .arg(&suite),
    );
    jsonl(&suite.join("items.jsonl"))
}
