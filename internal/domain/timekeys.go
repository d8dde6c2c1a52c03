package domain

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
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
	TimeText      // a formatted time, perhaps after or before other text
	TimeULID      // a ULID: 48-bit milliseconds, then randomness, base32
	TimeUUIDv7    // a UUID version 7: 48-bit milliseconds first
	TimeKSUID     // a KSUID: seconds since 2014-05-13, base62
	EpochNanos    // nanoseconds since 1970
	TimeSnowflake // a Snowflake id: milliseconds since 2010-11-04 in its top bits, in decimal
	TimeObjectID  // a MongoDB ObjectId: 24 hex digits, the first 8 the seconds since 1970
)

// TimePlace is where the time sits in a text key.
type TimePlace int

const (
	TimeWhole   TimePlace = iota // 2018-08-29T12:00:00Z
	TimeAfter                    // amsg#2018-08-29:12:00:00: the time follows a prefix (and Tail, text after it)
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
	// Tail, for TimeAfter, is the separator after which text follows the
	// time (JFK#2021-08-01T07:25:00#250#0: "#"); "" when the time ends the key.
	Tail string
	// Lead is a fixed text every key begins with before the time (comm#
	// of comm#{time}#{any}): the one prefix, so none is searched for.
	Lead   string
	Number bool // a TimeText layout of digits on a number key (20150131)
	Lower  bool // ids written in lower case (ULID), or not in upper case (UUID)
	// Width is the count of digits of an epoch written inside a text key
	// (admission#1601700180000#R8: 13); 0 for an epoch that is the number
	// key itself.
	Width int
	// Rest says any text may follow the time directly, with no separator
	// (2021-07-07T16:36:42-D): the time part is as long as its form.
	Rest bool
	// Epoch is where a Snowflake id's milliseconds start, since 1970:
	// Discord's (discordEpoch), or 0 for Twitter's.
	Epoch int64
	// Begins is fixed text every key begins with before a prefix that
	// varies (P# of P#{any}#{time}).
	Begins string
	// anywhere marks a form given alone (epoch-ms, a layout) for text
	// keys: where it stands in them is read from the keys (Resolve).
	anywhere bool
	// Forms, when set, is a time form a prefix (a sensor's readings
	// $sensor#reading_1#at_<epoch ms> beside its alarms
	// $sensor#alarm_1#raiseds_<epoch s>): each key is read, and each
	// prefix's range written, in its prefix's form; the fields above are
	// the first form's. A pointer keeps encodings comparable.
	Forms *PrefixForms
}

// PrefixForms are the time forms of a partition whose prefixes hold
// times in different forms, each read by its own (see TimeEncoding.Forms).
type PrefixForms struct {
	List []PrefixForm // by prefix
}

// PrefixForm is the time form of the keys under one prefix.
type PrefixForm struct {
	Prefix string // the text before the time: $sensor#reading_1#at_
	Enc    TimeEncoding
}

// byPrefix is the form of the keys under the longest prefix key begins
// with (false for none: a key of no time prefix is no time).
func (e TimeEncoding) byPrefix(key string) (TimeEncoding, bool) {
	best := -1
	for i, f := range e.Forms.List {
		if strings.HasPrefix(key, f.Prefix) && (best < 0 || len(f.Prefix) > len(e.Forms.List[best].Prefix)) {
			best = i
		}
	}
	if best < 0 {
		return TimeEncoding{}, false
	}
	return e.Forms.List[best].Enc, true
}

// IsID reports a time-ordered id: its keys are not one per instant.
func (e TimeEncoding) IsID() bool {
	return e.Kind == TimeULID || e.Kind == TimeUUIDv7 || e.Kind == TimeKSUID || e.Kind == TimeSnowflake || e.Kind == TimeObjectID
}

// textual reports an encoding whose time is written as text inside the
// key (a layout or an id), perhaps among other text.
func (e TimeEncoding) textual() bool { return e.Kind == TimeText || e.IsID() || e.Width > 0 }

// isEpoch reports a count since 1970, as a number or as digits in text.
func (e TimeEncoding) isEpoch() bool {
	return e.Kind == EpochSeconds || e.Kind == EpochMillis || e.Kind == EpochMicros || e.Kind == EpochNanos
}

// NeedsPrefix reports keys whose time follows a prefix that varies: a
// range is one Query per prefix, merged (amsg#…, JFK#…).
func (e TimeEncoding) NeedsPrefix() bool {
	return e.textual() && e.Place == TimeAfter && e.Lead == ""
}

// FitsNumber reports an encoding a number key can hold.
func (e TimeEncoding) FitsNumber() bool {
	return e.isEpoch() && e.Width == 0 || (e.Kind == TimeText || e.Kind == TimeSnowflake) && e.Number
}

// ForKey is the encoding for a key of that type (number or not): a layout
// of digits only on a number key reads the number as that layout
// (yyyyMMdd: 20150131 is a date); an error when the key cannot hold it.
func (e TimeEncoding) ForKey(number bool) (TimeEncoding, error) {
	if number && e.Place == TimeWhole && e.Lead == "" && (e.Kind == TimeSnowflake || e.Kind == TimeText && digitsOnly(e.Encode(time.Date(2018, 8, 29, 12, 0, 0, 0, time.UTC)))) {
		e.Number = true
	}
	if !number {
		e.Number = false
		e = e.inText()
	} else {
		e.anywhere = false
	}
	if e.FitsNumber() != number {
		if number {
			return e, fmt.Errorf("%s is text, and this key holds numbers: give epoch-s, epoch-ms, epoch-us or a layout of digits only, such as yyyyMMdd", e.Name())
		}
		return e, fmt.Errorf("%s is a number form, and this key holds text: give a layout, such as yyyy-MM-dd'T'HH:mm:ss", e.Name())
	}
	return e, nil
}

func digitsOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// Name describes the encoding for people: "epoch seconds", "prefix#2006-01-02T15:04:05Z07:00", "prefix#ULID#…".
func (e TimeEncoding) Name() string {
	if e.Forms != nil {
		names := make([]string, 0, len(e.Forms.List))
		for _, f := range e.Forms.List {
			names = append(names, f.Prefix+"{"+strings.TrimPrefix(f.Enc.Name(), "prefix"+f.Enc.Sep)+"}")
		}
		return "a form a prefix: " + strings.Join(names, ", ")
	}
	var s string
	switch e.Kind {
	case EpochSeconds, EpochMillis, EpochMicros, EpochNanos:
		s = epochNames[e.Kind]
		if e.Width == 0 {
			return s
		}
		if e.Place == TimeWhole && !e.Rest {
			return s + " (as text)"
		}
	case TimeText:
		s = e.Layout
		if e.Number {
			return s + " (a number)"
		}
	case TimeULID:
		s = "ULID"
	case TimeUUIDv7:
		s = "UUIDv7"
	case TimeKSUID:
		s = "KSUID"
	case TimeSnowflake:
		s = "Snowflake"
		if e.Epoch == discordEpoch {
			s = "Discord Snowflake"
		}
	case TimeObjectID:
		s = "ObjectId"
	default:
		return "no time"
	}
	switch e.Place {
	case TimeAfter:
		lead := e.Begins + "prefix" + e.Sep
		if e.Lead != "" {
			lead = e.Lead
		}
		s = lead + s
		if e.Tail != "" {
			s += e.Tail + "…"
		}
	case TimeLeading:
		s += e.Sep + "…"
	}
	if e.Rest {
		s += "…"
	}
	return s
}

var epochNames = map[TimeKind]string{EpochSeconds: "epoch seconds", EpochMillis: "epoch milliseconds", EpochMicros: "epoch microseconds", EpochNanos: "epoch nanoseconds"}

// Unit is the smallest step the encoding writes.
func (e TimeEncoding) Unit() time.Duration {
	switch e.Kind {
	case EpochSeconds, TimeKSUID, TimeObjectID:
		return time.Second
	case EpochMillis, TimeULID, TimeUUIDv7, TimeSnowflake:
		return time.Millisecond
	case EpochMicros:
		return time.Microsecond
	case EpochNanos:
		return time.Nanosecond
	case TimeText:
		switch {
		case e.Layout == isoWeekLayout:
			return 7 * 24 * time.Hour
		case strings.Contains(e.Layout, fractionVaries):
			return time.Nanosecond
		case strings.Contains(e.Layout, ".000000"):
			return time.Microsecond
		case strings.Contains(e.Layout, ".000"):
			return time.Millisecond
		case strings.Contains(e.Layout, "05"):
			return time.Second
		case strings.Contains(e.Layout, "04"):
			return time.Minute
		case strings.Contains(e.Layout, "15"):
			return time.Hour
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
	"2006-01-02T15:04:05Z0700", // Java's Z: 2024-01-15T09:30:00.000+0000
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05",
	"2006-01-02:15:04:05",  // the blog's
	"2006-01-02t15:04:05z", // ElectroDB lower-cases its keys: 2020-09-01t00:00:00.000z
	"2006-01-02t15:04:05",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
	"2006-01-02T150405Z07:00", // compact: 2019-09-25T010101
	"2006-01-02T150405",
	"20060102T150405Z0700", // ISO 8601 basic: 20190925T010101Z
	"20060102T150405",
	"20060102150405",
	"20060102-150405",     // backup-20240115-093000
	"2006-01-02-15-04-05", // file and object names
	"200601021504",
	"2006-01-02T15", // an hour's bucket: H#2024-01-15T10
	"2006-01-02",
	"2006/01/02",
	"2006.01.02",
	"20060102",
	isoWeekLayout, // a week's rollup: WEEK#2024-W05
	"2006-01",
}

// isoWeekLayout writes an ISO 8601 week (2024-W05), which Go's layouts
// cannot: its time is the week's Monday, 00:00 (parseLayout).
const isoWeekLayout = "2006-Www"

// parseLayout reads s in layout, ISO weeks included.
func parseLayout(layout, s string) (time.Time, error) {
	if layout != isoWeekLayout {
		return time.ParseInLocation(layout, s, time.UTC)
	}
	bad := fmt.Errorf("%q is not an ISO week (2024-W05)", s)
	if len(s) != 8 || s[4] != '-' || s[5] != 'W' || !digitsOnly(s[:4]) || !digitsOnly(s[6:]) {
		return time.Time{}, bad
	}
	y, _ := strconv.Atoi(s[:4])
	w, _ := strconv.Atoi(s[6:])
	jan4 := time.Date(y, 1, 4, 0, 0, 0, 0, time.UTC)
	t := jan4.AddDate(0, 0, -((int(jan4.Weekday())+6)%7)+7*(w-1))
	if y < 1 || formatLayout(t, layout) != s {
		return time.Time{}, bad
	}
	return t, nil
}

// formatLayout writes t in layout, ISO weeks included.
func formatLayout(t time.Time, layout string) string {
	if layout != isoWeekLayout {
		return t.Format(layout)
	}
	y, w := t.ISOWeek()
	return fmt.Sprintf("%04d-W%02d", y, w)
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
	case a >= 3e16 && a < 7.3e18:
		return TimeEncoding{Kind: EpochNanos}, true
	}
	return TimeEncoding{}, false
}

// numberDates are the number keys read as dates: eight or fourteen digits
// of a date (and time) in the years 1900–2999, which epoch counts of
// seconds (3e7 and up) and milliseconds never reach at that length.
var numberDates = []string{"20060102", "20060102150405"}

// detectNumberKey reads a number key's text: a date written as digits
// (20150131), else a count since 1970 by its magnitude.
func detectNumberKey(k string) (TimeEncoding, bool) {
	for _, l := range numberDates {
		if len(k) != len(l) || !digitsOnly(k) || k[:2] != "19" && k[0] != '2' {
			continue
		}
		if t, err := time.Parse(l, k); err == nil && t.Format(l) == k {
			return TimeEncoding{Kind: TimeText, Layout: l, Zone: time.UTC, Number: true}, true
		}
	}
	f, err := strconv.ParseFloat(k, 64)
	if err != nil {
		return TimeEncoding{}, false
	}
	return DetectTimeNumber(f)
}

func isTimeSep(c byte) bool { return strings.IndexByte(timeSeps, c) >= 0 }

// A sample's time form is taken when the keys that read as time in it
// are at least two thirds of the sample and two or more (a header item
// beside two events), or the one key there is: a few events beside a
// metadata item are a partition's time, one key in three is not.
func quorum(agree, total int) bool {
	return total == 1 && agree == 1 || agree >= 2 && 3*agree >= 2*total
}

// TimeDetection is what a sample of sort keys says about their time form.
type TimeDetection struct {
	Enc     TimeEncoding
	OK      bool
	Total   int      // keys sampled
	Skipped []string // keys that are not a time in Enc's form
	// Offsets is set where the keys are written in more than one UTC
	// offset (2026-03-05T13:21:42-05:00 beside 2026-03-05T14:19:42+00:00):
	// their text order is then not their time order. Spread is how far
	// apart the offsets are: a key condition written in one of them holds
	// every key of a range only when widened by it (TimeRange.Widen).
	Offsets bool
	Spread  time.Duration
	// Timeless are the partition's prefixes (its keys' text up to the
	// time's separator, or a whole key without one) whose keys hold no
	// time at all, where the form was taken by the prefixes that hold
	// one (prefixQuorum) rather than by two thirds of the keys: a
	// customer's #PROFILE and ADDR#… beside its orders.
	Timeless []string
	// Ambiguous says, where the keys were read as epoch nanoseconds,
	// that Discord's ids would read as them too, and how to read them so
	// (ReadSnowflakes); "" where the reading is not in doubt.
	Ambiguous string
}

// Note says what was skipped, for people: "1 of 20 keys is not a time:
// Metadata" ("" when every key read as time). Keys are escaped.
func (d TimeDetection) Note() string { return d.note("keys") }

// SampledNote is Note where the keys were a sample of more (the newest
// and oldest of a partition): "1 of 40 keys sampled is not a time:
// Metadata", never read as all the partition holds.
func (d TimeDetection) SampledNote() string { return d.note("keys sampled") }

// TimelessNote names the prefixes whose keys hold no time, where the
// form was taken by the others (Timeless): "3 prefixes hold no time:
// #, ADDR#, v000_Privacy"; "" when there are none. Keys are escaped.
func (d TimeDetection) TimelessNote() string {
	if !d.OK || len(d.Timeless) == 0 {
		return ""
	}
	list := printableKeys(d.Timeless, 5)
	if len(d.Timeless) == 1 {
		return "1 prefix of the keys sampled holds no time: " + list
	}
	return fmt.Sprintf("%d prefixes of the keys sampled hold no time: %s", len(d.Timeless), list)
}

func (d TimeDetection) note(keys string) string {
	if !d.OK || len(d.Skipped) == 0 {
		return ""
	}
	list := printableKeys(d.Skipped, 3)
	if len(d.Skipped) == 1 {
		return fmt.Sprintf("1 of %d %s is not a time: %s", d.Total, keys, list)
	}
	return fmt.Sprintf("%d of %d %s are not times: %s", len(d.Skipped), d.Total, keys, list)
}

// printableKeys lists the first n keys, each as printableKey writes it,
// and "…" after them where there are more.
func printableKeys(keys []string, n int) string {
	shown := make([]string, 0, n+1)
	for _, k := range keys[:min(n, len(keys))] {
		shown = append(shown, printableKey(k))
	}
	if len(keys) > n {
		shown = append(shown, "…")
	}
	return strings.Join(shown, ", ")
}

// printableKey is a key as it can be printed: quoted and escaped when it
// holds anything but printable characters or spaces.
func printableKey(k string) string {
	if q := strconv.QuoteToGraphic(k); q[1:len(q)-1] != k || k == "" {
		return q
	}
	return k
}

// DetectTimeSample finds the one time form most of a sample holds (see
// quorum), and names the keys left out; numbers are given as their text.
// A time ending some keys and followed by a separator in the others
// (Event#{time} beside invoice#{time}#{id}: two dynamodb-onetable models
// in one partition) is one form, read with the separator after it,
// which reads both.
func DetectTimeSample(sample []string, number bool) TimeDetection {
	d := TimeDetection{Total: len(sample)}
	encs := make([]TimeEncoding, len(sample))
	oks := make([]bool, len(sample))
	for i, k := range sample {
		if number {
			encs[i], oks[i] = detectNumberKey(k)
		} else {
			encs[i], oks[i] = DetectTimeText(k)
		}
	}
	mergeFractions(encs, oks)
	same := func(f timeForm) timeForm { f.tail = ""; return f }
	best, tail, n := bestForm(encs, oks, same)
	if tail == nil { // times followed by two different separators
		same = func(f timeForm) timeForm { return f }
		best, tail, n = bestForm(encs, oks, same)
	}
	var timeless []string
	if len(sample) == 0 {
		return d
	}
	other := false // a key holding a time in a form other than best
	for i := range sample {
		other = other || oks[i] && same(formOf(encs[i])) != best
	}
	if other && !number {
		// Times in several forms, each prefix one (readings in epoch ms
		// beside alarms in epoch s): each prefix read in its own.
		if enc, skipped, timeless, ok := prefixForms(sample, encs, oks); ok {
			d.Enc, d.OK, d.Skipped, d.Timeless = enc, true, skipped, timeless
			return d
		}
	}
	if !quorum(n, len(sample)) {
		var ok bool
		if timeless, ok = prefixQuorum(sample, encs, oks, best, same, n); !ok {
			return d
		}
	}
	d.Timeless = timeless
	lo, hi := math.MaxInt, math.MinInt
	for i, k := range sample {
		if oks[i] && same(formOf(encs[i])) == best {
			if !d.OK {
				d.Enc, d.OK = encs[i], true
				d.Enc.Tail = *tail
			}
			if encs[i].Layout != d.Enc.Layout {
				d.Enc.Layout = zLayout(d.Enc.Layout) // +00:00 beside Z or -05:00: parses both
			}
			off := utcOffset(encs[i].Zone)
			lo, hi = min(lo, off), max(hi, off)
			continue
		}
		d.Skipped = append(d.Skipped, k)
	}
	if hi > lo {
		d.Offsets, d.Spread = true, time.Duration(hi-lo)*time.Second
	}
	return d
}

// prefixQuorum takes the form best, which too few of the keys hold for
// quorum, by the partition's prefixes instead (each key's text up to the
// first separator the time follows, or the whole key): in a single-table
// design one profile, a few addresses and many orders are one customer,
// and the share of keys that are times says only how many of each there
// are. Every prefix whose keys hold a time must hold best in two thirds
// of them (quorum within it), and no key may hold a time in another form
// (times in two forms are not left out unasked); the prefixes none of
// whose keys is a time at all are returned, to be named and left out.
// Only where the time follows a prefix (amsg#2018-…): there each prefix
// is its own range, read by its own Query.
func prefixQuorum(sample []string, encs []TimeEncoding, oks []bool, best timeForm, same func(timeForm) timeForm, n int) ([]string, bool) {
	if n < 2 || best.place != TimeAfter || best.number || best.sep == "" {
		return nil, false
	}
	type group struct{ timed, keys int }
	groups := map[string]*group{}
	var order []string
	for i, k := range sample {
		if oks[i] && same(formOf(encs[i])) != best {
			return nil, false // a time in another form
		}
		p := k
		if j := strings.Index(k, best.sep); j >= 0 {
			p = k[:j+len(best.sep)]
		}
		g := groups[p]
		if g == nil {
			g = &group{}
			groups[p] = g
			order = append(order, p)
		}
		g.keys++
		if oks[i] {
			g.timed++
		}
	}
	var timeless []string
	timed := 0
	for _, p := range order {
		switch g := groups[p]; {
		case g.timed == 0:
			timeless = append(timeless, p)
		case !quorum(g.timed, g.keys):
			return nil, false // a prefix of times and other keys: two thirds within it, as ever
		default:
			timed++
		}
	}
	if timed == 0 {
		return nil, false
	}
	slices.Sort(timeless)
	return timeless, true
}

// prefixForms reads a sample whose keys hold times in several forms by
// the text before each key's time: where every such prefix holds one
// form (in two thirds of its keys, the others no time), each is read in
// its own, the encoding's Forms. Keys under no time prefix are no time
// (skipped, their prefixes named as in prefixQuorum). Only where the time
// follows a prefix, after one separator, and in no UTC offsets or
// Snowflake ids: their ranges are read wider, or their width fitted,
// over the whole partition.
func prefixForms(sample []string, encs []TimeEncoding, oks []bool) (TimeEncoding, []string, []string, bool) {
	sep := ""
	keysOf := map[string][]string{}
	var prefixes []string
	for i, k := range sample {
		if !oks[i] {
			continue
		}
		e := encs[i]
		if e.Place != TimeAfter || e.Number || e.Lead != "" || e.Begins != "" || e.Kind == TimeSnowflake || e.Sep == "" || sep != "" && e.Sep != sep {
			return TimeEncoding{}, nil, nil, false
		}
		sep = e.Sep
		at, _, _, ok := e.Locate(k)
		if !ok || at == 0 {
			return TimeEncoding{}, nil, nil, false
		}
		p := k[:at]
		if keysOf[p] == nil {
			prefixes = append(prefixes, p)
		}
		keysOf[p] = append(keysOf[p], k)
	}
	if len(prefixes) < 2 {
		return TimeEncoding{}, nil, nil, false
	}
	slices.Sort(prefixes)
	var skipped []string
	var timeless []string
	for i, k := range sample {
		if oks[i] {
			continue
		}
		skipped = append(skipped, k)
		under := ""
		for _, p := range prefixes {
			if strings.HasPrefix(k, p) && len(p) > len(under) {
				under = p
			}
		}
		if under != "" {
			keysOf[under] = append(keysOf[under], k) // no time under a time prefix: two thirds within it
			continue
		}
		p := k
		if j := strings.Index(k, sep); j >= 0 {
			p = k[:j+len(sep)]
		}
		if !slices.Contains(timeless, p) {
			timeless = append(timeless, p)
		}
	}
	forms := &PrefixForms{}
	kinds := map[timeForm]bool{}
	for _, p := range prefixes {
		d := DetectTimeSample(keysOf[p], false)
		if !d.OK || d.Offsets || d.Enc.Forms != nil {
			return TimeEncoding{}, nil, nil, false
		}
		// Each prefix's keys are read only under it: the time after it.
		e := d.Enc
		for _, k := range keysOf[p] {
			if at, _, _, ok := e.Locate(k); ok && at != len(p) {
				return TimeEncoding{}, nil, nil, false
			}
		}
		kinds[formOf(e)] = true
		forms.List = append(forms.List, PrefixForm{Prefix: p, Enc: e})
	}
	if len(kinds) < 2 {
		return TimeEncoding{}, nil, nil, false // one form: prefixQuorum's
	}
	enc := forms.List[0].Enc
	enc.Forms = forms
	slices.Sort(timeless)
	return enc, skipped, timeless, true
}

// bestForm is the form most keys read as, as same groups forms, with
// how many keys hold it and the separator after the time in those that
// have one (nil where they have two different ones).
func bestForm(encs []TimeEncoding, oks []bool, same func(timeForm) timeForm) (best timeForm, tail *string, n int) {
	count := map[timeForm]int{}
	for i, e := range encs {
		if !oks[i] {
			continue
		}
		f := same(formOf(e))
		count[f]++
		if count[f] > count[best] {
			best = f
		}
	}
	tail = new(string)
	for i, e := range encs {
		if !oks[i] || same(formOf(e)) != best || e.Tail == "" {
			continue
		}
		if *tail != "" && *tail != e.Tail {
			return best, nil, count[best]
		}
		*tail = e.Tail
	}
	return best, tail, count[best]
}

// utcOffset is a fixed zone's offset in seconds (0 for none).
func utcOffset(z *time.Location) int {
	if z == nil {
		return 0
	}
	_, off := time.Date(2000, 1, 1, 0, 0, 0, 0, z).Zone()
	return off
}

// timeForm is what keys must share to be one time form (the zone aside:
// keys written in several zones are one form, though their text order is
// not their time order: TimeDetection.Offsets).
type timeForm struct {
	kind              TimeKind
	layout, sep, tail string
	place             TimePlace
	number, lower     bool
}

func formOf(e TimeEncoding) timeForm {
	return timeForm{e.Kind, zLayout(e.Layout), e.Sep, e.Tail, e.Place, e.Number, e.Lower}
}

// fractionVaries is Go's fraction of seconds of any length, none
// included: the layout of keys written as Go's RFC3339Nano and Java's
// Instant write them (2026-11-27T12:00:00Z, …:00.5Z, …:00.123456Z).
const fractionVaries = ".999999999"

// mergeFractions gives the times of a sample that differ only in how many
// digits of a second they write (none among them) one layout that reads
// them all, where two or more lengths are seen: they are one form, not
// several to choose between. A sample of one length keeps it, so its
// bounds are written as its keys are.
func mergeFractions(encs []TimeEncoding, oks []bool) {
	lengths := map[timeForm]map[string]bool{}
	for i, e := range encs {
		if w, ok := anyFraction(e); oks[i] && ok {
			f := formOf(w)
			if lengths[f] == nil {
				lengths[f] = map[string]bool{}
			}
			lengths[f][fractionOf(e.Layout)] = true
		}
	}
	for i, e := range encs {
		if w, ok := anyFraction(e); oks[i] && ok && len(lengths[formOf(w)]) > 1 {
			encs[i].Layout = w.Layout
		}
	}
}

// fractionOf is the fraction of a second a layout writes (".000"), "" for
// none: the zone is no part of it (+00:00 beside Z is one length).
func fractionOf(layout string) string {
	i := strings.Index(layout, "05.")
	if i < 0 {
		return ""
	}
	j := i + 3
	for j < len(layout) && (layout[j] == '0' || layout[j] == '9') {
		j++
	}
	return layout[i+2 : j]
}

// anyFraction is a text time's layout with its fraction of a second, of
// whatever length, written as one of any length (fractionVaries); false
// where the layout writes no seconds.
func anyFraction(e TimeEncoding) (TimeEncoding, bool) {
	if e.Kind != TimeText || e.Number {
		return e, false
	}
	l := e.Layout
	if f := fractionOf(l); f != "" {
		l = strings.Replace(l, "05"+f, "05", 1)
	}
	for _, sec := range []string{":05", "0405"} {
		if i := strings.Index(l, sec); i >= 0 {
			e.Layout = l[:i+len(sec)] + fractionVaries + l[i+len(sec):]
			return e, true
		}
	}
	return e, false
}

// zLayout is a layout with its numeric zone written as Z07:00 writes it:
// a key ending +00:00 (matchLayout keeps its layout -07:00, so that bounds
// are written as the keys are) is of one form with keys ending -05:00 or
// Z, not a key that "is not a time".
func zLayout(l string) string {
	return strings.Replace(strings.Replace(l, "-07:00", "Z07:00", 1), "-0700", "Z0700", 1)
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
		if e.isEpoch() && e.Width == 0 {
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
		if frac := fractionDigits(s); frac > 0 {
			switch {
			case strings.Contains(l, ":05"):
				layout = strings.Replace(l, ":05", ":05."+strings.Repeat("0", frac), 1)
			case strings.Contains(l, "0405"):
				layout = strings.Replace(l, "0405", "0405."+strings.Repeat("0", frac), 1)
			}
		}
		t, err := parseLayout(layout, s)
		if err != nil || formatLayout(t, layout) != s && !zoneEquivalent(t, layout, s) || digitsOnly(s) && (t.Year() < 1900 || t.Year() > 2200) {
			continue // digits alone are a time only within the years keys hold (447911123456 is a phone)
		}
		if t.Format(layout) != s {
			// +00:00 where Z07:00 would write Z: keep the numeric zone, so
			// bounds are written as the keys are.
			layout = strings.Replace(strings.Replace(layout, "Z07:00", "-07:00", 1), "Z0700", "-0700", 1)
		}
		zone := time.UTC
		if strings.Contains(layout, "Z07") && !strings.HasSuffix(s, "Z") {
			_, off := t.Zone()
			zone = time.FixedZone(t.Format("-07:00"), off)
		}
		return TimeEncoding{Kind: TimeText, Layout: layout, Zone: zone}, true
	}
	return TimeEncoding{}, false
}

// zoneEquivalent accepts +00:00 written where Format would write Z.
func zoneEquivalent(t time.Time, layout, s string) bool {
	for _, utc := range []string{"+00:00", "+0000"} {
		if strings.HasSuffix(s, utc) && strings.TrimSuffix(t.Format(layout), "Z") == strings.TrimSuffix(s, utc) {
			return true
		}
	}
	return false
}

func fractionDigits(s string) int {
	i := strings.IndexByte(s, '.')
	if i < 0 || i < 15 {
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
	if e.Forms != nil {
		f, ok := e.byPrefix(key)
		if !ok {
			return time.Time{}, false
		}
		return f.KeyTime(key)
	}
	switch {
	case e.isEpoch() && e.Width == 0:
		if n, err := strconv.ParseInt(key, 10, 64); err == nil { // exact, no float rounding
			return epochTime(n, e.Kind), true
		}
		if t, ok := decimalEpoch(key, e.Unit()); ok {
			return t, true
		}
		f, err := strconv.ParseFloat(key, 64)
		if err != nil {
			return time.Time{}, false
		}
		scale := map[TimeKind]float64{EpochSeconds: 1, EpochMillis: 1e3, EpochMicros: 1e6, EpochNanos: 1e9}[e.Kind]
		sec := f / scale
		// Whole seconds and the fraction apart: nanoseconds since 1970 in
		// an int64 end in 2262.
		if math.IsNaN(sec) || math.Abs(sec) > maxEpochSeconds {
			return time.Time{}, false
		}
		whole := math.Floor(sec)
		return time.Unix(int64(whole), int64((sec-whole)*1e9)).UTC(), true
	}
	_, _, t, ok := e.Locate(key)
	return t, ok
}

// parsePart reads the time part of a key.
func (e TimeEncoding) parsePart(s string) (time.Time, bool) {
	switch e.Kind {
	case TimeText:
		t, err := parseLayout(e.Layout, s)
		if err != nil {
			return time.Time{}, false
		}
		return t.UTC(), true
	case TimeULID:
		if !caseFits(s, e.Lower) {
			return time.Time{}, false // the other case sorts elsewhere: outside this range's bounds
		}
		return ulidTime(s)
	case TimeUUIDv7:
		if !caseFits(s, e.Lower) {
			return time.Time{}, false
		}
		return uuid7Time(s)
	case TimeKSUID:
		return ksuidTime(s)
	case TimeObjectID:
		if !caseFits(s, e.Lower) {
			return time.Time{}, false
		}
		return objectIDTime(s)
	case TimeSnowflake:
		if e.Width > 0 && len(s) != e.Width {
			return time.Time{}, false // another width sorts elsewhere: outside this range's bounds
		}
		return snowflakeTime(s, e.epochMillis())
	}
	if e.Width > 0 && len(s) == e.Width && digitsOnly(s) {
		n, err := strconv.ParseInt(s, 10, 64)
		return epochTime(n, e.Kind), err == nil
	}
	return time.Time{}, false
}

// Encode writes a time as this encoding writes it (the time part only;
// for ids, the smallest id of that instant).
func (e TimeEncoding) Encode(t time.Time) string {
	s := e.encode(t)
	if e.padded() && len(s) < e.Width && digitsOnly(s) {
		s = strings.Repeat("0", e.Width-len(s)) + s
	}
	return s
}

func (e TimeEncoding) encode(t time.Time) string {
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
	case EpochNanos:
		return exactEpoch(t, e)
	case TimeText:
		return formatLayout(t.In(e.zone()), e.Layout)
	case TimeULID:
		return ulidBound(t, false, e.Lower)
	case TimeUUIDv7:
		return uuid7Bound(t, false, !e.Lower)
	case TimeKSUID:
		return ksuidBound(t, false)
	case TimeSnowflake:
		return snowflakeBound(t, false, e.snowflakeDigits(), e.epochMillis())
	case TimeObjectID:
		return objectIDBound(t, false, e.Lower)
	}
	return ""
}

// EncodeLast is the largest time part of t's instant: the largest id of
// that millisecond or second; the time itself for other encodings.
func (e TimeEncoding) EncodeLast(t time.Time) string {
	switch e.Kind {
	case TimeULID:
		return ulidBound(t, true, e.Lower)
	case TimeUUIDv7:
		return uuid7Bound(t, true, !e.Lower)
	case TimeKSUID:
		return ksuidBound(t, true)
	case TimeSnowflake:
		return snowflakeBound(t, true, e.snowflakeDigits(), e.epochMillis())
	case TimeObjectID:
		return objectIDBound(t, true, e.Lower)
	}
	return e.Encode(t)
}

// span is the first and last instants the encoding writes: ids from
// their epoch to 9999 (KSUIDs to 2150), text and numbers the years
// 0001–9999.
func (e TimeEncoding) span() (first, last time.Time) {
	switch e.Kind {
	case TimeULID, TimeUUIDv7:
		return time.Unix(0, 0).UTC(), time.Date(9999, 12, 31, 23, 59, 59, 999000000, time.UTC)
	case TimeKSUID:
		return ksuidFirst, ksuidLast
	case TimeSnowflake:
		return snowflakeSpan(e.snowflakeDigits(), e.epochMillis())
	case TimeObjectID:
		return time.Unix(0, 0).UTC(), objectIDLast
	case EpochSeconds, EpochMillis, EpochMicros, EpochNanos:
		if e.padded() { // zeros before the count: from 1970 to the count's widest
			w := big.NewInt(10)
			w.Exp(w, big.NewInt(int64(epochWidth(e.Kind))), nil)
			return epochTime(0, e.Kind), epochTime(w.Int64()-1, e.Kind)
		}
		if e.Width > 0 { // as many digits as the keys write: 2001–2286 for seconds
			lo := big.NewInt(10)
			lo.Exp(lo, big.NewInt(int64(e.Width-1)), nil)
			hi := new(big.Int).Sub(new(big.Int).Mul(lo, big.NewInt(10)), big.NewInt(1))
			if !hi.IsInt64() {
				hi.SetInt64(math.MaxInt64)
			}
			return epochTime(lo.Int64(), e.Kind), epochTime(hi.Int64(), e.Kind)
		}
	case TimeText:
		// The years 0001–9999 as the keys' own zone writes them: past
		// them a key would need a fifth digit (10000-01-01T01:59:59+02:00)
		// and sort before the rest.
		z := e.zone()
		if digitsOnly(e.Layout) { // digits alone are a time only in 1900–2200 (matchLayout)
			return time.Date(1900, 1, 1, 0, 0, 0, 0, z), time.Date(2200, 12, 31, 23, 59, 59, 999999999, z)
		}
		return time.Date(1, 1, 1, 0, 0, 0, 0, z), time.Date(9999, 12, 31, 23, 59, 59, 999999999, z)
	}
	return MinInstant, MaxInstant
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
