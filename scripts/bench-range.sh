#!/usr/bin/env bash
# Time ranges on dynalite: one partition of 200,000 items whose sort keys
# are ISO-8601 times a minute apart. Prints, for one range:
#  - time to first row of `dynascope range --limit 50` against
#    `aws dynamodb query --max-items 50` for the same key condition
#    (skipped with a message where the AWS CLI is missing);
#  - peak RSS, wall time, requests and RCU of `dynascope range` streaming
#    the whole range to /dev/null (it streams: memory must not grow with it).
# Prints figures; it never passes or fails on them.
#   scripts/bench-range.sh [ITEMS]
set -euo pipefail
cd "$(dirname "$0")/.."
items=${1:-200000}

. scripts/bench-lib.sh
need_gnu_time

echo "seeding $items timestamped items into one partition on $endpoint…"
"$work/benchseed" --endpoint-url "$endpoint" --items "$items" --timestamps >/dev/null

export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1 AWS_PAGER=""
from=2026-01-15 to=2026-04-15
ds=("$work/dynascope" --endpoint-url "$endpoint" --region us-east-1 range --table Bench --pk bench --from "$from" --to "$to")

now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }

echo
echo "== time to first row, 50 newest items of $from..$to"
t0=$(now); "${ds[@]}" --limit 50 2>"$work/first.txt" | head -c 1 >/dev/null || true; t1=$(now)
echo "dynascope range --limit 50:       $(ms "$t0" "$t1") ms   ($(sed 's/.*· \([0-9]* items\)/\1/' "$work/first.txt"))"
cond=$(sed -n 's/.*BETWEEN :lo AND :hi   :pk="bench" :lo="\([^"]*\)" :hi="\([^"]*\)".*/\1 \2/p' "$work/first.txt")
lo=${cond% *} hi=${cond#* }
if command -v aws >/dev/null; then
  t0=$(now)
  aws dynamodb query --endpoint-url "$endpoint" --table-name Bench \
    --key-condition-expression 'PK = :pk AND SK BETWEEN :lo AND :hi' \
    --expression-attribute-values "{\":pk\":{\"S\":\"bench\"},\":lo\":{\"S\":\"$lo\"},\":hi\":{\"S\":\"$hi\"}}" \
    --no-scan-index-forward --max-items 50 --return-consumed-capacity TOTAL | head -c 1 >/dev/null || true
  t1=$(now)
  echo "aws dynamodb query --max-items 50: $(ms "$t0" "$t1") ms   (same key condition: $lo .. $hi)"
else
  echo "aws dynamodb query: skipped, the AWS CLI is not installed"
fi

echo
echo "== the whole range streamed to /dev/null"
/usr/bin/time -v -o "$work/time.txt" "${ds[@]}" >/dev/null 2>"$work/all.txt"
cat "$work/all.txt"
rss_kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time.txt")
echo "peak RSS: $((rss_kb / 1024)) MiB   wall: $wall"
