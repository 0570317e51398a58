#!/usr/bin/env python3
# corpus3 helper: list compaction-bearing blobs in a fetched mirror (all runtimes), independent of loupe.
"""scan.py GITDIR: list blobs in all history with compaction markers (CC, Codex, pi, opencode, gemini, openhands)."""
import json, subprocess, sys, re
d = sys.argv[1]
out = subprocess.run(['git', '--git-dir', d, 'rev-list', '--objects', '--missing=allow-any', '--all'], capture_output=True).stdout.decode('utf-8', 'replace')
blobs = {}
for ln in out.splitlines():
    parts = ln.split(' ', 1)
    if len(parts) == 2 and re.search(r'(\.jsonl|\.json|raw_transcript)$', parts[1]) and parts[0] not in blobs:
        blobs[parts[0]] = parts[1]
p = subprocess.Popen(['git', '--git-dir', d, 'cat-file', '--batch'], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
MARK = [b'compact_boundary', b'isCompactSummary', b'"type":"compacted"', b'"type": "compacted"', b'"type":"compaction"', b'"compaction"', b'CondensationAction', b'condensation', b'"summary":true', b'chat_compression', b'compressed']
agents = {}
for b, path in blobs.items():
    p.stdin.write((b + '\n').encode()); p.stdin.flush()
    hdr = p.stdout.readline().decode().split()
    if len(hdr) < 3 or hdr[1] == 'missing':
        continue
    size = int(hdr[2]); data = p.stdout.read(size); p.stdout.read(1)
    if path.endswith('metadata.json') and b'"agent"' in data:
        m = re.search(rb'"agent"\s*:\s*"([^"]+)"', data)
        if m: agents[m.group(1).decode()] = agents.get(m.group(1).decode(), 0) + 1
    hits = [m.decode() for m in MARK if m in data]
    if not hits or size < 20000:
        continue
    n = data.count(b'\n')
    cb = data.count(b'"subtype":"compact_boundary"')
    cx = data.count(b'"type":"compacted"')
    pi = data.count(b'"type":"compaction"')
    print(f"{path}\t{b[:12]}\t{size}\t{n}\tcc={cb} codex={cx} pi/oc={pi}\t{','.join(hits)[:80]}")
print('agents:', agents, file=sys.stderr)
