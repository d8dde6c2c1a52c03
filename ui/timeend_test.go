package ui

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/dynamo"
	"github.com/dynascope/dynascope/dynamo/demo"
	"github.com/dynascope/dynascope/dynamo/memory"
)

// seedClock writes n items a minute apart, keyed by epoch seconds.
func seedClock(t *testing.T, w dynamo.Writer, n int) {
	t.Helper()
	items := make([]dynamo.Item, n)
	for j := range items {
		items[j] = dynamo.Item{"PK": s("C"), "SK": &types.AttributeValueMemberN{Value: strconv.Itoa(clockStart + 60*j)}}
	}
	if err := demo.CreateKeyTable(context.Background(), w, "Clock", "N", items); err != nil {
		t.Fatal(err)
	}
}

const clockStart = 1700000000

var clockKey = regexp.MustCompile(`\b17\d{8}\b`)

// TestTimeGReadsTheOtherEndInOneRead: in Time mode (newest first) G sends
// one reverse Query and shows the oldest items under a gap row; scrolling
// back up from there reads on until the reads meet; g is the newest again,
// and the joined list walks down from it, every key once, in order.
func TestTimeGReadsTheOtherEndInOneRead(t *testing.T) {
	const n = 3000
	db := memory.New()
	seedClock(t, db, n)
	newest := clockStart + 60*(n-1)
	h := newHarness(t, 120, 35, Config{Client: db, Table: "Clock", PK: "C", Now: func() time.Time { return time.Unix(int64(newest), 0) }})
	h.keys("t", "esc")
	h.contains(t, "newest first", strconv.Itoa(newest), "more as you scroll")
	before := h.rec.count("Query")
	h.keys("G")
	if got := h.rec.count("Query") - before; got != 1 {
		t.Fatalf("G sent %d Query requests, want 1\n%s", got, h.screen())
	}
	h.contains(t, strconv.Itoa(clockStart), "2023-11-14 22:13:20", "the middle not read yet")
	for range 300 {
		if strings.Contains(h.screen(), "3,000 items loaded · all") {
			break
		}
		h.keys("pgup")
	}
	h.contains(t, "3,000 items loaded · all")
	if strings.Contains(h.screen(), gapText) {
		t.Fatal("the gap row stayed after the reads met")
	}
	h.keys("g")
	h.contains(t, strconv.Itoa(newest))
	want := newest
	for range 600 {
		for _, k := range clockKey.FindAllString(h.screen(), -1) {
			if v, _ := strconv.Atoi(k); v == want {
				want -= 60
			}
		}
		if want < clockStart {
			break
		}
		h.keys("pgdown")
	}
	if want >= clockStart {
		t.Fatalf("walking down the joined list found keys in order down to %d, want %d", want+60, clockStart)
	}
}

// TestTimeGOnAShortRange: a range read whole needs no reverse read: G
// just moves to its last row.
func TestTimeGOnAShortRange(t *testing.T) {
	db := memory.New()
	seedClock(t, db, 20)
	h := newHarness(t, 120, 35, Config{Client: db, Table: "Clock", PK: "C", Now: func() time.Time { return time.Unix(clockStart, 0) }})
	h.keys("t", "esc")
	h.contains(t, "20 items loaded · all")
	before := h.rec.count("Query")
	h.keys("G")
	if got := h.rec.count("Query") - before; got != 0 {
		t.Fatalf("G on a whole list sent %d Query requests", got)
	}
	if strings.Contains(h.screen(), gapText) {
		t.Fatal(fmt.Sprint("a gap row on a whole list:\n", h.screen()))
	}
}
