#!/bin/bash
# scan_entire_agents.sh MIRROR: per non-Claude Entire session (metadata.json agent), its full.jsonl blobs and a
# whitespace-tolerant count of compaction markers (opencode exports and Gemini JSON may be pretty-printed).
# non-Claude Entire sessions: agent per session dir, tolerant compaction grep
d=$1; cd $d || exit
git rev-list --all --objects 2>/dev/null | grep -E '/[0-9]+/metadata\.json$' | sort -u -k1,1 > /tmp/b8m.txt
while read s p; do
  a=$(git cat-file -p $s 2>/dev/null | grep -o '"agent": *"[^"]*"' | head -1 | sed 's/.*: *"//;s/"//')
  case "$a" in "Claude Code"|"") continue;; esac
  dir=$(dirname $p)
  fs=$(git rev-list --all --objects | grep -F " $dir/full.jsonl" | awk '{print $1}' | sort -u)
  for f in $fs; do
    c=$(git cat-file -p $f 2>/dev/null | grep -cE '"type": ?"compact(ion|ed)"|state_snapshot|context_compacted|[Cc]ompressed from|Context compressed|"summary": ?true')
    echo "$(basename $(dirname $d)) $a $dir $f $(git cat-file -s $f) hits=$c"
  done
done < /tmp/b8m.txt | sort -u
