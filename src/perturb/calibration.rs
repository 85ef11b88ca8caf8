//! Measured severity: a modified chart's severity is the band its visual
//! distance from the original (`visual::distance`) falls in, within its axis.
//! The ladder of a perturbation says what it is asked to do (recorded as the
//! `level` parameter); the severity says how different the result looks, so
//! severity 5 of an axis is always its most visibly changed fifth whatever
//! mix of perturbations, kinds and themes produced it.
//!
//! The cut points are the quintiles of each axis's distances on a reference
//! suite (60 synthesized tables, seed 11, every level drawn evenly), written
//! by `scripts/calibrate_severity.py`; the test `tests/severity.rs`
//! regenerates such a suite and checks that every axis's severities keep
//! splitting it.

/// Per chart axis: the distances at which severities 2, 3, 4 and 5 start.
pub const CUTS: &[(&str, [f64; 4])] = &[
    // BEGIN GENERATED CUTS
    ("axis", [0.052, 0.1188, 0.1932, 0.275]),
    ("chart_kind", [0.1583, 0.23, 0.3257, 0.4599]),
    ("clutter", [0.028, 0.0546, 0.0663, 0.0885]),
    ("dashboard", [0.5909, 0.6781, 0.7433, 0.8034]),
    ("data_labels", [0.0944, 0.1636, 0.1848, 0.2447]),
    ("font", [0.0277, 0.074, 0.2059, 0.3085]),
    ("image", [0.0156, 0.0421, 0.215, 0.4804]),
    ("legend", [0.0303, 0.2086, 0.3174, 0.4121]),
    ("palette", [0.029, 0.0624, 0.1077, 0.1489]),
    ("subplots", [0.5891, 0.6571, 0.7022, 0.7359]),
    ("theme", [0.3285, 0.4139, 0.4823, 0.9183]),
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
