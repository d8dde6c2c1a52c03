package cli

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
)

func rangeLines(t *testing.T, args ...string) ([]map[string]any, string) {
	t.Helper()
	out, stderr := mustRun(t, append([]string{"range", "--demo"}, args...)...)
	var items []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var it map[string]any
		if err := json.Unmarshal([]byte(l), &it); err != nil {
			t.Fatalf("%v: %q", err, l)
		}
		items = append(items, it)
	}
	return items, stderr
}

// TestRangeSeedExample: the seed's query as written returns the device's
// first two records, newest first, as written: Timestamp < 1536019200, no
// lower bound invented (a key of 1536019199.5 is before it too), in the
// request line and in the aws command that reproduces it. The device's
// three records are held by the detection's one read, which answers it:
// DescribeTable and that Query, no third request.
func TestRangeSeedExample(t *testing.T) {
	items, stderr := rangeLines(t, "--table", "DeviceLogs", "--pk", "123", "--before", "1536019200", "--output", "jsonl")
	if len(items) != 2 || items[0]["Timestamp"] != float64(1535544000) || items[1]["Timestamp"] != float64(1310216400) {
		t.Fatalf("items %v", items)
	}
	for _, want := range []string{"Timestamp < :sk", ":pk=123 :sk=1536019200", "epoch seconds", "requests=2", "consumedRCU="} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q: %s", want, stderr)
		}
	}
	items, _ = rangeLines(t, "--table", "DeviceLogs", "--pk", "123", "--before", "1536019200", "--oldest-first")
	if len(items) != 2 || items[0]["Timestamp"] != float64(1310216400) {
		t.Fatalf("oldest first: %v", items)
	}
}

func TestRangeEncodings(t *testing.T) {
	for _, tc := range []struct {
		args []string
		n    int
		cond string
	}{
		{[]string{"--table", "ChatMessages", "--pk", "portland", "--sk-prefix", "amsg", "--at", "2018-08"}, 1, `begins_with(MessageID, :prefix)`},
		{[]string{"--table", "AuditLog", "--pk", "prod-api", "--at", "2026-10-31", "--limit", "5"}, 5, `:prefix="2026-10-31T"`},
		{[]string{"--table", "Metrics", "--pk", "cpu.web-1", "--last", "24h", "--limit", "50"}, 50, `TS BETWEEN :lo AND :hi   :pk="cpu.web-1" :lo=1793404800000 :hi=1793491200000`}, // a span ends now
		{[]string{"--table", "DeviceLogs", "--pk", "9000", "--from", "2026-10-01", "--to", "2026-10-01T00:10Z"}, -1, "BETWEEN :lo AND :hi   :pk=9000 :lo=1790812800 :hi=1790813459"},
		{[]string{"--table", "ChatMessages", "--index", "ByTime", "--pk", "seattle-1", "--after", "2018-08-01", "--limit", "3"}, 3, `TimeUser BETWEEN :lo AND :hi   :pk="seattle-1" :lo="2018-08-02:00:00:00"`},
	} {
		items, stderr := rangeLines(t, tc.args...)
		if (tc.n >= 0 && len(items) != tc.n) || !strings.Contains(stderr, tc.cond) {
			t.Errorf("%v: %d items, %s", tc.args, len(items), stderr)
		}
	}
}

func TestRangeBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--table", "DeviceLogs", "--pk", "123"}, 2, "no time range"},
		{[]string{"--table", "DeviceLogs", "--pk", "123", "--last", "15x"}, 2, "not a span"},
		{[]string{"--table", "DeviceLogs", "--pk", "123", "--last", "1h", "--at", "2018"}, 2, "more than one"},
		{[]string{"--table", "DeviceLogs", "--pk", "123", "--from", "2018-01-01"}, 2, "--to"},
		{[]string{"--table", "DeviceLogs", "--pk", "123", "--at", "2018-02-30"}, 2, "not a time"},
		{[]string{"--table", "VersionTimes", "--pk", "Equipment#1", "--last", "1h", "--time-format", "2006-01-02"}, 2, `--time-format "2006-01-02" matches none of the 40 keys of SK read (tried "Metadata"); detection reads them as 2006-01-02T15:04:05 (such as "2020-11-12T22:02:00") — --time-format '{time:2006-01-02T15:04:05}' matches them; or leave it out`},
		{[]string{"--table", "StateLog", "--pk", "d#12345", "--last", "1h", "--time-format", "epoch-ms"}, 2, `--time-format "epoch-ms" matches none of the 40 keys of State#Date read (tried "WARNING3#2020-04-25T19:00:00"); detection reads them as prefix#2006-01-02T15:04:05 (such as "WARNING3#2020-04-25T19:00:00") — --time-format '{any}#{time:2006-01-02T15:04:05}' matches them`},
		{[]string{"--table", "DeviceLogs", "--pk", "123", "--last", "1h", "--time-format", "2006-01-02"}, 2, `--time-format "2006-01-02" does not fit Timestamp`},
		{[]string{"--table", "StateLog", "--index", "Nope", "--pk", "Sara", "--last", "1h"}, 2, "table StateLog has no index \"Nope\" — check --index; it has EscalatedTo"},
		{[]string{"--table", "Locations", "--pk", "USA", "--last", "1h"}, 2, "range: the 40 sort keys of SK sampled here hold no time this tool recognises; they read as WY#WESTHAVEN#{n}#{n} (12), "},
		{[]string{"--table", "Locations", "--pk", "USA", "--last", "1h"}, 2, " — check --pk and --sk-prefix, or give --time-format (or time_format in the configuration)"},
		{[]string{"--table", "DeviceLogs", "--pk", "123", "--at", "2018-09-04T00:00:00.5Z"}, 2, "whole seconds"},
	} {
		_, stderr, code := cli(t, append([]string{"range", "--demo"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: code %d, stderr %q", tc.args, code, stderr)
		}
	}
}

// TestRangeWithoutSortKey: no sort key, no time to range over: exit 2
// (not a failed read), saying to run items.
func TestRangeWithoutSortKey(t *testing.T) { checkHashOnly(t, "range", "--last", "1h") }

// TestRangeBinarySortKey: a binary sort key (UUIDv7 bytes, written as
// boto3 writes bytes) holds no time range reads: exit 2 in one line,
// saying to run items; it said the partition "has no keys".
func TestRangeBinarySortKey(t *testing.T) {
	srv := dynalitetest.Shared(t)
	isolateAWS(t)
	c := srv.Client()
	createTable(t, c, "BinaryTimes", "SK", types.ScalarAttributeTypeB)
	var reqs []types.WriteRequest
	for i := range 30 {
		id := []byte{0x01, 0x8b, 0xcf, 0xe5, 0x68, byte(i), 0x70, 0, 0x80, 1, 2, 3, 4, 5, 6, byte(i)}
		reqs = append(reqs, put(map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "device-1"}, "SK": &types.AttributeValueMemberB{Value: id}}))
	}
	batchWrite(t, c, "BinaryTimes", reqs)
	out, stderr, code := cli(t, "range", "--endpoint-url", srv.Endpoint, "--region", "us-east-1", "--table", "BinaryTimes", "--pk", "device-1", "--after", "2023-11-15T00:00:00Z", "--output", "jsonl")
	if code != 2 || out != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 ||
		!strings.Contains(stderr, "has a binary sort key (SK), and no time format reads bytes") || !strings.Contains(stderr, "dynascope items ") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// TestRangeMergesPrefixes: STATE#time keys without --sk-prefix are read
// as one range across every state, newest first, with the cost said.
func TestRangeMergesPrefixes(t *testing.T) {
	items, stderr := rangeLines(t, "--table", "StateLog", "--pk", "d#12345", "--at", "2020-04-24", "--limit", "10")
	if len(items) != 10 {
		t.Fatalf("%d items: %s", len(items), stderr)
	}
	states := map[string]bool{}
	for i, it := range items {
		k := it["State#Date"].(string)
		states[k[:strings.Index(k, "#")]] = true
		if i > 0 && k[strings.Index(k, "#"):] > items[i-1]["State#Date"].(string)[strings.Index(items[i-1]["State#Date"].(string), "#"):] {
			t.Errorf("not newest first: %s after %s", k, items[i-1]["State#Date"])
		}
	}
	if len(states) < 3 {
		t.Errorf("only %v among the newest ten", states)
	}
	// 4 (11 / 5.0 RCU when each prefix had its own Query from the
	// start, 9 / 4.5 when a walk found the prefixes, 5 / 2.5 when the
	// page read the sample's newest keys again): the table's description,
	// the detection sample (the newest and oldest 20 keys, which agree on
	// one form: 2, where sampling the prefixes between them made 7), and
	// one page of the partition past the sample's newest items (newest
	// first, sized to what the walk and one Query a prefix cost at
	// least), which held three prefixes' ranges whole, met the oldest
	// keys' prefix, so naming all four with no walk, and read into the
	// fourth's far enough for the ten items.
	for _, want := range []string{`4 prefixes merged by time ("NORMAL# WARNING1# WARNING2# WARNING3#")`, "10 items, 1 page", "requests=4 consumedRCU=2.0", "finding the prefixes: 0 requests"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q: %s", want, stderr)
		}
	}
	// On the index keyed EscalatedTo / State#Date too, oldest first.
	items, stderr = rangeLines(t, "--table", "StateLog", "--index", "EscalatedTo", "--pk", "Sara", "--at", "2020-04", "--oldest-first")
	if len(items) < 5 || !strings.Contains(stderr, "prefixes merged by time") {
		t.Fatalf("index: %d items: %s", len(items), stderr)
	}
	for i := 1; i < len(items); i++ {
		a, b := items[i-1]["State#Date"].(string), items[i]["State#Date"].(string)
		if a[strings.Index(a, "#"):] > b[strings.Index(b, "#"):] {
			t.Errorf("index not oldest first: %s before %s", a, b)
		}
	}
}

// TestRangeNamesAFewOfManyPrefixes: a range merged across many prefixes
// names the first eight and counts the rest; it named every one, a line
// as long as the partition has prefixes. On dynalite and the embedded
// backend.
func TestRangeNamesAFewOfManyPrefixes(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	var items []map[string]types.AttributeValue
	for i := range 12 {
		items = append(items, av("PK", "m", "SK", fmt.Sprintf("P%02d#2026-03-05T%02d:00:00Z", i, i)))
	}
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			out, stderr := mustRun(t, append([]string{"range", "--table", table, "--pk", "m", "--at", "2026-03-05"}, conn...)...)
			if n := strings.Count(out, "\n"); n != 12 {
				t.Errorf("%d items, want 12: %s", n, stderr)
			}
			if want := `12 prefixes merged by time ("P00# P01# P02# P03# P04# P05# P06# P07# … and 4 more")`; !strings.Contains(stderr, want) {
				t.Errorf("stderr lacks %q: %s", want, stderr)
			}
		})
	}
}

// TestRangeBesideMetadata: a Metadata item beside ISO times is skipped,
// said once on stderr, and never listed.
// TestRangeKeysInSeveralOffsets: ISO keys written in several UTC offsets
// are one form (a key ending +00:00 is no "key that is not a time"), and
// a day's range holds each key whose instant is on that day, whatever
// offset it is written in (2026-03-04T23:00:00-05:00 is 2026-03-05 04:00
// UTC), and none other (2026-03-06T10:00:00+05:30 is the 6th, 04:30
// UTC): on dynalite and the embedded backend.
func TestRangeKeysInSeveralOffsets(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	var items []map[string]types.AttributeValue
	for _, k := range []string{"2026-03-04T23:00:00-05:00", "2026-03-05T13:21:42-05:00", "2026-03-05T14:19:42+00:00", "2026-03-06T10:00:00+05:30", "2026-03-07T01:00:00+02:00"} {
		items = append(items, av("PK", "E", "SK", k))
	}
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				args []string
				want string
			}{
				{nil, "2026-03-05T13:21:42-05:00 2026-03-05T14:19:42+00:00 2026-03-04T23:00:00-05:00"}, // 18:21, 14:19, 04:00 UTC
				{[]string{"--oldest-first"}, "2026-03-04T23:00:00-05:00 2026-03-05T14:19:42+00:00 2026-03-05T13:21:42-05:00"},
				{[]string{"--limit", "2"}, "2026-03-05T13:21:42-05:00 2026-03-05T14:19:42+00:00"},
				{[]string{"--output", "csv"}, "2026-03-05T13:21:42-05:00 2026-03-05T14:19:42+00:00 2026-03-04T23:00:00-05:00"},
			} {
				out, stderr := mustRun(t, append(append([]string{"range", "--table", table, "--pk", "E", "--at", "2026-03-05"}, tc.args...), conn...)...)
				var got []string
				for i, l := range strings.Split(strings.TrimSpace(out), "\n") {
					if slices.Contains(tc.args, "csv") {
						if i > 0 {
							got = append(got, strings.Split(l, ",")[1])
						}
						continue
					}
					var it map[string]any
					if err := json.Unmarshal([]byte(l), &it); err != nil {
						t.Fatalf("%v: %q", err, l)
					}
					got = append(got, it["SK"].(string))
				}
				if strings.Join(got, " ") != tc.want {
					t.Errorf("%v: items %q, want %s\n%s", tc.args, got, tc.want, stderr)
				}
				if strings.Contains(stderr, "not a time") {
					t.Errorf("a key in another offset said to be no time: %s", stderr)
				}
				if !strings.Contains(stderr, " in time order (keys in UTC offsets up to 10h30m apart: read ±10h30m, ") {
					t.Errorf("%v: the order is not said: %s", tc.args, stderr)
				}
			}
		})
	}
}

// TestRangeTimeAfterAMarkOutsideASCII: a time after § or → (evt§2018-…,
// a→2018-08-29→3) was "no time this tool recognises": only ASCII marks
// could come before one. The ranges hold what the keys' times say, with
// --sk-prefix too. On dynalite and the embedded backend.
func TestRangeTimeAfterAMarkOutsideASCII(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	base := time.Date(2018, 8, 29, 12, 0, 0, 0, time.UTC)
	var items []map[string]types.AttributeValue
	for i := range 60 {
		at := base.Add(time.Duration(i) * 13 * time.Hour)
		items = append(items, av("PK", "SECT", "SK", "evt§"+at.Format(time.RFC3339)), av("PK", "ARROW", "SK", []string{"a→", "b→"}[i%2]+at.Format("2006-01-02T15:04:05")+fmt.Sprintf("→%d", i)))
	}
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				pk   string
				args []string
				want int // items: base + 13h·i falls in 2018-09-01…04 for i 5 to 11
			}{
				{"SECT", []string{"--from", "2018-09-01", "--to", "2018-09-04"}, 7},
				{"SECT", []string{"--at", "2018-08"}, 5},
				{"SECT", []string{"--before", "2018-09-04", "--sk-prefix", "evt§"}, 11},
				{"ARROW", []string{"--from", "2018-09-01", "--to", "2018-09-04"}, 7},
				{"ARROW", []string{"--at", "2018-08", "--sk-prefix", "a→"}, 3},
			} {
				out, stderr := mustRun(t, append(append([]string{"range", "--table", table, "--pk", tc.pk}, tc.args...), conn...)...)
				if got := len(sortKeysOut(t, out)); got != tc.want {
					t.Errorf("%s %v: %d items, want %d\n%s", tc.pk, tc.args, got, tc.want, stderr)
				}
			}
		})
	}
}

// TestRangeKeysInTwoEpochUnits: a number sort key holding epoch seconds
// and epoch milliseconds side by side is refused as times in two forms,
// naming both, never as "no time"; --time-format picks one, and its
// ranges hold only the keys in it. On dynalite and the embedded backend.
func TestRangeKeysInTwoEpochUnits(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	const base = 1700000000 // 2023-11-14T22:13:20Z
	var items []map[string]types.AttributeValue
	var reqs []types.WriteRequest
	for i := range 20 {
		sk := strconv.Itoa(base + i*3600)
		if i%2 == 1 {
			sk = strconv.Itoa((base+i*3600)*1000 + i)
		}
		items = append(items, map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberN{Value: sk}})
		reqs = append(reqs, put(items[i]))
	}
	srv := dynalitetest.Shared(t)
	table := fmt.Sprintf("TwoEpochs-%d", time.Now().UnixNano())
	createTable(t, srv.Client(), table, "SK", types.ScalarAttributeTypeN)
	batchWrite(t, srv.Client(), table, reqs)
	backends := map[string][]string{
		"dynalite": {"--endpoint-url", srv.Endpoint, "--region", "us-east-1"},
		"memory":   {"--data", diffDataFile(t, table, items), "--keys", "PK:S,SK:N"},
	}
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			out, stderr, code := cli(t, append([]string{"range", "--table", table, "--pk", "p", "--at", "2023-11-15"}, conn...)...)
			if code != exitUsage || out != "" || !strings.Contains(stderr, "hold times in more than one form") ||
				!strings.Contains(stderr, "epoch-s") || !strings.Contains(stderr, "epoch-ms") || strings.Contains(stderr, "no time") {
				t.Errorf("exit %d, stdout %q: %s", code, out, stderr)
			}
			out, stderr = mustRun(t, append([]string{"range", "--table", table, "--pk", "p", "--at", "2023-11-15", "--time-format", "epoch-ms", "--oldest-first"}, conn...)...)
			keys := sortKeysOut(t, out)
			// The keys in milliseconds on the 15th: i = 3, 5 … 19.
			want := "1700010800003 1700018000005 1700025200007 1700032400009 1700039600011 1700046800013 1700054000015 1700061200017 1700068400019"
			if strings.Join(keys, " ") != want {
				t.Errorf("epoch-ms: %v, want %s\n%s", keys, want, stderr)
			}
		})
	}
}

// TestRangeTimesInOneFormAmongOtherKeys: a small customer's partition
// (a profile, a contract's revisions, seven orders keyed
// STATUS#time#id) holds times in one form under two prefixes, in too few
// of its keys for two thirds of them. It was refused ("only 7 of the 12
// sort keys … hold a time"), though one profile beside many orders is a
// single-table design's normal partition: the prefixes decide, PLACED#
// and DELIVERED# holding a time in every key, PROFILE and the revisions
// none, so the range lists the orders in it, naming on stderr the
// prefixes left out; --time-format reads the same. On dynalite and the
// embedded backend.
func TestRangeTimesInOneFormAmongOtherKeys(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	keys := []string{"PROFILE", "v0_Contract", "v1_Contract", "v2_Contract", "v3_Contract",
		"PLACED#2018-03-06T05:42:00#ORD00005", "PLACED#2018-03-06T13:29:00#ORD00003", "PLACED#2018-11-02T08:00:00#ORD00007", "PLACED#2019-01-09T10:10:00#ORD00001",
		"DELIVERED#2018-03-28T08:46:00#ORD00002", "DELIVERED#2018-07-14T19:01:00#ORD00004", "DELIVERED#2017-12-30T23:59:00#ORD00006"}
	var items []map[string]types.AttributeValue
	for _, k := range keys {
		items = append(items, av("PK", "CUSTOMER#c0003", "SK", k))
	}
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			want := "PLACED#2018-11-02T08:00:00#ORD00007 DELIVERED#2018-07-14T19:01:00#ORD00004 DELIVERED#2018-03-28T08:46:00#ORD00002 PLACED#2018-03-06T13:29:00#ORD00003 PLACED#2018-03-06T05:42:00#ORD00005"
			out, stderr := mustRun(t, append([]string{"range", "--table", table, "--pk", "CUSTOMER#c0003", "--at", "2018"}, conn...)...)
			if got := sortKeysOut(t, out); strings.Join(got, " ") != want ||
				!strings.Contains(stderr, "5 prefixes of the keys sampled hold no time: PROFILE, v0_Contract, v1_Contract, v2_Contract, v3_Contract: left out of ranges") ||
				!strings.Contains(stderr, `2 prefixes merged by time ("DELIVERED# PLACED#")`) {
				t.Errorf("%v, want %s\n%s", got, want, stderr)
			}
			out, stderr = mustRun(t, append([]string{"range", "--table", table, "--pk", "CUSTOMER#c0003", "--at", "2018", "--time-format", "2006-01-02T15:04:05"}, conn...)...)
			if got := sortKeysOut(t, out); strings.Join(got, " ") != want {
				t.Errorf("--time-format: %v, want %s\n%s", got, want, stderr)
			}
		})
	}
}

// TestRangeSKPrefixShortOfTheTime: ElectroDB writes a sensor's readings
// $sensor#reading_1#at_<epoch ms> beside its alarms
// $sensor#alarm_1#raisedat_<epoch ms>. --sk-prefix '$sensor#reading_1',
// a prefix of every reading that stops before #at_, wrote the bounds
// $sensor#reading_1_<ms> that no key holds: a month listed nothing,
// exit 0. The bounds follow the text the time follows in the keys under
// the prefix; a prefix under which the time follows two texts
// ('$sensor#') is refused, naming them. On dynalite and the embedded
// backend.
func TestRangeSKPrefixShortOfTheTime(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	start := time.Date(2025, 2, 20, 0, 0, 0, 0, time.UTC)
	var items []map[string]types.AttributeValue
	var march []string
	for i := range 12 {
		at := start.Add(time.Duration(i) * 5 * 24 * time.Hour)
		sk := fmt.Sprintf("$sensor#reading_1#at_%d", at.UnixMilli())
		items = append(items, av("PK", "$iot#sensor_sn0", "SK", sk), av("PK", "$iot#sensor_sn0", "SK", fmt.Sprintf("$sensor#alarm_1#raisedat_%d", at.UnixMilli()+1)))
		if at.Month() == time.March {
			march = append([]string{sk}, march...)
		}
	}
	items = append(items, av("PK", "$iot#sensor_sn0", "SK", "$sensor#sensor_1"))
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			for _, prefix := range []string{"$sensor#reading_1#at", "$sensor#reading_1"} {
				out, stderr := mustRun(t, append([]string{"range", "--table", table, "--pk", "$iot#sensor_sn0", "--sk-prefix", prefix, "--at", "2025-03"}, conn...)...)
				if got := sortKeysOut(t, out); strings.Join(got, " ") != strings.Join(march, " ") || len(march) != 6 {
					t.Errorf("--sk-prefix %s: %v, want %v\n%s", prefix, got, march, stderr)
				}
			}
			out, stderr, code := cli(t, append([]string{"range", "--table", table, "--pk", "$iot#sensor_sn0", "--sk-prefix", "$sensor#", "--at", "2025-03"}, conn...)...)
			if code != exitUsage || out != "" || !strings.Contains(stderr, "under --sk-prefix the time follows 2 different texts: ") ||
				!strings.Contains(stderr, `'$sensor#reading_1#at'`) || !strings.Contains(stderr, `'$sensor#alarm_1#raisedat'`) {
				t.Errorf("--sk-prefix '$sensor#': exit %d, stdout %q: %s", code, out, stderr)
			}
		})
	}
}

// TestRangeTwoEpochFormsByPrefix: a device's partition, as boto3 code
// writes it, holds readings keyed READING#<epoch ms> beside alarms keyed
// ALARM#<epoch s> and its META item; ElectroDB's the same under
// $sensor#reading_1#at_ and $sensor#alarm_1#raiseds_. Without
// --sk-prefix both were refused as "times in more than one form"; each
// prefix is read in its own form, the month's readings and alarms merged
// by time, newest first, the item holding no time named on stderr. On
// dynalite and the embedded backend.
func TestRangeTwoEpochFormsByPrefix(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	start := time.Date(2025, 2, 20, 0, 0, 0, 0, time.UTC)
	for _, shape := range []struct{ pk, reading, alarm, meta, timeless string }{
		{"DEVICE#d1", "READING#", "ALARM#", "META", "META"},
		{"$iot#sensor_sn0", "$sensor#reading_1#at_", "$sensor#alarm_1#raiseds_", "$sensor#sensor_1", "$sensor#sensor_"},
	} {
		var items []map[string]types.AttributeValue
		type keyed struct {
			at time.Time
			sk string
		}
		var march []keyed
		for i := range 16 {
			at := start.Add(time.Duration(i) * 61 * time.Hour * 2)
			alarm := at.Add(17 * time.Hour).Truncate(time.Second)
			r, a := fmt.Sprintf("%s%d", shape.reading, at.UnixMilli()+7), fmt.Sprintf("%s%d", shape.alarm, alarm.Unix())
			items = append(items, av("PK", shape.pk, "SK", r), av("PK", shape.pk, "SK", a))
			for _, k := range []keyed{{at, r}, {alarm, a}} {
				if k.at.Month() == time.March {
					march = append(march, k)
				}
			}
		}
		items = append(items, av("PK", shape.pk, "SK", shape.meta))
		slices.SortFunc(march, func(a, b keyed) int { return b.at.Compare(a.at) })
		var want []string
		for _, k := range march {
			want = append(want, k.sk)
		}
		table, backends := bothBackends(t, items)
		for name, conn := range backends {
			t.Run(shape.pk+"/"+name, func(t *testing.T) {
				out, stderr := mustRun(t, append([]string{"range", "--table", table, "--pk", shape.pk, "--at", "2025-03"}, conn...)...)
				if got := sortKeysOut(t, out); strings.Join(got, " ") != strings.Join(want, " ") || len(want) < 10 ||
					!strings.Contains(stderr, "1 prefix of the keys sampled holds no time: "+shape.timeless+": left out of ranges") ||
					!strings.Contains(stderr, "2 prefixes merged by time") {
					t.Errorf("%v, want %v\n%s", got, want, stderr)
				}
			})
		}
	}
}

// TestRangeTwoEpochFormsUnsampledPrefix: the newest keys are readings
// (epoch ms), the oldest alarms (epoch s), and between them, read by
// neither end of the sample, a prefix of battery readings: the range is
// not read across the two forms seen as if they were all (the batteries
// silently left out), but refused, naming the prefix whose form is not
// known, which --sk-prefix reads. On dynalite and the embedded backend.
func TestRangeTwoEpochFormsUnsampledPrefix(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	start := time.Date(2025, 2, 20, 0, 0, 0, 0, time.UTC)
	items := []map[string]types.AttributeValue{av("PK", "DEVICE#d2", "SK", "META")}
	for i := range 25 {
		at := start.Add(time.Duration(i) * 50 * time.Hour)
		items = append(items, av("PK", "DEVICE#d2", "SK", fmt.Sprintf("READING#%d", at.UnixMilli())), av("PK", "DEVICE#d2", "SK", fmt.Sprintf("ALARM#%d", at.Unix()+60)))
		if i >= 10 && i < 15 { // 2025-03-12 to 2025-03-21
			items = append(items, av("PK", "DEVICE#d2", "SK", fmt.Sprintf("BATTERY#%d", at.UnixMilli()+5)))
		}
	}
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			out, stderr, code := cli(t, append([]string{"range", "--table", table, "--pk", "DEVICE#d2", "--at", "2025-03"}, conn...)...)
			if code != exitUsage || out != "" || !strings.Contains(stderr, `no time form is known for the keys under "BATTERY#"`) {
				t.Errorf("exit %d, stdout %q: %s", code, out, stderr)
			}
			out, stderr = mustRun(t, append([]string{"range", "--table", table, "--pk", "DEVICE#d2", "--at", "2025-03", "--sk-prefix", "BATTERY#"}, conn...)...)
			if got := sortKeysOut(t, out); len(got) != 5 {
				t.Errorf("--sk-prefix BATTERY#: %v\n%s", got, stderr)
			}
		})
	}
}

// TestRangeTimeOrderedIdsAmongOtherKeys (issue 39, a chat app): a room's
// partition holds its messages keyed MSG#<ULID> beside its members and
// its META item, fewer messages than two thirds of its keys. The refusal
// said the keys "hold no time this tool recognises", then that too few
// held one; by its prefixes (MSG# all ULIDs, MEMBER# and META none) the
// range lists the month's messages, naming the prefixes left out, as
// --sk-prefix 'MSG#' and --time-format ulid do. On dynalite and the
// embedded backend.
func TestRangeTimeOrderedIdsAmongOtherKeys(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	keys := []string{"META", "MEMBER#user000", "MEMBER#user001", "MEMBER#user002", "MEMBER#user003", "MEMBER#user004", "MEMBER#user005", "MEMBER#user006",
		"MSG#01HWWA79E0F8QY40YGECYYS9E9", // 2024-05-02T09:30:00Z
		"MSG#01HXW4EX70R04A2K1HYRVSW8Q6", // 2024-05-14T18:05:00Z
		"MSG#01HZ8HFAD028ZDGVKTRPTEN1HA", // 2024-05-31T23:59:00Z
		"MSG#01HZ8HH5Z8M6DHJ74YY5P4T91J", // 2024-06-01T00:00:01Z
		"MSG#01HWRQ6V0RVT722RNHF2K0462C", // 2024-04-30T23:59:59Z
		"MSG#01HJCHY500TJG92NMQ8RRXR6HV", // 2023-12-24T00:00:00Z
		"MSG#01HYAXYWG0FKVGKN0TM1R83NXP", // 2024-05-20T12:00:00Z
	}
	var items []map[string]types.AttributeValue
	for _, k := range keys {
		items = append(items, av("PK", "ROOM#r05", "SK", k))
	}
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			// Unasked, and both ways named by hand, the month's messages.
			for _, way := range [][]string{nil, {"--time-format", "ulid"}, {"--sk-prefix", "MSG#"}} {
				out, stderr := mustRun(t, append(append([]string{"range", "--table", table, "--pk", "ROOM#r05", "--at", "2024-05"}, way...), conn...)...)
				got := sortKeysOut(t, out)
				want := "MSG#01HZ8HFAD028ZDGVKTRPTEN1HA MSG#01HYAXYWG0FKVGKN0TM1R83NXP MSG#01HXW4EX70R04A2K1HYRVSW8Q6 MSG#01HWWA79E0F8QY40YGECYYS9E9"
				if strings.Join(got, " ") != want || way == nil && !strings.Contains(stderr, "2 prefixes of the keys sampled hold no time: MEMBER#, META: left out of ranges") {
					t.Errorf("%v: %v, want %s\n%s", way, got, want, stderr)
				}
			}
		})
	}
}

// TestRangeLeavesOutAPrefixReadWholeWithoutTime: onetable's account#
// beside 300 Event#{time} and 200 invoice#{time}#{ulid}, between the
// sample's newest and oldest keys: the walk for the prefixes reads
// account# whole with no time in it; the range queries the two that hold
// one (it queried account# too, for nothing) and says account# is left
// out. On dynalite and the embedded backend.
func TestRangeLeavesOutAPrefixReadWholeWithoutTime(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	items := []map[string]types.AttributeValue{av("PK", "u1", "SK", "account#")}
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 300 {
		items = append(items, av("PK", "u1", "SK", "Event#"+t0.Add(time.Duration(7*i)*time.Hour).Format(time.RFC3339)))
	}
	for i := range 200 {
		items = append(items, av("PK", "u1", "SK", fmt.Sprintf("invoice#%s#01JNQ3M8X%dABCDEFGHJKMNPQS", t0.Add(time.Duration(11*i)*time.Hour).Format(time.RFC3339), i%10)))
	}
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			_, stderr := mustRun(t, append([]string{"range", "--table", table, "--pk", "u1", "--at", "2025-02"}, conn...)...)
			if !strings.Contains(stderr, "1 prefix read whole holds no time: account#: left out of ranges") ||
				!strings.Contains(stderr, `2 prefixes merged by time ("Event# invoice#")`) {
				t.Errorf("account# queried, or not said to be left out:\n%s", stderr)
			}
		})
	}
}

// TestRangeSnowflakesOfTwoWidths: Snowflake ids made before mid-2018
// have 18 digits, later ones 19, and as text the two sort apart. With
// --time-format snowflake the bounds were written at 19 digits, so a
// range in 2015 exited 2 ("these keys' times begin at 2018-05-25"). The
// bounds are as wide as the keys the range can hold; a range holding
// both widths is refused in one line saying where they meet. On dynalite
// and the embedded backend.
func TestRangeSnowflakesOfTwoWidths(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	id := func(at string, seq int64) string {
		tm, _ := time.Parse(time.RFC3339, at)
		return "POST#" + strconv.FormatInt((tm.UnixMilli()-1288834974657)<<22|seq, 10)
	}
	items := []map[string]types.AttributeValue{av("PK", "USER#u0", "SK", "PROFILE")}
	for i, at := range []string{"2012-03-01T12:00:00Z", "2015-05-01T12:00:00Z", "2015-05-20T12:00:00Z", "2015-06-01T12:00:00Z", "2018-05-01T12:00:00Z",
		"2019-01-01T12:00:00Z", "2024-05-01T12:00:00Z", "2024-05-20T12:00:00Z", "2024-06-01T12:00:00Z"} {
		items = append(items, av("PK", "USER#u0", "SK", id(at, int64(i))))
	}
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				args []string
				want string
			}{
				{[]string{"--at", "2015-05"}, id("2015-05-20T12:00:00Z", 2) + " " + id("2015-05-01T12:00:00Z", 1)},
				{[]string{"--at", "2024-05"}, id("2024-05-20T12:00:00Z", 7) + " " + id("2024-05-01T12:00:00Z", 6)},
				{[]string{"--before", "2015-05-02", "--sk-prefix", "POST#"}, id("2015-05-01T12:00:00Z", 1) + " " + id("2012-03-01T12:00:00Z", 0)},
				{[]string{"--after", "2018-12-31", "--oldest-first", "--limit", "2"}, id("2019-01-01T12:00:00Z", 5) + " " + id("2024-05-01T12:00:00Z", 6)},
			} {
				out, stderr, code := cli(t, append(append([]string{"range", "--table", table, "--pk", "USER#u0", "--time-format", "snowflake"}, tc.args...), conn...)...)
				if got := strings.Join(sortKeysOut(t, out), " "); code != 0 || got != tc.want {
					t.Errorf("%v: exit %d, %s, want %s\n%s", tc.args, code, got, tc.want, stderr)
				}
			}
			out, stderr, code := cli(t, append([]string{"range", "--table", table, "--pk", "USER#u0", "--time-format", "snowflake", "--at", "2018"}, conn...)...)
			if code != exitUsage || out != "" || strings.Count(stderr, "dynascope: ") != 1 || !strings.Contains(stderr, "Snowflake ids of 18 and 19 digits, which sort apart as text (18 digits until 2018-05-25T13:05:53Z, 19 after)") {
				t.Errorf("a range holding both widths: exit %d, stdout %q: %s", code, out, stderr)
			}
		})
	}
}

// TestRangeSaysDiscordIdsReadAsNanoseconds: Discord's message ids of
// 2024 are 19 digits, which detection reads as epoch nanoseconds of 2009,
// without a word. range keeps that reading (nanoseconds are as likely)
// and says on stderr that Discord ids would read otherwise, and how;
// --time-format discord reads them so, and is told nothing. On dynalite
// and the embedded backend.
func TestRangeSaysDiscordIdsReadAsNanoseconds(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	id := func(at string, seq int64) string {
		tm, _ := time.Parse(time.RFC3339, at)
		return "MSG#" + strconv.FormatInt((tm.UnixMilli()-1420070400000)<<22|seq, 10)
	}
	var items []map[string]types.AttributeValue
	for i, at := range []string{"2024-05-01T12:00:00Z", "2024-05-20T12:00:00Z", "2024-06-01T12:00:00Z"} {
		items = append(items, av("PK", "CH#1", "SK", id(at, int64(i))))
	}
	table, backends := bothBackends(t, items)
	// As nanoseconds they stand before DynamoDB's launch, and as X's
	// (Twitter's) ids in 2020: the note names both other readings.
	note := "read as epoch nanoseconds (2009-02…2009-07); if these are X (Twitter) ids (2020-03…2020-04), use --time-format snowflake; if these are Discord ids (2024-05…2024-06), use --time-format discord\n"
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			out, stderr, code := cli(t, append([]string{"range", "--table", table, "--pk", "CH#1", "--after", "2000-01-01"}, conn...)...)
			if got := len(sortKeysOut(t, out)); code != 0 || got != 3 || !strings.Contains(stderr, note) {
				t.Errorf("detected: exit %d, %d items, want 3 and the note %q:\n%s", code, got, note, stderr)
			}
			out, stderr, code = cli(t, append([]string{"range", "--table", table, "--pk", "CH#1", "--at", "2024-05", "--time-format", "discord"}, conn...)...)
			if got := strings.Join(sortKeysOut(t, out), " "); code != 0 || got != id("2024-05-20T12:00:00Z", 1)+" "+id("2024-05-01T12:00:00Z", 0) || strings.Contains(stderr, "Discord ids") {
				t.Errorf("--time-format discord: exit %d, %s:\n%s", code, got, stderr)
			}
		})
	}
}

// TestRangeOverNoKeys: a partition that holds nothing, or a --sk-prefix
// no key has, has no item in any range. range refused it as keys that
// "hold no time … (or there are none)", exit 2, where children and
// versions print an empty result. It writes the empty result in each
// output form and one line on stderr saying there are no keys (exit 0);
// with --follow, it says so and exits 2. On dynalite and the embedded
// backend.
func TestRangeOverNoKeys(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	items := []map[string]types.AttributeValue{av("PK", "E", "SK", "EVT#2024-05-06T10:00:00Z"), av("PK", "E", "SK", "EVT#2024-05-07T10:00:00Z")}
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				where []string
				line  string
			}{
				{[]string{"--pk", "NOPE"}, `range: partition "NOPE" has no keys, so no item is in any range · 0 items · requests=`},
				{[]string{"--pk", "E", "--sk-prefix", "NOPE#"}, `range: partition "E" has no keys under "NOPE#", so no item is in any range · 0 items · requests=`},
			} {
				for output, want := range map[string]string{"jsonl": "", "json": "[]\n", "csv": "PK,SK\n"} {
					args := append(append([]string{"range", "--table", table, "--last", "1h", "--output", output}, tc.where...), conn...)
					out, stderr, code := cli(t, args...)
					if _, rest, ok := strings.Cut(stderr, "\n"); ok && strings.HasPrefix(stderr, "DATA: ") {
						stderr = rest // --data says what it loaded first
					}
					if code != 0 || out != want || !strings.HasPrefix(stderr, tc.line) || strings.Count(stderr, "\n") != 1 {
						t.Errorf("%v: exit %d, stdout %q, want %q\n%s", args, code, out, want, stderr)
					}
				}
			}
			// --follow has no key to tell the time format by: refused
			// as the partition it is, not as keys that "hold no time
			// this tool recognises (or there are none)".
			args := append([]string{"range", "--table", table, "--last", "1h", "--follow", "--pk", "NOPE"}, conn...)
			out, stderr, code := cli(t, args...)
			want := `range --follow: partition "NOPE" has no keys, so no key tells the time format to follow by — give --time-format`
			if code != 2 || out != "" || !strings.Contains(stderr, want) || strings.Contains(stderr, "hold no time") {
				t.Errorf("%v: exit %d, stdout %q\n%s", args, code, out, stderr)
			}
		})
	}
}

// TestRangeCountdownKeysSaySo: an IoT device's readings keyed
// READING#<9999999999 − epoch seconds>, so that a Query lists the newest
// first, hold no time read forwards (the year 2232). The refusal said the
// keys "hold no time this tool recognises" and to give --time-format,
// which reads them as 2232 and finds nothing. It says they count time
// backwards, which range does not read, and gives the scan that reads the
// range by its keys: run, it lists the month's readings, newest first.
// On dynalite and the embedded backend.
func TestRangeCountdownKeysSaySo(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	var items []map[string]types.AttributeValue
	items = append(items, av("PK", "DEVICE#d1#2024-W18", "SK", "META"))
	var want []string
	for _, at := range []string{"2024-04-29T00:06:51Z", "2024-04-30T23:59:59Z", "2024-05-01T00:00:00Z", "2024-05-02T10:00:00Z", "2024-05-05T23:59:59Z", "2024-05-31T23:59:59Z", "2024-06-01T00:00:00Z"} {
		tm, _ := time.Parse(time.RFC3339, at)
		k := fmt.Sprintf("READING#%010d", 9999999999-tm.Unix())
		items = append(items, av("PK", "DEVICE#d1#2024-W18", "SK", k))
		if tm.Month() == time.May {
			want = append([]string{k}, want...) // newest first
		}
	}
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			out, stderr, code := cli(t, append([]string{"range", "--table", table, "--pk", "DEVICE#d1#2024-W18", "--at", "2024-05"}, conn...)...)
			filter := `PK = "DEVICE#d1#2024-W18" and SK between "READING#8282800000" and "READING#8285478399"`
			if code != exitUsage || out != "" || strings.Count(stderr, "dynascope: ") != 1 ||
				!strings.Contains(stderr, "count time backwards, newest first (READING#") || strings.Contains(stderr, "no time this tool recognises") ||
				!strings.Contains(stderr, " --table "+table+" --filter '"+filter+"'") {
				t.Fatalf("exit %d, stdout %q: %s", code, out, stderr)
			}
			// The command as printed, pasted: it carries the flags that
			// chose the connection (it read another account's table, or
			// none, without them).
			line := strings.TrimSpace(stderr[strings.Index(stderr, "newest first: dynascope ")+len("newest first: "):])
			words := shellWords(t, line)
			given, wantConn := slices.Clone(words[2:min(len(words), 2+len(conn))]), slices.Clone(conn)
			slices.Sort(given)
			slices.Sort(wantConn)
			if words[0] != "dynascope" || words[1] != "scan" || !slices.Equal(given, wantConn) {
				t.Fatalf("the command offered lacks the connection %q: %s", conn, line)
			}
			out, stderr = mustRun(t, words[1:]...)
			if got := sortKeysOut(t, out); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("the scan offered lists %v, want %v\n%s", got, want, stderr)
			}
		})
	}
}

// TestRangeInsideOneDayKey: a key that names a day (2024-05-06) or an
// hour (2024-05-06T10) holds every item of it. A range inside one
// (--last 15m on today's key, --at an hour on day keys, --after 10:00)
// exited 2 ("no key can fall in this range: the keys count whole days")
// although the day holding it was there; it reads the keys whose period
// it touches, saying on stderr that they count whole days, and says
// nothing where the range is whole days. On dynalite and the embedded
// backend.
func TestRangeInsideOneDayKey(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	now := time.Now().UTC()
	today, yesterday, hour := now.Format("2006-01-02"), now.AddDate(0, 0, -1).Format("2006-01-02"), now.Format("2006-01-02T15")
	var items []map[string]types.AttributeValue
	for d := 1; d <= 10; d++ {
		items = append(items, av("PK", "DAY#c0", "SK", fmt.Sprintf("2024-05-%02d", d)), av("PK", "HOUR#c0", "SK", fmt.Sprintf("2024-05-06T%02d", d+4)))
	}
	items = append(items, av("PK", "DAY#c0", "SK", today), av("PK", "HOUR#c0", "SK", hour))
	table, backends := bothBackends(t, items)
	const note = "the keys count whole %s: read the %s that hold the range, whose items may fall outside it"
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				args []string
				want string // the keys, newest first
				unit string // the note's, or none
			}{
				{[]string{"--pk", "DAY#c0", "--at", "2024-05-06T10"}, "2024-05-06", "days"},
				{[]string{"--pk", "DAY#c0", "--at", "2024-05-06T10:30"}, "2024-05-06", "days"},
				{[]string{"--pk", "DAY#c0", "--after", "2024-05-08T10:00", "--oldest-first", "--limit", "3"}, "2024-05-08 2024-05-09 2024-05-10", "days"},
				{[]string{"--pk", "DAY#c0", "--before", "2024-05-02T10:00"}, "2024-05-02 2024-05-01", "days"},
				{[]string{"--pk", "DAY#c0", "--from", "2024-05-06T10:00", "--to", "2024-05-07T09:00"}, "2024-05-07 2024-05-06", "days"},
				{[]string{"--pk", "DAY#c0", "--from", "2024-05-06", "--to", "2024-05-07"}, "2024-05-07 2024-05-06", ""},
				{[]string{"--pk", "DAY#c0", "--after", "2024-05-09"}, today + " 2024-05-10", ""},
				{[]string{"--pk", "HOUR#c0", "--at", "2024-05-06T10:30"}, "2024-05-06T10", "hours"},
				{[]string{"--pk", "HOUR#c0", "--after", "2024-05-06T13:30", "--limit", "1", "--oldest-first"}, "2024-05-06T13", "hours"},
				{[]string{"--pk", "HOUR#c0", "--last", "1m"}, hour, "hours"},
			} {
				out, stderr, code := cli(t, append(append([]string{"range", "--table", table}, tc.args...), conn...)...)
				got := strings.Join(sortKeysOut(t, out), " ")
				said := strings.Contains(stderr, fmt.Sprintf(note, tc.unit, tc.unit))
				if code != 0 || got != tc.want || said != (tc.unit != "") || (tc.unit == "" && strings.Contains(stderr, "the keys count whole")) {
					t.Errorf("%v: exit %d, keys %q, want %q\n%s", tc.args, code, got, tc.want, stderr)
				}
			}
			// The last 15 minutes are in today's key (and yesterday's
			// where they began before midnight).
			out, stderr, code := cli(t, append([]string{"range", "--table", table, "--pk", "DAY#c0", "--last", "15m"}, conn...)...)
			got := sortKeysOut(t, out)
			if code != 0 || len(got) == 0 || got[0] != today || len(got) > 1 && got[1] != yesterday || !strings.Contains(stderr, fmt.Sprintf(note, "days", "days")) {
				t.Errorf("--last 15m: exit %d, keys %q, want %s\n%s", code, got, today, stderr)
			}
		})
	}
}

// TestRangeStoppedWritesWhatItHeld: a range over keys in several UTC
// offsets holds items back to write them in time order; when the budget
// stops the read, what it held was read and paid for, and is written (in
// order) before the line saying the rest is not. It was dropped: a stop
// after a page of 200 keys printed "0 items".
func TestRangeStoppedWritesWhatItHeld(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	var items []map[string]types.AttributeValue
	zones := []*time.Location{time.FixedZone("", -5*3600), time.UTC, time.FixedZone("", 2*3600), time.FixedZone("", 5*3600+1800)}
	base := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	for i := range 400 {
		at := base.Add(time.Duration(i) * 97 * time.Minute)
		items = append(items, av("PK", "E", "SK", at.In(zones[i%len(zones)]).Format(time.RFC3339), "Pad", strings.Repeat("x", 200)))
	}
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			out, stderr, code := cli(t, append([]string{"range", "--table", table, "--pk", "E", "--at", "2026-03", "--max-rcu", "3"}, conn...)...)
			lines := strings.Fields(out)
			if code != 3 || len(lines) == 0 || !strings.Contains(stderr, fmt.Sprintf("; %s printed, in order, not all", counted(len(lines), "item", "items"))) {
				t.Fatalf("exit %d, %d items printed:\n%s", code, len(lines), stderr)
			}
			var last time.Time
			for i, l := range lines {
				var it map[string]any
				if err := json.Unmarshal([]byte(l), &it); err != nil {
					t.Fatalf("%v: %q", err, l)
				}
				at, err := time.Parse(time.RFC3339, it["SK"].(string))
				if err != nil || i > 0 && at.After(last) {
					t.Fatalf("item %d %v after %v: not newest first (%v)", i, at, last, err)
				}
				last = at
			}
		})
	}
}

func TestRangeBesideMetadata(t *testing.T) {
	items, stderr := rangeLines(t, "--table", "VersionTimes", "--pk", "Equipment#1", "--after", "2020-11-12T21:00")
	if len(items) == 0 || !strings.HasPrefix(stderr, "1 of 40 keys sampled is not a time: Metadata: left out of ranges\n") {
		t.Fatalf("%d items: %s", len(items), stderr)
	}
	for _, it := range items {
		if it["SK"] == "Metadata" {
			t.Fatal("Metadata listed in a range")
		}
	}
}

// TestExplorerTimeFormatFlag: the explorer takes --time-format for one
// table and checks it before the screen opens; an --index the table lacks
// is refused there too.
func TestExplorerTimeFormatFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--demo", "--time-format", "epoch-ms"}, "--time-format needs --table"},
		{[]string{"--demo", "--table", "StateLog", "--time-format", "seconds"}, `--time-format: "seconds" is not a time format`},
		{[]string{"--demo", "--table", "StateLog", "--index", "Nope"}, `table StateLog has no index "Nope" — check --index; it has EscalatedTo`},
	} {
		if _, stderr, code := cli(t, tc.args...); code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: code %d, %s", tc.args, code, stderr)
		}
	}
}

// TestRangeShapes: the shapes published models write are ranges like any
// other: a time between text (FLIGHTS#AA), ULIDs after a prefix beside
// PROFILE# items, and yyyyMMdd numbers whose open end stops at 9999.
func TestRangeShapes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		n    int
		err  []string
	}{
		{[]string{"--table", "Workbench", "--pk", "FLIGHTS#AA", "--at", "2021-08-01", "--limit", "5"}, 5,
			[]string{"1 of 40 keys sampled is not a time: metadata: left out of ranges", `3 prefixes merged by time ("JFK# LAX# SEA#")`, `:prefix="JFK#2021-08-01T"`}},
		{[]string{"--table", "Workbench", "--pk", "USER#ada", "--at", "2021-03"}, 102,
			[]string{"3 of 40 keys sampled are not times: PROFILE#phone, PROFILE#email, PROFILE#", `:lo="PHOTO#01EZNHB9000000000000000000" :hi="PHOTO#01F25BNHZZZZZZZZZZZZZZZZZZ"`}},
		{[]string{"--table", "Workbench", "--pk", "COMPLAINT#1", "--at", "2023-04-30"}, 2,
			[]string{"1 of 3 keys sampled is not a time: metadata", `1 prefix merged by time ("comm#"), read once (costing no more than one Query a prefix), the time kept on our side: Query Workbench: PK = :pk AND SK BETWEEN :lo AND :hi`, "(finding the prefixes: 0 requests, 0.0 RCU)"}},
		// The sample read all three keys: none is in 2021, and nothing more is read.
		{[]string{"--table", "Workbench", "--pk", "COMPLAINT#1", "--at", "2021-04"}, 0,
			[]string{`no Query (the time sample read every key, none in the range)`, "0 items, 0 pages"}},
		{[]string{"--table", "Workbench", "--pk", "COMPLAINT#1", "--at", "2023-04", "--time-format", "comm#{time}#{any}"}, 2,
			[]string{`begins_with(SK, :prefix)   :pk="COMPLAINT#1" :prefix="comm#2023-04-"`}},
		{[]string{"--table", "WorkbenchOrders", "--pk", "C1", "--after", "2015-12-20"}, 3,
			[]string{`OrderCreationDate > :sk   :pk="C1" :sk=20151220`, "20060102 (a number)"}},
		{[]string{"--table", "WorkbenchOrders", "--pk", "C1", "--at", "2015-03", "--time-format", "yyyyMMdd"}, 9,
			[]string{":lo=20150301 :hi=20150331"}},
	} {
		items, stderr := rangeLines(t, tc.args...)
		if len(items) != tc.n {
			t.Errorf("%v: %d items, want %d: %s", tc.args, len(items), tc.n, stderr)
		}
		for _, w := range tc.err {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: stderr lacks %q: %s", tc.args, w, stderr)
			}
		}
	}
	// A format that matches nothing, where detection finds nothing either:
	// never sent to detection.
	_, stderr, code := cli(t, "range", "--demo", "--table", "Locations", "--pk", "USA", "--last", "1h", "--time-format", "yyyyMMdd")
	if code != 2 || !strings.Contains(stderr, `--time-format "yyyyMMdd" matches none of the`) || !strings.Contains(stderr, "detection finds no time in them either; their keys read as WY#WESTHAVEN#{n}") || !strings.HasSuffix(strings.TrimSpace(stderr), "— compare the format with the key") ||
		strings.Contains(stderr, "leave it out") {
		t.Errorf("%d %s", code, stderr)
	}
}

// sortKeysOut is the SK of each item a range wrote as JSON lines, as
// written (a number's digits, a string's text).
func sortKeysOut(t *testing.T, out string) []string {
	t.Helper()
	var keys []string
	for _, l := range strings.Fields(out) {
		var it struct{ SK json.RawMessage }
		if err := json.Unmarshal([]byte(l), &it); err != nil {
			t.Fatalf("%v: %q", err, l)
		}
		var text string
		if json.Unmarshal(it.SK, &text) != nil {
			text = string(it.SK) // a number
		}
		keys = append(keys, text)
	}
	return keys
}

// TestRangeSmallPartitionIsReadOnce (issue 37, range): a partition the
// time sample's reads hold whole is answered from them: 23 orders cost
// the two sample reads (1.0 RCU, each key read once), where the oldest
// 20 were read again and the range read it all a third time (1.5 RCU);
// the range, the filter, the order and --limit as a read gives them. On
// dynalite and the embedded backend.
func TestRangeSmallPartitionIsReadOnce(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	var items []map[string]types.AttributeValue
	for i := range 23 {
		it := av("PK", "CUST#23", "SK", time.Date(2026, 10, 1+i, 0, 0, 0, 0, time.UTC).Format(time.RFC3339))
		it["Total"] = &types.AttributeValueMemberN{Value: strconv.Itoa(i * 3)}
		items = append(items, it)
	}
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			out, stderr := mustRun(t, append([]string{"range", "--table", table, "--pk", "CUST#23", "--at", "2026-10", "--output", "jsonl"}, conn...)...)
			keys := sortKeysOut(t, out)
			if len(keys) != 23 || keys[0] != "2026-10-23T00:00:00Z" || keys[22] != "2026-10-01T00:00:00Z" ||
				!strings.Contains(stderr, "answered from the time sample, whose reads held all 23 items: no page read") || !strings.Contains(stderr, "consumedRCU=1.0") ||
				!strings.Contains(stderr, "23 items, from the time sample ·") || strings.Contains(stderr, "0 pages") {
				t.Errorf("%d keys %v:\n%s", len(keys), keys, stderr)
			}
			out, stderr = mustRun(t, append([]string{"range", "--table", table, "--pk", "CUST#23", "--from", "2026-10-05", "--to", "2026-10-08",
				"--filter", "Total > 14", "--limit", "2", "--oldest-first", "--output", "jsonl"}, conn...)...)
			if got := strings.Join(sortKeysOut(t, out), " "); got != "2026-10-06T00:00:00Z 2026-10-07T00:00:00Z" || !strings.Contains(stderr, "matched=2") {
				t.Errorf("a range, filtered, oldest first, 2 of them: %s\n%s", got, stderr)
			}
		})
	}
}

// TestRangeLimitReadsTheHeldStretchInOnePage: a prefix's partition the
// time sample holds whole is read once over the keys in the range, then
// ordered; --limit 1 asked for pages of one key each, so 30 MSG#<time>
// keys took 31 pages and 16.5 RCU where one page holds them. On dynalite
// and the embedded backend.
func TestRangeLimitReadsTheHeldStretchInOnePage(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	var items []map[string]types.AttributeValue
	for i := range 30 {
		items = append(items, av("PK", "CH#2", "SK", "MSG#"+time.Date(2026, 10, 1+i, 0, 0, 0, 0, time.UTC).Format(time.RFC3339)))
	}
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			for _, limit := range []string{"1", "5"} {
				out, stderr := mustRun(t, append([]string{"range", "--table", table, "--pk", "CH#2", "--after", "2000-01-01", "--limit", limit, "--output", "jsonl"}, conn...)...)
				keys := sortKeysOut(t, out)
				if n, _ := strconv.Atoi(limit); len(keys) != n || keys[0] != "MSG#2026-10-30T00:00:00Z" ||
					!strings.Contains(stderr, ", 1 page ·") || !strings.Contains(stderr, "consumedRCU=1.5") {
					t.Errorf("--limit %s: %d keys %v:\n%s", limit, len(keys), keys, stderr)
				}
			}
		})
	}
}

// timedKey is a sort key and the instant an oracle reads in it.
type timedKey struct {
	pk, sk string
	at     time.Time
}

// oracleRange is a range's flags and the instants it asks for, [from, to).
type oracleRange struct {
	args     []string
	from, to time.Time
}

// timedKeysTable writes the keys on both backends, PK and SK strings.
func timedKeysTable(t *testing.T, keys []timedKey) (string, map[string][]string) {
	t.Helper()
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	var items []map[string]types.AttributeValue
	for _, k := range keys {
		items = append(items, av("PK", k.pk, "SK", k.sk))
	}
	return bothBackends(t, items)
}

// rangeHoldsOracle runs range over partition pk for each case and compares
// the keys printed with those of keys whose instant is in [from, to).
func rangeHoldsOracle(t *testing.T, table string, conn []string, pk string, flags []string, keys []timedKey, cases []oracleRange) {
	t.Helper()
	for _, tc := range cases {
		var want []string
		for _, k := range keys {
			if k.pk == pk && !k.at.Before(tc.from) && k.at.Before(tc.to) {
				want = append(want, k.sk)
			}
		}
		slices.Sort(want)
		if len(want) == 0 {
			t.Fatalf("%s %v selects nothing: the case tests nothing", pk, tc.args)
		}
		args := append(append(append([]string{"range", "--table", table, "--pk", pk}, flags...), tc.args...), conn...)
		out, stderr, code := cli(t, args...)
		got := sortKeysOut(t, out)
		at := map[string]time.Time{}
		for _, k := range keys {
			at[k.sk] = k.at
		}
		for i := 1; i < len(got); i++ {
			if at[got[i]].After(at[got[i-1]]) {
				t.Errorf("%s %v: %s printed after %s, newer: not newest first", pk, tc.args, got[i], got[i-1])
			}
		}
		slices.Sort(got)
		if code != 0 || strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s %v: exit %d, %d keys %v, want %d %v\n%s", pk, tc.args, code, len(got), got, len(want), want, stderr)
		}
		if strings.Contains(stderr, "offsets up to  apart") {
			t.Errorf("%s %v: the stderr line names offsets of no span:\n%s", pk, tc.args, stderr)
		}
	}
}

var (
	octoberStart  = time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	novemberStart = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	farFuture     = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
)

// TestRangeFractionsOfAnyLength: Go's RFC3339Nano and Java's Instant
// write a second's fraction only as long as it needs (…:00Z, …:00.5Z,
// …:00.123456Z), so one log holds times in several lengths, which range
// refused as "times in more than one form" (exit 2). They are one form;
// each range holds what an oracle reading every key's time selects, the
// keys of a bound's own second on either side of it among them (…:00Z
// sorts after …:00.5Z as text), in keys at UTC offsets too. On dynalite
// and the embedded backend.
func TestRangeFractionsOfAnyLength(t *testing.T) {
	base := time.Date(2026, 10, 31, 23, 59, 58, 0, time.UTC)
	var keys []timedKey
	for i, step := range []time.Duration{0, 500 * time.Millisecond, 1 * time.Second, 1120 * time.Millisecond, 1999999 * time.Microsecond, 2 * time.Second, 2100 * time.Millisecond, 3123456789, 90 * time.Minute} {
		at := base.Add(step)
		for _, z := range []*time.Location{time.UTC, time.FixedZone("", 3600)} {
			keys = append(keys, timedKey{"log", fmt.Sprintf("EVT#%s#%02d", at.In(z).Format(time.RFC3339Nano), i), at})
		}
		keys = append(keys, timedKey{"utc", at.Format(time.RFC3339Nano), at}) // in one offset: no wider read for offsets
	}
	table, backends := timedKeysTable(t, keys)
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			for _, pk := range []string{"log", "utc"} {
				rangeHoldsOracle(t, table, conn, pk, nil, keys, []oracleRange{
					{[]string{"--at", "2026-10"}, octoberStart, novemberStart},
					{[]string{"--at", "2026-11-01"}, novemberStart, novemberStart.AddDate(0, 0, 1)},
					{[]string{"--from", "2026-10-31T23:59:59.5Z", "--to", "2026-11-01T00:00:01Z"}, base.Add(1500 * time.Millisecond), base.Add(4 * time.Second)},
					{[]string{"--before", "2026-11-01T00:00:00Z"}, time.Time{}, base.Add(2 * time.Second)},
					{[]string{"--after", "2026-10-31T23:59:59Z"}, base.Add(2 * time.Second), farFuture},
				})
			}
		})
	}
}

// TestRangeZeroPaddedEpochs: counts written with zeros before them so
// that keys of one width sort as their numbers (LOG#%020d of epoch
// milliseconds, MSG#%013d of seconds) read as no time, exit 2. The count's
// own digits say what it counts; bounds are written as wide as the keys,
// and each range holds what an oracle selects. On dynalite and the
// embedded backend.
func TestRangeZeroPaddedEpochs(t *testing.T) {
	var keys []timedKey
	for i := 0; i < 40; i++ {
		at := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * 53 * time.Hour).Add(time.Duration(i) * time.Millisecond)
		keys = append(keys, timedKey{"ms", fmt.Sprintf("LOG#%020d", at.UnixMilli()), at}, timedKey{"s", fmt.Sprintf("MSG#%013d#%d", at.Unix(), i), at.Truncate(time.Second)})
	}
	table, backends := timedKeysTable(t, keys)
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			for _, pk := range []string{"ms", "s"} {
				rangeHoldsOracle(t, table, conn, pk, nil, keys, []oracleRange{
					{[]string{"--at", "2026-10"}, octoberStart, novemberStart},
					{[]string{"--before", "2026-09-10"}, time.Time{}, time.Date(2026, 9, 10, 0, 0, 0, 0, time.UTC)},
					{[]string{"--after", "2026-11-01"}, novemberStart.AddDate(0, 0, 1), farFuture},
				})
			}
		})
	}
}

// TestRangeDiscordSnowflakes: a chat channel's messages keyed by their
// Discord ids (Snowflake ids from 2015) had no format: read as Twitter's
// they stand four years early, so a month's range read another month's
// messages. --time-format discord reads them; each range holds what an
// oracle decoding the ids selects. On dynalite and the embedded backend.
func TestRangeDiscordSnowflakes(t *testing.T) {
	keys := []timedKey{{"CH#1", "META", time.Time{}}}
	for i := 0; i < 40; i++ {
		at := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * 61 * time.Hour).Add(time.Duration(i) * time.Millisecond)
		keys = append(keys, timedKey{"CH#1", fmt.Sprintf("MSG#%d", (at.UnixMilli()-1420070400000)<<22|int64(i)), at})
	}
	table, backends := timedKeysTable(t, keys)
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			rangeHoldsOracle(t, table, conn, "CH#1", []string{"--time-format", "discord"}, keys[1:], []oracleRange{
				{[]string{"--at", "2026-10"}, octoberStart, novemberStart},
				{[]string{"--before", "2026-09-10"}, time.Time{}, time.Date(2026, 9, 10, 0, 0, 0, 0, time.UTC)},
				{[]string{"--after", "2026-10-31"}, novemberStart, farFuture},
			})
		})
	}
}
