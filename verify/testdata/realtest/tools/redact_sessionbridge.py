#!/usr/bin/env python3
"""redact_sessionbridge.py IN OUT: the redactions applied to the savekirk/session-bridge files.

Line by line plain replacements (JSON stays valid, line numbers do not move). The repo
slug savekirk/session-bridge (the source repository) is kept; the home directories are not.
"""
import sys

PAIRS = [
    ("/Users/savekirk", "/Users/user"),
    ("/Users/ambrosino", "/Users/example"),
]

with open(sys.argv[1], encoding="utf-8") as f, open(sys.argv[2], "w", encoding="utf-8") as g:
    for line in f:
        for a, b in PAIRS:
            line = line.replace(a, b)
        g.write(line)
