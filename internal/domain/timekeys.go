package domain

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// TimeKind is how a sort key holds time.
type TimeKind int

const (
	TimeNone TimeKind = iota
	EpochSeconds
	EpochMillis
	EpochMicros
	TimeText // a formatted time, perhaps after or before other text
)

// TimePlace is where the time sits in a text key.
type TimePlace int

const (
	TimeWhole   TimePlace = iota // 2018-08-29T12:00:00Z
	TimeAfter                    // amsg#2018-08-29:12:00:00: the time follows a prefix
	TimeLeading                  // 2018-08-29:12:00:00#amsg: the time comes first
)

// TimeEncoding is a sort key's time format, detected from keys or set by
// configuration.
type TimeEncoding struct {
	Kind   TimeKind
	Layout string         // Go layout of TimeText keys
	Zone   *time.Location // the zone written in the keys (UTC for Z and for none)
	Place  TimePlace
	Sep    string // between the time and the rest, for TimeAfter and TimeLeading
}

// Name describes the encoding for people: "epoch seconds", "ISO-8601 (2006-01-02T15:04:05Z07:00) after a prefix ending #".
func (e TimeEncoding) Name() string {
	switch e.Kind {
	case EpochSeconds:
		return "epoch seconds"
	case EpochMillis:
		return "epoch milliseconds"
	case EpochMicros:
		return "epoch microseconds"
	case TimeText:
		s := e.Layout
		switch e.Place {
		case TimeAfter:
			s = "prefix" + e.Sep + s
		case TimeLeading:
			s += e.Sep + "…"
		}
		return s
	}
	return "no time"
}

// Unit is the smallest step the encoding writes.
func (e TimeEncoding) Unit() time.Duration {
	switch e.Kind {
	case EpochSeconds:
		return time.Second
	case EpochMillis:
		return time.Millisecond
	case EpochMicros:
		return time.Microsecond
	case TimeText:
		switch {
		case strings.Contains(e.Layout, ".000000"):
			return time.Microsecond
		case strings.Contains(e.Layout, ".000"):
			return time.Millisecond
		case strings.Contains(e.Layout, "05"):
			return time.Second
		case strings.Contains(e.Layout, "04"):
			return time.Minute
		case strings.Contains(e.Layout, "02"):
			return 24 * time.Hour
		}
		return 28 * 24 * time.Hour // a month: approximate, used for steps only
	}
	return 0
}

// textLayouts are the text forms recognised, most precise first. Fractions
// of seconds are added to the first four as the keys show them.
var textLayouts = []string{
	"2006-01-02T15:04:05Z07:00",
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05",
	"2006-01-02:15:04:05", // the blog's
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
	"2006-01-02",
	"2006-01",
}

// timeSeps are the separators a composite key's time may sit beside.
const timeSeps = "#|/_~"

// DetectTimeNumber reads a number key's magnitude: seconds, milliseconds
// or microseconds since 1970 for times between 1971 and 2200.
func DetectTimeNumber(n float64) (TimeEncoding, bool) {
	switch a := math.Abs(n); {
	case a >= 3e7 && a < 7.3e9:
		return TimeEncoding{Kind: EpochSeconds}, true
	case a >= 3e10 && a < 7.3e12:
		return TimeEncoding{Kind: EpochMillis}, true
	case a >= 3e13 && a < 7.3e15:
		return TimeEncoding{Kind: EpochMicros}, true
	}
	return TimeEncoding{}, false
}

// DetectTimeText finds the time in a text key: the whole key, after a
// prefix ending with a separator, or before one.
func DetectTimeText(key string) (TimeEncoding, bool) {
	if e, ok := matchLayout(key); ok {
		return e, true
	}
	for i := len(key) - 1; i > 0; i-- {
		if !strings.ContainsRune(timeSeps, rune(key[i])) {
			continue
		}
		if e, ok := matchLayout(key[i+1:]); ok {
			e.Place, e.Sep = TimeAfter, key[i:i+1]
			return e, true
		}
	}
	for i := 1; i < len(key); i++ {
		if !strings.ContainsRune(timeSeps, rune(key[i])) {
			continue
		}
		if e, ok := matchLayout(key[:i]); ok {
			e.Place, e.Sep = TimeLeading, key[i:i+1]
			return e, true
		}
	}
	return TimeEncoding{}, false
}

// timeQuorum is the share of a sample that must read as time in one form
// for the form to be taken: a Metadata item beside ISO times is skipped,
// not fatal.
const timeQuorum = 0.8

// TimeDetection is what a sample of sort keys says about their time form.
type TimeDetection struct {
	Enc     TimeEncoding
	OK      bool
	Total   int      // keys sampled
	Skipped []string // keys that are not a time in Enc's form
}

// Note says what was skipped, for people: "1 of 20 keys is not a time:
// Metadata" ("" when every key read as time). Keys are escaped.
func (d TimeDetection) Note() string {
	if !d.OK || len(d.Skipped) == 0 {
		return ""
	}
	shown := make([]string, 0, 3)
	for _, k := range d.Skipped[:min(3, len(d.Skipped))] {
		shown = append(shown, printableKey(k))
	}
	list := strings.Join(shown, ", ")
	if len(d.Skipped) > 3 {
		list += ", …"
	}
	if len(d.Skipped) == 1 {
		return fmt.Sprintf("1 of %d keys is not a time: %s", d.Total, list)
	}
	return fmt.Sprintf("%d of %d keys are not times: %s", len(d.Skipped), d.Total, list)
}

// printableKey is a key as it can be printed: quoted and escaped when it
// holds anything but printable characters or spaces.
func printableKey(k string) string {
	if q := strconv.QuoteToGraphic(k); q[1:len(q)-1] != k || k == "" {
		return q
	}
	return k
}

// DetectTimeSample finds the one time form most of a sample holds (at
// least timeQuorum of the keys), and names the keys left out; numbers are
// given as their text.
func DetectTimeSample(sample []string, number bool) TimeDetection {
	d := TimeDetection{Total: len(sample)}
	type form struct {
		kind        TimeKind
		layout, sep string
		place       TimePlace
	}
	encs := make([]TimeEncoding, len(sample))
	oks := make([]bool, len(sample))
	count := map[form]int{}
	var best form
	for i, k := range sample {
		if number {
			if f, err := strconv.ParseFloat(k, 64); err == nil {
				encs[i], oks[i] = DetectTimeNumber(f)
			}
		} else {
			encs[i], oks[i] = DetectTimeText(k)
		}
		if !oks[i] {
			continue
		}
		f := form{encs[i].Kind, encs[i].Layout, encs[i].Sep, encs[i].Place}
		count[f]++
		if count[f] > count[best] {
			best = f
		}
	}
	if len(sample) == 0 || float64(count[best]) < timeQuorum*float64(len(sample)) {
		return d
	}
	for i, k := range sample {
		e := encs[i]
		if oks[i] && (form{e.Kind, e.Layout, e.Sep, e.Place}) == best {
			if !d.OK {
				d.Enc, d.OK = e, true
			}
			continue
		}
		d.Skipped = append(d.Skipped, k)
	}
	return d
}

// DetectTime agrees on one encoding for a sample of keys: the form most of
// them (timeQuorum) hold; numbers are given as their text.
func DetectTime(sample []string, number bool) (TimeEncoding, bool) {
	d := DetectTimeSample(sample, number)
	return d.Enc, d.OK
}

// NoTimeHint is what every "no time found" message ends with: how to name
// the format by hand.
const NoTimeHint = "give --time-format (or time_format in the configuration), such as 2006-01-02T15:04:05Z07:00, prefix#2006-01-02:15:04:05 or epoch-ms"

// Matches counts the keys of a sample that read as time in this encoding:
// a format given by hand that matches none is a mistake to report.
func (e TimeEncoding) Matches(sample []string) int {
	n := 0
	for _, k := range sample {
		if e.Kind != TimeText {
			f, err := strconv.ParseFloat(k, 64)
			if got, ok := DetectTimeNumber(f); err != nil || !ok || got.Kind != e.Kind {
				continue
			}
		}
		if _, ok := e.KeyTime(k); ok {
			n++
		}
	}
	return n
}

func matchLayout(s string) (TimeEncoding, bool) {
	if len(s) < 7 || s[0] < '0' || s[0] > '9' {
		return TimeEncoding{}, false
	}
	for _, l := range textLayouts {
		layout := l
		if frac := fractionDigits(s); frac > 0 && strings.Contains(l, ":05") {
			layout = strings.Replace(l, ":05", ":05."+strings.Repeat("0", frac), 1)
		}
		t, err := time.Parse(layout, s)
		if err != nil || t.Format(layout) != s && !zoneEquivalent(t, layout, s) {
			continue
		}
		if t.Format(layout) != s {
			// +00:00 where Z07:00 would write Z: keep the numeric zone, so
			// bounds are written as the keys are.
			layout = strings.Replace(layout, "Z07:00", "-07:00", 1)
		}
		zone := time.UTC
		if strings.Contains(layout, "Z07:00") && !strings.HasSuffix(s, "Z") {
			_, off := t.Zone()
			zone = time.FixedZone(t.Format("-07:00"), off)
		}
		return TimeEncoding{Kind: TimeText, Layout: layout, Zone: zone}, true
	}
	return TimeEncoding{}, false
}

// zoneEquivalent accepts +00:00 written where Format would write Z.
func zoneEquivalent(t time.Time, layout, s string) bool {
	return strings.HasSuffix(s, "+00:00") && strings.TrimSuffix(t.Format(layout), "Z") == strings.TrimSuffix(s, "+00:00")
}

func fractionDigits(s string) int {
	i := strings.IndexByte(s, '.')
	if i < 0 || i < 17 {
		return 0
	}
	n := 0
	for j := i + 1; j < len(s) && s[j] >= '0' && s[j] <= '9'; j++ {
		n++
	}
	return n
}

// KeyTime reads the time in a key of this encoding.
func (e TimeEncoding) KeyTime(key string) (time.Time, bool) {
	switch e.Kind {
	case EpochSeconds, EpochMillis, EpochMicros:
		if n, err := strconv.ParseInt(key, 10, 64); err == nil { // exact, no float rounding
			switch e.Kind {
			case EpochSeconds:
				return time.Unix(n, 0).UTC(), true
			case EpochMillis:
				return time.UnixMilli(n).UTC(), true
			default:
				return time.UnixMicro(n).UTC(), true
			}
		}
		f, err := strconv.ParseFloat(key, 64)
		if err != nil {
			return time.Time{}, false
		}
		scale := map[TimeKind]float64{EpochSeconds: 1, EpochMillis: 1e3, EpochMicros: 1e6}[e.Kind]
		sec := f / scale
		// Whole seconds and the fraction apart: nanoseconds since 1970 in
		// an int64 end in 2262.
		if math.IsNaN(sec) || math.Abs(sec) > maxEpochSeconds {
			return time.Time{}, false
		}
		whole := math.Floor(sec)
		return time.Unix(int64(whole), int64((sec-whole)*1e9)).UTC(), true
	case TimeText:
		part := key
		switch e.Place {
		case TimeAfter:
			i := strings.LastIndex(key, e.Sep)
			if i < 0 {
				return time.Time{}, false
			}
			part = key[i+1:]
		case TimeLeading:
			i := strings.Index(key, e.Sep)
			if i < 0 {
				return time.Time{}, false
			}
			part = key[:i]
		}
		t, err := time.ParseInLocation(e.Layout, part, time.UTC)
		if err != nil {
			return time.Time{}, false
		}
		return t.UTC(), true
	}
	return time.Time{}, false
}

// Encode writes a time as this encoding writes it (the time part only).
func (e TimeEncoding) Encode(t time.Time) string {
	switch e.Kind {
	// Seconds and the fraction apart (t.Unix() floors, Nanosecond is never
	// negative): t.UnixNano() wraps outside 1677–2262, the years 0001–9999
	// fit in microseconds.
	case EpochSeconds:
		return strconv.FormatInt(t.Unix(), 10)
	case EpochMillis:
		return strconv.FormatInt(t.Unix()*1e3+int64(t.Nanosecond())/1e6, 10)
	case EpochMicros:
		return strconv.FormatInt(t.Unix()*1e6+int64(t.Nanosecond())/1e3, 10)
	case TimeText:
		return t.In(e.zone()).Format(e.Layout)
	}
	return ""
}

// The instants a range may name: the years ISO-8601 writes in four
// digits. Text keys sort as time only within them, and every epoch unit
// holds them without overflow.
var (
	MinInstant = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	MaxInstant = time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
)

// maxEpochSeconds is past either end of the instants a range may name.
const maxEpochSeconds = 253402300800 // 10000-01-01T00:00:00Z

// ErrOutOfRange says a time falls outside the years 0001–9999.
var ErrOutOfRange = errors.New("times run from 0001-01-01 to 9999-12-31")

// inRange refuses a period [start, end) that is not within the years
// 0001–9999 as written.
func inRange(s string, start, end time.Time) error {
	if start.Year() < 1 || end.Add(-time.Nanosecond).Year() > 9999 {
		return fmt.Errorf("%q: %w", s, ErrOutOfRange)
	}
	return nil
}

// zone is the zone the keys are written in (UTC when unset).
func (e TimeEncoding) zone() *time.Location {
	if e.Zone == nil {
		return time.UTC
	}
	return e.Zone
}

// ParseTimeFormat reads a time format as configured: epoch-s, epoch-ms,
// epoch-us, or a Go layout, optionally as prefix#LAYOUT (the time after a
// prefix ending with the separator) or LAYOUT#suffix (the time first).
func ParseTimeFormat(s string) (TimeEncoding, error) {
	switch s {
	case "epoch-s":
		return TimeEncoding{Kind: EpochSeconds}, nil
	case "epoch-ms":
		return TimeEncoding{Kind: EpochMillis}, nil
	case "epoch-us":
		return TimeEncoding{Kind: EpochMicros}, nil
	}
	bad := fmt.Errorf("%q is not a time format: write epoch-s, epoch-ms, epoch-us or a Go layout such as 2006-01-02T15:04:05Z07:00 (prefix#LAYOUT for composite keys)", s)
	e := TimeEncoding{Kind: TimeText, Layout: s, Zone: time.UTC}
	if rest, ok := strings.CutPrefix(s, "prefix"); ok && len(rest) > 1 && strings.ContainsRune(timeSeps, rune(rest[0])) {
		e.Place, e.Sep, e.Layout = TimeAfter, rest[:1], rest[1:]
	} else if i := strings.LastIndexAny(s, timeSeps); i > 0 && strings.HasSuffix(s, "suffix") {
		e.Place, e.Sep, e.Layout = TimeLeading, s[i:i+1], s[:i]
	}
	if !strings.Contains(e.Layout, "2006") {
		return TimeEncoding{}, bad
	}
	if e.Sep != "" && strings.Contains(e.Layout, e.Sep) {
		return TimeEncoding{}, fmt.Errorf("%q: the time's layout holds its separator %q, so the time cannot be found in a key", s, e.Sep)
	}
	// The layout must write and read back a time.
	ref := time.Date(2018, 8, 29, 12, 0, 0, 0, time.UTC)
	if back, err := time.Parse(e.Layout, ref.Format(e.Layout)); err != nil || back.Year() != 2018 {
		return TimeEncoding{}, bad
	}
	return e, nil
}

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
	Input    string
}

// ParseRange reads what people type into the range bar:
//
//	last 15m | last 24h | last 7d | last 2w
//	today | yesterday
//	2018-08 | 2018-08-29 | 2018-08-29T12:00 (the whole period)
//	2018-08-29..2018-09-04 | between A and B
//	< X | <= X | > X | >= X  (X: a date, a time, or epoch seconds/ms/µs)
//
// now and loc (the zone of times written without one) come from the caller.
func ParseRange(input string, now time.Time, loc *time.Location) (TimeRange, error) {
	s := strings.TrimSpace(input)
	r := TimeRange{Input: s}
	lower := asciiLower(s) // same length as s: positions found in it index s
	switch {
	case s == "":
		return r, fmt.Errorf("type a range: last 15m, today, 2018-08, 2018-08-29..2018-09-04, < 1536019200")
	case strings.HasPrefix(lower, "last "):
		d, err := parseSpan(strings.TrimSpace(s[5:]))
		if err != nil {
			return r, err
		}
		r.Op, r.From = TimeGe, now.Add(-d)
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
		return between(r, rest[:i], rest[i+5:], loc)
	case strings.Contains(s, ".."):
		i := strings.Index(s, "..")
		return between(r, s[:i], s[i+2:], loc)
	}
	for _, op := range []struct {
		sym string
		op  TimeOp
	}{{"<=", TimeLe}, {">=", TimeGe}, {"<", TimeLt}, {">", TimeGt}} {
		if rest, ok := strings.CutPrefix(s, op.sym); ok {
			a, b, err := ParseInstant(strings.TrimSpace(rest), loc)
			if err != nil {
				return r, err
			}
			r.Op = op.op
			switch op.op {
			case TimeLt, TimeGe:
				r.From = a // before the period starts; from its start
			case TimeLe, TimeGt:
				r.From = b.Add(-time.Nanosecond) // through its end; after it ends
			}
			return r, nil
		}
	}
	a, b, err := ParseInstant(s, loc)
	if err != nil {
		return r, err
	}
	r.Op, r.From, r.To, r.Period = TimeBetween, a, b.Add(-time.Nanosecond), true
	return r, nil
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

func between(r TimeRange, a, b string, loc *time.Location) (TimeRange, error) {
	from, _, err := ParseInstant(strings.TrimSpace(a), loc)
	if err != nil {
		return r, err
	}
	_, to, err := ParseInstant(strings.TrimSpace(b), loc)
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
			return t, l.span(t), inRange(s, t, l.span(t))
		}
	}
	return start, end, fmt.Errorf("%q is not a time: write 2018-08-29, 2018-08, 2018-08-29T12:00Z, 2018-08-29:12:00:00 or 1536019200", s)
}

// ErrEmptyRange says a range falls between two of the keys' steps (a
// millisecond on keys that count seconds): no key can be in it.
var ErrEmptyRange = errors.New("no key can fall in this range")

func emptyRange(e TimeEncoding) error {
	return fmt.Errorf("%w: the keys count whole %s; widen the range", ErrEmptyRange, unitName(e.Unit()))
}

func afterLast() error {
	return fmt.Errorf("%w: text keys end at 9999-12-31T23:59:59", ErrEmptyRange)
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
// keys (amsg#); it is required for TimeAfter keys.
func CompileRange(r TimeRange, e TimeEncoding, prefix string) (SKCondition, error) {
	if e.Kind == TimeNone {
		return SKCondition{}, fmt.Errorf("this sort key holds no time this tool recognises: %s", NoTimeHint)
	}
	if e.Kind != TimeText {
		return compileNumber(r, e)
	}
	if e.Place == TimeAfter && prefix == "" {
		return SKCondition{}, fmt.Errorf("these keys put the time after a prefix (such as amsg%s): give the prefix, e.g. amsg%s", e.Sep, e.Sep)
	}
	if e.Place != TimeAfter && prefix != "" {
		return SKCondition{}, fmt.Errorf("these keys begin with the time, so there is no prefix to give: drop %q", prefix)
	}
	if e.Place == TimeAfter && !strings.HasSuffix(prefix, e.Sep) {
		prefix += e.Sep
	}
	unit := e.Unit()
	enc := func(t time.Time) string { return prefix + e.Encode(t) }
	// The highest key at a time: a leading time has more text after it.
	upper := func(t time.Time) string {
		if e.Place == TimeLeading {
			return e.Encode(t) + e.Sep + "\U0010FFFF"
		}
		return enc(t)
	}
	// A bound is floored to the key's unit: To is the last instant wanted.
	floor := func(t time.Time) time.Time { return truncate(t, unit, e.Zone) }
	// Past 9999 a text key would need a fifth digit and sort before 2000:
	// a bound rounded up past the last writable instant has no key after it.
	beyond := func(t time.Time) bool { return t.In(e.zone()).Year() > 9999 }
	last := floor(MaxInstant.In(e.zone()))
	// Without a prefix the time begins every key: bounding open ranges by
	// the first and last times the layout writes (keys that begin with a
	// digit, for other layouts) leaves out the keys that are not times (a
	// Metadata item beside them), which detection skipped.
	bottom, top := "0", "9\U0010FFFF"
	if strings.HasPrefix(e.Layout, "2006") { // the first and last keys the layout can write
		bottom, top = enc(time.Date(0, 1, 1, 0, 0, 0, 0, e.zone())), upper(time.Date(9999, 12, 31, 23, 59, 59, 999999999, e.zone()))
	}
	if prefix != "" {
		bottom, top = prefix, prefix+"\U0010FFFF"
	}
	if r.Op == TimeBetween && ceil(r.From, unit, e.Zone).After(floor(r.To)) {
		return SKCondition{}, emptyRange(e)
	}
	if r.Op == TimeBetween && ceil(r.From, unit, e.Zone).Equal(floor(r.To)) && e.Place != TimeLeading {
		return SKCondition{Op: SKEq, A: S(enc(floor(r.To)))}, nil // one key's instant
	}
	switch r.Op {
	case TimeBetween:
		if r.Period {
			lo, hi := enc(floor(r.From)), enc(floor(r.To))
			if p := commonPrefix(lo, hi); p != "" && len(p) > len(prefix) &&
				!strings.HasPrefix(enc(floor(r.From).Add(-unit)), p) && !strings.HasPrefix(enc(floor(r.To).Add(unit)), p) {
				return SKCondition{Op: SKBeginsWith, A: S(p)}, nil
			}
		}
		return SKCondition{Op: SKBetween, A: S(enc(ceil(r.From, unit, e.Zone))), B: S(upper(floor(r.To)))}, nil
	case TimeLt:
		if beyond(ceil(r.From, unit, e.Zone)) {
			r.Op, r.From = TimeLe, last
			return CompileRange(r, e, prefix)
		}
		return SKCondition{Op: SKBetween, A: S(bottom), B: S(upper(ceil(r.From, unit, e.Zone).Add(-unit)))}, nil
	case TimeLe:
		return SKCondition{Op: SKBetween, A: S(bottom), B: S(upper(floor(r.From)))}, nil
	case TimeGt:
		if beyond(floor(r.From).Add(unit)) {
			return SKCondition{}, afterLast()
		}
		return SKCondition{Op: SKBetween, A: S(enc(floor(r.From).Add(unit))), B: S(top)}, nil
	default: // TimeGe
		if beyond(ceil(r.From, unit, e.Zone)) {
			return SKCondition{}, afterLast()
		}
		return SKCondition{Op: SKBetween, A: S(enc(ceil(r.From, unit, e.Zone))), B: S(top)}, nil
	}
}

func compileNumber(r TimeRange, e TimeEncoding) (SKCondition, error) {
	unit := e.Unit()
	n := func(t time.Time) KeyValue { return N(e.Encode(t)) }
	switch r.Op {
	case TimeBetween:
		if ceil(r.From, unit, nil).After(truncate(r.To, unit, nil)) {
			return SKCondition{}, emptyRange(e)
		}
		if ceil(r.From, unit, nil).Equal(truncate(r.To, unit, nil)) {
			return SKCondition{Op: SKEq, A: n(r.To)}, nil // one key's instant
		}
		return SKCondition{Op: SKBetween, A: n(ceil(r.From, unit, nil)), B: n(r.To)}, nil
	case TimeLt:
		return SKCondition{Op: SKLt, A: n(ceil(r.From, unit, nil))}, nil
	case TimeLe:
		return SKCondition{Op: SKLe, A: n(r.From)}, nil
	case TimeGt:
		return SKCondition{Op: SKGt, A: n(r.From)}, nil
	default:
		return SKCondition{Op: SKGe, A: n(ceil(r.From, unit, nil))}, nil
	}
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
