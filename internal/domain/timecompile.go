package domain

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrEmptyRange says a range falls between two of the keys' steps (a
// millisecond on keys that count seconds): no key can be in it.
var ErrEmptyRange = errors.New("no key can fall in this range")

func emptyRange(e TimeEncoding) error {
	return fmt.Errorf("%w: the keys count whole %s; widen the range", ErrEmptyRange, unitName(e.Unit()))
}

func afterLast(e TimeEncoding) error {
	_, last := e.span()
	return fmt.Errorf("%w: these keys' times end at %s", ErrEmptyRange, last.Format("2006-01-02T15:04:05Z07:00"))
}

func beforeFirst(e TimeEncoding) error {
	first, _ := e.span()
	return fmt.Errorf("%w: these keys' times begin at %s", ErrEmptyRange, first.Format("2006-01-02T15:04:05Z07:00"))
}

func unitName(d time.Duration) string {
	switch {
	case d >= 28*24*time.Hour:
		return "months"
	case d >= 24*time.Hour:
		return "days"
	case d >= time.Minute:
		return "minutes"
	case d >= time.Second:
		return "seconds"
	case d >= time.Millisecond:
		return "milliseconds"
	}
	return "microseconds"
}

// CompileRange turns a range into the one key condition that asks for it
// in the key's own format. prefix is the text before the time in composite
// keys (amsg#, JFK#); it is required for TimeAfter keys (but for a fixed
// Lead, which is the prefix). Every bound is a time the keys can write:
// open ends stop at the first and last times of the encoding, so keys
// that are not times (Metadata, 1E+125) are never in a range; text after
// the time (JFK#2021-08-01T07:25:00#250#0) is inside the upper bound, so
// a key at the last instant is in whatever follows its time.
func CompileRange(r TimeRange, e TimeEncoding, prefix string) (SKCondition, error) {
	if e.Kind == TimeNone {
		return SKCondition{}, fmt.Errorf("this sort key holds no time this tool recognises: %s", NoTimeHint)
	}
	textual := e.textual() && !e.Number
	if textual {
		if prefix == "" {
			prefix = e.Lead
		}
		if e.Place == TimeAfter && prefix == "" {
			return SKCondition{}, fmt.Errorf("these keys put the time after a prefix (such as amsg%s): give the prefix, e.g. amsg%s", e.Sep, e.Sep)
		}
		if e.Place != TimeAfter && prefix != "" {
			return SKCondition{}, fmt.Errorf("these keys begin with the time, so there is no prefix to give: drop %q", prefix)
		}
		if e.Place == TimeAfter && e.Lead == "" && !strings.HasSuffix(prefix, e.Sep) {
			prefix += e.Sep
		}
	}
	unit := e.Unit()
	floor := func(t time.Time) time.Time { return truncate(t, unit, e.Zone) }
	ceilU := func(t time.Time) time.Time { return ceil(t, unit, e.Zone) }
	val := func(s string) KeyValue {
		if textual {
			return S(s)
		}
		return N(s)
	}
	lo := func(t time.Time) string { return prefix + e.Encode(t) }
	tail := e.Tail
	if e.Place == TimeLeading {
		tail = e.Sep
	}
	// The highest key at a time: the largest id of the instant, and any
	// text after the time.
	hi := func(t time.Time) string {
		s := prefix + e.EncodeLast(t)
		if tail != "" {
			s += tail + "\U0010FFFF"
		}
		return s
	}
	first, last := e.span()
	fl, la := ceilU(first), floor(last)
	between := func(a, b time.Time) SKCondition {
		return SKCondition{Op: SKBetween, A: val(lo(a)), B: val(hi(b))}
	}
	// A layout that does not begin with the year does not sort by time:
	// its open ends are the keys that begin with a digit (or the prefix).
	if e.Kind == TimeText && !strings.HasPrefix(e.Layout, "2006") {
		bottom, top := "0", "9\U0010FFFF"
		if prefix != "" {
			bottom, top = prefix, prefix+"\U0010FFFF"
		}
		between = func(a, b time.Time) SKCondition {
			c := SKCondition{Op: SKBetween, A: S(lo(a)), B: S(hi(b))}
			if a.Equal(fl) {
				c.A = S(bottom)
			}
			if b.Equal(la) {
				c.B = S(top)
			}
			return c
		}
	}
	var a, b time.Time // the first and last instants wanted, as the keys write them
	period := false
	switch r.Op {
	case TimeBetween:
		a, b, period = ceilU(r.From), floor(r.To), r.Period
		if a.After(b) {
			return SKCondition{}, emptyRange(e)
		}
	case TimeLt:
		a, b = fl, floor(ceilU(r.From).Add(-time.Nanosecond))
	case TimeLe:
		a, b = fl, floor(r.From)
	case TimeGt:
		a, b = ceilU(r.From.Add(time.Nanosecond)), la
	default: // TimeGe
		a, b = ceilU(r.From), la
	}
	if a.After(la) {
		return SKCondition{}, afterLast(e)
	}
	if b.Before(fl) {
		return SKCondition{}, beforeFirst(e)
	}
	if a.Before(fl) {
		a, period = fl, false
	}
	if b.After(la) {
		b, period = la, false
	}
	if a.Equal(b) && !e.IsID() && tail == "" {
		return SKCondition{Op: SKEq, A: val(lo(b))}, nil // one key's instant
	}
	if period && textual && !e.IsID() {
		l, h := lo(a), lo(b)
		if p := commonPrefix(l, h); p != "" && len(p) > len(prefix) &&
			!strings.HasPrefix(lo(floor(a.Add(-time.Nanosecond))), p) && !strings.HasPrefix(lo(ceilU(b.Add(time.Nanosecond))), p) {
			return SKCondition{Op: SKBeginsWith, A: S(p)}, nil
		}
	}
	return between(a, b), nil
}

// truncate floors t to the unit; days and months in the keys' zone.
func truncate(t time.Time, unit time.Duration, zone *time.Location) time.Time {
	if zone == nil {
		zone = time.UTC
	}
	switch {
	case unit >= 28*24*time.Hour:
		y, m, _ := t.In(zone).Date()
		return time.Date(y, m, 1, 0, 0, 0, 0, zone)
	case unit >= 24*time.Hour:
		y, m, d := t.In(zone).Date()
		return time.Date(y, m, d, 0, 0, 0, 0, zone)
	}
	return t.Truncate(unit)
}

// ceil is the first instant at or after t that the keys can write.
func ceil(t time.Time, unit time.Duration, zone *time.Location) time.Time {
	f := truncate(t, unit, zone)
	if f.Equal(t) {
		return f
	}
	if unit >= 28*24*time.Hour {
		return f.AddDate(0, 1, 0)
	}
	if unit >= 24*time.Hour {
		return f.AddDate(0, 0, 1)
	}
	return f.Add(unit)
}

func commonPrefix(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return a[:i]
}
