//! Measured severity: a modified chart's severity is the band its visual
//! distance from the original (`visual::distance`) falls in, within its axis.
//! The ladder of a perturbation says what it is asked to do (recorded as the
//! `level` parameter); the severity says how different the result looks, so
//! severity 5 of an axis is always its most visibly changed fifth whatever
//! mix of perturbations, kinds and themes produced it.
//!
//! The cut points are the quintiles of each axis's distances on a reference
//! suite (60 synthesized tables, seed 11, every level drawn evenly), written
//! by `scripts/calibrate_severity.py`; the test
//! `synthesized_pairs_are_visible_and_severity_follows_distance` in
//! `tests/integration/pairs.rs` regenerates such a suite and checks that
//! every axis's severities keep splitting it.

/// Per chart axis: the distances at which severities 2, 3, 4 and 5 start.
pub const CUTS: &[(&str, [f64; 4])] = &[
    // BEGIN GENERATED CUTS
    ("axis", [0.0213, 0.1124, 0.1777, 0.2979]),
    ("chart_kind", [0.1759, 0.2266, 0.3172, 0.4507]),
    ("clutter", [0.0173, 0.0529, 0.065, 0.0868]),
    ("dashboard", [0.5914, 0.6727, 0.7297, 0.7987]),
    ("data_labels", [0.0905, 0.1604, 0.1825, 0.2481]),
    ("font", [0.0325, 0.0884, 0.2095, 0.3102]),
    ("image", [0.0142, 0.047, 0.2625, 0.5368]),
    ("legend", [0.0164, 0.2251, 0.3213, 0.4047]),
    ("palette", [0.0298, 0.0699, 0.1003, 0.1353]),
    ("subplots", [0.5298, 0.5995, 0.6518, 0.6942]),
    ("theme", [0.2877, 0.348, 0.4357, 0.5617]),
    // END GENERATED CUTS
];

/// Severity 1..=5 of a change of `distance` on `axis`; `None` for an axis
/// without calibration (question and data axes keep their ladder severity).
pub fn measured_severity(axis: &str, distance: f64) -> Option<u8> {
    let (_, cuts) = CUTS.iter().find(|(a, _)| *a == axis)?;
    let above = cuts.iter().filter(|c| distance >= **c).count();
    Some(1 + above as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_chart_axis_is_calibrated_with_increasing_cuts() {
        for p in super::super::chart_perturbations() {
            let axis = p.info().axis;
            let (_, cuts) = CUTS
                .iter()
                .find(|(a, _)| *a == axis)
                .unwrap_or_else(|| panic!("axis `{axis}` has no severity cuts"));
            assert!(cuts.windows(2).all(|w| w[0] < w[1]), "{axis}: {cuts:?}");
        }
    }

    #[test]
    fn bands_follow_the_distance() {
        let (_, cuts) = CUTS[0];
        assert_eq!(measured_severity(CUTS[0].0, 0.0), Some(1));
        assert_eq!(measured_severity(CUTS[0].0, cuts[0]), Some(2));
        assert_eq!(measured_severity(CUTS[0].0, cuts[3] + 1.0), Some(5));
        assert_eq!(measured_severity("lexical", 0.5), None);
    }
}
