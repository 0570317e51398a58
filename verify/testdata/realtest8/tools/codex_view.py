#!/usr/bin/env python3
"""Readable view of a Codex rollout around its compactions, for hand-labelling.

usage: codex_view.py ROLLOUT.jsonl[.gz] [FROM_LINE]

Prints, from FROM_LINE (default 1), user and agent messages, update_plan calls, tool calls and
their exit codes (non-zero marked !!), completed items (plans) and turn starts/ends; for each
`compacted` record its message length and the kinds of its replacement_history items.
Independent of loupe: written only to let a person read the session.
"""
import gzip, json, re, sys


def main():
    path = sys.argv[1]
    start = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    op = gzip.open if path.endswith('.gz') else open
    lines = op(path, 'rt', encoding='utf-8').read().split('\n')
    for i, l in enumerate(lines, 1):
        if i < start or not l.strip():
            continue
        o = json.loads(l)
        t, p = o.get('type'), o.get('payload') or {}
        pt = p.get('type') if isinstance(p, dict) else None
        if t == 'compacted':
            rh = p.get('replacement_history') or []
            kinds = [f"{x.get('type')}/{x.get('role', '')}" for x in rh]
            print(f"L{i} ##### COMPACTED message={len(p.get('message') or '')} chars, "
                  f"replacement_history={len(rh)}: {kinds}")
        elif t == 'event_msg' and pt == 'user_message':
            print(f"L{i} USER: {p.get('message', '')[:1500]}")
        elif t == 'event_msg' and pt == 'agent_message':
            print(f"L{i} AGENT[{p.get('phase')}]: {p.get('message', '')[:1200]}")
        elif t == 'event_msg' and pt in ('task_started', 'task_complete', 'context_compacted'):
            print(f"L{i} {pt}")
        elif t == 'event_msg' and pt == 'item_completed':
            print(f"L{i} ITEM {json.dumps(p.get('item'), ensure_ascii=False)[:2000]}")
        elif t == 'response_item' and pt in ('function_call', 'custom_tool_call'):
            a = p.get('arguments') or p.get('input') or ''
            print(f"L{i} CALL {p.get('call_id')} {p.get('name')}: {a[:300]}")
        elif t == 'response_item' and pt in ('function_call_output', 'custom_tool_call_output'):
            out = p.get('output')
            out = out if isinstance(out, str) else json.dumps(out)
            m = re.search(r'(?:Process exited with code|Exit code:) (\d+)', out)
            code = m.group(1) if m else '?'
            bad = code not in ('0', '?')
            print(f"L{i} {'!!' if bad else ''}RESULT {p.get('call_id')} code={code}: {out[:900 if bad else 250]}")


main()
