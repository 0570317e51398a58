#!/usr/bin/env bash
# scripts/snapshot.sh — write `loupe verify --format json` (and text) for every
# labelled set, fixture and built-in sample into a directory, one file per
# input, so two builds can be compared byte for byte:
#
#   scripts/snapshot.sh /tmp/before          # with the old build
#   scripts/snapshot.sh /tmp/after           # with the new one
#   diff -r /tmp/before /tmp/after && echo identical
#
# BIN=path/to/loupe uses a built binary instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/snapshot.sh OUTDIR}
mkdir -p "$out"
bin=${BIN:-}
if [ -z "$bin" ]; then
	bin=$(mktemp -d)/loupe
	go build -o "$bin" .
fi
shared=../shared

inputs=()
for d in verify/testdata/*/ "$shared"/eval/dev/; do
	for f in "$d"*.jsonl; do [ -f "$f" ] && inputs+=("$f"); done
done
while IFS= read -r f; do inputs+=("$f"); done < <(find "$shared/fixtures" -type f \( -name '*.jsonl' -o -name '*.json' \) 2>/dev/null | sort)
# Whole runtime folders (OpenHands, opencode, Gemini) are transcripts too.
for d in "$shared"/fixtures/synthetic/*/; do inputs+=("$d"); done
[ -d verify/testdata/real ] && while IFS= read -r f; do inputs+=("$f"); done < <(find verify/testdata/real -type f -name '*.jsonl*' | sort)

n=0
for f in "${inputs[@]}"; do
	name=$(printf '%s' "$f" | sed 's#^\.\./##; s#[/ ]#_#g')
	"$bin" verify --format json "$f" >"$out/$name.json" 2>"$out/$name.stderr" || echo "exit $?" >>"$out/$name.stderr"
	n=$((n + 1))
done
for s in migration clean tiny; do
	tmp=$(mktemp)
	"$bin" sample "$s" >"$tmp"
	"$bin" verify --format json "$tmp" | sed "s#$tmp#SAMPLE#g" >"$out/sample_$s.json" || true
	for fmt in text markdown junit; do
		"$bin" verify --format "$fmt" "$tmp" | sed "s#$tmp#SAMPLE#g" >"$out/sample_$s.$fmt" || true
	done
	rm -f "$tmp"
	n=$((n + 1))
done
echo "snapshot: $n inputs into $out"
