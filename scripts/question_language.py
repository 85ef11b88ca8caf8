#!/usr/bin/env python3
"""Language statistics of a suite's modified-question wordings.

    python3 scripts/question_language.py SUITE_DIR [--sample N]
        [--per-realizer N] [--seed S]

Reads SUITE_DIR/items.jsonl (each item's `set`, `realization.realizer` and
`question`) and the suite's tables (SUITE_DIR/tables/, SUITE_DIR/charts.jsonl)
to know which words are the charts' own: series and category names, titles,
axis labels, units and sources. Reports, for the modified-question set:

- vocabulary: word types of the realizers' own wording, i.e. lower-cased
  alphabetic words that occur nowhere in the tables' text, and no numbers;
  overall, without the noisy realizer (whose typos mint new "words"), and
  per realizer;
- distinct: share of items whose text (a conversation's turns joined, a
  single question otherwise) occurs once only among the set;
- length: whitespace tokens per written question (each turn of a
  conversation counts as one): mean, percentiles, min and max.

Vocabulary and length count every turn of a conversation, since each is a
question the realizers wrote.

Standard library only.
"""

import argparse
import collections
import csv
import functools
import json
import random
import re
import statistics
import sys
from pathlib import Path

WORD = re.compile(r"[a-z][a-z'\-]*[a-z]|[a-z]")


def words(text):
    """Lower-cased alphabetic words; tokens with digits are numbers or codes."""
    out = []
    for raw in text.lower().split():
        if any(c.isdigit() for c in raw):
            continue
        out.extend(WORD.findall(raw))
    return out


def strings_in(value):
    """Every string inside a JSON value (keys excluded)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings_in(v)


def table_words(suite):
    """Words of the charts' own text: table cells, headers and metadata."""
    found = set()
    tables = suite / "tables"
    if tables.is_dir():
        for path in sorted(tables.rglob("*")):
            if not path.is_file():
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            if path.suffix == ".json":
                try:
                    text = "\n".join(strings_in(json.loads(text)))
                except json.JSONDecodeError:
                    pass
            found.update(words(text.replace(",", " ").replace("\t", " ")))
    charts = suite / "charts.jsonl"
    if charts.is_file():
        for line in charts.open(encoding="utf-8"):
            if not line.strip():
                continue
            spec = json.loads(line).get("spec", {})
            # Table text only (names, labels, titles), not style words such as colour names.
            for panel_tables in find_key(spec, "table"):
                for s in strings_in(panel_tables):
                    found.update(words(s))
            for key in ("title", "x_label", "y_label", "paragraph"):
                for v in find_key(spec, key):
                    for s in strings_in(v):
                        found.update(words(s))
    return found


def chart_strings(suite):
    """Each chart's own text, by chart id: its tables' names, labels and text
    cells, titles, axis labels and prose, longest first."""
    found = {}
    charts = suite / "charts.jsonl"
    if not charts.is_file():
        return found
    for line in charts.open(encoding="utf-8"):
        if not line.strip():
            continue
        chart = json.loads(line)
        spec = chart.get("spec", {})
        texts = set()
        for key in ("table", "title", "x_label", "y_label", "paragraph"):
            for v in find_key(spec, key):
                texts.update(t.strip() for t in strings_in(v))
        # Only text with a letter: numbers are left out of every count anyway.
        texts = {t for t in texts if len(t) > 1 and any(c.isalpha() for c in t)}
        found[chart.get("id")] = sorted(texts, key=len, reverse=True)
    return found


@functools.lru_cache(maxsize=None)
def _table_strings(suite, table_id):
    texts = set()
    if table_id:
        csv_path = suite / "tables" / f"{table_id}.csv"
        if csv_path.is_file():
            with csv_path.open(encoding="utf-8", errors="replace", newline="") as f:
                for row in csv.reader(f):
                    texts.update(c.strip() for c in row)
        meta = suite / "tables" / f"{table_id}.meta.json"
        if meta.is_file():
            try:
                texts.update(t.strip() for t in strings_in(json.loads(meta.read_text(encoding="utf-8"))))
            except json.JSONDecodeError:
                pass
    return tuple(t for t in texts if len(t) > 1 and any(c.isalpha() for c in t))


def table_strings(suite, table_id):
    """The strings of an item's whole table (an unanswerable variant may name
    an entity the chart leaves out)."""
    return list(_table_strings(suite, table_id))


def without_entities(text, entities):
    """`text` with every whole-word occurrence of the chart's own strings cut."""
    for e in entities:
        if e.lower() in text.lower():
            text = re.sub(r"(?<!\w)" + re.escape(e) + r"(?!\w)", " ", text, flags=re.IGNORECASE)
    return text


# Query fields that name an operation, not an entity.
QUERY_KEYWORDS = {"op", "axis", "agg", "order", "direction", "kind"}


def entity_strings(query):
    """Strings of a query other than its operation keywords."""
    if isinstance(query, dict):
        for k, v in query.items():
            if k not in QUERY_KEYWORDS:
                yield from entity_strings(v)
    elif isinstance(query, list):
        for v in query:
            yield from entity_strings(v)
    elif isinstance(query, str):
        yield query


def find_key(value, key):
    if isinstance(value, dict):
        for k, v in value.items():
            if k == key:
                yield v
            yield from find_key(v, key)
    elif isinstance(value, list):
        for v in value:
            yield from find_key(v, key)


def percentile(sorted_values, p):
    if not sorted_values:
        return 0
    i = min(len(sorted_values) - 1, int(round(p / 100 * (len(sorted_values) - 1))))
    return sorted_values[i]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("suite", type=Path)
    ap.add_argument("--set", default="modified_question")
    ap.add_argument("--sample", type=int, default=0, help="print N random questions")
    ap.add_argument("--per-realizer", type=int, default=0,
                    help="print N random single-turn questions of each realizer")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    items_path = args.suite / "items.jsonl"
    if not items_path.is_file():
        sys.exit(f"no items file: {items_path}")
    items = []
    for line in items_path.open(encoding="utf-8"):
        if line.strip():
            item = json.loads(line)
            if item.get("set") == args.set:
                items.append(item)
    if not items:
        sys.exit(f"no items in set {args.set!r}")
    entity = table_words(args.suite)

    def realizer_of(item):
        r = item.get("realization") or {}
        return r.get("realizer") or item.get("realizer") or "?"

    def turns_of(item):
        """The questions a person wrote for this item: earlier turns first."""
        history = [h.get("question", "") for h in item.get("history") or []]
        return history + [item.get("question", "")]

    # An item is the whole dialogue the model reads; a bare follow-up such as
    # "And for 2019?" recurs across conversations without repeating an item.
    questions = [(realizer_of(i), " / ".join(turns_of(i))) for i in items]
    turns = [(realizer_of(i), t) for i in items for t in turns_of(i)]
    single_turn = collections.defaultdict(list)
    for i in items:
        if not i.get("history"):
            single_turn[realizer_of(i)].append(i.get("question", ""))
    counts = collections.Counter(q for _, q in questions)
    distinct = sum(1 for _, q in questions if counts[q] == 1) / len(questions)
    unique_strings = len(counts) / len(questions)

    # The measure: words other than entity names and numbers, i.e.
    # the question with the chart's own strings cut out. Stricter measure
    # above it: words found in no table of the suite at all.
    own_text = chart_strings(args.suite)
    used = set()
    used_clean = set()
    for i in items:
        # The query's strings too: an unanswerable variant names an entity
        # that no table holds.
        asked = [t for t in entity_strings(i.get("query")) if len(t) > 1 and any(c.isalpha() for c in t)]
        entities = own_text.get(i.get("chart_id"), []) + table_strings(args.suite, i.get("table_id")) + asked
        entities.sort(key=len, reverse=True)
        cut = [without_entities(t, entities) for t in turns_of(i)]
        w = {x for t in cut for x in words(t)}
        used |= w
        if realizer_of(i) != "noisy":
            used_clean |= w

    vocab = set()
    vocab_clean = set()
    per = collections.defaultdict(set)
    lengths = []
    per_len = collections.defaultdict(list)
    for r, q in turns:
        own = {w for w in words(q) if w not in entity}
        vocab |= own
        per[r] |= own
        if r != "noisy":
            vocab_clean |= own
        n = len(q.split())
        lengths.append(n)
        per_len[r].append(n)
    lengths.sort()

    print(f"suite: {args.suite}  set: {args.set}  items: {len(questions)}  turns: {len(turns)}")
    print(f"entity/table words excluded: {len(entity)}")
    print(f"vocabulary (word types other than the chart's own strings and numbers): "
          f"{len(used)}; without noisy: {len(used_clean)}")
    print(f"vocabulary (word types in no table of the suite): {len(vocab)}; "
          f"without noisy (no typo-minted words): {len(vocab_clean)}")
    print(f"distinct: {unique_strings:.1%} of strings are different; "
          f"{distinct:.1%} occur exactly once")
    print(
        "length (tokens): mean {:.1f}, median {}, p5 {}, p95 {}, min {}, max {}, "
        "share <=6: {:.1%}, share >=40: {:.1%}".format(
            statistics.mean(lengths), percentile(lengths, 50), percentile(lengths, 5),
            percentile(lengths, 95), lengths[0], lengths[-1],
            sum(1 for n in lengths if n <= 6) / len(lengths),
            sum(1 for n in lengths if n >= 40) / len(lengths),
        )
    )
    print(f"{'realizer':<12}{'items':>7}{'vocab':>8}{'mean len':>10}{'min':>6}{'max':>6}")
    for r in sorted(per_len):
        v = per_len[r]
        print(f"{r:<12}{len(v):>7}{len(per[r]):>8}{statistics.mean(v):>10.1f}{min(v):>6}{max(v):>6}")
    if args.sample:
        rng = random.Random(args.seed)
        print()
        for r, q in rng.sample(questions, min(args.sample, len(questions))):
            print(f"[{r}] {q}")
    if args.per_realizer:
        rng = random.Random(args.seed)
        for r in sorted(single_turn):
            print(f"\n**{r}**\n")
            pool = single_turn[r]
            for q in rng.sample(pool, min(args.per_realizer, len(pool))):
                print("- " + q.replace("\n", " / "))


if __name__ == "__main__":
    main()
