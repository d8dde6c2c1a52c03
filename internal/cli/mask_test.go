package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMaskHeadless: under --mask (or a table's mask = [...]) no masked
// value reaches stdout, stderr or a file in any format, unmasked
// attributes read as before, and equal values keep equal stand-ins.
func TestMaskHeadless(t *testing.T) {
	isolateAWS(t)
	dir := t.TempDir()
	secrets := []string{`"USA"`, "NY#", "NEWYORKCITY", "MAPLEVIEW", "USA"}
	for _, tc := range []struct {
		name string
		args []string
		want string // an unmasked value that must still be there
	}{
		{"items jsonl", []string{"items", "--table", "Locations", "--pk", "USA", "--limit", "50", "--mask", "PK,SK"}, "SquareFeet"},
		{"items json", []string{"items", "--table", "Locations", "--pk", "USA", "--limit", "50", "--mask", "PK,SK", "--output", "json"}, "SquareFeet"},
		{"items csv", []string{"items", "--table", "Locations", "--pk", "USA", "--limit", "50", "--mask", "PK,SK", "--output", "csv"}, "SquareFeet"},
		{"items file", []string{"items", "--table", "Locations", "--pk", "USA", "--limit", "50", "--mask", "PK,SK", "--output", filepath.Join(dir, "i.csv")}, ""},
		{"children json", []string{"children", "--table", "Locations", "--pk", "USA", "--prefix", "NY#", "--mask", "PK,SK"}, "hasChildren"},
		{"children csv", []string{"children", "--table", "Locations", "--pk", "USA", "--prefix", "NY#", "--mask", "PK,SK", "--output", "csv"}, "hasChildren"},
		{"children counted", []string{"children", "--table", "Locations", "--pk", "USA", "--prefix", "NY#", "--count", "--mask", "PK,SK", "--output", "jsonl"}, `"count":`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs := mustRun(t, append([]string{"--demo"}, tc.args...)...)
			for _, path := range []string{filepath.Join(dir, "i.csv")} {
				if data, err := os.ReadFile(path); err == nil {
					out += string(data)
				}
			}
			for _, s := range secrets {
				if strings.Contains(out, s) || strings.Contains(errs, s) {
					t.Fatalf("%q leaked:\nstdout: %.400s\nstderr: %s", s, out, errs)
				}
			}
			if !strings.Contains(out+errs, "‹m") || !strings.Contains(out, tc.want) {
				t.Fatalf("no stand-ins, or %q lost:\n%.400s", tc.want, out)
			}
		})
	}
	for _, args := range [][]string{
		{"versions", "--table", "Equipment", "--pk", "Equipment_1", "--mask", "PK,SK,Auditor,Notes"},
		{"versions", "--table", "Equipment", "--pk", "Equipment_1", "--mask", "PK,SK,Auditor,Notes", "--output", "csv"},
		{"versions", "--table", "Equipment", "--pk", "Equipment_1", "--item", "Audit#PART-7", "--mask", "PK,SK,Auditor,Notes"},
		{"versions", "--table", "Equipment", "--pk", "Equipment_1", "--item", "Audit#PART-7", "--mask", "PK,SK,Auditor,Notes", "--output", "jsonl"},
	} {
		out, errs := mustRun(t, append([]string{"--demo"}, args...)...)
		for _, s := range []string{"Equipment_1", `"Audit"`, `"Audit#`, "_Audit", "PART-7", "Auditor-"} {
			if strings.Contains(out, s) || strings.Contains(errs, s) {
				t.Fatalf("%v: %q leaked:\nstdout: %.600s\nstderr: %s", args, s, out, errs)
			}
		}
		// Revisions written as items mask the whole sort key, segment by
		// segment; the lists keep the version marker readable.
		if args[len(args)-1] != "jsonl" && !strings.Contains(out, "v0_‹m") && !strings.Contains(out, "v1_‹m") {
			t.Fatalf("%v: the version marker is not readable:\n%.600s", args, out)
		}
	}
	// The partition's key shows as one stand-in everywhere.
	out, _ := mustRun(t, "--demo", "items", "--table", "Locations", "--pk", "USA", "--limit", "3", "--mask", "PK")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if pk := `"PK":"‹m1›"`; len(lines) != 3 || strings.Count(out, pk) != 3 {
		t.Fatalf("the partition key's stand-in differs between items:\n%s", out)
	}
}

// TestMaskFromConfigAndRange: a table's mask = [...] applies without the
// flag, with the range command's stderr line masked too; a mask naming an
// attribute no item has is a note, not an error.
func TestMaskFromConfigAndRange(t *testing.T) {
	isolateAWS(t)
	conf := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(conf, []byte("[tables.DeviceLogs]\nmask = [\"DeviceID\", \"Message\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errs := mustRun(t, "--demo", "--config", conf, "range", "--table", "DeviceLogs", "--pk", "123", "--before", "1536019200", "--limit", "5", "--mask", "Nope")
	if strings.Contains(out, `"DeviceID":123`) || strings.Contains(errs, "=123") || strings.Contains(out, "heartbeat") || strings.Contains(out, "sensor read") {
		t.Fatalf("config mask not applied:\n%s\n%s", out, errs)
	}
	if !strings.Contains(errs, "note: --mask Nope: no item read has it") || !strings.Contains(out, `"Level"`) {
		t.Fatalf("stderr: %s\nstdout: %s", errs, out)
	}
	checkBadInput(t, []string{"--demo", "items", "--table", "DeviceLogs", "--pk", "123", "--mask", "a..b"}, 2, "empty name")
}

// TestMaskNotesTellNoSecret: the notes beside a masked read keep the mask
// and say only what was seen: versions' "no versioned items" names the
// partition by its stand-in, and an attribute every item has is never
// said to be in no item because a filter matched none.
func TestMaskNotesTellNoSecret(t *testing.T) {
	isolateAWS(t)
	_, errs := mustRun(t, "--demo", "versions", "--table", "Locations", "--pk", "USA", "--mask", "PK")
	if !strings.Contains(errs, "no versioned items") || strings.Contains(errs, `"USA"`) || !strings.Contains(errs, `:pk="‹m1›"`) {
		t.Fatalf("the note shows the real key, or no stand-in:\n%s", errs)
	}
	_, errs = mustRun(t, "--demo", "range", "--table", "DeviceLogs", "--pk", "123", "--before", "1536019200", "--filter", `Level = "NOPE"`, "--mask", "Level")
	if strings.Contains(errs, "no item") {
		t.Fatalf("every item has Level, none matched; the note says none has it:\n%s", errs)
	}
	_, errs = mustRun(t, "--demo", "items", "--table", "DeviceLogs", "--pk", "123", "--filter", `Level = "ERROR"`, "--mask", "Level,Nope")
	if !strings.Contains(errs, "note: --mask Nope: no item that matched has it") || strings.Contains(errs, "Level: no item") {
		t.Fatalf("the note on a filtered read:\n%s", errs)
	}
}

// TestMaskedKeyInNoNoteErrorOrHint (#38): with --mask on the key, no
// headless command says the real key on stdout or stderr: not in its
// rows, not in the line that describes the read, and not in a note, an
// error or a hint, found or not found.
func TestMaskedKeyInNoNoteErrorOrHint(t *testing.T) {
	isolateAWS(t)
	const absent = "zz-secret-pk"
	for _, tc := range []struct {
		args    []string
		secrets []string
	}{
		{[]string{"items", "--table", "Locations", "--pk", "USA", "--limit", "20", "--mask", "PK,SK"}, []string{"USA", "NEWYORKCITY"}},
		{[]string{"items", "--table", "Locations", "--pk", absent, "--mask", "PK"}, []string{absent}},
		{[]string{"items", "--table", "DeviceLogs", "--pk", absent, "--mask", "DeviceID"}, []string{absent}}, // not a number: refused without repeating it
		{[]string{"range", "--table", "DeviceLogs", "--pk", absent, "--last", "1h", "--mask", "DeviceID"}, []string{absent}},
		{[]string{"items", "--table", "Locations", "--pk", "USA", "--filter", `begins_with(SK, "NY#NEWYORKCITY#")`, "--max-rcu", "1", "--mask", "PK,SK"}, []string{"USA", "NEWYORKCITY"}},
		{[]string{"children", "--table", "Locations", "--pk", absent, "--prefix", "NY#", "--mask", "PK,SK"}, []string{absent, "NY#"}},
		{[]string{"children", "--table", "Locations", "--pk", "USA", "--prefix", "ZZSECRET#", "--mask", "PK,SK"}, []string{"USA", "ZZSECRET"}},
		{[]string{"versions", "--table", "Locations", "--pk", "USA", "--mask", "PK"}, []string{`"USA"`, "=USA"}},
		{[]string{"versions", "--table", "Equipment", "--pk", absent, "--mask", "PK,SK"}, []string{absent}},
		{[]string{"versions", "--table", "Equipment", "--pk", "Equipment_1", "--item", "Audit#PART-7", "--mask", "PK,SK,Notes"}, []string{"Equipment_1", "PART-7"}},
		{[]string{"range", "--table", "AuditLog", "--pk", "prod-api", "--at", "2026-10-31", "--limit", "5", "--mask", "Stream,At"}, []string{"prod-api", "2026-10-31T"}},
		{[]string{"range", "--table", "AuditLog", "--pk", absent, "--last", "1h", "--mask", "Stream"}, []string{absent}},
		{[]string{"range", "--table", "AuditLog", "--pk", "prod-api", "--last", "1h", "--time-format", "epoch-ms", "--mask", "Stream,At"}, []string{"prod-api", "2026-"}},
		{[]string{"range", "--table", "ChatMessages", "--pk", "portland", "--at", "2018-08", "--limit", "5", "--mask", "ChatRoomID,MessageID,TimeUser"}, []string{"portland", "amsg"}},
		{[]string{"range", "--table", "ChatMessages", "--pk", absent, "--at", "2018-08", "--mask", "ChatRoomID"}, []string{absent}},
		{[]string{"entities", "--table", "Workbench", "--pk", "USER#ada", "--mask", "PK,SK"}, []string{"USER#ada", "#ada"}},
		{[]string{"changes", "--table", "Shop", "--pk", "c#001", "--mask", "PK,SK,GSI2PK"}, []string{"c#001", "#001"}},
		{[]string{"changes", "--table", "Shop", "--pk", absent, "--mask", "PK"}, []string{absent}},
		{[]string{"diff", "--table", "Locations", "--pk", "USA", "--prefix", "NY#NEWYORKCITY#", "--against-table", "Geography", "--mask", "PK,SK"}, []string{"USA", "NEWYORKCITY"}},
		{[]string{"ttl", "--table", "AuditLog", "--pk", "prod-api", "--attribute", "At", "--mask", "Stream"}, []string{"prod-api"}},
		{[]string{"scan", "--table", "Locations", "--filter", `PK = "USA"`, "--max-rcu", "5", "--mask", "PK,SK"}, []string{"USA", "NEWYORKCITY"}},
		{[]string{"partiql", "SELECT * FROM Locations WHERE PK = 'USA' AND begins_with(SK, 'NY#')", "--mask", "PK,SK"}, []string{"USA", "NY#"}},
		{[]string{"partiql", "SELECT * FROM Locations WHERE PK = '" + absent + "'", "--mask", "PK"}, []string{absent}},
	} {
		out, errs, _ := cli(t, append([]string{"--demo"}, tc.args...)...)
		for _, s := range tc.secrets {
			if strings.Contains(out, s) || strings.Contains(errs, s) {
				t.Errorf("%v: %q shown:\nstdout: %.300s\nstderr: %s", tc.args, s, out, errs)
			}
		}
	}
}
