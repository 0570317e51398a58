#!/usr/bin/env bash
# scripts/bench.sh — loupe's speed and memory on large runs, beside jq on the
# same files in the same run.
#
# It generates loupe transcripts of 10, 100 and 500 MB with the sample
# generator (go run ./sampledata/gen -size N), then for each file runs
# `loupe verify --format json FILE` and `jq -c . FILE` alternately (A B A B
# ..., after one warm-up of each), and prints the median wall time and peak
# RSS of each, and the median of the per-pair ratios loupe/jq.
#
#   scripts/bench.sh                 10, 100 and 500 MB, 5 pairs each
#   SIZES="100MB" PAIRS=7 scripts/bench.sh
#   OUT=/tmp/bench scripts/bench.sh  where the inputs go (default: bench-out/, git-ignored)
#
# Needs jq and GNU time (/usr/bin/time); installs them with apt-get when
# missing. Timings on a shared machine are noisy: read the ratios, which are
# paired to cancel drift, rather than single numbers.
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=${SIZES:-"10MB 100MB 500MB"}
PAIRS=${PAIRS:-5}
OUT=${OUT:-bench-out}

need() {
	command -v "$1" >/dev/null && return
	echo "installing $2" >&2
	if [ "$(id -u)" -eq 0 ]; then apt-get update -qq && apt-get install -y -qq "$2" >/dev/null
	else sudo apt-get update -qq && sudo apt-get install -y -qq "$2" >/dev/null; fi
}
need jq jq
[ -x /usr/bin/time ] || need /usr/bin/time time

mkdir -p "$OUT"
go build -o "$OUT/loupe" .

# measure CMD... prints "wall_seconds peak_rss_kb" of one run.
measure() {
	local f
	f=$(mktemp)
	/usr/bin/time -f '%e %M' -o "$f" "$@" >/dev/null 2>&1 || true
	tail -n 1 "$f"
	rm -f "$f"
}

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }

printf '%-8s %10s %9s %11s %10s %9s %11s\n' size "loupe s" "loupe MiB" events "jq s" "jq MiB" "loupe/jq"
for size in $SIZES; do
	dir="$OUT/$size"
	if [ ! -f "$dir/large.jsonl" ]; then
		mkdir -p "$dir"
		go run ./sampledata/gen -out "$dir" -size "$size" >/dev/null
	fi
	file="$dir/large.jsonl"
	events=$(wc -l <"$file")
	measure "$OUT/loupe" verify --format json "$file" >/dev/null # warm the page cache and the binary
	measure jq -c . "$file" >/dev/null
	lw=() lm=() jw=() jm=() ratios=()
	for _ in $(seq "$PAIRS"); do
		read -r a am < <(measure "$OUT/loupe" verify --format json "$file")
		read -r b bm < <(measure jq -c . "$file")
		lw+=("$a") lm+=("$am") jw+=("$b") jm+=("$bm")
		ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.3f", a/b}')")
	done
	printf '%-8s %10s %9.0f %11s %10s %9.0f %11s\n' "$size" \
		"$(printf '%s\n' "${lw[@]}" | median)" "$(printf '%s\n' "${lm[@]}" | median | awk '{print $1/1024}')" "$events" \
		"$(printf '%s\n' "${jw[@]}" | median)" "$(printf '%s\n' "${jm[@]}" | median | awk '{print $1/1024}')" \
		"$(printf '%s\n' "${ratios[@]}" | median)"
done
