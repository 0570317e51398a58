#!/bin/bash
# scan_gemini_openhands.sh MIRROR: committed Gemini CLI homes (.gemini/tmp/**.json[l]) and OpenHands homes
# (.openhands/**.json) with a compression / condensation marker. Independent of loupe.
d=$1; cd $d || exit
lic=$(git ls-tree --name-only HEAD 2>/dev/null | grep -iE '^(LICEN|COPYING)' | head -1)
[ -n "$lic" ] && lic="$lic: $(git show HEAD:$lic 2>/dev/null| head -2 | tr '\n' ' ' | cut -c1-50)"
git rev-list --all --objects 2>/dev/null | grep -E '\.gemini/tmp/.*\.json(l)?$|\.openhands/.*\.json$' | sort -u -k1,1 > /tmp/b8o3.txt
hits=""
while read sha path; do
  c=$(git cat-file -p $sha 2>/dev/null | grep -c 'state_snapshot\|compressed from\|Context compressed\|"condensation"\|Condensation')
  [ -n "$c" ] && [ "$c" != "0" ] && hits="$hits\n   HIT $c $sha $(git cat-file -s $sha) $path"
done < /tmp/b8o3.txt
echo -e "=== $(basename $(dirname $d)) lic=[$lic] files=$(wc -l </tmp/b8o3.txt)$hits"
