#!/usr/bin/env python3
"""Baseline for scripts/bench_vs_matplotlib.py: render every CSV table in a
folder with plain matplotlib (Agg), one 800x600 PNG per table.

    python bench_matplotlib_render.py TABLE_DIR OUT_DIR --kind bar|line

One process renders all tables in a loop, so matplotlib's import cost is paid
once, as chartstress pays its own start-up once per `gallery` run. Titles and
axis labels come from the NAME.meta.json sidecar when there is one (the same
file chartstress reads), so both tools draw the same texts.
"""

import argparse
import csv
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

WIDTH_IN, HEIGHT_IN, DPI = 8, 6, 100


def read_table(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def read_meta(path):
    sidecar = path.with_suffix(".meta.json")
    if sidecar.exists():
        return json.loads(sidecar.read_text(encoding="utf-8"))
    return {}


def draw_bar(ax, header, rows, meta):
    labels = [r[0] for r in rows]
    values = [float(r[1]) for r in rows]
    ax.bar(labels, values, color="tab:blue")
    ax.set_xlabel(meta.get("x_label", header[0]))
    ax.set_ylabel(meta.get("y_label", header[1]))


def draw_line(ax, header, rows, meta):
    x = [int(r[0]) for r in rows]
    for col, name in enumerate(header[1:], start=1):
        ax.plot(x, [float(r[col]) for r in rows], marker="o", label=name)
    # One tick per period, as chartstress prints evenly spaced times.
    ax.set_xticks(x)
    ax.set_xlabel(meta.get("x_label", header[0]))
    ax.set_ylabel(meta.get("y_label", ""))
    ax.legend(loc="upper right")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("table_dir", type=Path)
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--kind", choices=["bar", "line"], required=True)
    args = ap.parse_args()

    draw = draw_bar if args.kind == "bar" else draw_line
    args.out_dir.mkdir(parents=True, exist_ok=True)
    tables = sorted(args.table_dir.glob("*.csv"))
    for path in tables:
        header, rows = read_table(path)
        meta = read_meta(path)
        fig, ax = plt.subplots(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI)
        draw(ax, header, rows, meta)
        ax.set_title(meta.get("title", path.stem))
        fig.savefig(args.out_dir / f"{path.stem}.png", dpi=DPI)
        plt.close(fig)
    print(f"{len(tables)} charts: {args.out_dir}")


if __name__ == "__main__":
    main()
