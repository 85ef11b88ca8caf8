//! Reading a file's columns as a person would: which column labels the rows
//! (the index), which are series, and whether the rows are a wide table, a
//! long table keyed by two columns, or raw observations to summarize.

use super::clean::words;
use super::error::{ColumnRef, TableError, TableErrorKind};
use super::infer::{
    is_missing, is_non_finite, name_means_year, parse_compact_date, parse_date, parse_number,
    parse_whole_year, parse_year,
};
use super::{MAX_CATEGORIES, MAX_SERIES};
use std::collections::HashSet;

/// One column of raw cells, numbered from 0 as in the file.
pub(crate) struct RawColumn<'a> {
    pub number: usize,
    pub name: &'a str,
    pub cells: Vec<&'a str>,
}

impl RawColumn<'_> {
    pub fn colref(&self) -> ColumnRef {
        ColumnRef::new(self.number, self.name)
    }

    pub fn present(&self) -> impl Iterator<Item = &str> + '_ {
        self.cells.iter().copied().filter(|c| !is_missing(c))
    }
}

/// What a column is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// Every cell missing.
    Empty,
    /// Years, dates, or integers named as a time unit (month, day, …).
    Time,
    /// Names, codes, notes: labels, never values.
    Text,
    /// A row number (1, 2, 3, …) or an unnamed/`id` column of integers.
    RowId,
    /// Coordinates and codes (latitude, FIPS, zip): numbers that measure nothing.
    Code,
    /// Measured values.
    Number,
}

pub(crate) struct Profile {
    pub role: Role,
    pub distinct: usize,
    /// Cells that are not missing.
    pub present: usize,
    pub complete: bool,
    /// Integers that repeat a lot (codes such as sex = 1/2, age = 0, 5, 10):
    /// a key when the rows need one.
    pub key_like: bool,
}

/// Header words that name a point or unit on a calendar: the last word of a
/// time header ("Fiscal year", "report date", `forecastYear`).
const CALENDAR_WORDS: [&str; 10] = [
    "year",
    "yr",
    "fy",
    "date",
    "month",
    "day",
    "week",
    "quarter",
    "hour",
    "timestamp",
];
/// Words that name a time axis only as the whole header: after another word
/// they name a duration that is measured ("Reaction time", "Sick days").
const TIME_ALONE_WORDS: [&str; 9] = [
    "time", "period", "years", "months", "weeks", "days", "hours", "dates", "quarters",
];
/// Header words of columns that locate or code rows rather than measure them.
const CODE_WORDS: [&str; 10] = [
    "latitude",
    "longitude",
    "lat",
    "lon",
    "lng",
    "fips",
    "zip",
    "zipcode",
    "postcode",
    "code",
];
/// Headers of row-number columns (an unnamed pandas/R index is "").
const ID_NAMES: [&str; 8] = [
    "",
    "id",
    "rownames",
    "row",
    "index",
    "#",
    "no",
    "unnamed: 0",
];

/// Whether a header names a time axis: its last word (units in parentheses
/// aside) is a unit of time and not a rate ("per month").
pub(crate) fn name_means_time(name: &str) -> bool {
    let bare = name.split('(').next().unwrap_or(name);
    let w = words(bare);
    match w.as_slice() {
        [] => false,
        [only] => {
            CALENDAR_WORDS.contains(&only.as_str()) || TIME_ALONE_WORDS.contains(&only.as_str())
        }
        [.., before, last] => CALENDAR_WORDS.contains(&last.as_str()) && before != "per",
    }
}

fn is_code_name(name: &str) -> bool {
    let w = words(name);
    // "Sample Number", "Case No" name rows; "Number of cases" counts.
    let numbering = w.len() > 1
        && w.last()
            .is_some_and(|l| matches!(l.as_str(), "number" | "num" | "no" | "id"));
    numbering || w.iter().any(|x| CODE_WORDS.contains(&x.as_str()))
}

fn is_id_name(name: &str) -> bool {
    let n = name.trim().to_lowercase();
    ID_NAMES.contains(&n.as_str())
        || n == "obs"
        || n.ends_with("_id")
        || n.ends_with(" id")
        // Short codes such as PID, FID, uid.
        || n.len() <= 4 && n.ends_with("id")
}

pub(crate) fn profile(col: &RawColumn, first: bool) -> Profile {
    let present: Vec<&str> = col.present().collect();
    let distinct = present
        .iter()
        .map(|c| c.trim())
        .collect::<HashSet<_>>()
        .len();
    let complete = present.len() == col.cells.len();
    let mut p = Profile {
        role: Role::Number,
        distinct,
        present: present.len(),
        complete,
        key_like: false,
    };
    if present.is_empty() {
        p.role = Role::Empty;
        return p;
    }
    let years = present.iter().all(|c| parse_year(c).is_some())
        || name_means_year(col.name) && present.iter().all(|c| parse_whole_year(c).is_some());
    if years && (first || name_means_time(col.name)) {
        p.role = Role::Time;
        return p;
    }
    let compact =
        name_means_time(col.name) && present.iter().all(|c| parse_compact_date(c).is_some());
    if compact || present.iter().all(|c| parse_date(c).is_some()) {
        p.role = Role::Time;
        // Distinct as dates: two times of one day are one label.
        p.distinct = present
            .iter()
            .filter_map(|c| parse_date(c).or_else(|| parse_compact_date(c)))
            .collect::<HashSet<_>>()
            .len();
        return p;
    }
    let numeric = present
        .iter()
        .filter(|c| parse_number(c).is_some() || is_non_finite(c))
        .count();
    if numeric * 2 < present.len() {
        p.role = Role::Text;
        return p;
    }
    if is_code_name(col.name) {
        p.role = Role::Code;
        return p;
    }
    // Decimal years (1945.25) and the like: a time axis, not a measure.
    if name_means_time(col.name) && numeric == present.len() {
        p.role = Role::Time;
    }
    let integers: Option<Vec<i64>> = present
        .iter()
        .map(|c| {
            parse_number(c)
                .filter(|n| n.plain_integer)
                .map(|n| n.value as i64)
        })
        .collect();
    if let Some(ints) = integers {
        let counting = ints.iter().zip(1..).all(|(v, i)| *v == i)
            || ints.iter().zip(0..).all(|(v, i)| *v == i);
        if complete && distinct == present.len() && (is_id_name(col.name) || counting && first) {
            p.role = Role::RowId;
            return p;
        }
        if p.role == Role::Time {
            return p;
        }
        p.key_like = complete && distinct <= 60 && distinct * 4 <= present.len();
    }
    p
}

/// How the rows become a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Plan {
    /// One row per category: `index` labels rows, every series is a column.
    Wide { index: usize, series: Vec<usize> },
    /// Rows keyed by two columns: `index` × `key` → the `value` column.
    Long {
        index: usize,
        key: usize,
        value: usize,
        /// Rows kept: all, or those of the latest time of a third key
        /// (that time column and its rows).
        rows: Option<(usize, Vec<usize>)>,
        /// Several rows per pair (readings within a day): summarized.
        summarize: bool,
    },
    /// Several rows per category: summarized per `index` value.
    Grouped { index: usize, series: Vec<usize> },
    /// No column labels the rows: they are numbered.
    Numbered { series: Vec<usize> },
    /// A year column and a quarter or month column that together name each
    /// row once: one time axis (`1959 Q1`, `1959-01`).
    YearPeriod {
        year: usize,
        period: usize,
        quarters: bool,
        series: Vec<usize>,
    },
}

/// Quarter (1–4, `Q1`) or month (1–12, `Jan`) of a period cell.
pub(crate) fn period_number(cell: &str, quarters: bool) -> Option<u32> {
    let t = cell.trim();
    let t = if quarters {
        t.trim_start_matches(['Q', 'q'])
    } else {
        t
    };
    if let Ok(v) = t.parse::<u32>() {
        let max = if quarters { 4 } else { 12 };
        return (1..=max).contains(&v).then_some(v);
    }
    if quarters {
        return None;
    }
    let lower = t.to_lowercase();
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    (lower.len() >= 3)
        .then(|| MONTHS.iter().position(|m| lower.starts_with(m)))
        .flatten()
        .map(|i| i as u32 + 1)
}

fn year_period(columns: &[RawColumn], profiles: &[Profile]) -> Option<(usize, usize, bool)> {
    let n = columns[0].cells.len();
    let year = (0..columns.len()).find(|&c| {
        profiles[c].role == Role::Time
            && profiles[c].complete
            && name_means_year(columns[c].name)
            && columns[c].cells.iter().all(|x| parse_year(x).is_some())
    })?;
    for (c, col) in columns.iter().enumerate() {
        if c == year || !profiles[c].complete {
            continue;
        }
        let w = words(col.name);
        let quarters = w.iter().any(|x| x == "quarter" || x == "qtr");
        let months = w.iter().any(|x| x == "month");
        if !(quarters || months) {
            continue;
        }
        if col
            .cells
            .iter()
            .all(|x| period_number(x, quarters).is_some())
            && tuples(columns, &[year, c], &(0..n).collect::<Vec<_>>()).0 == n
        {
            return Some((year, c, quarters));
        }
    }
    None
}

pub(crate) struct Directives<'a> {
    pub index: Option<&'a str>,
    pub series: Option<&'a [String]>,
    /// The sidecar's path, for errors in the directives.
    pub sidecar: &'a str,
}

pub(crate) struct Choice {
    pub plan: Plan,
    pub notes: Vec<String>,
}

fn find(columns: &[RawColumn], name: &str, sidecar: &str, key: &str) -> Result<usize, TableError> {
    columns.iter().position(|c| c.name == name).ok_or_else(|| {
        TableError::new(
            sidecar,
            TableErrorKind::Sidecar(format!("{key:?} names no column {name:?}")),
        )
    })
}

/// Whether the tuple of columns `cols` is unique over `rows`.
fn tuples(columns: &[RawColumn], cols: &[usize], rows: &[usize]) -> (usize, Option<usize>) {
    let mut seen = HashSet::new();
    let mut first_dup = None;
    for &r in rows {
        let key: Vec<String> = cols
            .iter()
            .map(|&c| label_key(columns[c].cells[r]))
            .collect();
        if !seen.insert(key) && first_dup.is_none() {
            first_dup = Some(r);
        }
    }
    (seen.len(), first_dup)
}

/// A label as the table will print it: dates normalized, text trimmed.
fn label_key(cell: &str) -> String {
    parse_date(cell).unwrap_or_else(|| cell.trim().to_string())
}

fn is_key(p: &Profile) -> bool {
    matches!(p.role, Role::Time | Role::Text)
}

fn describe(col: &RawColumn, what: &str) -> String {
    format!("{} {what}, not charted", col.colref())
}

/// Decide the plan for a file's columns.
pub(crate) fn choose(
    columns: &[RawColumn],
    profiles: &[Profile],
    directives: &Directives,
    file: &str,
    lines: &[u64],
) -> Result<Choice, TableError> {
    let n = columns[0].cells.len();
    let all_rows: Vec<usize> = (0..n).collect();
    let unique = |c: usize| profiles[c].complete && profiles[c].distinct == n;
    // Labels that repeat, each about twice or more: groups of observations.
    let systematic = |c: usize| {
        let p = &profiles[c];
        p.distinct * 2 <= n && p.distinct < p.present
    };
    // A time that summarizes well: five or more values with ten or more
    // rows each (model years of cars, days of hourly readings), not three
    // survey years nor dates that are nearly one per row.
    let time_axis = |c: usize| {
        let p = &profiles[c];
        p.role == Role::Time && p.distinct >= 5 && p.present >= 10 * p.distinct
    };
    // Names and ids that label almost every row once: never a second key.
    let near_unique = |c: usize| !systematic(c) && profiles[c].distinct > MAX_SERIES;
    let wanted: Option<Vec<usize>> = directives
        .series
        .map(|names| {
            names
                .iter()
                .map(|s| find(columns, s, directives.sidecar, "series"))
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()?;
    let dir_index = directives
        .index
        .map(|name| find(columns, name, directives.sidecar, "index"))
        .transpose()?;
    let mut keys: Vec<usize> = (0..columns.len())
        .filter(|&c| is_key(&profiles[c]))
        .collect();
    if let Some(i) = dir_index
        && !keys.contains(&i)
    {
        keys.insert(0, i);
    }
    // Integer codes (age groups, sex = 1/2) join the keys only when the
    // named keys cannot tell the rows apart.
    let coded: Vec<usize> = (0..columns.len())
        .filter(|&c| profiles[c].key_like && !keys.contains(&c))
        .collect();
    let values_except = |used: &[usize]| -> Vec<usize> {
        match &wanted {
            Some(w) => w.iter().copied().filter(|c| !used.contains(c)).collect(),
            None => (0..columns.len())
                .filter(|c| profiles[*c].role == Role::Number && !used.contains(c))
                .collect(),
        }
    };
    // The measured value of a long table: not a code column when another exists.
    let long_value = |used: &[usize]| -> Option<usize> {
        let all = values_except(used);
        all.iter()
            .copied()
            .find(|&c| wanted.is_some() || !profiles[c].key_like)
            .or_else(|| all.first().copied())
    };

    let plan = 'plan: {
        // The index: as the sidecar says, else the first column when it is a
        // label that names every row once, else the first such key.
        let single = match dir_index {
            Some(i) => Some(i),
            None => {
                let first_key = keys.iter().copied().find(|&k| unique(k));
                if is_key(&profiles[0]) && unique(0) {
                    Some(0)
                } else if let Some(k) = first_key {
                    Some(k)
                } else if keys.is_empty() && unique(0) {
                    Some(0)
                } else {
                    None
                }
            }
        };
        if let Some(i) = single
            && unique(i)
        {
            break 'plan Plan::Wide {
                index: i,
                series: values_except(&[i]),
            };
        }
        if dir_index.is_none()
            && let Some((year, period, quarters)) = year_period(columns, profiles)
        {
            break 'plan Plan::YearPeriod {
                year,
                period,
                quarters,
                series: values_except(&[year, period]),
            };
        }
        // Two keys naming every row once: a long table.
        let mut candidates: Vec<usize> = match dir_index {
            Some(i) => std::iter::once(i)
                .chain(keys.iter().copied().filter(|&k| k != i))
                .collect(),
            None => keys.clone(),
        };
        candidates.extend(coded.iter().copied());
        // Keys of a real long table repeat (each value labels several rows)
        // and fill most of their grid; near-unique names paired with
        // anything are not a second dimension.
        let complete: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&c| profiles[c].complete && !near_unique(c))
            .collect();
        // Time keys first: a time axis is the natural index of a long table.
        let mut complete = complete;
        complete.sort_by_key(|&c| profiles[c].role != Role::Time);
        let dense = |a: usize, b: usize, rows: usize| {
            2 * rows >= profiles[a].distinct.min(rows) * profiles[b].distinct.min(rows)
        };
        // Unique pairs with a time first, then a time with several readings
        // per group, then any unique pair.
        for pass in 0..3 {
            if pass == 1 {
                // A time and a group with several readings each (hourly readings per
                // station and day): summarized per time and group.
                for &t in complete.iter().filter(|&&c| time_axis(c)) {
                    for &g in &complete {
                        if g == t || profiles[g].distinct < 2 || dir_index.is_some_and(|i| i != t) {
                            continue;
                        }
                        let (count, _) = tuples(columns, &[t, g], &all_rows);
                        let grid = profiles[t].distinct * profiles[g].distinct;
                        if count * 2 <= n
                            && 2 * count >= grid
                            && let Some(value) = long_value(&[t, g])
                        {
                            break 'plan Plan::Long {
                                index: t,
                                key: g,
                                value,
                                rows: None,
                                summarize: true,
                            };
                        }
                    }
                }
                continue;
            }
            for (ai, &a) in complete.iter().enumerate() {
                for &b in &complete[ai + 1..] {
                    let timed = profiles[a].role == Role::Time || profiles[b].role == Role::Time;
                    if dir_index.is_some_and(|i| i != a && i != b)
                        || !dense(a, b, n)
                        || timed != (pass == 0)
                    {
                        continue;
                    }
                    let (count, _) = tuples(columns, &[a, b], &all_rows);
                    if count == n {
                        let (index, key) = orient(a, b, profiles, dir_index);
                        if let Some(value) = long_value(&[a, b]) {
                            break 'plan Plan::Long {
                                index,
                                key,
                                value,
                                rows: None,
                                summarize: false,
                            };
                        }
                    }
                }
            }
        }
        // Three keys with one of them time: the latest period, then two keys.
        for &t in complete.iter().filter(|&&c| profiles[c].role == Role::Time) {
            let latest = latest_rows(&columns[t]);
            if latest.len() < 4 {
                continue;
            }
            for (ai, &a) in complete.iter().enumerate() {
                for &b in &complete[ai + 1..] {
                    if a == t || b == t || dir_index.is_some_and(|i| i != a && i != b) {
                        continue;
                    }
                    let (count, _) = tuples(columns, &[a, b], &latest);
                    let distinct = |c: usize| {
                        latest
                            .iter()
                            .map(|&r| columns[c].cells[r].trim())
                            .collect::<HashSet<_>>()
                            .len()
                    };
                    let grid_filled = 2 * latest.len() >= distinct(a) * distinct(b);
                    if count == latest.len()
                        && grid_filled
                        && let Some(value) = long_value(&[a, b, t])
                    {
                        let (index, key) = orient(a, b, profiles, dir_index);
                        break 'plan Plan::Long {
                            index,
                            key,
                            value,
                            rows: Some((t, latest.clone())),
                            summarize: false,
                        };
                    }
                }
            }
        }
        // A few repeated labels in a small table are mistakes, not structure.
        if let (Some(&second), true) = (keys.get(1), keys.first() == Some(&0))
            && second == 1
            && dir_index.is_none()
            && profiles[0].complete
            && profiles[1].complete
            && n <= MAX_CATEGORIES
        {
            let (count, dup) = tuples(columns, &[0, 1], &all_rows);
            if count * 2 > n
                && let Some(r) = dup
            {
                let first = first_row_of(columns, &[0, 1], r);
                return Err(TableError::new(
                    file,
                    TableErrorKind::DuplicatePair {
                        category: columns[0].cells[r].trim().to_string(),
                        series: columns[1].cells[r].trim().to_string(),
                        first_line: lines[first],
                    },
                )
                .at_line(lines[r])
                .at_column(columns[0].colref()));
            }
        }
        // Raw observations: summarized per the first label that repeats.
        // Time first (means per year), then names, then small integer codes.
        let grouping = match dir_index {
            Some(i) => Some(i),
            None => {
                let by = |wanted: &dyn Fn(usize) -> bool| {
                    (0..columns.len()).find(|&c| wanted(c) && systematic(c))
                };
                // A time with a handful of values is a poor axis (three survey years).
                by(&|c| keys.contains(&c) && time_axis(c))
                    .or_else(|| by(&|c| keys.contains(&c)))
                    .or_else(|| by(&|c| coded.contains(&c) && profiles[c].distinct <= 12))
            }
        };
        let index = grouping
            .or(single)
            .or_else(|| keys.first().copied())
            .or_else(|| (0..columns.len()).find(|&c| profiles[c].role == Role::RowId));
        let Some(index) = index else {
            if unique(0) {
                break 'plan Plan::Wide {
                    index: 0,
                    series: values_except(&[0]),
                };
            }
            break 'plan Plan::Numbered {
                series: values_except(&[]),
            };
        };
        if !systematic(index) && n <= MAX_CATEGORIES {
            let (_, dup) = tuples(columns, &[index], &all_rows);
            if let Some(r) = dup
                && !is_missing(columns[index].cells[r])
            {
                let first = first_row_of(columns, &[index], r);
                return Err(TableError::new(
                    file,
                    TableErrorKind::DuplicateLabel {
                        label: columns[index].cells[r].trim().to_string(),
                        first_line: lines[first],
                    },
                )
                .at_line(lines[r])
                .at_column(columns[index].colref()));
            }
            // Unique but with gaps: the wide path reports the missing label.
            break 'plan Plan::Wide {
                index,
                series: values_except(&[index]),
            };
        }
        // Small integer codes (sex 1/2, institution 1–18) are not averaged.
        let used: Vec<usize> = std::iter::once(index)
            .chain(
                coded
                    .iter()
                    .copied()
                    .filter(|&c| profiles[c].distinct <= 24),
            )
            .collect();
        Plan::Grouped {
            index,
            series: values_except(&used),
        }
    };

    let mut notes = Vec::new();
    let used: Vec<usize> = match &plan {
        Plan::Wide { index, series } | Plan::Grouped { index, series } => std::iter::once(*index)
            .chain(series.iter().copied())
            .collect(),
        Plan::Numbered { series } => series.clone(),
        Plan::YearPeriod {
            year,
            period,
            series,
            ..
        } => [*year, *period]
            .into_iter()
            .chain(series.iter().copied())
            .collect(),
        Plan::Long {
            index, key, value, ..
        } => vec![*index, *key, *value],
    };
    for (c, col) in columns.iter().enumerate() {
        if used.contains(&c) {
            continue;
        }
        let what = match profiles[c].role {
            Role::Empty => "is empty",
            Role::Text => "holds text",
            Role::RowId => "numbers the rows",
            Role::Code => "holds codes or coordinates",
            Role::Time => "holds times that do not label the rows",
            Role::Number if wanted.is_some() => "is not among the sidecar's series",
            Role::Number => "holds other values (name it in the sidecar's \"series\" to chart it)",
        };
        notes.push(describe(col, what));
    }
    Ok(Choice { plan, notes })
}

/// Index and series key of a long table: time labels the rows; otherwise
/// the side with fewer distinct values becomes the series.
fn orient(a: usize, b: usize, profiles: &[Profile], dir_index: Option<usize>) -> (usize, usize) {
    if let Some(i) = dir_index {
        return if i == a { (a, b) } else { (b, a) };
    }
    let time = |c: usize| profiles[c].role == Role::Time;
    match (time(a), time(b)) {
        (true, false) => (a, b),
        (false, true) => (b, a),
        _ if profiles[b].distinct > profiles[a].distinct => (b, a),
        _ => (a, b),
    }
}

fn first_row_of(columns: &[RawColumn], cols: &[usize], r: usize) -> usize {
    let key = |row: usize| -> Vec<String> {
        cols.iter()
            .map(|&c| label_key(columns[c].cells[row]))
            .collect()
    };
    let target = key(r);
    (0..r).find(|&row| key(row) == target).unwrap_or(r)
}

/// Rows of the latest time in a time column.
fn latest_rows(col: &RawColumn) -> Vec<usize> {
    let sort_key = |c: &str| -> String {
        parse_year(c)
            .map(|y| format!("{y:04}"))
            .or_else(|| parse_date(c))
            .unwrap_or_else(|| format!("{:0>12}", c.trim()))
    };
    let Some(latest) = col.cells.iter().map(|c| sort_key(c)).max() else {
        return Vec::new();
    };
    (0..col.cells.len())
        .filter(|&r| sort_key(col.cells[r]) == latest)
        .collect()
}
