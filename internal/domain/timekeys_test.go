package domain

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestDetectTime(t *testing.T) {
	for _, tc := range []struct {
		keys   []string
		number bool
		ok     bool
		name   string
	}{
		{[]string{"1310216400", "1536022800"}, true, true, "epoch seconds"},
		{[]string{"1793491200000"}, true, true, "epoch milliseconds"},
		{[]string{"1793491200000000"}, true, true, "epoch microseconds"},
		{[]string{"42", "7"}, true, false, ""},
		{[]string{"2026-10-31T23:59:59Z"}, false, true, "2006-01-02T15:04:05Z07:00"},
		{[]string{"2026-10-31T23:59:59.123Z"}, false, true, "2006-01-02T15:04:05.000Z07:00"},
		{[]string{"2026-10-31T23:59:59+02:00"}, false, true, "2006-01-02T15:04:05Z07:00"},
		{[]string{"2026-10-31T23:59:59"}, false, true, "2006-01-02T15:04:05"},
		{[]string{"2026-10-31"}, false, true, "2006-01-02"},
		{[]string{"2026-10"}, false, true, "2006-01"},
		{[]string{"2018-08-29:12:00:00"}, false, true, "2006-01-02:15:04:05"},
		{[]string{"amsg#2018-08-29:12:00:00", "bob#2018-08-30:01:02:03"}, false, true, "prefix#2006-01-02:15:04:05"},
		{[]string{"user_name#2018-08-29T12:00:00Z"}, false, true, "prefix#2006-01-02T15:04:05Z07:00"},
		{[]string{"2018-08-29:12:00:00#amsg"}, false, true, "2006-01-02:15:04:05#…"},
		{[]string{"amsg#2018-08-29:12:00:00", "2018-08-29"}, false, false, ""}, // two forms
		{[]string{"NY#NEWYORKCITY#10001"}, false, false, ""},
		{[]string{"v0_Audit"}, false, false, ""},
		{[]string{"2026-13-01"}, false, false, ""},
		{[]string{"1536019200"}, false, true, "epoch seconds (as text)"}, // digits in text: their width says the unit
		{[]string{"admission#1601700180000#R8", "admission#1601700190000#R9"}, false, true, "prefix#epoch milliseconds#…"},
		{[]string{"P#512-777-7777#2021-07-07T16:36:42-D", "P#512-777-7777#2021-07-07T16:36:43-1"}, false, true, "prefix#2006-01-02T15:04:05…"},
		{[]string{"2019-09-25T010101"}, false, true, "2006-01-02T150405"},
		{[]string{"20190925T010101Z"}, false, true, "20060102T150405Z0700"},
		{[]string{"ORDER#20190925"}, false, true, "prefix#20060102"},
		{[]string{"2019-09-25:01:01:01"}, false, true, "2006-01-02:15:04:05"},
		{[]string{"evt#1601700180000000000"}, false, true, "prefix#epoch nanoseconds"},
		{[]string{"12345678901"}, false, false, ""}, // eleven digits: no epoch width
		{nil, false, false, ""},
	} {
		e, ok := DetectTime(tc.keys, tc.number)
		if ok != tc.ok || (ok && e.Name() != tc.name) {
			t.Errorf("%q: %v %q, want %v %q", tc.keys, ok, e.Name(), tc.ok, tc.name)
		}
	}
}

// TestDetectTimeSample takes the form most keys hold and names the rest:
// AWS's time-based versions keep one Metadata item beside ISO times.
func TestDetectTimeSample(t *testing.T) {
	iso := func(n int) []string {
		var out []string
		for i := range n {
			out = append(out, time.Date(2020, 11, 12, 20, 4, i, 0, time.UTC).Format("2006-01-02T15:04:05"))
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		keys   []string
		number bool
		ok     bool
		form   string
		note   string
	}{
		{"one Metadata among 20", append(iso(19), "Metadata"), false, true, "2006-01-02T15:04:05", "1 of 20 keys is not a time: Metadata"},
		{"all times", iso(5), false, true, "2006-01-02T15:04:05", ""},
		{"four of five", append(iso(4), "Metadata"), false, true, "2006-01-02T15:04:05", "1 of 5 keys is not a time: Metadata"},
		{"three of five", append(iso(3), "Metadata", "Owner"), false, false, "", ""},
		{"several skipped", append(iso(16), "a", "b", "c", "d"), false, true, "2006-01-02T15:04:05", "4 of 20 keys are not times: a, b, c, …"},
		{"another form skipped", append(iso(9), "2020-11-12"), false, true, "2006-01-02T15:04:05", "1 of 10 keys is not a time: 2020-11-12"},
		{"control characters escaped", append(iso(9), "x\x1b[31m"), false, true, "2006-01-02T15:04:05", `1 of 10 keys is not a time: "x\x1b[31m"`},
		{"prefixes before the time", []string{"WARNING1#2020-04-24T14:40:00", "NORMAL#2020-04-24T14:50:00", "WARNING2#2020-04-24T15:00:00"}, false, true, "prefix#2006-01-02T15:04:05", ""},
		{"numbers", []string{"1536019200", "1536019260", "1536019320", "1536019380", "7"}, true, true, "epoch seconds", "1 of 5 keys is not a time: 7"},
		// dynamodb-onetable's models in one partition: ${_type}#${when}
		// beside invoice#${date}#${id}, an account and its users.
		{"a time ending some keys, an id after it in others", []string{"Event#2025-03-02T15:09:57.967Z", "Event#2025-03-17T18:57:47.432Z", "Event#2025-04-01T02:00:00.000Z",
			"account#", "invoice#2025-03-02T15:09:11.092Z#01M8F94VKBJMDPCZNVPZYP1H7Y", "invoice#2025-04-02T04:50:56.622Z#01M8F94VKCF015NW0SZD6Z7THE", "user#u0@acme.com"},
			false, true, "prefix#2006-01-02T15:04:05.000Z07:00#…", "2 of 7 keys are not times: account#, user#u0@acme.com"},
		// Each prefix one form, the forms apart by what follows the time:
		// each prefix read in its own (a form a prefix).
		{"times followed by two different separators", []string{"a#2025-03-02T15:09:57Z", "b#2025-03-02T15:09:57Z#x", "c#2025-03-02T15:09:57Z_y", "d"}, false, true,
			"a form a prefix: a#{2006-01-02T15:04:05Z07:00}, b#{2006-01-02T15:04:05Z07:00#…}, c#{2006-01-02T15:04:05Z07:00_…}", "1 of 4 keys is not a time: d"},
		// Readings in epoch ms beside alarms in epoch s (ElectroDB's), and
		// a customer's orders beside its profile and addresses: by prefix.
		{"two epoch forms, a prefix each", []string{"$sensor#alarm_1#raiseds_1741200000", "$sensor#alarm_1#raiseds_1741300000", "$sensor#reading_1#at_1741000000000",
			"$sensor#reading_1#at_1741500000000", "$sensor#sensor_1"}, false, true,
			"a form a prefix: $sensor#alarm_1#raiseds_{epoch seconds}, $sensor#reading_1#at_{epoch milliseconds}", "1 of 5 keys is not a time: $sensor#sensor_1"},
		{"orders beside a profile and addresses", []string{"ADDRESS#home", "ADDRESS#work", "ADDRESS#x", "ORDER#2025-03-02T15:09:57Z", "ORDER#2025-03-05T15:09:57Z", "PROFILE"}, false, true,
			"prefix#2006-01-02T15:04:05Z07:00", "4 of 6 keys are not times: ADDRESS#home, ADDRESS#work, ADDRESS#x, …"},
		// A prefix mixing times and other keys below two thirds: refused.
		{"a prefix of few times", []string{"ORDER#2025-03-02T15:09:57Z", "ORDER#draft-1", "ORDER#draft-2", "PROFILE"}, false, false, "", ""},
		{"empty", nil, false, false, "", ""},
	} {
		d := DetectTimeSample(tc.keys, tc.number)
		if d.OK != tc.ok || (d.OK && d.Enc.Name() != tc.form) || d.Note() != tc.note {
			t.Errorf("%s: %v %q %q, want %v %q %q", tc.name, d.OK, d.Enc.Name(), d.Note(), tc.ok, tc.form, tc.note)
		}
		if d.OK && d.Enc.Matches(tc.keys) != len(tc.keys)-len(d.Skipped) {
			t.Errorf("%s: %d keys match, want %d", tc.name, d.Enc.Matches(tc.keys), len(tc.keys)-len(d.Skipped))
		}
	}
}

// Snowflake ids and epoch nanoseconds are both 19 digits: a sample is
// read as Snowflake ids where as nanoseconds its newest key would stand
// more than a day past now, and as nanoseconds otherwise; where X's or
// Discord's ids would read those keys as times up to now, the reading
// says so (Ambiguous). X's ids of 2020-11 to 2024-05 are the very numbers
// of nanoseconds of 2012 to now, so both are told of both readings;
// nanoseconds of recent years, as Discord ids past now, are told nothing
// of Discord.
func TestReadSnowflakes(t *testing.T) {
	now := time.Date(2026, 11, 27, 17, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		keys      []string
		want      string
		number    bool
		ambiguous string
	}{
		// tweets of 2026-11-27 and 2022-06-28, which read as 2037 and 2018
		{keys: []string{"PROFILE", "POST#2126363036289712650", "POST#1541815603606036480"}, want: "prefix#Snowflake"},
		// the same ids as a Number sort key (a tweet's id)
		{keys: []string{"2126363036289712650", "1541815603606036480"}, want: "Snowflake", number: true},
		// nanoseconds of 2026 and 2018 in a number key stay nanoseconds,
		// which X's ids of 2024-05 and 2022-06 are too
		{keys: []string{"1795798710622565285", "1541815603606036480"}, want: "epoch nanoseconds", number: true,
			ambiguous: "read as epoch nanoseconds (2018-11…2026-11); if these are X (Twitter) ids (2022-06…2024-05), use --time-format snowflake"},
		// nanoseconds of 2026-11-27 and 2018: not in the future
		{keys: []string{"EVT#1795798710622565285", "EVT#1541815603606036480"}, want: "prefix#epoch nanoseconds",
			ambiguous: "read as epoch nanoseconds (2018-11…2026-11); if these are X (Twitter) ids (2022-06…2024-05), use --time-format snowflake"},
		// 2022's tweets alone read as 2018 nanoseconds: nothing tells them
		// apart, nor from Discord's ids of 2026-08; the hint named Discord
		// alone
		{keys: []string{"1541815603606036480", "1541815603606036481"}, want: "epoch nanoseconds (as text)",
			ambiguous: "read as epoch nanoseconds (2018-11); if these are X (Twitter) ids (2022-06), use --time-format snowflake; if these are Discord ids (2026-08), use --time-format discord"},
		// tweets of 2021-01-08 and 2021-06-01 (2012 and 2014 as
		// nanoseconds), and of 2023-06-01 and 2024-05-01 (2022, 2026; past
		// now as Discord's): the hint named Discord alone, or nothing
		{keys: []string{"TW#1347566228076859393", "TW#1399651934008315907"}, want: "prefix#epoch nanoseconds",
			ambiguous: "read as epoch nanoseconds (2012-09…2014-05); if these are X (Twitter) ids (2021-01…2021-06), use --time-format snowflake; if these are Discord ids (2025-03…2025-07), use --time-format discord"},
		{keys: []string{"1664240374380609536", "1785640309355655177"}, want: "epoch nanoseconds", number: true,
			ambiguous: "read as epoch nanoseconds (2022-09…2026-08); if these are X (Twitter) ids (2023-06…2024-05), use --time-format snowflake"},
		// nanoseconds past now (2198), and as Snowflake ids too (2065)
		{keys: []string{"7200000000000000000", "7200000000000000001"}, want: "epoch nanoseconds (as text)"},
		// Discord messages of 2026-01-01 and 2026-05-26 read as 2016–2017
		// (and as X's ids of 2021–2022)
		{keys: []string{"MSG#1456074443980800000", "MSG#1508620684492800000"}, want: "prefix#epoch nanoseconds",
			ambiguous: "read as epoch nanoseconds (2016-02…2017-10); if these are X (Twitter) ids (2021-11…2022-03), use --time-format snowflake; if these are Discord ids (2026-01…2026-05), use --time-format discord"},
		// the same as a Number sort key
		{keys: []string{"1456074443980800000", "1508620684492800000"}, want: "epoch nanoseconds", number: true,
			ambiguous: "read as epoch nanoseconds (2016-02…2017-10); if these are X (Twitter) ids (2021-11…2022-03), use --time-format snowflake; if these are Discord ids (2026-01…2026-05), use --time-format discord"},
		// nanoseconds of 2026-01 and 2026-05: as Discord ids, 2028
		{keys: []string{"EV#1767225600000000000", "EV#1779753600000000000"}, want: "prefix#epoch nanoseconds",
			ambiguous: "read as epoch nanoseconds (2026-01…2026-05); if these are X (Twitter) ids (2024-03…2024-04), use --time-format snowflake"},
		// one key of 2026 among 2018's: as a Discord id it stands past now
		{keys: []string{"EV#1514764800000000000", "EV#1779753600000000000"}, want: "prefix#epoch nanoseconds",
			ambiguous: "read as epoch nanoseconds (2018-01…2026-05); if these are X (Twitter) ids (2022-04…2024-04), use --time-format snowflake"},
		// tweets of 2018-08-29 and 2018-09-03 read as nanoseconds of 2002,
		// before any DynamoDB table: the reading names snowflake too (it
		// named only discord, and the range came back with no item)
		{keys: []string{"TW#1034772651832246277", "TW#1036531742929846277"}, want: "prefix#epoch nanoseconds",
			ambiguous: "read as epoch nanoseconds (2002-10…2002-11); if these are X (Twitter) ids (2018-08…2018-09), use --time-format snowflake; if these are Discord ids (2022-10), use --time-format discord"},
		{keys: []string{"1034772651832246277", "1036531742929846277"}, want: "epoch nanoseconds", number: true,
			ambiguous: "read as epoch nanoseconds (2002-10…2002-11); if these are X (Twitter) ids (2018-08…2018-09), use --time-format snowflake; if these are Discord ids (2022-10), use --time-format discord"},
		// milliseconds are never Discord ids
		{keys: []string{"EV#1767225600000", "EV#1779753600000"}, want: "prefix#epoch milliseconds"},
	} {
		d := ReadSnowflakes(DetectTimeSample(tc.keys, tc.number), tc.keys, now)
		if !d.OK || d.Enc.Name() != tc.want {
			t.Errorf("%v: %v %q, want %q", tc.keys, d.OK, d.Enc.Name(), tc.want)
		}
		if d.Ambiguous != tc.ambiguous {
			t.Errorf("%v: ambiguous %q, want %q", tc.keys, d.Ambiguous, tc.ambiguous)
		}
	}
}

// TestDetectTimeSampleOffsets: keys written in several UTC offsets are
// one form, said to be out of time order (13:21-05:00 is after
// 14:19+00:00, and sorts before it).
func TestDetectTimeSampleOffsets(t *testing.T) {
	for _, tc := range []struct {
		keys    []string
		offsets bool
		spread  time.Duration
	}{
		{[]string{"2026-03-05T13:21:42-05:00", "2026-03-05T14:19:42+00:00", "2026-03-06T10:00:00+05:30"}, true, 10*time.Hour + 30*time.Minute},
		{[]string{"2026-03-05T14:19:42+00:00", "2026-03-05T13:21:42-05:00", "2026-03-06T10:00:00Z"}, true, 5 * time.Hour},
		{[]string{"ORDER#2026-03-05T13:21:42-05:00", "ORDER#2026-03-05T14:19:42+02:00"}, true, 7 * time.Hour},
		{[]string{"2026-03-05T13:21:42+02:00", "2026-03-05T14:19:42+02:00"}, false, 0},
		{[]string{"2026-03-05T13:21:42", "2026-03-05T14:19:42"}, false, 0},
		{[]string{"1536019200", "1536019260"}, false, 0},
	} {
		d := DetectTimeSample(tc.keys, false)
		if !d.OK || d.Offsets != tc.offsets || d.Spread != tc.spread {
			t.Errorf("%q: ok %v, offsets %v %v, want %v %v", tc.keys, d.OK, d.Offsets, d.Spread, tc.offsets, tc.spread)
		}
		if d.Note() != "" || d.Enc.Matches(tc.keys) != len(tc.keys) { // +00:00 is a time beside -05:00
			t.Errorf("%q: %q, %d keys match", tc.keys, d.Note(), d.Enc.Matches(tc.keys))
		}
	}
}

// TestRangeWidenedForOffsets: a range compiled in one UTC offset, widened
// by how far apart the keys' offsets are, holds every key whose instant
// is in the range (2026-03-04T23:00:00-05:00 is 2026-03-05 04:00 UTC);
// unwidened, it misses it.
func TestRangeWidenedForOffsets(t *testing.T) {
	keys := []string{"2026-03-04T23:00:00-05:00", "2026-03-05T13:21:42-05:00", "2026-03-05T14:19:42+00:00", "2026-03-06T10:00:00+05:30", "2026-03-07T01:00:00+02:00"}
	d := DetectTimeSample([]string{keys[4], keys[3], keys[2], keys[1], keys[0]}, false) // newest first, as a sample is read
	now := time.Date(2026, 3, 8, 0, 0, 0, 0, time.UTC)
	for _, in := range []string{"2026-03-05", "2026-03-06", "since 2026-03-05T03:00", "before 2026-03-06T05:00", "between 2026-03-05 and 2026-03-06"} {
		r, err := ParseRange(in, now, time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		holds := func(c SKCondition, k string) bool {
			switch c.Op {
			case SKBetween:
				return c.A.Text <= k && k <= c.B.Text
			case SKGe:
				return k >= c.A.Text
			case SKGt:
				return k > c.A.Text
			case SKLe:
				return k <= c.A.Text
			case SKLt:
				return k < c.A.Text
			}
			return true
		}
		plain, err := CompileRange(r, d.Enc, "")
		if err != nil {
			t.Fatal(err)
		}
		wide, err := CompileRange(r.Widen(d.Spread), d.Enc, "")
		if err != nil {
			t.Fatal(err)
		}
		missed := 0
		for _, k := range keys {
			at, _ := time.Parse(time.RFC3339, k)
			within := map[TimeOp]bool{TimeBetween: !at.Before(r.From) && !at.After(r.To), TimeGe: !at.Before(r.From), TimeLt: at.Before(r.From)}
			if !within[r.Op] {
				continue
			}
			if !holds(plain, k) {
				missed++
			}
			if !holds(wide, k) {
				t.Errorf("%s: widened %+v misses %s", in, wide, k)
			}
		}
		if r.Op != TimeBetween && r.Op != TimeGe && r.Op != TimeLt {
			t.Fatalf("%s: op %v not checked here", in, r.Op)
		}
		if in == "2026-03-05" && missed == 0 {
			t.Errorf("%s: the plain condition %+v missed no key: the case tests nothing", in, plain)
		}
	}
}

var demoNow = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

func TestParseRangeErrors(t *testing.T) {
	for _, in := range []string{"", "last", "last 15", "last 15x", "last -5m", "yesterdays", "2018-13", "between 2018 and", "2018-09..2018-08",
		"< ", "<= tomorrow", "12", "99999999999999999999", "2018-08-29T25:00"} {
		if _, err := ParseRange(in, demoNow, time.UTC); err == nil {
			t.Errorf("%q: no error", in)
		} else if len(err.Error()) < 10 {
			t.Errorf("%q: unhelpful %q", in, err)
		}
	}
}

// cond renders a compiled condition as the request line shows it.
func cond(c SKCondition) string {
	q := KeyQuery{Table: "T", PKName: "PK", PK: S("p"), SKName: "SK", SK: c}
	return strings.TrimPrefix(q.Expression(), "PK = :pk AND ") + "  " + strings.TrimPrefix(q.Values(), `:pk="p" `)
}

func TestCompileRange(t *testing.T) {
	seconds := TimeEncoding{Kind: EpochSeconds}
	millis := TimeEncoding{Kind: EpochMillis}
	iso, _ := DetectTime([]string{"2026-10-31T23:59:59Z"}, false)
	blog, _ := DetectTime([]string{"amsg#2018-08-29:12:00:00"}, false)
	leading, _ := DetectTime([]string{"2018-08-29:12:00:00#amsg"}, false)
	for _, tc := range []struct {
		enc    TimeEncoding
		in     string
		prefix string
		want   string
	}{
		// The seed's query, as written: an open range on a number key is
		// its own operator, no bound invented (1536019199.5 is before).
		{seconds, "< 1536019200", "", "SK < :sk  :sk=1536019200"},
		{seconds, "<= 1536019200", "", "SK <= :sk  :sk=1536019200"},
		{seconds, "> 1536019200", "", "SK > :sk  :sk=1536019200"},
		{seconds, ">= 1536019200", "", "SK >= :sk  :sk=1536019200"},
		{seconds, "< 2018-09-04T00:00Z", "", "SK < :sk  :sk=1536019200"},
		{seconds, "< 2018-09-04T00:00:00.5Z", "", "SK < :sk  :sk=1536019200.5"},
		{seconds, "before 1960-01-01", "", "SK < :sk  :sk=-315619200"},
		{seconds, "2018-09-04T00:00:00Z", "", "SK = :sk  :sk=1536019200"},
		{seconds, "1536019200", "", "SK = :sk  :sk=1536019200"},
		{iso, "2026-10-31T12:00:00Z", "", "SK = :sk  :sk=\"2026-10-31T12:00:00Z\""},
		{blog, "2018-08-29T12:00:00Z", "amsg", "SK = :sk  :sk=\"amsg#2018-08-29:12:00:00\""},
		{seconds, "<= 2018-09-04", "", "SK < :sk  :sk=1536105600"}, // through the day: before the next
		{seconds, "> 2018-09-04", "", "SK >= :sk  :sk=1536105600"},
		{seconds, "2018-08", "", "SK BETWEEN :lo AND :hi  :lo=1533081600 :hi=1535759999"},
		{seconds, "last 15m", "", "SK BETWEEN :lo AND :hi  :lo=1793490300 :hi=1793491200"},
		{seconds, "last 7d", "", "SK BETWEEN :lo AND :hi  :lo=1792886400 :hi=1793491200"},
		{seconds, "today", "", "SK BETWEEN :lo AND :hi  :lo=1793491200 :hi=1793577599"},
		{seconds, "yesterday", "", "SK BETWEEN :lo AND :hi  :lo=1793404800 :hi=1793491199"},
		{seconds, "2018-08-29..2018-09-04", "", "SK BETWEEN :lo AND :hi  :lo=1535500800 :hi=1536105599"},
		{seconds, "between 2018-08-29 and 2018-09-04", "", "SK BETWEEN :lo AND :hi  :lo=1535500800 :hi=1536105599"},
		{seconds, ">= 1536019200000", "", "SK >= :sk  :sk=1536019200"},
		{seconds, "<= 1536019200123", "", "SK <= :sk  :sk=1536019200.123"},
		{millis, "< 1536019200", "", "SK < :sk  :sk=1536019200000"},
		{millis, "<= 1536019200", "", "SK < :sk  :sk=1536019201000"}, // a second of milliseconds
		{millis, "2018-09-04T00:00:00.5Z..2018-09-04T00:00:01Z", "", "SK BETWEEN :lo AND :hi  :lo=1536019200500 :hi=1536019201999"},
		{iso, "2026-10", "", "begins_with(SK, :prefix)  :prefix=\"2026-10-\""},
		{iso, "2026-10-31", "", "begins_with(SK, :prefix)  :prefix=\"2026-10-31T\""},
		{iso, "< 2026-10-31T12:00Z", "", "SK BETWEEN :lo AND :hi  :lo=\"0001-01-01T00:00:00Z\" :hi=\"2026-10-31T11:59:59Z\""},
		{iso, "> 2026-10-31T12:00+02:00", "", "SK BETWEEN :lo AND :hi  :lo=\"2026-10-31T10:01:00Z\" :hi=\"9999-12-31T23:59:59Z\""},
		{iso, "last 24h", "", "SK BETWEEN :lo AND :hi  :lo=\"2026-10-31T00:00:00Z\" :hi=\"2026-11-01T00:00:00Z\""},
		{blog, "2018-08", "amsg", "begins_with(SK, :prefix)  :prefix=\"amsg#2018-08-\""},
		{blog, "2018-08-29", "amsg#", "begins_with(SK, :prefix)  :prefix=\"amsg#2018-08-29:\""},
		{blog, "< 2018-08-29T12:00Z", "amsg", "SK BETWEEN :lo AND :hi  :lo=\"amsg#0001-01-01:00:00:00\" :hi=\"amsg#2018-08-29:11:59:59\""},
		{blog, ">= 2018-08-29T12:00Z", "amsg", "SK BETWEEN :lo AND :hi  :lo=\"amsg#2018-08-29:12:00:00\" :hi=\"amsg#9999-12-31:23:59:59\""},
		{leading, "2018-08-29", "", "begins_with(SK, :prefix)  :prefix=\"2018-08-29:\""},
		{leading, "<= 2018-08-29T12:00:00Z", "", "SK BETWEEN :lo AND :hi  :lo=\"0001-01-01:00:00:00\" :hi=\"2018-08-29:12:00:00#\\U0010ffff\""},
	} {
		r, err := ParseRange(tc.in, demoNow, time.UTC)
		if err != nil {
			t.Errorf("%s %q: %v", tc.enc.Name(), tc.in, err)
			continue
		}
		c, err := CompileRange(r, tc.enc, tc.prefix)
		if err != nil || cond(c) != tc.want {
			t.Errorf("%s %q prefix %q:\n got %s (%v)\nwant %s", tc.enc.Name(), tc.in, tc.prefix, cond(c), err, tc.want)
		}
	}
	// A legal N between two seconds is before the second after it, and
	// the request line's words read back as the same condition.
	for _, in := range []string{"< 1536019200", "< 2018-09-04T00:00:00.5Z", "<= 1536019200123", "> 2018-09-04"} {
		r, _ := ParseRange(in, demoNow, time.UTC)
		c, _ := CompileRange(r, seconds, "")
		if in == "< 1536019200" && (!condHolds(c, N("1536019199.5")) || condHolds(c, N("1536019200"))) {
			t.Errorf("%q is %s: 1536019199.5 must be in it, 1536019200 not", in, cond(c))
		}
		desc := DescribeCondition(c, seconds, time.UTC)
		r2, err := ParseRange(desc, demoNow, time.UTC)
		c2, _ := CompileRange(r2, seconds, "")
		if err != nil || cond(c2) != cond(c) {
			t.Errorf("%q is %s, said %q, read back as %s (%v)", in, cond(c), desc, cond(c2), err)
		}
	}
	// A template's fixed text and a prefix given beside it join on the
	// template's separator: never dropped, never doubled.
	for _, tc := range []struct{ format, prefix, want string }{
		{"A#{time}", "A", `begins_with(SK, :prefix)  :prefix="A#2021-07-07T"`},
		{"A#{time}", "A#", `begins_with(SK, :prefix)  :prefix="A#2021-07-07T"`},
		{"A#{time}", "", `begins_with(SK, :prefix)  :prefix="A#2021-07-07T"`},
		{"{any}#{time}", "A", `begins_with(SK, :prefix)  :prefix="A#2021-07-07T"`},
		{"{any}#{time}", "A#", `begins_with(SK, :prefix)  :prefix="A#2021-07-07T"`},
		{"P#{any}#{time}{any}", "P#512-777-7777", `begins_with(SK, :prefix)  :prefix="P#512-777-7777#2021-07-07T"`},
		{"admission#{time:epoch-ms}#{any}", "admission", `SK BETWEEN :lo AND :hi  :lo="admission#1625616000000" :hi="admission#1625702399999#\U0010ffff"`},
	} {
		e, _ := ParseTimeFormat(tc.format)
		e, _ = e.ForKey(false)
		e, _ = e.Resolve([]string{"A#2021-07-07T16:36:42", "P#512-777-7777#2021-07-07T16:36:42-D"})
		r, _ := ParseRange("2021-07-07", demoNow, time.UTC)
		c, err := CompileRange(r, e, tc.prefix)
		if err != nil || cond(c) != tc.want {
			t.Errorf("--sk-prefix %q --time-format %q: %s (%v), want %s", tc.prefix, tc.format, cond(c), err, tc.want)
		}
	}
	if _, err := CompileRange(TimeRange{Op: TimeGe, From: demoNow}, blog, ""); err == nil || !strings.Contains(err.Error(), "prefix") {
		t.Errorf("composite keys without a prefix: %v", err)
	}
}

func FuzzParseRange(f *testing.F) {
	for _, s := range []string{"last 15m", "today", "2018-08", "2018-08-29..2018-09-04", "< 2018-09-04T00:00Z", ">= 1536019200",
		"between 2018-08-29 and 2018-09-04", "2018-08-29:12:00:00", "last 1h30m"} {
		f.Add(s)
	}
	encs := []TimeEncoding{{Kind: EpochSeconds}, {Kind: EpochMillis}}
	for _, k := range []string{"2026-10-31T23:59:59Z", "amsg#2018-08-29:12:00:00", "2018-08-29:12:00:00#amsg", "2026-10"} {
		e, _ := DetectTime([]string{k}, false)
		encs = append(encs, e)
	}
	f.Fuzz(func(t *testing.T, in string) {
		r, err := ParseRange(in, demoNow, time.UTC)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if r.Op == TimeBetween && r.To.Before(r.From) {
			t.Fatalf("%q: to %v before from %v", in, r.To, r.From)
		}
		for _, e := range encs {
			c, err := CompileRange(r, e, "amsg")
			if err != nil {
				continue
			}
			if c.Op == SKBetween && e.Kind == TimeText && c.A.Text > c.B.Text && r.To.Sub(r.From) >= e.Unit() {
				t.Fatalf("%q on %s: empty BETWEEN %q..%q", in, e.Name(), c.A.Text, c.B.Text)
			}
		}
	})
}

func FuzzKeyTimeRoundTrip(f *testing.F) {
	for _, s := range []string{"2026-10-31T23:59:59Z", "amsg#2018-08-29:12:00:00", "2018-08-29:12:00:00#amsg", "2026-10-31T23:59:59.123+02:00", "2026-10",
		"00000000000000000000000001", "JFK#2021-08-01T07:25:00#250#0", "LOG#00000001790812800000", "EVT#2026-11-27T12:00:00.5Z#1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		e, ok := DetectTimeText(key)
		if !ok {
			return
		}
		tm, ok := e.KeyTime(key)
		if !ok {
			t.Fatalf("%q detected as %s but not read", key, e.Name())
		}
		if e.IsID() { // an id at its time lies between the instant's smallest and largest ids
			i, j, _, _ := e.Locate(key)
			if part := key[i:j]; part < e.Encode(tm) || part > e.EncodeLast(tm) {
				t.Fatalf("%q (%s): %q is outside %q..%q", key, e.Name(), part, e.Encode(tm), e.EncodeLast(tm))
			}
			return
		}
		enc := e.Encode(tm)
		if !strings.Contains(key, enc) {
			t.Fatalf("%q (%s): time encodes back as %q", key, e.Name(), enc)
		}
	})
}

func TestParseTimeFormat(t *testing.T) {
	for _, tc := range []struct {
		in   string
		ok   bool
		name string
	}{
		{"epoch-s", true, "epoch seconds"}, {"epoch-ms", true, "epoch milliseconds"}, {"epoch-us", true, "epoch microseconds"},
		{"2006-01-02T15:04:05Z07:00", true, "2006-01-02T15:04:05Z07:00"},
		{"prefix#2006-01-02:15:04:05", true, "prefix#2006-01-02:15:04:05"},
		{"2006-01-02:15:04:05#suffix", true, "2006-01-02:15:04:05#…"},
		{"seconds", false, ""}, {"", false, ""}, {"15:04", false, ""}, {"prefix#", false, ""},
	} {
		e, err := ParseTimeFormat(tc.in)
		if (err == nil) != tc.ok || (tc.ok && e.Name() != tc.name) {
			t.Errorf("%q: %q %v", tc.in, e.Name(), err)
		}
	}
}

func FuzzParseTimeFormat(f *testing.F) {
	for _, s := range []string{"epoch-s", "2006-01-02T15:04:05Z07:00", "prefix#2006-01-02:15:04:05", "2006-01-02#suffix", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseTimeFormat(s)
		if err != nil {
			return
		}
		// A format that parses writes a time it can read back.
		tm := time.Date(2018, 8, 29, 12, 0, 0, 0, time.UTC)
		key := e.Encode(tm)
		switch e.Place {
		case TimeAfter:
			key = "p" + e.Sep + key
		case TimeLeading:
			key += e.Sep + "s"
		}
		if _, ok := e.KeyTime(key); !ok {
			t.Fatalf("%q writes %q and cannot read it back", s, key)
		}
	})
}

// FuzzDetectTimeSample: whatever keys a table holds, detection either
// finds a form that most of them read as, naming the rest, or none; its
// note never carries a control character.
func FuzzDetectTimeSample(f *testing.F) {
	f.Add("2020-11-12T20:04:00\n2020-11-12T20:06:00\nMetadata", false)
	f.Add("WARNING1#2020-04-24T14:40:00\nNORMAL#2020-04-24T14:50:00", false)
	f.Add("1536019200\n1536019260\n7", true)
	f.Add("x\x1b[31m\n2020-01-01\n2020-01-02\n2020-01-03\n2020-01-04", false)
	f.Add("TW#1347566228076859393\nTW#1399651934008315907", false)
	f.Add("1664240374380609536\n1785640309355655177", true)
	f.Fuzz(func(t *testing.T, keys string, number bool) {
		sample := strings.Split(keys, "\n")
		d := DetectTimeSample(sample, number)
		if !d.OK {
			return
		}
		matched := len(sample) - len(d.Skipped)
		if !quorum(matched, len(sample)) || d.Total != len(sample) {
			t.Fatalf("%q: %d of %d matched, skipped %q", sample, matched, len(sample), d.Skipped)
		}
		for _, r := range d.Note() + ReadSnowflakes(d, sample, time.Date(2026, 11, 27, 17, 0, 0, 0, time.UTC)).Ambiguous {
			if r < 0x20 || r == 0x7f {
				t.Fatalf("note %q holds a control character", d.Note())
			}
		}
	})
}

// Keys counting time backwards (READING#<9999999999 − epoch seconds>,
// newest first in key order) are no time read forwards: they are told
// apart, and a range's key range runs from its last instant's key to its
// first's.
func TestDetectCountdown(t *testing.T) {
	at := time.Date(2024, 5, 6, 9, 27, 34, 0, time.UTC)
	key := func(t time.Time) string { return fmt.Sprintf("READING#%010d", 9999999999-t.Unix()) }
	keys := []string{"META", key(at), key(at.Add(time.Hour)), key(at.Add(-72 * time.Hour))}
	c, ok := DetectCountdown(keys)
	if !ok || c.Prefix != "READING#" || c.Width != 10 || c.Describe() != "READING#8285012345 is 9999999999 − 1714987654, 2024-05-06T09:27:34Z" {
		t.Fatalf("%v %+v %q", ok, c, c.Describe())
	}
	for _, tc := range []struct{ in, lo, hi string }{
		{"2024-05", "READING#8282800000", "READING#8285478399"},
		{"2024-05-06T09:27:34Z", "READING#8285012345", "READING#8285012345"},
		{"< 2024-05-06T09:27:34Z", "READING#8285012346", "READING#9999999999"},
		{"> 2024-05-06T09:27:34Z", "READING#0000000000", "READING#8285012344"},
	} {
		r, err := ParseRange(tc.in, at, time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi, ok := c.Between(r)
		if !ok || lo != tc.lo || hi != tc.hi {
			t.Errorf("%s: %q..%q %v, want %q..%q", tc.in, lo, hi, ok, tc.lo, tc.hi)
		}
	}
	for _, sample := range [][]string{
		{"READING#1714987654", "READING#1714987655"},              // forwards: epoch seconds
		{"ORDER#0000000001", "ORDER#0000000002"},                  // a sequence
		{"META", "PROFILE", "READING#8285012345"},                 // one key in three
		{"READING#8285012345#x", "READING#8285012346#y"},          // digits inside the key
		{"R#8285012345123", "R#8285012345124", "R#8285012345125"}, // milliseconds counted back: 2024
	} {
		c, ok := DetectCountdown(sample)
		if want := strings.HasPrefix(sample[0], "R#"); ok != want {
			t.Errorf("%v: %v %+v", sample, ok, c)
		}
	}
}

// TestDetectFractionsOfAnyLength: keys whose seconds' fractions vary in
// length (Go's RFC3339Nano, Java's Instant) are one form, read by a layout
// of any fraction, where they were several forms and none taken; keys of
// one length keep it, so bounds are written as they are.
func TestDetectFractionsOfAnyLength(t *testing.T) {
	for _, tc := range []struct {
		keys []string
		want string
	}{
		{[]string{"2026-11-27T12:00:00Z", "2026-11-27T12:00:00.5Z", "2026-11-27T12:00:01.123456Z"}, "2006-01-02T15:04:05.999999999Z07:00"},
		{[]string{"EVT#2026-11-27T12:00:00.12+01:00#1", "EVT#2026-11-27T12:00:00-05:00#2", "EVT#2026-11-27T12:00:00.123Z#3"}, "prefix#2006-01-02T15:04:05.999999999Z07:00#…"},
		{[]string{"20261127T120000Z", "20261127T120000.25Z", "20261127T120001Z"}, "20060102T150405.999999999Z0700"},
		{[]string{"2026-11-27T12:00:00.100Z", "2026-11-27T12:00:00.123Z"}, "2006-01-02T15:04:05.000Z07:00"},
		{[]string{"2026-11-27T12:00:00Z", "2026-11-27T12:00:01Z"}, "2006-01-02T15:04:05Z07:00"},
		// +00:00 beside Z and -05:00: one length of fraction (none), in several zones
		{[]string{"2026-02-28T17:42:42+02:00", "2026-03-05T13:21:42-05:00", "2026-03-05T14:19:42+00:00"}, "2006-01-02T15:04:05Z07:00"},
		{[]string{"2026-02-28T17:42:42.120+02:00", "2026-03-05T13:21:42.000-05:00", "2026-03-05T14:19:42.999+00:00"}, "2006-01-02T15:04:05.000Z07:00"},
	} {
		d := DetectTimeSample(tc.keys, false)
		if !d.OK || d.Enc.Name() != tc.want || len(d.Skipped) > 0 {
			t.Errorf("%v: %v %q (skipped %v), want %q", tc.keys, d.OK, d.Enc.Name(), d.Skipped, tc.want)
			continue
		}
		for _, k := range tc.keys {
			if _, ok := d.Enc.KeyTime(k); !ok {
				t.Errorf("%s: not read as %s", k, d.Enc.Name())
			}
		}
	}
	d := DetectTimeSample([]string{"2026-11-27T12:00:00Z", "2026-11-27T12:00:00.5Z"}, false)
	r, err := ParseRange("2026-11-27T12:00:00..2026-11-27T12:00:00", demoNow, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	c, err := CompileRange(r, d.Enc, "")
	if err != nil || c.Op != SKBetween || c.A.Text != "2026-11-27T12:00:00" || c.B.Text != "2026-11-27T12:00:00\U0010FFFF" {
		t.Errorf("one second: %+v %v, want every key of that second", c, err)
	}
	if got := d.Enc.Spoken(); strings.Contains(got, "999") || !strings.Contains(got, "fractions of a second of any length") {
		t.Errorf("said %q", got)
	}
}
