#!/usr/bin/env python3
"""Builds tests/data/chartqa/test/: a small benchmark in ChartQA's layout
(png/, tables/, annotations/, test_human.json, test_augmented.json) for the
tests of `chartstress import-benchmark chartqa`.

The tables are slices of real tables of tests/data/real (see PROVENANCE.md
there); the pictures are drawn with matplotlib, another plotting library
than chartstress's, with values printed as ChartQA's Statista and Pew charts
print them; the questions are written here in the benchmark's manner, and
their labels are computed from the sliced tables. Some questions refer to a
colour, a position or a title the table does not hold, as many of
ChartQA's human questions do.

    python3 -m pip install matplotlib
    python3 scripts/make_chartqa_sample.py

Re-running it rewrites the folder (pictures may differ by matplotlib
version; the tables and questions do not).
"""

import csv
import json
import shutil
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "tests" / "data" / "real"
OUT = ROOT / "tests" / "data" / "chartqa" / "test"


def read(name):
    with open(REAL / f"{name}.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def num(s):
    return float(s) if s not in ("", None) else None


def fmt(v):
    return f"{v:g}" if abs(v) < 1e6 else f"{v:.0f}"


def write_table(name, header, rows):
    with open(OUT / "tables" / f"{name}.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for r in rows:
            w.writerow([r[0]] + [fmt(v) for v in r[1:]])


def annotate(name, kind, title):
    info = {"type": kind, "general_figure_info": {"title": {"text": title}}}
    with open(OUT / "annotations" / f"{name}.json", "w", encoding="utf-8") as f:
        json.dump(info, f, indent=1)


def save(fig, name):
    fig.tight_layout()
    fig.savefig(OUT / "png" / f"{name}.png", dpi=80)
    plt.close(fig)


def bars(name, title, header, rows, horizontal=False):
    labels = [r[0] for r in rows]
    series = header[1:]
    fig, ax = plt.subplots(figsize=(6, 4.5))
    width = 0.8 / len(series)
    colors = ["#1f4e9c", "#e8a33d", "#3a9a5b", "#c0392b"]
    for s, col in enumerate(series):
        values = [r[1 + s] for r in rows]
        pos = [i - 0.4 + width * (s + 0.5) for i in range(len(labels))]
        if horizontal:
            b = ax.barh(pos, values, height=width, color=colors[s], label=col)
        else:
            b = ax.bar(pos, values, width=width, color=colors[s], label=col)
        ax.bar_label(b, labels=[fmt(v) for v in values], fontsize=7, padding=2)
    ticks = range(len(labels))
    if horizontal:
        ax.set_yticks(list(ticks), labels)
        ax.invert_yaxis()
    else:
        ax.set_xticks(list(ticks), labels)
    if len(series) > 1:
        ax.legend(fontsize=8, frameon=False)
    ax.set_title(title, fontsize=10)
    ax.spines[["top", "right"]].set_visible(False)
    save(fig, name)


def lines(name, title, header, rows, styles=None):
    labels = [r[0] for r in rows]
    fig, ax = plt.subplots(figsize=(6, 4.5))
    for s, col in enumerate(header[1:]):
        values = [r[1 + s] for r in rows]
        style = (styles or {}).get(col, "-")
        ax.plot(labels, values, style, marker="o", label=col)
        for x, v in zip(labels, values):
            ax.annotate(fmt(v), (x, v), textcoords="offset points", xytext=(0, 5),
                        ha="center", fontsize=7)
    if len(header) > 2:
        ax.legend(fontsize=8, frameon=False)
    ax.set_title(title, fontsize=10)
    ax.spines[["top", "right"]].set_visible(False)
    save(fig, name)


def pie(name, title, rows):
    fig, ax = plt.subplots(figsize=(5, 4.5))
    values = [r[1] for r in rows]
    ax.pie(values, labels=[r[0] for r in rows], autopct=lambda p: f"{p:.1f}%",
           colors=["#1f4e9c", "#6fa8dc", "#e8a33d", "#c0392b"], textprops={"fontsize": 8})
    ax.set_title(title, fontsize=10)
    save(fig, name)


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    for sub in ["png", "tables", "annotations"]:
        (OUT / sub).mkdir(parents=True)
    human, augmented = [], []

    def ask(store, name, query, label):
        store.append({"imgname": f"{name}.png", "query": query, "label": str(label)})

    # 1. Mauna Loa CO2, 2009-2018: one line.
    header, rows = read("co2_annual_mean_mauna_loa")
    co2 = [[r[0], num(r[1])] for r in rows if 2009 <= int(r[0]) <= 2018]
    name = "two_col_co2"
    write_table(name, ["Year", "CO2 concentration in ppm"], co2)
    title = "Annual mean CO2 at Mauna Loa Observatory"
    lines(name, title, ["Year", "CO2 concentration in ppm"], co2)
    annotate(name, "line", title)
    v = dict(co2)
    ask(human, name, "What was the CO2 concentration in 2015?", fmt(v["2015"]))
    ask(human, name, "In which year was the CO2 concentration the highest?", "2018")
    ask(human, name, "What is the difference between the CO2 levels of 2018 and 2010?",
        f"{v['2018'] - v['2010']:.2f}")
    ask(human, name, "What is the value of the blue line in 2012?", fmt(v["2012"]))
    ask(augmented, name, "What was the CO2 concentration in 2011?", fmt(v["2011"]))
    ask(augmented, name, "According to the Mauna Loa record, what was the level in 2017?",
        fmt(v["2017"]))

    # 2. Disaster deaths by type in 2010: horizontal bars.
    header, rows = read("disaster_deaths_by_type")
    row = next(r for r in rows if r[0] == "2010")
    deaths = [[t, num(x)] for t, x in zip(header[1:], row[1:]) if num(x)]
    deaths.sort(key=lambda r: -r[1])
    name = "two_col_disasters"
    write_table(name, ["Disaster type", "Number of deaths"], deaths)
    title = "Deaths from natural disasters worldwide in 2010, by type"
    bars(name, title, ["Disaster type", "Number of deaths"], deaths, horizontal=True)
    annotate(name, "h_bar", title)
    d = dict(deaths)
    ask(human, name, "How many people died in floods?", fmt(d["Flood"]))
    ask(human, name, "Which disaster type caused the most deaths?", deaths[0][0])
    ask(human, name, "Is the number of deaths from extreme temperature greater than from floods?",
        "Yes" if d["Extreme temperature"] > d["Flood"] else "No")
    ask(human, name, "What is the value of the top bar?", fmt(deaths[0][1]))
    ask(augmented, name, "How many deaths did landslides cause?", fmt(d["Landslide"]))

    # 3. Iowa electricity by source, 2013-2017: grouped bars.
    header, rows = read("iowa_electricity_by_source")
    iowa = [[r[0]] + [num(x) for x in r[1:]] for r in rows if 2013 <= int(r[0]) <= 2017]
    name = "multi_col_iowa"
    write_table(name, header, iowa)
    title = "Net electricity generation in Iowa by source (GWh)"
    bars(name, title, header, iowa)
    annotate(name, "v_bar", title)
    by = {r[0]: dict(zip(header[1:], r[1:])) for r in iowa}
    ask(human, name, "How much electricity came from renewables in 2016?",
        fmt(by["2016"]["Renewables"]))
    ask(human, name, "What is the sum of nuclear energy in 2014 and 2015?",
        fmt(by["2014"]["Nuclear Energy"] + by["2015"]["Nuclear Energy"]))
    ask(human, name, "Which source is shown in green?", "Renewables")
    ask(augmented, name, "What was the generation from fossil fuels in 2013?",
        fmt(by["2013"]["Fossil Fuels"]))
    ask(augmented, name, "In which year were renewables the highest?",
        max(iowa, key=lambda r: r[3])[0])

    # 4. Fertility rate of three countries, every five years: lines.
    header, rows = read("fertility_rate_six_countries")
    keep = ["China", "India", "Japan"]
    idx = [header.index(c) for c in keep]
    fert = [[r[0]] + [round(num(r[i]), 2) for i in idx] for r in rows
            if int(r[0]) % 5 == 0 and 1990 <= int(r[0]) <= 2010]
    name = "multi_col_fertility"
    write_table(name, ["Year"] + keep, fert)
    title = "Fertility rate (births per woman)"
    lines(name, title, ["Year"] + keep, fert, styles={"Japan": "--"})
    annotate(name, "line", title)
    f = {r[0]: dict(zip(keep, r[1:])) for r in fert}
    ask(human, name, "What was India's fertility rate in 2000?", fmt(f["2000"]["India"]))
    ask(human, name, "Which country had the lowest fertility rate in 2010?",
        min(keep, key=lambda c: f["2010"][c]))
    ask(human, name, "What is the average fertility rate of Japan across all years?",
        f"{sum(r[3] for r in fert) / len(fert):.2f}")
    ask(human, name, "What is the value of the dashed line in 1995?", fmt(f["1995"]["Japan"]))
    ask(augmented, name, "What was China's fertility rate in 1990?", fmt(f["1990"]["China"]))

    # 5. Household income in Alabama, 2013, four brackets: a pie.
    header, rows = read("household_income_brackets_2013")
    al = dict(zip(header[1:], map(num, next(r for r in rows if r[0] == "Alabama")[1:])))
    groups = [
        ("Under $25,000", ["<10000", "10000 to 14999", "15000 to 24999"]),
        ("$25,000 to $49,999", ["25000 to 34999", "35000 to 49999"]),
        ("$50,000 to $99,999", ["50000 to 74999", "75000 to 99999"]),
        ("$100,000 and more", ["100000 to 149999", "150000 to 199999", "200000+"]),
    ]
    income = [[g, round(100 * sum(al[c] for c in cols), 1)] for g, cols in groups]
    name = "two_col_income"
    write_table(name, ["Household income", "Share of households"], income)
    title = "Household income in Alabama, 2013"
    pie(name, title, income)
    annotate(name, "pie", title)
    inc = dict(income)
    ask(human, name, "What percentage of households earn under $25,000?",
        fmt(inc["Under $25,000"]))
    ask(human, name, "Which income bracket has the largest share?",
        max(income, key=lambda r: r[1])[0])
    ask(human, name, "What is the share of the light blue segment?",
        fmt(inc["$25,000 to $49,999"]))
    ask(augmented, name, "What share of households earn $100,000 and more?",
        fmt(inc["$100,000 and more"]))

    with open(OUT / "test_human.json", "w", encoding="utf-8") as fh:
        json.dump(human, fh, indent=1)
    with open(OUT / "test_augmented.json", "w", encoding="utf-8") as fh:
        json.dump(augmented, fh, indent=1)
    print(f"{OUT.relative_to(ROOT)}: {len(human)} human, {len(augmented)} augmented questions")


if __name__ == "__main__":
    main()
