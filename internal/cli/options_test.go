package cli

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// TestFlagsCheckedBeforeConnecting calls each command's run function with
// options that are wrong in a way only the flags show, on a demo whose
// loading fails the test: every one is refused as a usage error without
// connecting. children --count with a partition pattern used to walk every
// shard with real reads before refusing.
func TestFlagsCheckedBeforeConnecting(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	saved := loadDemo
	defer func() { loadDemo = saved }()
	connected := false
	loadDemo = func(context.Context) (*memory.DB, error) {
		connected = true
		return nil, errors.New("connected")
	}
	io := func() commandIO {
		return commandIO{g: &globals{demo: true}, stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	}
	items := func(f itemsFlags) itemsFlags {
		f.commandIO = io()
		if f.table == "" {
			f.table = "ChatMessages"
		}
		if f.pk == "" {
			f.pk = "seattle-{1..4}"
		}
		return f
	}
	cases := []struct {
		name string
		run  func() error
		want string
	}{
		{"children --count on a pattern", func() error {
			return runChildren(context.Background(), &childrenFlags{itemsFlags: items(itemsFlags{output: "json"}), count: true, countBudget: 1000})
		}, "--count does not combine with a partition pattern"},
		{"children bad pattern", func() error {
			return runChildren(context.Background(), &childrenFlags{itemsFlags: items(itemsFlags{pk: "s-{4..1", output: "json"}), countBudget: 1000})
		}, "--pk"},
		{"items --filter", func() error {
			return runItems(context.Background(), ptr(items(itemsFlags{pk: "general", output: "jsonl", filter: "status = "})))
		}, "--filter"},
		{"items --max-rcu", func() error {
			return runItems(context.Background(), ptr(items(itemsFlags{pk: "general", output: "jsonl", maxRCU: -1})))
		}, "--max-rcu"},
		{"range --filter", func() error {
			return runRange(context.Background(), &rangeFlags{itemsFlags: items(itemsFlags{pk: "general", output: "jsonl", filter: "a ="}), last: "1h", overlap: 5 * time.Second})
		}, "--filter"},
		{"versions --mask", func() error {
			f := &versionsFlags{itemsFlags: items(itemsFlags{pk: "Equipment_1", output: "json"})}
			f.g.mask = []string{"a..b"}
			return runVersions(context.Background(), f)
		}, "mask"},
		{"scan --filter", func() error {
			return runScan(context.Background(), &scanFlags{commandIO: io(), table: "Locations", output: "jsonl", filter: "City ="})
		}, "--filter"},
		{"scan --segments", func() error {
			return runScan(context.Background(), &scanFlags{commandIO: io(), table: "Locations", output: "jsonl", segments: 65})
		}, "--segments"},
		{"scan --resume", func() error {
			return runScan(context.Background(), &scanFlags{commandIO: io(), table: "Locations", output: "jsonl", resume: "not-a-token"})
		}, "--resume"},
		{"scan --output", func() error {
			return runScan(context.Background(), &scanFlags{commandIO: io(), table: "Locations", output: "xml"})
		}, "--output"},
		{"partiql DELETE", func() error {
			return runPartiQL(context.Background(), &partiqlFlags{commandIO: io(), output: "jsonl", statement: `DELETE FROM "Locations" WHERE PK = 'USA'`})
		}, "DELETE writes"},
		{"partiql --output", func() error {
			return runPartiQL(context.Background(), &partiqlFlags{commandIO: io(), output: "xml", statement: `SELECT * FROM "Locations"`})
		}, "--output"},
		{"tables --output", func() error {
			return runTables(context.Background(), &tablesOptions{commandIO: io(), output: "yaml"})
		}, "--output"},
		{"explorer --theme", func() error {
			return runRoot(context.Background(), &globals{demo: true}, &rootOptions{theme: "pink", changed: func(string) bool { return false }})
		}, "--theme"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			connected = false
			err := c.run()
			var ue usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want a usage error about %s", err, c.want)
			}
			if connected {
				t.Errorf("connected before refusing")
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
