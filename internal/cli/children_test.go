package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

type childrenDoc struct {
	Children []struct {
		Name        string `json:"name"`
		Prefix      string `json:"prefix"`
		HasChildren bool   `json:"hasChildren"`
		IsItem      bool   `json:"isItem"`
		Count       *int   `json:"count"`
	} `json:"children"`
	KeyCondition string `json:"keyCondition"`
	Delimiter    string `json:"delimiter"`
	Stats        struct {
		Requests    int     `json:"requests"`
		ConsumedRCU float64 `json:"consumedRCU"`
	} `json:"stats"`
}

func childrenJSON(t *testing.T, args ...string) childrenDoc {
	t.Helper()
	out, _ := mustRun(t, append([]string{"children", "--demo"}, args...)...)
	var doc childrenDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, clip(out))
	}
	return doc
}

func TestChildrenDemo(t *testing.T) {
	top := childrenJSON(t, "--table", "Locations", "--pk", "USA", "--output", "json")
	names := map[string]bool{}
	for _, c := range top.Children {
		names[c.Name] = true
		if c.Count != nil {
			t.Fatal("count without --count")
		}
	}
	if !names["NY"] || !names["NE"] || !names["NYC"] || top.Delimiter != "#" {
		t.Fatalf("top level: delimiter %q, %d children, want NY, NE and NYC under #: %s", top.Delimiter, len(top.Children), clip(top.Children))
	}
	// States of ~1.25 RCU each: once the second read weighs one, the
	// rest is read in plain stretches (37.3), a handful of requests, never
	// more than the full read's 66.5 RCU.
	if top.Stats.Requests > 10 || top.Stats.ConsumedRCU > 66.5 {
		t.Fatalf("%d requests, %.1f RCU for %d children", top.Stats.Requests, top.Stats.ConsumedRCU, len(top.Children))
	}
	// An empty --prefix is the top level, as documented: not refused as
	// other flags given empty are.
	if fromTop := childrenJSON(t, "--table", "Locations", "--pk", "USA", "--prefix", ""); len(fromTop.Children) != len(top.Children) {
		t.Fatalf("--prefix '' listed %d children, the top level %d", len(fromTop.Children), len(top.Children))
	}
	city := childrenJSON(t, "--table", "Locations", "--pk", "USA", "--prefix", "NY#NEWYORKCITY#", "--count")
	if city.KeyCondition != "PK = :pk AND begins_with(SK, :prefix)" {
		t.Fatalf("key condition %q", city.KeyCondition)
	}
	got := map[string]int{}
	for _, c := range city.Children {
		got[c.Name] = *c.Count
	}
	if got["10001"] != 1 || got["10019"] != 1 {
		t.Fatalf("seed rows under NEWYORKCITY: %v", got)
	}
}

func TestChildrenBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--table", "DeviceLogs", "--pk", "123"}, 2, "no hierarchy — list its items with dynascope items --demo --table DeviceLogs --pk 123"},
		{[]string{"--table", "Locations", "--pk", "USA", "--delimiter", "####"}, 2, "longer than three characters"},
		{[]string{"--table", "Locations"}, 2, "--pk"},
		{[]string{"--table", "Locations", "--pk", "USA", "--output", "xml"}, 2, "--output jsonl, json or csv, or a file"},
		// The command the failure offers carries the connection that
		// failed (--demo here): pasted bare it would list the default
		// profile's tables.
		{[]string{"--table", "Nope", "--pk", "x"}, 1, "no such table — check the name and --region; `dynascope tables --demo` lists the tables"},
	} {
		_, stderr, code := cli(t, append([]string{"children", "--demo"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: code %d, stderr %q", tc.args, code, stderr)
		}
	}
}

// TestChildrenWithoutSortKey: a table keyed by its partition key alone has
// no hierarchy: exit 2 (not a failed read), saying to run items.
func TestChildrenWithoutSortKey(t *testing.T) { checkHashOnly(t, "children") }

func TestChildrenShardPattern(t *testing.T) {
	doc := childrenJSON(t, "--table", "ChatMessages", "--pk", "seattle-{1..4}")
	if len(doc.Children) == 0 {
		t.Fatal("no children")
	}
	out, stderr := mustRun(t, "children", "--demo", "--table", "ChatMessages", "--pk", "seattle-{1..4}")
	if !strings.Contains(out, `"seattle-4"`) || !strings.Contains(out, `"shards"`) {
		t.Fatalf("shards not listed:\n%.400s", out)
	}
	// stderr names every shard read, not only the last.
	for _, shard := range []string{"seattle-1", "seattle-2", "seattle-3", "seattle-4"} {
		if !strings.Contains(stderr, shard) {
			t.Errorf("stderr does not name %s: %s", shard, stderr)
		}
	}
	_, stderr, code := cli(t, "children", "--demo", "--table", "ChatMessages", "--pk", "seattle-{4..1}")
	if code != 2 || !strings.Contains(stderr, "backwards") {
		t.Fatalf("code %d: %s", code, stderr)
	}
}

func TestChildrenConfig(t *testing.T) {
	dir := t.TempDir()
	good := dir + "/good.toml"
	if err := os.WriteFile(good, []byte("[tables.Locations]\ndelimiter = \"|\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The configured delimiter wins over detection: no key holds |, so each
	// key is a child of its own.
	doc := childrenJSON(t, "--config", good, "--table", "Locations", "--pk", "FRANCE")
	if doc.Delimiter != "|" {
		t.Fatalf("delimiter %q", doc.Delimiter)
	}
	// The flag wins over the configuration.
	doc = childrenJSON(t, "--config", good, "--table", "Locations", "--pk", "FRANCE", "--delimiter", "#")
	if doc.Delimiter != "#" {
		t.Fatalf("delimiter %q", doc.Delimiter)
	}
	bad := dir + "/bad.toml"
	if err := os.WriteFile(bad, []byte("[tables.Locations]\ndelimiter = \n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := cli(t, "children", "--demo", "--config", bad, "--table", "Locations", "--pk", "USA")
	if code != 2 || !strings.Contains(stderr, "line 2") || !strings.Contains(stderr, "bad.toml") {
		t.Fatalf("broken config: code %d, %s", code, stderr)
	}
	_, stderr, code = cli(t, "children", "--demo", "--config", dir+"/missing.toml", "--table", "Locations", "--pk", "USA")
	if code != 2 || !strings.Contains(stderr, "missing.toml") {
		t.Fatalf("missing --config: code %d, %s", code, stderr)
	}
}

func TestChildrenConfiguredShards(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte("[tables.ChatMessages.shards]\nseattle = \"seattle-{1..4}\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _ := mustRun(t, "children", "--demo", "--config", path, "--table", "ChatMessages", "--pk", "seattle")
	if !strings.Contains(out, `"shards": [`) || !strings.Contains(out, "seattle-4") {
		t.Fatalf("the configured shards were not drilled:\n%.400s", out)
	}
}

// TestChildrenBinaryKeys: a binary sort key's children are written as
// the explorer shows them and --prefix takes them: b64: and base64, never
// raw bytes (which JSON would mangle into U+FFFD).
func TestChildrenBinaryKeys(t *testing.T) {
	doc := childrenJSON(t, "--table", "Blobs", "--pk", "images")
	if len(doc.Children) != 48 || doc.Children[0].Name != "b64:AP4A" || doc.Children[0].Prefix != "b64:AP4A" {
		t.Fatalf("children %+v", doc.Children[:min(2, len(doc.Children))])
	}
	// No delimiter repeats in these keys: each is listed whole, the two
	// holding a byte 0x23 (23 fe 07, af fe 23) included, never split there
	// (25.20); the document says the keys are not split.
	for _, c := range doc.Children {
		if !c.IsItem || c.HasChildren || c.Name == "" {
			t.Fatalf("a key split at 0x23: %+v", c)
		}
	}
	var raw map[string]any
	out, _ := mustRun(t, "children", "--demo", "--table", "Blobs", "--pk", "images")
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	if d, ok := raw["delimiter"]; !ok || d != nil {
		t.Fatalf(`"delimiter": %v (present %v), want null`, d, ok)
	}
	out, _ = mustRun(t, "children", "--demo", "--table", "Blobs", "--pk", "images", "--output", "csv")
	if !strings.Contains(out, "b64:Bf4B,b64:Bf4B,") || !strings.Contains(out, "b64:I/4H,") || strings.ContainsRune(out, 0xfffd) {
		t.Fatalf("csv:\n%s", out)
	}
	under := childrenJSON(t, "--table", "Blobs", "--pk", "images", "--prefix", "b64:AA==")
	if len(under.Children) != 1 || under.Children[0].Name != "b64:/gA=" {
		t.Fatalf("under b64:AA==: %+v", under.Children)
	}
}

// TestChildrenDelimiterNone: --delimiter none lists every key whole, as
// leaves, and the document says no delimiter; a prefix's own delimiter
// still cuts a level of leaves under it.
func TestChildrenDelimiterNone(t *testing.T) {
	split := childrenJSON(t, "--table", "Locations", "--pk", "FRANCE")
	whole := childrenJSON(t, "--table", "Locations", "--pk", "FRANCE", "--delimiter", "none")
	if split.Delimiter != "#" || whole.Delimiter != "" || len(whole.Children) <= len(split.Children) {
		t.Fatalf("split at %q into %d, none (%q) into %d", split.Delimiter, len(split.Children), whole.Delimiter, len(whole.Children))
	}
	for _, c := range whole.Children {
		if !c.IsItem || c.HasChildren || !strings.Contains(c.Name, "#") {
			t.Fatalf("not a whole key: %+v", c)
		}
	}
	leaves := childrenJSON(t, "--table", "Locations", "--pk", "USA", "--prefix", "NY#NEWYORKCITY#")
	if leaves.Delimiter != "#" || len(leaves.Children) == 0 {
		t.Fatalf("under NY#NEWYORKCITY#: delimiter %q, %d children", leaves.Delimiter, len(leaves.Children))
	}
	if _, stderr, code := cli(t, "children", "--demo", "--table", "Locations", "--pk", "USA", "--delimiter", "nothing"); code != 2 || !strings.Contains(stderr, "or none") {
		t.Fatalf("--delimiter nothing: code %d, %s", code, stderr)
	}
}

// TestChildrenKeepTimesWhole: with --delimiter : a level whose keys are
// times lists each time whole, never pieces cut at its colons (#36): the
// audit log's 2026-10-22T00:05:45Z (the old walk listed 240 hours,
// 2026-10-22T00), the chat's amsg#2018-07-20:00:50:23 at the top and
// 2018-07-20:00:50:23 under amsg# (31 days, amsg#2018-07-20).
func TestChildrenKeepTimesWhole(t *testing.T) {
	iso := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)
	blog := regexp.MustCompile(`^([a-z]+#)?\d{4}-\d\d-\d\d:\d\d:\d\d:\d\d$`)
	for _, tc := range []struct {
		args []string
		form *regexp.Regexp
		most int
	}{
		{[]string{"--table", "AuditLog", "--pk", "prod-api", "--delimiter", ":"}, iso, 2000},
		{[]string{"--table", "ChatMessages", "--pk", "portland", "--delimiter", ":"}, blog, 500},
		{[]string{"--table", "ChatMessages", "--pk", "portland", "--prefix", "amsg#", "--delimiter", ":"}, blog, 100},
	} {
		doc := childrenJSON(t, tc.args...)
		if doc.Delimiter != ":" || len(doc.Children) < tc.most {
			t.Fatalf("%q: delimiter %q, %d children %s", tc.args, doc.Delimiter, len(doc.Children), clip(doc.Children))
		}
		for _, c := range doc.Children {
			if !tc.form.MatchString(c.Name) || !c.IsItem || c.HasChildren {
				t.Fatalf("%q: a time in pieces: %+v", tc.args, c)
			}
		}
	}
}

// TestChildrenDelimiterOfSeveralBytes: --delimiter § (two bytes, one
// character), → and :: were refused as "longer than one character", and
// left out they were not detected: § and → keys were listed whole, ::
// keys cut into an empty level between the colons. Given or detected,
// each is walked and counted as a full read cuts it. On dynalite and the
// embedded backend.
func TestChildrenDelimiterOfSeveralBytes(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	keys := map[string][]string{
		"SECT":   {"Alpha§x§1", "Alpha§x§2", "Alpha§y§1", "Beta§z§1"},
		"ARROW":  {"root→m→i", "root→m→j", "home→n→k"},
		"DCOLON": {"Mod::A::f", "Mod::A::g", "Mod::B::h", "Pkg::A::f"},
	}
	var items []map[string]types.AttributeValue
	for pk, sks := range keys {
		for _, sk := range sks {
			items = append(items, av("PK", pk, "SK", sk))
		}
	}
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				pk, delim, prefix, want string // want: name=count, in key order
			}{
				{"SECT", "§", "", "Alpha=3 Beta=1"},
				{"ARROW", "→", "", "home=1 root=2"},
				{"DCOLON", "::", "", "Mod=3 Pkg=1"},
				// Drilled into a child's prefix, the level below is cut the
				// same way (under Mod:: it was ':' and Alpha§ was not cut).
				{"SECT", "§", "Alpha§", "x=2 y=1"},
				{"DCOLON", "::", "Mod::", "A=2 B=1"},
			} {
				for _, given := range []bool{true, false} {
					args := []string{"children", "--table", table, "--pk", tc.pk, "--prefix", tc.prefix, "--count", "--output", "json"}
					if given {
						args = append(args, "--delimiter", tc.delim)
					}
					out, _ := mustRun(t, append(args, conn...)...)
					var doc struct {
						Delimiter string
						Children  []struct {
							Name, Prefix string
							Count        int
						}
					}
					if err := json.Unmarshal([]byte(out), &doc); err != nil {
						t.Fatal(err)
					}
					var got []string
					for _, c := range doc.Children {
						if c.Prefix != tc.prefix+c.Name+tc.delim {
							t.Errorf("%s: child %q drills into %q", tc.pk, c.Name, c.Prefix)
						}
						got = append(got, fmt.Sprintf("%s=%d", c.Name, c.Count))
					}
					if doc.Delimiter != tc.delim || strings.Join(got, " ") != tc.want {
						t.Errorf("%s (given %v): delimiter %q, children %q; want %q, %s", tc.pk, given, doc.Delimiter, got, tc.delim, tc.want)
					}
				}
			}
		})
	}
}

// TestChildrenCountsTheItemAtThePrefix: the item whose key is the prefix
// itself (/ under --prefix /, USER#1 beside USER#1#…) was listed but not
// counted under --count, so the level's counts fell one short of its
// items. It is one item, counted 1, in every output; the counts add up to
// the parent's count of the prefix. On dynalite and the embedded backend.
func TestChildrenCountsTheItemAtThePrefix(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	var items []map[string]types.AttributeValue
	for _, sk := range []string{"/", "/docs/a.txt", "/docs/b.txt", "/img/c.png", "/readme"} {
		items = append(items, av("PK", "PATHS", "SK", sk))
	}
	for _, sk := range []string{"USER#1", "USER#1#ORDER#1", "USER#1#ORDER#2", "USER#1#PROFILE", "USER#2#ORDER#1"} {
		items = append(items, av("PK", "USERS", "SK", sk))
	}
	table, backends := bothBackends(t, items)
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct{ pk, prefix, parent, parentRow, delim string }{
				{"PATHS", "/", "", "/", "/"},
				{"USERS", "USER#1", "USER#", "USER#1#", "#"}, // the row of USER#1 and what is under USER#1#
			} {
				run := func(prefix, output string) string {
					out, _ := mustRun(t, append([]string{"children", "--table", table, "--pk", tc.pk, "--prefix", prefix, "--delimiter", tc.delim, "--count", "--output", output}, conn...)...)
					return out
				}
				var doc struct {
					Children []struct {
						Prefix string
						Self   bool
						Count  *int
					}
					PrefixIsItem bool
				}
				if err := json.Unmarshal([]byte(run(tc.prefix, "json")), &doc); err != nil {
					t.Fatal(err)
				}
				sum, self := 0, false
				for _, ch := range doc.Children {
					if ch.Count == nil {
						t.Errorf("%s: %q uncounted", tc.prefix, ch.Prefix)
						continue
					}
					sum += *ch.Count
					self = self || ch.Self && *ch.Count == 1
				}
				var parent struct {
					Children []struct {
						Prefix string
						Count  *int
					}
				}
				if err := json.Unmarshal([]byte(run(tc.parent, "json")), &parent); err != nil {
					t.Fatal(err)
				}
				want := -1
				for _, ch := range parent.Children {
					if ch.Prefix == tc.parentRow && ch.Count != nil {
						want = *ch.Count
					}
				}
				if !self || !doc.PrefixIsItem || sum != want {
					t.Errorf("%s: the counts add up to %d, the parent counts %d; the prefix's own item counted 1: %v", tc.prefix, sum, want, self)
				}
				for _, output := range []string{"jsonl", "csv"} {
					if first := strings.SplitN(run(tc.prefix, output), "\n", 3); !strings.Contains(first[0]+first[1], `"self":true,"count":1`) && !strings.Contains(first[1], ",1,true") {
						t.Errorf("%s --output %s: %q", tc.prefix, output, first)
					}
				}
			}
		})
	}
}
