#!/usr/bin/env python3
"""For each compact_boundary: async agents / background shells launched so far and whether each was read to completion, killed or notified. usage: cc_async.py FILE..."""
import sys,json,re
for f in sys.argv[1:]:
    recs=[json.loads(l) for l in open(f) if l.strip()]
    launched={}; status={}; calls={}
    for i,o in enumerate(recs,1):
        if o.get('type')=='system' and o.get('subtype')=='compact_boundary' and not o.get('isSidechain'):
            openj=[(a,launched[a],status.get(a)) for a in launched if not (status.get(a) or '').startswith(('success','completed','killed','notif-completed','notif-'))]
            print(f.split('/')[-1],'boundary L%d'%i,'jobs launched so far',len(launched),'OPEN:',openj)
        c=(o.get('message') or {}).get('content')
        tur=o.get('toolUseResult')
        if isinstance(tur,dict):
            if tur.get('isAsync') and tur.get('agentId'): launched[tur['agentId']]=('agent',i)
            if tur.get('backgroundTaskId'): launched[tur['backgroundTaskId']]=('bash',i)
            if tur.get('shellId') and 'run_in_background' in json.dumps(o)[:0]+'' : pass
        if isinstance(c,list):
            for b in c:
                if not isinstance(b,dict): continue
                if b.get('type')=='tool_use':
                    calls[b['id']]=b
                if b.get('type')=='tool_result':
                    u=calls.get(b.get('tool_use_id'))
                    txt=json.dumps(b.get('content'))
                    if u and u.get('name') in ('TaskOutput','BashOutput','AgentOutputTool'):
                        tid=(u.get('input') or {}).get('task_id') or (u.get('input') or {}).get('bash_id') or (u.get('input') or {}).get('agentId')
                        m=re.search(r'<retrieval_status>(\w+)',txt); s=m.group(1) if m else None
                        m2=re.search(r'<status>(\w+)</status>',txt)
                        if m2 and m2.group(1) in ('completed','failed','killed'): s='completed'
                        if m2 and m2.group(1)=='running': s='running'
                        status[tid]=s or status.get(tid)
                    if u and u.get('name') in ('KillShell','KillBash','TaskStop'):
                        tid=(u.get('input') or {}).get('shell_id') or (u.get('input') or {}).get('task_id')
                        status[tid]='killed'
                    if u and u.get('name')=='Bash' and (u.get('input') or {}).get('run_in_background'):
                        m=re.search(r'ID: (\w+)',txt)
                        if m and m.group(1) not in launched: launched[m.group(1)]=('bash',i)
        txt=c if isinstance(c,str) else ''
        if o.get('type')=='queue-operation': txt=o.get('content') or ''
        for m in re.finditer(r'<(?:task|agent)-notification>.*?<(?:task|agent)-id>(\w+)</(?:task|agent)-id>.*?<status>(\w+)</status>',txt,re.S):
            if o.get('type')=='user' or o.get('operation')=='enqueue':
                if status.get(m.group(1)) not in ('success',): status[m.group(1)]='notif-'+m.group(2) if o.get('type')=='user' else status.get(m.group(1),'queued-notif-'+m.group(2))
