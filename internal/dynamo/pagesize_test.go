package dynamo_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

func TestScreenLimitAndGrowth(t *testing.T) {
	more := dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"}}
	for _, tc := range []struct {
		name  string
		limit int32
		page  dynamo.Page
		want  int32
	}{
		{"doubles after a full page", 70, dynamo.Page{Scanned: 70, LastKey: more}, 140},
		{"cut by 1 MB: full pages from now on", 2000, dynamo.Page{Scanned: 1500, LastKey: more}, 0},
		{"the last page keeps its limit's growth", 70, dynamo.Page{Scanned: 12}, 140},
		{"past the cap: full pages", 16384, dynamo.Page{Scanned: 16384, LastKey: more}, 0},
		{"full pages stay full", 0, dynamo.Page{Scanned: 3000, LastKey: more}, 0},
	} {
		if got := dynamo.GrowLimit(tc.limit, tc.page); got != tc.want {
			t.Errorf("%s: GrowLimit(%d) = %d, want %d", tc.name, tc.limit, got, tc.want)
		}
	}
	// The screen and 4 rows more; 20 before the screen is measured.
	for rows, want := range map[int]int32{0: 20, 10: 14, 29: 33, 44: 48, 100000: 16384} {
		if got := dynamo.ScreenLimit(rows); got != want {
			t.Errorf("ScreenLimit(%d) = %d, want %d", rows, got, want)
		}
	}
}

// TestPageRowsIsWhereAPageEnds: PageRows at the mean size of the items
// read (dynamo.ItemBytes) says within a tenth how many items a page
// without a Limit holds, where DynamoDB ends it at 1 MB: the explorer
// sends a read while keys are still being typed once they owe half of
// that (list.Pager).
func TestPageRowsIsWhereAPageEnds(t *testing.T) {
	ctx := context.Background()
	q := domain.KeyQuery{Table: "Screen", PKName: "PK", PK: domain.S("p"), SKName: "SK"}
	for name, c := range screenBackends(t) {
		p, err := dynamo.QueryPage(ctx, c, dynamo.PageRequest{Query: q})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !p.More() {
			t.Fatalf("%s: %d items in one page: the partition is no larger than a page", name, len(p.Items))
		}
		bytes := 0
		for _, it := range p.Items {
			bytes += dynamo.ItemBytes(it)
		}
		rows := dynamo.PageRows(bytes / len(p.Items))
		t.Logf("%s: PageRows says %d items a page; the page held %d", name, rows, len(p.Items))
		if d := rows - len(p.Items); d*10 > len(p.Items) || -d*10 > len(p.Items) {
			t.Errorf("%s: PageRows says %d items a page; the page held %d", name, rows, len(p.Items))
		}
	}
	if dynamo.PageRows(0) != 0 {
		t.Errorf("PageRows(0) = %d: no size known says nothing", dynamo.PageRows(0))
	}
}

var screenSeeded seededTable

// screenBackends hold table Screen: 3,000 items of ~400 bytes in one
// partition, on both backends.
func screenBackends(t *testing.T) map[string]dynamo.Client {
	t.Helper()
	var items []dynamo.Item
	for i := range 3000 {
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"},
			"SK":   &types.AttributeValueMemberS{Value: fmt.Sprintf("ITEM#%06d", i)},
			"Data": &types.AttributeValueMemberS{Value: strings.Repeat("x", 370)}})
	}
	return seededBackends(t, &screenSeeded, func(ctx context.Context, w dynamo.Writer) error {
		return demo.CreateKeyTable(ctx, w, "Screen", "S", items)
	})
}

// TestFirstScreenCostsWhatItShows: a first page sized to a 120×35 screen
// of ~400-byte items costs at most 5 RCU, and pages that grow from it read
// exactly the keys full pages read.
func TestFirstScreenCostsWhatItShows(t *testing.T) {
	ctx := context.Background()
	q := domain.KeyQuery{Table: "Screen", PKName: "PK", PK: domain.S("p"), SKName: "SK"}
	figures := map[string]string{}
	for name, c := range screenBackends(t) {
		read := func(limit int32, grow bool) ([]string, []dynamo.Cost) {
			var keys []string
			var costs []dynamo.Cost
			var start dynamo.Item
			for {
				p, err := dynamo.QueryPage(ctx, c, dynamo.PageRequest{Query: q, Start: start, Limit: limit})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for _, it := range p.Items {
					keys = append(keys, sk(it))
				}
				costs = append(costs, p.Cost)
				if !p.More() {
					return keys, costs
				}
				if grow {
					limit = dynamo.GrowLimit(limit, p)
				}
				start = p.LastKey
			}
		}
		full, fullCosts := read(0, false)
		sized, sizedCosts := read(dynamo.ScreenLimit(29), true)
		if strings.Join(full, ",") != strings.Join(sized, ",") {
			t.Fatalf("%s: growing pages read %d keys, full pages %d", name, len(sized), len(full))
		}
		if rcu := sizedCosts[0].RCU; rcu > 5 {
			t.Errorf("%s: the first screen cost %.1f RCU, want at most 5", name, rcu)
		}
		figures[name] = fmt.Sprintf("first page %.1f RCU; %d requests to the end (full pages %d)",
			sizedCosts[0].RCU, len(sizedCosts), len(fullCosts))
		t.Logf("%s: a full first page costs %.1f RCU", name, fullCosts[0].RCU)
	}
	if figures["memory"] != figures["dynalite"] {
		t.Fatalf("backends differ:\nmemory   %s\ndynalite %s", figures["memory"], figures["dynalite"])
	}
	t.Log(figures["dynalite"])
}
