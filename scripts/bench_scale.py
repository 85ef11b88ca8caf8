#!/usr/bin/env python3
"""Whole-process figures at scale: a 10,000-item suite and a 100,000-item
report, each timed as the user runs it, with its own peak memory.

    python3 scripts/bench_scale.py [--rounds 3] [--threads 2]
        [--binary target/release/chartstress] [--skip-suite] [--skip-report]

1. Suite: `chartstress synth --seed 1 --count 417` tables, then `chartstress
   generate TABLES --out SUITE --threads T` (default config: about 10,000
   items), R rounds.
2. Report: that suite inflated ten times (each item, chart and origin id
   copied under ten suffixes: 100,000 items of the same shapes) with three
   runs of predictions (right on a seeded 60-80 % of items), then
   `chartstress report SUITE`, R rounds.

Each process is timed with perf_counter around it and its peak resident
memory read from wait4. Everything is written under target/bench-scale/.
Uses the standard library only.
"""

import argparse
import datetime
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WORK = REPO / "target" / "bench-scale"


def timed(cmd, env=None):
    """(wall seconds, peak RSS in MB) of one whole process; fails loudly."""
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # wait4 reports this child's own peak memory; stderr is small (drained after).
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    err = proc.stderr.read().decode(errors="replace")
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"{' '.join(map(str, cmd))} exited {code}:\n{err[-2000:]}")
    return wall, usage.ru_maxrss / 1024


def summary(label, figures):
    walls = [w for w, _ in figures]
    peaks = [p for _, p in figures]
    print(
        f"  {label}: median {statistics.median(walls):.1f} s "
        f"(min {min(walls):.1f}, max {max(walls):.1f}; "
        f"{', '.join(f'{w:.1f}' for w in walls)}), peak RSS {max(peaks):.0f} MB"
    )
    return {"label": label, "walls": walls, "peaks_mb": peaks}


def bench_suite(binary, rounds, threads):
    tables = WORK / "tables"
    if not tables.exists():
        subprocess.run(
            [binary, "synth", "--seed", "1", "--count", "417", "-o", tables],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    suite = WORK / "suite"
    figures = []
    for k in range(rounds):
        shutil.rmtree(suite, ignore_errors=True)
        figures.append(
            timed([binary, "generate", tables, "--out", suite, "--threads", str(threads), "--quiet"])
        )
        print(f"  generate round {k + 1}: {figures[-1][0]:.1f} s")
    items = sum(1 for _ in open(suite / "items.jsonl", encoding="utf-8"))
    print(f"suite: {items} items from 417 tables")
    return suite, items, summary(f"generate ({threads} threads)", figures)


def inflate(suite, copies, runs):
    """A suite of `copies` renamed copies of every item, with `runs` runs."""
    big = WORK / "suite-100k"
    shutil.rmtree(big, ignore_errors=True)
    (big / "runs").mkdir(parents=True)
    items = [json.loads(line) for line in open(suite / "items.jsonl", encoding="utf-8")]
    rename = lambda value, k: None if value is None else f"{value}~{k}"
    with open(big / "items.jsonl", "w", encoding="utf-8") as out:
        for k in range(copies):
            for item in items:
                copy = dict(item)
                copy["id"] = rename(item["id"], k)
                copy["origin"] = rename(item.get("origin"), k)
                copy["chart_id"] = rename(item["chart_id"], k)
                out.write(json.dumps(copy) + "\n")
    shutil.copy(suite / "suite.json", big / "suite.json")
    for r in range(runs):
        rng = random.Random(r)
        skill = 0.6 + 0.1 * r
        run = big / "runs" / f"model{r}"
        run.mkdir()
        with open(run / "predictions.jsonl", "w", encoding="utf-8") as out:
            for k in range(copies):
                for item in items:
                    answer = item["answer_text"] if rng.random() < skill else "wrong"
                    out.write(json.dumps({
                        "id": rename(item["id"], k), "raw": answer, "answer": answer,
                        "latency_ms": 1.0, "attempts": 1, "cached": False,
                    }) + "\n")
        (run / "run.json").write_text(json.dumps({"name": f"model{r}", "adapter": "synthetic"}))
    return big, len(items) * copies


def bench_report(binary, suite, rounds):
    figures = []
    for k in range(rounds):
        shutil.rmtree(suite / "report", ignore_errors=True)
        figures.append(timed([binary, "report", suite]))
        print(f"  report round {k + 1}: {figures[-1][0]:.1f} s")
    return summary("report (3 runs)", figures)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", type=Path, default=REPO / "target" / "release" / "chartstress")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--skip-suite", action="store_true", help="reuse the suite of an earlier run")
    ap.add_argument("--skip-report", action="store_true")
    args = ap.parse_args()
    WORK.mkdir(parents=True, exist_ok=True)
    version = subprocess.run([args.binary, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"date: {datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds')}")
    print(f"{version}; {os.cpu_count()} CPUs; load average before: {os.getloadavg()}")
    suite = WORK / "suite"
    if args.skip_suite:
        items = sum(1 for _ in open(suite / "items.jsonl", encoding="utf-8"))
    else:
        suite, items, _ = bench_suite(args.binary, args.rounds, args.threads)
    if not args.skip_report:
        big, n = inflate(suite, copies=10, runs=3)
        print(f"report suite: {n} items, 3 runs")
        bench_report(args.binary, big, args.rounds)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
