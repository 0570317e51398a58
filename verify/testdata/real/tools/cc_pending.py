#!/usr/bin/env python3
"""For each compact_boundary: tool_use ids with no tool_result earlier in the file, and whether the logicalParentUuid exists on disk. usage: cc_pending.py FILE..."""
import sys,json
for f in sys.argv[1:]:
    recs=[json.loads(l) for l in open(f) if l.strip()]
    uu={o.get('uuid') for o in recs if o.get('uuid')}
    uses={}; res=set(); 
    for i,o in enumerate(recs,1):
        if o.get('type')=='system' and o.get('subtype')=='compact_boundary' and not o.get('isSidechain'):
            pend=[(k,v) for k,v in uses.items() if k not in res]
            lp=o.get('logicalParentUuid')
            print(f.split('/')[-1], 'boundary L%d'%i, 'logicalParent in file:', lp in uu, 'pending:', pend)
        c=(o.get('message') or {}).get('content')
        if isinstance(c,list):
            for b in c:
                if isinstance(b,dict) and b.get('type')=='tool_use': uses[b['id']]=(i,b.get('name'))
                if isinstance(b,dict) and b.get('type')=='tool_result': res.add(b.get('tool_use_id'))
