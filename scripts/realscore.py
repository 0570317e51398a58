#!/usr/bin/env python3
"""Score a loupe binary on hand-labelled real corpora, as verify/real_test.go does.

usage: realscore.py --bin LOUPE [--show-failures] DIR...

Each DIR holds labels-*.json (schema: verify/testdata/real/LABELS_SCHEMA.md) and the
transcripts they name. For every case it runs `LOUPE verify --format json FILE` and, per
labelled compaction, counts:
- reported not retained: items whose status is neither retained nor closed, leaving out
  items the report marks "review": true (a lost inferred item is not a loss claim);
- real: those that match a labelled loss (same kind, `contains` in key+text, case-insensitive);
  an identifier is real when it matches an identifier loss or when every item naming it is a
  matched loss (the file a dropped rule is about);
- recall: labelled losses matched by some reported item (a loss the labels mark
  "basis": "inferred" is review, not a loss claim, and is left out, as the
  report leaves out items marked "review");
- verdicts: the report's verdict equals the label's.
It prints one total line per DIR (a split) and, with --show-failures, the compactions with a
wrong verdict, a false alarm or a miss. stdlib only; loupe's exit status 1 (a violation) is
not an error.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

NAMER = re.compile(r'(\w+) “(.*?)” \(turn (\d+)\)', re.S)


def verified(status):
    return status in ('retained', 'closed')


def run_loupe(binary, path):
    p = subprocess.run([binary, 'verify', '--format', 'json', path], capture_output=True)
    if p.returncode not in (0, 1):
        raise RuntimeError(f'{path}: loupe exit {p.returncode}: {p.stderr.decode(errors="replace")[:300]}')
    doc = json.loads(p.stdout)
    files = doc.get('files') or []
    if len(files) > 1:
        # A directory (an OpenHands conversation, an opencode tree) may be
        # reported as several transcripts: keep the one named by the path
        # itself, else the only one that has compactions.
        same = [f for f in files if os.path.normpath(f.get('path', '')) == os.path.normpath(path)]
        withc = [f for f in files if f.get('compactions')]
        files = same or (withc if len(withc) == 1 else files)
    if len(files) != 1:
        raise RuntimeError(f'{path}: {len(files)} transcripts in the report, cannot tell which one is labelled')
    if files[0].get('error'):
        raise RuntimeError(f'{path}: {files[0]["error"]}')
    return files[0].get('compactions') or []


def namers(ident, items):
    """Keys of the items an identifier's text says name it (loupe's JSON has no Names field:
    the text reads '<class> <value>, named by <kind> “<clipped action or text>” (turn N); ...')."""
    text = ident.get('text', '')
    i = text.find(', named by ')
    if i < 0:
        return []
    keys = []
    for kind, clip, turn in NAMER.findall(text[i:]):
        prefix = clip[:-1] if clip.endswith('…') else clip
        for it in items:
            if it.get('kind') != kind or it.get('turn') != int(turn):
                continue
            s = it.get('action') or it.get('text', '')
            if s == clip or (clip.endswith('…') and s.startswith(prefix)):
                keys.append(it.get('key'))
                break
        else:
            keys.append(None)  # a namer not found among the items: not provably lost
    return keys


def score_compaction(cr, lc):
    losses = lc.get('losses') or []
    found = [False] * len(losses)
    alarms, tp, fp = [], 0, 0
    lost, idents = set(), []
    items = cr.get('items') or []
    for ir in items:
        if verified(ir.get('status')) or ir.get('review') is True:
            continue
        if ir.get('kind') == 'identifier':
            idents.append(ir)
            continue
        hay = (ir.get('key', '') + ' ' + ir.get('text', '')).lower()
        hit = False
        for i, l in enumerate(losses):
            if ir.get('kind') == l['kind'] and l['contains'].lower() in hay:
                found[i] = hit = True
        if hit:
            tp += 1
            lost.add(ir.get('key'))
        else:
            fp += 1
            alarms.append(f'{ir.get("kind")} {ir.get("status")} {ir.get("key", "")[:70]!r}')
    for ir in idents:
        hit = False
        for i, l in enumerate(losses):
            if l['kind'] == 'identifier' and l['contains'].lower() in ir.get('key', '').lower():
                found[i] = hit = True
        names = namers(ir, items)
        if hit or (names and all(n in lost for n in names)):
            tp += 1
        else:
            fp += 1
            alarms.append(f'{ir.get("kind")} {ir.get("status")} {ir.get("key", "")[:70]!r}')
    # An inferred loss found counts as real; one not found is not a miss.
    owed = [i for i, l in enumerate(losses) if l.get('basis') != 'inferred']
    missed = [f'{losses[i]["kind"]} {losses[i]["contains"]!r}' for i in owed if not found[i]]
    return tp, fp, len(owed) - len(missed), len(missed), alarms, missed


def ratio(a, b):
    return 1.0 if b == 0 else a / b


def score_dir(binary, root, show):
    tp = fp = hits = fn = right = total = transcripts = 0
    lines = []
    for lf in sorted(glob.glob(os.path.join(root, 'labels-*.json'))):
        with open(lf) as f:
            labels = json.load(f)
        for case in labels['cases']:
            transcripts += 1
            try:
                comps = run_loupe(binary, os.path.join(root, case['file']))
            except Exception as e:  # a file loupe cannot read scores as all missed
                lines.append(f'ERR {case["file"]}: {e}')
                comps = []
            for lc in case['compactions']:
                total += 1
                ordinal = lc['ordinal']
                if ordinal > len(comps):
                    fn += len(lc.get('losses') or [])
                    lines.append(f'ERR {case["file"]}#{ordinal}: compaction not found ({len(comps)} found)')
                    continue
                cr = comps[ordinal - 1]
                a, b, h, m, alarms, missed = score_compaction(cr, lc)
                tp, fp, hits, fn = tp + a, fp + b, hits + h, fn + m
                ok = cr.get('verdict') == lc['verdict']
                right += ok
                if not ok or alarms or missed:
                    lines.append(f'{"ok " if ok else "BAD"} {case["file"]} #{ordinal} want {lc["verdict"]} '
                                 f'got {cr.get("verdict")} losses {len(lc.get("losses") or [])} '
                                 f'false alarms {len(alarms)} missed {len(missed)}')
                    lines += [f'      false alarm: {x}' for x in alarms]
                    lines += [f'      MISSED {x}' for x in missed]
    if show:
        print('\n'.join(lines))
    print(f'{root}: {transcripts} transcripts, {total} compactions; reported not retained {tp + fp}, '
          f'real {tp}: precision {ratio(tp, tp + fp):.3f}; labelled losses {hits + fn}: '
          f'recall {ratio(hits, hits + fn):.3f}; verdicts {right}/{total} ({ratio(right, total):.3f})')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--bin', required=True, help='the loupe binary to score')
    ap.add_argument('--show-failures', action='store_true', help='list compactions with a wrong verdict, a false alarm or a miss')
    ap.add_argument('dirs', nargs='+', metavar='DIR')
    a = ap.parse_args()
    for d in a.dirs:
        score_dir(a.bin, d, a.show_failures)


if __name__ == '__main__':
    sys.exit(main())
