#!/usr/bin/env python3
"""Severity cut points from a reference suite's measured visual distances.

For every chart axis, the quintiles (20/40/60/80th percentiles) of the
`visual_distance` of its modified-chart and modified-both items become the
distances at which severities 2..5 start; the block between the GENERATED
markers of src/perturb/calibration.rs is rewritten. Also prints, per
perturbation, the median distance at each ladder level (`params.level`) and
the rank correlation of level and distance, to see which ladders follow the
picture.

    chartstress synth --seed 11 --count 60 -o target/calib/tables
    chartstress generate target/calib/tables -o target/calib/suite \
        --sets original,modified_chart,modified_both
    scripts/calibrate_severity.py target/calib/suite [--write]
"""
import collections
import json
import pathlib
import statistics
import sys


def quantile(sorted_values, q):
    # Linear interpolation between closest ranks (as numpy's default).
    pos = q * (len(sorted_values) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2
        i = j + 1
    return out


def spearman(xs, ys):
    if len(set(xs)) < 2 or len(set(ys)) < 2:
        return float("nan")
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.mean(rx), statistics.mean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx) ** 0.5
    vy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (vx * vy)


def main():
    suite = pathlib.Path(sys.argv[1])
    write = "--write" in sys.argv[2:]
    by_axis = collections.defaultdict(list)
    by_name = collections.defaultdict(list)
    with open(suite / "items.jsonl") as f:
        for line in f:
            item = json.loads(line)
            if item["set"] not in ("modified_chart", "modified_both"):
                continue
            d = item.get("visual_distance")
            if d is None:
                continue
            p = item["perturbations"][0]
            by_axis[p["axis"]].append(d)
            by_name[p["name"]].append((p.get("params", {}).get("level", p["severity"]), d))
    rows = []
    for axis in sorted(by_axis):
        v = sorted(by_axis[axis])
        cuts = [round(quantile(v, q), 4) for q in (0.2, 0.4, 0.6, 0.8)]
        # Cuts must increase strictly for the bands to exist.
        for i in range(1, 4):
            if cuts[i] <= cuts[i - 1]:
                cuts[i] = round(cuts[i - 1] + 0.0001, 4)
        rows.append(f'    ("{axis}", [{", ".join(repr(c) for c in cuts)}]),')
        print(f"{axis:12s} n={len(v):4d} cuts={cuts}")
    print()
    for name in sorted(by_name):
        pairs = by_name[name]
        levels = collections.defaultdict(list)
        for lvl, d in pairs:
            levels[lvl].append(d)
        meds = " ".join(
            f"{lvl}:{statistics.median(levels[lvl]):.3f}({len(levels[lvl])})"
            for lvl in sorted(levels)
        )
        rho = spearman([p[0] for p in pairs], [p[1] for p in pairs])
        print(f"{name:18s} rho={rho:+.2f}  {meds}")
    if write:
        path = pathlib.Path(__file__).resolve().parent.parent / "src/perturb/calibration.rs"
        text = path.read_text()
        begin = text.index("    // BEGIN GENERATED CUTS\n") + len("    // BEGIN GENERATED CUTS\n")
        end = text.index("    // END GENERATED CUTS")
        path.write_text(text[:begin] + "\n".join(rows) + "\n" + text[end:])
        print(f"\nwrote {path}")


if __name__ == "__main__":
    main()
