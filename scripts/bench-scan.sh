#!/usr/bin/env bash
# Measures a table-wide filtered search on dynalite, seeded with the
# demo's DeviceLogs (51,457 items, 4.2 MiB): `dynascope scan` without a
# budget (one segment and four), the same scan under a budget of 100 RCU
# resumed from its token until it ends (the runs added up), the default
# budget of 1,000 RCU (which the whole scan fits in), `dynascope
# partiql` of the same filter, and `aws dynamodb scan` with the same
# filter. Then the budget on heavy tails (#39): tables of 300 items of
# 100 to 300 bytes among which every tenth is 30 KB, or three (1%) are
# 300 KB, scanned with a filter under budgets of 1, 5, 20 and 100 RCU in
# 1 and 4 segments, each resumed from its token until it ends or a run
# reads nothing: the most any run was billed, against the whole table
# read without a budget and by `aws dynamodb scan`. Prints requests,
# RCU, scanned and matched, wall time; it never passes or fails on them.
#   scripts/bench-scan.sh [BUDGET]
# HEAVY_ONLY=1 measures the heavy tails only; DYNASCOPE=path measures
# another build of dynascope (an older one, for a before/after).
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${1:-100}
filter='Level = "ERROR" and Temperature > 30'

. scripts/bench-lib.sh
[ -n "${DYNASCOPE:-}" ] && cp "$DYNASCOPE" "$work/dynascope"

export AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local AWS_PAGER=
conn=(--endpoint-url "$endpoint" --region us-east-1)
if [ -z "${HEAVY_ONLY:-}" ]; then
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
fi

echo
echo "heavy tails: 300 items of 100-300 bytes, every fifth grp = \"x\" (the filter), among them"
echo "every tenth of 30 KB (HeavyTenth) or three of 300 KB (HeavyHundredth); seeding…"
for table in HeavyTenth HeavyHundredth; do
  aws dynamodb create-table "${conn[@]}" --table-name "$table" --billing-mode PAY_PER_REQUEST \
    --attribute-definitions AttributeName=PK,AttributeType=S --key-schema AttributeName=PK,KeyType=HASH >/dev/null
  node -e '
    const [table, dir] = process.argv.slice(1);
    const heavy = i => table === "HeavyTenth" ? (i % 10 === 3 ? 30 << 10 : 0) : (i % 100 === 41 ? 300 << 10 : 0);
    let seed = 39; const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let b = 0; b < 30; b++) {
      const reqs = [];
      for (let i = b * 10; i < b * 10 + 10; i++) {
        const size = heavy(i) || 100 + Math.floor(rnd() * 200);
        reqs.push({PutRequest: {Item: {PK: {S: "p" + String(i).padStart(4, "0")}, grp: {S: i % 5 ? "y" : "x"}, Data: {S: "h".repeat(size)}}}});
      }
      require("fs").writeFileSync(dir + "/batch" + b + ".json", JSON.stringify({[table]: reqs}));
    }' "$table" "$work"
  for b in $(seq 0 29); do
    aws dynamodb batch-write-item "${conn[@]}" --request-items "file://$work/batch$b.json" >/dev/null
  done
done

# stat FIELD: a field of the stats of the --output json document in out.json.
stat() { node -e 'const d=JSON.parse(require("fs").readFileSync(process.argv[1]));console.log(d.stats[process.argv[2]] ?? 0)' "$work/out.json" "$1"; }

for table in HeavyTenth HeavyHundredth; do
  echo
  echo "$table, --filter 'grp = \"x\"' (60 matches):"
  "$work/dynascope" scan "${conn[@]}" --table "$table" --filter 'grp = "x"' --max-rcu none --output json >"$work/out.json" 2>/dev/null
  printf '  %-30s requests=%s billedRCU=%s scanned=%s matched=%s\n' "--max-rcu none:" "$(stat requests)" "$(stat billedRCU)" "$(stat scanned)" "$(stat matched)"
  rcu=0 pages=0 startkey=()
  while :; do
    aws dynamodb scan "${conn[@]}" --no-paginate --table-name "$table" --filter-expression '#g = :g' \
      --expression-attribute-names '{"#g":"grp"}' --expression-attribute-values '{":g":{"S":"x"}}' \
      --return-consumed-capacity TOTAL "${startkey[@]}" >"$work/cli.json"
    pages=$((pages + 1))
    read -r u k < <(node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1]));console.log(r.ConsumedCapacity.CapacityUnits, r.LastEvaluatedKey ? JSON.stringify(r.LastEvaluatedKey) : "-")' "$work/cli.json")
    rcu=$(awk "BEGIN{print $rcu + $u}")
    [ "$k" = "-" ] && break
    startkey=(--exclusive-start-key "$k")
  done
  printf '  %-30s requests=%d ConsumedCapacity=%.1f\n' "aws dynamodb scan:" "$pages" "$rcu"
  for segs in 1 4; do
    for b in 1 5 20 100; do
      runs=0 most=0 total=0 requests=0 matched=0 token= ended=no
      while [ "$runs" -lt 40 ]; do
        runs=$((runs + 1))
        resume=()
        [ -n "$token" ] && resume=(--resume "$token")
        code=0
        "$work/dynascope" scan "${conn[@]}" --table "$table" --filter 'grp = "x"' --segments "$segs" --max-rcu "$b" "${resume[@]}" \
          --output json >"$work/out.json" 2>"$work/stderr.txt" || code=$?
        spent=$(stat billedRCU)
        most=$(awk "BEGIN{print ($spent > $most) ? $spent : $most}")
        total=$(awk "BEGIN{print $total + $spent}")
        requests=$((requests + $(stat requests)))
        matched=$((matched + $(stat matched)))
        [ "$code" = 3 ] || { ended=yes; break; }
        token=$(stat resume)
        [ "$(stat scanned)" = 0 ] && break # the budget pays for no item of the largest size read
      done
      printf '  --max-rcu %-4s --segments %s: the most a run billed %6.1f RCU · %2d runs, %4.1f RCU in all, %3d requests, %2d matched, ended %s\n' \
        "$b" "$segs" "$most" "$runs" "$total" "$requests" "$matched" "$ended"
    done
  done
done
