#!/usr/bin/env bash
# What `range --follow` costs per minute on dynalite: idle (nothing written)
# and busy (one item a second), each for $SECS seconds (default 60), beside
# the baseline of polling with `aws dynamodb query` once a second.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-lib.sh
secs=${SECS:-60}
export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_DEFAULT_REGION=us-east-1
aws="aws --endpoint-url $endpoint --output json"
$aws dynamodb create-table --table-name Follow --billing-mode PAY_PER_REQUEST \
  --attribute-definitions AttributeName=DeviceID,AttributeType=S AttributeName=At,AttributeType=S \
  --key-schema AttributeName=DeviceID,KeyType=HASH AttributeName=At,KeyType=RANGE >/dev/null
put() { $aws dynamodb put-item --table-name Follow --item "{\"DeviceID\":{\"S\":\"d1\"},\"At\":{\"S\":\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\"},\"Note\":{\"S\":\"$1\"}}"; }
for i in $(seq 20); do put "history $i" >/dev/null; done   # a partition with some past
follow() { # $1: label; runs dynascope range --follow for $secs seconds
  "$work/dynascope" range --endpoint-url "$endpoint" --region us-east-1 --table Follow --pk d1 --last 1h --follow \
    >"$work/$1.out" 2>"$work/$1.err" &
  local pid=$!
  sleep "$secs"; kill -INT "$pid"; wait "$pid" || true
  printf '%-6s %s\n' "$1" "$(grep '^followed for' "$work/$1.err")"
}
echo "range --follow on dynalite, ${secs}s each (adaptive interval: 1s while items arrive, backing off to 10s)"
follow idle
( for i in $(seq "$secs"); do put "live $i" >/dev/null; sleep 1; done ) &
writer=$!
follow busy
wait "$writer" 2>/dev/null || true
echo "busy: $(grep -c live "$work/busy.out") of the items written while following were printed, each once: $(grep live "$work/busy.out" | sort | uniq -d | wc -l) duplicates"
echo "baseline: polling with aws dynamodb query once a second is 60 requests/min whatever arrives; one poll of this partition reads $($aws dynamodb query --table-name Follow --key-condition-expression 'DeviceID = :d' --expression-attribute-values '{":d":{"S":"d1"}}' --return-consumed-capacity TOTAL --query 'ConsumedCapacity.CapacityUnits')"' RCU without a time bound'
