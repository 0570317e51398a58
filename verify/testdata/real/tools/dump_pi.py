#!/usr/bin/env python3
"""Readable dump of a pi coding-agent session (JSONL). Handles lines holding two records.
usage: dump_pi.py FILE [maxlen]"""
import json, sys
fn = sys.argv[1]; ML = int(sys.argv[2]) if len(sys.argv) > 2 else 400
def entries(fn):
    dec = json.JSONDecoder()
    for ln, l in enumerate(open(fn, encoding='utf-8').read().split('\n')):
        l = l.strip(); pos = 0
        while pos < len(l):
            o, end = dec.raw_decode(l, pos); yield ln, o; pos = end
            while pos < len(l) and l[pos].isspace(): pos += 1
def cut(s, n=ML):
    s = s if isinstance(s, str) else json.dumps(s, ensure_ascii=False)
    return s if len(s) <= n else s[:n] + f'…[+{len(s)-n}]'
calls = {}
for idx, (ln, o) in enumerate(entries(fn)):
    t = o.get('type')
    if t == 'compaction':
        print(f'\n######## [{idx}] line {ln} COMPACTION firstKept={o.get("firstKeptEntryIndex")} tokensBefore={o.get("tokensBefore")}\n{o["summary"]}\n########\n')
        continue
    if t != 'message':
        print(f'[{idx}] {t} {cut(o, 150)}'); continue
    m = o['message']; r = m.get('role')
    if r == 'user':
        c = m['content']; txt = c if isinstance(c, str) else ' '.join(b.get('text', '') for b in c if b.get('type') == 'text')
        print(f'[{idx}] USER: {cut(txt, 3000)}')
    elif r == 'assistant':
        for b in m['content']:
            if b['type'] == 'text': print(f'[{idx}] ASSIST: {cut(b["text"], 1500)}')
            elif b['type'] == 'thinking': print(f'[{idx}] think: {cut(b["thinking"], 300)}')
            elif b['type'] == 'toolCall':
                calls[b['id']] = idx
                print(f'[{idx}] CALL {b["id"]} {b["name"]} {cut(b.get("arguments"), ML)}')
        if m.get('stopReason') not in ('toolUse', 'stop', None): print(f'[{idx}] stopReason={m.get("stopReason")} {cut(m.get("errorMessage",""),200)}')
    elif r == 'toolResult':
        txt = ' '.join(b.get('text', '') for b in m['content'] if b.get('type') == 'text')
        calls.pop(m['toolCallId'], None)
        print(f'[{idx}] RESULT {m["toolCallId"]} {"ERROR " if m.get("isError") else ""}{cut(txt, ML)}')
    elif r == 'bashExecution':
        print(f'[{idx}] USER-BASH {cut(m.get("command"))} exit={m.get("exitCode")} {cut(m.get("output"), 200)}')
    else:
        print(f'[{idx}] {r} {cut(m, 200)}')
print('\nUNANSWERED CALLS:', calls)
