package domain

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
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
	case d == 7*24*time.Hour:
		return "weeks"
	case d >= 24*time.Hour:
		return "days"
	case d >= time.Hour:
		return "hours"
	case d >= time.Minute:
		return "minutes"
	case d >= time.Second:
		return "seconds"
	case d >= time.Millisecond:
		return "milliseconds"
	}
	return "microseconds"
}

// namesPeriods reports whether the keys name whole periods (days, hours,
// ISO weeks, months) rather than instants: such a key holds every item
// of its period, so a range reads each key whose period it touches.
func namesPeriods(e TimeEncoding) bool { return e.Unit() >= time.Hour }

// WholePeriods is the unit the keys count in ("days") where a range
// reads more than it asks, as it starts or ends inside a key's period
// (15 minutes of today are read as today's key, whose items may fall
// outside them); "" where the range is whole periods, or the keys name
// instants.
func WholePeriods(r TimeRange, e TimeEncoding) string {
	if e.Kind == TimeNone || !namesPeriods(e) {
		return ""
	}
	unit := e.Unit()
	starts := func(t time.Time) bool { return truncate(t, unit, e.Zone).Equal(t) }
	inside := false
	switch r.Op {
	case TimeBetween:
		inside = !starts(r.From) || !starts(r.To.Add(time.Nanosecond))
	case TimeLt, TimeGe:
		inside = !starts(r.From)
	case TimeLe, TimeGt:
		inside = !starts(r.From.Add(time.Nanosecond))
	}
	if !inside {
		return ""
	}
	return unitName(unit)
}

// CompileRange turns a range into the one key condition that asks for it
// in the key's own format. prefix is the text before the time in composite
// keys (amsg#, JFK#); it is required for TimeAfter keys (but for a fixed
// Lead, which is the prefix). On a number key an open range is sent as the
// operator it is (< 1536019200 is Timestamp < 1536019200, exactly, so a
// key of 1536019199.5 is in it). Every other bound is a time the keys can
// write: open ends of text keys stop at the first and last times of the
// encoding, so keys that are not times (Metadata) are never in a range;
// text after the time (JFK#2021-08-01T07:25:00#250#0) is inside the upper
// bound, so a key at the last instant is in whatever follows its time.
func CompileRange(r TimeRange, e TimeEncoding, prefix string) (SKCondition, error) {
	if e.Forms != nil {
		// Each prefix's range in its own form.
		f, ok := e.byPrefix(prefix)
		if !ok {
			return SKCondition{}, fmt.Errorf("no time form is known for the keys under %s (%s)", strconv.QuoteToGraphic(prefix), e.Name())
		}
		e = f
	}
	if e.Kind == TimeNone {
		return SKCondition{}, fmt.Errorf("this sort key holds no time this tool recognises: %s", NoTimeHint)
	}
	if c, ok := numberBound(r, e); ok {
		return c, nil
	}
	k, err := newRangeCompiler(e, prefix)
	if err != nil {
		return SKCondition{}, err
	}
	a, b, period, err := k.instants(r)
	if err != nil {
		return SKCondition{}, err
	}
	return k.condition(a, b, period), nil
}

// numberBound is an open range on a number key, sent as its own operator:
// epoch keys compared with the instant itself in the keys' unit (a
// fraction where it has one, never a bound rounded to a whole unit), a
// date of digits (20150131) with the days the instant falls in.
func numberBound(r TimeRange, e TimeEncoding) (SKCondition, bool) {
	if r.Op == TimeBetween || e.textual() && !e.Number {
		return SKCondition{}, false
	}
	if e.Number {
		floor, up := truncate(r.From, e.Unit(), e.Zone), ceil(r.From, e.Unit(), e.Zone)
		if start := r.From.Add(map[TimeOp]time.Duration{TimeGt: time.Nanosecond}[r.Op]); namesPeriods(e) && (r.Op == TimeGt || r.Op == TimeGe) && !truncate(start, e.Unit(), e.Zone).Equal(start) {
			// A key names its whole day (20150131): a range starting
			// inside one starts with that day's key.
			return SKCondition{Op: SKGe, A: N(e.Encode(truncate(start, e.Unit(), e.Zone)))}, true
		}
		if r.Op == TimeLe || r.Op == TimeGt {
			// the last key of the floor's instant: an id's largest
			// (Snowflake ids of one millisecond), a date's own
			return SKCondition{Op: skOpOf[r.Op], A: N(e.EncodeLast(floor))}, true
		}
		return SKCondition{Op: skOpOf[r.Op], A: N(e.Encode(up))}, true
	}
	op, at := skOpOf[r.Op], r.From
	if r.Op == TimeLe || r.Op == TimeGt {
		// "until X", "after X": X's own instant where it is as fine as the
		// keys' unit (<= 1536019200 is itself), else the end of X's period
		// (until 2018-09-04 is before 2018-09-05).
		end := r.From.Add(time.Nanosecond)
		if !r.At.IsZero() && end.Sub(r.At) <= e.Unit() {
			at = r.At
		} else {
			op, at = map[TimeOp]SKOp{TimeLe: SKLt, TimeGt: SKGe}[r.Op], end
		}
	}
	return SKCondition{Op: op, A: N(exactEpoch(at, e))}, true
}

var skOpOf = map[TimeOp]SKOp{TimeLt: SKLt, TimeLe: SKLe, TimeGt: SKGt, TimeGe: SKGe}

// exactEpoch writes an instant in the epoch unit of e, with the fraction
// of a unit it holds (1536019200.5 seconds), so nothing is rounded away.
func exactEpoch(t time.Time, e TimeEncoding) string {
	perUnit := big.NewInt(int64(e.Unit()))
	ns := new(big.Int).Mul(big.NewInt(t.Unix()), big.NewInt(1e9))
	ns.Add(ns, big.NewInt(int64(t.Nanosecond())))
	sign := ""
	if ns.Sign() < 0 {
		sign = "-"
		ns.Neg(ns)
	}
	whole, frac := new(big.Int).QuoRem(ns, perUnit, new(big.Int))
	s := sign + whole.String()
	if frac.Sign() != 0 {
		digits := len(perUnit.String()) - 1
		f := fmt.Sprintf("%0*s", digits, frac.String())
		s += "." + strings.TrimRight(f, "0")
	}
	if s == "-0" {
		return "0"
	}
	return s
}

// rangeCompiler writes a range's bounds as the keys write them.
type rangeCompiler struct {
	e       TimeEncoding
	prefix  string
	textual bool
	unit    time.Duration
	tail    string    // the text after the time a highest key holds
	fl, la  time.Time // the first and last instants the keys can write
}

func newRangeCompiler(e TimeEncoding, prefix string) (rangeCompiler, error) {
	k := rangeCompiler{e: e, textual: e.textual() && !e.Number, unit: e.Unit(), tail: e.Tail}
	if k.textual {
		var err error
		if prefix, err = textPrefix(e, prefix); err != nil {
			return k, err
		}
	}
	k.prefix = prefix
	if e.Place == TimeLeading {
		k.tail = e.Sep
	}
	first, last := e.span()
	k.fl, k.la = k.ceil(first), k.floor(last)
	return k, nil
}

// textPrefix is the text before the time a text key's bounds begin with:
// the one given, the template's Lead, and its separator where missing.
func textPrefix(e TimeEncoding, prefix string) (string, error) {
	switch {
	case prefix == "" || strings.HasPrefix(e.Lead, prefix):
		// A of A#{time}: the format's own separator joins it, never dropped
		// nor doubled.
		prefix = e.Lead
	case e.Lead != "":
		return "", fmt.Errorf("the sort-key prefix %q does not begin the format's %q: give one of them, or a prefix the format begins with", prefix, e.Lead)
	case e.Begins != "" && !strings.HasPrefix(prefix, e.Begins):
		return "", fmt.Errorf("the sort-key prefix %q does not begin with the format's %q", prefix, e.Begins)
	}
	switch {
	case e.Place == TimeAfter && prefix == "":
		return "", fmt.Errorf("these keys put the time after a prefix (such as amsg%s): give the prefix, e.g. amsg%s", e.Sep, e.Sep)
	case e.Place != TimeAfter && prefix != "":
		return "", fmt.Errorf("these keys begin with the time, so there is no prefix to give: drop %q", prefix)
	case e.Place == TimeAfter && e.Lead == "" && !strings.HasSuffix(prefix, e.Sep):
		prefix += e.Sep
	}
	return prefix, nil
}

func (k rangeCompiler) floor(t time.Time) time.Time { return truncate(t, k.unit, k.e.Zone) }
func (k rangeCompiler) ceil(t time.Time) time.Time  { return ceil(t, k.unit, k.e.Zone) }

func (k rangeCompiler) val(s string) KeyValue {
	if k.textual {
		return S(s)
	}
	return N(s)
}

// lo is the lowest key at a time: where the keys write fractions of a
// second of any length, the second's text alone, which every key of that
// second begins with (…:00Z sorts after …:00.5Z as text); the range's own
// instants are kept by reading each key's time.
func (k rangeCompiler) lo(t time.Time) string {
	if s, ok := k.second(t); ok {
		return s
	}
	return k.prefix + k.e.Encode(t)
}

// ReadsWholeSeconds reports keys whose fractions of a second vary in
// length: a range reads its end seconds whole, and keeps its own instants
// by reading each key's time.
func (e TimeEncoding) ReadsWholeSeconds() bool {
	return e.Kind == TimeText && strings.Contains(e.Layout, fractionVaries)
}

// second is the text of t's second where the keys' fractions vary.
func (k rangeCompiler) second(t time.Time) (string, bool) {
	if !k.e.ReadsWholeSeconds() {
		return "", false
	}
	i := strings.Index(k.e.Layout, fractionVaries)
	return k.prefix + formatLayout(t.In(k.e.zone()), k.e.Layout[:i]), true
}

// hi is the highest key at a time: the largest id of the instant, and any
// text after the time.
func (k rangeCompiler) hi(t time.Time) string {
	if s, ok := k.second(t); ok {
		return s + "\U0010FFFF"
	}
	s := k.prefix + k.e.EncodeLast(t)
	switch {
	case k.tail != "":
		s += k.tail + "\U0010FFFF"
	case k.e.Rest:
		s += "\U0010FFFF"
	}
	return s
}

// instants are the first and last instants wanted, as the keys write
// them, and whether they still make one calendar period.
func (k rangeCompiler) instants(r TimeRange) (a, b time.Time, period bool, err error) {
	// The first key wanted: the first instant the keys write at or after
	// the range's start, or where a key names a whole period (a day, an
	// hour), the period holding it: 15 minutes of today are in today's
	// key.
	first := k.ceil
	if namesPeriods(k.e) {
		first = k.floor
	}
	switch r.Op {
	case TimeBetween:
		a, b, period = first(r.From), k.floor(r.To), r.Period
		if a.After(b) {
			return a, b, false, emptyRange(k.e)
		}
	case TimeLt:
		a, b = k.fl, k.floor(k.ceil(r.From).Add(-time.Nanosecond))
	case TimeLe:
		a, b = k.fl, k.floor(r.From)
	case TimeGt:
		a, b = first(r.From.Add(time.Nanosecond)), k.la
	default: // TimeGe
		a, b = first(r.From), k.la
	}
	switch {
	case a.After(k.la):
		return a, b, false, afterLast(k.e)
	case b.Before(k.fl):
		return a, b, false, beforeFirst(k.e)
	}
	if a.Before(k.fl) {
		a, period = k.fl, false
	}
	if b.After(k.la) {
		b, period = k.la, false
	}
	return a, b, period, nil
}

// condition asks for the keys from a to b: one key's instant, a period's
// common prefix, or the keys between the two.
func (k rangeCompiler) condition(a, b time.Time, period bool) SKCondition {
	if _, varies := k.second(a); a.Equal(b) && !k.e.IsID() && k.tail == "" && !k.e.Rest && !varies {
		return SKCondition{Op: SKEq, A: k.val(k.lo(b))} // one key's instant
	}
	if period && k.textual && !k.e.IsID() {
		if p, ok := k.periodPrefix(a, b); ok {
			return SKCondition{Op: SKBeginsWith, A: S(p)}
		}
	}
	c := SKCondition{Op: SKBetween, A: k.val(k.lo(a)), B: k.val(k.hi(b))}
	// A layout that does not begin with the year does not sort by time:
	// its open ends are the keys that begin with a digit (or the prefix).
	if k.e.Kind == TimeText && !k.e.Number && !strings.HasPrefix(k.e.Layout, "2006") {
		bottom, top := "0", "9\U0010FFFF"
		if k.prefix != "" {
			bottom, top = k.prefix, k.prefix+"\U0010FFFF"
		}
		if a.Equal(k.fl) {
			c.A = S(bottom)
		}
		if b.Equal(k.la) {
			c.B = S(top)
		}
	}
	return c
}

// periodPrefix is the text every key of the period a..b begins with, and
// no key outside it.
func (k rangeCompiler) periodPrefix(a, b time.Time) (string, bool) {
	p := commonPrefix(k.lo(a), k.lo(b))
	if p == "" || len(p) <= len(k.prefix) {
		return "", false
	}
	if strings.HasPrefix(k.lo(k.floor(a.Add(-time.Nanosecond))), p) || strings.HasPrefix(k.lo(k.ceil(b.Add(time.Nanosecond))), p) {
		return "", false
	}
	return p, true
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
	case unit == 7*24*time.Hour: // an ISO week, from its Monday
		y, m, d := t.In(zone).Date()
		day := time.Date(y, m, d, 0, 0, 0, 0, zone)
		return day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
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
	if unit == 7*24*time.Hour {
		return f.AddDate(0, 0, 7)
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
