# Written by `chartstress export --format lmms-eval`.
# The functions the chartstress task YAMLs name.
import re


def chartstress_doc_to_visual(doc):
    return [doc["image"].convert("RGB")]


def chartstress_doc_to_text(doc, lmms_eval_specific_kwargs=None):
    # The whole prompt chartstress's `direct` strategy sends, options and
    # answer-format instruction included.
    return doc["prompt"]


def _answer_line(reply):
    # chartstress asks for a last line "Answer: ..."; fall back to the reply.
    found = re.findall(r"answer\s*:\s*(.+)", reply, flags=re.IGNORECASE)
    return (found[-1] if found else reply).strip().strip(".").strip()


def _number(text):
    text = text.replace(",", "").strip()
    try:
        value = float(text.rstrip("%").strip())
    except ValueError:
        return None
    return value


def chartstress_relaxed_match(reply, gold):
    """An approximation of chartstress's relaxed accuracy: numbers within 5%
    of the gold, other answers equal ignoring case. `chartstress import-run`
    scores the replies exactly."""
    answer = _answer_line(reply)
    g, a = _number(gold), _number(answer)
    if g is not None and a is not None:
        if g == 0:
            return a == 0
        return abs(a - g) / abs(g) <= 0.05
    return answer.lower() == gold.strip().lower()


def chartstress_process_results(doc, results):
    reply = results[0] if results else ""
    return {"relaxed_accuracy": 1.0 if chartstress_relaxed_match(reply, doc["answer"]) else 0.0}
