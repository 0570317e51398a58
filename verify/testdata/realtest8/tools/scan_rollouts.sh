#!/bin/bash
# scan_rollouts.sh MIRROR: licence file at HEAD, and every Codex rollout / pi session blob in any commit
# (.codex/sessions/**/rollout-*.jsonl, .pi/agent/sessions/**.jsonl) that holds a compacted or compaction record.
# Used on repositories that commit a project-local CODEX_HOME or pi agent dir. Independent of loupe.
d=$1; cd $d || exit
lic=$(git ls-tree --name-only HEAD 2>/dev/null | grep -iE '^(LICEN|COPYING)' | head -1)
[ -n "$lic" ] && lic="$lic: $(git show HEAD:$lic 2>/dev/null| head -2 | tr '\n' ' ' | cut -c1-60)"
git rev-list --all --objects 2>/dev/null | grep -E '(rollout-.*\.jsonl|\.pi/agent/sessions/.*\.jsonl)$' | sort -u -k1,1 > /tmp/b8o2.txt
hits=""
while read sha path; do
  c=$(git cat-file -p $sha 2>/dev/null | grep -c '"type":"compacted"\|"type":"compaction"')
  [ -n "$c" ] && [ "$c" != "0" ] && hits="$hits\n   HIT $c $sha $(git cat-file -s $sha) $path"
done < /tmp/b8o2.txt
echo -e "=== $(basename $(dirname $d)) lic=[$lic] rollouts=$(wc -l </tmp/b8o2.txt)$hits"
