//! Built-in lists of real, well-known names, which synthesized tables mix
//! with invented ones: a table of only invented names would make any real
//! name in a question a give-away (and the other way round).

/// Real countries with their population in millions and their income (GDP
/// per person, US$ thousand), rounded, of the early 2020s, from
/// micro-states to the largest: measures that follow a country's size or
/// income are drawn to fit it.
pub const COUNTRIES: &[(&str, f64, f64)] = &[
    ("China", 1410.0, 12.7),
    ("India", 1430.0, 2.4),
    ("United States", 335.0, 76.0),
    ("Indonesia", 277.0, 4.8),
    ("Pakistan", 240.0, 1.6),
    ("Nigeria", 223.0, 2.2),
    ("Brazil", 216.0, 8.9),
    ("Bangladesh", 173.0, 2.7),
    ("Russia", 144.0, 15.0),
    ("Mexico", 128.0, 11.0),
    ("Ethiopia", 126.0, 1.0),
    ("Japan", 124.0, 34.0),
    ("Philippines", 117.0, 3.5),
    ("Egypt", 112.0, 4.3),
    ("Vietnam", 99.0, 4.2),
    ("Iran", 89.0, 4.7),
    ("Turkey", 85.0, 10.6),
    ("Germany", 84.0, 48.0),
    ("Thailand", 72.0, 7.0),
    ("France", 68.0, 41.0),
    ("United Kingdom", 68.0, 46.0),
    ("South Africa", 60.0, 6.8),
    ("Italy", 59.0, 34.0),
    ("Kenya", 55.0, 2.1),
    ("Colombia", 52.0, 6.6),
    ("South Korea", 52.0, 32.0),
    ("Spain", 48.0, 29.0),
    ("Argentina", 46.0, 13.7),
    ("Algeria", 45.0, 4.3),
    ("Canada", 40.0, 55.0),
    ("Poland", 37.0, 18.0),
    ("Morocco", 37.0, 3.5),
    ("Saudi Arabia", 36.0, 30.0),
    ("Peru", 34.0, 7.1),
    ("Malaysia", 34.0, 12.0),
    ("Ghana", 34.0, 2.2),
    ("Australia", 26.6, 65.0),
    ("Chile", 19.6, 15.0),
    ("Ecuador", 18.0, 6.4),
    ("Netherlands", 17.9, 57.0),
    ("Belgium", 11.8, 50.0),
    ("Czech Republic", 10.9, 27.0),
    ("Sweden", 10.5, 56.0),
    ("Portugal", 10.4, 24.0),
    ("Greece", 10.4, 21.0),
    ("Israel", 9.8, 54.0),
    ("Hungary", 9.6, 18.0),
    ("Austria", 9.1, 52.0),
    ("Switzerland", 8.8, 92.0),
    ("Denmark", 5.9, 67.0),
    ("Singapore", 5.9, 83.0),
    ("Finland", 5.6, 50.0),
    ("Norway", 5.5, 106.0),
    ("Ireland", 5.2, 104.0),
    ("New Zealand", 5.2, 48.0),
    ("Uruguay", 3.4, 20.0),
    ("Slovenia", 2.1, 28.0),
    ("Estonia", 1.4, 28.0),
    ("Luxembourg", 0.66, 126.0),
    ("Malta", 0.53, 34.0),
    ("Iceland", 0.39, 74.0),
];

/// A real city: urban population in millions, income (its country's GDP
/// per person or a little more, US$ thousand), mean January temperature
/// (°C) and annual rainfall (mm), rounded.
pub struct City {
    pub name: &'static str,
    pub millions: f64,
    pub income: f64,
    pub january: f64,
    pub rainfall: f64,
}

/// Real cities, in the order of [`super::names::WORLD_CITIES`].
pub const CITIES: &[City] = &[
    City {
        name: "London",
        millions: 9.6,
        income: 55.0,
        january: 5.2,
        rainfall: 600.0,
    },
    City {
        name: "Paris",
        millions: 11.2,
        income: 50.0,
        january: 5.0,
        rainfall: 640.0,
    },
    City {
        name: "Berlin",
        millions: 3.7,
        income: 48.0,
        january: 0.6,
        rainfall: 570.0,
    },
    City {
        name: "Madrid",
        millions: 6.7,
        income: 35.0,
        january: 6.3,
        rainfall: 420.0,
    },
    City {
        name: "Rome",
        millions: 4.3,
        income: 34.0,
        january: 7.5,
        rainfall: 800.0,
    },
    City {
        name: "Lisbon",
        millions: 3.0,
        income: 28.0,
        january: 11.5,
        rainfall: 730.0,
    },
    City {
        name: "Oslo",
        millions: 1.1,
        income: 100.0,
        january: -4.3,
        rainfall: 760.0,
    },
    City {
        name: "Stockholm",
        millions: 1.7,
        income: 60.0,
        january: -1.6,
        rainfall: 540.0,
    },
    City {
        name: "Vienna",
        millions: 2.0,
        income: 52.0,
        january: 0.3,
        rainfall: 620.0,
    },
    City {
        name: "Prague",
        millions: 1.3,
        income: 35.0,
        january: -1.0,
        rainfall: 500.0,
    },
    City {
        name: "Warsaw",
        millions: 1.8,
        income: 28.0,
        january: -1.8,
        rainfall: 530.0,
    },
    City {
        name: "Dublin",
        millions: 1.3,
        income: 70.0,
        january: 5.3,
        rainfall: 760.0,
    },
    City {
        name: "Athens",
        millions: 3.2,
        income: 21.0,
        january: 10.0,
        rainfall: 400.0,
    },
    City {
        name: "Helsinki",
        millions: 1.3,
        income: 50.0,
        january: -3.9,
        rainfall: 650.0,
    },
    City {
        name: "Copenhagen",
        millions: 1.4,
        income: 67.0,
        january: 1.0,
        rainfall: 600.0,
    },
    City {
        name: "Brussels",
        millions: 2.1,
        income: 50.0,
        january: 3.3,
        rainfall: 850.0,
    },
    City {
        name: "Delhi",
        millions: 32.0,
        income: 4.0,
        january: 14.0,
        rainfall: 800.0,
    },
    City {
        name: "Dhaka",
        millions: 23.0,
        income: 4.0,
        january: 19.0,
        rainfall: 2100.0,
    },
    City {
        name: "Lahore",
        millions: 13.5,
        income: 2.5,
        january: 12.8,
        rainfall: 630.0,
    },
    City {
        name: "Beijing",
        millions: 21.8,
        income: 28.0,
        january: -3.1,
        rainfall: 570.0,
    },
    City {
        name: "Cairo",
        millions: 22.0,
        income: 5.0,
        january: 14.0,
        rainfall: 25.0,
    },
    City {
        name: "Jakarta",
        millions: 11.0,
        income: 8.0,
        january: 26.5,
        rainfall: 1800.0,
    },
    City {
        name: "Mexico City",
        millions: 22.0,
        income: 16.0,
        january: 14.0,
        rainfall: 820.0,
    },
    City {
        name: "Karachi",
        millions: 17.0,
        income: 2.5,
        january: 18.5,
        rainfall: 200.0,
    },
    City {
        name: "Lagos",
        millions: 15.0,
        income: 4.0,
        january: 27.0,
        rainfall: 1500.0,
    },
    City {
        name: "Manila",
        millions: 14.0,
        income: 6.0,
        january: 26.0,
        rainfall: 2000.0,
    },
    City {
        name: "Seoul",
        millions: 9.9,
        income: 35.0,
        january: -2.0,
        rainfall: 1450.0,
    },
    City {
        name: "Tokyo",
        millions: 37.0,
        income: 45.0,
        january: 5.4,
        rainfall: 1530.0,
    },
    City {
        name: "New York",
        millions: 18.9,
        income: 90.0,
        january: 0.5,
        rainfall: 1200.0,
    },
    City {
        name: "Chicago",
        millions: 8.9,
        income: 76.0,
        january: -4.6,
        rainfall: 950.0,
    },
    City {
        name: "Toronto",
        millions: 6.3,
        income: 55.0,
        january: -5.5,
        rainfall: 830.0,
    },
    City {
        name: "Sydney",
        millions: 5.3,
        income: 65.0,
        january: 23.0,
        rainfall: 1200.0,
    },
    City {
        name: "Melbourne",
        millions: 5.1,
        income: 60.0,
        january: 20.5,
        rainfall: 650.0,
    },
    City {
        name: "Nairobi",
        millions: 5.3,
        income: 4.0,
        january: 18.5,
        rainfall: 900.0,
    },
    City {
        name: "Lima",
        millions: 11.0,
        income: 9.0,
        january: 23.0,
        rainfall: 15.0,
    },
    City {
        name: "Bogotá",
        millions: 11.5,
        income: 9.0,
        january: 13.5,
        rainfall: 1000.0,
    },
    City {
        name: "Santiago",
        millions: 6.9,
        income: 18.0,
        january: 21.0,
        rainfall: 310.0,
    },
    City {
        name: "Buenos Aires",
        millions: 15.5,
        income: 17.0,
        january: 24.5,
        rainfall: 1200.0,
    },
    City {
        name: "São Paulo",
        millions: 22.6,
        income: 14.0,
        january: 22.5,
        rainfall: 1450.0,
    },
    City {
        name: "Istanbul",
        millions: 15.8,
        income: 15.0,
        january: 6.0,
        rainfall: 850.0,
    },
    City {
        name: "Mumbai",
        millions: 21.0,
        income: 5.0,
        january: 24.0,
        rainfall: 2200.0,
    },
    City {
        name: "Bangkok",
        millions: 11.0,
        income: 14.0,
        january: 27.0,
        rainfall: 1500.0,
    },
    City {
        name: "Singapore",
        millions: 5.9,
        income: 83.0,
        january: 26.5,
        rainfall: 2300.0,
    },
    City {
        name: "Amsterdam",
        millions: 1.2,
        income: 65.0,
        january: 3.5,
        rainfall: 840.0,
    },
    City {
        name: "Zurich",
        millions: 1.4,
        income: 100.0,
        january: 0.5,
        rainfall: 1100.0,
    },
    City {
        name: "Edinburgh",
        millions: 0.55,
        income: 46.0,
        january: 4.0,
        rainfall: 700.0,
    },
    City {
        name: "Reykjavik",
        millions: 0.24,
        income: 74.0,
        january: -0.5,
        rainfall: 850.0,
    },
    City {
        name: "Valletta",
        millions: 0.2,
        income: 34.0,
        january: 12.5,
        rainfall: 550.0,
    },
    City {
        name: "Porto",
        millions: 1.3,
        income: 24.0,
        january: 9.5,
        rainfall: 1250.0,
    },
    City {
        name: "Bergen",
        millions: 0.29,
        income: 100.0,
        january: 2.0,
        rainfall: 2250.0,
    },
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
    "Mohammed Saleh",
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
    let country = COUNTRIES.iter().find(|c| c.0 == name).map(|c| c.1);
    country.or_else(|| city(name).map(|c| c.millions))
}

/// The income (US$ thousand per person) of a real country or city.
pub fn income_thousands(name: &str) -> Option<f64> {
    let country = COUNTRIES.iter().find(|c| c.0 == name).map(|c| c.2);
    country.or_else(|| city(name).map(|c| c.income))
}

/// A real city in the list.
pub fn city(name: &str) -> Option<&'static City> {
    CITIES.iter().find(|c| c.name == name)
}

/// Whether a label is one of the built-in real names.
#[cfg(test)]
pub fn is_real(name: &str) -> bool {
    is_known(name) || PRODUCTS.iter().any(|(p, _, _)| *p == name)
}

/// Whether a label is a real country, city, company or person in the lists.
pub fn is_known(name: &str) -> bool {
    population_millions(name).is_some()
        || COMPANIES.iter().any(|(c, _)| *c == name)
        || PEOPLE.contains(&name)
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
