#!/usr/bin/env python3
"""Times a full-screen program's start-up on a pseudo-terminal of its own,
without tmux in between: from just before launch until its output first
shows FIRST (the first frame) and then READY (the data drawn), on a
screen kept from the output as a terminal would (STARTUP_SCREEN=1 prints
the last one on stderr). It answers the queries a terminal answers
(ANSWERS), as a program waiting for one would otherwise be timed waiting.

  startup-timer.py COLS ROWS FIRST READY [AFTER KEYS] -- PROGRAM ARGS...

With AFTER and KEYS, KEYS (Python escapes, e.g. '\\x1b[27u' for esc) are
typed once AFTER has been drawn, and READY counts only after that. Prints
"first-ms ready-ms" ('-' for a marker never seen within 20 s), then ends
the program.
"""
import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time

SEQ = re.compile(rb"\x1b\[([0-?]*)([ -/]*)([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[P_^][^\x1b]*\x1b\\|\x1b[ -/]*[0-~]")


class Screen:
    """Just enough of a terminal to follow a cell-diffing renderer: cursor
    moves, erases, inserts and deletes, scrolling; colours ignored."""

    def __init__(self, cols, rows):
        self.cols, self.rows = cols, rows
        self.cells = [[" "] * cols for _ in range(rows)]
        self.x = self.y = 0
        self.top, self.bottom = 0, rows - 1
        self.last = " "
        self.pending = b""

    def text(self):
        return "\n".join("".join(r) for r in self.cells)

    def put(self, ch):
        if self.x >= self.cols:
            self.x = 0
            self.lf()
        self.cells[self.y][self.x] = ch
        self.x += 1
        self.last = ch

    def lf(self):
        if self.y == self.bottom:
            self.scroll(1)
        else:
            self.y = min(self.rows - 1, self.y + 1)

    def scroll(self, n):  # up by n within the region
        for _ in range(n):
            del self.cells[self.top]
            self.cells.insert(self.bottom, [" "] * self.cols)

    def feed(self, data):
        data = self.pending + data
        self.pending = b""
        i = 0
        while i < len(data):
            c = data[i]
            if c == 0x1b:
                m = SEQ.match(data, i)
                if not m:
                    if len(data) - i < 4096:
                        self.pending = data[i:]  # a sequence cut by the read
                        return
                    i += 1
                    continue
                self.control(m)
                i = m.end()
                continue
            if c < 0x20:
                self.control1(c)
                i += 1
                continue
            n = 1 if c < 0x80 else 2 if c >= 0xc0 and c < 0xe0 else 3 if c < 0xf0 else 4
            if i + n > len(data):
                self.pending = data[i:]
                return
            self.put(data[i:i + n].decode("utf-8", "replace"))
            i += n

    def control1(self, c):
        if c == 0x0d:
            self.x = 0
        elif c == 0x0a:
            self.lf()
        elif c == 0x08:
            self.x = max(0, self.x - 1)
        elif c == 0x09:
            self.x = min(self.cols - 1, (self.x // 8 + 1) * 8)

    def control(self, m):
        if m.group(3) is None:
            return  # OSC, DCS, other escapes: nothing drawn
        params, final = m.group(1).decode(), m.group(3).decode()
        if params.startswith("?") or m.group(2):
            if params in ("?1049", "?47", "?1047") and final in "hl":
                self.cells = [[" "] * self.cols for _ in range(self.rows)]
            return
        args = [int(a) if a.isdigit() else 0 for a in params.split(";")] if params else []
        a = lambda k, d=1: args[k] if len(args) > k and args[k] else d
        if final in "Hf":
            self.y, self.x = min(self.rows, a(0)) - 1, min(self.cols, a(1)) - 1
        elif final == "G":
            self.x = min(self.cols, a(0)) - 1
        elif final == "d":
            self.y = min(self.rows, a(0)) - 1
        elif final == "C":
            self.x = min(self.cols - 1, self.x + a(0))
        elif final == "D":
            self.x = max(0, self.x - a(0))
        elif final == "A":
            self.y = max(0, self.y - a(0))
        elif final in "BE":
            self.y = min(self.rows - 1, self.y + a(0))
            if final == "E":
                self.x = 0
        elif final == "K":
            row, mode = self.cells[self.y], a(0, 0)
            lo, hi = {0: (self.x, self.cols), 1: (0, self.x + 1), 2: (0, self.cols)}.get(mode, (0, 0))
            row[lo:hi] = [" "] * (hi - lo)
        elif final == "J":
            mode = a(0, 0)
            rows = range(self.y + 1, self.rows) if mode == 0 else range(0, self.y) if mode == 1 else range(self.rows)
            for r in rows:
                self.cells[r] = [" "] * self.cols
            if mode == 0:
                self.cells[self.y][self.x:] = [" "] * (self.cols - self.x)
        elif final == "X":
            n = min(a(0), self.cols - self.x)
            self.cells[self.y][self.x:self.x + n] = [" "] * n
        elif final == "b":
            for _ in range(a(0)):
                self.put(self.last)
        elif final == "@":
            row = self.cells[self.y]
            row[self.x:self.x] = [" "] * a(0)
            del row[self.cols:]
        elif final == "P":
            row = self.cells[self.y]
            del row[self.x:self.x + a(0)]
            row.extend([" "] * (self.cols - len(row)))
        elif final in "LM":
            if self.top <= self.y <= self.bottom:
                for _ in range(a(0)):
                    if final == "L":
                        del self.cells[self.bottom]
                        self.cells.insert(self.y, [" "] * self.cols)
                    else:
                        del self.cells[self.y]
                        self.cells.insert(self.bottom, [" "] * self.cols)
        elif final == "S":
            self.scroll(a(0))
        elif final == "T":
            for _ in range(a(0)):
                del self.cells[self.bottom]
                self.cells.insert(self.top, [" "] * self.cols)
        elif final == "r":
            self.top, self.bottom = a(0) - 1, min(self.rows, a(1, self.rows)) - 1
            self.x = self.y = 0


# What a terminal answers to the queries programs send at start-up (the
# background colour, the cursor's position, the device's attributes): a
# program that waits for an answer (termenv waits 5 s for one) would
# otherwise be timed waiting for a terminal that never speaks.
ANSWERS = [
    (b"\x1b]11;?", b"\x1b]11;rgb:0000/0000/0000\x1b\\"),
    (b"\x1b]10;?", b"\x1b]10;rgb:ffff/ffff/ffff\x1b\\"),
    (b"\x1b[6n", b"\x1b[1;1R"),
    (b"\x1b[c", b"\x1b[?62;22c"),
    (b"\x1b[0c", b"\x1b[?62;22c"),
]


def answer(master, chunk):
    for query, reply in ANSWERS:
        for _ in range(chunk.count(query)):
            os.write(master, reply)


def main():
    sep = sys.argv.index("--")
    opts, argv = sys.argv[1:sep], sys.argv[sep + 1:]
    cols, rows, first, ready = int(opts[0]), int(opts[1]), opts[2], opts[3]
    after = opts[4] if len(opts) > 5 else None
    keys = opts[5].encode().decode("unicode_escape").encode() if len(opts) > 5 else b""

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    env = dict(os.environ, TERM=os.environ.get("TERM", "xterm-256color"))
    t0 = time.monotonic_ns()
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True,
                            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
    os.close(slave)
    screen = Screen(cols, rows)
    t1, t2, sent = None, None, after is None
    deadline = t0 + 20_000_000_000
    while t2 is None and time.monotonic_ns() < deadline:
        r, _, _ = select.select([master], [], [], 0.5)
        if not r:
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        now = time.monotonic_ns()
        answer(master, chunk)
        screen.feed(chunk)
        text = screen.text()
        if t1 is None and first in text:
            t1 = now
        if not sent and after in text:
            os.write(master, keys)
            sent = True  # READY counts only on a later screen
            continue
        if t1 is not None and sent and ready in text:
            t2 = now
    ms = lambda t: "-" if t is None else "%.1f" % ((t - t0) / 1e6)
    print(ms(t1), ms(t2))
    if os.environ.get("STARTUP_SCREEN"):
        print(screen.text(), file=sys.stderr)
    proc.kill()
    proc.wait()


if __name__ == "__main__":
    main()
