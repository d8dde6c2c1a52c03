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

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
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
	scrollBackThroughGap(t, h, "3,000 items loaded · all")
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

// seedStateLog writes a STATE#time log of n items 7 minutes apart over
// four states, from 2020-04-01.
func seedStateLog(t *testing.T, w dynamo.Writer, n int) []string {
	t.Helper()
	states := []string{"ERROR", "NORMAL", "WARNING1", "WARNING2"}
	start := time.Date(2020, 4, 1, 0, 0, 0, 0, time.UTC)
	items := make([]dynamo.Item, n)
	keys := make([]string, n)
	for i := range items {
		keys[n-1-i] = states[(i*3)%4] + "#" + start.Add(time.Duration(i)*7*time.Minute).Format("2006-01-02T15:04:05")
		items[i] = dynamo.Item{"PK": s("d#1"), "SK": s(keys[n-1-i])}
	}
	if err := demo.CreateKeyTable(context.Background(), w, "States", "S", items); err != nil {
		t.Fatal(err)
	}
	return keys // newest first
}

var stateKey = regexp.MustCompile(`\b(?:ERROR|NORMAL|WARNING1|WARNING2)#2020-\d\d-\d\dT\d\d:\d\d:\d\d\b`)

// TestTimeMergedGReadsTheEndInOneRead: on a range merged across four
// prefixes, G sends one reverse Query a prefix and shows the oldest items
// under a gap row; scrolling back reads on backwards until the reads meet;
// g is the newest again, and the joined list walks down from it, every
// key once, in the merge's order; on both backends.
func TestTimeMergedGReadsTheEndInOneRead(t *testing.T) {
	const n = 1200
	type backend interface {
		dynamo.Client
		dynamo.Writer
	}
	for name, c := range map[string]backend{"memory": memory.New(), "dynalite": dynalitetest.Start(t).Client()} {
		t.Run(name, func(t *testing.T) {
			keys := seedStateLog(t, c, n)
			h := newHarness(t, 120, 35, Config{Client: c, Table: "States", PK: "d#1", Now: demoClock})
			h.keys("t")
			h.typeText("2020-04")
			h.keys("enter")
			h.contains(t, "newest first across 4 prefixes", keys[0], "more as you scroll")
			before := h.rec.count("Query")
			h.keys("G")
			if got := h.rec.count("Query") - before; got != 4 {
				t.Fatalf("G sent %d Query requests, want one a prefix (4)\n%s", got, h.screen())
			}
			h.contains(t, keys[n-1], "the middle not read yet")
			scrollBackThroughGap(t, h, "1,200 items loaded · all")
			h.keys("g")
			h.contains(t, keys[0])
			seen := 0
			for range 600 {
				for _, k := range stateKey.FindAllString(h.screen(), -1) {
					if seen < n && k == keys[seen] {
						seen++
					}
				}
				if seen == n {
					break
				}
				h.keys("pgdown")
			}
			if seen != n {
				t.Fatalf("walking down the joined list found keys in order up to %d of %d (next %s)", seen, n, keys[seen])
			}
		})
	}
}

// TestTimeMergedGFailedRetries: when one of G's reverse Queries fails, the
// failure is said below the rows loaded, and r reads the end again: the
// gap row and the oldest items, not the head read on.
func TestTimeMergedGFailedRetries(t *testing.T) {
	db := memory.New()
	keys := seedStateLog(t, db, 1200)
	f := failAfter("Query", 1<<30, throttled)
	f.Client = db
	h := newHarness(t, 120, 35, Config{Client: f, Table: "States", PK: "d#1", Now: demoClock})
	h.keys("t")
	h.typeText("2020-04")
	h.keys("enter")
	h.contains(t, "newest first across 4 prefixes", keys[0])
	f.mu.Lock()
	f.after = f.calls + 2 // the third of G's four Queries fails
	f.mu.Unlock()
	h.keys("G")
	h.contains(t, "read failed after 3 attempts", "r retries")
	if strings.Contains(h.screen(), keys[len(keys)-1]) {
		t.Fatalf("the oldest item shown after a failed G:\n%s", h.screen())
	}
	f.mu.Lock()
	f.after = 1 << 30
	f.mu.Unlock()
	before := h.rec.count("Query")
	h.keys("r")
	if got := h.rec.count("Query") - before; got != 4 {
		t.Fatalf("r after a failed G sent %d Query requests, want G's 4 again", got)
	}
	h.contains(t, keys[len(keys)-1], "the middle not read yet")
}
