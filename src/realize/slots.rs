//! Slot values of a query: entity names, numbers and phrases the templates fill in.

use std::collections::BTreeMap;

use crate::ir::decimal::shown_decimals;
use crate::ir::query::{AggregateOp, Query};
use crate::ir::{ChartSpec, ColumnType, NumberFormat, PanelSpec};
use crate::query::display_number;

pub type Slots = BTreeMap<String, String>;

/// Singular and plural noun for the index ("year"/"years", "country"/"countries").
pub fn category_nouns(panel: &PanelSpec) -> (String, String) {
    let table = &panel.table;
    let singular = match table.index.ctype {
        ColumnType::Year => "year".to_string(),
        // Months printed as quarters (`Q1 2023`) are asked about as quarters.
        ColumnType::Date if crate::spec::dates::IndexDates::of_panel(panel).prints_quarters() => {
            "quarter".to_string()
        }
        // "In which month did … increase the most?", not "In which date".
        ColumnType::Date if table.category_labels().iter().all(|c| is_month(c)) => {
            "month".to_string()
        }
        ColumnType::Date => "date".to_string(),
        _ => {
            let name = table.index.name.trim().to_lowercase();
            let words: Vec<&str> = name.split_whitespace().collect();
            if !words.is_empty()
                && words.len() <= 2
                && name.chars().all(|c| c.is_alphabetic() || c == ' ')
                && !name.ends_with('s')
            {
                name
            } else {
                "category".to_string()
            }
        }
    };
    let plural = plural(&singular);
    (singular, plural)
}

/// "2023-11": a month as tables print it.
fn is_month(label: &str) -> bool {
    let b = label.as_bytes();
    b.len() == 7
        && b[4] == b'-'
        && b[..4].iter().chain(&b[5..]).all(u8::is_ascii_digit)
        && matches!(label[5..].parse::<u8>(), Ok(1..=12))
}

pub fn plural(word: &str) -> String {
    let vowel_y = ["ay", "ey", "oy", "uy"].iter().any(|e| word.ends_with(e));
    if word.ends_with('y') && !vowel_y {
        format!("{}ies", &word[..word.len() - 1])
    } else if ["s", "x", "ch", "sh"].iter().any(|e| word.ends_with(e)) {
        format!("{word}es")
    } else {
        format!("{word}s")
    }
}

/// A category as a question names it: a period as the chart prints it, a
/// month held as its first day as the month ("in May 1855"), a place with
/// the article it takes.
pub fn category_as_said(
    panel: &PanelSpec,
    dates: &crate::spec::dates::IndexDates,
    category: &str,
) -> String {
    let printed = dates.print(category);
    let spoken = (printed == category)
        .then(|| crate::spec::dates::month_start_spoken(&panel.table, category))
        .flatten();
    with_article(&spoken.unwrap_or(printed))
}

/// The table's name of the category a question calls `said`, if the panel has it.
pub fn category_named(panel: &PanelSpec, said: &str) -> Option<String> {
    let dates = crate::spec::dates::IndexDates::of_panel(panel);
    panel
        .table
        .category_labels()
        .into_iter()
        .find(|c| c == said || category_as_said(panel, &dates, c) == said)
}

/// The table's name of the drawn series a question calls `spoken`, if any.
pub fn series_named(panel: &PanelSpec, spec: &ChartSpec, spoken: &str) -> Option<String> {
    panel
        .series
        .iter()
        .find(|s| s.as_str() == spoken || spoken_series(panel, spec, s) == spoken)
        .cloned()
}

/// "an obesity rate", "a unit price", "an HIV rate": by the sound the
/// name starts with.
pub fn indefinite_article(name: &str) -> &'static str {
    let lower = name.to_lowercase();
    let first_word = name.split_whitespace().next().unwrap_or("");
    // An acronym is spelt out: "an FDI inflow", "a GDP".
    let acronym = first_word.len() > 1 && first_word.chars().all(|c| c.is_ascii_uppercase());
    let vowel_sound = if acronym {
        first_word.starts_with(['A', 'E', 'F', 'H', 'I', 'L', 'M', 'N', 'O', 'R', 'S', 'X'])
    } else {
        let sounds_like_you = ["uni", "use", "usu", "uti", "eu", "one"]
            .iter()
            .any(|p| lower.starts_with(p));
        lower.starts_with(['a', 'e', 'i', 'o', 'u']) && !sounds_like_you
            || lower.starts_with("hour")
            || lower.starts_with("honest")
    };
    if vowel_sound { "an " } else { "a " }
}

/// "A", "A and B", "A, B and C".
pub fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// "one decimal place", "the nearest whole number".
pub fn decimals_phrase(decimals: u8) -> String {
    match decimals {
        0 => "the nearest whole number".into(),
        1 => "one decimal place".into(),
        2 => "two decimal places".into(),
        3 => "three decimal places".into(),
        4 => "four decimal places".into(),
        5 => "five decimal places".into(),
        6 => "six decimal places".into(),
        n => format!("{n} decimal places"),
    }
}

/// The series' number format; a series the chart does not show (an
/// unanswerable variant) borrows the first drawn series' format, so its
/// numbers print like the answerable question's and give nothing away.
/// Its decimals are capped as the executor caps them.
pub fn format_of(panel: &PanelSpec, series: &str) -> NumberFormat {
    panel
        .table
        .series(series)
        .or_else(|| panel.series.first().and_then(|s| panel.table.series(s)))
        .map(|c| {
            let mut f = c.format.clone();
            f.decimals = shown_decimals(f.decimals, c.values().into_iter().flatten());
            f
        })
        .unwrap_or_default()
}

/// The template key of a base query, its slots, and whether its measure
/// counts things (a plural such as "visitors", not money or a share).
/// Returns None for wrappers.
pub fn base_slots_counted(query: &Query, spec: &ChartSpec) -> Option<(String, Slots, bool)> {
    let panels = spec.panels();
    let panel = panels
        .get(query.panel())
        .copied()
        .or(panels.first().copied())?;
    let (cat_noun, cat_nouns) = category_nouns(panel);
    // An index titled "Year" holding plain numbers ("1637") is a period too.
    let titled_a_period = ["year", "month", "quarter", "week", "day"].contains(&cat_noun.as_str());
    // A period is named as the chart prints it (`Jan 2023`, not `2023-01`).
    let dates = crate::spec::dates::IndexDates::of_panel(panel);
    let cat = |c: &str| category_as_said(panel, &dates, c);
    let cats = |cs: &[String]| join_and(&cs.iter().map(|c| cat(c)).collect::<Vec<_>>());
    let mut s = Slots::new();
    // "And in 2019?" but "And for Maiya Stark?", "higher for Acme than for …".
    let temporal = titled_a_period
        || matches!(
            panel.table.index.ctype,
            crate::ir::ColumnType::Year | crate::ir::ColumnType::Date
        );
    // "on 2009-07-29" for days, "in 2009" for longer periods.
    let days = temporal && crate::spec::dates::labels_days(&panel.table);
    // A cell "in 2009", "in Chile", "on 2009-07-29".
    let island = cat_noun == "island";
    s.insert(
        "in_cat".into(),
        if days || island { "on" } else { "in" }.into(),
    );
    s.insert(
        "cat_prep".into(),
        match (temporal, days) {
            (true, true) => "on",
            (true, false) => "in",
            // "higher in Kentucky than in Maine", "on Biscoe".
            _ if island => "on",
            _ if super::cell::PLACE_NOUNS.contains(&cat_noun.as_str()) => "in",
            _ => "for",
        }
        .into(),
    );
    s.insert("cat_noun".into(), cat_noun);
    s.insert("cat_nouns".into(), cat_nouns);
    let mut put = |k: &str, v: &str| {
        s.insert(k.into(), v.into());
    };
    let key: String = match query {
        Query::ValueAt {
            series, category, ..
        } => {
            put("series", series);
            put("category", &cat(category));
            // A percent stack draws shares: its value question asks for one.
            if panel.kind == crate::ir::ChartKind::PercentStackedBar {
                "value_at_share".into()
            } else if panel.kind == crate::ir::ChartKind::Waterfall
                && series == crate::spec::waterfall::RUNNING_TOTAL
            {
                // A waterfall's running total is asked as such; after the
                // last step it is the chart's final total.
                let last = panel.table.category_labels().last() == Some(category);
                if last {
                    "final_total".into()
                } else {
                    "running_total_at".into()
                }
            } else if panel.kind == crate::ir::ChartKind::ErrorBar
                && series == crate::spec::error_bar::UPPER
            {
                // An error bar's ends are asked as its bounds.
                "upper_bound_at".into()
            } else if panel.kind == crate::ir::ChartKind::ErrorBar
                && series == crate::spec::error_bar::LOWER
            {
                "lower_bound_at".into()
            } else {
                "value_at".into()
            }
        }
        Query::Argmax { series, .. } | Query::Argmin { series, .. }
            if panel.kind == crate::ir::ChartKind::ErrorBar
                && series.as_deref() == Some(crate::spec::error_bar::WIDTH) =>
        {
            // The interval's width is asked as the widest (narrowest) interval.
            if matches!(query, Query::Argmax { .. }) {
                "widest_interval".into()
            } else {
                "narrowest_interval".into()
            }
        }
        Query::Argmax { series, .. }
        | Query::Argmin { series, .. }
        | Query::MaxValue { series, .. }
        | Query::MinValue { series, .. } => {
            let fam = crate::query::family(query);
            match series {
                Some(x) => {
                    put("series", x);
                    fam.into()
                }
                None => format!("{fam}_all"),
            }
        }
        Query::Difference { a, b, .. }
        | Query::Ratio { a, b, .. }
        | Query::Compare { a, b, .. } => {
            let fam = crate::query::family(query);
            put("a_series", &a.series);
            put("b_series", &b.series);
            put("a_cat", &cat(&a.category));
            put("b_cat", &cat(&b.category));
            if a.series == b.series {
                put("series", &a.series);
                format!("{fam}_categories")
            } else if a.category == b.category {
                put("category", &cat(&a.category));
                format!("{fam}_series")
            } else {
                format!("{fam}_cells")
            }
        }
        Query::PercentChange {
            series, from, to, ..
        } => {
            put("series", series);
            put("from", &cat(from));
            put("to", &cat(to));
            "percent_change".into()
        }
        Query::Aggregate {
            agg,
            series,
            categories,
            ..
        } => {
            put("series", series);
            let scope = if categories.is_empty() {
                String::new()
            } else {
                format!(" for {}", cats(categories))
            };
            put("scope", &scope);
            // "the total for Bangladesh in 2007 and 2010", not "for … for".
            put("scope_in", &scope.replacen(" for ", " in ", 1));
            put("cats", &cats(categories));
            match agg {
                AggregateOp::Sum => "sum",
                AggregateOp::Mean => "mean",
                AggregateOp::Median => "median",
            }
            .into()
        }
        Query::CountThreshold {
            series, threshold, ..
        } => {
            put("series", series);
            let mut f = format_of(panel, series);
            f.thousands |= threshold.abs() >= 10_000.0;
            // As round as it was chosen: "above 65", not "above 65.0000".
            let decimals = decimals_of(*threshold);
            put("threshold", &display_number(*threshold, decimals, &f));
            crate::query::family(query).into()
        }
        Query::Rank {
            series, category, ..
        } => {
            put("series", series);
            put("category", &cat(category));
            "rank".into()
        }
        Query::Trend { series, .. }
        | Query::LargestChange { series, .. }
        | Query::Spread { series, .. } => {
            put("series", series);
            crate::query::family(query).into()
        }
        Query::TopMean { series, k, .. } => {
            put("series", series);
            put("k", &k.to_string());
            "top_mean".into()
        }
        Query::SlopeChange { from, to, .. } => {
            put("series_a", from);
            put("series_b", to);
            crate::query::family(query).into()
        }
        Query::MaxGap { a, b, .. } | Query::Crosses { a, b, .. } => {
            put("series_a", a);
            put("series_b", b);
            crate::query::family(query).into()
        }
        Query::Share {
            series, category, ..
        } => {
            put("series", series);
            put("category", &cat(category));
            "share".into()
        }
        Query::ShareSum {
            series, categories, ..
        } => {
            put("series", series);
            put("cats", &cats(categories));
            "share_sum".into()
        }
        Query::ParagraphValue {
            series, category, ..
        } => {
            put("series", series);
            put("pcat", category);
            "paragraph_value".into()
        }
        Query::ParagraphDifference {
            series,
            paragraph_category,
            category,
            ..
        } => {
            put("series", series);
            put("pcat", paragraph_category);
            put("category", &cat(category));
            "paragraph_difference".into()
        }
        Query::CountAboveReference { series, .. } => {
            put("series", series);
            "count_above_reference".into()
        }
        Query::SeriesAxis { series, .. } => {
            put("series", series);
            "series_axis".into()
        }
        Query::Iqr { group, .. } | Query::OutlierCount { group, .. } => {
            put("category", &cat(group));
            crate::query::family(query).into()
        }
        Query::BinRangeCount { from, to, .. } => {
            put("from", from);
            put("to", to);
            "bin_range_count".into()
        }
        Query::IntervalsOverlap { a, b, .. } => {
            put("a_cat", &cat(a));
            put("b_cat", &cat(b));
            "intervals_overlap".into()
        }
        Query::KpiValue { label } => {
            put("kpi", label);
            "kpi_value".into()
        }
        Query::MultipleChoice { .. }
        | Query::FactCheck { .. }
        | Query::Hypothetical { .. }
        | Query::Conversation { .. } => return None,
        other => crate::query::family(other).into(),
    };
    // A measure that counts things reads "the most visitors"; an amount
    // of money named by a plural ("sales", in $) or a percentage does not.
    let counted = s.get("series").is_some_and(|raw| {
        counts_things(panel, raw, &format_of(panel, raw))
            && reads_plural(&spoken_series(panel, spec, raw))
    });
    for k in SERIES_KEYS {
        if let Some(v) = s.get_mut(k) {
            *v = spoken_series(panel, spec, v);
        }
    }
    agree_with_series(&mut s);
    let mut measure = measure_of(panel);
    // A plural measure that counts things is asked for as a number ("the
    // number of deaths for Disease", not "the deaths for Disease"); one
    // that does not keeps its plural ("What are the sales for Lyon?").
    let measure_format = panel
        .series
        .first()
        .map(|name| format_of(panel, name))
        .unwrap_or_default();
    // "Number of visitors" is singular already.
    // "The average average house price" says the aggregate twice.
    let aggregate_key = matches!(key.as_str(), "sum" | "mean" | "median" | "top_mean");
    // A series named by an aggregate ("Total employment") is the measure
    // itself: "the average value for total employment", not "the average
    // number of people for total employment".
    let series_aggregate = SERIES_KEYS.iter().any(|k| {
        s.get(*k).is_some_and(|n| {
            let n = n.to_lowercase();
            AGGREGATE_WORDS.iter().any(|w| n.starts_with(w))
        })
    });
    if series_aggregate || aggregate_key && AGGREGATE_WORDS.iter().any(|w| measure.starts_with(w)) {
        measure = "value".to_string();
    }
    let plural_measure =
        (reads_plural(&measure) || measure == "people") && !measure.starts_with("number of ");
    let counted_measure = plural_measure && counts_things(panel, "", &measure_format);
    if counted_measure {
        measure = format!("number of {measure}");
    }
    insert_be(&mut s, "be", plural_measure && !counted_measure);
    s.insert("measure".into(), measure);
    super::cell::phrase_plainly(&mut s);
    if key.starts_with("share") {
        // "What percentage of the total is Email?" when the slices are
        // shares already ("percentage of share" says nothing), else "of
        // total revenue".
        let series = s.get("series").cloned().unwrap_or_default();
        let f = s.get("series").map(|_| format_of(panel, &series));
        let percent = f.is_some_and(|f| f.suffix.as_deref().is_some_and(|x| x.contains('%')));
        let shares = ["share", "percentage", "percent", "proportion"];
        let whole = if percent || shares.iter().any(|w| series.eq_ignore_ascii_case(w)) {
            "the total".to_string()
        } else {
            format!("total {series}")
        };
        s.insert("whole".into(), whole);
    }
    // "have a share above 15%", "have sales above $500": one value each.
    let article = match s.get("series") {
        // "have miles per gallon above 24": a rate per unit takes none.
        Some(series)
            if !reads_plural(series) && !mass_noun(series) && !series.contains(" per ") =>
        {
            indefinite_article(series)
        }
        _ => "",
    };
    s.insert("series_article".into(), article.into());
    Some((key, s, counted))
}

/// The template key of a base query and its slots. Returns None for wrappers.
pub fn base_slots(query: &Query, spec: &ChartSpec) -> Option<(String, Slots)> {
    base_slots_counted(query, spec).map(|(k, s, _)| (k, s))
}

/// The name a question gives a series: its own where the chart prints it,
/// else, for the one series of a panel, the value-axis title the chart
/// prints for it ("Sunspot number" for a column named "Sunspot activity"),
/// or on a pie the share its slices print: a person asks about what they
/// see.
pub fn shown_series(panel: &PanelSpec, spec: &ChartSpec, series: &str) -> String {
    if panel.series.len() != 1 || panel.series[0] != series {
        return series.to_string();
    }
    let wanted = series.trim().to_lowercase();
    let printed = [
        panel.title.as_deref(),
        spec.title.as_deref(),
        panel.subtitle_text(),
        panel.x_label.as_deref(),
        panel.y_label.as_deref(),
    ];
    if printed
        .iter()
        .flatten()
        .any(|t| t.to_lowercase().contains(&wanted))
    {
        return series.to_string();
    }
    match panel.value_axis_title().map(without_unit) {
        // "US$ per gallon" names no measure: "the value" is what is seen.
        Some(axis) if names_only_a_unit(axis) => "value".to_string(),
        Some(axis) if !axis.is_empty() => axis.to_string(),
        // Slices print their share of the whole: that is what a pie shows.
        _ if panel.kind.is_circular() => "share".to_string(),
        _ => series.to_string(),
    }
}

/// A series as a question names it: as the chart shows it, with a unit in
/// brackets left to the axis ("Which city has the highest median rent?"
/// for "Median rent (US$ per month)", unless two series differ only by
/// it) and a measure's heading in lower case.
pub fn spoken_series(panel: &PanelSpec, spec: &ChartSpec, series: &str) -> String {
    let mut v = shown_series(panel, spec, series);
    let short = without_unit(&v);
    let same_bare = panel
        .series
        .iter()
        .filter(|n| without_unit(n) == short)
        .count();
    if short.len() < v.len() && same_bare <= 1 {
        v = short.to_string();
    }
    if led_by_a_preposition(&v) {
        // "Below poverty line" is a legend's label, not a noun: asked as
        // "the Below poverty line value", as the key prints it.
        return format!("{v} value");
    }
    common_noun_lowercase(&v).unwrap_or(v)
}

/// A label whose first word places it rather than names it ("Below poverty
/// line", "Over 65 and alone"): no noun phrase after "the".
fn led_by_a_preposition(name: &str) -> bool {
    const PLACING: [&str; 9] = [
        "below", "above", "under", "over", "within", "without", "between", "after", "before",
    ];
    let mut words = name.split_whitespace();
    let first = words.next().unwrap_or("").to_lowercase();
    words.next().is_some() && PLACING.contains(&first.as_str()) && awkward_kind(name).is_none()
}

/// The verbs that agree with the series named first: "Is the share higher
/// …?", "Are the sales higher …?", "Are exports higher than imports …?",
/// "Are the blue bars …".
pub fn agree_with_series(s: &mut Slots) {
    for (name, verb) in [("series", "series_be"), ("a_series", "a_series_be")] {
        let plural = s.get(name).is_some_and(|n| reads_plural(n));
        insert_be(s, verb, plural);
    }
}

/// `key` ("is"/"are" agreeing with a plural or not) and its capitalised
/// twin (`Be` for `be`).
fn insert_be(s: &mut Slots, key: &str, plural: bool) {
    let be = if plural { "are" } else { "is" };
    s.insert(key.into(), be.into());
    s.insert(capitalize(key), capitalize(be));
}

/// Whether values named `name` (with the panel's value-axis title) count
/// things: not money ("Sales (US$ million)"), not a percentage, not a length
/// or a rate ("Inland waterways (km)", "Deaths per 1000"); "Visitors
/// (thousand)" still counts.
fn counts_things(panel: &PanelSpec, name: &str, format: &NumberFormat) -> bool {
    let money_words = [
        "$", "€", "£", "¥", "dollar", "euro", "pound", "usd", "eur", "gbp",
    ];
    let labels = format!("{name} {}", panel.value_axis_title().unwrap_or("")).to_lowercase();
    let money_or_share = format.prefix.is_some()
        || format.suffix.as_deref().is_some_and(|x| x.contains('%'))
        || money_words.iter().any(|w| labels.contains(w));
    const MULTIPLIERS: [&str; 7] = [
        "thousand",
        "thousands",
        "million",
        "millions",
        "billion",
        "billions",
        "number",
    ];
    let measured = labels.contains(" per ")
        || labels.split('(').skip(1).any(|unit| {
            let first = unit.split([' ', ')']).next().unwrap_or("");
            !MULTIPLIERS.contains(&first)
        });
    !money_or_share && !measured
}

/// An axis title that names the unit, not what is measured ("US$ per
/// gallon", "Index points", "Million therms"): "What is the US$ per gallon
/// for 2010?" is not a question.
fn names_only_a_unit(title: &str) -> bool {
    let lower = title.trim().to_lowercase();
    let first = lower.split_whitespace().next().unwrap_or("");
    const LEADS: [&str; 11] = [
        "us$", "$", "€", "£", "¥", "usd", "eur", "thousand", "million", "billion", "percent",
    ];
    LEADS.contains(&first)
        || first.starts_with(['$', '€', '£', '¥'])
        || UNIT_NOUNS.contains(&lower.as_str())
        || UNIT_NOUNS.contains(&first) && lower.split_whitespace().count() <= 2
        || lower.starts_with("index")
}

/// What the value axis measures, as a question names it beside a series
/// named like a group ("the share for Email in Somalia", "the population for
/// 2017"): the axis title without its unit when it reads as a singular
/// common noun phrase of at most four words, else "value".
pub fn measure_of(panel: &PanelSpec) -> String {
    panel
        .value_axis_title()
        .map(without_unit)
        // Some kinds title their category axis here ("Age group").
        .filter(|m| {
            !panel.series.iter().any(|s| s.eq_ignore_ascii_case(m))
                && !panel.table.index.name.trim().eq_ignore_ascii_case(m)
                && !panel
                    .category_axis_title()
                    .is_some_and(|x| without_unit(x).eq_ignore_ascii_case(m))
        })
        .and_then(|m| {
            // An acronym ("GDP") or a phrase led by a month ("January
            // temperature") stays as printed.
            let first = m.split_whitespace().next().unwrap_or("");
            let acronym = first.len() >= 2 && first.chars().all(|c| c.is_ascii_uppercase());
            let calendar = crate::table::infer::month_number(&first.to_lowercase()).is_some();
            if acronym || calendar {
                Some(m.to_string())
            } else {
                common_noun_lowercase(m).or_else(|| counted_axis_noun(m))
            }
        })
        .map(|m| per_head_as_rate(&m).unwrap_or(m))
        .filter(|m| {
            let words: Vec<&str> = m.split_whitespace().collect();
            // "Thousand tonnes", "Million therms" are units, not measures.
            const UNIT_WORDS: [&str; 5] = ["thousand", "million", "billion", "percent", "index"];
            words.len() <= 4
                && !UNIT_WORDS.contains(&words[0].to_lowercase().as_str())
                && !UNIT_NOUNS.contains(&m.to_lowercase().as_str())
                // "Arrests per 100,000".
                && m.chars()
                    .all(|c| c.is_alphanumeric() || c == ' ' || c == '-' || c == ',')
        })
        .unwrap_or_else(|| "value".to_string())
}

/// A place whose name takes "the" in a sentence ("for the United States",
/// "between the Philippines and Bermuda", "the Cook Islands"), with it.
pub fn with_article(name: &str) -> String {
    const PLURAL_OR_TITLED: [&str; 6] = [
        "Republic",
        "Federation",
        "Kingdom",
        "Islands",
        "Emirates",
        "Territory",
    ];
    const NAMED: [&str; 10] = [
        "Netherlands",
        "Philippines",
        "Bahamas",
        "Gambia",
        "Maldives",
        "Seychelles",
        "Comoros",
        "Holy See",
        "Isle of Man",
        "Vatican",
    ];
    let words: Vec<&str> = name.split_whitespace().collect();
    let united = words.first() == Some(&"United")
        && words
            .get(1)
            .is_some_and(|w| ["States", "Kingdom", "Arab", "Republic"].contains(w));
    let titled = words.len() >= 2 && words.iter().any(|w| PLURAL_OR_TITLED.contains(w));
    let named = NAMED
        .iter()
        .any(|n| name == *n || name.starts_with(&format!("{n} ")));
    // "Korea, Republic of", "Virgin Islands, British": list entries, left be.
    if (united || titled || named) && !name.contains(',') && !name.starts_with("The ") {
        format!("the {name}")
    } else {
        name.to_string()
    }
}

/// A measure named by a mass noun takes no article ("have recorded crime
/// above 250", "have revenue above $5").
fn mass_noun(measure: &str) -> bool {
    const MASS: [&str; 24] = [
        "crime",
        "rainfall",
        "precipitation",
        "employment",
        "unemployment",
        "consumption",
        "production",
        "inflation",
        "revenue",
        "spending",
        "output",
        "turnover",
        "attendance",
        "growth",
        "traffic",
        "investment",
        "expenditure",
        "demand",
        "supply",
        "migration",
        "generation",
        "enrolment",
        "enrollment",
        "weather",
    ];
    measure
        .split_whitespace()
        .last()
        .is_some_and(|w| MASS.contains(&w.to_lowercase().as_str()))
}

/// "Deaths per 1000" as people say it: "death rate" ("the deaths per 1000
/// for Urban Male" reads as a pasted column name).
fn per_head_as_rate(measure: &str) -> Option<String> {
    let (head, _) = measure.split_once(" per ")?;
    let singular = head.strip_suffix('s')?;
    let one_word = !singular.is_empty() && singular.chars().all(|c| c.is_ascii_lowercase());
    // "Miles per gallon", "Units per euro": a unit per a unit.
    let counted = reads_plural(head) && !UNIT_NOUNS.contains(&head);
    (one_word && counted).then(|| format!("{singular} rate"))
}

/// A value-axis title of one capitalised plural noun ("Telephones",
/// "Penguins", "People"): the things the chart counts, though no list of
/// measures knows the word. A unit ("Millimetres") is no measure.
fn counted_axis_noun(title: &str) -> Option<String> {
    let mut chars = title.chars();
    let head = chars.next()?;
    let lower = title.to_lowercase();
    let word = head.is_uppercase() && chars.all(|c| c.is_ascii_lowercase());
    (word && (reads_plural(&lower) || lower == "people") && !UNIT_NOUNS.contains(&lower.as_str()))
        .then_some(lower)
}

/// Axis titles that name a unit, not what is measured.
const UNIT_NOUNS: [&str; 33] = [
    "millimetres",
    "millimeters",
    "centimetres",
    "centimeters",
    "metres",
    "meters",
    "kilometres",
    "kilometers",
    "miles",
    "grams",
    "kilograms",
    "tonnes",
    "tons",
    "pounds",
    "dollars",
    "euros",
    "shillings",
    "pence",
    "points",
    "degrees",
    "hours",
    "minutes",
    "seconds",
    "days",
    "weeks",
    "months",
    "years",
    "units",
    "litres",
    "liters",
    "gallons",
    "acres",
    "hectares",
];

/// Whether a measure named in lower case is a plural ("sales", "job
/// vacancies", "deals closed"): a word of it ends in a plural "s".
pub fn reads_plural(series: &str) -> bool {
    if !series.starts_with(|c: char| c.is_lowercase()) {
        return false;
    }
    let words: Vec<&str> = series.split_whitespace().collect();
    let plural = |w: &&str| {
        w.len() > 3 && w.ends_with('s') && !["ss", "us", "is", "'s"].iter().any(|e| w.ends_with(e))
    };
    // The head noun is the last word ("job vacancies"), or the first when
    // what follows qualifies it ("deals closed", "smokers with cancer");
    // "savings ratio" is one ratio.
    let qualified =
        |w: &&str| w.ends_with("ed") || w.ends_with("en") || QUALIFYING_WORDS.contains(w);
    // "Miles per gallon" is one rate: a unit per a unit.
    let unit = |w: &&str| UNIT_NOUNS.contains(w);
    // "share of households" is one share: the head stands before "of".
    if let Some(at) = words.iter().position(|w| *w == "of").filter(|at| *at > 0) {
        return plural(&words[at - 1]);
    }
    words.last().is_some_and(plural)
        || words.first().is_some_and(|w| {
            plural(w)
                && words
                    .get(1)
                    .is_some_and(|q| qualified(q) && !(*q == "per" && unit(w)))
        })
}

/// Words after a plural head that qualify it ("deaths per 1000", "medals
/// won"): prepositions and irregular participles.
const QUALIFYING_WORDS: [&str; 24] = [
    "per", "in", "of", "from", "with", "without", "at", "by", "for", "under", "over", "aged",
    "won", "sold", "held", "lost", "made", "built", "paid", "spent", "kept", "bought", "caught",
    "found",
];

/// Words a measure named by an aggregate starts with ("Average price").
const AGGREGATE_WORDS: [&str; 5] = ["average ", "mean ", "median ", "total ", "sum "];

/// One word is lowered only when it is a common measure, never a name.
const MEASURE_WORDS: [&str; 93] = [
    "Share",
    "Revenue",
    "Sales",
    "Population",
    "Value",
    "Count",
    "Percentage",
    "Price",
    "Profit",
    "Income",
    "Employment",
    "Exports",
    "Imports",
    "Output",
    "Spending",
    "Budget",
    "Cost",
    "Rate",
    "Score",
    "Total",
    "Turnover",
    "Attendance",
    "Visitors",
    "Emissions",
    "Volume",
    "Area",
    "Anomaly",
    "Passengers",
    "Deaths",
    "Births",
    "Cases",
    "Orders",
    "Users",
    "Downloads",
    "Visits",
    "Arrivals",
    "Temperature",
    "Rainfall",
    "Precipitation",
    "Yield",
    "Length",
    "Weight",
    "Height",
    "Depth",
    "Width",
    "Mass",
    "Speed",
    "Distance",
    "Duration",
    "Frequency",
    "Density",
    "Consumption",
    "Production",
    "Demand",
    "Supply",
    "Capacity",
    "Growth",
    "Change",
    "Ratio",
    "Level",
    "Amount",
    "Number",
    "Quantity",
    "Salary",
    "Wages",
    "Earnings",
    "Debt",
    "Savings",
    "Investment",
    "Expenditure",
    "Members",
    "Students",
    "Customers",
    "Subscribers",
    "Enrolment",
    "Enrollment",
    "Unemployment",
    "Inflation",
    "Traffic",
    "Usage",
    "Votes",
    "Seats",
    "Goals",
    "Points",
    "Wins",
    "Losses",
    "Prevalence",
    "Incidence",
    "Mortality",
    "Margin",
    "Interest",
    "Tax",
    "Tourists",
];

/// A measure's column heading as it reads mid-sentence: "Job vacancies" →
/// "job vacancies". Only a phrase of two or more words whose first word is
/// capitalised and whose others are lower case (a common noun phrase), or
/// one common measure word ("Share"); another single word ("Chrome",
/// "Egypt") or any other capital ("Costa Rica", "GDP growth", "Air Fryer")
/// may be a name and stays as printed.
pub fn common_noun_lowercase(name: &str) -> Option<String> {
    let words: Vec<&str> = name.split_whitespace().collect();
    let [first, rest @ ..] = words.as_slice() else {
        return None;
    };
    if rest.is_empty() {
        return MEASURE_WORDS.contains(first).then(|| first.to_lowercase());
    }
    // "January temperature": a month or day keeps its capital.
    const WEEKDAYS: [&str; 7] = [
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ];
    let month =
        first.len() > 3 && crate::table::infer::month_number(&first.to_lowercase()).is_some();
    if month || WEEKDAYS.contains(first) {
        return None;
    }
    let mut chars = first.chars();
    let head = chars.next()?;
    // "Single-parent households", "Non-smokers without cancer".
    let tail_lower = chars.all(|c| c == '-' || c.is_alphabetic() && c.is_lowercase());
    // "Seasonally adjusted CO2": an acronym keeps its capitals.
    let acronym = |w: &str| {
        w.len() >= 2
            && w.chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
            && w.chars().any(|c| c.is_ascii_uppercase())
    };
    let rest_lower = rest
        .iter()
        .all(|w| acronym(w) || w.chars().all(|c| !c.is_alphabetic() || c.is_lowercase()));
    (head.is_uppercase() && tail_lower && rest_lower && !names_an_entity(name))
        .then(|| head.to_lowercase().collect::<String>() + &name[head.len_utf8()..])
}

/// An axis title without its trailing unit in brackets ("Yield (t/ha)").
pub(crate) fn without_unit(title: &str) -> &str {
    let t = title.trim();
    match t.rfind(" (") {
        Some(at) if t.ends_with(')') => t[..at].trim_end(),
        _ => t,
    }
}

/// Decimals needed to print `v` exactly (up to 6).
pub fn decimals_of(v: f64) -> u8 {
    (0..=6u8)
        .find(|d| {
            let scaled = v * 10f64.powi(i32::from(*d));
            (scaled - scaled.round()).abs() < 1e-6
        })
        .unwrap_or(6)
}

/// Decimals the question must ask for, when the family computes a new number.
pub fn asked_decimals(query: &Query) -> Option<u8> {
    match query {
        Query::Ratio { decimals, .. }
        | Query::PercentChange { decimals, .. }
        | Query::Share { decimals, .. }
        | Query::ShareSum { decimals, .. }
        | Query::TopMean { decimals, .. } => Some(*decimals),
        Query::Aggregate { decimals, .. } => *decimals,
        _ => None,
    }
}

/// Decimals a number about the query's (first) series prints with; a series
/// the chart does not show borrows the first drawn series' format.
pub fn series_decimals(query: &Query, spec: &ChartSpec) -> Option<u8> {
    let panels = spec.panels();
    let panel = panels.get(query.panel())?;
    let series = match query {
        Query::ValueAt { series, .. }
        | Query::Aggregate { series, .. }
        | Query::Spread { series, .. }
        | Query::MaxValue {
            series: Some(series),
            ..
        } => series.clone(),
        Query::Difference { a, .. } => a.series.clone(),
        _ => panel.series.first()?.clone(),
    };
    Some(format_of(panel, &series).decimals)
}

/// Families asked as yes/no questions (realized from clauses, not noun phrases).
pub fn is_yes_no_key(key: &str) -> bool {
    key.starts_with("compare")
        || key == "crosses"
        || key == "lines_intersect"
        || key == "intervals_overlap"
}

/// Fills `{slot}`s; None when a slot is unknown (a template/query mismatch).
pub fn fill(template: &str, slots: &Slots) -> Option<String> {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let end = after.find('}')?;
        let name = &after[..end];
        out.push_str(slots.get(name)?);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Some(out)
}

pub fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        // Names written with a small first letter and a capital after it
        // ("iPad Air", "eBay") keep their spelling at a sentence's start.
        Some(_) if s.chars().nth(1).is_some_and(char::is_uppercase) => s.to_string(),
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

pub fn decapitalize(s: &str) -> String {
    // "True or False: …" after a lead-in reads "true or false: …", both words alike.
    if let Some(rest) = s.strip_prefix("True or False") {
        return format!("true or false{rest}");
    }
    let mut c = s.chars();
    match (c.next(), s.chars().nth(1)) {
        // Keep acronyms and names like "GDP" as they are.
        (Some(f), Some(second)) if f.is_uppercase() && second.is_lowercase() => {
            f.to_lowercase().collect::<String>() + c.as_str()
        }
        _ => s.to_string(),
    }
}

/// Ordinal words for visual references.
pub fn ordinal(n: usize) -> String {
    const WORDS: [&str; 10] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth",
    ];
    WORDS
        .get(n.wrapping_sub(1))
        .map(|w| w.to_string())
        .unwrap_or_else(|| format!("{n}th"))
}

/// Canonical wording's one fixed wrapping of awkward series names ("the
/// 2020 series", "the 18-24 group"); whether a series name (wrapped, or
/// naming an entity such as "Kerluke and Sons" or, among several series,
/// "Brazil", or a list of kinds such as "Restaurants and hotels") cannot
/// stand as a measure after an adjective ("the highest {series}").
/// `siblings`: the series of the asked panel's table. When one of several
/// names a kind ("Theft", "Coal"), the others are kinds too ("the lowest
/// number of offences for Violence against the person", not "the lowest
/// violence against the person"): a legend is read one way.
pub fn wrap_awkward_plainly(slots: &mut Slots, siblings: &[String], key: &str) -> bool {
    let asked_series = slots.get("series").cloned();
    let wrapped = wrap_series_names(slots, siblings, key);
    if let Some(series) = asked_series {
        super::cell::phrase(slots, &series, key);
    }
    wrapped
}

fn wrap_series_names(slots: &mut Slots, siblings: &[String], key: &str) -> bool {
    let several_series = siblings.len() > 1;
    let kin_named = several_series && siblings.iter().any(|n| names_a_kind(n));
    // Among several series "the highest Brazil" is not English (a place or
    // kind, not the measure; a table's only series is usually the measure
    // itself, "the highest Population"); nor is "the highest Restaurants and
    // hotels", a list of kinds, ever.
    // "The average average price" neither: a measure named by an aggregate.
    // Elsewhere "What is the average rent for Manila?" reads as it should.
    let aggregates = matches!(key, "sum" | "mean" | "median" | "top_mean");
    let mut wrapped = SERIES_KEYS.iter().any(|k| {
        slots.get(*k).is_some_and(|n| {
            let lower = n.to_lowercase();
            kin_named
                || names_a_place_or_kind(n, several_series)
                || aggregates && AGGREGATE_WORDS.iter().any(|w| lower.starts_with(w))
                || lone_group_word(n)
        })
    });
    for key in SERIES_KEYS {
        let Some(kind) = slots.get(key).and_then(|n| awkward_kind(n)) else {
            continue;
        };
        // A year, date or code stands as it is in "the population for 2017
        // in Morocco" (outside readers found "the 2017 series" jargon); a
        // bare number or an age band needs its noun.
        let name = &slots[key];
        let text = match kind {
            "range" => format!("the {name} group"),
            "number" => format!("the {name} series"),
            _ => name.clone(),
        };
        slots.insert(key.into(), text);
        wrapped = true;
    }
    // A wrapped name follows "for": "the value for the United States".
    if wrapped {
        for key in SERIES_KEYS {
            if let Some(name) = slots.get(key) {
                let named = with_article(name);
                slots.insert(key.into(), named);
            }
        }
    }
    wrapped
}

/// A series name, as printed, that names a place, firm or kind rather than
/// a measure ("Theft", "Coal", "Brazil", "Kerluke and Sons"); an acronym
/// ("CO2", "GDP") is a measure.
fn names_a_kind(name: &str) -> bool {
    // "Employees", "Sales (US$ million)": things counted or measured.
    if !name.chars().any(char::is_lowercase)
        || awkward_kind(name).is_some()
        || name.contains('(')
        || reads_plural(&name.to_lowercase())
    {
        return false;
    }
    let spoken = common_noun_lowercase(name).unwrap_or_else(|| name.to_string());
    names_a_place_or_kind(&spoken, true)
}

/// A series name as a question speaks it that names a place, firm or kind,
/// or a list of kinds ("Restaurants and hotels"); among several series, any
/// name of capitalised words ("Brazil", "S&P 500").
fn names_a_place_or_kind(name: &str, several_series: bool) -> bool {
    names_an_entity(name)
        || (several_series && reads_as_a_name(name))
        || lone_proper_noun(name)
        || name.contains(" and ")
        || name.contains(" & ")
}

/// One capitalised word left as printed (a measure word would have been
/// lowered): a place or kind ("Rome", "France") even as a chart's only
/// series, where "Which year has the highest Rome?" is not English. An
/// acronym ("GDP", "CO2") is a measure.
fn lone_proper_noun(name: &str) -> bool {
    let mut chars = name.chars();
    !name.contains(char::is_whitespace)
        && chars.next().is_some_and(char::is_uppercase)
        && chars.any(char::is_lowercase)
        && name
            .chars()
            .all(|c| c.is_alphabetic() || c == '-' || c == '\'')
}

/// One lower-case word that is no measure ("male", "female" as a table's
/// columns): a group, where "the total male" is not English.
fn lone_group_word(name: &str) -> bool {
    !name.contains(char::is_whitespace)
        && name.chars().all(|c| c.is_lowercase() || c == '-')
        && !reads_plural(name)
        && !MEASURE_WORDS.iter().any(|w| w.eq_ignore_ascii_case(name))
}

/// A name whose every word is capitalised (or a number) and that has no
/// unit: "Brazil", "Coal", "S&P 500". Among several series such a name is one
/// of a set of places, firms or kinds ("the highest Brazil" is not English),
/// while "Bill depth" or "Hours studied" read as measures.
pub fn reads_as_a_name(name: &str) -> bool {
    !name.contains('(')
        && name.split_whitespace().all(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
        })
        && name.chars().any(char::is_alphabetic)
}

/// A name of two or more capitalised words and no unit ("Kerluke and Sons",
/// "South Heaven Beerstad"), or one ending in a company's legal form
/// ("Predovic LLC"): a company, place or product, not a measure ("Average
/// rent", "GDP per capita (US$)").
pub fn names_an_entity(name: &str) -> bool {
    const LEGAL_FORMS: [&str; 9] = [
        "LLC", "Inc", "Ltd", "PLC", "plc", "Corp", "GmbH", "AG", "SA",
    ];
    let words: Vec<&str> = name.split_whitespace().collect();
    if words.len() >= 2
        && words
            .last()
            .is_some_and(|w| LEGAL_FORMS.contains(&w.trim_end_matches('.')))
    {
        return true;
    }
    let long: Vec<&str> = name
        .split_whitespace()
        .filter(|w| w.chars().count() > 3)
        .collect();
    !name.contains('(')
        && long.len() >= 2
        && long
            .iter()
            .all(|w| w.chars().next().is_some_and(char::is_uppercase))
}

pub const SERIES_KEYS: [&str; 5] = ["series", "a_series", "b_series", "series_a", "series_b"];

/// What kind of awkward name a series has, when it cannot stand alone as a
/// noun ("the highest 2022", "the combined 18-24"): a year, a number range
/// such as an age band, a date, a product or region code, or a bare number.
/// Such names need a wrapping noun phrase ("the 2022 series").
pub fn awkward_kind(name: &str) -> Option<&'static str> {
    let n = name.trim();
    if n.is_empty() {
        return None;
    }
    let digits = n.chars().filter(char::is_ascii_digit).count();
    let letters = n.chars().filter(|c| c.is_alphabetic()).count();
    let is_year = |s: &str| {
        s.len() == 4 && s.chars().all(|c| c.is_ascii_digit()) && matches!(&s[..2], "19" | "20")
    };
    // "2019/20": a fiscal year. `get` keeps multi-byte names ("45–54") safe.
    let fiscal = n.len() == 7 && n.get(..4).is_some_and(is_year) && n.get(4..5) == Some("/");
    if is_year(n) || fiscal {
        return Some("year");
    }
    if letters == 0 && digits > 0 {
        // "18-24", "65+", "2023-11-02", "1.5": no word to lean on.
        let parts: Vec<&str> = n.split(['-', '–', '/']).collect();
        if parts.len() == 3 || (parts.len() == 2 && is_year(parts[0]) && parts[1].len() == 2) {
            return Some("date");
        }
        if n.contains(['-', '–', '+', '<', '>']) || n.to_lowercase().contains("to") {
            return Some("range");
        }
        return Some("number");
    }
    // Age bands written with words around numbers: "18 to 24", "under 18", "65 and over".
    let lower = n.to_lowercase();
    // A band leads with its number or its range word; "Population under 15"
    // is a measure of a band, a noun already.
    let leads = lower.split_whitespace().next().is_some_and(|w| {
        w.starts_with(|c: char| c.is_ascii_digit())
            || ["under", "over", "aged", "ages"].contains(&w)
    });
    if digits > 0
        && leads
        && ["to", "under", "over", "and", "plus", "years", "yrs", "aged"]
            .iter()
            .any(|w| lower.split_whitespace().any(|t| t == *w))
        && n.split_whitespace().count() <= 4
    {
        return Some("range");
    }
    // Codes: one token mixing capitals and digits ("SKU-114", "Q3", "A1B").
    if digits > 0
        && !n.contains(' ')
        && n.chars()
            .all(|c| c.is_alphanumeric() || "-_./#".contains(c))
    {
        return Some("code");
    }
    // A bare acronym or all-capital code without digits reads fine as a noun.
    None
}

#[cfg(test)]
mod decapitalize_tests {
    use super::decapitalize;

    #[test]
    fn lead_ins_lower_the_first_word_but_not_names_or_acronyms() {
        assert_eq!(decapitalize("What is the value?"), "what is the value?");
        assert_eq!(
            decapitalize("True or False: Gentoo is highest."),
            "true or false: Gentoo is highest."
        );
        assert_eq!(decapitalize("GDP rose?"), "GDP rose?");
    }
}

#[cfg(test)]
mod entity_tests {
    use super::names_an_entity;

    #[test]
    fn one_word_names_are_told_from_measure_phrases() {
        for name in ["Brazil", "Coal", "S&P 500", "N.Amer", "United States"] {
            assert!(super::reads_as_a_name(name), "{name}");
        }
        for name in ["Bill depth", "Hours studied", "GDP (US$)", "2020", "share"] {
            assert!(!super::reads_as_a_name(name), "{name}");
        }
    }

    #[test]
    fn entity_names_are_told_from_measures() {
        for name in [
            "Kerluke and Sons",
            "South Heaven Beerstad",
            "United States",
            "Predovic LLC",
            "Ziemann Inc.",
        ] {
            assert!(names_an_entity(name), "{name}");
        }
        for name in [
            "Average rent",
            "GDP per capita (US$)",
            "Hydro",
            "Hours studied",
            "Natural gas",
        ] {
            assert!(!names_an_entity(name), "{name}");
        }
    }
}

#[cfg(test)]
mod lowercase_tests {
    use super::common_noun_lowercase as lower;

    #[test]
    fn axis_titles_of_counted_things_are_measures() {
        for (title, measure) in [
            ("Telephones", Some("telephones")),
            ("Penguins", Some("penguins")),
            ("People", Some("people")),
            ("Millimetres", None),
            ("Shillings", None),
            ("Percent", None),
            ("Fertility", None),
        ] {
            assert_eq!(
                super::counted_axis_noun(title).as_deref(),
                measure,
                "{title}"
            );
        }
    }

    #[test]
    fn labels_led_by_a_preposition_are_no_noun() {
        for name in ["Below poverty line", "Above target", "Within budget"] {
            assert!(super::led_by_a_preposition(name), "{name}");
        }
        for name in ["Under 18", "Population under 15", "Overtime", "Below"] {
            assert!(!super::led_by_a_preposition(name), "{name}");
        }
        assert_eq!(
            super::common_noun_lowercase("Seasonally adjusted CO2").as_deref(),
            Some("seasonally adjusted CO2")
        );
    }

    #[test]
    fn places_that_take_the_get_it() {
        for (name, said) in [
            ("United States", "the United States"),
            ("United States of America", "the United States of America"),
            ("Russian Federation", "the Russian Federation"),
            ("Cook Islands", "the Cook Islands"),
            ("Philippines", "the Philippines"),
            (
                "Holy See (Vatican City State)",
                "the Holy See (Vatican City State)",
            ),
            ("Czech Republic", "the Czech Republic"),
            ("France", "France"),
            ("United Airlines", "United Airlines"),
            ("Korea, Republic of", "Korea, Republic of"),
            ("Islands", "Islands"),
        ] {
            assert_eq!(super::with_article(name), said, "{name}");
        }
    }

    #[test]
    fn counts_per_head_are_rates() {
        for (measure, said) in [
            ("deaths per 1000", Some("death rate")),
            ("arrests per 100,000", Some("arrest rate")),
            ("miles per gallon", None),
            ("units per euro", None),
            ("GDP per capita", None),
        ] {
            assert_eq!(
                super::per_head_as_rate(measure).as_deref(),
                said,
                "{measure}"
            );
        }
    }

    #[test]
    fn axis_titles_that_name_a_unit_are_told() {
        for title in [
            "US$ per gallon",
            "Index points",
            "Million therms",
            "Millimetres",
            "Percent",
        ] {
            assert!(super::names_only_a_unit(title), "{title}");
        }
        for title in [
            "Gas price",
            "Sunspot number",
            "Deaths per 1000",
            "Population",
            "Share price",
        ] {
            assert!(!super::names_only_a_unit(title), "{title}");
        }
    }

    #[test]
    fn the_article_follows_the_sound() {
        for (name, article) in [
            ("obesity rate", "an "),
            ("share", "a "),
            ("unit price", "a "),
            ("unemployment rate", "an "),
            ("hourly wage", "an "),
            ("HIV rate", "an "),
            ("GDP", "a "),
            ("European share", "a "),
        ] {
            assert_eq!(super::indefinite_article(name), article, "{name}");
        }
    }

    #[test]
    fn plural_measures_are_told() {
        for m in [
            "sales",
            "job vacancies",
            "deals closed",
            "tourist arrivals",
            "medals won",
            "smokers with cancer",
            "arrests per 100,000",
            "deaths of infants",
        ] {
            assert!(super::reads_plural(m), "{m}");
        }
        for m in [
            "net income",
            "share",
            "gross output",
            "bus",
            "Chrome Apps",
            "analysis",
            "savings ratio",
            "sales revenue",
            "miles per gallon",
            "units per euro",
            "share of households",
            "number of people",
        ] {
            assert!(!super::reads_plural(m), "{m}");
        }
    }

    #[test]
    fn the_verb_agrees_with_the_series_named_first() {
        let mut s = super::Slots::new();
        s.insert("a_series".into(), "exports".into());
        s.insert("series".into(), "net income".into());
        super::agree_with_series(&mut s);
        assert_eq!(s["A_series_be"], "Are");
        assert_eq!(s["series_be"], "is");
        // A visual reference: one bar, or the whole series of bars.
        s.insert("a_series".into(), "the blue bar".into());
        s.insert("series".into(), "the blue bars".into());
        super::agree_with_series(&mut s);
        assert_eq!(s["a_series_be"], "is");
        assert_eq!(s["Series_be"], "Are");
    }

    #[test]
    fn measures_read_in_lower_case_and_names_keep_their_capitals() {
        assert_eq!(lower("Job vacancies").as_deref(), Some("job vacancies"));
        assert_eq!(lower("Hours studied").as_deref(), Some("hours studied"));
        assert_eq!(lower("Share").as_deref(), Some("share"));
        for name in [
            "Egypt",
            "Chrome",
            "Costa Rica",
            "GDP growth",
            "Air Fryer",
            "Kerluke and Sons",
            "2020",
            "job vacancies",
            "January temperature",
            "Monday visits",
        ] {
            assert_eq!(lower(name), None, "{name}");
        }
        assert_eq!(
            lower("Single-parent households").as_deref(),
            Some("single-parent households")
        );
        assert_eq!(lower("Passengers").as_deref(), Some("passengers"));
    }

    #[test]
    fn a_lone_lower_case_word_that_is_no_measure_is_a_group() {
        for name in ["male", "female"] {
            assert!(super::lone_group_word(name), "{name}");
        }
        for name in ["share", "visitors", "admissions", "bill depth", "Male"] {
            assert!(!super::lone_group_word(name), "{name}");
        }
    }

    #[test]
    fn a_lone_capitalised_word_is_a_name_unless_an_acronym() {
        for name in ["Rome", "France", "Coal"] {
            assert!(super::lone_proper_noun(name), "{name}");
        }
        for name in ["GDP", "CO2", "share", "Costa Rica", "2020"] {
            assert!(!super::lone_proper_noun(name), "{name}");
        }
    }
}

#[cfg(test)]
mod awkward_tests {
    use super::awkward_kind;

    #[test]
    fn awkward_series_names_are_detected() {
        for (name, kind) in [
            ("2022", Some("year")),
            ("18-24", Some("range")),
            ("65+", Some("range")),
            ("2023-11-02", Some("date")),
            ("SKU-114", Some("code")),
            ("Q3", Some("code")),
            ("12.5", Some("number")),
            ("Under 18", Some("range")),
            ("65 and over", Some("range")),
            ("Population under 15", None),
            ("45–54", Some("range")),
            ("2019/20", Some("year")),
            ("Zürich", None),
            ("North", None),
            ("GDP", None),
            ("Farrell Cloud", None),
            ("Group 4 Securicor plc", None),
        ] {
            assert_eq!(awkward_kind(name), kind, "{name}");
        }
    }
}
