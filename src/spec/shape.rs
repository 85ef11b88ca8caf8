//! Which tables suit the diverging bar, dumbbell, slope and radar kinds, and
//! which series each draws.

use super::{is_commensurable, is_ordered_index, numeric_series};
use crate::ir::{ChartKind, ColumnType, Table};

/// Most categories a diverging bar chart or a dumbbell draws: one row each,
/// and past this the rows are too thin for their labels.
pub const ROWS_MAX: usize = 20;
/// Most categories a slope chart draws: each is named at both ends of its
/// line, and more names than this crowd the two axes.
pub const SLOPE_MAX: usize = 8;
/// A radar chart's spokes: fewer is a triangle no one reads as a profile,
/// more crowd the labels (and ten products round a circle are no profile).
pub const RADAR_SPOKES: std::ops::RangeInclusive<usize> = 5..=8;
/// A radar chart's polygons: more than three hide each other.
pub const RADAR_SERIES_MAX: usize = 3;

/// Most times the longest spoke may exceed the median one.
pub const RADAR_SPREAD_MAX: f64 = 20.0;

/// Words that name one of two moments or conditions of one measure.
const MOMENTS: [&str; 14] = [
    "before", "after", "pre", "post", "start", "end", "then", "now", "initial", "final",
    "baseline", "follow", "old", "new",
];

/// Whether two series are one measure at two times or conditions: both
/// named by years or dates, both carrying a year, or named as a before and
/// an after. Bill length and bill depth are two measures, not two moments:
/// a line from one to the other means nothing.
fn two_moments(a: &str, b: &str) -> bool {
    let timed = |s: &str| {
        crate::table::infer::parse_year(s.trim()).is_some()
            || crate::table::infer::parse_date(s.trim()).is_some()
            || s.split(|c: char| !c.is_ascii_digit())
                .any(|w| w.len() == 4 && matches!(&w[..2], "18" | "19" | "20"))
    };
    let moment = |s: &str| {
        s.to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| MOMENTS.contains(&w))
    };
    (timed(a) && timed(b)) || (moment(a) && moment(b))
}

/// Index names whose rows are things compared side by side (places,
/// organisations, people), not aspects of one profile: countries round a
/// circle are a bar chart's job.
const ENTITY_WORDS: [&str; 25] = [
    "country",
    "countries",
    "nation",
    "city",
    "cities",
    "state",
    "states",
    "province",
    "region",
    "regions",
    "county",
    "district",
    "island",
    "municipality",
    "company",
    "companies",
    "firm",
    "brand",
    "team",
    "player",
    "school",
    "university",
    "airport",
    "industry",
    "sector",
];

/// Whether a radar's spokes are aspects of one profile: the index does not
/// name places or organisations, the labels are not real places, firms or
/// people, and they are not value ranges ("0-15", "<10000", "65 and over"),
/// which are a histogram's bins.
fn spokes_are_aspects(table: &Table) -> bool {
    let index = table.index.name.to_lowercase();
    if super::has_phrase(&index, &ENTITY_WORDS) {
        return false;
    }
    let labels = table.category_labels();
    let known = labels
        .iter()
        .filter(|l| crate::synth::real_names::is_known(l))
        .count();
    let ranges = labels
        .iter()
        .filter(|l| {
            l.trim_start()
                .starts_with(|c: char| c.is_ascii_digit() || "<>≤≥".contains(c))
        })
        .count();
    known * 2 < labels.len() && ranges * 2 < labels.len()
}

pub(super) fn complete(table: &Table, name: &str) -> Option<Vec<f64>> {
    table
        .series(name)?
        .cells
        .iter()
        .map(|c| c.as_f64().filter(|v| v.is_finite()))
        .collect()
}

/// The series a kind of this module draws from `table`, or why it cannot.
pub fn series_for(table: &Table, kind: ChartKind) -> Result<Vec<String>, String> {
    let numeric = numeric_series(table);
    let n = table.n_rows();
    let first = *numeric.first().ok_or("no numeric series")?;
    match kind {
        ChartKind::DivergingBar => {
            let values = complete(table, first).ok_or("the series has missing values")?;
            if !(2..=ROWS_MAX).contains(&n) {
                return Err(format!("needs 2 to {ROWS_MAX} categories"));
            }
            // Bars on one side only are a plain bar chart.
            if !(values.iter().any(|v| *v < 0.0) && values.iter().any(|v| *v > 0.0)) {
                return Err("needs values on both sides of zero".into());
            }
            Ok(vec![first.to_string()])
        }
        ChartKind::Dumbbell | ChartKind::Slope => {
            let max = if kind == ChartKind::Slope {
                SLOPE_MAX
            } else {
                ROWS_MAX
            };
            if numeric.len() != 2 || !is_commensurable(table, &numeric) {
                return Err("needs exactly two series on one scale".into());
            }
            if numeric.iter().any(|s| complete(table, s).is_none()) {
                return Err("every category needs both values".into());
            }
            if !(2..=max).contains(&n) || is_ordered_index(table) {
                return Err(format!("needs 2 to {max} named categories"));
            }
            if kind == ChartKind::Slope && !two_moments(numeric[0], numeric[1]) {
                return Err(
                    "a slope joins one measure at two times or conditions (2010 and 2020, before and after)"
                        .into(),
                );
            }
            Ok(numeric.iter().map(|s| s.to_string()).collect())
        }
        ChartKind::Radar => {
            if !RADAR_SPOKES.contains(&n) || table.index.ctype != ColumnType::Text {
                return Err("needs 5 to 8 named categories".into());
            }
            if !spokes_are_aspects(table) {
                return Err(
                    "spokes are aspects of one profile (departments, skills, months), not places, firms or bins"
                        .into(),
                );
            }
            if numeric.len() > RADAR_SERIES_MAX
                || (numeric.len() > 1 && !is_commensurable(table, &numeric))
            {
                return Err(format!("needs 1 to {RADAR_SERIES_MAX} series on one scale"));
            }
            // Values grow from the centre: negative ones have no place.
            for s in &numeric {
                let values = complete(table, s).ok_or("a series has missing values")?;
                if values.iter().any(|v| *v < 0.0) || !values.iter().any(|v| *v > 0.0) {
                    return Err("needs non-negative values, some above zero".into());
                }
                // A profile compares spokes on one scale: where one spoke
                // dwarfs most others (exchange rates of many currencies)
                // the rest collapse into the centre.
                let mut sorted = values.clone();
                sorted.sort_by(f64::total_cmp);
                let max = sorted[sorted.len() - 1];
                if sorted[sorted.len() / 2] * RADAR_SPREAD_MAX < max {
                    return Err(format!(
                        "most spokes are under 1/{RADAR_SPREAD_MAX} of the longest"
                    ));
                }
            }
            Ok(numeric.iter().map(|s| s.to_string()).collect())
        }
        _ => Err(format!("{} is not drawn here", kind.name())),
    }
}

/// The kinds of this module that suit `table`, in the order offered.
pub fn suitable(table: &Table) -> Vec<ChartKind> {
    [
        ChartKind::DivergingBar,
        ChartKind::Dumbbell,
        ChartKind::Slope,
        ChartKind::Radar,
    ]
    .into_iter()
    .filter(|k| series_for(table, *k).is_ok())
    .collect()
}
