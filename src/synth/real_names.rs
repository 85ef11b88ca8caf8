//! Built-in lists of real, well-known names, which synthesized tables mix
//! with invented ones: a table of only invented names would make any real
//! name in a question a give-away (and the other way round).

/// Real countries with their population in millions (rounded, early
/// 2020s), from micro-states to the largest: country-sized measures are
/// drawn to fit the country.
pub const COUNTRIES: &[(&str, f64)] = &[
    ("China", 1410.0),
    ("India", 1430.0),
    ("United States", 335.0),
    ("Indonesia", 277.0),
    ("Pakistan", 240.0),
    ("Nigeria", 223.0),
    ("Brazil", 216.0),
    ("Bangladesh", 173.0),
    ("Russia", 144.0),
    ("Mexico", 128.0),
    ("Ethiopia", 126.0),
    ("Japan", 124.0),
    ("Philippines", 117.0),
    ("Egypt", 112.0),
    ("Vietnam", 99.0),
    ("Iran", 89.0),
    ("Turkey", 85.0),
    ("Germany", 84.0),
    ("Thailand", 72.0),
    ("France", 68.0),
    ("United Kingdom", 68.0),
    ("South Africa", 60.0),
    ("Italy", 59.0),
    ("Kenya", 55.0),
    ("Colombia", 52.0),
    ("South Korea", 52.0),
    ("Spain", 48.0),
    ("Argentina", 46.0),
    ("Algeria", 45.0),
    ("Canada", 40.0),
    ("Poland", 37.0),
    ("Morocco", 37.0),
    ("Saudi Arabia", 36.0),
    ("Peru", 34.0),
    ("Malaysia", 34.0),
    ("Ghana", 34.0),
    ("Australia", 26.6),
    ("Chile", 19.6),
    ("Ecuador", 18.0),
    ("Netherlands", 17.9),
    ("Belgium", 11.8),
    ("Czech Republic", 10.9),
    ("Sweden", 10.5),
    ("Portugal", 10.4),
    ("Greece", 10.4),
    ("Israel", 9.8),
    ("Hungary", 9.6),
    ("Austria", 9.1),
    ("Switzerland", 8.8),
    ("Denmark", 5.9),
    ("Singapore", 5.9),
    ("Finland", 5.6),
    ("Norway", 5.5),
    ("Ireland", 5.2),
    ("New Zealand", 5.2),
    ("Uruguay", 3.4),
    ("Slovenia", 2.1),
    ("Estonia", 1.4),
    ("Luxembourg", 0.66),
    ("Malta", 0.53),
    ("Iceland", 0.39),
];

/// Real cities with their urban population in millions (rounded), in the
/// order of [`super::names::WORLD_CITIES`].
pub const CITIES: &[(&str, f64)] = &[
    ("London", 9.6),
    ("Paris", 11.2),
    ("Berlin", 3.7),
    ("Madrid", 6.7),
    ("Rome", 4.3),
    ("Lisbon", 3.0),
    ("Oslo", 1.1),
    ("Stockholm", 1.7),
    ("Vienna", 2.0),
    ("Prague", 1.3),
    ("Warsaw", 1.8),
    ("Dublin", 1.3),
    ("Athens", 3.2),
    ("Helsinki", 1.3),
    ("Copenhagen", 1.4),
    ("Brussels", 2.1),
    ("Delhi", 32.0),
    ("Dhaka", 23.0),
    ("Lahore", 13.5),
    ("Beijing", 21.8),
    ("Cairo", 22.0),
    ("Jakarta", 11.0),
    ("Mexico City", 22.0),
    ("Karachi", 17.0),
    ("Lagos", 15.0),
    ("Manila", 14.0),
    ("Seoul", 9.9),
    ("Tokyo", 37.0),
    ("New York", 18.9),
    ("Chicago", 8.9),
    ("Toronto", 6.3),
    ("Sydney", 5.3),
    ("Melbourne", 5.1),
    ("Nairobi", 5.3),
    ("Lima", 11.0),
    ("Bogotá", 11.5),
    ("Santiago", 6.9),
    ("Buenos Aires", 15.5),
    ("São Paulo", 22.6),
    ("Istanbul", 15.8),
    ("Mumbai", 21.0),
    ("Bangkok", 11.0),
    ("Singapore", 5.9),
    ("Amsterdam", 1.2),
    ("Zurich", 1.4),
    ("Edinburgh", 0.55),
    ("Reykjavik", 0.24),
    ("Valletta", 0.2),
    ("Porto", 1.3),
    ("Bergen", 0.29),
];

/// Real, well-known companies of several countries and industries, each
/// with a year by which it was founded (no figures before it).
pub const COMPANIES: &[(&str, i32)] = &[
    ("Toyota", 1950),
    ("Siemens", 1950),
    ("Nestlé", 1950),
    ("Samsung Electronics", 1950),
    ("Unilever", 1950),
    ("Volkswagen", 1950),
    ("Microsoft", 1950),
    ("Shell", 1950),
    ("Walmart", 1950),
    ("Sony", 1950),
    ("IKEA", 1950),
    ("Nokia", 1950),
    ("Philips", 1950),
    ("Heineken", 1950),
    ("BMW", 1950),
    ("Airbus", 1950),
    ("Boeing", 1950),
    ("Tata Motors", 1950),
    ("Infosys", 1950),
    ("Petrobras", 1950),
    ("Maersk", 1950),
    ("Ericsson", 1950),
    ("Adidas", 1950),
    ("Nike", 1950),
    ("Canon", 1950),
    ("Panasonic", 1950),
    ("Honda", 1950),
    ("Hyundai", 1950),
    ("L'Oréal", 1950),
    ("Danone", 1950),
    ("Carrefour", 1950),
    ("Tesco", 1950),
    ("Bayer", 1950),
    ("BASF", 1950),
    ("Intel", 1950),
    ("Netflix", 1997),
    ("Spotify", 2006),
    ("Alibaba", 1999),
    ("Tencent", 1998),
    ("Pfizer", 1950),
];

/// Common real full names from many countries (no public figures): a
/// faker's names read as one country's, so a list of them alone would set
/// any other name apart.
pub const PEOPLE: &[&str] = &[
    "Maria Garcia",
    "Wei Zhang",
    "Priya Sharma",
    "Mohammed Ali",
    "Ana Silva",
    "Yuki Tanaka",
    "Olga Ivanova",
    "James Smith",
    "Fatima Khan",
    "Lucas Martin",
    "Sofia Rossi",
    "Jan Kowalski",
    "Aisha Bello",
    "Carlos Hernández",
    "Min-jun Kim",
    "Emma Müller",
    "Ahmed Hassan",
    "Chloe Dubois",
    "Noah Johansson",
    "Leila Haddad",
    "Rahul Patel",
    "Nguyen Van An",
    "Grace Wanjiru",
    "Diego Fernández",
    "Hannah Schmidt",
    "Kwame Mensah",
    "Elif Yılmaz",
    "Mei Lin",
    "Sean Murphy",
    "Ingrid Larsen",
];

/// Real, well-known consumer products, with the first and last year each
/// was sold (no figures outside them).
pub const PRODUCTS: &[(&str, i32, i32)] = &[
    ("iPhone 15", 2023, 2100),
    ("Galaxy S24", 2024, 2100),
    ("Pixel 8", 2023, 2100),
    ("MacBook Air", 2008, 2100),
    ("ThinkPad X1 Carbon", 2012, 2100),
    ("Surface Pro", 2013, 2100),
    ("iPad Air", 2013, 2100),
    ("Kindle Paperwhite", 2012, 2100),
    ("AirPods Pro", 2019, 2100),
    ("Apple Watch Series 9", 2023, 2100),
    ("Fitbit Charge 6", 2023, 2100),
    ("Nintendo Switch", 2017, 2100),
    ("PlayStation 5", 2020, 2100),
    ("Xbox Series X", 2020, 2100),
    ("GoPro Hero 12", 2023, 2100),
    ("DJI Mini 4 Pro", 2023, 2100),
    ("Sonos One", 2017, 2100),
    ("Echo Dot", 2016, 2100),
    ("Bose QuietComfort", 2000, 2100),
    ("Dyson V15", 2021, 2100),
    ("Roomba j7", 2021, 2100),
    ("Instant Pot Duo", 2014, 2100),
    ("Nespresso Vertuo", 2014, 2100),
    ("Kindle Scribe", 2022, 2100),
    ("Game Boy", 1989, 2003),
    ("Nokia 3310", 2000, 2005),
    ("iPod Classic", 2001, 2014),
    ("PlayStation 2", 2000, 2013),
    ("Xbox 360", 2005, 2016),
    ("Nintendo Wii", 2006, 2013),
    ("BlackBerry Bold", 2008, 2013),
];

/// Syllables of invented country names: no join of one head and one tail
/// is a real country (a test checks this against the list above).
pub const COUNTRY_HEADS: &[&str] = &[
    "Vel", "Ostr", "Kal", "Tor", "Zan", "Bel", "Cor", "Dra", "Esk", "Lur", "Nov", "Sar", "Tal",
    "Vor", "Ard", "Mir", "Quel", "Ruth",
];
pub const COUNTRY_TAILS: &[&str] = &[
    "avia", "oria", "onia", "estan", "inia", "ador", "esia", "uria", "enland", "ovia",
];

/// The population in millions of a real country or city in the lists.
pub fn population_millions(name: &str) -> Option<f64> {
    COUNTRIES
        .iter()
        .chain(CITIES)
        .find(|(n, _)| *n == name)
        .map(|(_, p)| *p)
}

/// Whether a label is one of the built-in real names.
#[cfg(test)]
pub fn is_real(name: &str) -> bool {
    population_millions(name).is_some()
        || COMPANIES.iter().any(|(c, _)| *c == name)
        || PEOPLE.contains(&name)
        || PRODUCTS.iter().any(|(p, _, _)| *p == name)
}

/// Whether a real company or product was about in every year of `years`
/// (invented names and other kinds always are).
pub fn about_in(name: &str, years: Option<(i32, i32)>) -> bool {
    let Some(years) = years else {
        return true;
    };
    let company = COMPANIES.iter().find(|(c, _)| *c == name);
    let product = PRODUCTS.iter().find(|(p, _, _)| *p == name);
    match (company, product) {
        (Some((_, founded)), _) => *founded <= years.0,
        (_, Some((_, first, last))) => *first <= years.0 && years.1 <= *last,
        _ => true,
    }
}
