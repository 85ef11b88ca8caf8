//! Slope-chart families: which category rises (or falls) the most between
//! the chart's two columns. A slope chart draws each category as a segment
//! from its left value to its right one; its steepest rise and fall are what
//! the figure is drawn to show.

use super::{MIN_REL_GAP, Refusal, RefusalKind};

/// Family name of a rise (true) or fall (false) question.
pub fn family(rise: bool) -> &'static str {
    if rise { "largest_rise" } else { "largest_fall" }
}

/// Row whose change from `from` to `to` is the largest rise (or fall).
/// Refuses unequal columns, fewer than two rows, a near tie between the two
/// largest changes, and a "rise" no row makes (every change a fall).
pub(crate) fn largest_change(from: &[f64], to: &[f64], rise: bool) -> Result<usize, Refusal> {
    if from.len() != to.len() || from.len() < 2 {
        return Err(Refusal::new(
            RefusalKind::Unsupported,
            "needs two columns over at least two categories",
        ));
    }
    let signed = |i: usize| {
        let change = to[i] - from[i];
        if rise { change } else { -change }
    };
    let mut order: Vec<usize> = (0..from.len()).collect();
    order.sort_by(|a, b| signed(*b).total_cmp(&signed(*a)));
    let (first, second) = (order[0], order[1]);
    if signed(first) <= 0.0 {
        return Err(Refusal::new(
            RefusalKind::Unsupported,
            "no category changes that way",
        ));
    }
    // Ties are judged on the scale of the values, as a reader compares the
    // segments' ends, not on the (possibly tiny) changes alone.
    let scale = from
        .iter()
        .chain(to)
        .fold(0f64, |m, v| m.max(v.abs()))
        .max(1e-12);
    if (signed(first) - signed(second)).abs() < MIN_REL_GAP * scale {
        return Err(Refusal::new(
            RefusalKind::Tie,
            "near tie for the largest change",
        ));
    }
    Ok(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rises_and_falls() {
        let from = [10.0, 20.0, 30.0, 40.0];
        let to = [15.0, 35.0, 25.0, 20.0];
        assert_eq!(largest_change(&from, &to, true).unwrap(), 1);
        assert_eq!(largest_change(&from, &to, false).unwrap(), 3);
        // Nothing falls: no answer to "which falls the most".
        assert!(largest_change(&[1.0, 2.0], &[3.0, 5.0], false).is_err());
        // Two rises within reading precision of each other.
        assert_eq!(
            largest_change(&[10.0, 10.0], &[20.0, 20.1], true)
                .unwrap_err()
                .kind,
            RefusalKind::Tie
        );
        assert!(largest_change(&[1.0], &[2.0], true).is_err());
    }
}
