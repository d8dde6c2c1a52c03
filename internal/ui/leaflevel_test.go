package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// TestLeafLevelOpensInOneRead: the partition's walk read LEAF's first
// keys, items with nothing below them: opening LEAF# reads its 100 items
// in one Query, as a plain read of it would, where a probe first took two
// (28.5). NEST#, whose keys go deeper, is probed as before.
func TestLeafLevelOpensInOneRead(t *testing.T) {
	db := memory.New()
	var items []dynamo.Item
	for i := range 100 {
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("LEAF#%04d", i)}})
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("NEST#%02d#%d", i/10, i%10)}})
	}
	if err := demo.CreateKeyTable(context.Background(), db, "Leafy", "S", items); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, 120, 35, Config{Client: db, Table: "Leafy", PK: "p"})
	for _, c := range []struct {
		keys    []string
		prefix  string
		queries int
	}{
		{[]string{"enter"}, "LEAF#", 1},
		{[]string{"esc", "down", "enter"}, "NEST#", 3}, // a probe that measures the items, then reads of one read unit
	} {
		before := h.rec.count("Query")
		h.keys(c.keys...)
		screen := h.screen()
		if got := h.rec.count("Query") - before; got != c.queries || !strings.Contains(screen, fmt.Sprintf(`:prefix="%s"`, c.prefix)) {
			t.Fatalf("opening %s sent %d Queries; want %d\n%s", c.prefix, got, c.queries, screen)
		}
	}
}
