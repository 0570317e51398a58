#!/usr/bin/env python3
"""List `chat.json` blobs (a Stop hook's JSON-array copy of a Claude Code transcript, as in
claude-code-hooks-mastery) with a compaction, anywhere in a mirror's history.

usage: scan_chatjson.py GIT_DIR [REV...]   (default: --all)
Prints path, blob, size, records, versions, triggers, whether the first record has parentUuid null,
and the session ids.
"""
import json, subprocess, sys, collections

def main():
    d = sys.argv[1]
    revs = sys.argv[2:] or ['--all']
    out = subprocess.run(['git', '-C', d, 'rev-list', '--objects', '--missing=allow-any'] + revs, capture_output=True).stdout.decode('utf-8', 'replace')
    blobs = {}
    for ln in out.splitlines():
        parts = ln.split(' ', 1)
        if len(parts) == 2 and parts[1].endswith('chat.json') and parts[0] not in blobs:
            blobs[parts[0]] = parts[1]
    p = subprocess.Popen(['git', '-C', d, 'cat-file', '--batch'], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    for b, path in blobs.items():
        p.stdin.write((b + '\n').encode()); p.stdin.flush()
        hdr = p.stdout.readline().decode().split()
        if len(hdr) < 3:
            continue
        size = int(hdr[2]); data = p.stdout.read(size); p.stdout.read(1)
        if b'compact_boundary' not in data:
            continue
        try:
            arr = json.loads(data)
        except Exception:
            continue
        if not isinstance(arr, list):
            continue
        vers = collections.Counter(); trig = []; sids = set()
        first = next((o for o in arr if isinstance(o, dict) and 'parentUuid' in o), {})
        for o in arr:
            if not isinstance(o, dict):
                continue
            if o.get('version'): vers[o['version']] += 1
            if o.get('sessionId'): sids.add(o['sessionId'][:8])
            if o.get('subtype') == 'compact_boundary' and not o.get('isSidechain'):
                trig.append((o.get('compactMetadata') or {}).get('trigger'))
        if not trig:
            continue
        vs = sorted(vers, key=lambda v: [int(x) if x.isdigit() else 0 for x in v.split('.')])
        print(f"{path}\t{b[:12]}\t{size}\t{len(arr)}\t{vs[0] if vs else '-'}..{vs[-1] if vs else '-'}\t{','.join(str(t) for t in trig)}\tstart={first.get('parentUuid', 'x') is None}\t{','.join(sorted(sids))}")

main()
