#!/usr/bin/env python3
# corpus3 helper: TaskCreate/TaskUpdate/TodoWrite states before line N (Claude Code JSONL), independent of loupe.
import json,sys,re
f=sys.argv[1]; cut=int(sys.argv[2])
tasks={}; pend={}
for n,l in enumerate(open(f),1):
    if n>=cut: break
    if not l.strip(): continue
    o=json.loads(l)
    m=o.get('message') or {}
    c=m.get('content') if isinstance(m,dict) else None
    if not isinstance(c,list): continue
    for b in c:
        if not isinstance(b,dict): continue
        if b.get('type')=='tool_use' and b['name'] in ('TaskCreate','TaskUpdate','TodoWrite'):
            pend[b['id']]=(n,b['name'],b['input'])
        if b.get('type')=='tool_result' and b.get('tool_use_id') in pend:
            cn,name,inp=pend.pop(b['tool_use_id'])
            t=b.get('content'); t=t if isinstance(t,str) else ' '.join(x.get('text','') for x in (t or []) if isinstance(x,dict))
            if name=='TaskCreate':
                mm=re.search(r'Task #(\d+)',t)
                if mm: tasks[mm.group(1)]=[inp.get('subject') or inp.get('description','')[:80],'pending',cn]
            elif name=='TaskUpdate':
                tid=str(inp.get('taskId'))
                if tid in tasks and inp.get('status'): tasks[tid][1]=inp['status']; tasks[tid].append(f"{inp['status']}@L{cn}")
            else:
                print('TodoWrite L%d'%cn, [(x.get('content','')[:60],x.get('status')) for x in inp.get('todos',[])])
for k,v in tasks.items(): print(k,v)
