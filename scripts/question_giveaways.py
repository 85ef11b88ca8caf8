#!/usr/bin/env python3
"""What a reader who never sees the chart can learn from a suite's text.

    python3 scripts/question_giveaways.py SUITE_DIR [--json]

Reads SUITE_DIR/items.jsonl only (questions, options, golds, `answerable`,
`origin`) and reports, independently of chartstress's code:

- unanswerable: AUC of a text-only classifier (multinomial naive Bayes over
  word unigrams and bigrams and character 3-grams of the question, with its
  conversation turns and options) separating unanswerable from answerable
  items, 5 folds grouped by original so twins never straddle train and test;
  overall, on originals, and per realizer the unanswerable share;
- multiple choice: how often each text-only rule picks the gold among
  numeric options (closest to the options' mean, the median, the roundest,
  the longest, the largest, the smallest) and the gold's rank;
- true/false: the share of true claims per family (families with >= 8).

Standard library only.
"""

import argparse
import collections
import json
import math
import re
import sys
from pathlib import Path

WORD = re.compile(r"[a-z0-9]+")


def text_of(item):
    parts = [t["question"] for t in item.get("history", [])]
    parts.append(item["question"])
    parts.extend(item.get("choices", []))
    return " ".join(parts).lower()


def features(text):
    words = WORD.findall(text)
    feats = collections.Counter(words)
    feats.update(f"{a}_{b}" for a, b in zip(words, words[1:]))
    padded = f" {text} "
    feats.update("#" + padded[i:i + 3] for i in range(len(padded) - 2))
    return feats


def auc(scores, labels):
    pairs = sorted(zip(scores, labels))
    ranks = [0.0] * len(pairs)
    i = 0
    while i < len(pairs):
        j = i
        while j + 1 < len(pairs) and pairs[j + 1][0] == pairs[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        i = j + 1
    pos = sum(1 for _, l in pairs if l)
    neg = len(pairs) - pos
    if pos == 0 or neg == 0:
        return float("nan")
    rank_sum = sum(r for r, (_, l) in zip(ranks, pairs) if l)
    return (rank_sum - pos * (pos + 1) / 2) / (pos * neg)


def group_of(item):
    return item.get("origin") or item["id"]


def fold_of(group, folds):
    # Stable across runs and Python versions: a sum of code points.
    return sum(map(ord, group)) * 2654435761 % 2**32 % folds


def nb_scores(items, folds=5):
    feats = [features(text_of(i)) for i in items]
    labels = [not i["answerable"] for i in items]
    scores = [0.0] * len(items)
    for f in range(folds):
        train = [k for k, i in enumerate(items) if fold_of(group_of(i), folds) != f]
        test = [k for k, i in enumerate(items) if fold_of(group_of(i), folds) == f]
        counts = [collections.Counter(), collections.Counter()]
        docs = [0, 0]
        for k in train:
            counts[labels[k]].update(feats[k])
            docs[labels[k]] += 1
        if min(docs) == 0:
            continue
        vocab = set(counts[0]) | set(counts[1])
        totals = [sum(c.values()) + len(vocab) for c in counts]
        prior = math.log(docs[1] / docs[0])
        for k in test:
            s = prior
            for w, n in feats[k].items():
                if w in vocab:
                    s += n * (math.log((counts[1][w] + 1) / totals[1]) - math.log((counts[0][w] + 1) / totals[0]))
            scores[k] = s
    return scores, labels


NUMBER = re.compile(r"-?\d[\d,]*\.?\d*")


def number(text):
    m = NUMBER.search(text.replace("\u2212", "-"))
    if not m:
        return None
    try:
        return float(m.group().replace(",", ""))
    except ValueError:
        return None


def roundness(text):
    digits = re.sub(r"[^0-9]", "", text).rstrip("0")
    return -len(digits)


def choice_rules(items):
    rules = collections.Counter()
    ranks = collections.Counter()
    n = 0
    for i in items:
        if i["answer"].get("type") != "choice" or not i.get("choices"):
            continue
        vals = [number(c) for c in i["choices"]]
        if any(v is None for v in vals) or len(set(vals)) != len(vals):
            continue
        gold = ord(i["answer"]["letter"]) - ord("a")
        n += 1
        mean = sum(vals) / len(vals)
        order = sorted(range(len(vals)), key=lambda k: vals[k])
        picks = {
            "closest_to_mean": min(range(len(vals)), key=lambda k: abs(vals[k] - mean)),
            "median": order[(len(vals) - 1) // 2],
            "roundest": max(range(len(vals)), key=lambda k: roundness(i["choices"][k])),
            "longest": max(range(len(vals)), key=lambda k: len(i["choices"][k])),
            "largest": order[-1],
            "smallest": order[0],
        }
        for name, k in picks.items():
            rules[name] += k == gold
        ranks[order.index(gold)] += 1
    return n, rules, ranks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("suite", type=Path)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    items = [json.loads(l) for l in open(a.suite / "items.jsonl", encoding="utf-8") if l.strip()]
    out = {}
    scores, labels = nb_scores(items)
    out["unanswerable_auc"] = round(auc(scores, labels), 3)
    originals = [k for k, i in enumerate(items) if i["set"] == "original"]
    out["unanswerable_auc_originals"] = round(auc([scores[k] for k in originals], [labels[k] for k in originals]), 3)
    share = collections.defaultdict(lambda: [0, 0])
    for i in items:
        key = i["realization"]["realizer"]
        share[key][0] += not i["answerable"]
        share[key][1] += 1
    out["unanswerable_share_by_realizer"] = {k: f"{u}/{n}" for k, (u, n) in sorted(share.items())}
    qtypes = collections.defaultdict(lambda: [0, 0])
    for i in items:
        qtypes[i["question_type"]][0] += not i["answerable"]
        qtypes[i["question_type"]][1] += 1
    out["unanswerable_share_by_type"] = {k: f"{u}/{n}" for k, (u, n) in sorted(qtypes.items())}
    n, rules, ranks = choice_rules(items)
    out["choice_items_numeric"] = n
    out["choice_rules_hit_rate"] = {k: round(v / max(n, 1), 3) for k, v in sorted(rules.items())}
    out["choice_gold_rank"] = [ranks[r] for r in range(4)]
    tf = collections.defaultdict(lambda: [0, 0])
    for i in items:
        if i["answer"].get("type") == "true_false":
            tf[i["family"]][0] += i["answer"]["value"] is True
            tf[i["family"]][1] += 1
    out["true_share_by_family"] = {k: f"{t}/{m}" for k, (t, m) in sorted(tf.items()) if m >= 8}
    if a.json:
        print(json.dumps(out, indent=1))
    else:
        for k, v in out.items():
            print(f"{k}: {v}")


if __name__ == "__main__":
    sys.exit(main())
