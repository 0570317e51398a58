#!/usr/bin/env python3
"""List Claude Code session blobs with a compaction anywhere in a mirror's history.

usage: scan_history.py GIT_DIR [REV...]   (default: --all)
For every distinct *.jsonl blob reachable from REV (all paths, all commits) that is present
in the snapshot, prints: path, blob, size, lines, versions, triggers, first-record-parentUuid-null.
"""
import json, subprocess, sys, collections

def main():
    d = sys.argv[1]
    revs = sys.argv[2:] or ['--all']
    out = subprocess.run(['git', '-C', d, 'rev-list', '--objects', '--missing=allow-any'] + revs, capture_output=True).stdout.decode('utf-8', 'replace')
    blobs = {}
    for ln in out.splitlines():
        parts = ln.split(' ', 1)
        if len(parts) == 2 and (parts[1].endswith('.jsonl') or parts[1].endswith('raw_transcript')) and parts[0] not in blobs:
            blobs[parts[0]] = parts[1]
    p = subprocess.Popen(['git', '-C', d, 'cat-file', '--batch'], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    for b, path in blobs.items():
        p.stdin.write((b + '\n').encode()); p.stdin.flush()
        hdr = p.stdout.readline().decode().split()
        if len(hdr) < 3:
            continue
        size = int(hdr[2]); data = p.stdout.read(size); p.stdout.read(1)
        if b'compact_boundary' not in data and b'isCompactSummary' not in data:
            continue
        vers = collections.Counter(); trig = []; n = 0; first_null = None
        for l in data.split(b'\n'):
            if not l.strip():
                continue
            try:
                o = json.loads(l)
            except Exception:
                continue
            n += 1
            if first_null is None and 'parentUuid' in o:
                first_null = o.get('parentUuid') is None
            if o.get('version'):
                vers[o['version']] += 1
            if o.get('subtype') == 'compact_boundary' and not o.get('isSidechain'):
                trig.append((o.get('compactMetadata') or {}).get('trigger'))
        if not trig:
            continue
        vs = sorted(vers, key=lambda v: [int(x) if x.isdigit() else 0 for x in v.split('.')])
        print(f"{path}\t{b[:12]}\t{size}\t{n}\t{vs[0] if vs else '-'}..{vs[-1] if vs else '-'}\t{','.join(str(t) for t in trig)}\tstart={first_null}")

main()
