#!/usr/bin/env python3
"""Check that every `contains` of a labels file occurs (case-insensitive) in the string values of its transcript.
usage: check_contains.py LABELS.json [ROOT]"""
import gzip, json, os, sys
labels = json.load(open(sys.argv[1])); root = sys.argv[2] if len(sys.argv) > 2 else '/work/staging/real'
cases = labels['cases'] if isinstance(labels, dict) else labels
def strings(o, out):
    if isinstance(o, str): out.append(o)
    elif isinstance(o, dict): [strings(v, out) for v in o.values()]
    elif isinstance(o, list): [strings(v, out) for v in o]
def load(path):
    p = os.path.join(root, path); out = []
    files = [p] if os.path.isfile(p) else [os.path.join(d, f) for d, _, fs in os.walk(p) for f in fs]
    for f in files:
        raw = (gzip.open(f, 'rt', encoding='utf-8') if f.endswith('.gz') else open(f, encoding='utf-8')).read()
        dec = json.JSONDecoder()
        for l in raw.split('\n'):
            s = l.strip(); pos = 0
            while pos < len(s):
                try: o, pos = dec.raw_decode(s, pos)
                except ValueError: out.append(s[pos:]); break
                strings(o, out)
                while pos < len(s) and s[pos].isspace(): pos += 1
        if raw.lstrip().startswith(('{', '[')) and '\n' not in raw.strip():
            pass
    return '\n'.join(out).lower()
bad = 0
for c in cases:
    text = load(c['file'])
    for k in c['compactions']:
        for sect in ('open', 'losses', 'not_owed'):
            for it in k.get(sect, []):
                if it['contains'].lower() not in text:
                    bad += 1; print('MISSING', c['file'], k['ordinal'], sect, it['kind'], repr(it['contains']))
print('missing:', bad)
