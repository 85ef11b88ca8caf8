#!/usr/bin/env python3
"""Rendering time per chart of every kind next to a line chart, side by side.

    python3 scripts/bench_kinds.py [--bin target/release/chartstress]
        [--rounds 7] [--size 800x600]

Each kind is drawn from the table its README thumbnail comes from (the
fixtures plus one synthesized table per on-request shape, picked by
`gallery --one-per-kind`). Every round renders, for each kind in turn, that
kind and then a line chart of `fixtures/cloud_revenue_billions.csv` at the
same size, each as a whole `chartstress render` process, so the two share
the machine's state. Prints the median wall time of each and their ratio.

Standard library only.
"""

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHAPES = ["waterfall", "error_bar", "samples", "change", "pair", "profile", "dual_axis"]
LINE_TABLE = ROOT / "fixtures" / "cloud_revenue_billions.csv"


def run(args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def timed(args):
    start = time.perf_counter()
    run(args)
    return time.perf_counter() - start


def tables_by_kind(binary, work):
    tables = work / "tables"
    for shape in SHAPES:
        run([binary, "synth", "--seed", "1", "--count", "1", "--kind", shape, "-o", tables])
    gallery = work / "gallery"
    run([binary, "gallery", "--one-per-kind", "--quiet", ROOT / "fixtures", tables, "-o", gallery])
    found = {}
    for image in sorted((gallery / "images").glob("*.png")):
        table, kind, _theme = image.stem.split("__")
        candidates = list((ROOT / "fixtures").glob(table + ".*")) + list(tables.glob(table + ".*"))
        data = [c for c in candidates if not c.name.endswith(".meta.json")]
        found[kind] = data[0]
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "chartstress"))
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--size", default="800x600")
    a = ap.parse_args()
    width, height = a.size.split("x")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        kinds = tables_by_kind(a.bin, work)
        out = work / "chart.png"
        size = ["--width", width, "--height", height]
        times = {k: ([], []) for k in kinds}
        for _ in range(a.rounds):
            for kind, table in kinds.items():
                times[kind][0].append(timed([a.bin, "render", table, "--kind", kind, "-o", out] + size))
                times[kind][1].append(timed([a.bin, "render", LINE_TABLE, "--kind", "line", "-o", out] + size))
        print(f"{'kind':<20} {'kind ms':>8} {'line ms':>8} {'ratio':>6}  table")
        for kind, (own, line) in times.items():
            k, l = statistics.median(own) * 1e3, statistics.median(line) * 1e3
            print(f"{kind:<20} {k:8.1f} {l:8.1f} {k / l:6.2f}  {kinds[kind].name}")


if __name__ == "__main__":
    main()
