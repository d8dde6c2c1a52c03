# Shared by the bench scripts (source it from the repository root): builds
# dynascope (as the release does: release_build) and benchseed into $work,
# starts dynalite on a free loopback port ($endpoint), and cleans both up
# on exit. need_gnu_time installs GNU time for peak RSS figures.

need_gnu_time() {
  if [ ! -x /usr/bin/time ]; then
    echo "installing GNU time (for peak RSS)…" >&2
    if [ "$(id -u)" = 0 ]; then apt-get install -y time >/dev/null; else sudo apt-get install -y time >/dev/null; fi
  fi
}

[ -f node_modules/dynalite/cli.js ] || npm ci --no-audit --no-fund --loglevel=error

work=$(mktemp -d)
dynalite_pid=
cleanup() {
  if [ -n "$dynalite_pid" ]; then kill "$dynalite_pid" 2>/dev/null || true; wait "$dynalite_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# release_build DIR OUT: DIR's dynascope built as .goreleaser.yaml builds
# it (static, trimmed, stripped), so start-up figures are the shipped
# binary's, not a cgo build's (which loads libc first).
release_build() { (cd "$1" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$2" .); }
release_build . "$work/dynascope"
go build -o "$work/benchseed" ./scripts/benchseed

port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
endpoint="http://127.0.0.1:$port"
node node_modules/dynalite/cli.js --host 127.0.0.1 --port "$port" \
  --createTableMs 0 --deleteTableMs 0 --updateTableMs 0 >"$work/dynalite.log" 2>&1 &
dynalite_pid=$!
for _ in $(seq 100); do grep -q listening "$work/dynalite.log" && break; sleep 0.1; done
grep -q listening "$work/dynalite.log" || { echo "dynalite did not start:" >&2; cat "$work/dynalite.log" >&2; exit 1; }
