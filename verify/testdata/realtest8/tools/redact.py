#!/usr/bin/env python3
"""Redacts a runtime transcript for realtest8 and stores it gzipped.

usage: redact.py IN OUT.gz [--word OLD=NEW ...] [--sub OLD=NEW ...]
--word replaces OLD only as a whole word (so a user name inside a longer login, such as the GitHub
owner of the source repository, is kept); --sub replaces literally. Replacements run in order, on
every line; every non-empty output line must still parse as JSON (refused otherwise). The output is
gzip -9 with no name and no timestamp, so it is reproducible. The names themselves are given on the
command line and not written here. Prints the count per rule and secret-looking strings left.
"""
import gzip, json, re, sys

SECRET = re.compile(r'sk-(?:ant-|proj-)?[A-Za-z0-9]{20,}|AIza[0-9A-Za-z_-]{30,}|gh[pousr]_[A-Za-z0-9]{30,}|'
                    r'xox[abpr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|npm_[A-Za-z0-9]{30,}|tskey-[a-z]+-[A-Za-z0-9]{8,}|'
                    r'eyJ[A-Za-z0-9_-]{8,}\.eyJ|-----BEGIN [A-Z ]*PRIVATE KEY')


def main():
    src, dst, rules, args = sys.argv[1], sys.argv[2], [], sys.argv[3:]
    for flag, spec in zip(args[::2], args[1::2]):
        old, new = spec.split('=', 1)
        rx = re.compile(r'\b' + re.escape(old) + r'\b') if flag == '--word' else re.compile(re.escape(old))
        rules.append((spec.split('=')[0][:2] + '…', rx, new))
    counts = [0] * len(rules)
    out = []
    for line in open(src, encoding='utf-8').read().split('\n'):
        for k, (_, rx, new) in enumerate(rules):
            line, n = rx.subn(new, line)
            counts[k] += n
        if line.strip():
            json.loads(line)
        out.append(line)
    data = '\n'.join(out).encode('utf-8')
    with open(dst, 'wb') as f:
        with gzip.GzipFile(fileobj=f, mode='wb', compresslevel=9, mtime=0, filename='') as g:
            g.write(data)
    for (name, _, new), n in zip(rules, counts):
        print(f'{name} -> {new}: {n}')
    print('secret-looking left:', sorted(set(m.group(0)[:24] for m in SECRET.finditer(data.decode()))))
    print(dst, len(data), 'bytes raw')


main()
