"""chartstress suite as an inspect_ai task (written by `chartstress export --format inspect`).

Run it from anywhere; paths are resolved from this file's folder. Name the
task (`@chartstress`) when the path is absolute: inspect takes a bare
absolute path for a glob and refuses it.

    inspect eval chartstress_task.py@chartstress --model openai/gpt-4o-mini
    inspect eval chartstress_task.py@chartstress -T set=modified_chart --model ...

Bring the log back with `chartstress import-run SUITE --from inspect LOG --name RUN`:
chartstress's `report` on that run is the authoritative score. The scorer
below approximates chartstress's `relaxed` metric (see its docstring).
"""

import json
import re
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import Sample, json_dataset
from inspect_ai.model import ChatMessageUser, ContentImage, ContentText
from inspect_ai.scorer import Score, Target, accuracy, scorer, stderr
from inspect_ai.solver import TaskState, generate

HERE = Path(__file__).resolve().parent


def record_to_sample(record: dict) -> Sample:
    meta = record["metadata"]
    # Absolute at load time, relative in the file: the folder stays movable.
    image = str(HERE / meta["image"])
    return Sample(
        id=record["id"],
        input=[
            ChatMessageUser(
                content=[ContentImage(image=image), ContentText(text=record["input"])]
            )
        ],
        target=record["target"],
        metadata=meta,
    )


@task
def chartstress(set: str = "all") -> Task:
    """One task over the suite; `-T set=NAME` keeps one set (`original`, `modified_chart`, ...)."""
    dataset = json_dataset(str(HERE / "dataset.jsonl"), record_to_sample)
    if set != "all":
        known = sorted({s.metadata["set"] for s in dataset})
        if set not in known:
            raise ValueError(f"unknown set {set!r} (this suite has: {', '.join(known)})")
        dataset = dataset.filter(lambda s: s.metadata["set"] == set)
    return Task(dataset=dataset, solver=generate(), scorer=relaxed_approx())


# --- Answer extraction (chartstress's, in short) -----------------------------

THINK = re.compile(r"(?is)<(think|thinking|reasoning|thought)>.*?</\1>")
ANSWER_IS = re.compile(r"(?i)\banswer\s*(?:is\s*[:：]?|[:：])\s*(.+)")
SENTENCE_END = re.compile(r"[.!?]\s+[A-Z(]")
FENCE = re.compile(r"(?s)```[A-Za-z]*[ \t]*\r?\n?(.*?)```")
BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
JSON_KEYS = ("answer", "final_answer", "final answer")


def clean(text: str) -> str:
    s = text.replace("**", "").replace("__", "").replace("`", "").strip()
    while True:
        before = s
        s = s.strip().lstrip("#>").strip()
        for bullet in ("- ", "* ", "• "):
            if s.startswith(bullet):
                s = s[len(bullet):].strip()
        for open_, close_ in ['""', "''", "“”", "‘’", "$$", "[]"]:
            if len(s) >= 2 and s[0] == open_ and s[-1] == close_:
                s = s[1:-1]
        s = s.rstrip(".。,;!")
        if s.startswith("\\text{") and s.endswith("}"):
            s = s[6:-1]
        if s == before:
            break
    m = re.fullmatch(r"\(?([a-zA-Z])\)", s)
    return m.group(1) if m else s


def json_text(value):
    if value is None:
        return None
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if isinstance(value, list):
        return ", ".join(t for t in map(json_text, value) if t is not None)
    return json.dumps(value)


def json_answer(text: str):
    """The `answer` of a JSON object reply (whole, in a fence, or last line)."""
    candidates = [text.strip()] + [m.strip() for m in reversed(FENCE.findall(text))]
    lines = [line for line in text.splitlines() if line.strip()]
    if lines:
        candidates.append(lines[-1].strip())
    for candidate in candidates:
        if not candidate.startswith("{"):
            continue
        try:
            obj = json.loads(candidate)
        except ValueError:
            continue
        if not isinstance(obj, dict):
            continue
        for key in JSON_KEYS:
            for k, v in obj.items():
                if k.strip().lower() == key:
                    return json_text(v)
    return None


def extract(raw: str) -> str:
    text = THINK.sub("", raw).strip()
    answer = json_answer(text)
    if answer is not None:
        return answer
    boxed = BOXED.findall(text)
    if boxed:
        return clean(boxed[-1])
    plain = text.replace("**", "").replace("__", "").replace("`", "")
    hits = ANSWER_IS.findall(plain)
    if hits:
        answer = hits[-1].splitlines()[0] if hits[-1] else ""
        end = SENTENCE_END.search(answer)
        answer = clean(answer[: end.start()] if end else answer)
        if answer:
            return answer
    lines = [line for line in plain.splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    return clean(last) if len(last.split()) <= 20 else clean(plain)


# --- Comparison --------------------------------------------------------------

# chartstress's abstention phrases: a reply abstains when it starts with one.
ABSTENTIONS = [
    "unanswerable", "not answerable", "cannot be answered", "can't be answered",
    "can not be answered", "cannot answer", "can't answer", "i cannot answer",
    "i can't answer", "i am unable to answer", "i'm unable to answer", "unable to answer",
    "cannot be determined", "can't be determined", "cannot determine", "can't determine",
    "unable to determine", "it cannot be determined", "it is not possible to determine",
    "not possible to determine", "not enough information", "there is not enough information",
    "there isn't enough information", "insufficient information",
    "there is insufficient information", "the chart does not show",
    "the chart doesn't show", "the chart does not provide", "the chart does not contain",
    "the question cannot be answered", "this question cannot be answered",
    "the question is unanswerable", "this question is unanswerable",
]
APPROX = ["approximately ", "approx. ", "approx ", "about ", "around ", "roughly ", "nearly ",
          "~", "≈"]
CURRENCY = ["us$", "$", "€", "£", "¥", "₹", "usd ", "eur ", "gbp ", "usd"]
DIGITS = re.compile(r"(\d{1,3}(?:,\d{3}(?!\d))+|\d*)(?:\.(\d+))?")
EXPONENT = re.compile(r"[eE]([+-]?\d+)")


def scale_of(word: str):
    """Single letters are case-sensitive: lower-case m and t are metres, tonnes."""
    single = {"k": 1e3, "K": 1e3, "M": 1e6, "mn": 1e6, "Mn": 1e6, "MM": 1e6, "b": 1e9,
              "B": 1e9, "bn": 1e9, "Bn": 1e9, "T": 1e12, "tn": 1e12, "Tn": 1e12}
    if word in single:
        return single[word]
    return {"thousand": 1e3, "thousands": 1e3, "million": 1e6, "millions": 1e6,
            "billion": 1e9, "billions": 1e9, "trillion": 1e12,
            "trillions": 1e12}.get(word.lower())


def normalize(text: str) -> str:
    s = " ".join(text.replace("’", "'").replace("“", '"').replace("”", '"').split()).lower()
    return s.strip("\"`*").rstrip(".!;").strip()


def normalize_text(text: str) -> str:
    """normalize(), with "n/a" read as CharXiv's "Not Applicable" answer."""
    n = normalize(text)
    return "not applicable" if n in ("n/a", "na") else n


def number(text: str):
    """(value, scale, decimals) of a number with optional approximation word,
    sign, currency, thousands separators, exponent, scale word, percent and up
    to three unit words; None for anything else."""
    rest = text.strip().replace("\u2212", "-").replace("\u2013", "-")
    while rest.endswith(".") and not rest.endswith(".."):
        rest = rest[:-1]
    rest = rest.strip()
    for prefix in APPROX:
        if rest.lower().startswith(prefix):
            rest = rest[len(prefix):].lstrip()
            break
    negative = currency = False
    for _ in range(2):
        if rest.startswith("-"):
            negative, rest = not negative, rest[1:].lstrip()
        elif rest.startswith("+"):
            rest = rest[1:].lstrip()
        if not currency:
            for prefix in CURRENCY:
                if rest.lower().startswith(prefix):
                    rest, currency = rest[len(prefix):].lstrip(), True
                    break
    m = DIGITS.match(rest)
    int_digits, frac = m.group(1).replace(",", ""), m.group(2) or ""
    if not int_digits and not frac:
        return None
    value = float(f"{int_digits or '0'}.{frac or '0'}")
    tail = rest[m.end():]
    e = EXPONENT.match(tail)
    if e:
        value, tail = value * 10 ** int(e.group(1)), tail[e.end():]
    if negative:
        value = -value
    tail = tail.lstrip()
    word = re.match(r"[^\W\d_]*", tail).group(0)
    scale = scale_of(word) if word else None
    if scale:
        tail = tail[len(word):].lstrip()
    tail = re.sub(r"^(%|percent|per cent)", "", tail, flags=re.I).lstrip()
    words = tail.split()
    if len(words) > 3 or any(re.search(r"[\d,]", w) for w in words):
        return None
    return value, scale or 1.0, len(frac)


def looks_like_year(text: str) -> bool:
    t = text.strip()
    return len(t) == 4 and t.isdigit() and 1800 <= int(t) <= 2100


def close(pred: float, gold: float, decimals: int) -> bool:
    if gold == 0:
        return abs(pred) <= 0.5 * 10 ** (-decimals)
    return abs(pred - gold) <= 0.05 * abs(gold)


def levenshtein(a: str, b: str) -> int:
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def anls(gold: str, pred: str) -> float:
    """ANLS with threshold 0.5, as chartstress scores text answers."""
    longest = max(len(gold), len(pred))
    sim = 1.0 if longest == 0 else 1.0 - levenshtein(gold, pred) / longest
    return sim if 1.0 - sim < 0.5 else 0.0


def abstains(text: str) -> bool:
    n = normalize(text)
    for lead in ("final answer:", "answer:"):
        if n.startswith(lead):
            n = n[len(lead):].strip()
    return any(
        n.startswith(p) and not n[len(p):len(p) + 1].isalnum() for p in ABSTENTIONS
    )


def list_readings(pred: str) -> list:
    """The reply as a list, without and with splitting on " and " (names like
    "Recreation and culture" and lists like "a, b and c" both occur)."""
    text = pred.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    sep = r";" if ";" in text else r",(?!\d{3}\b)|\n"
    parts = [re.sub(r"^and ", "", x.strip()).strip("\"' ") for x in re.split(sep, text)]
    readings = [parts]
    split_and = [y.strip() for x in parts for y in re.split(r"\s+and\s+", x)]
    if split_and != parts:
        readings.append(split_and)
    return readings


def list_score(values: list, parts: list) -> float:
    length = max(len(values), len(parts))
    return sum(element(g, p) for g, p in zip(values, parts)) / length if length else 1.0


def element(gold: str, pred: str) -> float:
    if looks_like_year(gold):
        p = number(pred)
        return float(bool(p) and p[1] == 1.0 and p[0] == int(gold.strip()))
    g, p = number(gold), number(pred)
    if g and p:
        return float(close(p[0] * p[1], g[0] * g[1], g[2]) or
                     (p[1] == 1.0 and close(p[0], g[0], g[2])))
    return anls(normalize_text(gold), normalize_text(pred))


def score_typed(answer: dict, choices: list, pred: str) -> float:
    kind = answer["type"]
    abstained = abstains(pred)
    if kind == "unanswerable":
        return float(abstained)
    if abstained:
        return 0.0
    n = normalize(pred)
    if kind == "choice":
        m = re.match(r"^(?:option |answer:? )?(?:\(([a-h])\)|([a-h])(?:[).:](?:\s|$)|$))", n)
        if m:
            return float((m.group(1) or m.group(2)) == answer["letter"])
        idx = ord(answer["letter"]) - ord("a")
        return float(0 <= idx < len(choices) and normalize(choices[idx]) == n)
    if kind == "true_false":
        return float(n in ("true", "false") and (n == "true") == answer["value"])
    if kind == "yes_no":
        return float(n in ("yes", "no") and (n == "yes") == answer["value"])
    if kind == "year":
        p = number(pred)
        return float(bool(p) and p[1] == 1.0 and p[0] == answer["value"])
    if kind == "number":
        p = number(pred)
        if not p:
            return 0.0
        scale = scale_of((answer.get("unit") or "").strip()) or 1.0
        decimals = answer["decimals"]
        # The exact value or the gold as printed: either is a right answer.
        golds = (answer["value"], round(answer["value"], decimals))
        return float(any(
            close(p[0] * p[1], gold * scale, decimals)
            or (p[1] == 1.0 and close(p[0], gold, decimals))
            for gold in golds
        ))
    if kind == "list":
        return max(list_score(answer["values"], parts) for parts in list_readings(pred))
    return anls(normalize_text(answer.get("value", "")), normalize_text(pred))


@scorer(metrics=[accuracy(), stderr()])
def relaxed_approx():
    """chartstress's `relaxed` metric re-written in Python: the answer is
    extracted from the reply as chartstress extracts it, then compared with the
    typed gold answer in the sample's metadata (numbers within 5%, years
    exact, yes/no, true/false, choice letter or option text, lists element by
    element, text by ANLS). Not the same code, so a reply in an unusual form
    can score differently: chartstress's `report` after `import-run` is the
    authoritative score."""

    async def score(state: TaskState, target: Target) -> Score:
        raw = state.output.completion
        answer = extract(raw)
        meta = state.metadata
        value = score_typed(meta["answer"], meta.get("choices", []), answer or raw)
        return Score(
            value=value,
            answer=answer,
            explanation=f"relaxed (approximate) score {value:.2f}",
            metadata={"relaxed": value},
        )

    return score
