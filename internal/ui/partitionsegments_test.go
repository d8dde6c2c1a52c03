package ui

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// failScans fails the Scan calls it lists (1-based).
type failScans struct {
	dynamo.Client
	mu   sync.Mutex
	n    int
	fail map[int]bool
}

func (f *failScans) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	f.mu.Lock()
	f.n++
	n := f.n
	f.mu.Unlock()
	if f.fail[n] {
		return nil, &smithy.GenericAPIError{Code: "InternalServerError", Message: "scan failed on purpose"}
	}
	return f.Client.Scan(ctx, in, o...)
}

var partitionRowRE = regexp.MustCompile(`│ (W\d\d)\s+(\d+)(\+?)\s`)

// TestPartitionsPageInSegments: a table of large partitions is listed in
// parallel Scan segments; two of a step's reads fail, r reads those again
// and the list goes on as the user scrolls: every partition once, and a
// partition shows + exactly while keys of it are unread.
func TestPartitionsPageInSegments(t *testing.T) {
	ctx := context.Background()
	db := memory.New()
	sizes := map[string]int{}
	var items []dynamo.Item
	for p := range 48 {
		pk := fmt.Sprintf("W%02d", p)
		sizes[pk] = 40 + p%3
		for i := range sizes[pk] {
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: pk},
				"SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("S%03d", i)}, "Data": &types.AttributeValueMemberS{Value: strings.Repeat("d", 300)}})
		}
	}
	if err := demo.CreateKeyTable(ctx, db, "Wide", "S", items); err != nil {
		t.Fatal(err)
	}
	// The first read, then a step of 8 segments' reads: two of them fail.
	h := newHarness(t, 100, 30, Config{Client: &failScans{Client: db, fail: map[int]bool{3: true, 7: true}}, Table: "Wide"})
	h.contains(t, "read failed", "r retries", "TotalSegments: 8")
	h.keys("r")
	for range 50 {
		if strings.Contains(h.screen(), "48 partitions · all") {
			break
		}
		h.keys("pgdown")
	}
	h.contains(t, "48 partitions · all")
	// Every row, from the top: each partition once, + exactly while keys
	// of it are unread.
	h.keys("g")
	rows := map[string]bool{}
	for range 10 {
		for _, m := range partitionRowRE.FindAllStringSubmatch(h.screen(), -1) {
			if rows[m[1]] {
				continue
			}
			rows[m[1]] = true
			n, _ := strconv.Atoi(m[2])
			if n < 1 || n > sizes[m[1]] || (m[3] == "+") != (n < sizes[m[1]]) {
				t.Errorf("%s: %s%s keys seen, it has %d", m[1], m[2], m[3], sizes[m[1]])
			}
		}
		h.keys("pgdown")
	}
	if len(rows) != 48 {
		t.Errorf("%d partitions shown, want 48", len(rows))
	}
}
