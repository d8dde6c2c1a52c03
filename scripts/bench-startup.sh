#!/usr/bin/env bash
# Start-up, measured on the real program in a 120x35 pseudo-terminal: the
# time from launch until the screen shows the explorer (first frame: its
# status bar's READ-ONLY) and until the screen's data is drawn (ready), for this tree's
# build beside a baseline built from BASE_REF (default main; or BASE=path
# to a dynascope binary), on --demo and on dynalite (--endpoint-url).
# Figures only, each run's and the median; the launch floor lines are what
# starting any program, and any Go program, costs here; then --help's wall
# time beside a Go program printing a line. DYNAMO_BROWSE=path adds that
# peer's first frame, data drawn and -h on the same dynalite.
#   bash scripts/bench-startup.sh [RUNS]        (from the repository root)
set -euo pipefail
runs=${1:-5}
cd "$(dirname "$0")/.."
source scripts/bench-lib.sh # builds $work/dynascope, starts dynalite at $endpoint

if [[ -z ${BASE:-} ]]; then
	ref=${BASE_REF:-main}
	mkdir -p "$work/base"
	git archive "$ref" | tar -x -C "$work/base"
	release_build "$work/base" "$work/dynascope-base"
	BASE=$work/dynascope-base
	echo "baseline: $ref ($(git rev-parse --short "$ref"))"
fi
echo "this:     $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' + uncommitted changes')"
"$work/dynascope" seed --endpoint-url "$endpoint" --region us-east-1 --tables Locations >/dev/null

# measure BIN "ARGS" READY [AFTER KEYS]: prints first-frame and ready ms,
# timed on a pseudo-terminal of the program's own (startup-timer.py keeps
# the screen as a terminal would; no tmux in between). With AFTER and
# KEYS, KEYS are typed once AFTER is on screen (esc once the demo's tour
# shows, for the tables screen behind it).
measure() {
	local bin=$1 args=$2 ready=$3 after=${4:-} keys=${5:-}
	# shellcheck disable=SC2086 # ARGS are words
	AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench python3 scripts/startup-timer.py 120 35 READ-ONLY "$ready" ${after:+"$after" "$keys"} -- "$bin" $args
}

median() { sort -n | awk '{a[NR]=$1} END {if (NR == 0) print "-"; else if (NR % 2) print a[(NR+1)/2]; else printf "%.1f\n", (a[NR/2]+a[NR/2+1])/2}'; }

printf '%-46s %-8s %10s %10s\n' case build first-ms ready-ms
case_() {
	local name=$1 args=$2 ready=$3 after=${4:-} keys=${5:-}
	for build in baseline this; do
		local bin=$work/dynascope firsts=() readies=() line
		[[ $build == baseline ]] && bin=$BASE
		for ((i = 0; i < runs; i++)); do
			read -r f r < <(measure "$bin" "$args" "$ready" "$after" "$keys")
			firsts+=("$f") readies+=("$r")
		done
		line=$(printf '%s ' "${firsts[@]}")
		printf '%-46s %-8s %10s %10s   runs: first %s· ready %s\n' "$name" "$build" \
			"$(printf '%s\n' "${firsts[@]}" | grep -v -- - | median)" "$(printf '%s\n' "${readies[@]}" | grep -v -- - | median)" \
			"$line" "$(printf '%s ' "${readies[@]}")"
	done
}

case_ "--demo (the tour)" "--demo" "Demo tour"
case_ "--demo, esc to the tables (with counts)" "--demo" "5,325" "Demo tour" '\x1b[27u'
case_ "--demo --table Locations --pk USA" "--demo --table Locations --pk USA" "AK#"
case_ "dynalite: tables (described)" "--endpoint-url $endpoint --region us-east-1" "LSI BySquareFeet"
case_ "dynalite: --table Locations --pk USA" "--endpoint-url $endpoint --region us-east-1 --table Locations --pk USA" "AK#"
# A peer beside us, where DYNAMO_BROWSE names a dynamo-browse binary
# (github.com/lmika/dynamo-browse: go install …/cmd/dynamo-browse@latest,
# or go build ./cmd/dynamo-browse in its clone): its first frame (the
# table picker's "Select table", or -t's "Table: Locations") and its data
# drawn, on the same dynalite.
if [[ -n ${DYNAMO_BROWSE:-} ]]; then
	peer() {
		local name=$1 first=$2 ready=$3
		shift 3
		local firsts=() readies=()
		for ((i = 0; i < runs; i++)); do
			read -r f r < <(cd "$work" && AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1 python3 "$OLDPWD/scripts/startup-timer.py" 120 35 "$first" "$ready" -- "$DYNAMO_BROWSE" "$@")
			firsts+=("$f") readies+=("$r")
		done
		printf '%-46s %-8s %10s %10s   runs: first %s· ready %s\n' "$name" "peer" \
			"$(printf '%s\n' "${firsts[@]}" | grep -v -- - | median)" "$(printf '%s\n' "${readies[@]}" | grep -v -- - | median)" \
			"$(printf '%s ' "${firsts[@]}")" "$(printf '%s ' "${readies[@]}")"
	}
	hostport=${endpoint#http://}
	peer "dynamo-browse: tables (its picker)" "Select table" "Locations" -local "$hostport"
	peer "dynamo-browse: -t Locations (its first page)" "Table: Locations" "AK#" -local "$hostport" -t Locations
fi

# The floors: launching a program that prints at once, and a Go program
# that prints a line (what any Go binary's start costs here).
mkdir -p "$work/hello"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("READ-ONLY AK#") }\n' >"$work/hello/main.go"
printf 'module hello\n\ngo 1.26\n' >"$work/hello/go.mod"
(cd "$work/hello" && go build -o "$work/hello-go" .)
for floor in /bin/echo "$work/hello-go"; do
	firsts=()
	for ((i = 0; i < runs; i++)); do
		read -r f _ < <(measure "$floor" "READ-ONLY AK#" "AK#")
		firsts+=("$f")
	done
	printf '%-46s %-8s %10s %10s   runs: %s\n' "launch floor ($(basename "$floor"))" "-" "$(printf '%s\n' "${firsts[@]}" | median)" "" "$(printf '%s ' "${firsts[@]}")"
done

# --help's wall time (no terminal): each build and the Go program that
# prints a line, in turn, 4×RUNS runs each; the median and the fastest.
python3 - "$((4 * runs))" "$BASE" "$work/dynascope" "$work/hello-go" ${DYNAMO_BROWSE:+"$DYNAMO_BROWSE"} <<'PY'
import statistics, subprocess, sys, time
runs, bins = int(sys.argv[1]), sys.argv[2:]
names = ["--help baseline", "--help this", "Go hello (a line)", "dynamo-browse -h (peer)"]
walls = {b: [] for b in bins}
for _ in range(runs):
    for b in bins:
        t = time.perf_counter()
        subprocess.run([b, "-h" if "dynamo-browse" in b else "--help"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        walls[b].append((time.perf_counter() - t) * 1000)
for name, b in zip(names, bins):
    print(f"{name:46s} {'-':8s} {statistics.median(walls[b]):10.2f} {'':10s}   fastest {min(walls[b]):.2f} of {runs}")
PY
