#!/bin/bash
# scan_repo.sh <git-dir> [pattern]: list every blob in history whose path matches pattern, with size and compaction markers
g="git -C $1"
pat=${2:-'\.jsonl$|\.json$'}
$g log --all --format='%H' --name-only --diff-filter=AM --no-renames | awk -v pat="$pat" 'length($0)==40 && $0 ~ /^[0-9a-f]+$/{c=$0;next} NF && $0 ~ pat {print c, $0}' | sort -u -k2,2 > /tmp/scan_$$.txt
while read c p; do
  b=$($g rev-parse "$c:$p" 2>/dev/null) || continue
  s=$($g cat-file -s $b)
  m=$($g cat-file -p $b | grep -c -E '"type":"compacted"|context_compacted|"condensation"|"Condensation"|state_snapshot|"type":"compaction"|isSummary|is_summary_message' )
  echo "$m $s $c $p"
done < /tmp/scan_$$.txt
rm -f /tmp/scan_$$.txt
