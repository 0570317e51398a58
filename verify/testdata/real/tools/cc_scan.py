#!/usr/bin/env python3
"""Scan a fetched git mirror for Claude Code session JSONL files that contain compactions.

usage: cc_scan.py MIRROR_GIT_DIR [REF...]
Lists, for each distinct *.jsonl blob at the tip of the given refs (default: all branches),
size, line count, Claude Code versions, compaction triggers, and feature flags.
"""
import json, subprocess, sys, collections

def git(d, *a):
    return subprocess.run(['git', '-C', d] + list(a), capture_output=True).stdout

def main():
    d = sys.argv[1]
    refs = sys.argv[2:] or git(d, 'for-each-ref', '--format=%(refname)', 'refs/heads', 'refs/tags').decode().split()
    seen = {}
    for r in refs:
        for line in git(d, 'ls-tree', '-r', '-l', r).decode('utf-8', 'replace').splitlines():
            meta, path = line.split('\t', 1)
            _, typ, blob, size = meta.split()
            if typ != "blob" or not path.endswith(".jsonl") or not size.isdigit():
                continue
            if blob not in seen:
                seen[blob] = (r, path, int(size))
    for blob, (r, path, size) in sorted(seen.items(), key=lambda x: x[1][1]):
        data = git(d, 'cat-file', 'blob', blob)
        if b'compact_boundary' not in data and b'This session is being continued' not in data:
            continue
        vers = collections.Counter(); trig = []; feats = collections.Counter(); n = 0
        for ln in data.split(b'\n'):
            if not ln.strip():
                continue
            n += 1
            try:
                o = json.loads(ln)
            except Exception:
                feats['badline'] += 1
                continue
            if o.get('version'):
                vers[o['version']] += 1
            t = o.get('type')
            if t in ('queue-operation', 'permission-mode', 'last-prompt', 'summary', 'custom-title', 'ai-title', 'progress', 'attachment'):
                feats[t] += 1
            if o.get('subtype') == 'compact_boundary' and not o.get('isSidechain'):
                trig.append((o.get('compactMetadata') or {}).get('trigger'))
            if o.get('isCompactSummary'):
                feats['summ'] += 1
        if b'run_in_background' in data: feats['bg'] = data.count(b'"run_in_background":true')
        if b'<task-notification>' in data: feats['tasknote'] = data.count(b'<task-notification>')
        if not trig and not feats['summ']:
            continue
        vs = sorted(vers, key=lambda v: [int(x) if x.isdigit() else 0 for x in v.split('.')])
        print(f"{path}\t{blob[:12]}\t{size}\t{n}\t{vs[0] if vs else '-'}..{vs[-1] if vs else '-'}\t{','.join(str(t) for t in trig)}\t{dict(feats)}")

main()
