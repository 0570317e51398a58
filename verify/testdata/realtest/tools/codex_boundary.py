#!/usr/bin/env python3
"""codex_boundary.py FILE: per compaction of a Codex rollout, what a labeller must read.

For each `compacted` line: the last update_plan before it, exec sessions still running
(a "Process running with session ID N" never followed by an exit for N), calls with no
output, failing outputs in the replaced span, the user messages of the replaced span,
the last assistant messages, and what replacement_history carries. It only gathers the
source for a person to read; it decides nothing.
"""
import gzip, json, re, sys

def text_of(content):
    return " ".join((c.get("text") or "") for c in content or [] if isinstance(c, dict))

def out_text(p):
    out = p.get("output")
    if isinstance(out, dict):
        out = out.get("content") or json.dumps(out)
    if isinstance(out, list):
        out = text_of(out)
    return str(out)

def is_ctx(txt):
    return txt.startswith(("# AGENTS.md", "<environment_context>", "<permissions", "<user_instructions>", "<turn_aborted>"))

def main():
    path = sys.argv[1]
    op = gzip.open if path.endswith(".gz") else open
    rows = [json.loads(l) for l in op(path, "rt", encoding="utf-8")]
    plan, running, calls, fails, users, assts = None, {}, {}, [], [], []
    prev = 0
    for i, o in enumerate(rows, 1):
        t, p = o.get("type"), o.get("payload") or {}
        pt = p.get("type")
        if t == "response_item" and pt in ("function_call", "custom_tool_call"):
            args = p.get("arguments") or p.get("input") or ""
            calls[p.get("call_id")] = (i, p.get("name"), args)
            if p.get("name") == "update_plan":
                plan = (i, args)
        elif t == "response_item" and pt in ("function_call_output", "custom_tool_call_output"):
            c = calls.pop(p.get("call_id"), None)
            txt = out_text(p)
            m = re.search(r"Process running with session ID (\d+)", txt)
            if m:
                running[m.group(1)] = (i, c[2][:200] if c else "")
            if c and c[1] == "write_stdin":
                sid = re.search(r'"session_id":\s*(\d+)', c[2])
                if sid and "Process running" not in txt:
                    running.pop(sid.group(1), None)
            code = re.search(r"(?:Process exited with code|Exit code:?) (\d+)", txt)
            if code and code.group(1) != "0":
                fails.append((i, (c[2][:160] if c else "?"), txt[:300].replace("\n", " | ")))
        elif t == "response_item" and pt == "message":
            txt = text_of(p.get("content"))
            if p.get("role") == "user" and not is_ctx(txt):
                users.append((i, txt))
            elif p.get("role") == "assistant":
                assts.append((i, txt))
        elif t == "compacted":
            rh = p.get("replacement_history") or []
            print(f"\n######## COMPACTION at line {i} (replaced span {prev+1}..{i-1})")
            print("plan:", plan)
            print("running exec sessions:", running)
            print("calls without output:", {k: v[:2] for k, v in calls.items()})
            print("failing outputs in span:")
            for f in fails:
                if f[0] > prev:
                    print("   ", f)
            print("user messages in span:")
            for u in users:
                if u[0] > prev:
                    print(f"   {u[0]}: {u[1][:1200]}")
            print("last assistant messages:")
            for a in assts[-6:]:
                print(f"   {a[0]}: {a[1][:1500]}")
            kinds = [x.get("type") for x in rh]
            print("replacement_history:", kinds, "message chars", len(p.get("message", "")))
            for x in rh:
                if x.get("type") == "message" and x.get("role") == "user":
                    txt = text_of(x.get("content"))
                    if not is_ctx(txt):
                        print("   rh user:", txt[:300])
            prev = i
    print("\nafter last compaction, first assistant messages:")
    for a in assts:
        if a[0] > prev:
            print(f"   {a[0]}: {a[1][:600]}")
            break

main()
