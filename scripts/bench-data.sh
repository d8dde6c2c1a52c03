#!/usr/bin/env bash
# Measures `--data` loading a DynamoDB export of generated ~300-byte items
# (100,000 and 1,000,000 by default): wall time and peak RSS of
# `dynascope tables --data`, beside the goals (≤ 10 s, peak ≤ 2× the
# uncompressed data) and beside `dynascope tables --demo` as a baseline of
# the process itself. Wall and CPU time (user + system) both: on a shared
# machine the CPU time is the steadier figure. Prints figures; never passes
# or fails on them.
#   scripts/bench-data.sh [ITEMS...]
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100000 1000000)

if [ ! -x /usr/bin/time ]; then
  echo "installing GNU time (for peak RSS)…" >&2
  if [ "$(id -u)" = 0 ]; then apt-get install -y time >/dev/null; else sudo apt-get install -y time >/dev/null; fi
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/dynascope" .
go build -o "$work/benchdata" ./scripts/benchdata

measure() { # label, then the dynascope arguments
  local label=$1; shift
  /usr/bin/time -v -o "$work/time.txt" "$work/dynascope" "$@" >/dev/null 2>"$work/stderr.txt" || { cat "$work/stderr.txt" >&2; return 1; }
  rss_kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time.txt")
  cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.1fs", s}' "$work/time.txt")
  loaded=$(sed -n 's/^DATA: //p' "$work/stderr.txt")
  printf '%-22s wall %-9s cpu %-7s peak RSS %5d MiB  %s\n' "$label" "$wall" "$cpu" $((rss_kb / 1024)) "$loaded"
}

echo "cores: $(nproc) · $(go version | cut -d' ' -f3) · load average $(cut -d' ' -f1-3 /proc/loadavg) (a shared machine: cpu is the steadier figure)"
measure "baseline: --demo" tables --demo
for n in "${sizes[@]}"; do
  rm -rf "$work/export"
  gen=$("$work/benchdata" --dir "$work/export" --items "$n" --parts 8)
  raw=$(sed -n 's/.*uncompressed_bytes=\([0-9]*\).*/\1/p' <<<"$gen")
  echo
  echo "$gen"
  measure "--data $n" tables --data "$work/export" --keys PK:S,SK:S
  echo "  goal: ≤ 10 s; peak ≤ 2 × $((raw / 1048576)) MiB uncompressed = $((2 * raw / 1048576)) MiB → peak is $(awk -v r="$rss_kb" -v u="$raw" 'BEGIN{printf "%.2f", r*1024/u}') × the data"
done
