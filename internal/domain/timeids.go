package domain

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Time-ordered ids encode their creation instant in their leading bits and
// sort by it, so a time range is a key range: from the smallest id of the
// first instant to the largest of the last. Each codec reads the instant
// of an id and writes those two extremes, in the case the keys use.

const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// ulidTime reads a ULID: 26 Crockford base32 characters, the first 10 the
// milliseconds since 1970 (48 bits).
func ulidTime(s string) (time.Time, bool) {
	if len(s) != 26 || s[0] < '0' || s[0] > '7' || mixedCase(s) {
		return time.Time{}, false
	}
	var ms int64
	for i := 0; i < 26; i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		d := strings.IndexByte(crockford, c)
		if d < 0 {
			return time.Time{}, false
		}
		if i < 10 {
			ms = ms<<5 | int64(d)
		}
	}
	t := time.UnixMilli(ms).UTC()
	if t.After(MaxInstant) {
		return time.Time{}, false
	}
	return t, true
}

// caseFits reports an id written in the case given (digits fit both).
func caseFits(s string, lower bool) bool {
	if lower {
		return strings.IndexFunc(s, func(r rune) bool { return r >= 'A' && r <= 'Z' }) < 0
	}
	return strings.IndexFunc(s, func(r rune) bool { return r >= 'a' && r <= 'z' }) < 0
}

// mixedCase reports letters of both cases: an id is written in one.
func mixedCase(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r >= 'a' && r <= 'z' }) >= 0 &&
		strings.IndexFunc(s, func(r rune) bool { return r >= 'A' && r <= 'Z' }) >= 0
}

// ulidBound is the smallest (high false) or largest id of t's millisecond.
func ulidBound(t time.Time, high, lower bool) string {
	ms := max(t.UnixMilli(), 0)
	b := make([]byte, 26)
	for i := 9; i >= 0; i-- {
		b[i] = crockford[ms&31]
		ms >>= 5
	}
	fill := byte('0')
	if high {
		fill = 'Z'
	}
	for i := 10; i < 26; i++ {
		b[i] = fill
	}
	if lower {
		return strings.ToLower(string(b))
	}
	return string(b)
}

// uuid7Time reads a UUID version 7: 8-4-4-4-12 hex digits, the first 12
// the milliseconds since 1970, then version 7 and variant 10xx.
func uuid7Time(s string) (time.Time, bool) {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' || s[14] != '7' {
		return time.Time{}, false
	}
	upper, lower := false, false
	var ms int64
	n := 0
	for i := 0; i < 36; i++ {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			continue
		}
		c := s[i]
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d, lower = c-'a'+10, true
		case c >= 'A' && c <= 'F':
			d, upper = c-'A'+10, true
		default:
			return time.Time{}, false
		}
		if n < 12 {
			ms = ms<<4 | int64(d)
		}
		if i == 19 && (d < 8 || d > 11) {
			return time.Time{}, false // the variant: 10xx
		}
		n++
	}
	if upper && lower {
		return time.Time{}, false
	}
	t := time.UnixMilli(ms).UTC()
	if t.After(MaxInstant) {
		return time.Time{}, false
	}
	return t, true
}

func uuid7Bound(t time.Time, high, upper bool) string {
	ms := max(t.UnixMilli(), 0)
	const hex = "0123456789abcdef"
	b := make([]byte, 12)
	for i := 11; i >= 0; i-- {
		b[i] = hex[ms&15]
		ms >>= 4
	}
	s := string(b[:8]) + "-" + string(b[8:]) + "-7000-8000-000000000000"
	if high {
		s = string(b[:8]) + "-" + string(b[8:]) + "-7fff-bfff-ffffffffffff"
	}
	if upper {
		return strings.ToUpper(s)
	}
	return s
}

// KSUIDs count seconds from 2014-05-13T16:53:20Z in their first 4 bytes,
// then 16 random bytes, written as 27 base62 digits (0-9A-Za-z, which
// sort in byte order).
const (
	base62     = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	ksuidEpoch = 1400000000
)

var (
	ksuidMax   = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 160), big.NewInt(1))
	ksuidFirst = time.Unix(ksuidEpoch, 0).UTC()
)

func ksuidTime(s string) (time.Time, bool) {
	if len(s) != 27 {
		return time.Time{}, false
	}
	v := new(big.Int)
	b62 := big.NewInt(62)
	for i := 0; i < 27; i++ {
		d := strings.IndexByte(base62, s[i])
		if d < 0 {
			return time.Time{}, false
		}
		v.Mul(v, b62).Add(v, big.NewInt(int64(d)))
	}
	if v.Cmp(ksuidMax) > 0 {
		return time.Time{}, false
	}
	sec := v.Rsh(v, 128).Int64()
	return time.Unix(sec+ksuidEpoch, 0).UTC(), true
}

func ksuidBound(t time.Time, high bool) string {
	sec := min(max(t.Unix()-ksuidEpoch, 0), 1<<32-1)
	v := new(big.Int).Lsh(big.NewInt(sec), 128)
	if high {
		v.Or(v, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1)))
	}
	b := make([]byte, 27)
	b62 := big.NewInt(62)
	m := new(big.Int)
	for i := 26; i >= 0; i-- {
		v.DivMod(v, b62, m)
		b[i] = base62[m.Int64()]
	}
	return string(b)
}

// ksuidLast is the last second a KSUID can write.
var ksuidLast = time.Unix(ksuidEpoch+1<<32-1, 0).UTC()

// matchID reads an id as a time-ordered one, with the case it is written in.
func matchID(s string) (TimeEncoding, bool) {
	switch len(s) {
	case 26:
		if _, ok := ulidTime(s); ok {
			return TimeEncoding{Kind: TimeULID, Lower: strings.ToLower(s) == s && strings.ToUpper(s) != s}, true
		}
	case 36:
		if _, ok := uuid7Time(s); ok {
			return TimeEncoding{Kind: TimeUUIDv7, Lower: strings.ToLower(s) == s}, true
		}
	case objectIDLen:
		// Hex digits, some of them letters (all digits is a number), and
		// a time since MongoDB's first release.
		if t, ok := objectIDTime(s); ok && !t.Before(objectIDFirst) && strings.IndexFunc(s, func(r rune) bool { return r > '9' }) >= 0 {
			return TimeEncoding{Kind: TimeObjectID, Lower: !strings.ContainsAny(s, "ABCDEF")}, true
		}
	case 27:
		// Any 27 letters and digits decode as a KSUID: one that is all
		// letters or all digits is a word or a number, not an id.
		if _, ok := ksuidTime(s); ok && strings.ContainsAny(s, "0123456789") && strings.IndexFunc(s, func(r rune) bool { return r > '9' }) >= 0 {
			return TimeEncoding{Kind: TimeKSUID}, true
		}
	}
	return TimeEncoding{}, false
}

// Snowflake ids (Twitter's, and the many ids made after them) are 64-bit
// numbers written in decimal: the milliseconds since
// 2010-11-04T01:42:54.657Z in the top 41 bits, then a worker and a
// sequence. Keys of one width sort as their numbers: 19 digits from
// mid-2018 on, 18 before.
const snowflakeEpoch = 1288834974657

// discordEpoch is Discord's Snowflake epoch, 2015-01-01T00:00:00Z (its
// ids are Twitter's layout from another start): read as Twitter's, a
// message of 2026 would stand in 2022, and as nanoseconds in 2016.
const discordEpoch = 1420070400000

// epochMillis is the start of a Snowflake id's milliseconds: Twitter's
// where the encoding names none.
func (e TimeEncoding) epochMillis() int64 {
	if e.Epoch != 0 {
		return e.Epoch
	}
	return snowflakeEpoch
}

// snowflakeWidth is the width bounds are written in where none is known.
const snowflakeWidth = 19

// snowflakeDigits is the width of the ids a range's bounds are kept to:
// none (-1) on a number key, whose ids of 18 and 19 digits sort as
// numbers, in one key condition.
func (e TimeEncoding) snowflakeDigits() int {
	if e.Number {
		return -1
	}
	return e.Width
}

func snowflakeTime(s string, epoch int64) (time.Time, bool) {
	if len(s) < 17 || len(s) > 19 || !digitsOnly(s) {
		return time.Time{}, false
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	return time.UnixMilli(v>>22 + epoch).UTC(), true
}

// snowflakeBound is the smallest (high false) or largest id of t's
// millisecond, kept to the ids of width digits.
func snowflakeBound(t time.Time, high bool, width int, epoch int64) string {
	if width == 0 {
		width = snowflakeWidth
	}
	lo, hi := snowflakeWidths(width)
	ms := min(max(t.UnixMilli()-epoch, 0), 1<<41-1)
	v := ms << 22
	if high {
		v |= 1<<22 - 1
	}
	return strconv.FormatInt(min(max(v, lo), hi), 10)
}

// snowflakeWidths are the smallest and largest ids of width digits.
func snowflakeWidths(width int) (lo, hi int64) {
	if width < 0 {
		return 0, math.MaxInt64
	}
	lo = 1
	for i := 1; i < width; i++ {
		lo *= 10
	}
	if width >= 19 {
		return lo, math.MaxInt64
	}
	return lo, lo*10 - 1
}

// snowflakeSpan is the first and last instants ids of width digits write.
func snowflakeSpan(width int, epoch int64) (first, last time.Time) {
	if width == 0 {
		width = snowflakeWidth
	}
	lo, hi := snowflakeWidths(width)
	first, _ = snowflakeTime(strconv.FormatInt(lo, 10), epoch)
	last, _ = snowflakeTime(strconv.FormatInt(hi, 10), epoch)
	return first, last
}

// ReadSnowflakes reads again, as Snowflake ids, a sample whose 19 digits
// were taken for epoch nanoseconds that put its newest key more than a
// day past now: both are 19 digits, and Twitter's ids made after May
// 2024 read as nanoseconds in the future (POST#2126363036289712650 as
// 2037), in text or as a number key (a tweet's id as its Number sort
// key). A sample it leaves as nanoseconds that X's or Discord's ids would
// read as well is told so in Ambiguous (idsNote). Other samples are
// returned as they are.
func ReadSnowflakes(d TimeDetection, keys []string, now time.Time) TimeDetection {
	number := d.Enc.Width == 0 && d.Enc.Place == TimeWhole
	if !d.OK || d.Enc.Kind != EpochNanos || d.Enc.Width != 19 && !number {
		return d
	}
	sf := d.Enc
	sf.Kind, sf.Number = TimeSnowflake, number
	if snowflakesOnly(d.Enc, sf, keys, now) {
		d.Enc = sf
		return d
	}
	d.Ambiguous = idsNote(d.Enc, sf, keys, now)
	return d
}

// snowflakesOnly reports whether keys read as nanoseconds put one more
// than a day past now while, read as the ids sf, none stands there.
func snowflakesOnly(ns, sf TimeEncoding, keys []string, now time.Time) bool {
	future, read := false, 0
	for _, k := range keys {
		t, ok := ns.KeyTime(k)
		if !ok {
			continue
		}
		if id, ok := sf.KeyTime(k); !ok || id.After(now.Add(24*time.Hour)) {
			return false
		}
		future = future || t.After(now.Add(24*time.Hour))
		read++
	}
	return future && read > 0
}

// idsNote says that keys read as nanoseconds read as X's (Twitter's) or
// Discord's ids too, where every one of them, so read, stands up to now:
// the same 19 digits, with nothing in them to tell. X's ids of November
// 2020 to May 2024 read as nanoseconds of 2012–2026 (a tweet of 2021-06
// as 2014-05, of 2018 as 2002), and Discord's made since mid-2022 as
// 2001–2019 (a message of 2026 in 2016); genuine nanoseconds up to now
// read as X's ids of up to May 2024, so they are told of that reading
// too, and of Discord's only where, read as its ids, they stand up to
// now (nanoseconds of 2020 on read as Discord's ids past now). The X
// reading was named only for nanoseconds before 2012, and tweets of
// 2021–2024 came back with the hint naming Discord alone, or none.
// "" where the reading is not in doubt.
func idsNote(ns, sf TimeEncoding, keys []string, now time.Time) string {
	discord := sf
	discord.Epoch = discordEpoch
	upToNow := func(_, id time.Time) bool { return !id.After(now.Add(24 * time.Hour)) }
	nsMonths, dc, dcOK := idSpan(ns, discord, keys, upToNow)
	nsTw, tw, twOK := idSpan(ns, sf, keys, upToNow)
	if !dcOK && !twOK {
		return ""
	}
	if !dcOK {
		nsMonths = nsTw
	}
	note := "read as epoch nanoseconds (" + nsMonths + ")"
	if twOK {
		note += fmt.Sprintf("; if these are X (Twitter) ids (%s), use --time-format snowflake", tw)
	}
	if dcOK {
		note += fmt.Sprintf("; if these are Discord ids (%s), use --time-format discord", dc)
	}
	return note
}

// idSpan reads keys as nanoseconds (ns) and as ids (id): the months each
// reading spans, where every key read as nanoseconds reads as an id and
// keep takes both times; ok is false otherwise, or where no key is read.
func idSpan(ns, id TimeEncoding, keys []string, keep func(t, at time.Time) bool) (nsMonths, idMonths string, ok bool) {
	var tLo, tHi, iLo, iHi time.Time
	read := 0
	for _, k := range keys {
		t, ok := ns.KeyTime(k)
		if !ok {
			continue
		}
		at, ok := id.KeyTime(k)
		if !ok || !keep(t, at) {
			return "", "", false
		}
		if read == 0 || t.Before(tLo) {
			tLo, iLo = t, at
		}
		if read == 0 || t.After(tHi) {
			tHi, iHi = t, at
		}
		read++
	}
	return monthSpan(tLo, tHi), monthSpan(iLo, iHi), read > 0
}

// monthSpan is lo and hi to the month, once where they share it.
func monthSpan(lo, hi time.Time) string {
	a, b := lo.UTC().Format("2006-01"), hi.UTC().Format("2006-01")
	if a == b {
		return a
	}
	return a + "…" + b
}

// MongoDB's ObjectIds are 12 bytes written as 24 hex digits, the first 4
// bytes the seconds since 1970 (to 2106), then a random value and a
// counter. Written in one case they sort by their time.
const objectIDLen = 24

// objectIDFirst is the earliest ObjectId taken for one: MongoDB's first
// release (2009), so a 24-digit hex hash that begins with a small number
// is not read as a 1970s id.
var objectIDFirst = time.Date(2009, 2, 1, 0, 0, 0, 0, time.UTC)

func objectIDTime(s string) (time.Time, bool) {
	if len(s) != objectIDLen || mixedCase(s) {
		return time.Time{}, false
	}
	for i := 0; i < len(s); i++ {
		if !isHexDigit(s[i]) {
			return time.Time{}, false
		}
	}
	sec, err := strconv.ParseUint(s[:8], 16, 32)
	if err != nil {
		return time.Time{}, false
	}
	return time.Unix(int64(sec), 0).UTC(), true
}

func isHexDigit(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// objectIDBound is the smallest (high false) or largest id of t's second.
func objectIDBound(t time.Time, high, lower bool) string {
	sec := min(max(t.Unix(), 0), 1<<32-1)
	s := fmt.Sprintf("%08x", sec) + strings.Repeat("0", 16)
	if high {
		s = fmt.Sprintf("%08x", sec) + strings.Repeat("f", 16)
	}
	if !lower {
		return strings.ToUpper(s)
	}
	return s
}

// objectIDLast is the last second an ObjectId can write.
var objectIDLast = time.Unix(1<<32-1, 0).UTC()

// SnowflakeWidthsError is a range holding Snowflake ids of two widths,
// which sort apart as text: Narrow digits until Meet, Wide after.
type SnowflakeWidthsError struct {
	Narrow, Wide int
	Meet         time.Time
}

func (e SnowflakeWidthsError) Error() string {
	return fmt.Sprintf("the keys are Snowflake ids of %d and %d digits, which sort apart as text (%d digits until %s, %d after), and one key condition reads one width; this range holds both",
		e.Narrow, e.Wide, e.Narrow, e.Meet.Format(time.RFC3339), e.Wide)
}

// FitSnowflakes writes the bounds of Snowflake ids (--time-format
// snowflake, which names no width) as wide as the keys write them: ids
// made before mid-2018 have 18 digits, later ones 19, and bounds of 19
// digits hold no 18-digit key. As text the widths sort apart (POST#9…
// after POST#1…), so one key condition reads one width: keys of one width
// give it; keys of several, the one whose ids the range can hold, or an
// error naming where the widths meet where the range holds more than one.
// mixed says the keys have other widths, which the condition's text can
// hold (POST#1080… is between POST#100… and POST#594…): the reader leaves
// them out.
func (e TimeEncoding) FitSnowflakes(keys []string, r TimeRange) (fit TimeEncoding, mixed bool, err error) {
	if e.Kind != TimeSnowflake || e.Width != 0 || e.Number {
		return e, false, nil
	}
	seen := map[int]bool{}
	var widths []int
	for _, k := range keys {
		if i, j, _, ok := e.Locate(k); ok && !seen[j-i] {
			seen[j-i] = true
			widths = append(widths, j-i)
		}
	}
	slices.Sort(widths)
	lo, hi := MinInstant, MaxInstant
	switch r.Op {
	case TimeBetween:
		lo, hi = r.From, r.To
	case TimeLt:
		hi = r.From.Add(-time.Nanosecond)
	case TimeLe:
		hi = r.From
	case TimeGt:
		lo = r.From.Add(time.Nanosecond)
	case TimeGe:
		lo = r.From
	}
	var held []int
	for _, w := range widths {
		if first, last := snowflakeSpan(w, e.epochMillis()); !first.After(hi) && !last.Before(lo) {
			held = append(held, w)
		}
	}
	switch {
	case len(held) == 1:
		e.Width = held[0]
	case len(held) > 1:
		_, end := snowflakeSpan(held[0], e.epochMillis())
		return e, true, SnowflakeWidthsError{Narrow: held[0], Wide: held[len(held)-1], Meet: end}
	case len(widths) > 0:
		e.Width = widths[len(widths)-1] // the range holds none: said by the bounds
	}
	return e, len(widths) > 1, nil
}
