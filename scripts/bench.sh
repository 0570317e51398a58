#!/usr/bin/env bash
# scripts/bench.sh — loupe verify's time and memory on every shape of run
# (package sampledata/shapes), each at three sizes, beside `jq -c .` and
# `cat FILE >/dev/null` on the same file in the same run, and how loupe's
# time grows with the file: the exponent between consecutive sizes,
# log(t2/t1)/log(s2/s1) (1 is linear; well above 1.1 is super-linear).
#
#   scripts/bench.sh                        every shape at its three default sizes
#   QUICK=1 scripts/bench.sh                the two smallest sizes, one repeat each
#   SHAPES="flaky rules" scripts/bench.sh   only these shapes
#   SHAPES=flaky SIZES="5MB 10MB 20MB 40MB" scripts/bench.sh
#   SHAPES=subagent-project SIZES="5000 20000" scripts/bench.sh
#   REPS=5 TIMEOUT=120 OUT=/tmp/bench scripts/bench.sh
#   LOUPE=/tmp/loupe-old QUICK=1 scripts/bench.sh
#                                           time another build (an older
#                                           commit's) on the same inputs
#
# The shapes and their default sizes: go run ./scripts/shapes -list.
# Per shape and size it prints the median over REPS rounds (default 3) of
# loupe's wall time, its CPU time (user+sys), its peak RSS, jq's and cat's
# wall time, and the median of the per-round ratios loupe/jq. Each round
# runs loupe, jq and cat one after the other, so the three see the same
# machine; read the ratios and exponents rather than single times on a
# shared machine. A loupe run longer than TIMEOUT seconds (default 900) is
# stopped, and the shape's larger sizes are skipped.
#
# A directory shape (subagent-project: a Claude Code project of many
# sub-agent files; its sizes are file counts) is verified as `loupe verify
# DIR`, and jq and cat read every file of it (find -exec … {} +).
#
# Inputs are generated into OUT (default bench-out/, git-ignored) once per
# generator build, shape, size and SEED (default 1) and kept; delete OUT to
# reclaim the space.
# Needs jq and GNU time (/usr/bin/time): installed with apt-get if missing.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${OUT:-bench-out}
SEED=${SEED:-1}
TIMEOUT=${TIMEOUT:-900}
if [ -n "${QUICK:-}" ]; then
	REPS=${REPS:-1}
else
	REPS=${REPS:-3}
fi

need() {
	command -v "$1" >/dev/null && return
	echo "installing $2" >&2
	if [ "$(id -u)" -eq 0 ]; then apt-get update -qq && apt-get install -y -qq "$2" >/dev/null
	else sudo apt-get update -qq && sudo apt-get install -y -qq "$2" >/dev/null; fi
}
need jq jq
[ -x /usr/bin/time ] || need /usr/bin/time time

mkdir -p "$OUT"
loupe=${LOUPE:-$OUT/loupe}
[ -n "${LOUPE:-}" ] || go build -o "$loupe" .
go build -o "$OUT/shapes" ./scripts/shapes
genid=$(sha256sum "$OUT/shapes" | cut -c1-12) # a changed generator writes new inputs
list=$("$OUT/shapes" -list)
SHAPES=${SHAPES:-$(cut -f1 <<<"$list")}

# field SHAPE N prints field N of the shape's -list line.
field() { awk -F'\t' -v s="$1" -v n="$2" '$1 == s {print $n}' <<<"$list"; }

# measure CMD... runs CMD once with its output discarded and prints
# "wall_s cpu_s peak_rss_kb exit_status".
measure() {
	local f rc=0
	f=$(mktemp)
	/usr/bin/time -f '%e %U %S %M' -o "$f" "$@" >/dev/null 2>&1 || rc=$?
	tail -n 1 "$f" | awk -v rc="$rc" '{printf "%s %.2f %s %s\n", $1, $2 + $3, $4, rc}'
	rm -f "$f"
}

median() { sort -g | awk '{a[NR] = $1} END {if (NR == 0) print "nan"; else if (NR % 2) print a[(NR + 1) / 2]; else printf "%.3f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

# exponent T1 S1 T2 S2 prints log(T2/T1)/log(S2/S1), or - without both.
exponent() { awk -v t1="$1" -v s1="$2" -v t2="$3" -v s2="$4" 'BEGIN {if (t1 > 0 && t2 > 0 && s1 > 0 && s2 != s1) printf "%.2f", log(t2 / t1) / log(s2 / s1); else print "-"}'; }

echo "# loupe ${LOUPE:-$(git rev-parse --short HEAD 2>/dev/null || echo '?')}, $(go env GOVERSION), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $REPS round(s) per size, seed $SEED"
fmt='%-16s %7s %9s %9s %8s %8s %9s %7s %7s %8s %6s %6s\n'
printf "$fmt" shape size MB lines "loupe s" "cpu s" "loupe MiB" "jq s" "cat s" loupe/jq "exp" "expcpu"
for shape in $SHAPES; do
	if [ -z "$(field "$shape" 1)" ]; then
		echo "unknown shape $shape (see go run ./scripts/shapes -list)" >&2
		exit 2
	fi
	sizes=${SIZES:-$(field "$shape" 2 | tr ',' ' ')}
	if [ -n "${QUICK:-}" ] && [ -z "${SIZES:-}" ]; then
		sizes=$(awk '{print $1, $2}' <<<"$sizes")
	fi
	file=$(field "$shape" 4)
	prev_t="" prev_c="" prev_s=""
	for size in $sizes; do
		dir="$OUT/$shape/$genid/$SEED-$size"
		path="$dir/$file"
		if [ ! -e "$path" ]; then
			mkdir -p "$dir"
			rm -rf "$path.tmp"
			"$OUT/shapes" -shape "$shape" -size "$size" -seed "$SEED" -o "$path.tmp"
			mv "$path.tmp" "$path"
		fi
		# A directory shape (a project of many files): its bytes and lines
		# are every file's, and jq and cat read every file.
		bytes=$(find "$path" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}')
		lines=$(find "$path" -type f -exec cat {} + | wc -l)
		find "$path" -type f -exec cat {} + >/dev/null # into the page cache
		lw=() lc=() lm=() jw=() cw=() ratios=() failed=""
		for _ in $(seq "$REPS"); do
			read -r a ac am rc < <(measure timeout "$TIMEOUT" "$loupe" verify --format json "$path")
			if [ "$rc" -eq 124 ]; then failed="timeout"; break; fi
			if [ "$rc" -ge 2 ]; then failed="exit $rc"; break; fi
			read -r b _ _ _ < <(measure find "$path" -type f -exec jq -c . {} +)
			read -r c _ _ _ < <(measure find "$path" -type f -exec cat {} +)
			lw+=("$a") lc+=("$ac") lm+=("$am") jw+=("$b") cw+=("$c")
			ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "nan"}')")
		done
		mb=$(awk -v b="$bytes" 'BEGIN {printf "%.1f", b / 1048576}')
		if [ -n "$failed" ]; then
			printf "$fmt" "$shape" "$size" "$mb" "$lines" ">$TIMEOUT" "-" "-" "-" "-" "-" "-" "-"
			[ "$failed" = timeout ] || echo "loupe verify failed on $path ($failed)" >&2
			break # the larger sizes would take longer still
		fi
		t=$(printf '%s\n' "${lw[@]}" | median)
		ct=$(printf '%s\n' "${lc[@]}" | median)
		e=$( [ -n "$prev_t" ] && exponent "$prev_t" "$prev_s" "$t" "$bytes" || echo "-")
		ec=$( [ -n "$prev_c" ] && exponent "$prev_c" "$prev_s" "$ct" "$bytes" || echo "-")
		printf "$fmt" "$shape" "$size" "$mb" "$lines" "$t" "$ct" \
			"$(printf '%s\n' "${lm[@]}" | median | awk '{printf "%.0f", $1 / 1024}')" \
			"$(printf '%s\n' "${jw[@]}" | median)" "$(printf '%s\n' "${cw[@]}" | median)" \
			"$(printf '%s\n' "${ratios[@]}" | median)" "$e" "$ec"
		prev_t=$t prev_c=$ct prev_s=$bytes
	done
done
echo "# load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
