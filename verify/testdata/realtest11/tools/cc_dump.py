#!/usr/bin/env python3
"""Readable dump of a Claude Code session JSONL, for hand-labelling compactions.

usage: cc_dump.py SESSION.jsonl OUTDIR

Writes OUTDIR/full.txt (every record in file order, one block each, with line numbers,
marks for records off the active chain and for tool results that precede their tool_use)
and OUTDIR/cK.txt for each compaction K: the digest of its replaced span (human messages,
last todo state, errors and what followed them on the same tool, background jobs and how
they ended, commitment-like assistant sentences, the last events before the boundary) and
the summary text.

Independent of loupe: written only to let a person read the session.
"""
import json, os, re, sys, collections

CUT = 400


def short(s, n=CUT):
    s = s if isinstance(s, str) else json.dumps(s, ensure_ascii=False)
    s = s.replace('\r', '')
    return s if len(s) <= n else s[:n] + f' …[+{len(s) - n}]'


def text_of(content):
    if isinstance(content, str):
        return content
    out = []
    for b in content or []:
        if isinstance(b, dict):
            if b.get('type') == 'text':
                out.append(b.get('text', ''))
            elif b.get('type') == 'tool_result':
                out.append(text_of(b.get('content')))
    return '\n'.join(out)


def call_summary(name, inp):
    if not isinstance(inp, dict):
        return short(inp)
    keys = ['command', 'description', 'file_path', 'path', 'pattern', 'url', 'prompt', 'subagent_type',
            'run_in_background', 'bash_id', 'shell_id', 'task_id', 'agentId', 'old_string', 'new_string', 'content', 'query', 'skill', 'args', 'plan']
    parts = []
    for k in keys:
        if k in inp:
            v = inp[k]
            lim = 160 if k in ('old_string', 'new_string', 'content', 'prompt', 'plan') else 300
            parts.append(f'{k}={short(v, lim)}')
    if name == 'TodoWrite':
        parts = ['todos=' + '; '.join(f"[{t.get('status')}] {t.get('content')}" for t in inp.get('todos', []))]
    if not parts:
        parts = [short(inp, 300)]
    return ' | '.join(parts)


def load(path):
    recs = []
    with open(path, 'rb') as f:
        for i, ln in enumerate(f, 1):
            if not ln.strip():
                continue
            try:
                recs.append((i, json.loads(ln)))
            except Exception as e:
                recs.append((i, {'type': '__bad__', 'err': str(e)}))
    return recs


def active_chain(recs):
    """uuids on the active conversation: walk back from the last record, hop boundaries via logicalParentUuid."""
    by = {}
    for i, o in recs:
        u = o.get('uuid')
        if u and u not in by:
            by[u] = o
    last = None
    for i, o in reversed(recs):
        if o.get('uuid') and not o.get('isSidechain') and o.get('type') in ('user', 'assistant', 'system', 'attachment', 'progress'):
            last = o
            break
    on = set()
    cur = last
    guard = 0
    while cur is not None and guard < 10 ** 6:
        guard += 1
        on.add(cur['uuid'])
        p = cur.get('parentUuid') or cur.get('logicalParentUuid')
        cur = by.get(p) if p else None
    return on


def main():
    path, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    recs = load(path)
    on = active_chain(recs)
    use_line = {}
    for i, o in recs:
        c = (o.get('message') or {}).get('content')
        if isinstance(c, list):
            for b in c:
                if isinstance(b, dict) and b.get('type') == 'tool_use':
                    use_line.setdefault(b.get('id'), i)
    names = {}
    lines = []  # (lineno, kind, text, rec)
    for i, o in recs:
        t = o.get('type')
        off = '' if (not o.get('uuid') or o.get('uuid') in on) else ' {OFF-CHAIN}'
        side = ' {SIDECHAIN}' if o.get('isSidechain') else ''
        tag = f'L{i}{off}{side}'
        m = o.get('message') or {}
        c = m.get('content')
        if t == 'assistant':
            for b in c if isinstance(c, list) else []:
                bt = b.get('type')
                if bt == 'text':
                    lines.append((i, 'A', f'{tag} ASSISTANT: {short(b.get("text", ""), 3000)}', o))
                elif bt == 'tool_use':
                    names[b.get('id')] = b.get('name')
                    lines.append((i, 'CALL', f'{tag} CALL {b.get("id")} {b.get("name")}: {call_summary(b.get("name"), b.get("input"))}', o))
                elif bt == 'thinking':
                    lines.append((i, 'TH', f'{tag} (thinking {len(b.get("thinking", ""))} chars): {short(b.get("thinking", ""), 200)}', o))
        elif t == 'user':
            if o.get('isCompactSummary'):
                lines.append((i, 'SUMMARY', f'{tag} ===== COMPACT SUMMARY (uuid {o.get("uuid")}) =====\n{text_of(c)}\n===== END SUMMARY =====', o))
                continue
            if isinstance(c, list) and any(isinstance(b, dict) and b.get('type') == 'tool_result' for b in c):
                for b in c:
                    if not isinstance(b, dict) or b.get('type') != 'tool_result':
                        continue
                    tid = b.get('tool_use_id')
                    err = ' [ERROR]' if b.get('is_error') else ''
                    early = ' [RESULT-BEFORE-USE]' if use_line.get(tid, 0) > i else ''
                    tur = o.get('toolUseResult')
                    extra = ''
                    if isinstance(tur, dict):
                        for k in ('backgroundTaskId', 'shellId', 'isAsync', 'status', 'agentId', 'exitCode', 'interrupted'):
                            if k in tur and tur[k] not in (None, False, ''):
                                extra += f' {k}={tur[k]}'
                    lines.append((i, 'RES', f'{tag} RESULT {tid} ({names.get(tid)}){err}{early}{extra}: {short(text_of(b.get("content")), 500)}', o))
                continue
            txt = text_of(c)
            kind = 'META' if o.get('isMeta') else ('TN' if '<task-notification>' in txt else ('CMD' if txt.lstrip().startswith('<') else 'U'))
            lim = 4000 if kind == 'U' else 600
            lines.append((i, kind, f'{tag} USER{"(" + kind + ")" if kind != "U" else ""}: {short(txt, lim)}', o))
        elif t == 'system':
            st = o.get('subtype')
            if st == 'compact_boundary':
                lines.append((i, 'BOUNDARY', f'{tag} ##### COMPACT BOUNDARY uuid={o.get("uuid")} logicalParent={o.get("logicalParentUuid")} meta={json.dumps(o.get("compactMetadata"))} version={o.get("version")}', o))
            else:
                lines.append((i, 'SYS', f'{tag} SYSTEM/{st}: {short(o.get("content", ""), 300)}', o))
        elif t == 'queue-operation':
            lines.append((i, 'Q', f'{tag} QUEUE {o.get("operation")}: {short(o.get("content", ""), 300)}', o))
        elif t in ('progress', 'file-history-snapshot'):
            continue
        else:
            lines.append((i, 'OTHER', f'{tag} {t}: {short({k: v for k, v in o.items() if k not in ("message",)}, 300)}', o))
    with open(os.path.join(out, 'full.txt'), 'w') as f:
        for ln in lines:
            f.write(ln[2] + '\n')
    # compactions
    bidx = [k for k, ln in enumerate(lines) if ln[1] == 'BOUNDARY' and not ln[3].get('isSidechain')]
    sidx = [k for k, ln in enumerate(lines) if ln[1] == 'SUMMARY']
    commit_re = re.compile(r"\b(I'll|I will|I'm going to|next,? I|next step|still need|need to|TODO|remaining|will (?:now|then|also)|let me)\b", re.I)
    prev_end = 0
    for n, b in enumerate(bidx, 1):
        span = lines[prev_end:b]
        with open(os.path.join(out, f'c{n}.txt'), 'w') as f:
            f.write(f'### compaction {n}: {lines[b][2]}\n\n')
            f.write('## human user messages in span\n')
            for ln in span:
                if ln[1] == 'U':
                    f.write(ln[2] + '\n')
            f.write('\n## last TodoWrite in span (and all todo states)\n')
            todos = [ln for ln in span if ln[1] == 'CALL' and ' TodoWrite:' in ln[2]]
            for ln in todos[-3:]:
                f.write(ln[2] + '\n')
            f.write('\n## errors in span, each followed by the next 3 calls/results\n')
            for k, ln in enumerate(span):
                if ln[1] == 'RES' and ('[ERROR]' in ln[2] or re.search(r'[Ee]xit code [1-9]', ln[2])):
                    f.write('!! ' + ln[2] + '\n')
                    tid = ln[2].split()[2] if len(ln[2].split()) > 2 else ''
                    # the call
                    for ln2 in span:
                        if ln2[1] == 'CALL' and tid and tid in ln2[2]:
                            f.write('   call: ' + short(ln2[2], 500) + '\n')
                            break
                    nxt = [x for x in span[k + 1:] if x[1] in ('CALL', 'A')][:4]
                    for x in nxt:
                        f.write('   then: ' + short(x[2], 300) + '\n')
            f.write('\n## background jobs / async / notifications in span\n')
            for ln in span:
                if ('run_in_background=True' in ln[2] or 'backgroundTaskId' in ln[2] or 'isAsync' in ln[2] or ln[1] in ('TN', 'Q')
                        or re.search(r' (BashOutput|KillShell|TaskOutput|KillBash|TaskStop|AgentOutputTool)\b', ln[2])):
                    f.write(short(ln[2], 500) + '\n')
            f.write('\n## commitment-like assistant sentences in span (last 40)\n')
            cl = [ln for ln in span if ln[1] == 'A' and commit_re.search(ln[2])]
            for ln in cl[-40:]:
                f.write(short(ln[2], 800) + '\n')
            f.write('\n## last 60 events before boundary\n')
            for ln in [x for x in span if x[1] not in ('TH',)][-60:]:
                f.write(short(ln[2], 1200) + '\n')
            f.write('\n## summary\n')
            summ = [lines[k] for k in sidx if k > b][:1]
            for ln in summ:
                f.write(ln[2] + '\n')
            f.write('\n## first 15 events after the summary\n')
            if summ:
                k0 = lines.index(summ[0])
                for ln in [x for x in lines[k0 + 1:] if x[1] not in ('TH',)][:15]:
                    f.write(short(ln[2], 600) + '\n')
        prev_end = b + 1
    print(f'{len(recs)} records, {len(bidx)} boundaries, {len(sidx)} summaries -> {out}')


main()
