//! How the measure of one series, and of one cell, is said: "the body mass
//! for Adelie females", "the number of females aged 0-4", "the unemployment
//! rate for Manufacturing in 2010". Column labels pasted in one fixed order
//! ("the number of people for Female in 0-4", "the rate for 2010 in
//! Manufacturing") read as forms to outside readers.

use super::slots::{Slots, awkward_kind};

/// "{measure} for {series}", or the people counted when the series names a
/// group of them ("number of females").
pub const MEASURE_FOR: &str = "measure_for";
/// A value question's whole cell: "body mass for Adelie females".
pub const MEASURED_CELL: &str = "measured_cell";

/// Measures that count the people a group names: "the number of people for
/// Female" is "the number of females".
const PEOPLE_MEASURES: [&str; 6] = [
    "number of people",
    "people",
    "population",
    "number of persons",
    "persons",
    "number of individuals",
];

/// Category nouns a group is "in" ("females in Chile", "in 1659"); a group
/// of another kind is qualified by the name ("Adelie females").
pub const PLACE_NOUNS: [&str; 17] = [
    "country",
    "state",
    "city",
    "region",
    "province",
    "county",
    "island",
    "district",
    "area",
    "town",
    "territory",
    "nation",
    "continent",
    "municipality",
    "borough",
    "canton",
    "location",
];

/// A legend entry naming people by sex, as people say it: "Female" →
/// "females", "Rural Male" → "rural males", "Women" → "women".
pub fn people_group(name: &str) -> Option<String> {
    let words: Vec<&str> = name.split_whitespace().collect();
    let (last, before) = words.split_last()?;
    // "Rural Female" but not "Isle of Man".
    if words.len() > 2 || !words.iter().all(|w| w.chars().all(char::is_alphabetic)) {
        return None;
    }
    let plural = match last.to_lowercase().as_str() {
        "female" | "females" => "females",
        "male" | "males" => "males",
        "woman" | "women" => "women",
        "man" | "men" => "men",
        "boy" | "boys" => "boys",
        "girl" | "girls" => "girls",
        _ => return None,
    };
    let mut out: Vec<String> = before.iter().map(|w| w.to_lowercase()).collect();
    out.push(plural.into());
    Some(out.join(" "))
}

/// The derived slots in one fixed order.
pub fn phrase_plainly(slots: &mut Slots) {
    phrase_in_order(slots, "in_cat");
}

/// The derived slots for names replaced by visual references: a bar is
/// "in" the third year or country but "for" the leftmost sales
/// representative (`cat_prep`).
pub fn phrase_referred(slots: &mut Slots) {
    phrase_in_order(slots, "cat_prep");
}

fn phrase_in_order(slots: &mut Slots, prep: &str) {
    let (Some(measure), Some(series)) = (slots.get("measure"), slots.get("series")) else {
        return;
    };
    let measure_for = format!("{measure} for {series}");
    let cell = match (slots.get(prep), slots.get("category")) {
        (Some(prep), Some(category)) => format!("{measure_for} {prep} {category}"),
        _ => measure_for.clone(),
    };
    slots.insert(MEASURE_FOR.into(), measure_for);
    slots.insert(MEASURED_CELL.into(), cell);
}

/// Fills the derived slots for the series `asked` (its name as the question
/// speaks it before wrapping) after the names were wrapped; a series naming
/// people by sex is said as people say it.
pub fn phrase(slots: &mut Slots, asked: &str, key: &str) {
    let Some(measure) = slots.get("measure").cloned() else {
        return;
    };
    let group = people_group(asked);
    if let Some(g) = &group {
        slots.insert("series".into(), g.clone());
    }
    phrase_plainly(slots);
    let Some(series) = slots.get("series").cloned() else {
        return;
    };
    let people = group.is_some() && PEOPLE_MEASURES.contains(&measure.as_str());
    // "the number of drug offences", not "the number of offences for drug
    // offences": a series naming a kind of the things counted.
    let kind_counted = measure
        .strip_prefix("number of ")
        .is_some_and(|noun| series.to_lowercase().ends_with(&format!(" {noun}")));
    // "total employment in 1949", not "the value for total employment in
    // 1949": a series named by a total is its own measure.
    let own_measure =
        measure == "value" && series.to_lowercase().starts_with("total ") && key != "sum";
    let measure_for = if people || kind_counted {
        format!("number of {series}")
    } else if own_measure {
        series.clone()
    } else {
        format!("{measure} for {series}")
    };
    slots.insert(MEASURE_FOR.into(), measure_for.clone());
    let ages = slots.get("cat_noun").is_some_and(|n| n.contains("age"));
    if group.is_some() && ages {
        // "the average death rate for rural females aged 65-69 and 70-74".
        if let Some(scope) = slots.get("scope_in").and_then(|s| s.strip_prefix(" in ")) {
            let aged = format!(" aged {scope}");
            slots.insert("scope_in".into(), aged);
        }
    }
    if key != "value_at" {
        return;
    }
    let get = |k: &str| slots.get(k).cloned().unwrap_or_default();
    let (category, in_cat, cat_prep, cat_noun) = (
        get("category"),
        get("in_cat"),
        get("cat_prep"),
        get("cat_noun"),
    );
    if category.is_empty() {
        return;
    }
    // "in 2019", "on 2009-07-29": a category named by a period.
    // A year held as a number ("1637") is a period too.
    let place = PLACE_NOUNS.contains(&cat_noun.as_str());
    let temporal =
        (cat_prep != "for" && !place) || matches!(awkward_kind(&category), Some("year" | "date"));
    let age_band = awkward_kind(&category) == Some("range") && cat_noun.contains("age");
    let cell = match awkward_kind(asked) {
        // A year is said last, as a time: "for Manufacturing in 2010".
        Some(kind @ ("year" | "date")) if !temporal => {
            let day = kind == "date" && asked.split('-').count() == 3;
            let prep = if day { "on" } else { "in" };
            format!("{measure} for {category} {prep} {asked}")
        }
        _ if age_band && group.is_some() => format!("{measure_for} aged {category}"),
        _ if age_band => format!("{measure_for} in the {category} age group"),
        // "the body mass for Adelie females", "the number of Adelie females".
        _ if group.is_some()
            && !temporal
            && !place
            && !category.starts_with("the ")
            && category.split_whitespace().count() <= 2 =>
        {
            if people {
                format!("number of {category} {series}")
            } else {
                format!("{measure} for {category} {series}")
            }
        }
        _ => format!("{measure_for} {in_cat} {category}"),
    };
    slots.insert(MEASURED_CELL.into(), cell);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slots(pairs: &[(&str, &str)]) -> Slots {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn cell(pairs: &[(&str, &str)], asked: &str) -> String {
        let mut s = slots(pairs);
        phrase(&mut s, asked, "value_at");
        s[MEASURED_CELL].clone()
    }

    #[test]
    fn people_named_by_sex_are_said_as_people_say_them() {
        assert_eq!(people_group("Female").as_deref(), Some("females"));
        assert_eq!(people_group("Rural Male").as_deref(), Some("rural males"));
        assert_eq!(people_group("women").as_deref(), Some("women"));
        assert_eq!(people_group("Female share (%)"), None);
        assert_eq!(people_group("Manhattan"), None);
        assert_eq!(people_group("Isle of Man"), None);
    }

    #[test]
    fn an_age_band_is_an_age() {
        let base = [
            ("measure", "number of people"),
            ("series", "Female"),
            ("category", "0-4"),
            ("in_cat", "in"),
            ("cat_prep", "for"),
            ("cat_noun", "age group"),
        ];
        assert_eq!(cell(&base, "Female"), "number of females aged 0-4");
        let mut rate = base;
        rate[0] = ("measure", "death rate");
        rate[1] = ("series", "Rural Female");
        assert_eq!(
            cell(&rate, "Rural Female"),
            "death rate for rural females aged 0-4"
        );
        let mut total = base;
        total[1] = ("series", "Total");
        assert_eq!(
            cell(&total, "Total"),
            "number of people for Total in the 0-4 age group"
        );
    }

    #[test]
    fn a_year_is_said_last() {
        let base = [
            ("measure", "unemployment rate"),
            ("series", "2010"),
            ("category", "Manufacturing"),
            ("in_cat", "in"),
            ("cat_prep", "for"),
            ("cat_noun", "industry"),
        ];
        assert_eq!(
            cell(&base, "2010"),
            "unemployment rate for Manufacturing in 2010"
        );
        // A year on the category axis is already last.
        let mut by_year = base;
        by_year[1] = ("series", "Chile");
        by_year[2] = ("category", "2010");
        by_year[4] = ("cat_prep", "in");
        assert_eq!(
            cell(&by_year, "Chile"),
            "unemployment rate for Chile in 2010"
        );
    }

    #[test]
    fn a_group_of_a_kind_is_qualified_by_it_and_a_place_holds_it() {
        let base = [
            ("measure", "body mass"),
            ("series", "female"),
            ("category", "Adelie"),
            ("in_cat", "in"),
            ("cat_prep", "for"),
            ("cat_noun", "category"),
        ];
        assert_eq!(cell(&base, "female"), "body mass for Adelie females");
        let mut place = base;
        place[5] = ("cat_noun", "country");
        place[2] = ("category", "Chile");
        assert_eq!(cell(&place, "female"), "body mass for females in Chile");
    }

    #[test]
    fn a_series_named_by_a_total_is_its_own_measure() {
        let base = [
            ("measure", "value"),
            ("series", "total employment"),
            ("category", "1949"),
            ("in_cat", "in"),
            ("cat_prep", "in"),
            ("cat_noun", "year"),
        ];
        assert_eq!(cell(&base, "total employment"), "total employment in 1949");
        let mut sum = slots(&base);
        phrase(&mut sum, "total employment", "sum");
        assert_eq!(sum[MEASURE_FOR], "value for total employment");
    }

    #[test]
    fn ages_of_a_group_are_ages_over_a_scope_too() {
        let mut s = slots(&[
            ("measure", "death rate"),
            ("series", "Rural Female"),
            ("cat_noun", "age group"),
            ("scope_in", " in 65-69 and 70-74"),
        ]);
        phrase(&mut s, "Rural Female", "mean");
        assert_eq!(s["scope_in"], " aged 65-69 and 70-74");
    }

    #[test]
    fn other_questions_get_the_measure_of_the_group() {
        let mut s = slots(&[("measure", "number of people"), ("series", "Male")]);
        phrase(&mut s, "Male", "min_value");
        assert_eq!(s[MEASURE_FOR], "number of males");
        assert_eq!(s["series"], "males");
        let mut plain = slots(&[("measure", "GDP"), ("series", "the blue bars")]);
        phrase_plainly(&mut plain);
        assert_eq!(plain[MEASURE_FOR], "GDP for the blue bars");
        let mut kind = slots(&[
            ("measure", "number of offences"),
            ("series", "drug offences"),
        ]);
        phrase(&mut kind, "drug offences", "max_value");
        assert_eq!(kind[MEASURE_FOR], "number of drug offences");
    }
}
