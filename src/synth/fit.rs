//! Keeping synthesized values plausible: inside their measure's scale,
//! fitted to the size of a named place, and without implausible jumps
//! from one period to the next.

use super::SynthRng;
use super::measures::Fits;
use super::names::Entity;
use super::real_names::{self, income_thousands, population_millions};
use rand::RngExt;

/// Where a real country or city stands between the smallest and the
/// largest of its kind (0 to 1, on a log scale of population); `None`
/// for invented places, whose size is anything.
pub fn size_position(entity: Entity, label: &str) -> Option<f64> {
    let (smallest, largest) = match entity {
        Entity::Country => (0.3, 1500.0),
        Entity::City => (0.2, 40.0),
        _ => return None,
    };
    let pop = population_millions(label)?;
    Some(((pop / smallest).ln() / (largest / smallest).ln()).clamp(0.0, 1.0))
}

/// Where a real country or city stands among the poorest and the richest
/// (0 to 1, on a log scale of income per person).
pub fn income_position(entity: Entity, label: &str) -> Option<f64> {
    if !matches!(entity, Entity::Country | Entity::City) {
        return None;
    }
    let income = income_thousands(label)?;
    Some((income.ln() / 110f64.ln()).clamp(0.0, 1.0))
}

/// Where a place stands on what a measure follows (`None`: anywhere).
pub fn position(entity: Entity, label: &str, fits: Fits) -> Option<f64> {
    match fits {
        Fits::Size => size_position(entity, label),
        Fits::Income => income_position(entity, label),
        Fits::Any | Fits::Own => None,
    }
}

/// A real place's own figure for a measure, as a year's value varies
/// around it: a country's population, a city's January temperature or
/// rainfall.
pub fn own_value(rng: &mut SynthRng, measure: &str, place: &str) -> Option<f64> {
    match measure {
        "Population" => Some(population_millions(place)? * 1e6 * rng.random_range(0.97..1.03)),
        "January temperature" => {
            Some(real_names::city(place)?.january + rng.random_range(-1.5..1.5))
        }
        "Annual rainfall" => Some(real_names::city(place)?.rainfall * rng.random_range(0.8..1.2)),
        _ => None,
    }
}

/// A value in `lo..hi` (both above zero) placed on a log scale by the
/// place's size, with some spread: large places get large values.
pub fn sized_draw(rng: &mut SynthRng, lo: f64, hi: f64, position: Option<f64>) -> f64 {
    let Some(q) = position else {
        return rng.random_range(lo..hi);
    };
    let q = (q + rng.random_range(-0.12..0.12)).clamp(0.0, 1.0);
    (lo.ln() + q * (hi.ln() - lo.ln())).exp()
}

/// A value brought back inside `scale`.
pub fn within(value: f64, scale: (f64, f64)) -> f64 {
    value.clamp(scale.0, scale.1)
}

/// Each value at most `yearly` away from the one before (relative to it on
/// a scale above zero, absolute otherwise), then inside `scale`: a series
/// moves as the measure can, whatever its trend, noise or spike did.
pub fn bounded_steps(values: &mut [f64], yearly: f64, scale: (f64, f64)) {
    let mut previous: Option<f64> = None;
    for v in values.iter_mut() {
        match previous {
            Some(p) if scale.0 < 0.0 => *v = v.clamp(p - yearly, p + yearly),
            Some(p) if p > 0.0 => *v = v.clamp(p / (1.0 + yearly), p * (1.0 + yearly)),
            _ => {}
        }
        *v = within(*v, scale);
        previous = Some(*v);
    }
}

/// A growth rate that keeps `start` compounded over `steps` steps (with
/// `headroom` for noise and seasons) inside `scale`.
pub fn growth_within(
    growth: f64,
    start: f64,
    steps: usize,
    headroom: f64,
    scale: (f64, f64),
) -> f64 {
    if start <= 0.0 || steps < 2 {
        return growth;
    }
    let n = (steps - 1) as f64;
    let most = (scale.1 / (start * headroom)).powf(1.0 / n) - 1.0;
    let least = if scale.0 > 0.0 {
        (scale.0 * headroom / start).powf(1.0 / n) - 1.0
    } else {
        -1.0
    };
    growth.min(most).max(least.min(most))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_bounded_and_inside_the_scale() {
        let mut v = vec![10.0, 40.0, 10.0, -5.0, 1000.0];
        bounded_steps(&mut v, 0.5, (0.0, 100.0));
        for w in v.windows(2) {
            assert!(
                w[1] <= w[0] * 1.5 + 1e-9 && w[1] >= w[0] / 1.5 - 1e-9,
                "{v:?}"
            );
        }
        let mut t = vec![0.0, 2.0, -2.0];
        bounded_steps(&mut t, 0.5, (-1.0, 3.0));
        assert_eq!(t, vec![0.0, 0.5, 0.0]);
    }

    #[test]
    fn larger_places_draw_larger_values() {
        let mut rng = crate::seed::rng(1, &["fit"]);
        let small = size_position(Entity::Country, "Iceland");
        let large = size_position(Entity::Country, "India");
        assert!(small < large);
        for _ in 0..50 {
            let s = sized_draw(&mut rng, 1.0, 1000.0, small);
            let l = sized_draw(&mut rng, 1.0, 1000.0, large);
            assert!(s < l, "{s} {l}");
        }
        assert_eq!(size_position(Entity::Country, "Velavia"), None);
    }

    #[test]
    fn growth_stays_under_the_ceiling() {
        let g = growth_within(0.35, 40.0, 16, 1.1, (0.0, 700.0));
        assert!(40.0 * (1.0 + g).powi(15) * 1.1 <= 700.0 + 1e-6);
        assert_eq!(growth_within(0.05, 40.0, 16, 1.1, (0.0, 700.0)), 0.05);
    }
}
