#!/usr/bin/env python3
# corpus3 helper: async agents / background jobs launched before line N and how they ended (Claude Code JSONL), independent of loupe.
import json,sys,re
f=sys.argv[1]; cut=int(sys.argv[2])
launched={}; ended={}
for n,l in enumerate(open(f),1):
    if n>=cut: break
    if not l.strip(): continue
    o=json.loads(l)
    s=json.dumps(o)
    for m in re.finditer(r'agentId: ([a-f0-9]{7,})', s):
        launched.setdefault(m.group(1), n)
    for m in re.finditer(r'Command running in background with ID: ([a-z0-9]+)', s):
        launched.setdefault(m.group(1), n)
    if o.get('type')=='user' or o.get('type')=='queue-operation':
        for m in re.finditer(r'<task-id>([a-z0-9]+)</task-id>.{0,200}?<status>(\w+)</status>', s):
            ended.setdefault(m.group(1), (n, m.group(2)))
        if 'Successfully stopped task' in s:
            for m in re.finditer(r'task_id[\\"]*: ?[\\"]*([a-z0-9]+)', s): ended.setdefault(m.group(1),(n,'stopped'))
    if o.get('type')=='assistant':
        for b in o['message'].get('content',[]):
            if isinstance(b,dict) and b.get('type')=='tool_use' and b['name'] in ('TaskOutput','TaskStop','KillShell','BashOutput'):
                pass
for k,v in launched.items():
    print(k, 'launched L%d'%v, 'ended', ended.get(k))
