#!/usr/bin/env bash
# Start-up to first frame, measured in tmux on the real program: the time
# from launch until the screen shows the explorer (first frame) and until
# the screen's data is drawn (ready), for this tree's build beside a
# baseline build (BASE=path to a dynascope binary, e.g. one built from
# main). Figures only; polling every few ms bounds their resolution.
#   bash scripts/bench-startup.sh [RUNS]
set -euo pipefail
runs=${1:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here" && go build -o "$tmp/dynascope" .)

now() { date +%s%N; }

# measure BIN "ARGS" FIRST READY: prints first-frame and ready ms.
measure() {
	local bin=$1 args=$2 first=$3 ready=$4 s=bench-startup-$$ t0 t1="" t2="" screen
	t0=$(now)
	tmux new-session -d -s "$s" -x 120 -y 35 "exec $bin $args"
	while :; do
		screen=$(tmux capture-pane -p -t "$s" 2>/dev/null || true)
		if [[ -z $t1 && $screen == *"$first"* ]]; then t1=$(now); fi
		if [[ -n $t1 && $screen == *"$ready"* ]]; then t2=$(now); break; fi
		if (( ($(now) - t0) > 20000000000 )); then break; fi
	done
	tmux kill-session -t "$s" 2>/dev/null || true
	printf '%6.1f %8.1f' "$(echo "(${t1:-0} - $t0)/1000000" | bc -l)" "$(echo "(${t2:-0} - $t0)/1000000" | bc -l)"
}

case_() {
	local name=$1 args=$2 first=$3 ready=$4
	for build in ${BASE:+baseline} this; do
		local bin=$tmp/dynascope
		[[ $build == baseline ]] && bin=$BASE
		for ((i = 0; i < runs; i++)); do
			printf '%-34s %-8s ' "$name" "$build"
			measure "$bin" "$args" "$first" "$ready"
			echo
		done
	done
}

echo "case                               build    first-frame-ms  ready-ms"
case_ "--demo (tables, with counts)" "--demo" "READ-ONLY" "5,325"
case_ "--demo --table Locations --pk USA" "--demo --table Locations --pk USA" "READ-ONLY" "AK#"
# tmux's own start and the polling, with a program that prints at once.
for ((i = 0; i < runs; i++)); do
	printf '%-34s %-8s ' "tmux overhead (printf)" "-"
	measure "sh -c" "'echo READ-ONLY AK#; sleep 5'" "READ-ONLY" "AK#"
	echo
done
