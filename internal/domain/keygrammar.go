package domain

import (
	"math/big"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// One grammar reads the time in a key wherever it stands: a key is
// separators and parts, and a time part is the longest text at a place
// (the key's start, or just after a separator) that reads as a time in
// a form people write — ISO 8601 extended or basic, with or without zone
// and fraction, a date, yyyyMMdd, 2006-01-02:15:04:05, epoch seconds to
// nanoseconds written as digits, a ULID, KSUID or UUIDv7 — followed by
// the end of the key, a separator, or any other text (-D, -1).

// timePart is a time found at a place in a key: its form and its length.
type timePart struct {
	enc TimeEncoding
	n   int
}

// layoutLengths are the lengths a text time part can have, longest
// first: every layout detection knows, in UTC and at an offset, with a
// fraction of one to nine digits where it writes seconds. Worked out when
// a key is first read for a time, not at start-up.
var layoutLengths = sync.OnceValue(func() []int {
	ref := time.Date(2018, 8, 29, 12, 0, 0, 0, time.UTC)
	zoned := ref.In(time.FixedZone("", 2*3600))
	seen := map[int]bool{}
	for _, l := range textLayouts {
		for _, t := range []time.Time{ref, zoned} {
			n := len(t.Format(l))
			seen[n] = true
			if strings.Contains(l, "05") {
				for f := 1; f <= 9; f++ {
					seen[n+1+f] = true
				}
			}
		}
	}
	var out []int
	for n := range seen {
		out = append(out, n)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(out)))
	return out
})

// timeAt finds the longest time part s begins with, in any form.
func timeAt(s string) (timePart, bool) {
	if s == "" {
		return timePart{}, false
	}
	if p, ok := idAt(s); ok {
		return p, true
	}
	if s[0] < '0' || s[0] > '9' {
		return timePart{}, false
	}
	if p, ok := layoutAt(s); ok {
		return p, true
	}
	return epochDigitsAt(s)
}

// layoutAt is the longest layout time s begins with that is not cut in
// the middle of a number.
func layoutAt(s string) (timePart, bool) {
	if len(s) < 4 || !digitsOnly(s[:4]) {
		return timePart{}, false // every layout begins with the year
	}
	for _, n := range layoutLengths() {
		if n > len(s) || n < len(s) && isDigit(s[n]) {
			continue
		}
		if e, ok := matchLayout(s[:n]); ok {
			return timePart{e, n}, true
		}
	}
	return timePart{}, false
}

// epochDigits are the widths of epoch counts written as digits in text,
// and what each counts: 2001–2286 in any of them.
var epochDigits = map[int]TimeKind{10: EpochSeconds, 13: EpochMillis, 16: EpochMicros, 19: EpochNanos}

// epochDigitsAt reads a whole run of digits as an epoch count by its
// width, within the years people's keys hold (see DetectTimeNumber).
func epochDigitsAt(s string) (timePart, bool) {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	if n < len(s) && s[n] == '.' && (n+1 == len(s) || !isDigit(s[n+1])) {
		return timePart{}, false
	}
	v, err := strconv.ParseFloat(s[:n], 64)
	got, ok := DetectTimeNumber(v)
	if err != nil || !ok {
		return timePart{}, false
	}
	if kind, ok := epochDigits[n]; ok && got.Kind == kind {
		return timePart{TimeEncoding{Kind: kind, Width: n}, n}, true
	}
	// Zeros before the count, so that keys of one width sort as their
	// numbers (MSG#00001732700000123, LOG#%020d): its own digits say what
	// it counts, and bounds are written as wide.
	sig := len(strings.TrimLeft(s[:n], "0"))
	if kind, ok := epochDigits[sig]; ok && s[0] == '0' && got.Kind == kind {
		return timePart{TimeEncoding{Kind: kind, Width: n}, n}, true
	}
	return timePart{}, false
}

// epochWidth is how many digits a count of kind has in 2001–2286.
func epochWidth(kind TimeKind) int {
	for w, k := range epochDigits {
		if k == kind {
			return w
		}
	}
	return 0
}

// padded reports epoch digits in text written wider than their count,
// with zeros before it.
func (e TimeEncoding) padded() bool { return e.isEpoch() && e.Width > epochWidth(e.Kind) }

// idAt reads a time-ordered id s begins with, which no letter or digit
// follows.
func idAt(s string) (timePart, bool) {
	for _, n := range []int{36, 27, 26, objectIDLen} {
		if n > len(s) || n < len(s) && isAlnumByte(s[n]) {
			continue
		}
		if e, ok := matchID(s[:n]); ok {
			return timePart{e, n}, true
		}
	}
	return timePart{}, false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isPlaceSep reports a character a time part may follow: any ASCII
// character that is neither letter nor digit (event:2024-…, order-2024-…,
// click.2024-…, #ORDER#…), not only the separators a key's parts are
// joined with.
func isPlaceSep(c byte) bool  { return c < 0x80 && !isAlnumByte(c) }
func isAlnumByte(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// markLen is the length in bytes of the punctuation or symbol character
// outside ASCII that s begins with (§, →, ·), which a time part may follow
// as it may an ASCII one (evt§2024-…); 0 where s begins with none.
func markLen(s string) int {
	if s == "" || s[0] < 0x80 {
		return 0
	}
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError || !unicode.IsPunct(r) && !unicode.IsSymbol(r) {
		return 0
	}
	return n
}

// restAllowed reports text that may follow a time part directly: not a
// digit, letter or point that would make it part of a longer time.
func restAllowed(c byte) bool { return !isAlnumByte(c) && c != '.' && c != ':' }

// restAt reports text that may follow a time part of this form: for an
// epoch count also its decimal fraction (TS#1704067200.123), which no
// longer count of the same width can be.
func (e TimeEncoding) restAt(s string, i int) bool {
	return restAllowed(s[i]) || e.isEpoch() && e.Width > 0 && s[i] == '.' && i+1 < len(s) && isDigit(s[i+1])
}

// DetectTimeText finds the time in a text key, wherever it stands: the
// whole key; after a prefix ending with a separator, ending the key;
// first, before a separator; between two separators
// (JFK#2021-08-01T07:25:00#250#0, admission#1601700180000#R8); or with
// text right after it (P#512-777-7777#2021-07-07T16:36:42-D). Earlier
// places in that list win, but for a time-ordered id ending a key after
// an instant (invoice#2025-03-02T15:09:11.092Z#01JN…): the instant
// before it orders the keys, the id only their ties (after a day, the id
// is the finer time: 2025-03-02#01JN… reads as the id).
//
// A key that is not valid UTF-8 is no DynamoDB string, and holds no time:
// its bytes past U+10FFFF sort above every bound a range writes.
func DetectTimeText(key string) (TimeEncoding, bool) {
	if !utf8.ValidString(key) {
		return TimeEncoding{}, false
	}
	return detectWith(key, timeAt)
}

// detectWith places the time part that at finds in key (see DetectTimeText).
func detectWith(key string, at func(string) (timePart, bool)) (TimeEncoding, bool) {
	starts, seps := []int{0}, []int{0} // where each place starts, and its separator
	for i := 0; i < len(key)-1; i++ {
		if isPlaceSep(key[i]) {
			starts, seps = append(starts, i+1), append(seps, i)
		} else if n := markLen(key[i:]); n > 0 && i+n < len(key) {
			starts, seps = append(starts, i+n), append(seps, i)
			i += n - 1
		}
	}
	found := make([]timePart, len(starts))
	ok := make([]bool, len(starts))
	for j, i := range starts {
		found[j], ok[j] = at(key[i:])
	}
	end := func(j int) int { return starts[j] + found[j].n }
	place := func(j int, p TimePlace) TimeEncoding {
		e := found[j].enc
		e.Place = p
		if j > 0 {
			e.Place, e.Sep = TimeAfter, key[seps[j]:starts[j]]
		}
		return e
	}
	// A separator after the time, first or between two, before segment
	// before (len(starts): anywhere); instants only, where an id follows
	// (a day's key before one holds the day: the id is the finer time).
	leading := func(before int, instants bool) (TimeEncoding, bool) {
		for j := range starts[:before] {
			if ok[j] && isTimeSep(key[end(j)]) && !(instants && namesPeriods(found[j].enc)) {
				e := place(j, TimeLeading)
				if j == 0 {
					e.Sep = key[end(j) : end(j)+1]
				} else {
					e.Tail = key[end(j) : end(j)+1]
				}
				return e, true
			}
		}
		return TimeEncoding{}, false
	}
	// The time ending the key: the whole key, or its last segment first.
	if ok[0] && end(0) == len(key) {
		return place(0, TimeWhole), true
	}
	for j := len(starts) - 1; j > 0; j-- {
		if ok[j] && end(j) == len(key) {
			// An id ending the key after an instant (dynamodb-onetable's
			// invoice#${date}#${id} with a generated ulid, written when
			// the invoice was, not at its date) breaks ties: the instant
			// before it orders the keys, and what comes before the id is
			// no prefix the keys share.
			if found[j].enc.IsID() {
				if e, ok := leading(j, true); ok {
					return e, true
				}
			}
			return place(j, TimeAfter), true
		}
	}
	if e, ok := leading(len(starts), false); ok {
		return e, true
	}
	// Text right after the time.
	for j := range starts {
		if ok[j] && found[j].enc.restAt(key, end(j)) && !found[j].enc.IsID() {
			e := place(j, TimeWhole)
			e.Rest = true
			return e, true
		}
	}
	return TimeEncoding{}, false
}

// Locate finds the time in a text key: key[i:j] is the time part, which
// reads as t. Keys of a TimeAfter encoding are tried after each
// separator in turn where text may follow the time, so the prefix before
// it may hold any number of them (A#B#2021-08-01#x).
func (e TimeEncoding) Locate(key string) (i, j int, t time.Time, ok bool) {
	if e.Forms != nil {
		f, ok := e.byPrefix(key)
		if !ok {
			return 0, 0, time.Time{}, false
		}
		return f.Locate(key)
	}
	if !e.textual() {
		return 0, 0, time.Time{}, false
	}
	switch {
	case e.Lead != "":
		if !strings.HasPrefix(key, e.Lead) {
			return 0, 0, time.Time{}, false
		}
		return e.locateAt(key, len(e.Lead))
	case e.Place != TimeAfter:
		return e.locateAt(key, 0)
	case !strings.HasPrefix(key, e.Begins):
		return 0, 0, time.Time{}, false
	case e.Tail == "" && !e.Rest:
		if i = strings.LastIndex(key, e.Sep); i < len(e.Begins) {
			return 0, 0, time.Time{}, false
		}
		if i, j, t, ok = e.locateAt(key, i+len(e.Sep)); ok {
			return i, j, t, true
		}
		// The separator is also the time's own (event:2024-…T10:00:00Z):
		// the time starts after an earlier one.
	}
	for at := len(e.Begins); at < len(key); at++ {
		if strings.HasPrefix(key[at:], e.Sep) {
			if i, j, t, ok = e.locateAt(key, at+len(e.Sep)); ok {
				return i, j, t, true
			}
		}
	}
	return 0, 0, time.Time{}, false
}

// locateAt reads the time part starting at key[i:], ending where the
// encoding says: the key's end, its tail or leading separator, or, where
// text may follow, as long as its form writes it.
func (e TimeEncoding) locateAt(key string, i int) (int, int, time.Time, bool) {
	ends := []int{len(key)}
	switch {
	case e.Rest:
		ends = e.partLengths(key[i:])
		for k := range ends {
			ends[k] += i
		}
	case e.Place == TimeLeading:
		ends = []int{strings.Index(key, e.Sep)}
	case e.Tail != "":
		if k := strings.Index(key[i:], e.Tail); k >= 0 {
			ends = []int{i + k}
		}
	}
	for _, j := range ends {
		if j < i || j > len(key) || e.Rest && j < len(key) && !e.restAt(key, j) {
			continue
		}
		if t, ok := e.parsePart(key[i:j]); ok {
			return i, j, t, true
		}
	}
	return 0, 0, time.Time{}, false
}

// partAt is the longest time part of this very form s begins with.
func (e TimeEncoding) partAt(s string) (timePart, bool) {
	if p, ok := epochDigitsAt(s); ok && e.isEpoch() && e.Width > 0 && p.enc.Kind == e.Kind && p.enc.padded() {
		return p, true // the count written wider, zeros first
	}
	ends := e.partLengths(s)
	if e.Kind == TimeText {
		ends = append([]int{len(s)}, ends...)
		for i := 0; i < len(s); i++ {
			if isTimeSep(s[i]) {
				ends = append(ends, i)
			}
		}
		sort.Sort(sort.Reverse(sort.IntSlice(ends)))
	}
	for _, n := range ends {
		if n > len(s) || n == 0 {
			continue
		}
		if _, ok := e.parsePart(s[:n]); ok {
			p := e
			p.Place, p.Sep, p.Tail, p.Lead, p.Rest, p.Begins, p.anywhere = TimeWhole, "", "", "", false, "", false
			return timePart{p, n}, true
		}
	}
	return timePart{}, false
}

// partLengths are the lengths a time part of this encoding may have at
// the start of s, longest first.
func (e TimeEncoding) partLengths(s string) []int {
	switch {
	case e.Width > 0:
		return []int{e.Width}
	case e.Kind == TimeULID:
		return []int{26}
	case e.Kind == TimeKSUID:
		return []int{27}
	case e.Kind == TimeUUIDv7:
		return []int{36}
	case e.Kind == TimeSnowflake:
		return []int{19, 18}
	case e.Kind == TimeObjectID:
		return []int{objectIDLen}
	}
	var out []int
	for _, n := range layoutLengths() {
		if n <= len(s) {
			out = append(out, n)
		}
	}
	return out
}

// epochTime is n units of the kind since 1970.
func epochTime(n int64, k TimeKind) time.Time {
	switch k {
	case EpochSeconds:
		return time.Unix(n, 0).UTC()
	case EpochMillis:
		return time.UnixMilli(n).UTC()
	case EpochMicros:
		return time.UnixMicro(n).UTC()
	}
	return time.Unix(0, n).UTC()
}

// decimalEpoch reads a decimal count of units (1536019200.5) exactly, to
// the nanosecond, where a float would round it; false for other forms.
func decimalEpoch(key string, unit time.Duration) (time.Time, bool) {
	r, ok := new(big.Rat).SetString(key)
	if !ok || strings.ContainsAny(key, "eE/") {
		return time.Time{}, false
	}
	ns := r.Mul(r, new(big.Rat).SetInt64(int64(unit)))
	limit := new(big.Rat).SetInt64(maxEpochSeconds)
	limit.Mul(limit, big.NewRat(1e9, 1))
	if new(big.Rat).Abs(ns).Cmp(limit) > 0 {
		return time.Time{}, false
	}
	q := new(big.Int).Quo(ns.Num(), ns.Denom()) // toward zero
	sec, rem := new(big.Int).QuoRem(q, big.NewInt(1e9), new(big.Int))
	return time.Unix(sec.Int64(), rem.Int64()).UTC(), true
}

// clockAt is the length of a time of day with no date that s begins
// with: HH:MM, then seconds and a fraction after them (13:17:58.123),
// followed by no digit or colon; 0 when it begins with none.
func clockAt(s string) int {
	two := func(i, most int) bool {
		return i+2 <= len(s) && isDigit(s[i]) && isDigit(s[i+1]) && int(s[i]-'0')*10+int(s[i+1]-'0') <= most
	}
	if !two(0, 23) || len(s) < 5 || s[2] != ':' || !two(3, 59) {
		return 0
	}
	n := 5
	if n < len(s) && s[n] == ':' && two(n+1, 60) {
		n += 3
		if n+1 < len(s) && s[n] == '.' && isDigit(s[n+1]) {
			for n++; n < len(s) && isDigit(s[n]); n++ {
			}
		}
	}
	if n < len(s) && (isDigit(s[n]) || s[n] == ':') {
		return 0
	}
	return n
}

// TimeSpans are where the key grammar reads a time in a key: a time part
// in any form (timeAt) or a time of day with no date (clockAt), at the
// key's start or just after a character that is neither letter nor digit;
// [start, end) byte offsets, in order, never overlapping.
func TimeSpans(key string) [][2]int {
	var out [][2]int
	for i := 0; i < len(key); i++ {
		if i > 0 && isAlnumByte(key[i-1]) || !isDigit(key[i]) && !isAlnumByte(key[i]) {
			continue
		}
		n := clockAt(key[i:])
		if p, ok := timeAt(key[i:]); ok && p.n > n {
			n = p.n
		}
		if n > 0 {
			out = append(out, [2]int{i, i + n})
			i += n - 1
		}
	}
	return out
}
