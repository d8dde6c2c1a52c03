package components

import (
	"regexp"
	"sync"

	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/ui/common"
)

// keyTime is a date or a date and time written in a key: 2026-10-31,
// 2026-10-31T13:00:58.123456Z, 2021-08-01T07:25:00, 2026-10-31 13:00+02:00.
var keyTime = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?`)
})

// cutAroundTime cuts a key too wide for w cells elsewhere than in its date:
// a cut in the middle of DEVICE#…#2026-10-31T13:00:58Z#temperature#…
// took the time, which is what tells the rows apart. The parts before and
// after the date give up their middles, the longer one first. ok is false
// when s holds no date, is styled, or w cannot hold the date and a cut.
func cutAroundTime(s string, w int) (string, bool) {
	if ansi.Strip(s) != s {
		return "", false
	}
	loc := keyTime().FindStringIndex(s)
	if loc == nil {
		return "", false
	}
	pre, t, post := s[:loc[0]], s[loc[0]:loc[1]], s[loc[1]:]
	room := w - common.Width(t)
	pw, qw := common.Width(pre), common.Width(post)
	switch {
	case pw+qw <= room:
		return pre + t + post, true
	case pw == 0 || qw == 0:
		if room < 2 {
			return "", false
		}
		return middle(pre, min(pw, room)) + t + middle(post, min(qw, room)), true
	case pw < qw && pw+2 <= room:
		return pre + t + middle(post, room-pw), true
	case qw <= pw && qw+2 <= room:
		return middle(pre, room-qw) + t + post, true
	case room >= 4:
		half := room / 2
		return middle(pre, half) + t + middle(post, room-half), true
	}
	return "", false
}

// middle cuts s to w cells (w ≥ 1) with … in its middle, keeping its
// start and its end.
func middle(s string, w int) string {
	sw := common.Width(s)
	if sw <= w {
		return s
	}
	if w <= 1 {
		return "…"
	}
	head := (w - 1) / 2
	tail := w - 1 - head
	return common.Truncate(s, head, "") + "…" + common.TruncateLeft(s, sw-tail)
}
