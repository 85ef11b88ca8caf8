#!/usr/bin/env python3
"""Whole-process benchmark: `chartstress gallery` against a plain matplotlib
script (scripts/bench_matplotlib_render.py) rendering the same tables.

    python3 scripts/bench_vs_matplotlib.py [--tables 200] [--rounds 3]
        [--kinds bar,line] [--binary target/release/chartstress]
        [--venv target/bench-venv] [--json PATH]

Steps:
  1. Create (or reuse) a virtual environment and `pip install matplotlib`.
  2. Write N seeded tables per kind as CSV + NAME.meta.json sidecar under
     target/bench/tables-KIND (bar: 6 categories x 1 series; line: 12 years
     x 3 series in tonnes). The sidecar gives both tools the same title and
     axis labels.
  3. One untimed warm-up run of each tool per kind (matplotlib builds its
     font cache on first use; both get their files into the page cache).
  4. R rounds, interleaved per kind: chartstress, matplotlib, chartstress,
     matplotlib ... Each run is a whole process timed with perf_counter around
     subprocess.run; output folders are wiped before every run (untimed) and
     the PNGs are counted after it.

Both sides run single-threaded: chartstress with RAYON_NUM_THREADS=1
(`gallery` has no thread option), matplotlib with OMP_NUM_THREADS=1 and
MPLBACKEND=Agg. Only target/ is written to. Uses the standard library only.
"""

import argparse
import datetime
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BASELINE = REPO / "scripts" / "bench_matplotlib_render.py"
WORK = REPO / "target" / "bench"

REGIONS = [
    "North", "South", "East", "West", "Central", "Coastal", "Highlands",
    "Lowlands", "Islands", "Metro", "Riverside", "Valley",
]
LINE_SERIES = ["North", "South", "East"]


# --- environment ----------------------------------------------------------

def venv_python(venv):
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_matplotlib(venv):
    """Create the venv and install matplotlib unless it is already there."""
    py = venv_python(venv)
    if not py.exists():
        print(f"creating virtual environment {venv}", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    probe = [str(py), "-c", "import matplotlib; print(matplotlib.__version__)"]
    found = subprocess.run(probe, capture_output=True, text=True)
    if found.returncode != 0:
        print("installing matplotlib into the venv", flush=True)
        # cwd outside the repo tree so pip leaves nothing behind in it.
        subprocess.run(
            [str(py), "-m", "pip", "install", "--disable-pip-version-check",
             "matplotlib"],
            check=True, cwd=venv,
        )
        found = subprocess.run(probe, capture_output=True, text=True, check=True)
    return py, found.stdout.strip()


def chartstress_version(binary):
    out = subprocess.run([str(binary), "--version"], capture_output=True,
                         text=True, check=True)
    return out.stdout.strip()


# --- tables ---------------------------------------------------------------

def write_table(folder, stem, header, rows, meta):
    lines = [",".join(header)] + [",".join(map(str, r)) for r in rows]
    (folder / f"{stem}.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / f"{stem}.meta.json").write_text(json.dumps(meta, indent=1) + "\n",
                                              encoding="utf-8")


def write_bar_tables(folder, n):
    for k in range(n):
        rng = random.Random(k)
        regions = rng.sample(REGIONS, 6)
        rows = [(r, f"{rng.uniform(5, 120):.1f}") for r in regions]
        write_table(folder, f"sales_{k:04d}", ["Region", "Sales (USD m)"], rows, {
            "title": f"Sales By Region, Set {k + 1}",
            "x_label": "Region",
            "y_label": "Sales (USD m)",
        })


def write_line_tables(folder, n):
    for k in range(n):
        rng = random.Random(k)
        start = rng.randint(1990, 2012)
        level = [rng.uniform(60, 200) for _ in LINE_SERIES]
        rows = []
        for year in range(start, start + 12):
            level = [max(1.0, v * rng.uniform(0.9, 1.12)) for v in level]
            rows.append([year] + [f"{v:.1f}" for v in level])
        header = ["Year"] + [f"{s} (t)" for s in LINE_SERIES]
        write_table(folder, f"harvest_{k:04d}", header, rows, {
            "title": f"Grain Harvest By Region, Set {k + 1}",
            "x_label": "Year",
            "y_label": "Harvest (t)",
        })


WRITERS = {"bar": write_bar_tables, "line": write_line_tables}


def fresh_dir(path):
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    return path


# --- runs -----------------------------------------------------------------

def timed(cmd, env):
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"FAILED (exit {proc.returncode}): {' '.join(map(str, cmd))}\n"
                 f"stdout:\n{proc.stdout[-2000:]}\nstderr:\n{proc.stderr[-2000:]}")
    return elapsed


def run_product(binary, tables, out, kind, n, env):
    if out.exists():
        shutil.rmtree(out)
    cmd = [str(binary), "gallery", str(tables), "-o", str(out),
           "--themes", "classic", "--kinds", kind, "--quiet"]
    elapsed = timed(cmd, env)
    # gallery also writes contact_sheet.png and index.html next to images/.
    count = len(list((out / "images").glob("*.png")))
    if count < n:
        sys.exit(f"FAILED: chartstress wrote {count} {kind} PNGs, expected >= {n} "
                 f"(is {kind!r} a suitable kind for these tables?)")
    return elapsed


def run_baseline(python, tables, out, kind, n, env):
    if out.exists():
        shutil.rmtree(out)
    cmd = [str(python), str(BASELINE), str(tables), str(out), "--kind", kind]
    elapsed = timed(cmd, env)
    count = len(list(out.glob("*.png")))
    if count != n:
        sys.exit(f"FAILED: matplotlib wrote {count} {kind} PNGs, expected {n}")
    return elapsed


def summary(samples, n):
    med = statistics.median(samples)
    return {"median_s": med, "min_s": min(samples), "max_s": max(samples),
            "charts_per_s": n / med, "samples_s": samples}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=200, help="tables per kind")
    ap.add_argument("--rounds", type=int, default=3, help="timed runs of each tool")
    ap.add_argument("--kinds", default="bar,line", help="comma-separated: bar,line")
    ap.add_argument("--binary", type=Path,
                    default=REPO / "target" / "release" / "chartstress")
    ap.add_argument("--venv", type=Path, default=REPO / "target" / "bench-venv")
    ap.add_argument("--json", type=Path, help="also write the figures as JSON")
    args = ap.parse_args()

    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in WRITERS]
    if unknown or not kinds:
        ap.error(f"--kinds takes bar and/or line, got {args.kinds!r}")
    if args.tables < 1 or args.rounds < 1:
        ap.error("--tables and --rounds must be at least 1")
    binary = args.binary.resolve()
    if not binary.is_file():
        sys.exit(f"no chartstress binary at {binary} (cargo build --release)")

    python, mpl_version = ensure_matplotlib(args.venv.resolve())
    cs_version = chartstress_version(binary)
    n = args.tables

    base_env = {k: v for k, v in os.environ.items()
                if k not in ("RAYON_NUM_THREADS", "OMP_NUM_THREADS", "MPLBACKEND")}
    product_env = dict(base_env, RAYON_NUM_THREADS="1")
    baseline_env = dict(base_env, MPLBACKEND="Agg", OMP_NUM_THREADS="1",
                        # Font cache inside target/, so reruns reuse it.
                        MPLCONFIGDIR=str(WORK / "mplconfig"))

    dirs = {}
    for kind in kinds:
        tables = fresh_dir(WORK / f"tables-{kind}")
        WRITERS[kind](tables, n)
        dirs[kind] = (tables, WORK / f"out-chartstress-{kind}",
                      WORK / f"out-matplotlib-{kind}")

    print("warm-up (untimed)", flush=True)
    for kind in kinds:
        tables, out_p, out_b = dirs[kind]
        run_product(binary, tables, out_p, kind, n, product_env)
        run_baseline(python, tables, out_b, kind, n, baseline_env)

    load_before = os.getloadavg()
    times = {k: {"chartstress": [], "matplotlib": []} for k in kinds}
    for r in range(args.rounds):
        for kind in kinds:
            tables, out_p, out_b = dirs[kind]
            t_p = run_product(binary, tables, out_p, kind, n, product_env)
            t_b = run_baseline(python, tables, out_b, kind, n, baseline_env)
            times[kind]["chartstress"].append(t_p)
            times[kind]["matplotlib"].append(t_b)
            print(f"round {r + 1}/{args.rounds} {kind}: chartstress {t_p:.3f} s, "
                  f"matplotlib {t_b:.3f} s", flush=True)
    load_after = os.getloadavg()

    result = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "chartstress_version": cs_version,
        "matplotlib_version": mpl_version,
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
        "loadavg_before": list(load_before),
        "loadavg_after": list(load_after),
        "tables_per_kind": n,
        "rounds": args.rounds,
        "kinds": {},
    }
    for kind in kinds:
        p = summary(times[kind]["chartstress"], n)
        b = summary(times[kind]["matplotlib"], n)
        result["kinds"][kind] = {"chartstress": p, "matplotlib": b,
                                 "ratio_matplotlib_over_chartstress":
                                     b["median_s"] / p["median_s"]}

    def fmt_load(load):
        return " ".join(f"{x:.2f}" for x in load)

    print()
    print(f"date: {result['date']}")
    print(f"{cs_version}; matplotlib {mpl_version} (Python {result['python']}); "
          f"{result['cpu_count']} CPUs")
    print(f"load average before: {fmt_load(load_before)}; after: {fmt_load(load_after)}")
    print(f"{n} tables per kind, {args.rounds} rounds, whole processes, one thread each")
    for kind in kinds:
        k = result["kinds"][kind]
        print()
        print(f"kind {kind}")
        print(f"  {'tool':<12} {'median s':>9} {'min s':>8} {'max s':>8} {'charts/s':>9}")
        for tool in ("chartstress", "matplotlib"):
            s = k[tool]
            print(f"  {tool:<12} {s['median_s']:>9.3f} {s['min_s']:>8.3f} "
                  f"{s['max_s']:>8.3f} {s['charts_per_s']:>9.1f}")
        print(f"  ratio matplotlib/chartstress (median): "
              f"{k['ratio_matplotlib_over_chartstress']:.2f}x")

    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        print(f"\nJSON: {args.json}")


if __name__ == "__main__":
    main()
