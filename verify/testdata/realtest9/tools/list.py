#!/usr/bin/env python3
# corpus3 helper: per-session list of Claude Code checkpoint blobs with compactions and the commit holding each, independent of loupe.
"""list.py GITDIR: per CC session with compaction: blobs (path, blob, size, lines, version, triggers, preTokens), and the latest commit on entire/checkpoints/v1 holding that blob at that path."""
import json, subprocess, sys, re, collections
d = sys.argv[1]
ref = sys.argv[2] if len(sys.argv) > 2 else 'entire/checkpoints/v1'
G = ['git', '--git-dir', d]
# walk commits of ref, newest first; map (path, blob) -> newest commit
commits = subprocess.run(G + ['rev-list', ref], capture_output=True, text=True).stdout.split()
seen = {}
for c in commits:
    out = subprocess.run(G + ['ls-tree', '-r', c], capture_output=True, text=True).stdout
    for ln in out.splitlines():
        meta, path = ln.split('\t', 1)
        if not path.endswith('full.jsonl'): continue
        blob = meta.split()[2]
        if (path, blob) not in seen:
            seen[(path, blob)] = c
p = subprocess.Popen(G + ['cat-file', '--batch'], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
rows = collections.defaultdict(list)
for (path, blob), c in seen.items():
    p.stdin.write((blob + '\n').encode()); p.stdin.flush()
    hdr = p.stdout.readline().decode().split()
    if len(hdr) < 3 or hdr[1] == 'missing': continue
    size = int(hdr[2]); data = p.stdout.read(size); p.stdout.read(1)
    if b'compact_boundary' not in data: continue
    sid = None; vers = set(); trig = []; n = 0
    for l in data.split(b'\n'):
        if not l.strip(): continue
        n += 1
        try: o = json.loads(l)
        except Exception: continue
        if o.get('sessionId') and not sid: sid = o['sessionId']
        if o.get('version'): vers.add(o['version'])
        if o.get('subtype') == 'compact_boundary' and not o.get('isSidechain'):
            m = o.get('compactMetadata') or {}
            trig.append(f"{m.get('trigger')}:{m.get('preTokens')}@L{n}")
    if trig:
        rows[sid].append((size, path, blob[:12], n, ','.join(sorted(vers)), ' '.join(trig), c))
for sid, rs in rows.items():
    rs.sort()
    print('##', sid)
    for r in rs:
        print('  ', r[0], r[1], r[2], r[3], r[4], r[5], r[6][:12])
