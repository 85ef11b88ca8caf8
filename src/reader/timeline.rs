//! Time axes: a careful reader places a year, month or day that has no
//! printed label between the printed ones (the axis is a time line), and
//! names an unlabelled point by the time at its position.

use chrono::{Datelike, NaiveDate};

/// How labels on a time axis are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    /// `1980`
    Year,
    /// `1961-02`
    Month,
    /// `1854-12-01`
    Day,
}

/// A label as a count of its unit (years, months since year 0, days).
pub fn parse_time(label: &str) -> Option<(TimeUnit, i64)> {
    let t = label.trim();
    if !t.is_ascii() {
        return None;
    }
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match t.len() {
        4 if digits(t) => {
            let y: i64 = t.parse().ok()?;
            (1000..=2200).contains(&y).then_some((TimeUnit::Year, y))
        }
        7 if digits(&t[..4]) && &t[4..5] == "-" && digits(&t[5..]) => {
            let y: i64 = t[..4].parse().ok()?;
            let m: i64 = t[5..].parse().ok()?;
            (1..=12)
                .contains(&m)
                .then_some((TimeUnit::Month, y * 12 + m - 1))
        }
        10 => {
            let d = NaiveDate::parse_from_str(t, "%Y-%m-%d").ok()?;
            Some((TimeUnit::Day, i64::from(d.num_days_from_ce())))
        }
        _ => None,
    }
}

pub fn format_time(unit: TimeUnit, t: i64) -> Option<String> {
    Some(match unit {
        TimeUnit::Year => format!("{t:04}"),
        TimeUnit::Month => format!("{:04}-{:02}", t.div_euclid(12), t.rem_euclid(12) + 1),
        TimeUnit::Day => NaiveDate::from_num_days_from_ce_opt(i32::try_from(t).ok()?)?
            .format("%Y-%m-%d")
            .to_string(),
    })
}

/// Printed time labels at their pixel positions along the category axis.
#[derive(Debug, Clone)]
pub struct Timeline {
    unit: TimeUnit,
    /// (pixel, time) in increasing pixel order, at least two.
    points: Vec<(f64, f64)>,
}

impl Timeline {
    /// From printed labels; None unless at least two parse, all in one unit.
    pub fn new(labels: &[(f64, &str)]) -> Option<Timeline> {
        let parsed: Vec<(f64, TimeUnit, i64)> = labels
            .iter()
            .map(|(px, l)| parse_time(l).map(|(u, t)| (*px, u, t)))
            .collect::<Option<_>>()?;
        let unit = parsed.first()?.1;
        if parsed.len() < 2 || parsed.iter().any(|p| p.1 != unit) {
            return None;
        }
        let mut points: Vec<(f64, f64)> = parsed.iter().map(|p| (p.0, p.2 as f64)).collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        let monotone = points
            .windows(2)
            .all(|w| w[1].1 > w[0].1 && w[1].0 > w[0].0);
        // Labels evenly spaced in pixels but not in time (trading days,
        // irregular years) mark a category axis: nothing to interpolate.
        let rates: Vec<f64> = points
            .windows(2)
            .map(|w| (w[1].1 - w[0].1) / (w[1].0 - w[0].0))
            .collect();
        let (lo, hi) = rates
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), r| {
                (a.min(*r), b.max(*r))
            });
        (monotone && hi <= lo * 1.02).then_some(Timeline { unit, points })
    }

    fn interpolate(points: &[(f64, f64)], x: f64) -> f64 {
        let n = points.len();
        let i = points.windows(2).position(|w| x <= w[1].0).unwrap_or(n - 2);
        let (x0, y0) = points[i];
        let (x1, y1) = points[i + 1];
        y0 + (x - x0) / (x1 - x0) * (y1 - y0)
    }

    /// The time at a pixel, as a fractional count of the unit.
    pub fn time_at(&self, px: f64) -> f64 {
        Timeline::interpolate(&self.points, px)
    }

    /// Where a labelled time falls, in pixels; None for another unit.
    pub fn pixel_of(&self, label: &str) -> Option<f64> {
        let (unit, t) = parse_time(label)?;
        if unit != self.unit {
            return None;
        }
        let swapped: Vec<(f64, f64)> = self.points.iter().map(|(p, t)| (*t, *p)).collect();
        Some(Timeline::interpolate(&swapped, t as f64))
    }

    /// The label of the time at a pixel, printed as the axis prints it.
    pub fn label_at(&self, px: f64) -> Option<String> {
        format_time(self.unit, self.time_at(px).round() as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_round_trip() {
        for l in ["1980", "1961-02", "1854-12-01", "2024-01"] {
            let (u, t) = parse_time(l).unwrap();
            assert_eq!(format_time(u, t).unwrap(), l);
        }
        assert!(parse_time("France").is_none());
        assert!(parse_time("1961-13").is_none());
        assert!(parse_time("18–29").is_none());
        assert!(parse_time("é1980").is_none());
    }

    #[test]
    fn places_unlabelled_times_between_printed_ones() {
        let line = Timeline::new(&[(100.0, "1970"), (200.0, "1980"), (300.0, "1990")]).unwrap();
        assert_eq!(line.pixel_of("1985"), Some(250.0));
        assert_eq!(line.label_at(262.0).as_deref(), Some("1986"));
        assert!(line.pixel_of("1985-01").is_none());
        let months = Timeline::new(&[(0.0, "2020-01"), (120.0, "2021-01")]).unwrap();
        assert_eq!(months.label_at(60.0).as_deref(), Some("2020-07"));
        // Trading days: labels evenly spaced on screen, unevenly in time.
        assert!(
            Timeline::new(&[
                (0.0, "2009-07-01"),
                (50.0, "2009-07-09"),
                (100.0, "2009-07-14")
            ])
            .is_none()
        );
    }
}
