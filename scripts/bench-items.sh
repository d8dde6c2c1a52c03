#!/usr/bin/env bash
# Measures `dynascope items` streaming one partition of 100,000 items from
# dynalite to /dev/null: peak RSS, wall time, requests and RCU, and the pages
# the partition needs against the Query requests made. Prints figures; it
# never passes or fails on them.
#   scripts/bench-items.sh [ITEMS] [PAYLOAD_BYTES]
set -euo pipefail
cd "$(dirname "$0")/.."
items=${1:-100000}
payload=${2:-250}

. scripts/bench-lib.sh
need_gnu_time

echo "seeding $items items of ~$((payload + 28)) bytes into one partition on $endpoint…"
seed=$("$work/benchseed" --endpoint-url "$endpoint" --items "$items" --payload "$payload")
echo "$seed"

/usr/bin/time -v -o "$work/time.txt" \
  "$work/dynascope" items --endpoint-url "$endpoint" --region us-east-1 --table Bench --pk bench --output jsonl \
  >/dev/null 2>"$work/stderr.txt"
cat "$work/stderr.txt"

field() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p" <<<"$2" | head -1; }
stats=$(grep '^requests=' "$work/stderr.txt")
rss_kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time.txt")
echo
echo "items streamed:        $(field items "$stats") of $items"
echo "peak RSS:              $((rss_kb / 1024)) MiB ($rss_kb KiB)"
echo "wall time:             $wall"
echo "requests:              $(field requests "$stats") (1 DescribeTable + $(field pages "$stats") Query)"
echo "consumed RCU:          $(field consumedRCU "$stats")"
echo "pages expected:        $(field pages_naive "$seed") by ceil(total bytes / 1 MiB), $(field pages_exact "$seed") by the embedded backend's page sizing"
echo "Query requests made:   $(field pages "$stats")"
