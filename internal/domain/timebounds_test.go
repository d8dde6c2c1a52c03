package domain

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// boundEncodings are the key formats a range compiles to, with the prefix
// a composite key needs.
func boundEncodings(t testing.TB) []struct {
	enc    TimeEncoding
	prefix string
} {
	iso, _ := DetectTime([]string{"2026-10-31T23:59:59Z"}, false)
	isoMillis, _ := DetectTime([]string{"2026-10-31T23:59:59.123Z"}, false)
	blog, _ := DetectTime([]string{"amsg#2018-08-29:12:00:00"}, false)
	leading, _ := DetectTime([]string{"2018-08-29:12:00:00#amsg"}, false)
	day, _ := DetectTime([]string{"2018-08-29"}, false)
	if iso.Kind != TimeText || isoMillis.Kind != TimeText || blog.Kind != TimeText || leading.Kind != TimeText || day.Kind != TimeText {
		t.Fatal("a text layout was not detected")
	}
	return []struct {
		enc    TimeEncoding
		prefix string
	}{
		{TimeEncoding{Kind: EpochSeconds}, ""}, {TimeEncoding{Kind: EpochMillis}, ""}, {TimeEncoding{Kind: EpochMicros}, ""},
		{iso, ""}, {isoMillis, ""}, {blog, "amsg"}, {leading, ""}, {day, ""},
	}
}

// TestCompileRangeEdges: a period at either end of the years 0001–9999, and
// either side of the int64-nanosecond years 1677 and 2262, compiles to keys
// that read back as that period's first and last instants, in every format.
func TestCompileRangeEdges(t *testing.T) {
	for _, day := range []string{"0001-01-01", "1677-01-01", "1677-09-21", "2262-04-12", "2262-12-31", "9999-12-31"} {
		start, _ := time.Parse("2006-01-02", day)
		for _, be := range boundEncodings(t) {
			for _, in := range []string{day, "between " + day + " and " + day} {
				r, err := ParseRange(in, demoNow, time.UTC)
				if err != nil {
					t.Fatalf("%q: %v", in, err)
				}
				c, err := CompileRange(r, be.enc, be.prefix)
				if err != nil {
					t.Errorf("%s %q: %v", be.enc.Name(), in, err)
					continue
				}
				lo, hi := boundTimes(t, be.enc, c)
				last := truncate(start.AddDate(0, 0, 1).Add(-time.Nanosecond), be.enc.Unit(), nil)
				if !lo.Equal(start) || (!hi.IsZero() && !hi.Equal(last)) {
					t.Errorf("%s %q: %s %q..%q reads back %v..%v, want %v..%v", be.enc.Name(), in, cond(c), keyText(c.A), keyText(c.B), lo, hi, start, last)
				}
			}
		}
	}
}

// boundTimes reads a condition's bounds back as times (hi zero: no upper
// bound, or begins_with).
func boundTimes(t *testing.T, e TimeEncoding, c SKCondition) (lo, hi time.Time) {
	t.Helper()
	read := func(v KeyValue) time.Time {
		s := keyText(v)
		s = strings.TrimSuffix(s, e.Sep+"\U0010FFFF")
		if e.Place == TimeLeading {
			s += e.Sep + "x"
		}
		if c.Op == SKBeginsWith {
			return time.Time{}
		}
		tm, ok := e.KeyTime(s)
		if !ok {
			t.Fatalf("%s: key %q does not read back", e.Name(), s)
		}
		return tm
	}
	switch c.Op {
	case SKBeginsWith:
		p := keyText(c.A)
		if e.Place == TimeAfter {
			p = p[strings.LastIndex(p, e.Sep)+1:]
		}
		tm, err := time.Parse(e.Layout[:len(p)], p)
		if err != nil {
			t.Fatalf("begins_with %q: %v", p, err)
		}
		return tm, time.Time{}
	case SKBetween:
		return read(c.A), read(c.B)
	}
	return read(c.A), time.Time{}
}

func keyText(v KeyValue) string { return v.Text }

// TestCompileRangeLimits: "never expires" dates at 9999-12-31 compile to
// the keys they name, and dates outside 0001–9999 are refused with the
// range, never wrapped.
func TestCompileRangeLimits(t *testing.T) {
	iso, _ := DetectTime([]string{"2026-10-31T23:59:59Z"}, false)
	for _, tc := range []struct {
		enc  TimeEncoding
		in   string
		want string
	}{
		{TimeEncoding{Kind: EpochSeconds}, "< 9999-12-31", "SK < :sk  :sk=253402214400"},
		{TimeEncoding{Kind: EpochMillis}, "< 9999-12-31", "SK < :sk  :sk=253402214400000"},
		{TimeEncoding{Kind: EpochMicros}, "< 9999-12-31", "SK < :sk  :sk=253402214400000000"},
		{TimeEncoding{Kind: EpochMicros}, ">= 0001-01-01", "SK >= :sk  :sk=-62135596800000000"},
		{TimeEncoding{Kind: EpochSeconds}, "> 1677-01-01", "SK >= :sk  :sk=-9246009600"},
		{TimeEncoding{Kind: EpochMillis}, "<= 2262-12-31", "SK < :sk  :sk=9246182400000"},
		{TimeEncoding{Kind: EpochSeconds}, "> 9999-12-31", "SK >= :sk  :sk=253402300800"}, // a number key is compared as a number
		{iso, "< 9999-12-31", "SK BETWEEN :lo AND :hi  :lo=\"0001-01-01T00:00:00Z\" :hi=\"9999-12-30T23:59:59Z\""},
		{iso, "< 9999-12-31T23:59:59.5Z", "SK BETWEEN :lo AND :hi  :lo=\"0001-01-01T00:00:00Z\" :hi=\"9999-12-31T23:59:59Z\""},
		{iso, ">= 0001-01-01", "SK BETWEEN :lo AND :hi  :lo=\"0001-01-01T00:00:00Z\" :hi=\"9999-12-31T23:59:59Z\""},
	} {
		r, err := ParseRange(tc.in, demoNow, time.UTC)
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		c, err := CompileRange(r, tc.enc, "")
		if err != nil || cond(c) != tc.want {
			t.Errorf("%s %q:\n got %s (%v)\nwant %s", tc.enc.Name(), tc.in, cond(c), err, tc.want)
		}
	}
	r, _ := ParseRange("> 9999-12-31", demoNow, time.UTC)
	for _, enc := range []TimeEncoding{iso} {
		if _, err := CompileRange(r, enc, ""); !errors.Is(err, ErrEmptyRange) {
			t.Errorf("> 9999-12-31 on %s keys: %v, want no key can be later", enc.Name(), err)
		}
	}
	for _, in := range []string{"0000-01", "< 0000-12-31", "10000-01-01", "between 0000-01-01 and 2018-01-01", "0000"} {
		if _, err := ParseRange(in, demoNow, time.UTC); err == nil || (!errors.Is(err, ErrOutOfRange) && !strings.Contains(err.Error(), "not a time")) {
			t.Errorf("%q: %v, want refused with the range", in, err)
		}
	}
	if _, err := ParseRange("0000-01", demoNow, time.UTC); !errors.Is(err, ErrOutOfRange) || !strings.Contains(err.Error(), "0001-01-01 to 9999-12-31") {
		t.Errorf("0000-01: %v", err)
	}
}

// FuzzTimeEncodeNoWrap: no instant in 0001–9999 wraps in any key format:
// its key reads back as the instant floored to the key's unit, and a later
// instant never has a smaller key.
func FuzzTimeEncodeNoWrap(f *testing.F) {
	f.Add(int64(0), int64(0), int64(1))
	f.Add(MinInstant.Unix(), int64(0), int64(86400))
	f.Add(MaxInstant.Unix(), int64(999999999), int64(-1))
	f.Add(int64(-9223372037), int64(5), int64(3e9))
	span := MaxInstant.Unix() - MinInstant.Unix() + 1
	f.Fuzz(func(t *testing.T, sec, nsec, step int64) {
		at := func(s, ns int64) time.Time {
			s = MinInstant.Unix() + ((s%span)+span)%span
			return time.Unix(s, ((ns%1e9)+1e9)%1e9).UTC()
		}
		a := at(sec, nsec)
		b := at(sec+step, nsec)
		if b.Before(a) {
			a, b = b, a
		}
		for _, be := range boundEncodings(t) {
			e := be.enc
			ka, kb := e.Encode(a), e.Encode(b)
			key := ka
			switch e.Place {
			case TimeAfter:
				key = "amsg" + e.Sep + ka
			case TimeLeading:
				key = ka + e.Sep + "amsg"
			}
			back, ok := e.KeyTime(key)
			if !ok || !back.Equal(truncate(a, e.Unit(), e.Zone)) {
				t.Fatalf("%s: %v encodes as %q, reads back %v", e.Name(), a, ka, back)
			}
			if e.Kind == TimeText && ka > kb || e.Kind != TimeText && numLess(kb, ka) {
				t.Fatalf("%s: %v < %v but keys %q > %q", e.Name(), a, b, ka, kb)
			}
		}
	})
}

func numLess(a, b string) bool {
	na, nb := strings.HasPrefix(a, "-"), strings.HasPrefix(b, "-")
	switch {
	case na != nb:
		return na
	case na:
		return numLess(b[1:], a[1:])
	case len(a) != len(b):
		return len(a) < len(b)
	}
	return a < b
}

// TestRangeInsideAKeysPeriod: keys that name a day, an hour, a week or a
// month hold all of it, so a range inside one reads it (it was "no key
// can fall in this range"), a range starting inside one starts with it,
// and WholePeriods says so where a range is not whole periods; keys of
// instants (seconds) are read as before.
func TestRangeInsideAKeysPeriod(t *testing.T) {
	day, _ := DetectTime([]string{"2024-05-06"}, false)
	hour, _ := DetectTime([]string{"2024-05-06T10"}, false)
	week, _ := DetectTime([]string{"2024-W18"}, false)
	number, _ := DetectTime([]string{"20240506"}, true)
	iso, _ := DetectTime([]string{"2024-05-06T10:00:00Z"}, false)
	now := time.Date(2024, 5, 6, 10, 7, 0, 0, time.UTC)
	for _, tc := range []struct {
		enc   TimeEncoding
		in    string
		want  string
		whole string
	}{
		{day, "last 15m", `SK = :sk  :sk="2024-05-06"`, "days"},
		{day, "2024-05-06T10", `SK = :sk  :sk="2024-05-06"`, "days"},
		{day, "> 2024-05-06T10:00", `SK BETWEEN :lo AND :hi  :lo="2024-05-06" :hi="9999-12-31"`, "days"},
		{day, ">= 2024-05-06T10:00", `SK BETWEEN :lo AND :hi  :lo="2024-05-06" :hi="9999-12-31"`, "days"},
		{day, "< 2024-05-06T10:00", `SK BETWEEN :lo AND :hi  :lo="0001-01-01" :hi="2024-05-06"`, "days"},
		{day, "2024-05-06", `SK = :sk  :sk="2024-05-06"`, ""},
		{day, "> 2024-05-06", `SK BETWEEN :lo AND :hi  :lo="2024-05-07" :hi="9999-12-31"`, ""},
		{hour, "last 15m", `SK BETWEEN :lo AND :hi  :lo="2024-05-06T09" :hi="2024-05-06T10"`, "hours"},
		{hour, "2024-05-06T10:30", `SK = :sk  :sk="2024-05-06T10"`, "hours"},
		{week, "2024-05-08", `SK = :sk  :sk="2024-W19"`, "weeks"},
		{number, "since 2024-05-06T10:00", `SK >= :sk  :sk=20240506`, "days"},
		{number, "after 2024-05-06T10:00", `SK >= :sk  :sk=20240506`, "days"},
		{number, "after 2024-05-06", `SK > :sk  :sk=20240506`, ""},
		{iso, "> 2024-05-06T10:00:00.5Z", `SK BETWEEN :lo AND :hi  :lo="2024-05-06T10:00:01Z" :hi="9999-12-31T23:59:59Z"`, ""},
	} {
		r, err := ParseRange(tc.in, now, time.UTC)
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		c, err := CompileRange(r, tc.enc, "")
		if err != nil || cond(c) != tc.want || WholePeriods(r, tc.enc) != tc.whole {
			t.Errorf("%s %q:\n got %s (%v), whole %q\nwant %s, whole %q", tc.enc.Name(), tc.in, cond(c), err, WholePeriods(r, tc.enc), tc.want, tc.whole)
		}
	}
}
