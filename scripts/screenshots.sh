#!/usr/bin/env bash
# Regenerates screenshots/*.png from the real program: each scene starts
# `dynascope --demo` in a detached tmux session of a fixed size, types the
# scene's keys, captures the pane with its colours and renders it to PNG.
set -euo pipefail
cd "$(dirname "$0")/.."

need() { command -v "$1" >/dev/null 2>&1; }
if ! need tmux || [ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf ]; then
  apt-get update -qq && apt-get install -y -qq tmux fonts-dejavu-core >/dev/null
fi

bin=$(mktemp -d)/dynascope
go build -o "$bin" .
# The renderer is its own module (screenshots/render/go.mod): its image and
# font packages are not the explorer's dependencies.
(cd screenshots/render && go build -o "$bin-render" .)
out=screenshots

# scene NAME COLS ROWS "ARGS" KEY... — keys are tmux send-keys words; "@N"
# waits N tenths of a second; "click:X,Y" clicks the left button on column
# X, row Y (1-based): tmux cannot click, so it types the SGR mouse report
# (ESC [ < 0 ; X ; Y M, then m) a terminal sends once the program has
# turned mouse reporting on. SCENES="mouse tree" makes only those scenes.
scene() {
  local name=$1 cols=$2 rows=$3 args=$4
  shift 4
  if [ -n "${SCENES:-}" ] && [[ " $SCENES " != *" $name "* ]]; then return; fi
  local sock="dynascope-shots-$$-$name" # a server per scene: no shutdown races
  tmux -L "$sock" -f /dev/null new-session -d -s shot -x "$cols" -y "$rows" \
    "env TERM=xterm-256color COLORTERM=truecolor $bin --demo $args"
  sleep 1.5
  for k in "$@"; do
    case "$k" in
      @*) sleep "$(awk "BEGIN{print ${k#@}/10}")" ;;
      click:*)
        local at="${k#click:}"
        tmux -L "$sock" send-keys -t shot -l $'\e[<0;'"${at/,/;}"'M'$'\e[<0;'"${at/,/;}"'m'
        sleep 0.4 ;;
      *) tmux -L "$sock" send-keys -t shot "$k"; sleep 0.25 ;;
    esac
  done
  sleep 1
  tmux -L "$sock" capture-pane -t shot -e -p > "$bin.$name.ans"
  tmux -L "$sock" kill-server 2>/dev/null || true
  "$bin-render" -in "$bin.$name.ans" -out "$out/$name.png" -cols "$cols" -rows "$rows"
  echo "screenshots/$name.png"
}

. scripts/screenshot-scenes.sh
