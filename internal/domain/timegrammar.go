package domain

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// TimeOp is a time range's comparison.
type TimeOp int

const (
	TimeBetween TimeOp = iota // From..To, both inclusive
	TimeLt
	TimeLe
	TimeGt
	TimeGe
)

// TimeRange is what a person typed, as instants: From/To are the first
// and last instants included (To is inclusive), or the one bound of < <= >
// >=. Period is set when the range is one calendar period (a day, a
// month), which text keys can ask for with begins_with.
type TimeRange struct {
	Op       TimeOp
	From, To time.Time
	Period   bool
	// At is the start of the period a one-bound range names (the second
	// of < 1536019200, the day of until 2018-09-04); zero when unknown.
	At    time.Time
	Input string
}

// Widen is the range d wider at each end it has: what a key condition
// written in one UTC offset must hold to miss no key of the range among
// keys written in offsets up to d apart (their text is their local time).
func (r TimeRange) Widen(d time.Duration) TimeRange {
	if d <= 0 {
		return r
	}
	switch r.Op {
	case TimeBetween:
		r.From, r.To = r.From.Add(-d), r.To.Add(d)
	case TimeLt, TimeLe:
		r.From = r.From.Add(d)
		if !r.At.IsZero() {
			r.At = r.At.Add(d)
		}
	default:
		r.From = r.From.Add(-d)
		if !r.At.IsZero() {
			r.At = r.At.Add(-d)
		}
	}
	r.Period = false
	return r
}

// Holds reports whether instant t is in the range: From and To are its
// first and last instants (To only between two), as CompileRange reads
// them.
func (r TimeRange) Holds(t time.Time) bool {
	switch r.Op {
	case TimeBetween:
		return !t.Before(r.From) && !t.After(r.To)
	case TimeLt:
		return t.Before(r.From)
	case TimeLe:
		return !t.After(r.From)
	case TimeGt:
		return t.After(r.From)
	}
	return !t.Before(r.From)
}

// ParseRange reads the one grammar of the range bar, --range, the range
// flags and the words the request line prints (DescribeCondition):
//
//	last 15m | last 24h | last 7d | last 2w   (the span ending now)
//	today | yesterday
//	2018-08 | 2018-08-29 | at 2018-08-29T12:00 (the whole period)
//	between A and B | A..B | A to B            (both periods included)
//	since X | from X | >= X                    (X on, with no end)
//	after X | > X                              (after X's whole period)
//	before X | < X
//	until X | up to X | <= X                   (through X's period)
//
// X is a date, a time (with or without zone; "2018-09-04 00:00:00 UTC" as
// the request line writes it), epoch seconds/ms/µs, now, or a span ago
// (15m ago). now and loc (the zone of times written without one) come
// from the caller.
func ParseRange(input string, now time.Time, loc *time.Location) (TimeRange, error) {
	s := strings.TrimSpace(input)
	r := TimeRange{Input: s}
	lower := asciiLower(s) // same length as s: positions found in it index s
	word := func(w string) (string, bool) {
		if strings.HasPrefix(lower, w) {
			return strings.TrimSpace(s[len(w):]), true
		}
		return "", false
	}
	instant := func(x string) (time.Time, time.Time, error) { return rangeInstant(x, now, loc) }
	bound := func(op TimeOp, x string) (TimeRange, error) {
		a, b, err := instant(x)
		if err != nil {
			return r, err
		}
		r.Op, r.At = op, a
		switch op {
		case TimeLt, TimeGe:
			r.From = a // before the period starts; from its start
		case TimeLe, TimeGt:
			r.From = b.Add(-time.Nanosecond) // through its end; after it ends
		}
		return r, nil
	}
	switch {
	case s == "":
		return r, fmt.Errorf("type a range: last 15m, today, 2018-08, between 2018-08-29 and 2018-09-04, since 2018-09-01, before 1536019200")
	case strings.HasPrefix(lower, "last "):
		d, err := parseSpan(strings.TrimSpace(s[5:]))
		if err != nil {
			return r, err
		}
		// A span ends now: keys written later (a clock ahead, or dates
		// in the future) are not "the last 15 minutes".
		r.Op, r.From, r.To = TimeBetween, now.Add(-d), now
		return r, nil
	case lower == "today" || lower == "yesterday":
		y, m, d := now.In(loc).Date()
		start := time.Date(y, m, d, 0, 0, 0, 0, loc)
		if lower == "yesterday" {
			start = start.AddDate(0, 0, -1)
		}
		r.Op, r.From, r.To, r.Period = TimeBetween, start, start.AddDate(0, 0, 1).Add(-time.Nanosecond), true
		return r, nil
	case strings.HasPrefix(lower, "between "):
		rest := s[8:]
		i := strings.Index(asciiLower(rest), " and ")
		if i < 0 {
			return r, fmt.Errorf("write between A and B, such as between 2018-08-29 and 2018-09-04")
		}
		return between(r, rest[:i], rest[i+5:], now, loc)
	case strings.Contains(s, ".."):
		i := strings.Index(s, "..")
		return between(r, s[:i], s[i+2:], now, loc)
	}
	for _, w := range []struct {
		word string
		op   TimeOp
	}{{"<=", TimeLe}, {">=", TimeGe}, {"<", TimeLt}, {">", TimeGt},
		{"since ", TimeGe}, {"from ", TimeGe}, {"after ", TimeGt}, {"before ", TimeLt}, {"until ", TimeLe}, {"up to ", TimeLe}} {
		if rest, ok := word(w.word); ok {
			if w.op == TimeGe && w.word == "from " {
				if i := strings.Index(asciiLower(rest), " to "); i >= 0 { // from A to B
					return between(r, rest[:i], rest[i+4:], now, loc)
				}
			}
			return bound(w.op, rest)
		}
	}
	if i := strings.Index(lower, " to "); i > 0 {
		return between(r, s[:i], s[i+4:], now, loc)
	}
	if rest, ok := word("at "); ok {
		s = rest
	}
	a, b, err := instant(s)
	if err != nil {
		return r, err
	}
	r.Op, r.From, r.To, r.Period = TimeBetween, a, b.Add(-time.Nanosecond), true
	return r, nil
}

// rangeInstant reads a time in a range: now, a span ago (15m ago), or
// what ParseInstant reads.
func rangeInstant(s string, now time.Time, loc *time.Location) (start, end time.Time, err error) {
	lower := asciiLower(strings.TrimSpace(s))
	if lower == "now" {
		return now, now.Add(time.Nanosecond), nil
	}
	if span, ok := strings.CutSuffix(lower, " ago"); ok {
		d, err := parseSpan(strings.TrimSpace(span))
		if err != nil {
			return start, end, err
		}
		return now.Add(-d), now.Add(-d).Add(time.Nanosecond), nil
	}
	return ParseInstant(strings.TrimSpace(s), loc)
}

// asciiLower lowers A–Z only, so byte offsets stay those of s (unicode
// lowering can change a string's length).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func between(r TimeRange, a, b string, now time.Time, loc *time.Location) (TimeRange, error) {
	from, _, err := rangeInstant(a, now, loc)
	if err != nil {
		return r, err
	}
	_, to, err := rangeInstant(b, now, loc)
	if err != nil {
		return r, err
	}
	if !to.After(from) {
		return r, fmt.Errorf("%s is not after %s: give the earlier time first", strings.TrimSpace(b), strings.TrimSpace(a))
	}
	r.Op, r.From, r.To = TimeBetween, from, to.Add(-time.Nanosecond)
	return r, nil
}

// parseSpan reads 15m, 24h, 7d, 2w, 30s, 1h30m.
func parseSpan(s string) (time.Duration, error) {
	bad := fmt.Errorf("%q is not a span: write 15m, 24h, 7d or 2w", s)
	if s == "" {
		return 0, bad
	}
	var total time.Duration
	for s != "" {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || i == len(s) || i > 9 {
			return 0, bad
		}
		n, _ := strconv.Atoi(s[:i])
		unit := map[byte]time.Duration{'s': time.Second, 'm': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour, 'w': 7 * 24 * time.Hour}[s[i]]
		if unit == 0 {
			return 0, bad
		}
		total += time.Duration(n) * unit
		s = s[i+1:]
	}
	if total <= 0 || total > 100*365*24*time.Hour {
		return 0, bad
	}
	return total, nil
}

// instantLayouts are the forms a typed time may take, with the length of
// the period each names.
var instantLayouts = []struct {
	layout string
	zoned  bool
	span   func(time.Time) time.Time
}{
	{time.RFC3339Nano, true, func(t time.Time) time.Time { return t.Add(time.Nanosecond) }},
	{"2006-01-02T15:04:05", false, func(t time.Time) time.Time { return t.Add(time.Second) }},
	{"2006-01-02 15:04:05", false, func(t time.Time) time.Time { return t.Add(time.Second) }},
	{"2006-01-02:15:04:05", false, func(t time.Time) time.Time { return t.Add(time.Second) }},
	{"2006-01-02T15:04Z07:00", true, func(t time.Time) time.Time { return t.Add(time.Minute) }},
	{"2006-01-02T15:04", false, func(t time.Time) time.Time { return t.Add(time.Minute) }},
	{"2006-01-02 15:04", false, func(t time.Time) time.Time { return t.Add(time.Minute) }},
	{"2006-01-02T15", false, func(t time.Time) time.Time { return t.Add(time.Hour) }},
	{"2006-01-02", false, func(t time.Time) time.Time { return t.AddDate(0, 0, 1) }},
	{"2006-01", false, func(t time.Time) time.Time { return t.AddDate(0, 1, 0) }},
	{"2006", false, func(t time.Time) time.Time { return t.AddDate(1, 0, 0) }},
}

// ParseInstant reads a typed time as the period it names, [start, end):
// epoch seconds, milliseconds or microseconds (by magnitude), an ISO-8601
// time with or without zone (loc when none), a date, a month or a year.
func ParseInstant(s string, loc *time.Location) (start, end time.Time, err error) {
	if s == "" {
		return start, end, fmt.Errorf("a time is missing: write 2018-08-29, 2018-08-29T12:00Z or 1536019200")
	}
	if i := strings.LastIndexByte(s, ' '); i > 0 && isZoneName(s[i+1:]) {
		// A zone by name, as the request line writes times: UTC, or the
		// local zone's abbreviation (CEST) where loc is local.
		name := s[i+1:]
		switch name {
		case "UTC", "GMT", "Z":
			return ParseInstant(strings.TrimSpace(s[:i]), time.UTC)
		}
		start, end, err = ParseInstant(strings.TrimSpace(s[:i]), loc)
		if err != nil {
			return start, end, err
		}
		if got, _ := start.In(loc).Zone(); got != name {
			return start, end, fmt.Errorf("%q: the zone %s is not known here: write UTC, or the offset (2018-09-04T00:00:00+02:00)", s, name)
		}
		return start, end, nil
	}
	if n, perr := strconv.ParseInt(s, 10, 64); perr == nil && len(s) > 4 {
		e, ok := DetectTimeNumber(float64(n))
		if !ok {
			return start, end, fmt.Errorf("%s is not epoch seconds, milliseconds or microseconds between 1971 and 2200", s)
		}
		start, _ = e.KeyTime(s)
		return start, start.Add(e.Unit()), nil
	}
	for _, l := range instantLayouts {
		var t time.Time
		var perr error
		if l.zoned {
			t, perr = time.Parse(l.layout, s)
		} else {
			t, perr = time.ParseInLocation(l.layout, s, loc)
		}
		if perr == nil {
			if l.layout == time.RFC3339Nano {
				// As precise as written: 12:00:00Z names a second, .5Z a tenth.
				step := time.Second
				for range fractionDigits(s) {
					step /= 10
				}
				return t, t.Add(max(step, time.Nanosecond)), inRange(s, t, t.Add(max(step, time.Nanosecond)))
			}
			if frac := fractionDigits(s); frac > 0 && strings.Contains(l.layout, "05") {
				step := time.Second
				for range frac {
					step /= 10
				}
				return t, t.Add(max(step, time.Nanosecond)), inRange(s, t, t.Add(max(step, time.Nanosecond)))
			}
			return t, l.span(t), inRange(s, t, l.span(t))
		}
	}
	return start, end, fmt.Errorf("%q is not a time: write 2018-08-29, 2018-08, 2018-08-29T12:00Z, 2018-08-29:12:00:00 or 1536019200", s)
}

// isZoneName reports a zone written by name: two to five capital letters
// (UTC, CEST), or Z.
func isZoneName(s string) bool {
	if s == "Z" {
		return true
	}
	if len(s) < 2 || len(s) > 5 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// DescribeCondition says a sort-key condition on time keys in the range
// grammar's own words, with readable times in loc ("between 2018-08-01
// 00:00:00 UTC and 2018-08-31 23:59:59 UTC", "since …", "until …", "at
// …"): ParseRange reads it back to the same condition. "" when the
// condition's bounds are not times of e.
func DescribeCondition(sk SKCondition, e TimeEncoding, loc *time.Location) string {
	at := func(v KeyValue) (time.Time, string, bool) {
		t, ok := e.KeyTime(v.Text)
		if !ok {
			return t, "", false
		}
		return t, readableTime(t, e, loc), true
	}
	first, last := e.span()
	unit := e.Unit()
	switch sk.Op {
	case SKBetween:
		ta, a, oka := at(sk.A)
		tb, b, okb := at(sk.B)
		if !oka || !okb {
			return ""
		}
		low := !ta.After(ceil(first, unit, e.Zone))
		high := !tb.Before(truncate(last, unit, e.Zone))
		switch {
		case high && !low:
			return "since " + a
		case low && !high:
			return "until " + b
		}
		return "between " + a + " and " + b
	case SKGt, SKGe, SKLt, SKLe, SKEq:
		_, a, ok := at(sk.A)
		if !ok {
			return ""
		}
		return map[SKOp]string{SKGt: "after ", SKGe: "since ", SKLt: "before ", SKLe: "until ", SKEq: "at "}[sk.Op] + a
	case SKBeginsWith:
		// The period the prefix names: its time part, without the
		// separator a layout writes after a date (2018-08-29T).
		part := sk.A.Text
		if e.Place == TimeAfter {
			if e.Lead != "" {
				part = strings.TrimPrefix(part, e.Lead)
			} else if i := strings.LastIndex(part, e.Sep); i >= 0 {
				part = part[i+len(e.Sep):]
			}
		}
		part = strings.TrimRightFunc(part, func(r rune) bool { return r < '0' || r > '9' })
		if _, _, err := ParseInstant(part, e.zone()); err != nil || len(part) < 7 {
			return ""
		}
		if e.zone() != loc && e.zone().String() != loc.String() {
			return "" // the period is the keys' zone's, which the words cannot name
		}
		return "at " + part
	}
	return ""
}

// readableTime writes a bound as people read it and ParseRange reads it:
// a day or a month alone where the keys count days or months in loc, else
// the time to the second (and any fraction), with the zone's name.
func readableTime(t time.Time, e TimeEncoding, loc *time.Location) string {
	unit := e.Unit()
	sameZone := e.zone() == loc || e.zone().String() == loc.String()
	switch {
	case unit >= 28*24*time.Hour && sameZone:
		return t.In(loc).Format("2006-01")
	case unit >= 24*time.Hour && sameZone:
		return t.In(loc).Format("2006-01-02")
	}
	switch {
	case !t.Equal(t.Truncate(max(unit, time.Nanosecond))):
		// a bound between two of the keys' steps (< 1536019200.5 on
		// seconds): as precise as it is, so it reads back the same
		return t.In(loc).Format("2006-01-02 15:04:05.999999999 MST")
	case unit < time.Microsecond:
		return t.In(loc).Format("2006-01-02 15:04:05.000000000 MST")
	case unit < time.Millisecond:
		return t.In(loc).Format("2006-01-02 15:04:05.000000 MST")
	case unit < time.Second:
		return t.In(loc).Format("2006-01-02 15:04:05.000 MST")
	}
	return t.In(loc).Format("2006-01-02 15:04:05 MST")
}
