#!/usr/bin/env python3
"""brief_view.py D/full.txt D/cK.txt: a short reading view of one compaction from cc_dump.py output.

Prints the human messages of the replaced span (each cut to 300 chars), the todo/task states,
the errors list headers, the last 50 events before the boundary (each line cut to 220 chars)
and the summary without its "Files and Code Sections". Reading aid for hand labels; independent
of loupe.
"""
import re, sys

t = open(sys.argv[1]).read()
pre, _, summ = t.partition('===== COMPACT SUMMARY')
parts = re.split(r'\n(?=## (?:human|last TodoWrite|errors in span|background jobs|commitment-like|last \d+ events))', pre)
for p in parts:
    head = p.split('\n', 1)[0]
    body = p.split('\n', 1)[1] if '\n' in p else ''
    if head.startswith('## human'):
        print(head)
        for blk in re.split(r'\n(?=L\d+ USER:)', body):
            print(blk[:300].replace('\n', ' ⏎ '))
    elif head.startswith('## last TodoWrite') or head.startswith('## background') or head.startswith('## tasks'):
        print(head); print('\n'.join(l[:250] for l in body.split('\n')[:40]))
    elif head.startswith('## errors'):
        print(head)
        for l in body.split('\n'):
            if l.startswith('!!'):
                print(l[:200])
    elif head.startswith('## last'):
        print(head)
        ls = [l for l in body.split('\n') if l.strip()]
        for l in ls[-int(sys.argv[3]) if len(sys.argv) > 3 else -60:]:
            print(l[:220])
    elif head.startswith('###'):
        print(head[:300])
    else:
        print(head[:120])
s, _, after = summ.partition('===== END SUMMARY =====')
i = s.find('Summary:\n')
s = s[i:] if i >= 0 else s
s = re.sub(r'\n\s*3\. Files and Code Sections:.*?(?=\n\s*4\. )', '\n[3 cut]', s, flags=re.S)
print('===== SUMMARY')
print('\n'.join(l[:400] for l in s.split('\n')))
print('## after')
print('\n'.join(l[:200] for l in after.split('\n')[:25]))
