//! Realistic, distinct category labels: real names from built-in lists
//! mixed with invented ones from `fake` and word lists.

use super::SynthRng;
use super::real_names;
use crate::table::infer::{is_missing, parse_date, parse_number};
use fake::Fake;
use fake::faker::address::en::CityName;
use fake::faker::company::en::{CompanyName, Industry};
use fake::faker::name::en::{LastName, Name};
use rand::RngExt;

/// What the categories of a table are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entity {
    Country,
    Company,
    Product,
    City,
    Person,
    /// Long labels, e.g. "Mechanical or Industrial Engineering".
    Industry,
}

impl Entity {
    /// The index column header / x-axis label.
    pub fn label(self) -> &'static str {
        match self {
            Entity::Country => "Country",
            Entity::Company => "Company",
            Entity::Product => "Product",
            Entity::City => "City",
            Entity::Person => "Sales representative",
            Entity::Industry => "Industry",
        }
    }
}

const PRODUCT_TYPES: &[&str] = &[
    "Laptop",
    "Tablet",
    "Smartwatch",
    "Headphones",
    "Camera",
    "Speaker",
    "Monitor",
    "Router",
    "E-reader",
    "Drone",
    "Blender",
    "Air Fryer",
    "Vacuum Cleaner",
    "Coffee Maker",
    "Kettle",
    "Electric Bike",
];

const PRODUCT_LINES: &[&str] = &["Pro", "Lite", "Max", "Mini", "Plus", "Air", "One", "X"];

/// Real cities; synthesized tables mix them with invented ones, so a real
/// city's name says nothing about whether a chart shows it.
pub const WORLD_CITIES: &[&str] = &[
    "London",
    "Paris",
    "Berlin",
    "Madrid",
    "Rome",
    "Lisbon",
    "Oslo",
    "Stockholm",
    "Vienna",
    "Prague",
    "Warsaw",
    "Dublin",
    "Athens",
    "Helsinki",
    "Copenhagen",
    "Brussels",
    "Delhi",
    "Dhaka",
    "Lahore",
    "Beijing",
    "Cairo",
    "Jakarta",
    "Mexico City",
    "Karachi",
    "Lagos",
    "Manila",
    "Seoul",
    "Tokyo",
    "New York",
    "Chicago",
    "Toronto",
    "Sydney",
    "Melbourne",
    "Nairobi",
    "Lima",
    "Bogotá",
    "Santiago",
    "Buenos Aires",
    "São Paulo",
    "Istanbul",
    "Mumbai",
    "Bangkok",
    "Singapore",
    "Amsterdam",
    "Zurich",
    "Edinburgh",
    "Reykjavik",
    "Valletta",
    "Porto",
    "Bergen",
];

/// Odds of a real name (else an invented one) in every entity kind: most
/// tables of three or more labels show both.
const REAL_ODDS: f64 = 0.5;

fn real_or(
    rng: &mut SynthRng,
    real: &[&str],
    invented: impl FnOnce(&mut SynthRng) -> String,
) -> String {
    if !real.is_empty() && rng.random_bool(REAL_ODDS) {
        real[rng.random_range(0..real.len())].to_string()
    } else {
        invented(rng)
    }
}

/// A city as synthesized tables (and the cities they do not show) draw
/// them: real or invented.
pub fn city(rng: &mut SynthRng) -> String {
    real_or(rng, WORLD_CITIES, |rng| CityName().fake_with_rng(rng))
}

/// A company, real or invented, as tables and absent-company questions
/// draw them.
pub fn company(rng: &mut SynthRng) -> String {
    company_in(rng, None)
}

/// The real names of a list that were about in `years` (all without).
fn about<'a>(names: impl Iterator<Item = &'a str>, years: Option<(i32, i32)>) -> Vec<&'a str> {
    names.filter(|n| real_names::about_in(n, years)).collect()
}

/// A company, real (founded by the first of `years`) or invented.
fn company_in(rng: &mut SynthRng, years: Option<(i32, i32)>) -> String {
    let real = about(real_names::COMPANIES.iter().map(|c| c.0), years);
    real_or(rng, &real, invented_company)
}

/// A country, real (from a list of places of every size) or invented: the
/// faker's list holds territories such as "Norfolk Island" that no
/// country-sized figure fits.
pub fn country(rng: &mut SynthRng) -> String {
    real_or(rng, &REAL_COUNTRY_NAMES, |rng| {
        let head = pick(rng, real_names::COUNTRY_HEADS);
        let tail = pick(rng, real_names::COUNTRY_TAILS);
        match rng.random_range(0..8) {
            0 => format!("North {head}{tail}"),
            1 => format!("Republic of {head}{tail}"),
            _ => format!("{head}{tail}"),
        }
    })
}

pub(crate) const REAL_COUNTRY_NAMES: [&str; real_names::COUNTRIES.len()] = {
    let mut out = [""; real_names::COUNTRIES.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = real_names::COUNTRIES[i].0;
        i += 1;
    }
    out
};

/// A person: a common real full name from one of many countries, or the
/// faker's.
pub fn person(rng: &mut SynthRng) -> String {
    real_or(rng, real_names::PEOPLE, |rng| Name().fake_with_rng(rng))
}

/// A product: a real, well-known one (sold in every one of `years`) or a
/// maker's name and a product noun.
pub fn product_in(rng: &mut SynthRng, years: Option<(i32, i32)>) -> String {
    let real = about(real_names::PRODUCTS.iter().map(|p| p.0), years);
    real_or(rng, &real, |rng| {
        let brand: String = LastName().fake_with_rng(rng);
        let kind = pick(rng, PRODUCT_TYPES);
        if rng.random_bool(0.5) {
            let line = pick(rng, PRODUCT_LINES);
            format!("{brand} {kind} {line}")
        } else {
            format!("{brand} {kind}")
        }
    })
}

fn pick<'a>(rng: &mut SynthRng, list: &[&'a str]) -> &'a str {
    list[rng.random_range(0..list.len())]
}

/// An invented company name that reads as one name in a list: the faker's
/// "Tremblay and Goodwin and Sons" or "Weissnat, Leffler and Moen" beside
/// another name read as two or three companies to outside readers.
pub fn invented_company(rng: &mut SynthRng) -> String {
    const DRAWS: usize = 17;
    let reads_as_one = |name: &String| !(name.contains(" and ") || name.contains(','));
    let drawn = std::iter::repeat_with(|| CompanyName().fake_with_rng(rng))
        .take(DRAWS)
        .find(reads_as_one);
    drawn.unwrap_or_else(|| {
        let last: String = LastName().fake_with_rng(rng);
        format!("{last} Inc")
    })
}

fn one(rng: &mut SynthRng, entity: Entity, years: Option<(i32, i32)>) -> String {
    match entity {
        Entity::Country => country(rng),
        Entity::Company => company_in(rng, years),
        Entity::City => city(rng),
        Entity::Person => person(rng),
        // Industries are a fixed classification: every one is real.
        Entity::Industry => Industry().fake_with_rng(rng),
        Entity::Product => product_in(rng, years),
    }
}

/// A label that loads back as text (not a number, date or missing marker).
fn usable(label: &str) -> bool {
    let t = label.trim();
    t == label
        && !t.is_empty()
        && !is_missing(t)
        && parse_number(t).is_none()
        && parse_date(t).is_none()
}

/// `n` distinct labels of one entity kind.
pub fn distinct(rng: &mut SynthRng, entity: Entity, n: usize) -> Vec<String> {
    distinct_in(rng, entity, n, None)
}

/// `n` distinct labels of one entity kind for figures of `years` (first,
/// last): no real company before its founding, no real product outside
/// the years it was sold.
pub fn distinct_in(
    rng: &mut SynthRng,
    entity: Entity,
    n: usize,
    years: Option<(i32, i32)>,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(n);
    let mut attempts = 0;
    while out.len() < n {
        attempts += 1;
        let mut label = one(rng, entity, years);
        if attempts > 50 * n {
            // The pool is exhausted (few industries, say): number the rest.
            label = format!("{label} {}", out.len() + 1);
        }
        if usable(&label) && !out.iter().any(|o| core(o) == core(&label)) {
            out.push(label);
        }
    }
    out
}

/// A name without the words that vary one place's name into another's
/// ("Republic of Kaluria", "North Kaluria" are Kaluria to a reader): two
/// labels of one table never share it.
fn core(label: &str) -> String {
    let mut rest = label.trim().to_lowercase();
    for prefix in [
        "republic of ",
        "north ",
        "south ",
        "east ",
        "west ",
        "new ",
        "port ",
    ] {
        if let Some(r) = rest.strip_prefix(prefix) {
            rest = r.to_string();
        }
    }
    rest
}

/// `n` labels from a fixed list, keeping the list's order (for well-known
/// groupings such as energy sources or age bands).
pub fn from_list(rng: &mut SynthRng, list: &[&str], n: usize) -> Vec<String> {
    let n = n.min(list.len());
    let mut idx: Vec<usize> = (0..list.len()).collect();
    for i in 0..n {
        let j = rng.random_range(i..idx.len());
        idx.swap(i, j);
    }
    let mut chosen = idx[..n].to_vec();
    chosen.sort_unstable();
    chosen.into_iter().map(|i| list[i].to_string()).collect()
}
