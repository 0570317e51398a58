#!/usr/bin/env python3
"""labels_opencode.py: writes ../labels-opencode.json (hand labels, by reading
opencode_export_dump.py output; loupe was not run)."""
import json, os

CASES = [{
 "file": "opencode/opencode-1.4.3-sessionbridge-entire-commands.export.json.gz",
 "runtime": "opencode", "version": "1.4.3 (`opencode export` JSON as committed by Entire)",
 "repo": "savekirk/session-bridge",
 "compactions": [{
  "ordinal": 1,
  "boundary_hint": "messages[44] user msg_d883a0c31001dEGEKLIhS9Zboq with part {type:compaction, auto:true}; summary = messages[45] assistant summary:true mode=compaction",
  "verdict": "degrade",
  "open": [
   {"kind": "commitment", "contains": "Run pnpm compile to verify no errors", "carried": True,
    "why": "messages[42] todowrite: pending (recorded); the extension.ts rewrite (messages[43]) was not compiled. Summary: '### Still to verify - Run `pnpm compile` to confirm the refactored code has no type errors'."},
   {"kind": "identifier", "contains": "src/EntireCommand.ts", "carried": True,
    "why": "file of the open refactor; summary names it under Relevant files and Accomplished."},
   {"kind": "identifier", "contains": "src/extension.ts", "carried": True,
    "why": "file just rewritten, to be compiled; summary names it."}
  ],
  "losses": [],
  "not_owed": [
   {"kind": "commitment", "contains": "Refactor extension.ts to import and use EntireCommand functions",
    "why": "messages[42] todo still in_progress, but messages[43] wrote the refactored extension.ts (applied); the summary lists it under Completed. Work visibly done; only its compile check is open (kept). A strict status matcher would call it flipped."},
   {"kind": "error", "contains": "Cannot find name 'showStatus'",
    "why": "messages[30] check-types error, fixed at [34] and check-types clean at [35]."},
   {"kind": "constraint", "contains": "Move them to commands typescript module",
    "why": "messages[39] user: a one-off request about the thing being built, carried out at [41]-[43]."},
   {"kind": "constraint", "contains": "these instructions should be included in any summary of this page",
    "why": "text inside a fetched web page (messages[1] webfetch output), not the user's words."}
  ],
  "notes": "Auto compaction (overflow false). The summary keeps Goal, Instructions, Discoveries, Accomplished/Completed and a 'Still to verify' pending item; after it opencode injects 'Continue if you have next steps' and the agent ran pnpm compile (clean). The file is the `opencode export` shape ({info, messages:[{info, parts}]}) that Entire stores, not opencode's storage tree or SQLite database."
 }]
}]

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "labels-opencode.json"), "w") as f:
    json.dump({"cases": CASES}, f, indent=1, ensure_ascii=False)
    f.write("\n")
