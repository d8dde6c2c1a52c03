#!/usr/bin/env bash
# Runs every fuzz target of the module for a while each (default 30s).
set -euo pipefail
cd "$(dirname "$0")/.."
time=${1:-30s}
for pkg in $(go list ./...); do
  for target in $(go test -list '^Fuzz' "$pkg" 2>/dev/null | grep '^Fuzz' || true); do
    echo "== $pkg $target ($time)"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$time" "$pkg"
  done
done
