//! Date and period index labels as a chart prints them (`Jan 2023`,
//! `Q1 2023`, `FY23`) and read back from any printed form.
//!
//! Tables, queries and golds keep the canonical value: `2023` (a year),
//! `2023 Q1` (a quarter), `2023-01` (a month), `2023-01-05` (a day). The
//! renderer, the realizers and the scorer go through this one module, so a
//! chart, the questions about it and the answers accepted for it name a
//! period alike.

use std::collections::BTreeSet;

use chrono::{Datelike, NaiveDate};

use crate::ir::{ColumnType, DateStyle, PanelSpec, Table};
use crate::table::infer::{parse_date, parse_quarter, quarter_label};

/// A period an index label stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Period {
    Year(i32),
    Quarter(i32, u32),
    Month(i32, u32),
    Day(NaiveDate),
}

const MONTH_ABBR: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
/// English month names, January first.
pub const MONTH_FULL: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `'23`: a two-digit year.
fn short_year(y: i32) -> String {
    format!("'{:02}", y.rem_euclid(100))
}

/// The four-digit year a two-digit one stands for: the one nearest `near`
/// (the chart's or the gold's year), else 2000–2069 / 1970–1999.
fn century(yy: i32, near: Option<i32>) -> i32 {
    match near {
        Some(r) => {
            let base = r - r.rem_euclid(100);
            [base - 100 + yy, base + yy, base + 100 + yy]
                .into_iter()
                .min_by_key(|c| (c - r).abs())
                .unwrap_or(base + yy)
        }
        None if yy < 70 => 2000 + yy,
        None => 1900 + yy,
    }
}

impl Period {
    /// A canonical table label as a period; None for anything else.
    pub fn from_label(label: &str) -> Option<Period> {
        let t = label.trim();
        if !t.is_ascii() {
            return None;
        }
        match t.len() {
            4 if digits(t) => t.parse().ok().map(Period::Year),
            7 if t.as_bytes()[4] == b' ' => {
                let (y, q) = parse_quarter(t)?;
                (quarter_label(y, q) == t).then_some(Period::Quarter(y, q))
            }
            7 if t.as_bytes()[4] == b'-' && digits(&t[..4]) && digits(&t[5..]) => {
                let y: i32 = t[..4].parse().ok()?;
                let m: u32 = t[5..].parse().ok()?;
                (1..=12).contains(&m).then_some(Period::Month(y, m))
            }
            10 => NaiveDate::parse_from_str(t, "%Y-%m-%d")
                .ok()
                .map(Period::Day),
            _ => None,
        }
    }

    /// The canonical table label.
    pub fn label(&self) -> String {
        match *self {
            Period::Year(y) => y.to_string(),
            Period::Quarter(y, q) => quarter_label(y, q),
            Period::Month(y, m) => format!("{y:04}-{m:02}"),
            Period::Day(d) => d.format("%Y-%m-%d").to_string(),
        }
    }

    pub fn year(&self) -> i32 {
        match *self {
            Period::Year(y) | Period::Quarter(y, _) | Period::Month(y, _) => y,
            Period::Day(d) => d.year(),
        }
    }

    /// The period printed in `style`; `quarterly` prints a month that starts
    /// a quarter as that quarter (a quarterly series indexed by months).
    pub fn print(&self, style: DateStyle, quarterly: bool) -> String {
        use DateStyle::*;
        let short = matches!(style, ShortYear | FiscalShort);
        match (*self, style) {
            (_, Iso) => self.label(),
            (Period::Year(y), Fiscal) => format!("FY{y}"),
            (Period::Year(y), FiscalShort) => format!("FY{:02}", y.rem_euclid(100)),
            (Period::Year(y), ShortYear) => short_year(y),
            (Period::Year(y), _) => y.to_string(),
            (Period::Month(y, m), _) if quarterly && m % 3 == 1 => {
                Period::Quarter(y, m / 3 + 1).print(style, false)
            }
            (Period::Quarter(y, q), _) if short => format!("Q{q} {}", short_year(y)),
            (Period::Quarter(y, q), _) => format!("Q{q} {y}"),
            (Period::Month(y, m), _) => {
                let i = (m as usize).clamp(1, 12) - 1;
                match style {
                    FullMonth => format!("{} {y}", MONTH_FULL[i]),
                    _ if short => format!("{} {}", MONTH_ABBR[i], short_year(y)),
                    _ => format!("{} {y}", MONTH_ABBR[i]),
                }
            }
            (Period::Day(d), _) => {
                let (day, i, y) = (d.day(), d.month0() as usize, d.year());
                match style {
                    MonthDay => format!("{} {day}, {y}", MONTH_ABBR[i]),
                    FullMonth => format!("{day} {} {y}", MONTH_FULL[i]),
                    _ if short => format!("{day} {} {}", MONTH_ABBR[i], short_year(y)),
                    _ => format!("{day} {} {y}", MONTH_ABBR[i]),
                }
            }
        }
    }

    /// A period from any way of writing it: the canonical label, `Jan 2023`,
    /// `January 2023`, `Jan '23`, `Q1 2023`, `2023Q1`, `FY2023`, `FY23`,
    /// `'23`, `5 Jan 2023`, `Jan 5, 2023`. A two-digit year takes the century
    /// nearest `near`.
    pub fn read(text: &str, near: Option<i32>) -> Option<Period> {
        let t = text
            .trim()
            .trim_matches(|c: char| matches!(c, '"' | '`' | '*'))
            .trim_end_matches(['.', '!'])
            .trim();
        if t.is_empty() || t.len() > 40 {
            return None;
        }
        if let Some(p) = Period::from_label(t) {
            return Some(p);
        }
        let t = t.replace('’', "'");
        // Fiscal years: FY2023, FY 2023, FY23, FY'23, FY-23.
        if t.len() > 2 && t.get(..2).is_some_and(|h| h.eq_ignore_ascii_case("fy")) {
            let rest = t[2..].trim_start_matches([' ', '\'', '-']);
            return match rest.len() {
                4 if digits(rest) => rest.parse().ok().map(Period::Year),
                2 if digits(rest) => Some(Period::Year(century(rest.parse().ok()?, near))),
                _ => None,
            };
        }
        // A trailing two-digit year ('23) written out in full.
        let full = match t.rfind('\'') {
            Some(i) if digits(&t[i + 1..]) && t.len() - i == 3 => {
                let head = t[..i].trim_end();
                let y = century(t[i + 1..].parse().ok()?, near);
                if head.is_empty() {
                    return Some(Period::Year(y));
                }
                format!("{head} {y}")
            }
            _ => t.clone(),
        };
        if let Some((y, q)) = parse_quarter(&full) {
            return Some(Period::Quarter(y, q));
        }
        parse_date(&full).and_then(|iso| Period::from_label(&iso))
    }

    /// Whether two periods are one: equal, or a month that starts a quarter
    /// and that quarter (a quarterly chart prints its months as quarters).
    pub fn same(&self, other: &Period) -> bool {
        match (*self, *other) {
            (Period::Month(y, m), Period::Quarter(qy, q))
            | (Period::Quarter(qy, q), Period::Month(y, m)) => y == qy && m == 3 * q - 2,
            (a, b) => a == b,
        }
    }
}

/// Whether a printed text names the period of canonical label `label`
/// (`Jan '23` names `2023-01`); false when `label` is no period.
pub fn names_period(printed: &str, label: &str) -> bool {
    let Some(p) = Period::from_label(label) else {
        return false;
    };
    Period::read(printed, Some(p.year())).is_some_and(|r| r.same(&p))
}

/// Whether a table's index labels are days (not months written as their
/// first day): a cell is "on 2009-07-29", not "in".
pub fn labels_days(table: &Table) -> bool {
    let periods: Vec<Option<Period>> = table
        .category_labels()
        .iter()
        .map(|l| Period::from_label(l))
        .collect();
    periods.iter().all(|p| matches!(p, Some(Period::Day(_))))
        && periods
            .iter()
            .any(|p| matches!(p, Some(Period::Day(d)) if d.day() != 1))
}

/// A month held as its first day ("1855-05-01" in a table of month
/// starts) as people say it: "May 1855". None for other labels, or when
/// some label of `table` is not a first of the month.
pub fn month_start_spoken(table: &Table, label: &str) -> Option<String> {
    let first_day = |l: &str| matches!(Period::from_label(l), Some(Period::Day(d)) if d.day() == 1);
    let labels = table.category_labels();
    if labels.len() < 2 || !labels.iter().all(|l| first_day(l)) {
        return None;
    }
    match Period::from_label(label)? {
        Period::Day(d) if d.day() == 1 => {
            Some(format!("{} {}", MONTH_FULL[d.month0() as usize], d.year()))
        }
        _ => None,
    }
}

/// How the labels of one table's index print in one style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexDates {
    style: DateStyle,
    /// Months on quarter starts, three months apart, print as quarters.
    quarterly: bool,
}

impl IndexDates {
    pub const ISO: IndexDates = IndexDates {
        style: DateStyle::Iso,
        quarterly: false,
    };

    /// The printing of `table`'s index in `style`: ISO (labels as they are)
    /// for indexes that are not periods, and wherever the style would print
    /// two rows alike (`'23` for 1923 and 2023).
    pub fn of(table: &Table, style: DateStyle) -> IndexDates {
        if style.is_iso() {
            return IndexDates::ISO;
        }
        let labels = table.category_labels();
        let periods: Vec<Option<Period>> = labels.iter().map(|l| Period::from_label(l)).collect();
        let present: Vec<Period> = periods.iter().flatten().copied().collect();
        let fits = match table.index.ctype {
            ColumnType::Year => present.iter().all(|p| matches!(p, Period::Year(_))),
            ColumnType::Date => present
                .iter()
                .all(|p| matches!(p, Period::Month(..) | Period::Day(_))),
            ColumnType::Text => {
                present.len() == labels.iter().filter(|l| !l.is_empty()).count()
                    && present.iter().all(|p| matches!(p, Period::Quarter(..)))
            }
            _ => false,
        };
        if !fits || present.is_empty() {
            return IndexDates::ISO;
        }
        let months: Option<Vec<i64>> = present
            .iter()
            .map(|p| match *p {
                Period::Month(y, m) if m % 3 == 1 => Some(i64::from(y) * 12 + i64::from(m)),
                _ => None,
            })
            .collect();
        let quarterly =
            months.is_some_and(|ms| ms.len() >= 2 && ms.windows(2).all(|w| w[1] - w[0] == 3));
        let out = IndexDates { style, quarterly };
        let distinct: BTreeSet<&String> = labels.iter().collect();
        let printed: BTreeSet<String> = distinct.iter().map(|l| out.print(l)).collect();
        if printed.len() == distinct.len() {
            out
        } else {
            IndexDates::ISO
        }
    }

    pub fn of_panel(panel: &PanelSpec) -> IndexDates {
        IndexDates::of(&panel.table, panel.style.date_style)
    }

    /// Whether labels print as the table has them.
    pub fn is_iso(&self) -> bool {
        self.style.is_iso()
    }

    /// Whether months print as the quarters they start.
    pub fn prints_quarters(&self) -> bool {
        self.quarterly && !self.is_iso()
    }

    /// A canonical label as printed; other text (a category that is no
    /// period) unchanged.
    pub fn print(&self, label: &str) -> String {
        if self.is_iso() {
            return label.to_string();
        }
        Period::from_label(label).map_or_else(
            || label.to_string(),
            |p| p.print(self.style, self.quarterly),
        )
    }

    /// Every index label of `table` as printed.
    pub fn labels(&self, table: &Table) -> Vec<String> {
        table
            .category_labels()
            .iter()
            .map(|l| self.print(l))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Cell, Column, NumberFormat, TableMeta};

    fn table(ctype: ColumnType, cells: Vec<Cell>) -> Table {
        Table {
            id: "t".into(),
            source_path: None,
            meta: TableMeta::default(),
            index: Column {
                name: "When".into(),
                ctype,
                format: NumberFormat::default(),
                cells,
            },
            series: Vec::new(),
        }
    }

    fn months(labels: &[&str]) -> Table {
        table(
            ColumnType::Date,
            labels.iter().map(|l| Cell::Date(l.to_string())).collect(),
        )
    }

    fn years(ys: &[i32]) -> Table {
        table(
            ColumnType::Year,
            ys.iter().map(|y| Cell::Year(*y)).collect(),
        )
    }

    #[test]
    fn a_month_held_as_its_first_day_is_said_as_the_month() {
        let starts = months(&["1855-04-01", "1855-05-01"]);
        assert_eq!(
            month_start_spoken(&starts, "1855-05-01").as_deref(),
            Some("May 1855")
        );
        // Days that are not all firsts are days.
        let days = months(&["1855-04-01", "1855-05-03"]);
        assert_eq!(month_start_spoken(&days, "1855-04-01"), None);
        assert_eq!(month_start_spoken(&starts, "Disease"), None);
    }

    #[test]
    fn every_style_prints_every_granularity() {
        use DateStyle::*;
        let m = Period::Month(2023, 1);
        let d = Period::Day(NaiveDate::from_ymd_opt(2023, 1, 5).unwrap());
        let y = Period::Year(2023);
        let q = Period::Quarter(2023, 1);
        let expect: [(DateStyle, [&str; 4]); 7] = [
            (Iso, ["2023-01", "2023-01-05", "2023", "2023 Q1"]),
            (MonthYear, ["Jan 2023", "5 Jan 2023", "2023", "Q1 2023"]),
            (ShortYear, ["Jan '23", "5 Jan '23", "'23", "Q1 '23"]),
            (
                FullMonth,
                ["January 2023", "5 January 2023", "2023", "Q1 2023"],
            ),
            (MonthDay, ["Jan 2023", "Jan 5, 2023", "2023", "Q1 2023"]),
            (Fiscal, ["Jan 2023", "5 Jan 2023", "FY2023", "Q1 2023"]),
            (FiscalShort, ["Jan '23", "5 Jan '23", "FY23", "Q1 '23"]),
        ];
        for (style, [pm, pd, py, pq]) in expect {
            assert_eq!(m.print(style, false), pm, "{style:?}");
            assert_eq!(d.print(style, false), pd, "{style:?}");
            assert_eq!(y.print(style, false), py, "{style:?}");
            assert_eq!(q.print(style, false), pq, "{style:?}");
            // Every printed form reads back as its period.
            for (p, printed) in [(m, pm), (d, pd), (y, py), (q, pq)] {
                assert_eq!(Period::read(printed, Some(2020)), Some(p), "{printed:?}");
                assert!(names_period(printed, &p.label()), "{printed:?}");
            }
        }
    }

    #[test]
    fn edge_months_and_days() {
        let leap = Period::from_label("2024-02-29").unwrap();
        assert_eq!(leap.print(DateStyle::MonthDay, false), "Feb 29, 2024");
        assert_eq!(Period::read("29 Feb 2024", None), Some(leap));
        assert_eq!(Period::from_label("2023-02-29"), None);
        assert_eq!(Period::read("Feb 29, 2023", None), None);
        let dec = Period::from_label("1999-12").unwrap();
        assert_eq!(dec.print(DateStyle::ShortYear, false), "Dec '99");
        assert_eq!(dec.print(DateStyle::FullMonth, false), "December 1999");
        assert_eq!(Period::read("Dec '99", Some(1995)), Some(dec));
        assert_eq!(Period::read("Dec '99", Some(2001)), Some(dec));
        assert_eq!(
            Period::read("Sept 2021", None),
            Some(Period::Month(2021, 9))
        );
        assert_eq!(Period::from_label("2023-13"), None);
        assert_eq!(Period::from_label("2023-00"), None);
        assert_eq!(Period::from_label("Jan 2023"), None);
        for bad in [
            "", "Q5 2023", "FY", "FYabcd", "'2", "January", "2023 Q", "x'23", "é2023", "Fé",
        ] {
            assert_eq!(Period::read(bad, None), None, "{bad:?}");
        }
        // Two-digit years take the century nearest the context.
        assert_eq!(Period::read("FY58", Some(1960)), Some(Period::Year(1958)));
        assert_eq!(Period::read("FY58", Some(2050)), Some(Period::Year(2058)));
        assert_eq!(Period::read("’23", Some(2020)), Some(Period::Year(2023)));
    }

    #[test]
    fn canonical_labels_round_trip() {
        for l in ["2023", "2023 Q4", "2023-01", "2023-12-31", "1800-01-01"] {
            let p = Period::from_label(l).unwrap();
            assert_eq!(p.label(), l);
            for style in DateStyle::ALL {
                for quarterly in [false, true] {
                    let printed = p.print(style, quarterly);
                    let back = Period::read(&printed, Some(p.year())).unwrap();
                    assert!(back.same(&p), "{l} {style:?} {printed:?}");
                }
            }
        }
    }

    #[test]
    fn different_periods_differ() {
        assert!(!names_period("Jan 2024", "2023-01"));
        assert!(!names_period("Feb 2023", "2023-01"));
        assert!(!names_period("5 Jan 2023", "2023-01"));
        assert!(!names_period("Q2 2023", "2023-01"));
        assert!(names_period("Q1 2023", "2023-01"));
        assert!(!names_period("FY2022", "2023"));
        assert!(!names_period("France", "2023"));
        assert!(!names_period("Jan 2023", "France"));
    }

    #[test]
    fn quarterly_months_print_as_quarters() {
        let q = months(&["2022-10", "2023-01", "2023-04", "2023-07"]);
        let d = IndexDates::of(&q, DateStyle::MonthYear);
        assert_eq!(d.labels(&q), ["Q4 2022", "Q1 2023", "Q2 2023", "Q3 2023"]);
        assert_eq!(IndexDates::of(&q, DateStyle::Iso).labels(&q)[0], "2022-10");
        // Quarter starts a year apart are not a quarterly series.
        let y = months(&["2022-01", "2023-01", "2024-01"]);
        assert_eq!(
            IndexDates::of(&y, DateStyle::MonthYear).labels(&y),
            ["Jan 2022", "Jan 2023", "Jan 2024"]
        );
        let m = months(&["2023-01", "2023-02", "2023-03"]);
        assert_eq!(
            IndexDates::of(&m, DateStyle::ShortYear).labels(&m),
            ["Jan '23", "Feb '23", "Mar '23"]
        );
        let quarters = table(
            ColumnType::Text,
            vec![Cell::Text("2023 Q1".into()), Cell::Text("2023 Q2".into())],
        );
        assert_eq!(
            IndexDates::of(&quarters, DateStyle::MonthYear).labels(&quarters),
            ["Q1 2023", "Q2 2023"]
        );
    }

    #[test]
    fn indexes_that_are_no_periods_or_would_clash_stay_iso() {
        let clash = years(&[1923, 2023]);
        assert!(IndexDates::of(&clash, DateStyle::ShortYear).is_iso());
        assert_eq!(
            IndexDates::of(&clash, DateStyle::Fiscal).labels(&clash),
            ["FY1923", "FY2023"]
        );
        let names = table(
            ColumnType::Text,
            vec![Cell::Text("France".into()), Cell::Text("2023 Q1".into())],
        );
        assert!(IndexDates::of(&names, DateStyle::MonthYear).is_iso());
        let numbers = table(ColumnType::Number, vec![Cell::Number(2023.0)]);
        assert!(IndexDates::of(&numbers, DateStyle::ShortYear).is_iso());
        // A label that is no period prints unchanged.
        let y = years(&[2020, 2021]);
        assert_eq!(
            IndexDates::of(&y, DateStyle::ShortYear).print("other"),
            "other"
        );
    }
}
