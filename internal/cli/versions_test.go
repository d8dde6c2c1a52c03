package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

type versionsDoc struct {
	Items []struct {
		Name     string         `json:"name"`
		Current  map[string]any `json:"current"`
		Latest   *int           `json:"latest"`
		Versions []struct {
			Version int            `json:"version"`
			SK      string         `json:"sk"`
			Item    map[string]any `json:"item"`
		} `json:"versions"`
		Drift []string `json:"drift"`
	} `json:"items"`
	Stats struct {
		Requests    int     `json:"requests"`
		ConsumedRCU float64 `json:"consumedRCU"`
	} `json:"stats"`
}

func versionsJSON(t *testing.T, args ...string) versionsDoc {
	t.Helper()
	out, _ := mustRun(t, append([]string{"versions", "--demo"}, args...)...)
	var d versionsDoc
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return d
}

func TestVersionsJSON(t *testing.T) {
	d := versionsJSON(t, "--table", "Equipment", "--pk", demo.DriftedPiece, "--output", "json")
	if len(d.Items) != 2 || d.Items[1].Name != demo.DriftedItem {
		t.Fatalf("items: %+v", d.Items)
	}
	drifted := d.Items[1]
	if drifted.Latest == nil || *drifted.Latest != 3 || len(drifted.Versions) != 3 || drifted.Current == nil ||
		len(drifted.Drift) != 1 || drifted.Drift[0] != "v0_ differs from v3_: Findings, Status" {
		t.Fatalf("drifted item: %+v", drifted)
	}
	// Plain JSON: numbers are numbers, nested maps are maps.
	if _, ok := drifted.Versions[0].Item["Score"].(float64); !ok {
		t.Errorf("Score is %T", drifted.Versions[0].Item["Score"])
	}
	if d.Items[0].Drift == nil || len(d.Items[0].Drift) != 0 {
		t.Errorf("clean item's drift should be [], got %v", d.Items[0].Drift)
	}

	missing := versionsJSON(t, "--table", "Equipment", "--pk", demo.MissingCurrentPiece, "--item", "Audit")
	if len(missing.Items) != 1 || missing.Items[0].Current != nil || !strings.Contains(missing.Items[0].Drift[0], "missing") {
		t.Fatalf("missing current: %+v", missing.Items)
	}
	long := versionsJSON(t, "--table", "Equipment", "--pk", demo.LongHistoryPiece, "--item", "Audit")
	if len(long.Items[0].Versions) != 1000 || long.Items[0].Versions[999].SK != "v1000_Audit" || long.Stats.Requests != 3 {
		t.Fatalf("long history: %d versions, %d requests", len(long.Items[0].Versions), long.Stats.Requests)
	}
	blog := versionsJSON(t, "--table", "Documents", "--pk", "doc-0002")
	if len(blog.Items) != 1 || blog.Items[0].Current == nil || blog.Items[0].Current["DocumentInfo"] != "v_0" {
		t.Fatalf("blog form: %+v", blog.Items)
	}
}

func TestVersionsBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--table", "Equipment", "--pk", demo.DriftedPiece, "--item", "Nope"}, 1, "run without --item"},
		{[]string{"--table", "DeviceLogs", "--pk", "123"}, 1, "no string sort key"},
		{[]string{"--table", "Equipment"}, 2, "--pk"},
		{[]string{"--table", "Equipment", "--pk", "x", "--output", "rows.txt"}, 2, "--output jsonl, json or csv, or a file"},
	} {
		_, stderr, code := cli(t, append([]string{"versions", "--demo"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: code %d, stderr %q", tc.args, code, stderr)
		}
	}
}

// TestVersionsPattern: a table's own spelling of revisions comes from
// --version-pattern, else the configuration; the flag wins; without
// either, Policies' rev#… keys are not versions.
func TestVersionsPattern(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(conf, []byte("[tables.Policies]\nversion_pattern = \"rev#{n}#{name}\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	wrong := filepath.Join(dir, "wrong.toml")
	if err := os.WriteFile(wrong, []byte("[tables.Policies]\nversion_pattern = \"{name}#v{n}\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	check := func(d versionsDoc, how string) {
		t.Helper()
		if len(d.Items) != 2 || d.Items[0].Name != demo.PolicyDriftedItem || d.Items[0].Current["SK"] != "rev#0#Coverage" ||
			len(d.Items[0].Drift) != 1 || d.Items[0].Drift[0] != "rev#0 differs from rev#2: Limit" || *d.Items[1].Latest != 3 {
			t.Fatalf("%s: %+v", how, d.Items)
		}
	}
	base := []string{"--table", demo.PolicyTable, "--pk", demo.PolicyDrifted}
	check(versionsJSON(t, append(base, "--version-pattern", demo.PolicyPattern)...), "flag")
	check(versionsJSON(t, append(base, "--config", conf)...), "config")
	check(versionsJSON(t, append(base, "--config", wrong, "--version-pattern", demo.PolicyPattern)...), "flag over config")
	// A pattern that reads none of the keys is a mistake to fix, said where it was written.
	if _, stderr, code := cli(t, append([]string{"versions", "--demo", "--config", wrong}, base...)...); code != 2 ||
		!strings.Contains(stderr, `version_pattern "{name}#v{n}" in the configuration matches no sort key of partition "POL-1001"`) {
		t.Fatalf("{name}#v{n} on rev# keys: code %d, %s", code, stderr)
	}
	if d := versionsJSON(t, base...); len(d.Items) != 0 {
		t.Fatalf("detection read rev# keys: %+v", d.Items)
	}
	one := versionsJSON(t, append(base, "--config", conf, "--item", "Terms")...)
	if len(one.Items) != 1 || len(one.Items[0].Versions) != 3 || one.Items[0].Versions[2].SK != "rev#3#Terms" || one.Stats.Requests != 3 {
		t.Fatalf("--item Terms: %+v", one)
	}
	_, stderr, code := cli(t, append([]string{"versions", "--demo", "--version-pattern", "rev#{num}"}, base...)...)
	if code != 2 || !strings.Contains(stderr, `--version-pattern "rev#{num}": braces only go around n and name`) {
		t.Fatalf("bad pattern: code %d, %s", code, stderr)
	}
	// The explorer takes it too, for one table, and checks it first.
	for _, args := range [][]string{{"--demo", "--table", "Policies", "--version-pattern", "{name}{n}"}, {"--demo", "--version-pattern", "rev#{n}"}} {
		if _, stderr, code := cli(t, args...); code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "--version-pattern") {
			t.Errorf("%v: code %d, %s", args, code, stderr)
		}
	}
}

// TestVersionsBareAndPointer: AWS's v0…vN are found by default, Latest is
// the pointer, and the lagging copy is drift.
func TestVersionsBareAndPointer(t *testing.T) {
	out, stderr := mustRun(t, "versions", "--demo", "--table", "VersionNums", "--pk", "Part#3")
	for _, want := range []string{`"form": "v1"`, `"v0 says Latest=2 but v2 does not exist"`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	if !strings.Contains(stderr, "1 versioned item, 1 drifted") {
		t.Errorf("stderr: %s", stderr)
	}
	out, _ = mustRun(t, "versions", "--demo", "--table", "VersionNums", "--pk", "Part#1")
	if !strings.Contains(out, `"drift": []`) || !strings.Contains(out, `"latest": 12`) {
		t.Errorf("healthy Part#1:\n%s", out)
	}
}

// TestVersionsNothingFound: with the usual forms, stderr names them and
// --version-pattern; a pattern that matches nothing is bad input.
func TestVersionsNothingFound(t *testing.T) {
	out, stderr := mustRun(t, "versions", "--demo", "--table", "VersionTimes", "--pk", "Equipment#1")
	if !strings.Contains(out, `"items": []`) || !strings.Contains(stderr, "no versioned items: looked for v0_Name, v1_Name, v001_Name, v_0 and v0…vN") ||
		!strings.Contains(stderr, "--version-pattern") {
		t.Errorf("stdout %s\nstderr %s", out, stderr)
	}
	_, stderr, code := cli(t, "versions", "--demo", "--table", "VersionTimes", "--pk", "Equipment#1", "--version-pattern", "rev#{n}#{name}")
	if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 ||
		!strings.Contains(stderr, `--version-pattern "rev#{n}#{name}" matches no sort key of partition "Equipment#1"`) || !strings.Contains(stderr, `:prefix="rev#"`) {
		t.Errorf("code %d: %s", code, stderr)
	}
}
