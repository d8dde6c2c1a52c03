package ui

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// spending sums what every Query is billed: the server's figure, at
// least 0.5 a read.
type spending struct {
	seedable
	mu  sync.Mutex
	rcu float64
}

func (s *spending) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	out, err := s.seedable.Query(ctx, in, o...)
	units := 0.0
	if out != nil && out.ConsumedCapacity != nil && out.ConsumedCapacity.CapacityUnits != nil {
		units = *out.ConsumedCapacity.CapacityUnits
	}
	s.mu.Lock()
	s.rcu += max(units, 0.5)
	s.mu.Unlock()
	return out, err
}

// TestFilterBudgetNeverOverspent: a filtered read of 10 KB items with
// nothing matching stops at its budget having spent no more than it
// (half an RCU of rounding at most), each ↓ another budget's worth: the
// pages are sized to what is left, where a whole 1 MB page (128 RCU here)
// used to go out with 44 left.
func TestFilterBudgetNeverOverspent(t *testing.T) {
	tbl := seedPage7(t, memory.New())
	s := &spending{seedable: tbl.client.(seedable)}
	f, _ := domain.ParseFilter(page7Filter)
	const budget = 300
	h := newHarness(t, 100, 30, Config{Client: s, Table: "Page7", PK: "P", Filter: f,
		FilterBudget: func(string) float64 { return budget }})
	h.contains(t, "stopped at the 300 RCU budget")
	if s.rcu > budget+0.5 || s.rcu < budget-10 {
		t.Fatalf("the read stopped having spent %.1f RCU billed, with a budget of %d", s.rcu, budget)
	}
	before := s.rcu
	h.keys("down")
	h.contains(t, "stopped at the 300 RCU budget")
	if spent := s.rcu - before; spent > budget+0.5 || strings.Contains(h.screen(), tbl.matches[0]) {
		t.Fatalf("↓ spent %.1f RCU more, with a budget of %d", spent, budget)
	}
}
