package ui

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// TestNoGoroutineOutsideCommands: the explorer's code starts goroutines
// only inside common.Stream (the command that starts a streamed read when
// the program runs it) and in what runs under it. A go statement in Init
// or Update would start a read before any command ran ("no I/O in
// Update").
func TestNoGoroutineOutsideCommands(t *testing.T) {
	allowed := map[string]string{
		"common/stream.go:Stream":                 "the command that starts a stream",
		"pages/maskchildren.go:runMaskedChildren": "runs inside the tree's stream",
	}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			where := filepath.ToSlash(path) + ":" + fn.Name.Name
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if g, ok := n.(*ast.GoStmt); ok && allowed[where] == "" {
					t.Errorf("%s: a goroutine started in %s: start reads with common.Stream", fset.Position(g.Pos()), where)
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// programKey marks the program's context in TestReadsUnderTheProgramsContext.
type programKey struct{}

// contextCheck notes every read made outside the program's context.
type contextCheck struct {
	dynamo.Client
	mu      sync.Mutex
	outside []string
}

func (c *contextCheck) check(ctx context.Context, op string) {
	if ctx.Value(programKey{}) == nil {
		c.mu.Lock()
		c.outside = append(c.outside, op)
		c.mu.Unlock()
	}
}

func (c *contextCheck) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.check(ctx, "Query")
	return c.Client.Query(ctx, in, o...)
}

func (c *contextCheck) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	c.check(ctx, "Scan")
	return c.Client.Scan(ctx, in, o...)
}

func (c *contextCheck) GetItem(ctx context.Context, in *dynamodb.GetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	c.check(ctx, "GetItem")
	return c.Client.GetItem(ctx, in, o...)
}

func (c *contextCheck) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, o ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	c.check(ctx, "DescribeTable")
	return c.Client.DescribeTable(ctx, in, o...)
}

func (c *contextCheck) ListTables(ctx context.Context, in *dynamodb.ListTablesInput, o ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	c.check(ctx, "ListTables")
	return c.Client.ListTables(ctx, in, o...)
}

// TestReadsUnderTheProgramsContext: every read the explorer makes (a deep
// link, the tree, a count, an export, items, a reference, a time range)
// runs under the program's context, so quitting ends it; none under a
// context of its own.
func TestReadsUnderTheProgramsContext(t *testing.T) {
	ctx := context.WithValue(context.Background(), programKey{}, true)
	cc := &contextCheck{Client: demoData(t)}
	h := newHarnessIn(t, ctx, 160, 30, Config{Client: cc, Table: "Locations", PK: "USA", Prefix: "NY#"})
	h.keys("c") // the tree
	h.contains(t, "prefixes")
	h.keys("c") // count
	h.keys("e", "enter")
	h.said(t, "exported")
	h.keys("tab") // items
	h.contains(t, "items loaded")
	h.keys(">") // follow a reference, found or not

	h = newHarnessIn(t, ctx, 160, 30, Config{Client: cc, Table: "AuditLog", PK: demo.AuditStream, Now: func() time.Time { return demo.DemoEnd }})
	h.keys("t")
	h.typeText("last 24h")
	h.keys("enter")
	h.contains(t, "items loaded")
	h.keys("e", "enter")
	h.said(t, "exported")
	if len(cc.outside) > 0 {
		t.Fatalf("reads outside the program's context: %v", cc.outside)
	}
}
