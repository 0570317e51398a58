#!/bin/bash
# probe.sh OWNER+NAME: licence on HEAD, checkpoint refs, compaction-bearing CC blobs (reading aid)
d=/work/.mirror/$1/repo
echo "=== $1"
git --git-dir $d ls-tree HEAD --name-only | grep -iE '^(licen[sc]e|copying)' | while read f; do git --git-dir $d show HEAD:$f | head -3 | tr '\n' ' '; echo; done
git --git-dir $d for-each-ref --format='%(refname)' | grep -c entire
if git --git-dir $d rev-parse -q --verify entire/checkpoints/v1 >/dev/null; then timeout 300 python3 $(dirname "$0")/list.py $d 2>/dev/null | awk '/^##/{print; n=0; next} {n++; if(n==1) print}' | head -40; fi
