package mototest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// TestBilledAtLeastWhatTheItemsWeigh: moto reports 1.0 RCU for any read;
// a Query sending back 100 items of ~1 KB is billed by DynamoDB ~12.5
// (100 KB in 4 KB units, 0.5 each). The session and the page's cost bill
// the larger figure, marked as an estimate; a filtered read that sends
// back nothing is not billed past what the server said (what it read is
// unknown: the items sent back are only a lower bound). The memory
// backend reports what DynamoDB bills, so nothing is estimated there.
func TestBilledAtLeastWhatTheItemsWeigh(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var items []dynamo.Item
	pad := strings.Repeat("x", 1000)
	for i := range 100 {
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"},
			"SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("I#%03d", i)}, "Data": &types.AttributeValueMemberS{Value: pad}})
	}
	mem := memory.New()
	moto := Start(t).Client()
	for name, c := range map[string]interface {
		dynamo.Client
		dynamo.Writer
	}{"moto": moto, "memory": mem} {
		if err := demo.CreateKeyTable(ctx, c, "Billing", "S", items); err != nil {
			t.Fatal(err)
		}
		m := dynamo.NewMetered(c)
		q := domain.KeyQuery{Table: "Billing", PKName: "PK", PK: domain.S("p"), SKName: "SK"}
		page, err := dynamo.QueryPage(ctx, m, dynamo.PageRequest{Query: q})
		if err != nil || len(page.Items) != 100 {
			t.Fatalf("%s: %d items, %v", name, len(page.Items), err)
		}
		total, _ := m.Session.Totals()
		billed, est := m.Session.Billed()
		least := 0.5 * float64((100*1011+4095)/4096) // 100 items of ≥ 1,011 bytes
		if billed < least || page.Cost.Billed != billed || est != (total.RCU < least) || page.Cost.Estimated != est {
			t.Errorf("%s: 100 items of ~1 KB reported %.1f RCU, billed %.1f (page %.1f), estimated %v (page %v); want at least %.1f",
				name, total.RCU, billed, page.Cost.Billed, est, page.Cost.Estimated, least)
		}
		if name == "moto" && !est {
			t.Errorf("moto reported %.1f RCU for 100 KB: the bill should be an estimate", total.RCU)
		}

		f := dynamo.NewMetered(c)
		if q.Filter, err = domain.ParseFilter(`Data = "none"`); err != nil {
			t.Fatal(err)
		}
		page, err = dynamo.QueryPage(ctx, f, dynamo.PageRequest{Query: q})
		if err != nil || len(page.Items) != 0 {
			t.Fatalf("%s: filter matched %d, %v", name, len(page.Items), err)
		}
		reported, _ := f.Session.Totals()
		if billed, _ := f.Session.Billed(); billed != max(reported.RCU, 0.5) || page.Cost.Billed != billed {
			t.Errorf("%s: a filtered read of nothing reported %.1f RCU, billed %.1f (page %.1f)", name, reported.RCU, billed, page.Cost.Billed)
		}
		t.Logf("%s: reported %.1f, billed %.1f", name, total.RCU, billed)
	}
}
