#!/usr/bin/env python3
"""redact_agentv.py IN OUT: the redactions applied to the EntityProcess/agentv Codex rollouts.

Plain string replacements, longest first, applied line by line so line numbers (Codex
refs) do not move. JSON stays valid: the quoted-handle pair swaps one escaped string for another.
"""
import sys

PAIRS = [
    ("Steve Yegge <steve.yegge@gmail.com>", "Project Author <author@example.invalid>"),
    ("steve.yegge@gmail.com", "author@example.invalid"),
    ("Steve Yegge", "Project Author"),
    ("christso@gmail.com", "dev1@example.com"),
    ("Christopher Tso", "Dev One"),
    ("Christopher", "Dev"),
    ("christso", "dev1"),
    ("Christso", "Dev1"),
    ("Keesan12", "contributor1"),
    ("tsoyang", "devorg"),
    ("TsoYang", "DevOrg"),
    ("/home/entity/", "/home/user/"),
    ("/home/entity", "/home/user"),
    ("/home/christso", "/home/user"),
    ('\\"entity\\"', '\\"user\\"'),
    ("entity-vps", "dev-vps"),
    (" entity entity ", " user user "),
]

def main():
    src, dst = sys.argv[1], sys.argv[2]
    with open(src, encoding="utf-8") as f, open(dst, "w", encoding="utf-8") as g:
        for line in f:
            for a, b in PAIRS:
                line = line.replace(a, b)
            g.write(line)

main()
