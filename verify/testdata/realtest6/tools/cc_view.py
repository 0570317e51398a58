#!/usr/bin/env python3
"""Shorter reading view of one compaction digest written by ../../real/tools/cc_dump.py.

usage: cc_view.py DIGEST.txt [LAST_EVENTS]
Prints the digest's human messages, errors, background jobs and commitment-like sentences
(each clipped), the last LAST_EVENTS (default 30) events before the boundary, and from the
summary only its later sections (errors, user messages, pending tasks, current work, next
step), for a person who reads the rest of the source in full.txt when in doubt.
"""
import re, sys

def sections(text):
    out, cur, buf = {}, None, []
    for ln in text.split('\n'):
        if ln.startswith('## ') and ln[3:].split(' ')[0] in ('human', 'last', 'errors', 'background', 'commitment-like', 'summary', 'first'):
            if cur: out[cur] = buf
            cur, buf = ln[3:], []
        else:
            buf.append(ln)
    if cur: out[cur] = buf
    return out

def clip(lines, n):
    return [l if len(l) <= n else l[:n] + ' …' for l in lines]

t = open(sys.argv[1], encoding='utf-8').read()
last = int(sys.argv[2]) if len(sys.argv) > 2 else 30
print(t.split('\n')[0])
s = sections(t)
for k, v in s.items():
    if k.startswith('human'):
        print('## ' + k); print('\n'.join(clip(v, 1500)))
    elif k.startswith('errors'):
        print('## ' + k)
        keep, n = [], 0
        for l in v:
            if l.startswith('!!'):
                keep.append(l); n = 0
            elif l.strip().startswith('then:') and n < 2:
                keep.append(l); n += 1
        print('\n'.join(clip(keep, 240)))
    elif k.startswith('background') or k.startswith('commitment') or k.startswith('last TodoWrite'):
        print('## ' + k); print('\n'.join(clip(v, 400)))
for k, v in s.items():
    if k.startswith('last ') and 'events' in k:
        ev = [l for l in v if re.match(r'^L\d+ ', l)]
        keep = set(ev[-last:])
        print('## ' + k + f' (last {last})')
        on = False
        for l in v:
            if l in keep: on = True
            if on: print(l[:500] if len(l) > 500 else l)
    if k.startswith('summary'):
        body = '\n'.join(v)
        m = re.search(r'\n\s*(?:#+\s*)?4\.\s*\**Errors', body)
        print('## summary (from section 4)')
        print(body[m.start():] if m else body[-9000:])
    if k.startswith('first'):
        print('## ' + k); print('\n'.join(clip(v, 300)))
