#!/usr/bin/env python3
"""openview.py SESSION.jsonl K: what may be open at compaction K (reading aid, independent of loupe).

Prints tool_use ids with no tool_result before the boundary, background job ids started and
whether a later record before the boundary names them again, and every assistant text block of
the replaced span (cut to 500 chars), with 1-based line numbers.
"""
import json, sys

path, k = sys.argv[1], int(sys.argv[2])
recs = []
for i, line in enumerate(open(path, encoding='utf-8'), 1):
    try:
        recs.append((i, json.loads(line)))
    except Exception:
        pass
bounds = [i for i, r in recs if r.get('subtype') == 'compact_boundary']
end = bounds[k - 1]
start = bounds[k - 2] if k >= 2 else 0
calls, results = {}, set()
for i, r in recs:
    if i >= end:
        break
    m = r.get('message') or {}
    c = m.get('content')
    if isinstance(c, list):
        for b in c:
            if b.get('type') == 'tool_use':
                calls[b['id']] = (i, b.get('name'), json.dumps(b.get('input'), ensure_ascii=False)[:200])
            elif b.get('type') == 'tool_result':
                results.add(b.get('tool_use_id'))
print('## calls without result before boundary L%d' % end)
for cid, (i, n, inp) in calls.items():
    if cid not in results:
        print(f'L{i} {cid} {n} {inp}')
print('## assistant text in span')
for i, r in recs:
    if i <= start or i >= end:
        continue
    if r.get('type') == 'assistant':
        for b in r['message'].get('content') or []:
            if b.get('type') == 'text' and b['text'].strip():
                print(f'L{i}: ' + b['text'][:500].replace('\n', ' ⏎ '))
