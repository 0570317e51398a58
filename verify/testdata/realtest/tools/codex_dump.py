#!/usr/bin/env python3
"""codex_dump.py FILE [FROM TO]: a readable dump of a Codex rollout for hand labelling.

Prints one line per response_item (user/assistant text, function/custom tool calls
with their arguments, outputs with exit status and first lines), update_plan steps,
and each compacted record with what its replacement_history carries. Reads .gz too.
"""
import gzip, json, sys

def text_of(content):
    out = []
    for c in content or []:
        if isinstance(c, dict):
            out.append(c.get("text") or "")
    return " ".join(out)

def main():
    path = sys.argv[1]
    lo = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    hi = int(sys.argv[3]) if len(sys.argv) > 3 else 10**9
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt", encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if i < lo or i > hi:
                continue
            o = json.loads(line)
            t, p = o.get("type"), o.get("payload") or {}
            pt = p.get("type")
            if t == "response_item":
                if pt == "message":
                    txt = text_of(p.get("content"))
                    if p.get("role") == "developer" or txt.startswith("# AGENTS.md") or txt.startswith("<environment_context>"):
                        print(f"{i} [{p.get('role')}] <{len(txt)} chars of instructions/context>")
                    else:
                        print(f"{i} [{p.get('role')}] {txt[:1500]}")
                elif pt in ("function_call", "custom_tool_call"):
                    args = p.get("arguments") or p.get("input") or ""
                    print(f"{i} CALL {p.get('name')} {p.get('call_id')} {args[:600]}")
                elif pt in ("function_call_output", "custom_tool_call_output"):
                    out = p.get("output")
                    if isinstance(out, dict):
                        out = out.get("content") or json.dumps(out)
                    if isinstance(out, list):
                        out = text_of(out)
                    out = str(out)
                    print(f"{i} OUT {p.get('call_id')} {out[:700]!r}")
                elif pt == "reasoning":
                    s = " ".join(x.get("text", "") for x in p.get("summary") or [])
                    if s:
                        print(f"{i} (reasoning) {s[:400]}")
                else:
                    print(f"{i} item {pt} {json.dumps(p)[:300]}")
            elif t == "compacted":
                rh = p.get("replacement_history") or []
                print(f"{i} ===== COMPACTED message={len(p.get('message',''))} chars, replacement_history {len(rh)} items")
                for x in rh:
                    if x.get("type") == "message":
                        txt = text_of(x.get("content"))
                        if x.get("role") == "developer" or txt.startswith("# AGENTS.md") or txt.startswith("<environment_context>"):
                            print(f"      rh [{x.get('role')}] <{len(txt)} chars of instructions/context>")
                        else:
                            print(f"      rh [{x.get('role')}] {txt[:3000]}")
                    else:
                        print(f"      rh {x.get('type')} keys={sorted(x)} enc={len(x.get('encrypted_content') or '')}")
            elif t == "event_msg" and pt in ("context_compacted", "turn_aborted", "error", "task_started", "task_complete"):
                print(f"{i} EVENT {pt} {json.dumps(p)[:200]}")
            elif t == "session_meta":
                print(f"{i} SESSION {p.get('id')} cli {p.get('cli_version')} {p.get('originator')}")

main()
