#!/usr/bin/env python3
"""redact_entireskills.py IN OUT: redactions for the entireio/skills Codex rollout.

Line by line plain replacements (JSON stays valid, line numbers do not move)."""
import re, sys

PAIRS = [
    ("alishakawaguchi", "dev2-gh"),
    ("Sven Pfleiderer <sven@entire.io>", "Dev One <dev1@example.com>"),
    ("Alisha Kawaguchi <alisha@entire.io>", "Dev Two <dev2@example.com>"),
    ("sven@entire.io", "dev1@example.com"),
    ("alisha@entire.io", "dev2@example.com"),
    ("/Users/pfleidi", "/Users/user"),
    ("/Users/alisha", "/Users/user2"),
]
WORDS = [(re.compile(r"Pfleiderer"), "One"), (re.compile(r"pfleidi"), "user"), (re.compile(r"\bSven\b"), "Dev"),
         (re.compile(r"Kawaguchi"), "Two"), (re.compile(r"\bAlisha\b"), "Dev Two"), (re.compile(r"\balisha\b"), "user2")]

with open(sys.argv[1], encoding="utf-8") as f, open(sys.argv[2], "w", encoding="utf-8") as g:
    for line in f:
        for a, b in PAIRS:
            line = line.replace(a, b)
        for rx, b in WORDS:
            line = rx.sub(b, line)
        g.write(line)
