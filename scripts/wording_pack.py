#!/usr/bin/env python3
"""Blind wording pack for an outside reader: 100 reworded synthesized items,
50 reworded real-table items and 50 synthesized originals, questions and key
written apart (the key holds the original, both golds and the declared change).

    python3 scripts/wording_pack.py SYN_SUITE REAL_SUITE SEED OUT_DIR
"""
import json, random, sys, os
syn, real, seed, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
def load(p): return [json.loads(l) for l in open(os.path.join(p, 'items.jsonl'))]
S, R = load(syn), load(real)
origin = {i['id']: i for i in S + R if i['set'] == 'original'}
def pick(items, st, n, rnd):
    pool = [i for i in items if i['set'] == st]
    return rnd.sample(pool, min(n, len(pool)))
rnd = random.Random(seed)
sample = [('synth-reworded', i) for i in pick(S, 'modified_question', 100, rnd)]
sample += [('real-reworded', i) for i in pick(R, 'modified_question', 50, rnd)]
sample += [('synth-original', i) for i in pick(S, 'original', 50, rnd)]
os.makedirs(out, exist_ok=True)
def text(i):
    lines = []
    for t in i.get('history') or []:
        lines.append(f"    earlier turn: {t['question']}  (answered: {t['answer']})")
    lines.append(f"    question: {i['question']}")
    if i.get('choices'):
        lines.append(f"    options: {i['choices']}")
    return "\n".join(lines)
with open(os.path.join(out, 'questions.md'), 'w') as q, open(os.path.join(out, 'key.md'), 'w') as k:
    q.write(f"# Blind pack, seed {seed}: grade each question BEFORE opening key.md\n\n")
    k.write(f"# Key, seed {seed}\n\n")
    for n, (group, i) in enumerate(sample, 1):
        q.write(f"## {n} ({group}, id {i['id']})\n{text(i)}\n\n")
        o = origin.get(i.get('origin') or '', i)
        declared = i.get('perturbations') or []
        k.write(f"## {n}\n    original: {o['question']}\n    original gold: {o['answer_text']!r} (answerable: {o['answerable']})\n"
                f"    gold: {i['answer_text']!r} (answerable: {i['answerable']})\n"
                f"    chart: {i['chart_kind']} table {i['table_id']}\n    realizer: {i['realization'].get('realizer')}\n"
                f"    declared change: {json.dumps(declared)[:300]}\n\n")
print(len(sample), 'items to', out)
