package cli

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/ui"
	"github.com/dynascope/dynascope/internal/ui/uitest"
)

// gatedProxy forwards requests to a server, counting each by its
// operation as it arrives; once framed is closed (the first frame drawn),
// each waits for open to be closed. (Requests before the frame pass, so
// that a program that reads first fails the test rather than hanging it.)
type gatedProxy struct {
	framed, open chan struct{}
	mu           sync.Mutex
	ops          map[string]int
}

func newGatedProxy(t *testing.T, target string) (*gatedProxy, string) {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	g := &gatedProxy{framed: make(chan struct{}), open: make(chan struct{}), ops: map[string]int{}}
	rp := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		op := r.Header.Get("X-Amz-Target")
		op = op[strings.LastIndex(op, ".")+1:]
		g.mu.Lock()
		g.ops[op]++
		g.mu.Unlock()
		select {
		case <-g.framed:
			<-g.open
		default:
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return g, srv.URL
}

func (g *gatedProxy) count(op string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	if op == "" {
		n := 0
		for _, c := range g.ops {
			n += c
		}
		return n
	}
	return g.ops[op]
}

// TestExplorerDrawsBeforeItReads: the explorer's first frame (the
// skeleton) is drawn before any request reaches the server; the
// connection and the preflight follow, and the tables screen uses the
// preflight's list: one ListTables in all, on dynalite.
func TestExplorerDrawsBeforeItReads(t *testing.T) {
	srv := dynalitetest.Shared(t)
	isolateAWS(t)
	// The shared dynalite holds every test's tables (40 and more): a name
	// that sorts before any letter is on the tables screen's first rows
	// whatever the other tests made.
	createTable(t, srv.Client(), "0FirstFrame", "SK", types.ScalarAttributeTypeS)
	for _, c := range []struct {
		name     string
		args     []string
		skeleton string // the first frame
		opened   string // the screen once the preflight answered
		reads    map[string]int
	}{
		{"tables", nil, "ListTables (its first page), once", "0FirstFrame", map[string]int{"ListTables": 1}},
		{"--table", []string{"--table", "0FirstFrame"}, "DescribeTable 0FirstFrame, once", "0FirstFrame · 0 partitions", map[string]int{"ListTables": 0, "DescribeTable": 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			gate, endpoint := newGatedProxy(t, srv.Endpoint)
			saved := runExplorer
			defer func() { runExplorer = saved }()
			var first, opened string
			runExplorer = func(_ context.Context, cfg ui.Config) error {
				m := ui.New(cfg)
				uitest.Send(t, m, tea.WindowSizeMsg{Width: 120, Height: 35})
				first = uitest.Screen(m)
				close(gate.framed)
				if n := gate.count(""); n != 0 {
					t.Errorf("%d requests reached the server before the first frame", n)
				}
				init := m.Init() // returns at once: the connection is a command
				if n := gate.count(""); n != 0 {
					t.Errorf("Init sent %d requests itself, not in a command", n)
				}
				close(gate.open)
				uitest.Drive(t, m, init)
				opened = uitest.Screen(m)
				if total, _ := cfg.Session.Totals(); total.Requests == 0 {
					t.Error("the connection's requests were not counted in the session the explorer shows from its first frame")
				}
				return nil
			}
			mustRun(t, append([]string{"--endpoint-url", endpoint, "--region", "us-east-1"}, c.args...)...)
			for _, want := range []string{"connecting to us-east-1 · " + endpoint + "…", c.skeleton, "READ-ONLY", "q quit"} {
				if !strings.Contains(first, want) {
					t.Errorf("the first frame lacks %q:\n%s", want, first)
				}
			}
			if !strings.Contains(opened, c.opened) || strings.Contains(opened, "connecting to") {
				t.Errorf("once connected the screen lacks %q:\n%s", c.opened, opened)
			}
			for op, want := range c.reads {
				if got := gate.count(op); got != want {
					t.Errorf("%s sent %d times, want %d", op, got, want)
				}
			}
		})
	}
}
