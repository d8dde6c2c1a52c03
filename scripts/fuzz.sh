#!/usr/bin/env bash
# Runs every fuzz target of the module for a while each (default 30s), keeps
# the new interesting inputs in the package's testdata/fuzz/ (so `go test`,
# and CI, run them from then on), and prints a summary: executions run and
# corpus size per target.
#   scripts/fuzz.sh [TIME] [MAX_KEPT_PER_TARGET]
set -euo pipefail
cd "$(dirname "$0")/.."
time=${1:-30s}
keep=${2:-40}
cache=$(go env GOCACHE)/fuzz
summary=$(mktemp)
trap 'rm -f "$summary"' EXIT
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for target in $(go test -list '^Fuzz' "$pkg" 2>/dev/null | grep '^Fuzz' || true); do
    echo "== $pkg $target ($time)"
    log=$(mktemp)
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$time" "$pkg" 2>&1 | tee "$log" | grep -E 'FAIL|panic|elapsed: [0-9]+s, execs' | tail -2
    status=${PIPESTATUS[0]}
    execs=$(grep -o 'execs: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    rm -f "$log"
    mkdir -p "$dir/testdata/fuzz/$target"
    if [ -d "$cache/$pkg/$target" ]; then
      files=$(find "$cache/$pkg/$target" -type f | sort | head -n "$keep" || true)
      for f in $files; do cp -n "$f" "$dir/testdata/fuzz/$target/" 2>/dev/null || true; done
    fi
    kept=$(find "$dir/testdata/fuzz/$target" -type f | wc -l)
    printf '%-60s %-32s %12s execs  %4s inputs kept%s\n' "$pkg" "$target" "${execs:-?}" "$kept" "$([ "$status" = 0 ] || echo '  FAILED')" >>"$summary"
    [ "$status" = 0 ] || { cat "$summary"; exit 1; }
  done
done
echo
echo "== summary"
cat "$summary"
