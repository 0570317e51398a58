#!/usr/bin/env python3
"""Assemble labels-claude-code.json from one JSON file per case, checking every `contains`.

usage: build_labels.py CASES_DIR SESSIONS_DIR OUT.json
Each case file is a case of ../../real/LABELS_SCHEMA.md plus "repo" and "src" (the redacted
session's base name in SESSIONS_DIR, SRC.jsonl). Every `contains` of open/losses/not_owed must
occur, case-insensitively, in the strings of the records before that compaction's boundary
(the boundary is found by its uuid in boundary_hint); the script stops on the first that does
not. "src" is dropped from the output.
"""
import glob, json, os, sys


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
    cases_dir, sess_dir, out_path = sys.argv[1:4]
    cases, bad = [], 0
    for p in sorted(glob.glob(os.path.join(cases_dir, '*.json'))):
        c = json.load(open(p))
        recs = [json.loads(l) for l in open(os.path.join(sess_dir, c['src'] + '.jsonl'), encoding='utf-8') if l.strip()]
        for comp in c['compactions']:
            idx = next((i for i, o in enumerate(recs) if o.get('uuid') == comp['boundary_hint']), None)
            if idx is None:
                sys.exit(f'{p}: boundary {comp["boundary_hint"]} not found')
            texts = []
            for o in recs[:idx]:
                strings(o, texts)
            hay = '\n'.join(texts).lower()
            for part in ('open', 'losses', 'not_owed'):
                for it in comp.get(part, []):
                    if it['contains'].lower() not in hay:
                        print(f'{p} #{comp["ordinal"]} {part}: {it["contains"]!r} not in the source before the boundary')
                        bad += 1
        c.pop('src')
        cases.append(c)
    if bad:
        sys.exit(f'{bad} contains not found')
    with open(out_path, 'w') as f:
        json.dump({'cases': cases}, f, indent=1, ensure_ascii=False)
        f.write('\n')
    print(f'{out_path}: {len(cases)} cases, {sum(len(c["compactions"]) for c in cases)} compactions')


main()
