package ui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// smoke runs the real tea.Program over the demo, types keys and waits for
// want to appear on the terminal.
func smoke(t *testing.T, cfg Config, keys []string, want string) {
	metered := dynamo.NewMetered(demoData(t))
	cfg.Client, cfg.Session, cfg.Connection = metered, metered.Session, "DEMO"
	tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(100, 30),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	if len(keys) > 0 {
		// The renderer sends only what changed, so wait for one thing,
		// then type, then wait for the next.
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("loaded")) },
			teatest.WithDuration(5*time.Second))
		for _, k := range keys {
			tm.Send(keyPress(k))
		}
	}
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(want)) },
		teatest.WithDuration(5*time.Second))
	tm.Send(keyPress("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

func put(t *testing.T, db *memory.DB, table string, attrs map[string]string) {
	t.Helper()
	item := map[string]types.AttributeValue{}
	for k, v := range attrs {
		item[k] = &types.AttributeValueMemberS{Value: v}
	}
	if _, err := db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
		t.Fatal(err)
	}
}

// connecting returns a Config whose Connect answers with the demo data,
// recorded, and the preflight's answer for table (the table list when
// table is ""), as the command line's connectExplorer does.
func connecting(t *testing.T, table string) (Config, *recorder) {
	rec := record(demoData(t))
	cfg := Config{Connection: "DEMO", Table: table, Connect: func(ctx context.Context) (Connected, error) {
		metered := dynamo.NewMetered(rec)
		c := Connected{Client: metered, Session: metered.Session}
		if table != "" {
			info, _, err := dynamo.DescribeTable(ctx, demoData(t), table)
			c.Info = &info
			return c, err
		}
		names, _, err := dynamo.ListTables(ctx, demoData(t))
		c.TableNames = names
		return c, err
	}}
	return cfg, rec
}

// TestSkeleton: the first frame, before Connect has answered, at each size
// the layout is checked at: where it connects, a spinner where the list
// will be, the one read it waits for, the status bar.
func TestSkeleton(t *testing.T) {
	for _, c := range []struct{ connection, table string }{{"DEMO", ""}, {"profile prod · eu-west-1", "Locations"}} {
		for _, sz := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
			name := fmt.Sprintf("%dx%d", sz[0], sz[1])
			if c.table != "" {
				name = "table-" + name
			}
			t.Run(name, func(t *testing.T) {
				cfg := Config{Connection: c.connection, Table: c.table, Connect: func(context.Context) (Connected, error) {
					t.Fatal("connected before the first frame")
					return Connected{}, nil
				}}
				h := harnessFor(t, New(cfg), nil)
				h.m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]}) // not its commands: nothing runs yet
				h.golden(t)
			})
		}
	}
}

// TestSkeletonDrawnWhileConnecting: the real program puts the skeleton on
// the terminal while Connect still waits (here until released), then the
// tables from the preflight's list, not listed again.
func TestSkeletonDrawnWhileConnecting(t *testing.T) {
	cfg, rec := connecting(t, "")
	release, connect := make(chan struct{}), cfg.Connect
	cfg.Connect = func(ctx context.Context) (Connected, error) {
		select {
		case <-release:
			return connect(ctx)
		case <-ctx.Done():
			return Connected{}, ctx.Err()
		}
	}
	tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(120, 35),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	seen := func(s string) func([]byte) bool { return func(b []byte) bool { return bytes.Contains(b, []byte(s)) } }
	teatest.WaitFor(t, tm.Output(), seen("connecting to the demo database…"), teatest.WithDuration(5*time.Second))
	close(release)
	teatest.WaitFor(t, tm.Output(), seen("AuditLog"), teatest.WithDuration(5*time.Second))
	tm.Send(keyPress("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	if n := rec.count("ListTables"); n != 0 {
		t.Errorf("the tables were listed again (%d ListTables)", n)
	}
}

// TestConnectReusesThePreflight: the tables screen shows the list the
// preflight read without listing again (r lists again); a deep link uses
// the preflight's DescribeTable.
func TestConnectReusesThePreflight(t *testing.T) {
	cfg, rec := connecting(t, "")
	h := harnessFor(t, New(cfg), rec)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 35})
	h.contains(t, "connecting to the demo database…")
	h.run(h.m.Init())
	h.contains(t, "Tables · 16", "5,325")
	if n := rec.count("ListTables"); n != 0 {
		t.Errorf("the tables screen listed the tables again (%d ListTables)", n)
	}
	if n := rec.count("DescribeTable"); n != 16 {
		t.Errorf("%d DescribeTable, want one a table (16)", n)
	}
	h.keys("r")
	if n := rec.count("ListTables"); n != 1 {
		t.Errorf("r sent %d ListTables, want 1", n)
	}

	cfg, rec = connecting(t, "Locations")
	cfg.PK = "USA"
	h = harnessFor(t, New(cfg), rec)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 35})
	h.run(h.m.Init())
	h.contains(t, "AK#")
	if n := rec.count("DescribeTable") + rec.count("ListTables"); n != 0 {
		t.Errorf("the explorer read the table's description or the list again (%d requests)", n)
	}
}

// TestConnectingTakesOnlyQuit: while connecting there is nothing to act on;
// keys other than quit do nothing (no tour, no help, no request).
func TestConnectingTakesOnlyQuit(t *testing.T) {
	cfg, rec := connecting(t, "")
	cfg.Tour = true
	h := harnessFor(t, New(cfg), rec)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 35})
	before := h.screen()
	for _, k := range []string{"T", "1", "enter", "esc", "?", "/", "e", "y", "r", "down", "tab"} {
		h.keys(k) // runs what the key asks for, but never Init's Connect
	}
	if after := h.screen(); after != before || h.m.skeleton == nil {
		t.Fatalf("keys acted while connecting:\n%s", after)
	}
	_, cmd := h.m.Update(keyPress("q"))
	if cmd == nil {
		t.Fatal("q did not quit while connecting")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("q did not quit while connecting")
	}
}

// TestConnectingSaysRetries: the status bar of the skeleton says why the
// connection's first request is being retried, from the session it was
// given before connecting.
func TestConnectingSaysRetries(t *testing.T) {
	s := &dynamo.Session{}
	cfg := Config{Connection: "us-east-1", Session: s, Connect: func(context.Context) (Connected, error) { return Connected{}, nil }}
	h := harnessFor(t, New(cfg), nil)
	h.m.Update(tea.WindowSizeMsg{Width: 200, Height: 35})
	s.NoteRetry(1, errors.New("ThrottlingException: slow down"))
	h.contains(t, "connecting to us-east-1…", "retrying (attempt 1 failed")
}

// TestStatusBarKeepsBusyBesideAMessage: where a message leaves no room
// for the session's figures, the spinner and why a request is retried
// stay: they went with the figures, so a note shown while a read was
// retried hid that anything was in flight.
func TestStatusBarKeepsBusyBesideAMessage(t *testing.T) {
	s := &dynamo.Session{}
	cfg := Config{Connection: "us-east-1", Session: s, Connect: func(context.Context) (Connected, error) { return Connected{}, nil }}
	h := harnessFor(t, New(cfg), nil)
	h.m.Update(tea.WindowSizeMsg{Width: 120, Height: 35})
	s.NoteRetry(1, errors.New("ThrottlingException: slow down"))
	h.m.say(strings.Repeat("a long note of what was done ", 3))
	lines := strings.Split(h.screen(), "\n")
	bar := lines[len(lines)-1]
	if !strings.Contains(bar, "retrying (attempt 1 failed") || !strings.Contains(bar, "a long note") {
		t.Fatalf("the status bar drops the retry beside a message:\n%s", bar)
	}
}

// TestConnectFailureEndsTheExplorer: a failed connection or preflight ends
// the program, and Run returns the error (for the command line to print
// once the terminal is restored).
func TestConnectFailureEndsTheExplorer(t *testing.T) {
	want := errors.New("list tables: cannot reach the endpoint")
	cfg := Config{Connection: "us-east-1 · http://127.0.0.1:1", Connect: func(context.Context) (Connected, error) { return Connected{}, want }}
	err := RunWith(context.Background(), cfg, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithWindowSize(80, 24), tea.WithoutSignals())
	if !errors.Is(err, want) {
		t.Fatalf("Run returned %v, want %v", err, want)
	}
	if s := err.Error(); strings.Contains(s, "\n") {
		t.Errorf("not one line: %q", s)
	}
}
