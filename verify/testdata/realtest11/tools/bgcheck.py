#!/usr/bin/env python3
"""bgcheck.py SESSION.jsonl: for each compaction, every background job or async agent started before it and the last
lines before the boundary that name it (status, kill, TaskOutput). Reading aid, independent of loupe."""
import re, sys, json
path=sys.argv[1]
L=open(path).read().split('\n')
bounds=[i+1 for i,l in enumerate(L) if '"subtype":"compact_boundary"' in l]
launch={}
for i,l in enumerate(L,1):
    for m in re.finditer(r'(?:Command running in background with ID: |agentId: |backgroundTaskId\\?"?:\\?"?)(\w{6,9})',l):
        launch.setdefault(m.group(1),i)
for k,b in enumerate(bounds,1):
    for tid,li in launch.items():
        if li>=b: continue
        ev=[]
        for i in range(li+1,b):
            l=L[i-1]
            if tid in l:
                st=re.findall(r'<status>(\w+)</status>|"status":"(\w+)"|Successfully killed shell: '+tid+r'|KillShell|TaskOutput|TaskStop|KillBash',l)
                ev.append((i,[x for x in st][:2]))
        print(path.split('/')[-1], 'c%d'%k, tid, 'L%d'%li, ev[-3:] if ev else 'NO LATER MENTION')
