#!/usr/bin/env bash
# keylatency.sh — key-to-screen latency of the inspector against less, in a
# real terminal (tmux), on the same file, in the same run.
#
#   scripts/keylatency.sh [FILE]          FILE defaults to the built-in migration run
#   ROUNDS=40 SIZE=140x40 KEYS="j ]" LOUPE=/path/to/loupe scripts/keylatency.sh
#
# For each program it starts a tmux pane of SIZE, waits for the first
# screen, then ROUNDS times: sends one key and polls capture-pane until the
# screen changes, timing from the send to the first changed capture. Keys
# alternate forward and back (j/k, ]/[) so every press changes the screen.
# less gets j/k only (it has no compactions); loupe gets every key of KEYS.
# It prints the median and the 90th percentile per key and the ratio of
# loupe's median to less's j median, and exits 1 when a ratio is over
# LIMIT (default 1.5), so CI or a person can hold the target.
set -euo pipefail

cd "$(dirname "$0")/.."
rounds=${ROUNDS:-30}
size=${SIZE:-140x40}
keys=${KEYS:-"j ]"}
limit=${LIMIT:-1.5}
tmp=$(mktemp -d)
sock="$tmp/tmux.sock"
cleanup() { tmux -S "$sock" kill-server 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT

command -v tmux >/dev/null || { echo "keylatency: tmux is not installed" >&2; exit 2; }
command -v less >/dev/null || { echo "keylatency: less is not installed" >&2; exit 2; }
loupe=${LOUPE:-}
if [ -z "$loupe" ]; then
	loupe=$tmp/loupe
	go build -o "$loupe" .
fi
file=${1:-}
if [ -z "$file" ]; then
	file=$tmp/migration.jsonl
	"$loupe" sample migration >"$file"
fi

w=${size%x*}
h=${size#*x}
now() { date +%s%N; }

# start NAME CMD...: a detached session running CMD, once its screen is up.
start() {
	local name=$1
	shift
	tmux -S "$sock" new-session -d -s "$name" -x "$w" -y "$h" "$@"
	local prev="" cur
	for _ in $(seq 1 200); do
		sleep 0.05
		cur=$(tmux -S "$sock" capture-pane -p -t "$name")
		# Settled: non-empty and unchanged for one poll.
		if [ -n "$(printf '%s' "$cur" | tr -d ' \n')" ] && [ "$cur" = "$prev" ]; then
			return 0
		fi
		prev=$cur
	done
	echo "keylatency: $name never drew a steady screen" >&2
	return 1
}

# press NAME KEY: milliseconds from sending KEY to the first changed screen.
press() {
	local name=$1 key=$2 before after t0 t1
	before=$(tmux -S "$sock" capture-pane -p -t "$name")
	t0=$(now)
	tmux -S "$sock" send-keys -t "$name" "$key"
	for _ in $(seq 1 20000); do
		after=$(tmux -S "$sock" capture-pane -p -t "$name")
		if [ "$after" != "$before" ]; then
			t1=$(now)
			echo $(((t1 - t0) / 1000))
			return 0
		fi
	done
	echo "keylatency: $name did not change after $key" >&2
	return 1
}

# stats: median and p90 (microseconds in, milliseconds out) of stdin.
stats() {
	sort -n | awk '{a[NR]=$1} END {m=a[int((NR+1)/2)]; p=a[int(NR*0.9+0.5)]; printf "%.1f %.1f\n", m/1000, p/1000}'
}

back_of() {
	case $1 in
	j) echo k ;;
	]) echo "[" ;;
	*) echo "$1" ;;
	esac
}

# measure NAME KEY: ROUNDS presses alternating KEY and its opposite.
measure() {
	local name=$1 key=$2 i k
	for i in $(seq 1 "$rounds"); do
		k=$key
		if [ $((i % 2)) = 0 ]; then k=$(back_of "$key"); fi
		press "$name" "$k"
	done | stats
}

start less less -R -S "$file"
read -r less_med less_p90 < <(measure less j)
printf '%-8s %-4s median %6.1f ms   p90 %6.1f ms\n' less j "$less_med" "$less_p90"

start loupe "$loupe" "$file"
status=0
for k in $keys; do
	read -r med p90 < <(measure loupe "$k")
	ratio=$(awk -v a="$med" -v b="$less_med" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
	printf '%-8s %-4s median %6.1f ms   p90 %6.1f ms   %s × less\n' loupe "$k" "$med" "$p90" "$ratio"
	if awk -v r="$ratio" -v l="$limit" 'BEGIN { exit !(r > l) }'; then
		status=1
	fi
done
if [ "$status" != 0 ]; then
	echo "keylatency: over $limit × less" >&2
fi
exit "$status"
