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

if [ ! -x /usr/bin/time ]; then
  echo "installing GNU time (for peak RSS)…" >&2
  if [ "$(id -u)" = 0 ]; then apt-get install -y time >/dev/null; else sudo apt-get install -y time >/dev/null; fi
fi
[ -f node_modules/dynalite/cli.js ] || npm ci --no-audit --no-fund --loglevel=error

work=$(mktemp -d)
dynalite_pid=
cleanup() {
  if [ -n "$dynalite_pid" ]; then kill "$dynalite_pid" 2>/dev/null || true; wait "$dynalite_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/dynascope" .
go build -o "$work/benchseed" ./scripts/benchseed

port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
endpoint="http://127.0.0.1:$port"
node node_modules/dynalite/cli.js --host 127.0.0.1 --port "$port" \
  --createTableMs 0 --deleteTableMs 0 --updateTableMs 0 >"$work/dynalite.log" 2>&1 &
dynalite_pid=$!
for _ in $(seq 100); do
  grep -q listening "$work/dynalite.log" && break
  sleep 0.1
done
grep -q listening "$work/dynalite.log" || { echo "dynalite did not start:" >&2; cat "$work/dynalite.log" >&2; exit 1; }

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
