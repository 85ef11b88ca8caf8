//! Shaping tables as users bring them: each rule on a small table whose
//! right shape a person can see at a glance.

use super::*;
use crate::ir::{Cell, ColumnType};

fn load_with(name: &str, content: &str, sidecar: Option<&str>) -> Result<Table, TableError> {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(name);
    std::fs::write(&path, content).expect("write");
    if let Some(meta) = sidecar {
        std::fs::write(sidecar_path(&path).expect("sidecar path"), meta).expect("write sidecar");
    }
    load_table(&path)
}

fn load(name: &str, content: &str) -> Table {
    load_with(name, content, None).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn notes(t: &Table) -> String {
    t.meta.notes.join(" | ")
}

#[test]
fn text_columns_beside_numbers_are_left_out_with_a_note() {
    let t = load(
        "t.csv",
        "Country,Capital,Population,Note\nFrance,Paris,68,census\nSpain,Madrid,48,\nItaly,Rome,59,estimate\n",
    );
    assert_eq!(t.series_names(), vec!["Population"]);
    assert_eq!(t.category_labels(), vec!["France", "Spain", "Italy"]);
    let n = notes(&t);
    assert!(n.contains("column 2 (\"Capital\") holds text"), "{n}");
    assert!(n.contains("column 4 (\"Note\") holds text"), "{n}");
    // Only text: a refusal that says why.
    let err = load_with("x.csv", "Country,Capital\nFrance,Paris\n", None).unwrap_err();
    assert!(
        err.to_string()
            .ends_with("no column holds numbers to chart (text columns: \"Country\", \"Capital\")"),
        "{err}"
    );
}

#[test]
fn unnamed_row_number_column_is_not_the_index() {
    // pandas and R write their row index as an unnamed first column.
    let t = load("r.csv", ",name,score\n1,Ann,3\n2,Bob,5\n3,Cy,4\n");
    assert_eq!(t.index.name, "name");
    assert_eq!(t.series_names(), vec!["score"]);
    assert!(notes(&t).contains("numbers the rows"), "{}", notes(&t));
    // An unnamed first column of names is the index.
    let t = load("m.csv", ",mpg\nMazda RX4,21\nDatsun 710,22.8\n");
    assert_eq!(t.category_labels(), vec!["Mazda RX4", "Datsun 710"]);
}

#[test]
fn repeated_categories_of_raw_observations_are_averaged_and_say_so() {
    let t = load(
        "p.csv",
        "species,island,mass\nAdelie,Biscoe,3700\nGentoo,Biscoe,5000\nAdelie,Dream,3800\nGentoo,Biscoe,5200\nAdelie,Dream,3650\nGentoo,Biscoe,5100\n",
    );
    assert_eq!(t.category_labels(), vec!["Adelie", "Gentoo"]);
    // Means recomputed here by hand: (3700+3800+3650)/3, (5000+5200+5100)/3.
    assert_eq!(t.value("mass", 0), Some(3716.7));
    assert_eq!(t.value("mass", 1), Some(5100.0));
    // What shaping did is said under the title, never as it; the title
    // names what the file measures.
    assert_eq!(t.meta.title.as_deref(), Some("Mass by species"));
    assert_eq!(
        t.meta.subtitle.as_deref(),
        Some("Means per species of 6 rows")
    );
    // Means add up to no whole: never stacked.
    assert_eq!(t.meta.additive, Some(false));
    // With `additive: true` the rows are summed instead.
    let t = load_with(
        "s.csv",
        "region,sales\nNorth,10\nSouth,4\nNorth,5\nSouth,6\n",
        Some(r#"{"title": "Sales", "additive": true}"#),
    )
    .unwrap();
    assert_eq!(t.value("sales", 0), Some(15.0));
    assert_eq!(t.meta.title.as_deref(), Some("Sales"));
    assert_eq!(
        t.meta.subtitle.as_deref(),
        Some("Totals per region of 4 rows")
    );
}

#[test]
fn a_stray_repeated_label_in_a_small_table_is_still_an_error() {
    let err = load_with("d.csv", "k,v\na,1\nb,2\nc,3\na,4\n", None).unwrap_err();
    assert!(
        err.to_string()
            .ends_with("line 5, column 1 (\"k\"): duplicate category \"a\" (first on line 2)"),
        "{err}"
    );
}

#[test]
fn two_keys_pivot_with_time_as_the_index() {
    // Long stock prices: the dates label the rows, the symbols are series,
    // never 3 date series per symbol.
    let t = load(
        "s.csv",
        "symbol,date,price\nMSFT,Jan 1 2000,39.81\nMSFT,Feb 1 2000,36.35\nMSFT,Mar 1 2000,43.22\nIBM,Jan 1 2000,100.52\nIBM,Feb 1 2000,92.11\nIBM,Mar 1 2000,106.11\n",
    );
    assert_eq!(t.index.ctype, ColumnType::Date);
    assert_eq!(
        t.category_labels(),
        vec!["2000-01-01", "2000-02-01", "2000-03-01"]
    );
    assert_eq!(t.series_names(), vec!["MSFT", "IBM"]);
    assert_eq!(t.value("IBM", 2), Some(106.11));
    assert_eq!(t.meta.measure.as_deref(), Some("price"));
}

#[test]
fn the_side_with_fewer_values_becomes_the_series() {
    // 5 age groups × 2 sexes: sexes are the series, not the age groups.
    let mut csv = String::from("age,sex,people\n");
    for age in ["0-4", "5-9", "10-14", "15-19", "20-24"] {
        for sex in ["Male", "Female"] {
            csv.push_str(&format!("{age},{sex},{}\n", age.len() * 10 + sex.len()));
        }
    }
    let t = load("a.csv", &csv);
    assert_eq!(t.series_names(), vec!["Male", "Female"]);
    assert_eq!(t.n_rows(), 5);
    // A third key that is time: the latest period only, said in a note.
    let mut csv = String::from("year,age,sex,people\n");
    for year in [1990, 2000] {
        for age in ["0-4", "5-9", "10-14"] {
            for sex in ["M", "F"] {
                csv.push_str(&format!("{year},{age},{sex},{}\n", year / 10));
            }
        }
    }
    let t = load("y.csv", &csv);
    assert_eq!(t.series_names(), vec!["M", "F"]);
    assert_eq!(t.value("F", 0), Some(200.0));
    assert!(
        notes(&t).contains("latest column 1 (\"year\") (2000)"),
        "{}",
        notes(&t)
    );
}

#[test]
fn sidecar_names_the_index_and_the_series() {
    let csv = "id,region,north,south,note\n1,A,3,4,x\n2,B,5,6,y\n";
    let t = load_with(
        "o.csv",
        csv,
        Some(r#"{"index": "region", "series": ["south"], "unit": {"south": "km"}}"#),
    )
    .unwrap();
    assert_eq!(t.index.name, "region");
    assert_eq!(t.series_names(), vec!["south"]);
    assert_eq!(t.meta.unit_of("south"), Some("km"));
    let err = load_with("o.csv", csv, Some(r#"{"index": "Region"}"#)).unwrap_err();
    assert!(
        err.to_string()
            .ends_with("o.meta.json: bad metadata sidecar: \"index\" names no column \"Region\""),
        "{err}"
    );
    let err = load_with("o.csv", csv, Some(r#"{"unit": 3}"#)).unwrap_err();
    assert!(
        err.to_string()
            .contains("\"unit\" must be a string or an object"),
        "{err}"
    );
}

#[test]
fn many_series_keep_the_largest_and_say_so() {
    let mut csv = String::from("year");
    for s in 0..15 {
        csv.push_str(&format!(",s{s}"));
    }
    csv.push('\n');
    for y in 2000..2003 {
        csv.push_str(&y.to_string());
        for s in 0..15 {
            csv.push_str(&format!(",{}", s * 10 + (y - 2000)));
        }
        csv.push('\n');
    }
    let t = load("w.csv", &csv);
    // The 8 largest by mean are s7..s14, kept in table order.
    let expected: Vec<String> = (7..15).map(|s| format!("s{s}")).collect();
    assert_eq!(t.series_names(), expected);
    assert_eq!(t.meta.title, None);
    assert_eq!(
        t.meta.subtitle.as_deref(),
        Some("The 8 of 15 series with the largest values")
    );
}

#[test]
fn years_as_column_headers_become_the_rows() {
    let mut csv = String::from("Country,Code");
    for y in 1990..2010 {
        csv.push_str(&format!(",{y}"));
    }
    csv.push('\n');
    for (c, base) in [("Chad", 7), ("Peru", 3)] {
        csv.push_str(&format!("{c},X"));
        for y in 0..20 {
            csv.push_str(&format!(",{}.{}", base, y % 10));
        }
        csv.push('\n');
    }
    let t = load("f.csv", &csv);
    assert_eq!(t.index.ctype, ColumnType::Year);
    assert_eq!(t.n_rows(), 20);
    assert_eq!(t.series_names(), vec!["Chad", "Peru"]);
    assert_eq!(t.value("Peru", 12), Some(3.2));
}

#[test]
fn many_categories_top_n_or_the_latest_or_coarser_times() {
    // Unordered: the 20 largest, largest first.
    let mut csv = String::from("city,pop\n");
    for i in 0..70 {
        csv.push_str(&format!("c{i},{}\n", (i * 37) % 71));
    }
    let t = load("c.csv", &csv);
    assert_eq!(t.n_rows(), 20);
    let values: Vec<f64> = t.series[0].cells.iter().filter_map(Cell::as_f64).collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]));
    assert_eq!(values[0], 70.0);
    assert_eq!(t.meta.subtitle.as_deref(), Some("Top 20 of 70 by pop"));
    // Years: the latest 60.
    let mut csv = String::from("year,v\n");
    for y in 1900..2000 {
        csv.push_str(&format!("{y},{}\n", y - 1900));
    }
    let t = load("y.csv", &csv);
    assert_eq!(
        t.category_labels().first().map(String::as_str),
        Some("1940")
    );
    assert_eq!(t.meta.subtitle.as_deref(), Some("The last 60 of 100 years"));
    // Daily rows: monthly means.
    let mut csv = String::from("date,temp\n");
    let start = chrono::NaiveDate::from_ymd_opt(2020, 1, 1).unwrap();
    for d in 0..90 {
        let day = start + chrono::Days::new(d);
        csv.push_str(&format!("{},{}\n", day.format("%Y-%m-%d"), d % 10));
    }
    let t = load("d.csv", &csv);
    assert_eq!(t.category_labels(), vec!["2020-01", "2020-02", "2020-03"]);
    // January: days 0..30 → values d % 10, mean recomputed: 135 / 31.
    assert_eq!(t.value("temp", 0), Some(4.4));
    assert_eq!(t.meta.subtitle.as_deref(), Some("Monthly means"));
    assert_eq!(t.meta.title.as_deref(), Some("Temp by date"));
    assert_eq!(t.meta.additive, Some(false));
}

#[test]
fn year_and_quarter_columns_make_one_time_axis() {
    let mut csv = String::from("year,quarter,gdp\n");
    for y in [2001, 2000] {
        for q in 1..=4 {
            csv.push_str(&format!("{y},{q},{}\n", y * 10 + q));
        }
    }
    let t = load("q.csv", &csv);
    assert_eq!(t.category_labels()[..3], ["2000 Q1", "2000 Q2", "2000 Q3"]);
    assert_eq!(t.value("gdp", 4), Some(20011.0));
}

#[test]
fn a_few_bad_cells_in_a_long_numeric_column_are_named_and_left_out() {
    let mut csv = String::from("k,v\n");
    for i in 0..50 {
        let v = if i == 7 {
            "rotary".to_string()
        } else {
            i.to_string()
        };
        csv.push_str(&format!("r{i:02},{v}\n"));
    }
    let t = load("b.csv", &csv);
    assert_eq!(t.value("v", 7), None);
    assert!(
        notes(&t)
            .contains("column 2 (\"v\"): not numbers, left out as missing: \"rotary\" on line 9"),
        "{}",
        notes(&t)
    );
}

#[test]
fn names_that_say_time_or_codes() {
    use super::shape::name_means_time;
    assert!(name_means_time("Month"));
    assert!(name_means_time("forecastYear"));
    assert!(name_means_time("Days"));
    assert!(!name_means_time("Median rent (US$ per month)"));
    assert!(!name_means_time("Life expectancy (years)"));
    assert!(!name_means_time("Hours worked per week"));
    assert!(!name_means_time("Daylight"));
    // Durations are measures, not time axes.
    assert!(!name_means_time("Quarter-mile time (s)"));
    assert!(!name_means_time("Sick days"));
    assert!(name_means_time("time"));
    assert!(name_means_time("Fiscal year"));
}

#[test]
fn shaped_files_without_a_title_are_named_after_their_file() {
    assert_eq!(
        super::title_of_file_name("sunspots_yearly_1700_2008").as_deref(),
        Some("Sunspots yearly 1700–2008")
    );
    assert_eq!(
        super::title_of_file_name("us_county_unemployment_rate").as_deref(),
        Some("US county unemployment rate")
    );
    assert_eq!(super::title_of_file_name("t1"), None);
    assert_eq!(super::title_of_file_name("data"), None);
}
