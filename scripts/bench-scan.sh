#!/usr/bin/env bash
# Measures a table-wide filtered search on dynalite, seeded with the
# demo's DeviceLogs (51,457 items, 4.2 MiB): `dynascope scan` without a
# budget (one segment and four), the same scan under a budget of 100 RCU
# resumed from its token until it ends (the runs added up), the default
# budget of 1,000 RCU (which the whole scan fits in), `dynascope
# partiql` of the same filter, and `aws dynamodb scan` with the same
# filter. Prints requests, RCU, scanned and matched, wall time; it never
# passes or fails on them.
#   scripts/bench-scan.sh [BUDGET]
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${1:-100}
filter='Level = "ERROR" and Temperature > 30'

. scripts/bench-lib.sh

export AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local AWS_PAGER=
conn=(--endpoint-url "$endpoint" --region us-east-1)
echo "seeding the demo's DeviceLogs into dynalite on $endpoint…"
"$work/dynascope" seed "${conn[@]}" --tables DeviceLogs >/dev/null

last() { grep '^scanned=' "$work/stderr.txt"; }
wall() { awk "BEGIN{printf \"%.2f s\", $2-$1}"; }

echo
echo "dynascope scan --filter '$filter'"
for args in "--max-rcu none" "--max-rcu none --segments 4" "--max-rcu 1000" "--max-rcu 1000 --segments 4"; do
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$work/dynascope" scan "${conn[@]}" --table DeviceLogs --filter "$filter" $args >"$work/out.jsonl" 2>"$work/stderr.txt"
  printf '  %-36s %s · wall %s\n' "$args:" "$(last)" "$(wall "$start" "$(date +%s.%N)")"
done

for segs in 1 4; do
  runs=0 requests=0 rcu=0 matched=0 scanned=0 token=
  start=$(date +%s.%N)
  while :; do
    runs=$((runs + 1))
    resume=()
    [ -n "$token" ] && resume=(--resume "$token")
    code=0
    "$work/dynascope" scan "${conn[@]}" --table DeviceLogs --filter "$filter" --segments "$segs" --max-rcu "$budget" "${resume[@]}" \
      >"$work/out.jsonl" 2>"$work/stderr.txt" || code=$?
    line=$(last)
    requests=$((requests + $(sed -n 's/.*requests=\([0-9]*\).*/\1/p' <<<"$line")))
    matched=$((matched + $(sed -n 's/.*matched=\([0-9]*\).*/\1/p' <<<"$line")))
    scanned=$((scanned + $(sed -n 's/^scanned=\([0-9]*\).*/\1/p' <<<"$line")))
    rcu=$(awk "BEGIN{print $rcu + $(sed -n 's/.*consumedRCU=\([0-9.]*\).*/\1/p' <<<"$line")}")
    [ "$code" = 3 ] || break
    token=$(sed -n 's/.*resume with --resume \([A-Za-z0-9_-]*\).*/\1/p' "$work/stderr.txt")
  done
  printf '  %-36s %d runs (exit 3 and --resume), scanned=%d matched=%d requests=%d consumedRCU=%.1f · wall %s\n' \
    "--max-rcu $budget --segments $segs:" "$runs" "$scanned" "$matched" "$requests" "$rcu" "$(wall "$start" "$(date +%s.%N)")"
done

echo
echo "dynascope partiql \"SELECT * FROM DeviceLogs WHERE Level = 'ERROR' AND Temperature > 30\""
start=$(date +%s.%N)
"$work/dynascope" partiql "${conn[@]}" "SELECT * FROM DeviceLogs WHERE Level = 'ERROR' AND Temperature > 30" --max-rcu none \
  >"$work/out.jsonl" 2>"$work/stderr.txt"
printf '  %-36s %s · wall %s\n' "--max-rcu none:" "$(last)" "$(wall "$start" "$(date +%s.%N)")"

echo
echo "aws dynamodb scan with the same filter, page by page (--no-paginate, each page's ExclusiveStartKey"
echo "from the last: the CLI's own paging reports one merged ConsumedCapacity, not the pages' sum):"
start=$(date +%s.%N)
pages=0 rcu=0 count=0 scanned=0 startkey=()
while :; do
  aws dynamodb scan "${conn[@]}" --no-paginate --table-name DeviceLogs --filter-expression '#l = :l AND #t > :t' \
    --expression-attribute-names '{"#l":"Level","#t":"Temperature"}' \
    --expression-attribute-values '{":l":{"S":"ERROR"},":t":{"N":"30"}}' \
    --return-consumed-capacity TOTAL "${startkey[@]}" >"$work/cli.json"
  pages=$((pages + 1))
  read -r c s u k < <(node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1]));console.log(r.Count, r.ScannedCount, r.ConsumedCapacity.CapacityUnits, r.LastEvaluatedKey ? JSON.stringify(r.LastEvaluatedKey) : "-")' "$work/cli.json")
  count=$((count + c)) scanned=$((scanned + s))
  rcu=$(awk "BEGIN{print $rcu + $u}")
  [ "$k" = "-" ] && break
  startkey=(--exclusive-start-key "$k")
done
end=$(date +%s.%N)
printf '  Count=%d ScannedCount=%d requests=%d ConsumedCapacity=%.1f · wall %s\n' "$count" "$scanned" "$pages" "$rcu" "$(wall "$start" "$end")"
