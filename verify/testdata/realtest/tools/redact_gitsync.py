#!/usr/bin/env python3
"""redact_gitsync.py IN OUT: redactions for the entireio/git-sync Codex rollouts.

Line by line plain replacements (JSON stays valid, line numbers do not move)."""
import re, sys

PAIRS = [
    ("Stefan Haubold <stefan@entire.io>", "Dev One <dev1@example.com>"),
    ("stefan@entire.io", "dev1@example.com"),
    ("/Users/soph", "/Users/user"),
    ("/Users/thomi", "/Users/user2"),
]
WORDS = [(re.compile(r"Haubold"), "One"), (re.compile(r"\bStefan\b"), "Dev"), (re.compile(r"\bsoph/"), "dev1/"),
         (re.compile(r"\bsoph\b"), "user"), (re.compile(r"\bthomi\b"), "user2")]

with open(sys.argv[1], encoding="utf-8") as f, open(sys.argv[2], "w", encoding="utf-8") as g:
    for line in f:
        for a, b in PAIRS:
            line = line.replace(a, b)
        for rx, b in WORDS:
            line = rx.sub(b, line)
        g.write(line)
