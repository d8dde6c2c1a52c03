package domain

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Countdown is a sort key that counts time backwards so that a Query in
// key order lists the newest first: READING#<9999999999 − epoch seconds>
// (or 13 nines less milliseconds). Its key order is the reverse of its
// time order, which range does not read; its key range for a time range
// is still one BETWEEN (Between), for a read by key.
type Countdown struct {
	Prefix  string // the text before the digits, the same in every key (READING#)
	Width   int    // 10: seconds, 13: milliseconds
	Example string // a key of the sample
	At      time.Time
}

// countdownNines are the widths a countdown is written in and what one of
// its steps is.
var countdownNines = map[int]time.Duration{10: time.Second, 13: time.Millisecond}

// DetectCountdown finds a countdown in a sample of text keys: the quorum
// of them (see quorum) a fixed prefix and then 10 or 13 digits ending the
// key, which read forwards are no time people's keys hold (after 2200)
// and read backwards from all nines are one.
func DetectCountdown(keys []string) (Countdown, bool) {
	type form struct {
		prefix string
		width  int
	}
	count := map[form]int{}
	first := map[form]Countdown{}
	var best form
	for _, k := range keys {
		c, ok := countdownOf(k)
		if !ok {
			continue
		}
		f := form{c.Prefix, c.Width}
		if count[f] == 0 {
			first[f] = c
		}
		if count[f]++; count[f] > count[best] {
			best = f
		}
	}
	if best.width == 0 || !quorum(count[best], len(keys)) {
		return Countdown{}, false
	}
	return first[best], true
}

func countdownOf(k string) (Countdown, bool) {
	i := len(k)
	for i > 0 && isDigit(k[i-1]) {
		i--
	}
	width := len(k) - i
	unit, ok := countdownNines[width]
	if !ok || i > 0 && isAlnumByte(k[i-1]) {
		return Countdown{}, false
	}
	v, err := strconv.ParseInt(k[i:], 10, 64)
	if err != nil {
		return Countdown{}, false
	}
	if fwd, ok := DetectTimeNumber(float64(v)); ok && fwd.Unit() == unit {
		return Countdown{}, false // a time read forwards
	}
	back := nines(width) - v
	if enc, ok := DetectTimeNumber(float64(back)); !ok || enc.Unit() != unit {
		return Countdown{}, false
	}
	return Countdown{Prefix: k[:i], Width: width, Example: k, At: time.Unix(0, 0).Add(time.Duration(back) * unit).UTC()}, true
}

func nines(width int) int64 {
	n, _ := strconv.ParseInt(strings.Repeat("9", width), 10, 64)
	return n
}

// Describe says what the keys are, for people: READING#8285012345 is
// 9999999999 − 1714987654, 2024-05-06T09:27:34Z.
func (c Countdown) Describe() string {
	back := nines(c.Width) - mustDigits(c.Example[len(c.Prefix):])
	return fmt.Sprintf("%s is %d − %d, %s", c.Example, nines(c.Width), back, c.At.Format(time.RFC3339Nano))
}

func mustDigits(s string) int64 {
	v, _ := strconv.ParseInt(s, 10, 64)
	return v
}

// Between is the key range holding the times of r: from the key of its
// last instant to the key of its first (lo <= hi as text, every key the
// same width).
func (c Countdown) Between(r TimeRange) (lo, hi string, ok bool) {
	unit := countdownNines[c.Width]
	n := nines(c.Width)
	floor := func(t time.Time) int64 { return int64(t.Sub(time.Unix(0, 0)) / unit) }
	ceil := func(t time.Time) int64 {
		f := floor(t)
		if time.Unix(0, 0).Add(time.Duration(f) * unit).Before(t) {
			f++
		}
		return f
	}
	a, b := int64(0), n
	switch r.Op {
	case TimeBetween:
		a, b = ceil(r.From), floor(r.To)
	case TimeLt:
		b = ceil(r.From) - 1
	case TimeLe:
		b = floor(r.From)
	case TimeGt:
		a = floor(r.From) + 1
	case TimeGe:
		a = ceil(r.From)
	}
	a, b = max(a, 0), min(b, n)
	if a > b {
		return "", "", false
	}
	key := func(v int64) string { return c.Prefix + fmt.Sprintf("%0*d", c.Width, n-v) }
	return key(b), key(a), true
}

// ScanFilter is the scan filter that reads the keys of r in the
// partition pk (a scan whose filter pins the partition reads it by one
// Query, the BETWEEN its key condition), newest first as the keys sort;
// false where the key cannot be written in a filter (binary). The command
// around it is the caller's, which knows the connection.
func (c Countdown) ScanFilter(pkName string, pk KeyValue, skName string, r TimeRange) (string, bool) {
	lo, hi, ok := c.Between(r)
	if !ok || pk.Type == TypeB {
		return "", false
	}
	pv := Value{Kind: ValString, Text: pk.Text}
	if pk.Type == TypeN {
		pv.Kind = ValNumber
	}
	f := And{
		L: Compare{Op: "=", L: Path{{Name: pkName}}, R: pv},
		R: Between{X: Path{{Name: skName}}, Lo: Value{Kind: ValString, Text: lo}, Hi: Value{Kind: ValString, Text: hi}},
	}
	return FormatFilter(f), true
}
