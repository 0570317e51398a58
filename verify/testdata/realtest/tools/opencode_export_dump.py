#!/usr/bin/env python3
"""opencode_export_dump.py FILE [FROM TO]: readable dump of an `opencode export` JSON
({info, messages:[{info, parts}]}) for hand labelling: one line per part with the message
index, role, and for tool parts the tool, status, input and the start of the output."""
import gzip, json, sys

path = sys.argv[1]
lo = int(sys.argv[2]) if len(sys.argv) > 2 else 0
hi = int(sys.argv[3]) if len(sys.argv) > 3 else 10**9
op = gzip.open if path.endswith(".gz") else open
d = json.load(op(path, "rt", encoding="utf-8"))
print("session", d["info"].get("id"), "version", d["info"].get("version"), "messages", len(d["messages"]))
for i, m in enumerate(d["messages"]):
    if i < lo or i > hi:
        continue
    info = m["info"]
    tag = f"{i} [{info.get('role')}{' SUMMARY' if info.get('summary') is True else ''}{' mode=' + info['mode'] if info.get('mode') else ''}]"
    for p in m.get("parts", []):
        t = p.get("type")
        if t == "text":
            print(tag, "TEXT", (p.get("text") or "")[:2500])
        elif t == "tool":
            st = p.get("state", {})
            out = str(st.get("output") or st.get("error") or "")
            print(tag, "TOOL", p.get("tool"), p.get("callID"), st.get("status"), json.dumps(st.get("input"))[:400], "->", repr(out[:400]))
        elif t in ("compaction", "patch", "file", "agent", "subtask"):
            print(tag, t.upper(), json.dumps(p)[:300])
