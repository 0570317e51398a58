#!/bin/bash
# scan_entire.sh MIRROR: Entire checkpoints (entire/checkpoints/v1 branch and refs/entire/*): the agents named by
# the sessions' metadata.json, and every full.jsonl / raw_transcript blob holding a Codex, opencode, Gemini or
# OpenHands compaction marker. Independent of loupe.
d=$1; cd $d || exit
lic=$(git ls-tree --name-only HEAD 2>/dev/null | grep -iE '^(LICEN|COPYING)' | head -1)
[ -n "$lic" ] && lic="$lic: $(git show HEAD:$lic 2>/dev/null| head -2 | tr '\n' ' ' | cut -c1-50)"
git rev-list --all --objects 2>/dev/null | grep -E '(full\.jsonl|metadata\.json|raw_transcript[^/]*)$' > /tmp/b8o4.txt
ag=$(grep metadata.json /tmp/b8o4.txt | awk '{print $1}' | sort -u | head -3000 | while read s; do git cat-file -p $s 2>/dev/null | grep -o '"agent": *"[^"]*"' | head -1; done | sort | uniq -c | tr '\n' ' ')
hits=""
grep -v metadata.json /tmp/b8o4.txt | sort -u -k1,1 > /tmp/b8o5.txt
while read sha path; do
  c=$(git cat-file -p $sha 2>/dev/null | grep -c '"type":"compacted"\|"type":"compaction"\|state_snapshot\|"condensation"')
  [ -n "$c" ] && [ "$c" != "0" ] && hits="$hits\n   HIT $c $sha $(git cat-file -s $sha) $path"
done < /tmp/b8o5.txt
echo -e "=== $(basename $(dirname $d)) lic=[$lic] agents=[$ag] blobs=$(wc -l </tmp/b8o5.txt)$hits"
