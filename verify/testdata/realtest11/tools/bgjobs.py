#!/usr/bin/env python3
# bgjobs.py RAW.jsonl BOUNDARY_LINE: for each background Bash job (backgroundTaskId), its <task-notification> lines and statuses before/after the boundary. Reading aid, independent of loupe.
import json,re,sys
L=open(sys.argv[1]).readlines(); b=int(sys.argv[2])
launch={}
for i,l in enumerate(L,1):
    for m in re.finditer(r'Command running in background with ID: (\w+)',l):
        launch.setdefault(m.group(1),i)
    for m in re.finditer(r'agentId: (\w+)',l):
        pass
for tid,li in launch.items():
    ev=[]
    for i,l in enumerate(L,1):
        if i<=li: continue
        if f'<task-id>{tid}</task-id>' in l or f'<task-id>{tid}<\\/task-id>' in l:
            st=re.search(r'<status>(\w+)</status>',l)
            ev.append((i, st.group(1) if st else '?'))
    before=[e for e in ev if e[0]<b]
    print(tid,'launched',li,'events before boundary',before[:3],'after',[e for e in ev if e[0]>b][:2])
