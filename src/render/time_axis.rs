//! Time x axes for line and area charts. An index of years or ISO dates at
//! uneven steps (1951, 1956, 1957; months with gaps; trading days) is drawn
//! as a time line, the way a person or a plotting library's date axis draws
//! it: each point at a place proportional to its time, and tick labels at
//! round times instead of one label per point. Evenly spaced indexes keep
//! their category slots, which already are proportional.

use chrono::{Datelike, NaiveDate};

use crate::ir::{Cell, Column, ColumnType};

/// The unit the index labels are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    /// `1956`
    Year,
    /// `2023-01`
    Month,
    /// `2023-01-05`
    Day,
}

/// At most this many tick labels: more reads as clutter, not as an axis.
const MAX_TICKS: usize = 12;

/// A spacing of tick labels. Every step is aligned on round times, so the
/// labels read as a regular scale (2000, 2010, 2020; January, April, July).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Every k units of the index (years for years, days for days).
    Units(i64),
    /// Every k weeks, on Mondays (days only).
    Weeks(i64),
    /// The first of every k-th month, k dividing 12 (months and days).
    Months(i64),
    /// January (the 1st) of every year divisible by k (months and days).
    Years(i64),
}

const YEAR_STEPS: [i64; 13] = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000];

/// An index of times whose steps are not all equal, placed on a time line.
#[derive(Debug, Clone)]
pub(crate) struct TimeAxis {
    unit: Unit,
    /// Each category's time as a count of the unit, strictly increasing.
    times: Vec<i64>,
    /// The mean step: one category slot of the plot spans this much time,
    /// so the half-slot margins at both ends stay as with category slots.
    step: f64,
}

/// A time as a count of its unit: years, months since year 0, days of the
/// common era.
fn time_of(ctype: ColumnType, cell: &Cell) -> Option<(Unit, i64)> {
    match (ctype, cell) {
        (ColumnType::Year, Cell::Year(y)) => Some((Unit::Year, i64::from(*y))),
        (ColumnType::Date, Cell::Date(d)) => {
            let d = d.trim();
            if d.len() == 7 && d.is_ascii() && &d[4..5] == "-" {
                let y: i64 = d[..4].parse().ok()?;
                let m: i64 = d[5..].parse().ok()?;
                (1..=12)
                    .contains(&m)
                    .then_some((Unit::Month, y * 12 + m - 1))
            } else if d.len() == 10 {
                let day = NaiveDate::parse_from_str(d, "%Y-%m-%d").ok()?;
                Some((Unit::Day, i64::from(day.num_days_from_ce())))
            } else {
                None
            }
        }
        _ => None,
    }
}

fn date_of(day: i64) -> Option<NaiveDate> {
    NaiveDate::from_num_days_from_ce_opt(i32::try_from(day).ok()?)
}

fn day_of(y: i32, m: u32) -> Option<i64> {
    NaiveDate::from_ymd_opt(y, m, 1).map(|d| i64::from(d.num_days_from_ce()))
}

/// Multiples of `k` in `[lo, hi]` plus `offset`, or None when there are
/// more than `MAX_TICKS` (no need to list them).
fn multiples(lo: i64, hi: i64, k: i64, offset: i64) -> Option<Vec<i64>> {
    let first = (lo - offset).div_euclid(k) * k + offset;
    let first = if first < lo { first + k } else { first };
    if first > hi {
        return Some(Vec::new());
    }
    let count = (hi - first) / k + 1;
    (count <= MAX_TICKS as i64).then(|| (0..count).map(|i| first + i * k).collect())
}

/// Whether an index of years or dates (as printed) steps unevenly in time:
/// a step-to-step change then spans different lengths of time.
pub fn uneven_time_steps(ctype: ColumnType, labels: &[String]) -> bool {
    let cells: Vec<Cell> = labels
        .iter()
        .map(|l| match ctype {
            ColumnType::Year => l.parse().map_or(Cell::Missing, Cell::Year),
            _ => Cell::Date(l.clone()),
        })
        .collect();
    let index = Column {
        name: String::new(),
        ctype,
        format: Default::default(),
        cells,
    };
    TimeAxis::detect(&index).is_some()
}

impl TimeAxis {
    /// A time axis for an index of years, `YYYY-MM` months or `YYYY-MM-DD`
    /// days in increasing order whose steps differ; None otherwise (evenly
    /// spaced times and other indexes keep their category slots).
    pub fn detect(index: &Column) -> Option<TimeAxis> {
        let parsed: Vec<(Unit, i64)> = index
            .cells
            .iter()
            .map(|c| time_of(index.ctype, c))
            .collect::<Option<_>>()?;
        let unit = parsed.first()?.0;
        if parsed.len() < 3 || parsed.iter().any(|p| p.0 != unit) {
            return None;
        }
        let times: Vec<i64> = parsed.iter().map(|p| p.1).collect();
        let steps: Vec<i64> = times.windows(2).map(|w| w[1] - w[0]).collect();
        if steps.iter().any(|s| *s <= 0) || steps.iter().all(|s| *s == steps[0]) {
            return None;
        }
        let span = times[times.len() - 1] - times[0];
        Some(TimeAxis {
            unit,
            step: span as f64 / (times.len() - 1) as f64,
            times,
        })
    }

    /// Where a time falls, in category slots from the first point (the
    /// first point is at 0, the last at n - 1).
    fn slot_at(&self, t: i64) -> f32 {
        ((t - self.times[0]) as f64 / self.step) as f32
    }

    /// Where category `i` falls, in slots (see `slot_at`).
    pub fn slot_of(&self, i: usize) -> f32 {
        self.slot_at(self.times[i])
    }

    fn label(&self, t: i64) -> Option<String> {
        Some(match self.unit {
            Unit::Year => t.to_string(),
            Unit::Month => format!("{:04}-{:02}", t.div_euclid(12), t.rem_euclid(12) + 1),
            Unit::Day => date_of(t)?.format("%Y-%m-%d").to_string(),
        })
    }

    fn steps(&self) -> Vec<Step> {
        let years = YEAR_STEPS.iter().map(|k| Step::Years(*k));
        let months = [1, 2, 3, 6].map(Step::Months);
        match self.unit {
            Unit::Year => YEAR_STEPS.iter().map(|k| Step::Units(*k)).collect(),
            Unit::Month => months.into_iter().chain(years).collect(),
            Unit::Day => [
                Step::Units(1),
                Step::Units(2),
                Step::Weeks(1),
                Step::Weeks(2),
            ]
            .into_iter()
            .chain(months)
            .chain(years)
            .collect(),
        }
    }

    /// The times a step puts ticks at within the data's range; None when
    /// there would be more than `MAX_TICKS`.
    fn tick_times(&self, step: Step) -> Option<Vec<i64>> {
        let (lo, hi) = (self.times[0], self.times[self.times.len() - 1]);
        match (self.unit, step) {
            (_, Step::Units(k)) => multiples(lo, hi, k, 0),
            // Day 1 of the common era was a Monday.
            (Unit::Day, Step::Weeks(k)) => multiples(lo, hi, 7 * k, 1),
            (Unit::Month, Step::Months(k)) => multiples(lo, hi, k, 0),
            (Unit::Month, Step::Years(k)) => multiples(lo, hi, 12 * k, 0),
            (Unit::Day, Step::Months(k) | Step::Years(k)) => {
                let months = if let Step::Years(_) = step { 12 * k } else { k };
                let (a, b) = (date_of(lo)?, date_of(hi)?);
                let first = i64::from(a.year()) * 12 + i64::from(a.month0());
                let last = i64::from(b.year()) * 12 + i64::from(b.month0());
                let mut out = Vec::new();
                for m in multiples(first, last, months, 0)? {
                    let y = i32::try_from(m.div_euclid(12)).ok()?;
                    let day = day_of(y, u32::try_from(m.rem_euclid(12) + 1).ok()?)?;
                    if (lo..=hi).contains(&day) {
                        out.push(day);
                    }
                }
                Some(out)
            }
            _ => None,
        }
    }

    /// Tick labels at round times within the data's range, as (slot,
    /// label in the table's form; the caller prints it in the chart's
    /// `date_style` and measures `width` on the printed text): the finest regular step whose labels, `width` wide each and
    /// centred on their times, keep `gap` pixels apart with slots of
    /// `slot_px` pixels, with at least two and at most `MAX_TICKS` labels.
    pub fn ticks(&self, slot_px: f32, gap: f32, width: impl Fn(&str) -> f32) -> Vec<(f32, String)> {
        let mut fallback: Option<Vec<(f32, String)>> = None;
        for step in self.steps() {
            let Some(times) = self.tick_times(step) else {
                continue;
            };
            let Some(ticks) = times
                .iter()
                .map(|t| Some((self.slot_at(*t), self.label(*t)?)))
                .collect::<Option<Vec<_>>>()
            else {
                continue;
            };
            let apart = ticks.windows(2).all(|w| {
                let room = (w[1].0 - w[0].0) * slot_px;
                room - (width(&w[0].1) + width(&w[1].1)) / 2.0 >= gap
            });
            if !apart || ticks.is_empty() {
                continue;
            }
            if ticks.len() >= 2 {
                return ticks;
            }
            fallback.get_or_insert(ticks);
        }
        fallback.unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::NumberFormat;

    fn years(ys: &[i32]) -> Column {
        Column {
            name: "Year".into(),
            ctype: ColumnType::Year,
            format: NumberFormat::default(),
            cells: ys.iter().map(|y| Cell::Year(*y)).collect(),
        }
    }

    fn dates(ds: &[&str]) -> Column {
        Column {
            name: "Date".into(),
            ctype: ColumnType::Date,
            format: NumberFormat::default(),
            cells: ds.iter().map(|d| Cell::Date(d.to_string())).collect(),
        }
    }

    /// Roughly DejaVu Sans at 10 px.
    fn width(label: &str) -> f32 {
        label.len() as f32 * 6.4
    }

    #[test]
    fn only_uneven_increasing_times_get_a_time_axis() {
        assert!(TimeAxis::detect(&years(&[2015, 2016, 2017, 2018])).is_none());
        assert!(TimeAxis::detect(&years(&[1950, 1960, 1970])).is_none());
        assert!(TimeAxis::detect(&years(&[1960, 1956, 1951])).is_none());
        assert!(TimeAxis::detect(&years(&[1951, 1951, 1956])).is_none());
        assert!(TimeAxis::detect(&dates(&["2023-01", "2023-02", "2023-03"])).is_none());
        assert!(TimeAxis::detect(&dates(&["2023-01", "2023-02-01", "2023-05"])).is_none());
        let axis = TimeAxis::detect(&years(&[1951, 1956, 1957, 1960])).unwrap();
        // Mean step 3 years: 1956 is 5/3 slots after 1951.
        let slots: Vec<f32> = (0..4).map(|i| axis.slot_of(i)).collect();
        assert_eq!(slots, vec![0.0, 5.0 / 3.0, 2.0, 3.0]);
        assert!(TimeAxis::detect(&dates(&["2023-01", "2023-02", "2023-05"])).is_some());
        assert!(TimeAxis::detect(&dates(&["2009-07-01", "2009-07-02", "2009-07-06"])).is_some());
    }

    #[test]
    fn ticks_are_round_times_that_fit() {
        let axis = TimeAxis::detect(&years(&[1950, 1951, 1956, 1960, 1970, 1990, 2020])).unwrap();
        // 700 px for 7 slots: 100 px per 70/6 years.
        let ticks = axis.ticks(100.0, 10.0, width);
        let labels: Vec<&str> = ticks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(
            labels,
            [
                "1950", "1960", "1970", "1980", "1990", "2000", "2010", "2020"
            ]
        );
        // Narrow: every 20 years.
        let ticks = axis.ticks(25.0, 10.0, width);
        let labels: Vec<&str> = ticks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(labels, ["1960", "1980", "2000", "2020"]);

        let months = TimeAxis::detect(&dates(&[
            "2022-01", "2022-02", "2022-05", "2022-11", "2023-06", "2024-03",
        ]))
        .unwrap();
        let labels: Vec<String> = months
            .ticks(120.0, 10.0, width)
            .into_iter()
            .map(|t| t.1)
            .collect();
        assert_eq!(
            labels,
            [
                "2022-01", "2022-04", "2022-07", "2022-10", "2023-01", "2023-04", "2023-07",
                "2023-10", "2024-01"
            ]
        );

        // Trading days over two months: weekly Mondays, then month starts.
        let days = TimeAxis::detect(&dates(&[
            "2009-06-01",
            "2009-06-02",
            "2009-06-05",
            "2009-06-22",
            "2009-07-15",
            "2009-07-31",
        ]))
        .unwrap();
        let labels: Vec<String> = days
            .ticks(140.0, 10.0, width)
            .into_iter()
            .map(|t| t.1)
            .collect();
        assert_eq!(
            labels,
            [
                "2009-06-01",
                "2009-06-08",
                "2009-06-15",
                "2009-06-22",
                "2009-06-29",
                "2009-07-06",
                "2009-07-13",
                "2009-07-20",
                "2009-07-27"
            ]
        );
        let labels: Vec<String> = days
            .ticks(40.0, 10.0, width)
            .into_iter()
            .map(|t| t.1)
            .collect();
        assert_eq!(labels, ["2009-06-01", "2009-07-01"]);
    }
}
