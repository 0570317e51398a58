#!/usr/bin/env python3
"""Check that every label's `contains` occurs in the source before its compaction.

usage: check_contains.py DIR   (DIR holds labels-*.json and the .jsonl.gz files they name)
For each compaction, the boundary record is found by its uuid (`boundary_hint`); every string
value of the records before it is searched, case-insensitively. Prints each miss; exit 1 if any.
A Codex rollout has no boundary uuid: its `boundary_hint` is "L<n>", the 1-based line of its
`compacted` record.
Independent of loupe: written only to keep the hand labels factual.
"""
import glob, gzip, json, os, sys


def strings(o, out):
    if isinstance(o, str):
        out.append(o)
    elif isinstance(o, dict):
        for v in o.values():
            strings(v, out)
    elif isinstance(o, list):
        for v in o:
            strings(v, out)


def main():
    root, bad = sys.argv[1], 0
    for lf in sorted(glob.glob(os.path.join(root, 'labels-*.json'))):
        for case in json.load(open(lf))['cases']:
            lines = gzip.open(os.path.join(root, case['file']), 'rt', encoding='utf-8').read().split('\n')
            where = {}
            for i, l in enumerate(lines):
                if '"compact_boundary"' in l:
                    where[json.loads(l)['uuid']] = i
            for c in case['compactions']:
                out = []
                hint = c['boundary_hint']
                end = int(hint[1:]) - 1 if hint.startswith('L') and hint[1:].isdigit() else where[hint]
                for l in lines[:end]:
                    if l.strip():
                        strings(json.loads(l), out)
                hay = '\n'.join(out).lower()
                for sec in ('open', 'losses', 'not_owed'):
                    for it in c.get(sec) or []:
                        if it['contains'].lower() not in hay:
                            bad += 1
                            print(f"MISSING {case['file']} #{c['ordinal']} {sec} {it['kind']} {it['contains']!r}")
    print('misses:', bad)
    sys.exit(1 if bad else 0)


main()
