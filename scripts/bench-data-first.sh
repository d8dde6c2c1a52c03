#!/usr/bin/env bash
# The explorer on --data while a large export loads, measured in tmux on
# the real program: from launch until the first table's first screen is
# drawn (a small NoSQL Workbench model given first, opened with --table
# Shop), until the large table's own first screen (--table Orders, which
# waits for its whole load), and until the status bar says the load is
# done. Beside them, the headless whole load (`dynascope tables --data`),
# and a baseline build (BASE=path to a dynascope binary, e.g. one built
# from main) that loads everything before its first frame. Figures only;
# polling every few ms bounds their resolution.
#   bash scripts/bench-data-first.sh [ITEMS] [RUNS]
set -euo pipefail
items=${1:-1000000}
runs=${2:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; tmux kill-session -t bench-data-first-$$ 2>/dev/null || true' EXIT
(cd "$here" && go build -o "$tmp/dynascope" . && go build -o "$tmp/benchdata" ./scripts/benchdata)
model=$here/internal/dynamo/dataload/testdata/shop.workbench.json
gen=$("$tmp/benchdata" --dir "$tmp/export" --items "$items" --parts 8)

now() { date +%s%N; }
ms() { echo "scale=1; ($1 - $2)/1000000" | bc -l; }

# measure BIN TABLE READY: first frame, the table's first screen (READY on
# screen) and the load's end (no "loading DATA" left), in ms from launch.
measure() {
	local bin=$1 table=$2 ready=$3 s=bench-data-first-$$ t0 t1="" t2="" t3="" screen
	t0=$(now)
	tmux new-session -d -s "$s" -x 120 -y 35 "exec $bin --data $model --data $tmp/export --keys PK:S,SK:S --table $table"
	while :; do
		screen=$(tmux capture-pane -p -t "$s" 2>/dev/null || true)
		if [[ -z $t1 && $screen == *READ-ONLY* ]]; then t1=$(now); fi
		if [[ -z $t2 && $screen == *"$ready"* ]]; then t2=$(now); fi
		if [[ -n $t1 && -z $t3 && $screen != *"loading DATA"* ]]; then t3=$(now); fi
		if [[ -n $t2 && -n $t3 ]]; then break; fi
		if (( ($(now) - t0) > 120000000000 )); then break; fi
	done
	tmux kill-session -t "$s" 2>/dev/null || true
	printf '%10s %12s %10s' "$(ms "${t1:-0}" "$t0")" "$(ms "${t2:-0}" "$t0")" "$(ms "${t3:-0}" "$t0")"
}

echo "cores: $(nproc) · load average $(cut -d' ' -f1-3 /proc/loadavg) (a shared machine)"
echo "$gen"
echo "headless whole load (dynascope tables --data, wall):"
for ((i = 0; i < runs; i++)); do
	t0=$(now)
	"$tmp/dynascope" tables --data "$model" --data "$tmp/export" --keys PK:S,SK:S >/dev/null 2>&1
	echo "  $(ms "$(now)" "$t0") ms"
done
echo "explorer, ms from launch:      build     first-frame  table-screen  load-done"
for build in ${BASE:+baseline} this; do
	bin=$tmp/dynascope
	[[ $build == baseline ]] && bin=$BASE
	for table in "Shop CUSTOMER#ada" "Orders TENANT#"; do
		set -- $table
		for ((i = 0; i < runs; i++)); do
			printf '  --table %-8s %-9s' "$1" "$build"
			measure "$bin" "$1" "$2"
			echo
		done
	done
done
