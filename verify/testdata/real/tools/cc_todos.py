#!/usr/bin/env python3
"""Print the last TodoWrite state before each compact_boundary, and every TaskCreate/TaskUpdate. usage: cc_todos.py SESSION.jsonl"""
import sys,json
recs=[]
for i,l in enumerate(open(sys.argv[1]),1):
    if l.strip():
        try: recs.append((i,json.loads(l)))
        except: pass
last=None
for i,o in recs:
    if o.get('type')=='system' and o.get('subtype')=='compact_boundary' and not o.get('isSidechain'):
        print(f'--- boundary L{i}; last TodoWrite before it:', last[0] if last else None)
        if last:
            for t in last[1]: print('   ', t.get('status'), '|', t.get('content'))
    c=(o.get('message') or {}).get('content')
    if isinstance(c,list):
        for b in c:
            if isinstance(b,dict) and b.get('type')=='tool_use' and b.get('name')=='TodoWrite':
                last=(i,b['input'].get('todos',[]))
            if isinstance(b,dict) and b.get('type')=='tool_use' and b.get('name') in ('TaskCreate','TaskUpdate'):
                print('   task-tool L',i,b.get('name'),json.dumps(b.get('input'))[:200])
