//! Closed intervals of values a reader cannot narrow further, with the
//! arithmetic the data families need.

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub lo: f64,
    pub hi: f64,
}

impl Interval {
    pub fn new(a: f64, b: f64) -> Interval {
        Interval {
            lo: a.min(b),
            hi: a.max(b),
        }
    }

    pub fn around(mid: f64, err: f64) -> Interval {
        Interval::new(mid - err.abs(), mid + err.abs())
    }

    pub fn exact(v: f64) -> Interval {
        Interval { lo: v, hi: v }
    }

    pub fn mid(self) -> f64 {
        (self.lo + self.hi) / 2.0
    }

    pub fn scale(self, k: f64) -> Interval {
        Interval::new(self.lo * k, self.hi * k)
    }

    /// `self / o`; None when `o` may be zero.
    pub fn checked_div(self, o: Interval) -> Option<Interval> {
        if o.lo <= 0.0 && o.hi >= 0.0 {
            return None;
        }
        let c = [
            self.lo / o.lo,
            self.lo / o.hi,
            self.hi / o.lo,
            self.hi / o.hi,
        ];
        Some(Interval::new(
            c.iter().copied().fold(f64::INFINITY, f64::min),
            c.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        ))
    }

    pub fn abs(self) -> Interval {
        if self.lo >= 0.0 {
            self
        } else if self.hi <= 0.0 {
            Interval::new(-self.hi, -self.lo)
        } else {
            Interval::new(0.0, (-self.lo).max(self.hi))
        }
    }

    pub fn max(self, o: Interval) -> Interval {
        Interval::new(self.lo.max(o.lo), self.hi.max(o.hi))
    }

    pub fn min(self, o: Interval) -> Interval {
        Interval::new(self.lo.min(o.lo), self.hi.min(o.hi))
    }

    /// Certainly above `o` (every value of self exceeds every value of o).
    pub fn above(self, o: Interval) -> bool {
        self.lo > o.hi
    }

    pub fn contains(self, v: f64) -> bool {
        self.lo <= v && v <= self.hi
    }

    /// A single number that is within `tolerance` (relative) of every value
    /// in the interval, if there is one: what a reader can state and be right
    /// whatever the true value is.
    pub fn tolerant_point(self, tolerance: f64) -> Option<f64> {
        if self.lo > 0.0 {
            let (a, b) = ((1.0 - tolerance) * self.hi, (1.0 + tolerance) * self.lo);
            (a <= b).then_some((a + b) / 2.0)
        } else if self.hi < 0.0 {
            Interval::new(-self.hi, -self.lo)
                .tolerant_point(tolerance)
                .map(|v| -v)
        } else if self.lo == 0.0 && self.hi == 0.0 {
            Some(0.0)
        } else {
            None
        }
    }
}

impl std::ops::Add for Interval {
    type Output = Interval;
    fn add(self, o: Interval) -> Interval {
        Interval::new(self.lo + o.lo, self.hi + o.hi)
    }
}

impl std::ops::Sub for Interval {
    type Output = Interval;
    fn sub(self, o: Interval) -> Interval {
        Interval::new(self.lo - o.hi, self.hi - o.lo)
    }
}

/// Sum of intervals.
pub fn sum(values: &[Interval]) -> Interval {
    values.iter().fold(Interval::exact(0.0), |acc, v| acc + *v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerant_point_exists_only_for_narrow_intervals() {
        let p = Interval::new(98.0, 102.0).tolerant_point(0.05).unwrap();
        assert!((p - 98.0).abs() <= 0.05 * 98.0 && (p - 102.0).abs() <= 0.05 * 102.0);
        assert!(Interval::new(90.0, 110.0).tolerant_point(0.05).is_none());
        assert!(Interval::new(-1.0, 1.0).tolerant_point(0.05).is_none());
        let n = Interval::new(-102.0, -98.0).tolerant_point(0.05).unwrap();
        assert!(n < 0.0);
    }

    #[test]
    fn arithmetic_widens() {
        let a = Interval::new(9.0, 11.0);
        let b = Interval::new(4.0, 6.0);
        assert_eq!(a - b, Interval::new(3.0, 7.0));
        assert_eq!(a + b, Interval::new(13.0, 17.0));
        let r = a.checked_div(b).unwrap();
        assert!((r.lo - 1.5).abs() < 1e-12 && (r.hi - 2.75).abs() < 1e-12);
        assert!(a.checked_div(Interval::new(-1.0, 1.0)).is_none());
        assert!(a.above(b) && !b.above(a));
    }
}
