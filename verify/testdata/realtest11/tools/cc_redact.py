#!/usr/bin/env python3
"""Redact a Claude Code session JSONL for the realtest corpus.

usage: cc_redact.py IN.jsonl OUT.jsonl [--sub OLD=NEW ...] [--word NAME=NEW ...]

Generic rules: user names in home paths (/Users/<u>, /home/<u> except runner, C:\\Users\\<u>,
and the encoded project dirs -Users-<u>-, -home-<u>-) -> user; personal e-mail addresses
(webmail domains, and any --sub) -> user@example.com; JWTs -> REDACTED_JWT. Then each --sub,
literally and in order (people's names, logins). Every output line must still parse as JSON;
the script refuses to write otherwise. Prints the counts per rule, and secret-looking strings
left in the output (for a person to judge).
"""
import json, re, sys

HOME = [
    (re.compile(r'/Users/(?!user\b|Shared\b)[A-Za-z0-9._-]+'), '/Users/user'),
    # a home directory is followed by a path separator or the end of the string: /home/x.nix
    # in a config tree (nix home-manager modules) is not a user's home
    (re.compile(r'/home/(?!runner\b|user\b)[a-z][A-Za-z0-9_-]*(?=/|"|\\|\s|$)'), '/home/user'),
    (re.compile(r'(C:\\\\Users\\\\)(?!user\b)[A-Za-z0-9._-]+'), r'\1user'),
    (re.compile(r'-Users-(?!user-)[A-Za-z0-9.]+-'), '-Users-user-'),
    (re.compile(r'-home-(?!runner-|user-)[a-z][A-Za-z0-9.]*-'), '-home-user-'),
    (re.compile(r'claude-\d+/-Users-user'), 'claude-501/-Users-user'),
]
MAIL = re.compile(r'[A-Za-z0-9._%+-]+@(?:gmail|googlemail|outlook|hotmail|icloud|me|proton|protonmail|yahoo)\.[a-z.]{2,6}')
JWT = re.compile(r'eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}')
SECRET = re.compile(r'sk-(?:ant-|proj-)?[A-Za-z0-9]{20,}|AIza[0-9A-Za-z_-]{30,}|gh[pousr]_[A-Za-z0-9]{30,}|xox[abpr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|npm_[A-Za-z0-9]{30,}|eyJ[A-Za-z0-9_-]{8,}\.eyJ')


def main():
    a = sys.argv[1:]
    src, dst, subs = a[0], a[1], []
    i = 2
    while i < len(a):
        if a[i] in ('--sub', '--word'):
            old, new = a[i + 1].split('=', 1)
            subs.append((old, new, a[i] == '--word'))
            i += 2
        else:
            sys.exit(f'unknown argument {a[i]}')
    text = open(src, encoding='utf-8').read()
    counts = {}
    for rx, rep in HOME:
        text, n = rx.subn(rep, text)
        counts[rx.pattern[:24]] = n
    text, counts['mail'] = MAIL.subn('user@example.com', text)
    text, counts['jwt'] = JWT.subn('REDACTED_JWT', text)
    for old, new, word in subs:
        if word:  # whole word only (n is a JSON escape, so \\nname counts as a start)
            text, counts[old] = re.subn(r'(?<![A-Za-z0-9])' + re.escape(old) + r'(?![A-Za-z0-9])|(?<=\\n)' + re.escape(old) + r'(?![A-Za-z0-9])', new, text)
        else:
            counts[old] = text.count(old)
            text = text.replace(old, new)
    for n, ln in enumerate(text.split('\n'), 1):
        if ln.strip():
            try:
                json.loads(ln)
            except Exception as e:
                sys.exit(f'{dst}: line {n} no longer parses: {e}')
    open(dst, 'w', encoding='utf-8').write(text)
    print(dst, {k: v for k, v in counts.items() if v})
    left = sorted(set(SECRET.findall(text)))
    if left:
        print('  secret-looking strings left:', left[:10])


main()
