#!/usr/bin/env python3
"""Independent audit of a suite's pairs, read from its files alone.

It does not use chartstress's code: it reads items.jsonl and charts.jsonl
(spec and scene of every chart) and checks what the validity model promises
of each original/modified pair:

  frame      a chart perturbation that is not about axes, layout or kind
             keeps the value-axis ticks, the categories and their order, the
             marks' values, the printed values (unless the change is data
             labels), the legend (unless the change is the legend) and the
             titles (unless the change is clutter), on single-panel charts;
  gold       a modified item has its original's gold unless it is declared
             `shifted` (another fact) or `format` (another answer form);
  swap       no kind swap between bar kinds on a one-series chart;
  direction  every modified item records its measured reading change, and
             one whose chart newly states the answer (a KPI tile, a note, the
             asked panel's annotation or value labels) is declared `easing`;
  names      no question on a one-series chart names its series by a name
             that the chart prints nowhere.

Usage: pair_audit.py SUITE [--json] [--examples N]
Exit code 1 when any check fails.
"""

import argparse
import collections
import json
import re
import sys
from pathlib import Path

PINNED_EXEMPT_AXES = {"axis", "chart_kind", "subplots", "dashboard", "data", "image"}
BAR_KINDS = {"bar", "grouped_bar", "stacked_bar", "percent_stacked_bar", "horizontal_bar"}


def load(suite):
    items = [json.loads(l) for l in open(suite / "items.jsonl", encoding="utf-8") if l.strip()]
    charts = {}
    for line in open(suite / "charts.jsonl", encoding="utf-8"):
        if line.strip():
            c = json.loads(line)
            charts[c["id"]] = c
    return items, charts


def change_of(item):
    order = ["stress", "easing", "format", "shifted"]
    best = "stress"
    for p in item.get("perturbations", []):
        c = p.get("change", "stress")
        if order.index(c) > order.index(best):
            best = c
    return best


def valued_ticks(ticks):
    return [(round(t["value"], 9), t["label"]) for t in ticks if t.get("value") is not None]


def value_axis(panel):
    y = valued_ticks(panel.get("y_ticks", []))
    x = valued_ticks(panel.get("x_ticks", []))
    right = valued_ticks((panel.get("dual_axis") or {}).get("right_ticks", []))
    return {"y": y, "x": x, "right": right}


def categories(panel):
    seen = []
    for m in panel.get("marks", []):
        c = m.get("category")
        if c is not None and c not in seen:
            seen.append(c)
    return seen


def printed_categories(panel):
    return [t["label"] for t in panel.get("x_ticks", []) + panel.get("y_ticks", []) if t.get("value") is None]


def mark_values(panel):
    return sorted((m["series"], str(m.get("category")), round(m["value"], 9)) for m in panel.get("marks", []))


def mark_labels(panel):
    out = []
    for m in panel.get("marks", []):
        lab = m.get("label")
        if lab:
            out.append((m["series"], str(m.get("category")), lab.get("text") if isinstance(lab, dict) else str(lab)))
    return sorted(out)


def text_of(box):
    return (box or {}).get("text")


def frame_diffs(a, b, axis):
    """What differs between two single-panel scenes beyond `axis`'s remit."""
    pa, pb = a["panels"][0], b["panels"][0]
    out = []
    if value_axis(pa) != value_axis(pb):
        out.append("value_ticks")
    if categories(pa) != categories(pb):
        out.append("categories")
    if axis != "font" and printed_categories(pa) != printed_categories(pb):
        out.append("category_labels")
    if mark_values(pa) != mark_values(pb):
        out.append("mark_values")
    if axis != "data_labels" and mark_labels(pa) != mark_labels(pb):
        out.append("printed_values")
    if axis != "legend" and [e["label"] for e in pa.get("legend", [])] != [e["label"] for e in pb.get("legend", [])]:
        out.append("legend")
    if axis != "clutter":
        for key in ("title", "x_label", "y_label"):
            if text_of(pa.get(key)) != text_of(pb.get(key)):
                out.append(key)
    return out


def strings_under(value, wanted):
    """Every string (or string in a list) at any depth whose key `wanted` accepts."""
    out = []
    if isinstance(value, dict):
        for k, x in value.items():
            if wanted(k) and isinstance(x, str):
                out.append(x)
            elif wanted(k) and isinstance(x, list) and all(isinstance(e, str) for e in x):
                out.extend(x)
            else:
                out.extend(strings_under(x, wanted))
    elif isinstance(value, list):
        for x in value:
            out.extend(strings_under(x, wanted))
    return out


def scene_texts(scene):
    return strings_under(scene, lambda k: k in ("text", "label"))


def panel_of(item):
    # The panel a query is about: the first `panel` field found in it.
    stack = [item["query"]]
    while stack:
        v = stack.pop(0)
        if isinstance(v, dict):
            if isinstance(v.get("panel"), int):
                return v["panel"]
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return 0


def stating_texts(scene, panel):
    """Text that states values beside the marks: KPI tiles, notes on the
    figure, the asked panel's annotation and value labels (not ticks, which
    a distractor panel may print by coincidence)."""
    out = []
    for k in scene.get("kpis", []):
        out += [k.get("label"), k.get("value"), k.get("delta")]
        out += [l.get("text") for l in k.get("lines", [])]
    out += [t.get("text") for t in scene.get("extra_text", [])]
    for p in scene["panels"]:
        if p.get("index", 0) != panel:
            continue
        ann = p.get("annotation") or {}
        out.append((ann.get("label") or {}).get("text"))
        out += [(m.get("label") or {}).get("text") for m in p.get("marks", [])]
    return [t for t in out if t]


def named_series(query):
    return set(strings_under(query, lambda k: "series" in k))


def contains_token(text, needle):
    if not needle:
        return False
    pattern = r"(?<![0-9A-Za-z])" + re.escape(needle) + r"(?![0-9A-Za-z])"
    return re.search(pattern, text) is not None


def audit(suite, examples):
    items, charts = load(suite)
    by_id = {i["id"]: i for i in items}
    fails = collections.defaultdict(list)
    counts = collections.Counter()
    for it in items:
        ch = charts.get(it["chart_id"])
        if ch is None:
            fails["missing_chart"].append(it["id"])
            continue
        scene = ch["scene"]
        # names
        if len(scene["panels"]) == 1 and it.get("answerable", True):
            panel = scene["panels"][0]
            drawn = {m["series"] for m in panel.get("marks", [])}
            if len(drawn) == 1:
                counts["one_series_items"] += 1
                texts = " \n ".join(scene_texts(scene))
                # A pie's slices draw shares of the whole, labelled or not.
                if panel["kind"] in ("pie", "donut"):
                    texts += " \n share"
                asked = " ".join(
                    [it["question"]] + [t["question"] for t in it.get("history", [])] + it.get("choices", [])
                ).lower()
                for s in named_series(it["query"]) & drawn:
                    if s and s.lower() in asked and s.lower() not in texts.lower():
                        fails["names_unprinted_series"].append(f"{it['id']}: {s!r}")
        origin = it.get("origin")
        if not origin or it["set"] not in ("modified_chart", "modified_question", "modified_both"):
            continue
        o = by_id.get(origin)
        if o is None:
            fails["missing_origin"].append(it["id"])
            continue
        counts[it["set"]] += 1
        change = change_of(it)
        # gold
        if change not in ("shifted", "format") and (it["answer"] != o["answer"]):
            fails["gold_changed"].append(f"{it['id']}: {o['answer_text']!r} -> {it['answer_text']!r}")
        # direction recorded
        if "reading_change" not in it:
            fails["no_reading_change"].append(it["id"])
        elif it["reading_change"] <= 0.9 and change not in ("easing", "shifted"):
            fails["reads_finer_not_easing"].append(f"{it['id']}: {it['reading_change']}")
        chart_perts = [p for p in it.get("perturbations", []) if p["axis"] not in QUESTION_AXES]
        if not chart_perts:
            continue
        oc = charts[o["chart_id"]]
        # swap
        for p in chart_perts:
            if p["name"].startswith("kind_swap"):
                base_kind, new_kind = o["chart_kind"], it["chart_kind"]
                drawn = {m["series"] for pn in oc["scene"]["panels"] for m in pn.get("marks", [])}
                if len(drawn) <= 1 and base_kind in BAR_KINDS and new_kind in BAR_KINDS:
                    fails["one_series_bar_swap"].append(f"{it['id']}: {base_kind} -> {new_kind}")
        # frame
        p = chart_perts[0]
        if (
            p["axis"] not in PINNED_EXEMPT_AXES
            and len(oc["scene"]["panels"]) == 1
            and len(scene["panels"]) == 1
        ):
            counts["frame_pairs"] += 1
            diffs = frame_diffs(oc["scene"], scene, p["axis"])
            if diffs:
                fails["frame_changed"].append(f"{it['id']} ({p['name']}): {', '.join(diffs)}")
        # printed answer → easing
        ans_type = it["answer"].get("type")
        if it.get("answerable", True) and ans_type in ("number", "text", "year", "choice"):
            # A choice is printed as its option's text, not its letter.
            ans = it["answer"].get("text") if ans_type == "choice" else it["answer_text"]
            gold = it["answer"].get("value") if ans_type == "number" else None

            def states(t):
                if gold is None:
                    return contains_token(t, ans)
                # A number is stated however it is printed ("1,304,887,562").
                found = [w.strip(".,").replace(",", "") for w in re.findall(r"[0-9][0-9.,]*", t)]
                return any(abs(float(w) - gold) <= 1e-9 * max(abs(gold), 1) for w in found if w.replace(".", "", 1).isdigit())

            before = any(states(t) for t in stating_texts(oc["scene"], panel_of(o)) if t)
            after = any(states(t) for t in stating_texts(scene, panel_of(it)) if t)
            if after and not before and change not in ("easing", "shifted"):
                fails["prints_answer_not_easing"].append(f"{it['id']} ({p['name']}): {ans!r}")
    report = {
        "items": len(items),
        "counts": dict(counts),
        "failures": {k: len(v) for k, v in sorted(fails.items())},
        "examples": {k: v[:examples] for k, v in sorted(fails.items())},
    }
    return report


QUESTION_AXES = {
    "lexical",
    "syntactic",
    "register",
    "visual_reference",
    "distractor_context",
    "noisy_text",
    "format_shift",
    "unanswerable",
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("suite", type=Path)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--examples", type=int, default=5)
    args = ap.parse_args()
    report = audit(args.suite, args.examples)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"{report['items']} items; {report['counts']}")
        for k, n in report["failures"].items():
            print(f"{k}: {n}")
            for e in report["examples"][k]:
                print(f"    {e}")
        if not report["failures"]:
            print("every check holds")
    sys.exit(1 if report["failures"] else 0)


if __name__ == "__main__":
    main()
