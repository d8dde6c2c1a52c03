#!/usr/bin/env bash
# Measures a filter that matches 0.1% of one 100,000-item partition on
# dynalite (every 1,000th item has Status = "FAILED"): what the whole read
# scans and matches, what filling a first screen of 25 matches costs, where
# the default budget stops, and the AWS CLI running the same filter. Prints
# figures; it never passes or fails on them.
#   scripts/bench-filter.sh [ITEMS] [EVERY]
set -euo pipefail
cd "$(dirname "$0")/.."
items=${1:-100000}
every=${2:-1000}
filter='Status = "FAILED"'

. scripts/bench-lib.sh
need_gnu_time

echo "seeding $items items, every ${every}th with Status = FAILED, into one partition on $endpoint…"
"$work/benchseed" --endpoint-url "$endpoint" --items "$items" --every "$every"
export AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local AWS_PAGER=

run() { # label, extra args…
  local label=$1
  shift
  /usr/bin/time -v -o "$work/time.txt" \
    "$work/dynascope" items --endpoint-url "$endpoint" --region us-east-1 --table Bench --pk bench --filter "$filter" "$@" \
    >"$work/out.jsonl" 2>"$work/stderr.txt" || [ $? -eq 3 ] # 3: stopped at its budget, as asked
  local f s
  f=$(grep '^filter ' "$work/stderr.txt")
  s=$(grep '^requests=' "$work/stderr.txt")
  printf '%-34s %s\n' "$label" "$(grep -o 'scanned=.*' <<<"$f")"
  printf '%-34s %s · peak RSS %s MiB · wall %s · %s lines printed\n' "" "$s" \
    "$(( $(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt") / 1024 ))" \
    "$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time.txt")" "$(wc -l <"$work/out.jsonl")"
}
echo
echo "dynascope items --filter '$filter'"
run "whole partition, no budget:" --max-rcu none
run "first screen (25 matches):" --max-rcu none --limit 25
run "default explorer budget (1,000):" --max-rcu 1000

echo
"$work/dynascope" items --endpoint-url "$endpoint" --region us-east-1 --table Bench --pk bench --filter "$filter" --limit 1 >/dev/null 2>"$work/line.txt"
cmdline=$(sed -n 1p "$work/line.txt")
echo "aws dynamodb query with the same key condition and filter (the CLI pages through it all):"
start=$(date +%s.%N)
aws dynamodb query --endpoint-url "$endpoint" --region us-east-1 --table-name Bench \
  --key-condition-expression '#pk = :pk' --filter-expression '#f0 = :f0' \
  --expression-attribute-names '{"#pk":"PK","#f0":"Status"}' \
  --expression-attribute-values '{":pk":{"S":"bench"},":f0":{"S":"FAILED"}}' \
  --return-consumed-capacity TOTAL >"$work/cli.json"
end=$(date +%s.%N)
node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1]));console.log(`  Count=${r.Count} ScannedCount=${r.ScannedCount} ConsumedCapacity=${JSON.stringify(r.ConsumedCapacity)}`)' "$work/cli.json"
echo "  wall $(awk "BEGIN{printf \"%.2f s\", $end-$start}")"
echo "(dynascope's request line for it: $cmdline)"
