package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/dynamo/mototest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	dynalitetest.StopShared()
	mototest.StopShared()
	os.Exit(code)
}

// backends returns the same small demo subset on both backends.
func backends(t *testing.T) map[string]dynamo.Client {
	t.Helper()
	ctx := context.Background()
	opts := demo.Options{Tables: []string{"Equipment", "Documents", "Blobs", demo.PolicyTable}}
	mem := memory.New()
	if _, err := demo.Seed(ctx, mem, opts); err != nil {
		t.Fatal(err)
	}
	srv := dynalitetest.Shared(t)
	dl := srv.Client()
	if _, err := dl.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(demo.PolicyTable)}); err != nil {
		if _, err := demo.Seed(ctx, dl, opts); err != nil {
			t.Fatal(err)
		}
	}
	return map[string]dynamo.Client{"memory": mem, "dynalite": dl}
}

func sk(it dynamo.Item) string { return it["SK"].(*types.AttributeValueMemberS).Value }

// TestPagesSameOnBothBackends pages a 1,002-item partition with the data
// layer's own functions and requires the same keys, pages and cost.
func TestPagesSameOnBothBackends(t *testing.T) {
	ctx := context.Background()
	got := map[string]string{}
	for name, c := range backends(t) {
		m := dynamo.NewMetered(c)
		q := domain.KeyQuery{Table: "Equipment", PKName: "PK", PK: domain.S(demo.LongHistoryPiece), SKName: "SK",
			SK: domain.SKCondition{Op: domain.SKBeginsWith, A: domain.S("v")}}
		var keys []string
		var start dynamo.Item
		pages := 0
		var cost dynamo.Cost
		for {
			p, err := dynamo.QueryPage(ctx, m, dynamo.PageRequest{Query: q, Start: start, Limit: 100})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			pages++
			cost = cost.Add(p.Cost)
			for _, it := range p.Items {
				keys = append(keys, sk(it))
			}
			if !p.More() {
				break
			}
			start = p.LastKey
		}
		if len(keys) != demo.LongHistoryRevisions+1 {
			t.Fatalf("%s: %d keys", name, len(keys))
		}
		seen := map[string]bool{}
		for _, k := range keys {
			if seen[k] {
				t.Fatalf("%s: %s twice", name, k)
			}
			seen[k] = true
		}
		total, _ := m.Session.Totals()
		if total.Requests != pages || total.RCU != cost.RCU {
			t.Fatalf("%s: session %+v, pages %d cost %+v", name, total, pages, cost)
		}
		got[name] = fmt.Sprintf("%v|%d|%.1f", keys, pages, cost.RCU)
	}
	if got["memory"] != got["dynalite"] {
		t.Fatalf("backends differ:\nmemory   %.200s\ndynalite %.200s", got["memory"], got["dynalite"])
	}
}

// countedLists counts ListTables calls.
type countedLists struct {
	dynamo.Client
	calls int
}

func (c *countedLists) ListTables(ctx context.Context, in *dynamodb.ListTablesInput, o ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	c.calls++
	return c.Client.ListTables(ctx, in, o...)
}

// TestTableListHandsOnEachPage: the table list is handed on a page at a
// time, each before the next is asked for, and the pages together are
// the whole list; a caller that has what it needs stops the rest.
func TestTableListHandsOnEachPage(t *testing.T) {
	ctx := context.Background()
	for name, c := range backends(t) {
		all, _, err := dynamo.ListTables(ctx, c)
		if err != nil || len(all) < 4 {
			t.Fatalf("%s: %d tables, %v", name, len(all), err)
		}
		cl := &countedLists{Client: c}
		var got []string
		cost, err := dynamo.ListTablePages(ctx, cl, 3, func(page []string, cost dynamo.Cost) bool {
			if len(page) > 3 || cl.calls != cost.Requests || cl.calls != len(got)/3+1 {
				t.Errorf("%s: a page of %d after %d calls (%d names before it), cost %d requests", name, len(page), cl.calls, len(got), cost.Requests)
			}
			got = append(got, page...)
			return true
		})
		if err != nil || strings.Join(got, ",") != strings.Join(all, ",") || cost.Requests < (len(all)+2)/3 {
			t.Fatalf("%s: pages gave %d names of %d in %d requests, %v", name, len(got), len(all), cost.Requests, err)
		}
		cl.calls = 0
		if _, err := dynamo.ListTablePages(ctx, cl, 3, func([]string, dynamo.Cost) bool { return false }); err != nil || cl.calls != 1 {
			t.Errorf("%s: stopping after the first page took %d calls, %v", name, cl.calls, err)
		}
	}
}

// TestTableListPageByPage: the explorer's table list, a page a call from
// where the last ended, is the whole list, one request a page.
func TestTableListPageByPage(t *testing.T) {
	ctx := context.Background()
	for name, c := range backends(t) {
		all, _, err := dynamo.ListTables(ctx, c)
		if err != nil || len(all) < 4 {
			t.Fatalf("%s: %d tables, %v", name, len(all), err)
		}
		var got []string
		start, requests := "", 0
		for {
			names, next, cost, err := dynamo.ListTablesPage(ctx, c, start, 3, len(got))
			if err != nil || len(names) > 3 {
				t.Fatalf("%s: a page of %d after %q: %v", name, len(names), start, err)
			}
			requests += cost.Requests
			got = append(got, names...)
			if next == "" {
				break
			}
			start = next
		}
		if strings.Join(got, ",") != strings.Join(all, ",") || requests > (len(all)+2)/3+1 {
			t.Fatalf("%s: pages gave %d names of %d in %d requests", name, len(got), len(all), requests)
		}
	}
}

func TestReverseAndScanKeysSame(t *testing.T) {
	ctx := context.Background()
	got := map[string]string{}
	for name, c := range backends(t) {
		info, _, err := dynamo.DescribeTable(ctx, c, "Documents")
		if err != nil {
			t.Fatal(err)
		}
		p, err := dynamo.QueryPage(ctx, c, dynamo.PageRequest{Query: domain.KeyQuery{Table: "Documents", PKName: "DocumentID",
			PK: domain.S("doc-0001"), SKName: "DocumentInfo", Reverse: true}})
		if err != nil {
			t.Fatal(err)
		}
		var order []string
		for _, it := range p.Items {
			order = append(order, it["DocumentInfo"].(*types.AttributeValueMemberS).Value)
		}
		s, err := dynamo.ScanKeysPage(ctx, c, dynamo.PartitionsRequest{Table: "Documents", Key: info.Key, Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range s.Items {
			if len(it) != 2 {
				t.Fatalf("%s: keys-only scan returned %v", name, it)
			}
		}
		got[name] = fmt.Sprintf("%v %v %v %d %v", info.Key.PK, *info.Key.SK, order, len(s.Items), s.More())
	}
	if got["memory"] != got["dynalite"] {
		t.Fatalf("backends differ:\nmemory   %s\ndynalite %s", got["memory"], got["dynalite"])
	}
}

func TestErrorsExplainedOnBothBackends(t *testing.T) {
	ctx := context.Background()
	for name, c := range backends(t) {
		_, _, err := dynamo.DescribeTable(ctx, c, "Nope")
		var e *dynamo.Error
		if !errors.As(err, &e) || e.Kind != dynamo.KindNotFound || e.Hint == "" {
			t.Fatalf("%s: missing table gave %v", name, err)
		}
		_, err = dynamo.QueryPage(ctx, c, dynamo.PageRequest{Query: domain.KeyQuery{Table: "Equipment", PKName: "PK", PK: domain.N("1")}})
		if dynamo.KindOf(err) != dynamo.KindValidation {
			t.Fatalf("%s: wrong key type gave %v", name, err)
		}
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err = dynamo.QueryPage(cctx, c, dynamo.PageRequest{Query: domain.KeyQuery{Table: "Equipment", PKName: "PK", PK: domain.S("x")}})
		if dynamo.KindOf(err) != dynamo.KindCancelled {
			t.Fatalf("%s: cancelled context gave %v", name, err)
		}
	}
}
