package domain

import (
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// condHolds is DynamoDB's key condition on one sort key: strings compared
// by their UTF-8 bytes, numbers by value.
func condHolds(c SKCondition, v KeyValue) bool {
	cmp := func(a KeyValue) int {
		if v.Type == TypeN {
			x, _ := new(big.Float).SetString(v.Text)
			y, _ := new(big.Float).SetString(a.Text)
			return x.Cmp(y)
		}
		return strings.Compare(v.Text, a.Text)
	}
	switch c.Op {
	case SKEq:
		return cmp(c.A) == 0
	case SKLt:
		return cmp(c.A) < 0
	case SKLe:
		return cmp(c.A) <= 0
	case SKGt:
		return cmp(c.A) > 0
	case SKGe:
		return cmp(c.A) >= 0
	case SKBetween:
		return cmp(c.A) >= 0 && cmp(c.B) <= 0
	case SKBeginsWith:
		return strings.HasPrefix(v.Text, c.A.Text)
	}
	return true
}

// shape is a way applications write time into sort keys, with keys
// written at instants, other keys beside them, and the prefixes a range
// is read under.
type shape struct {
	name     string
	number   bool
	write    func(t time.Time, i int) string // the key of the i-th item at t
	prefixes []string                        // "" for none
	others   []string                        // keys that are not times
	detected string                          // the encoding's name
}

var shapeInstants = func() []time.Time {
	var out []time.Time
	base := time.Date(2021, 2, 27, 23, 59, 58, 0, time.UTC)
	for i := range 40 {
		out = append(out, base.Add(time.Duration(i*i)*17*time.Hour/10))
	}
	// The edges of March, to the second and the millisecond.
	out = append(out, time.Date(2021, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(2021, 3, 31, 23, 59, 59, 0, time.UTC),
		time.Date(2021, 3, 31, 23, 59, 59, 999000000, time.UTC), time.Date(2021, 4, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2021, 2, 28, 23, 59, 59, 999000000, time.UTC))
	return out
}()

func ulidAt(t time.Time, fill byte) string {
	s := ulidBound(t, false, false)
	return s[:10] + strings.Repeat(string(fill), 16)
}

var shapes = []shape{
	{name: "flights", write: func(t time.Time, i int) string {
		return []string{"JFK#", "LAX#"}[i%2] + t.Format("2006-01-02T15:04:05") + fmt.Sprintf("#%d#%d", 100+i, i%3)
	}, prefixes: []string{"JFK#", "LAX#"}, others: []string{"metadata", "JFK#", "JFK#notatime#1"}, detected: "prefix#2006-01-02T15:04:05#…"},
	{name: "complaints", write: func(t time.Time, i int) string {
		return "comm#" + t.Format("2006-01-02T15:04:05") + fmt.Sprintf("#comm%d", i)
	}, prefixes: []string{"comm#"}, others: []string{"metadata"}, detected: "prefix#2006-01-02T15:04:05#…"},
	{name: "electrodb", write: func(t time.Time, i int) string {
		return "$employee_1#datehired_" + t.Format("2006-01-02") + fmt.Sprintf("#title_%d", i)
	}, prefixes: []string{"$employee_1#datehired_"}, others: []string{"$office_1#name_x"}, detected: "prefix_2006-01-02#…"},
	{name: "photos by ULID", write: func(t time.Time, i int) string {
		return "PHOTO#" + ulidAt(t, "0123456789ABCDEFGHJKMNPQRSTVWXYZ"[i%32])
	}, prefixes: []string{"PHOTO#"}, others: []string{"PROFILE", "PHOTO#nope"}, detected: "prefix#ULID"},
	// dynamodb-onetable's invoice#${date}#${id}, its id a generated ULID
	// of when it was written: the date orders the keys, not the id.
	{name: "onetable ISO date then ULID", write: func(t time.Time, i int) string {
		return "invoice#" + t.Format("2006-01-02T15:04:05.000Z07:00") + "#" + ulidAt(time.Date(2026, 11, 27, 19, 54, 0, 0, time.UTC).Add(time.Duration(i)*time.Millisecond), "0Z"[i%2])
	}, prefixes: []string{"invoice#"}, others: []string{"account#", "user#u0@acme.com"}, detected: "prefix#2006-01-02T15:04:05.000Z07:00#…"},
	{name: "onetable epoch ms then ULID", write: func(t time.Time, i int) string {
		return "invoice#" + fmt.Sprint(t.UnixMilli()) + "#" + ulidAt(time.Date(2026, 11, 27, 19, 54, 0, 0, time.UTC), "0Z"[i%2])
	}, prefixes: []string{"invoice#"}, others: []string{"account#"}, detected: "prefix#epoch milliseconds#…"},
	{name: "ULID alone", write: func(t time.Time, i int) string {
		return ulidAt(t, "0Z"[i%2])
	}, others: []string{"metadata"}, detected: "ULID"},
	{name: "UUIDv7", write: func(t time.Time, i int) string {
		lo, hi := uuid7Bound(t, false, false), uuid7Bound(t, true, false)
		return []string{lo, hi}[i%2]
	}, others: []string{"zzz"}, detected: "UUIDv7"},
	{name: "KSUID after a prefix", write: func(t time.Time, i int) string {
		return "evt#" + []string{ksuidBound(t, false), ksuidBound(t, true)}[i%2]
	}, prefixes: []string{"evt#"}, detected: "prefix#KSUID"},
	{name: "yyyyMMdd numbers", number: true, write: func(t time.Time, _ int) string {
		return t.Format("20060102")
	}, others: []string{"7", "1E+125", "9223372036854775807"}, detected: "20060102 (a number)"},
	{name: "epoch seconds", number: true, write: func(t time.Time, _ int) string {
		return fmt.Sprint(t.Unix())
	}, others: []string{"1E+125", "9223372036854775807", "-1E+125"}, detected: "epoch seconds"},
	{name: "onetable: epoch ms inside text", write: func(t time.Time, i int) string {
		return fmt.Sprintf("admission#%d#R%d", t.UnixMilli(), i)
	}, prefixes: []string{"admission#"}, others: []string{"admission#", "patient#x"}, detected: "prefix#epoch milliseconds#…"},
	{name: "epoch seconds as text", write: func(t time.Time, _ int) string {
		return fmt.Sprint(t.Unix())
	}, others: []string{"META"}, detected: "epoch seconds (as text)"},
	// Counts written wider than they are, zeros first, so that they sort
	// as text (LOG#%020d): the width kept in the bounds.
	{name: "zero-padded epoch ms after a prefix", write: func(t time.Time, _ int) string {
		return fmt.Sprintf("LOG#%020d", t.UnixMilli())
	}, prefixes: []string{"LOG#"}, others: []string{"LOG#x"}, detected: "prefix#epoch milliseconds"},
	{name: "zero-padded epoch s, text after", write: func(t time.Time, i int) string {
		return fmt.Sprintf("MSG#%013d#%d", t.Unix(), i)
	}, prefixes: []string{"MSG#"}, others: []string{"PROFILE"}, detected: "prefix#epoch seconds#…"},
	{name: "epoch ns after a prefix", write: func(t time.Time, _ int) string {
		return fmt.Sprintf("evt#%d", t.UnixNano())
	}, prefixes: []string{"evt#"}, others: []string{"evt#x"}, detected: "prefix#epoch nanoseconds"},
	{name: "text right after the time", write: func(t time.Time, i int) string {
		return "P#512-777-7777#" + t.Format("2006-01-02T15:04:05") + []string{"-D", "-1", ""}[i%3]
	}, prefixes: []string{"P#512-777-7777#"}, others: []string{"P#512-777-7777#x"}, detected: "prefix#2006-01-02T15:04:05…"},
	{name: "compact ISO", write: func(t time.Time, _ int) string {
		return t.Format("2006-01-02T150405")
	}, others: []string{"profile"}, detected: "2006-01-02T150405"},
	{name: "ISO basic with text after", write: func(t time.Time, i int) string {
		return t.Format("20060102T150405Z") + fmt.Sprintf("#%d", i)
	}, others: []string{"Metadata"}, detected: "20060102T150405Z0700#…"},
	{name: "yyyyMMdd in text", write: func(t time.Time, i int) string {
		return "DAY#" + t.Format("20060102") + fmt.Sprintf("#%d", i)
	}, prefixes: []string{"DAY#"}, others: []string{"DAY#"}, detected: "prefix#20060102#…"},
	{name: "ISO time, text after", write: func(t time.Time, i int) string {
		return t.Format("2006-01-02T15:04:05Z") + fmt.Sprintf("#%d", i)
	}, others: []string{"Metadata"}, detected: "2006-01-02T15:04:05Z07:00#…"},
	// A time after any separator, not only # | / _ ~ (#36).
	{name: "after a colon", write: func(t time.Time, _ int) string {
		return "event:" + t.Format("2006-01-02T15:04:05Z")
	}, prefixes: []string{"event:"}, others: []string{"event:x"}, detected: "prefix:2006-01-02T15:04:05Z07:00"},
	{name: "after a dash", write: func(t time.Time, _ int) string {
		return "order-" + t.Format("2006-01-02T15:04:05Z")
	}, prefixes: []string{"order-"}, others: []string{"order-x"}, detected: "prefix-2006-01-02T15:04:05Z07:00"},
	{name: "after a point", write: func(t time.Time, _ int) string {
		return "click." + t.Format("2006-01-02T15:04:05Z")
	}, prefixes: []string{"click."}, others: []string{"click.x"}, detected: "prefix.2006-01-02T15:04:05Z07:00"},
	// After a mark outside ASCII, which was no place a time could follow.
	{name: "after a section sign", write: func(t time.Time, _ int) string {
		return "evt§" + t.Format(time.RFC3339)
	}, prefixes: []string{"evt§"}, others: []string{"evt§x"}, detected: "prefix§2006-01-02T15:04:05Z07:00"},
	{name: "after an arrow, text after", write: func(t time.Time, i int) string {
		return []string{"a→", "b→"}[i%2] + t.Format("2006-01-02") + fmt.Sprintf("→%d", i)
	}, prefixes: []string{"a→", "b→"}, others: []string{"a→x"}, detected: "prefix→2006-01-02…"},
	{name: "yyyy/MM/dd", write: func(t time.Time, i int) string {
		return "LOG#" + t.Format("2006/01/02") + fmt.Sprintf("#%04d", i)
	}, prefixes: []string{"LOG#"}, others: []string{"LOG#"}, detected: "prefix#2006/01/02#…"},
	{name: "an hour's bucket", write: func(t time.Time, _ int) string {
		return "H#" + t.Format("2006-01-02T15")
	}, prefixes: []string{"H#"}, others: []string{"META"}, detected: "prefix#2006-01-02T15"},
	{name: "yyyyMMddHHmm", write: func(t time.Time, i int) string {
		return "TXN#" + t.Format("200601021504") + fmt.Sprintf("#%d", i)
	}, prefixes: []string{"TXN#"}, others: []string{"TXN#447911123456#1"}, detected: "prefix#200601021504#…"},
	{name: "ISO week", write: func(t time.Time, i int) string {
		y, w := t.ISOWeek()
		return fmt.Sprintf("WEEK#%04d-W%02d#%d", y, w, i)
	}, prefixes: []string{"WEEK#"}, others: []string{"WEEK#", "WEEKS"}, detected: "prefix#2006-Www#…"},
	{name: "Java's zone without a colon", write: func(t time.Time, _ int) string {
		return "LOG#" + t.Format("2006-01-02T15:04:05.000") + "+0000"
	}, prefixes: []string{"LOG#"}, others: []string{"META"}, detected: "prefix#2006-01-02T15:04:05.000-0700"},
	{name: "an offset without a colon", write: func(t time.Time, _ int) string {
		return "EVT#" + t.In(time.FixedZone("", 5*3600+1800)).Format("2006-01-02T15:04:05-0700")
	}, prefixes: []string{"EVT#"}, others: []string{"META"}, detected: "prefix#2006-01-02T15:04:05Z0700"},
	{name: "date-time with a dash", write: func(t time.Time, _ int) string {
		return "backup-" + t.Format("20060102-150405")
	}, prefixes: []string{"backup-"}, others: []string{"backup-latest"}, detected: "prefix-20060102-150405"},
	{name: "dashes throughout", write: func(t time.Time, _ int) string {
		return t.Format("2006-01-02-15-04-05")
	}, others: []string{"index"}, detected: "2006-01-02-15-04-05"},
	{name: "epoch seconds with a fraction in text", write: func(t time.Time, i int) string {
		return fmt.Sprintf("TS#%d.%03d", t.Unix(), i%1000)
	}, prefixes: []string{"TS#"}, others: []string{"TS#x"}, detected: "prefix#epoch seconds…"},
	{name: "dotted date", write: func(t time.Time, i int) string {
		return "D#" + t.Format("2006.01.02") + fmt.Sprintf("#%d", i)
	}, prefixes: []string{"D#"}, others: []string{"D#"}, detected: "prefix#2006.01.02#…"},
}

// TestShapesRangeIsTimeFilter: for every shape, every range compiles (one
// condition per prefix) to exactly the keys whose decoded time is in it:
// a suffix on the boundary second, ids at the same millisecond, and keys
// that are not times are in or out as their time says.
func TestShapesRangeIsTimeFilter(t *testing.T) {
	ranges := []string{"2021-03", "2021-03-01", "between 2021-03-01 and 2021-03-31", "before 2021-03-01", "after 2021-03-31",
		"since 2021-03-31T23:59:59Z", "until 2021-03-01T00:00:00Z", "2021-03-31T23:59:59Z", "last 15d", "> 2021-02-28T23:59:59Z", "< 2021-04-01T00:00:00Z"}
	now := time.Date(2021, 4, 10, 0, 0, 0, 0, time.UTC)
	for _, sh := range shapes {
		var keys []string
		for i, at := range shapeInstants {
			keys = append(keys, sh.write(at, i))
		}
		d := DetectTimeSample(append(append([]string(nil), keys...), sh.others...), sh.number)
		if !d.OK || d.Enc.Name() != sh.detected {
			t.Errorf("%s: detected %v %q, want %q", sh.name, d.OK, d.Enc.Name(), sh.detected)
			continue
		}
		if len(d.Skipped) != len(sh.others) {
			t.Errorf("%s: skipped %q, want %q", sh.name, d.Skipped, sh.others)
		}
		enc := d.Enc
		all := append(append([]string(nil), keys...), sh.others...)
		for _, in := range ranges {
			r, err := ParseRange(in, now, time.UTC)
			if err != nil {
				t.Fatalf("%q: %v", in, err)
			}
			lo, hi := rangeSpan(r)
			want := map[string]bool{}
			for _, k := range keys {
				if tm, ok := enc.KeyTime(k); ok && keyInSpan(enc, tm, lo, hi) {
					want[k] = true
				}
			}
			// An open range on a number key is a comparison of numbers:
			// numbers that are not times are in it as their value says.
			if sh.number && r.Op != TimeBetween {
				ref, _ := strconv.ParseFloat(enc.Encode(r.From), 64)
				for _, k := range sh.others {
					v, _ := strconv.ParseFloat(k, 64)
					want[k] = (r.Op == TimeLt || r.Op == TimeLe) == (v < ref)
					if !want[k] {
						delete(want, k)
					}
				}
			}
			got := map[string]bool{}
			prefixes := sh.prefixes
			if len(prefixes) == 0 {
				prefixes = []string{""}
			}
			for _, p := range prefixes {
				c, err := CompileRange(r, enc, p)
				if errors.Is(err, ErrEmptyRange) && len(want) == 0 {
					continue // between two of the keys' steps: said, and none is wanted
				}
				if err != nil {
					t.Errorf("%s %q prefix %q: %v", sh.name, in, p, err)
					continue
				}
				for _, k := range all {
					v := S(k)
					if sh.number {
						v = N(k)
					}
					if condHolds(c, v) {
						got[k] = true
					}
				}
				// The request line's words read back as the same condition.
				if desc := DescribeCondition(c, enc, time.UTC); desc != "" {
					r2, err := ParseRange(desc, now, time.UTC)
					if err != nil {
						t.Errorf("%s: %q prints %q, which does not parse: %v", sh.name, in, desc, err)
						continue
					}
					if c2, err := CompileRange(r2, enc, p); err != nil || cond(c2) != cond(c) {
						t.Errorf("%s: %q is %s, printed %q, read back as %s (%v)", sh.name, in, cond(c), desc, cond(c2), err)
					}
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				var extra, missing []string
				for k := range got {
					if !want[k] {
						extra = append(extra, k)
					}
				}
				for k := range want {
					if !got[k] {
						missing = append(missing, k)
					}
				}
				t.Errorf("%s %q: extra %q, missing %q", sh.name, in, extra, missing)
			}
		}
	}
}

// rangeSpan is a range's first and last instants, open ends at the years'.
// keyInSpan reports whether a key at tm is in lo..hi: its instant, or
// where the keys name whole periods (days, hours, weeks, months), any of
// its period (15 minutes of today are in today's key).
func keyInSpan(enc TimeEncoding, tm, lo, hi time.Time) bool {
	if namesPeriods(enc) {
		end := ceil(tm.Add(time.Nanosecond), enc.Unit(), enc.Zone)
		return !tm.After(hi) && end.After(lo)
	}
	return !tm.Before(lo) && !tm.After(hi)
}

func rangeSpan(r TimeRange) (lo, hi time.Time) {
	switch r.Op {
	case TimeBetween:
		return r.From, r.To
	case TimeLt:
		return MinInstant, r.From.Add(-time.Nanosecond)
	case TimeLe:
		return MinInstant, r.From
	case TimeGt:
		return r.From.Add(time.Nanosecond), MaxInstant
	}
	return r.From, MaxInstant
}

// TestIDs decodes each id form and refuses what is not one.
func TestIDs(t *testing.T) {
	for _, tc := range []struct {
		key  string
		ok   bool
		name string
		at   string
	}{
		{"01ARZ3NDEKTSV4RRFFQ69G5FAV", true, "ULID", "2016-07-30T23:54:10.259Z"}, // the spec's example
		{"01arz3ndektsv4rrffq69g5fav", true, "ULID", "2016-07-30T23:54:10.259Z"},
		{"00000000000000000000000000", true, "ULID", "1970-01-01T00:00:00Z"},
		{"7ZZZZZZZZZZZZZZZZZZZZZZZZZ", false, "", ""},                                    // year 10889: not a time
		{"01ARZ3NDEKTSV4RRFFQ69G5FAU", false, "", ""},                                    // U is not Crockford
		{"01ARz3NDEKTSV4RRFFQ69G5FAV", false, "", ""},                                    // mixed case
		{"8ZZZZZZZZZZZZZZZZZZZZZZZZZ", false, "", ""},                                    // past 48 bits
		{"017f22e2-79b0-7cc3-98c4-dc0c0c07398f", true, "UUIDv7", "2022-02-22T19:22:22Z"}, // RFC 9562's example
		{"017F22E2-79B0-7CC3-98C4-DC0C0C07398F", true, "UUIDv7", "2022-02-22T19:22:22Z"},
		{"017f22e2-79b0-4cc3-98c4-dc0c0c07398f", false, "", ""},                // version 4
		{"017f22e2-79b0-7cc3-c8c4-dc0c0c07398f", false, "", ""},                // variant 110x
		{"0ujtsYcgvSTl8PAuAdqWYSMnLOv", true, "KSUID", "2017-10-10T04:00:47Z"}, // segmentio's example: 2017-10-09 21:00:47 PDT
		{"000000000000000000000000000", false, "", ""},                         // all digits: a number
		{"aWgEPTl1tmebfsQzFP4bxwgy80W", false, "", ""},                         // past 160 bits
		{"PHOTO#01ARZ3NDEKTSV4RRFFQ69G5FAV", true, "prefix#ULID", "2016-07-30T23:54:10.259Z"},
		{"invoice#2025-03-02T15:09:11.092Z#01ARZ3NDEKTSV4RRFFQ69G5FAV", true, "prefix#2006-01-02T15:04:05.000Z07:00#…", "2025-03-02T15:09:11.092Z"}, // the time before the id orders the keys
		{"2025-03-02#01ARZ3NDEKTSV4RRFFQ69G5FAV", true, "prefix#ULID", "2016-07-30T23:54:10.259Z"},                                                  // after a day, the id is the finer time
		{"abcdefghijklmnopqrstuvwxyzab", false, "", ""},
		{"507f1f77bcf86cd799439011", true, "ObjectId", "2012-10-17T21:13:27Z"}, // MongoDB's example
		{"507F1F77BCF86CD799439011", true, "ObjectId", "2012-10-17T21:13:27Z"},
		{"OID#507f1f77bcf86cd799439011", true, "prefix#ObjectId", "2012-10-17T21:13:27Z"},
		{"507f1f77bcf86cD799439011", false, "", ""}, // mixed case
		{"123456789012345678901234", false, "", ""}, // all digits: a number
		{"0a0b0c0d0e0f0a0b0c0d0e0f", false, "", ""}, // 1975: before MongoDB
		{"507f1f77bcf86cd79943901g", false, "", ""}, // g is not hex
	} {
		e, ok := DetectTimeText(tc.key)
		if ok != tc.ok || ok && e.Name() != tc.name {
			t.Errorf("%q: %v %q, want %v %q", tc.key, ok, e.Name(), tc.ok, tc.name)
			continue
		}
		if !ok {
			continue
		}
		tm, ok := e.KeyTime(tc.key)
		if !ok || tm.Format(time.RFC3339Nano) != tc.at {
			t.Errorf("%q: %v %s, want %s", tc.key, ok, tm.Format(time.RFC3339Nano), tc.at)
		}
	}
	// The KSUID epoch, and the smallest and largest ids of an instant.
	if tm, ok := ksuidTime(ksuidBound(ksuidFirst, false)); !ok || !tm.Equal(ksuidFirst) || ksuidBound(ksuidFirst, false) != strings.Repeat("0", 27) {
		t.Errorf("KSUID epoch: %v %v %q", tm, ok, ksuidBound(ksuidFirst, false))
	}
	if ksuidBound(ksuidLast, true) != "aWgEPTl1tmebfsQzFP4bxwgy80V" {
		t.Errorf("the largest KSUID: %q", ksuidBound(ksuidLast, true))
	}
	at := time.Date(2021, 3, 15, 12, 0, 0, 500000000, time.UTC)
	for _, e := range []TimeEncoding{{Kind: TimeULID}, {Kind: TimeULID, Lower: true}, {Kind: TimeUUIDv7, Lower: true}, {Kind: TimeUUIDv7}, {Kind: TimeKSUID}, {Kind: TimeSnowflake}, {Kind: TimeObjectID, Lower: true}, {Kind: TimeObjectID}} {
		lo, hi := e.Encode(at), e.EncodeLast(at)
		tl, okl := e.KeyTime(lo)
		th, okh := e.KeyTime(hi)
		want := at.Truncate(e.Unit())
		if !okl || !okh || !tl.Equal(want) || !th.Equal(want) || lo >= hi {
			t.Errorf("%s: %q %v %v, %q %v %v, want both at %v", e.Name(), lo, tl, okl, hi, th, okh, want)
		}
		if next := e.Encode(at.Add(e.Unit())); next <= hi {
			t.Errorf("%s: the next instant's first id %q is not after %q", e.Name(), next, hi)
		}
	}
}

// TestDetectSmallPartitions: a header item beside two events is a
// partition of time; one key beside one other is not enough.
func TestDetectSmallPartitions(t *testing.T) {
	for _, tc := range []struct {
		keys []string
		ok   bool
		note string
	}{
		{[]string{"comm#2023-04-30T12:00:24#comm1", "comm#2023-04-30T12:05:00#comm2", "metadata"}, true, "1 of 3 keys is not a time: metadata"},
		{[]string{"comm#2023-04-30T12:00:24#comm1"}, true, ""},
		{[]string{"comm#2023-04-30T12:00:24#comm1", "metadata"}, false, ""},
		{[]string{"2023-04-30", "2023-05-01", "a", "b"}, false, ""},
		{[]string{"2023-04-30", "2023-05-01", "2023-05-02", "a"}, true, "1 of 4 keys is not a time: a"},
	} {
		d := DetectTimeSample(tc.keys, false)
		if d.OK != tc.ok || d.Note() != tc.note {
			t.Errorf("%q: %v %q, want %v %q", tc.keys, d.OK, d.Note(), tc.ok, tc.note)
		}
	}
}

// TestTimeFormats: layouts as people write them, templates, and what
// each reads.
func TestTimeFormats(t *testing.T) {
	for _, tc := range []struct {
		format, key string
		number      bool
		at          string // "" when the key must not read
	}{
		{"yyyyMMdd", "20150131", true, "2015-01-31T00:00:00Z"},
		{"yyyyMMdd", "20150131", false, "2015-01-31T00:00:00Z"},
		{"20060102", "20150131", true, "2015-01-31T00:00:00Z"},
		{"yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", "2021-08-01T07:25:00.123Z", false, "2021-08-01T07:25:00.123Z"},
		{"epoch-ms", "1627802700000", true, "2021-08-01T07:25:00Z"},
		{"ulid", "01ARZ3NDEKTSV4RRFFQ69G5FAV", false, "2016-07-30T23:54:10.259Z"},
		{"prefix#ulid", "PHOTO#01ARZ3NDEKTSV4RRFFQ69G5FAV", false, "2016-07-30T23:54:10.259Z"},
		{"PHOTO#{ulid}", "PHOTO#01ARZ3NDEKTSV4RRFFQ69G5FAV", false, "2016-07-30T23:54:10.259Z"},
		{"PHOTO#{ulid}", "VIDEO#01ARZ3NDEKTSV4RRFFQ69G5FAV", false, ""},
		{"comm#{time:yyyy-MM-dd'T'HH:mm:ss}#{any}", "comm#2023-04-30T12:00:24#comm1", false, "2023-04-30T12:00:24Z"},
		{"{any}#{time:yyyy-MM-dd'T'HH:mm:ss}#{any}", "JFK#2021-08-01T07:25:00#250#0", false, "2021-08-01T07:25:00Z"},
		{"{time:yyyy-MM-dd}#{any}", "2021-08-01#x", false, "2021-08-01T00:00:00Z"},
		{"uuidv7", "017f22e2-79b0-7cc3-98c4-dc0c0c07398f", false, "2022-02-22T19:22:22Z"},
		{"ksuid", "0ujtsYcgvSTl8PAuAdqWYSMnLOv", false, "2017-10-10T04:00:47Z"},
		{"snowflake", "1541815603606036480", false, "2022-06-28T16:07:40.105Z"}, // a tweet's id
		{"POST#{snowflake}", "POST#1541815603606036480", false, "2022-06-28T16:07:40.105Z"},
		{"POST#{snowflake}", "POST#15418156036060364801", false, ""}, // 20 digits: past 64 bits
		{"objectid", "507f1f77bcf86cd799439011", false, "2012-10-17T21:13:27Z"},
		{"OID#{objectid}", "OID#507f1f77bcf86cd799439011", false, "2012-10-17T21:13:27Z"},
	} {
		e, err := ParseTimeFormat(tc.format)
		if err != nil {
			t.Errorf("%q: %v", tc.format, err)
			continue
		}
		if e, err = e.ForKey(tc.number); err != nil {
			t.Errorf("%q on a number key %v: %v", tc.format, tc.number, err)
			continue
		}
		tm, ok := e.KeyTime(tc.key)
		if tc.at == "" && ok || tc.at != "" && (!ok || tm.Format(time.RFC3339Nano) != tc.at) {
			t.Errorf("%q reads %q as %v %v, want %q", tc.format, tc.key, ok, tm, tc.at)
		}
	}
	// {time} takes its layout from the keys.
	e, err := ParseTimeFormat("comm#{time}#{any}")
	if err != nil || e.Resolved() {
		t.Fatalf("comm#{time}#{any}: %v %v", e, err)
	}
	e, ok := e.Resolve([]string{"metadata", "comm#2023-04-30T12:00:24#comm1"})
	if tm, got := e.KeyTime("comm#2023-04-30T12:00:24#comm1"); !ok || !got || tm.Format(time.RFC3339) != "2023-04-30T12:00:24Z" {
		t.Errorf("comm#{time}#{any} resolved as %q: %v", e.Layout, tm)
	}
	c, err := CompileRange(TimeRange{Op: TimeBetween, From: time.Date(2023, 4, 30, 0, 0, 0, 0, time.UTC), To: time.Date(2023, 4, 30, 23, 59, 59, 0, time.UTC)}, e, "")
	if err != nil || cond(c) != `SK BETWEEN :lo AND :hi  :lo="comm#2023-04-30T00:00:00" :hi="comm#2023-04-30T23:59:59#\U0010ffff"` {
		t.Errorf("comm#{time}#{any} range: %s %v", cond(c), err)
	}
	for _, bad := range []string{"yyyy-MM-dd'T", "yyyy-qq", "comm#{time", "{any}{time}", "{time}x", "{nope}", "#{any}", "ulid#suffix"} {
		if _, err := ParseTimeFormat(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	// A text layout on a number key, and a number form on a text key.
	iso, _ := ParseTimeFormat("yyyy-MM-dd")
	if _, err := iso.ForKey(true); err == nil {
		t.Error("yyyy-MM-dd accepted on a number key")
	}
	// Every shape a layout people write can say, and the forms given
	// alone, read where they stand in the keys.
	for _, tc := range []struct{ format, key, at string }{
		{"admission#{time:epoch-ms}#{any}", "admission#1601700180000#R8", "2020-10-03T04:43:00Z"},
		{"admission#{time}#{any}", "admission#1601700180000#R8", "2020-10-03T04:43:00Z"},
		{"admission#epoch-ms", "admission#1601700180000", "2020-10-03T04:43:00Z"},
		{"epoch-ms", "admission#1601700180000#R8", "2020-10-03T04:43:00Z"},
		{"{time:2006-01-02T150405}{any}", "2019-09-25T010101-x", "2019-09-25T01:01:01Z"},
		{"P#{any}#{time}{any}", "P#512-777-7777#2021-07-07T16:36:42-D", "2021-07-07T16:36:42Z"},
		{"{any}#{time}-{any}", "P#512-777-7777#2021-07-07T16:36:42-1", "2021-07-07T16:36:42Z"},
		{"yyyy-MM-dd'T'HH:mm:ss", "JFK#2021-08-01T07:25:00#250#0", "2021-08-01T07:25:00Z"},
		{"P#{any}#{time}{any}", "Q#512-777-7777#2021-07-07T16:36:42-D", ""},
	} {
		e, err := ParseTimeFormat(tc.format)
		if err == nil {
			e, err = e.ForKey(false)
		}
		if err != nil {
			t.Errorf("%q: %v", tc.format, err)
			continue
		}
		e, ok := e.Resolve([]string{"META", tc.key})
		tm, read := e.KeyTime(tc.key)
		if tc.at == "" && (ok && read) || tc.at != "" && (!ok || !read || tm.Format(time.RFC3339Nano) != tc.at) {
			t.Errorf("%q reads %q as %v %v %v (%s), want %q", tc.format, tc.key, ok, read, tm, e.Name(), tc.at)
		}
	}
	// What detection reads, written as a template, reads back as it.
	for _, sh := range shapes {
		var keys []string
		for i, at := range shapeInstants[:5] {
			keys = append(keys, sh.write(at, i))
		}
		d, _ := DetectTime(keys, sh.number)
		e, err := ParseTimeFormat(d.TimeFormat())
		if err == nil {
			e, err = e.ForKey(sh.number)
		}
		if err == nil {
			e, _ = e.Resolve(keys)
		}
		if err != nil || formOf(e) != formOf(d) || e.Lead != d.Lead || e.Width != d.Width || e.Rest != d.Rest {
			t.Errorf("%s: %s written %q reads back as %s (%v)", sh.name, d.Name(), d.TimeFormat(), e.Name(), err)
		}
	}
}

// TestRangeGrammar: every word the request line prints is read, and a
// span ends now.
func TestRangeGrammar(t *testing.T) {
	now := time.Date(2018, 9, 4, 12, 0, 0, 0, time.UTC)
	day := func(d int) time.Time { return time.Date(2018, 9, d, 0, 0, 0, 0, time.UTC) }
	for _, tc := range []struct {
		in       string
		op       TimeOp
		from, to time.Time
	}{
		{"before 2018-09-04", TimeLt, day(4), time.Time{}},
		{"< 2018-09-04", TimeLt, day(4), time.Time{}},
		{"after 2018-09-04", TimeGt, day(5).Add(-1), time.Time{}},
		{"since 2018-09-04", TimeGe, day(4), time.Time{}},
		{"from 2018-09-04", TimeGe, day(4), time.Time{}},
		{"until 2018-09-04", TimeLe, day(5).Add(-1), time.Time{}},
		{"up to 2018-09-04", TimeLe, day(5).Add(-1), time.Time{}},
		{"between 2018-09-01 and 2018-09-04", TimeBetween, day(1), day(5).Add(-1)},
		{"2018-09-01 to 2018-09-04", TimeBetween, day(1), day(5).Add(-1)},
		{"from 2018-09-01 to 2018-09-04", TimeBetween, day(1), day(5).Add(-1)},
		{"at 2018-09-04", TimeBetween, day(4), day(5).Add(-1)},
		{"last 15m", TimeBetween, now.Add(-15 * time.Minute), now},
		{"since 15m ago", TimeGe, now.Add(-15 * time.Minute), time.Time{}},
		{"until now", TimeLe, now, time.Time{}},
		{"before 2018-09-04 00:00:00 UTC", TimeLt, day(4), time.Time{}},
		{"since 2018-09-04 00:00:00.5 UTC", TimeGe, day(4).Add(500 * time.Millisecond), time.Time{}},
		{"BEFORE 2018-09-04", TimeLt, day(4), time.Time{}},
	} {
		r, err := ParseRange(tc.in, now, time.UTC)
		if err != nil || r.Op != tc.op || !r.From.Equal(tc.from) || !r.To.Equal(tc.to) {
			t.Errorf("%q: %v %v..%v (%v), want %v %v..%v", tc.in, r.Op, r.From, r.To, err, tc.op, tc.from, tc.to)
		}
	}
	if _, err := ParseRange("before 2018-09-04 00:00:00 XYZ", now, time.UTC); err == nil {
		t.Error("an unknown zone name was taken as UTC")
	}
}

// FuzzIDBounds: for any instant an id can write, its smallest and largest
// ids read back as that instant, in order, and between them no other
// instant's id fits.
func FuzzIDBounds(f *testing.F) {
	f.Add(int64(0), uint8(0))
	f.Add(int64(1615809600123), uint8(1))
	f.Add(int64(253402300799999), uint8(2))
	f.Fuzz(func(t *testing.T, ms int64, kind uint8) {
		e := []TimeEncoding{{Kind: TimeULID}, {Kind: TimeUUIDv7, Lower: true}, {Kind: TimeKSUID}}[int(kind)%3]
		first, last := e.span()
		at := time.UnixMilli(ms).UTC()
		if at.Before(first) || at.After(last) {
			return
		}
		lo, hi := e.Encode(at), e.EncodeLast(at)
		tl, okl := e.KeyTime(lo)
		th, okh := e.KeyTime(hi)
		want := at.Truncate(e.Unit())
		if !okl || !okh || !tl.Equal(want) || !th.Equal(want) || lo > hi {
			t.Fatalf("%s at %v: %q %v, %q %v", e.Name(), at, lo, tl, hi, th)
		}
	})
}

// FuzzDetectTextKey: whatever a key holds, a time found in it reads back
// with the encoding found, and a range around that time holds the key.
func FuzzDetectTextKey(f *testing.F) {
	for _, s := range []string{"JFK#2021-08-01T07:25:00#250#0", "$employee_1#datehired_2021-03-10#title_x", "PHOTO#01ARZ3NDEKTSV4RRFFQ69G5FAV",
		"comm#2023-04-30T12:00:24#comm1", "0ujtsYcgvSTl8PAuAdqWYSMnLOv#x", "a#017f22e2-79b0-7cc3-98c4-dc0c0c07398f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		e, ok := DetectTimeText(key)
		if !ok {
			return
		}
		tm, ok := e.KeyTime(key)
		if !ok {
			t.Fatalf("%q detected as %s, not read", key, e.Name())
		}
		prefix := ""
		if e.NeedsPrefix() {
			i, _, _, _ := e.Locate(key)
			prefix = key[:i]
		}
		c, err := CompileRange(TimeRange{Op: TimeBetween, From: tm, To: tm}, e, prefix)
		if err != nil {
			return // outside the years a range may name
		}
		if !condHolds(c, S(key)) {
			t.Fatalf("%q (%s at %v): %s leaves it out", key, e.Name(), tm, cond(c))
		}
	})
}

// TestOpenEndInTheKeysZone: keys written at +02:00 end at 9999-12-31 in
// their own zone; a bound in UTC terms would need a fifth digit.
func TestOpenEndInTheKeysZone(t *testing.T) {
	e, ok := DetectTime([]string{"2018-09-04T02:00:00+02:00"}, false)
	if !ok {
		t.Fatal("not detected")
	}
	r, _ := ParseRange("> 2018-09-04T00:00:00Z", demoNow, time.UTC)
	c, err := CompileRange(r, e, "")
	if err != nil || cond(c) != `SK BETWEEN :lo AND :hi  :lo="2018-09-04T02:00:01+02:00" :hi="9999-12-31T23:59:59+02:00"` {
		t.Errorf("%s %v", cond(c), err)
	}
}

// FuzzRangeIsTimeFilter: for any shape and any two instants, the
// condition a range compiles to holds for exactly the keys whose time is
// in the range, on keys written around both ends.
func FuzzRangeIsTimeFilter(f *testing.F) {
	f.Add(uint8(0), int64(0), int64(3600), uint8(0))
	f.Add(uint8(9), int64(-86400), int64(59), uint8(2))
	f.Add(uint8(12), int64(1), int64(1), uint8(1))
	base := time.Date(2021, 3, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, which uint8, a, b int64, op uint8) {
		sh := shapes[int(which)%len(shapes)]
		const span = 400 * 24 * 3600
		from, to := base.Add(time.Duration(a%span)*time.Second), base.Add(time.Duration(b%span)*time.Second)
		if to.Before(from) {
			from, to = to, from
		}
		var keys []string
		for i, at := range []time.Time{from.Add(-time.Second), from, from.Add(time.Second), to.Add(-time.Second), to, to.Add(time.Second), to.Add(24 * time.Hour)} {
			keys = append(keys, sh.write(at, i))
		}
		enc, ok := DetectTime(keys, sh.number)
		if !ok {
			t.Fatalf("%s: %q not detected", sh.name, keys)
		}
		r := TimeRange{Op: []TimeOp{TimeBetween, TimeLt, TimeGe}[int(op)%3], From: from, To: to.Add(time.Second - time.Nanosecond)}
		lo, hi := rangeSpan(r)
		prefixes := sh.prefixes
		if len(prefixes) == 0 {
			prefixes = []string{""}
		}
		for _, k := range keys {
			tm, _ := enc.KeyTime(k)
			want := keyInSpan(enc, tm, lo, hi)
			got := false
			for _, p := range prefixes {
				c, err := CompileRange(r, enc, p)
				if errors.Is(err, ErrEmptyRange) {
					continue
				}
				if err != nil {
					t.Fatalf("%s %v: %v", sh.name, r, err)
				}
				v := S(k)
				if sh.number {
					v = N(k)
				}
				got = got || condHolds(c, v)
			}
			if got != want {
				t.Fatalf("%s: key %q (%v) in %v..%v op %d: listed %v, its time says %v", sh.name, k, tm, lo, hi, r.Op, got, want)
			}
		}
	})
}

// TestSnowflakesOfTwoWidths: --time-format snowflake names no width; the
// bounds take the width of the ids the range holds (18 digits before
// mid-2018), and a range holding both widths is refused.
func TestSnowflakesOfTwoWidths(t *testing.T) {
	id := func(tm time.Time) string {
		return "POST#" + strconv.FormatInt((tm.UnixMilli()-snowflakeEpoch)<<22, 10)
	}
	keys := []string{id(time.Date(2015, 5, 1, 0, 0, 0, 0, time.UTC)), id(time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC))}
	enc, err := ParseTimeFormat("snowflake")
	if err != nil {
		t.Fatal(err)
	}
	enc, _ = enc.Resolve(keys)
	for _, tc := range []struct {
		in    string
		width int
		err   bool
	}{{"2015-05", 18, false}, {"2024-05", 19, false}, {"before 2018-01-01", 18, false}, {"2018", 0, true}, {"since 2010-01-01", 0, true}} {
		r, _ := ParseRange(tc.in, demoNow, time.UTC)
		fit, mixed, err := enc.FitSnowflakes(keys, r)
		if (err != nil) != tc.err || !tc.err && (fit.Width != tc.width || !mixed) {
			t.Errorf("%s: width %d, mixed %v, %v", tc.in, fit.Width, mixed, err)
		}
	}
	one, mixed, _ := enc.FitSnowflakes(keys[:1], TimeRange{Op: TimeGe, From: MinInstant})
	if one.Width != 18 || mixed {
		t.Errorf("ids of one width: %d %v", one.Width, mixed)
	}
}

// TestSnowflakesAsNumberKeys: a Number sort key holding Snowflake ids (a
// tweet's id) takes --time-format snowflake, where it was refused as
// text, and a range is one key condition on the numbers: ids of 18 and 19
// digits together, each bound the first or last id of its millisecond.
func TestSnowflakesAsNumberKeys(t *testing.T) {
	enc, err := ParseTimeFormat("snowflake")
	if err != nil {
		t.Fatal(err)
	}
	if enc, err = enc.ForKey(true); err != nil {
		t.Fatalf("a number key refused snowflake: %v", err)
	}
	id := func(tm time.Time, seq int64) int64 { return (tm.UnixMilli()-snowflakeEpoch)<<22 | seq }
	at := time.Date(2018, 5, 25, 13, 5, 53, 0, time.UTC)
	for _, tc := range []struct {
		in     string
		op     SKOp
		lo, hi int64
	}{
		{"2015", SKBetween, id(time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC), 0), id(time.Date(2016, 1, 1, 0, 0, 0, 0, time.UTC), 0) - 1},
		{"2018-05-25T13:05:53..2018-05-25T13:05:53", SKBetween, id(at, 0), id(at.Add(time.Second), 0) - 1},
		{"< 2018-05-25T13:05:53Z", SKLt, id(at, 0), 0},
		// until and after a second: its last id, of its last millisecond
		{"<= 2018-05-25T13:05:53Z", SKLe, id(at.Add(time.Second), 0) - 1, 0},
		{"> 2018-05-25T13:05:53Z", SKGt, id(at.Add(time.Second), 0) - 1, 0},
		{">= 2018-05-25T13:05:53Z", SKGe, id(at, 0), 0},
	} {
		r, err := ParseRange(tc.in, demoNow, time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		c, err := CompileRange(r, enc, "")
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		want := SKCondition{Op: tc.op, A: N(strconv.FormatInt(tc.lo, 10))}
		if tc.op == SKBetween {
			want.B = N(strconv.FormatInt(tc.hi, 10))
		}
		if !reflect.DeepEqual(c, want) {
			t.Errorf("%s: %+v, want %+v", tc.in, c, want)
		}
	}
}

// TestTimeFormatOfZeroPaddedEpochs: a format that names the count and
// not its width (epoch-ms, LOG#{time:epoch-ms}) reads keys that write it
// wider, zeros first, where it matched none of them.
func TestTimeFormatOfZeroPaddedEpochs(t *testing.T) {
	keys := []string{"LOG#00000001790812800000", "LOG#00000001793491199999"}
	for _, f := range []string{"epoch-ms", "LOG#{time:epoch-ms}", "{any}#{time:epoch-ms}"} {
		e, err := ParseTimeFormat(f)
		if err == nil {
			e, err = e.ForKey(false)
		}
		if err == nil {
			e, _ = e.Resolve(keys)
		}
		if err != nil || e.Matches(keys) != len(keys) || e.Width != 20 {
			t.Errorf("%s: reads %d of %d keys as %s, width %d (%v)", f, e.Matches(keys), len(keys), e.Name(), e.Width, err)
		}
	}
}

// TestDiscordSnowflakes: Discord's ids are Snowflake ids from
// 2015-01-01, which read as Twitter's stand four years early (and as
// nanoseconds, in 2019); --time-format discord reads them, in text and
// as a number key, and writes bounds in them, through a template too.
func TestDiscordSnowflakes(t *testing.T) {
	at := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	id := strconv.FormatInt((at.UnixMilli()-1420070400000)<<22|5<<17|42, 10) // a message of that instant
	for _, tc := range []struct {
		format, key, prefix string
		number              bool
	}{{"discord", id, "", false}, {"discord", id, "", true}, {"MSG#{discord}", "MSG#" + id, "", false}, {"{any}#{discord}", "CH#7#" + id, "CH#7#", false}} {
		e, err := ParseTimeFormat(tc.format)
		if err == nil {
			e, err = e.ForKey(tc.number)
		}
		if err == nil {
			e, _ = e.Resolve([]string{tc.key})
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.format, err)
		}
		if got, ok := e.KeyTime(tc.key); !ok || !got.Equal(at) {
			t.Errorf("%s: %s read as %v (%v), want %v", tc.format, tc.key, got, ok, at)
		}
		r, _ := ParseRange("2026-11-27T12:00:00Z..2026-11-27T12:00:00Z", demoNow, time.UTC)
		c, err := CompileRange(r, e, tc.prefix)
		if err != nil || !condHolds(c, map[bool]KeyValue{false: S(tc.key), true: N(tc.key)}[tc.number]) {
			t.Errorf("%s: the id's own second %+v (%v) does not hold it", tc.format, c, err)
		}
		if back, err := ParseTimeFormat(e.TimeFormat()); err != nil || back.Epoch != discordEpoch || !strings.Contains(e.Name(), "Discord") {
			t.Errorf("%s: written %q, named %q, reads back with epoch %d (%v)", tc.format, e.TimeFormat(), e.Name(), back.Epoch, err)
		}
	}
}
