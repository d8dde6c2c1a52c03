#!/usr/bin/env bash
# Measures the drill-down against the full read a user would do without it,
# on dynalite: one partition of 100,000 items under 20 top-level children
# (TOPnn#REGIONnn#SITEnnn#nnnnnn). Prints requests, consumed RCU and wall
# time for `dynascope children` and for reading the whole partition (with
# `dynascope items`, and with `aws dynamodb query` piped to a distinct where
# the AWS CLI is installed). Figures only: it never passes or fails on them.
set -euo pipefail
cd "$(dirname "$0")/.."
items=${1:-100000}
payload=${2:-250}
. scripts/bench-lib.sh

echo "seeding $items items (~$((payload + 50)) bytes) under 20 top-level children on $endpoint…"
"$work/benchseed" --endpoint-url "$endpoint" --items "$items" --payload "$payload" --hierarchy >/dev/null
conn=(--endpoint-url "$endpoint" --region us-east-1)
now() { date +%s.%N; }
secs() { awk "BEGIN{printf \"%.3f\", $2 - $1}"; }

echo
echo "== dynascope children (skip-scan)"
t0=$(now)
"$work/dynascope" children "${conn[@]}" --table Bench --pk bench >"$work/children.json" 2>"$work/children.err"
t1=$(now)
c_wall=$(secs "$t0" "$t1")
read -r c_children c_req c_rcu < <(python3 -c '
import json,sys; d=json.load(open(sys.argv[1])); print(len(d["children"]), d["stats"]["requests"], d["stats"]["consumedRCU"])' "$work/children.json")
echo "children: $c_children   requests: $c_req (1 DescribeTable + $((c_req - 1)) Query)   consumed RCU: $c_rcu   wall: $c_wall s"

echo
echo "== full read: dynascope items | distinct top segment"
t0=$(now)
"$work/dynascope" items "${conn[@]}" --table Bench --pk bench 2>"$work/items.err" | python3 -c '
import json,sys; print(len({json.loads(l)["SK"].split("#")[0] for l in sys.stdin}))' >"$work/items.distinct"
t1=$(now)
stats=$(grep '^requests=' "$work/items.err")
f_req=$(sed -n 's/.*requests=\([0-9]*\).*/\1/p' <<<"$stats")
f_rcu=$(sed -n 's/.*consumedRCU=\([0-9.]*\).*/\1/p' <<<"$stats")
f_wall=$(secs "$t0" "$t1")
echo "children: $(cat "$work/items.distinct")   requests: $f_req   consumed RCU: $f_rcu   wall: $f_wall s"

a_wall=
if command -v aws >/dev/null 2>&1; then
  echo
  echo "== full read: aws dynamodb query (keys projected) | distinct"
  t0=$(now)
  AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_PAGER= aws dynamodb query "${conn[@]}" --table-name Bench \
    --key-condition-expression 'PK = :p' --expression-attribute-values '{":p":{"S":"bench"}}' \
    --projection-expression SK --return-consumed-capacity TOTAL --output json >"$work/aws.json"
  t1=$(now)
  a_wall=$(secs "$t0" "$t1")
  python3 -c '
import json,sys; d=json.load(open(sys.argv[1]))
print("children:", len({i["SK"]["S"].split("#")[0] for i in d["Items"]}), "  items:", d.get("Count"), "  consumed RCU (as the CLI reports it):", (d.get("ConsumedCapacity") or {}).get("CapacityUnits"))' "$work/aws.json"
  echo "wall: $a_wall s"
else
  echo
  echo "aws CLI not installed: skipping the aws dynamodb query comparison"
fi

echo
echo "== skip-scan against the full read"
python3 - "$c_children" "$c_req" "$c_rcu" "$f_req" "$f_rcu" "$c_wall" "$f_wall" "${a_wall:-0}" <<'PY'
import sys
c, creq, crcu, freq, frcu = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
cw, fw, aw = float(sys.argv[6]), float(sys.argv[7]), float(sys.argv[8])
print(f"Query requests: {creq-1} for {c} children (target: at most C+1 = {c+1}); the full read made {freq-1}")
print(f"consumed RCU:   {crcu:g} vs {frcu:g}: {frcu/max(crcu,0.5):.0f}x fewer (target: 100x)")
line = f"wall time:      {cw:.3f} s vs {fw:.3f} s (dynascope items): {fw/cw:.0f}x less"
if aw:
    line += f"; vs {aw:.3f} s (aws dynamodb query): {aw/cw:.0f}x less"
print(line + " (target: 20x)")
PY
