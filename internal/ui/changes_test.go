package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// changesHarness opens the demo's Shop partition whose orders move
// through their states in its stream, at the demo's present.
func changesHarness(t *testing.T, w, h int, pk string) *harness {
	db := demoData(t)
	return newHarness(t, w, h, Config{Table: demo.ShopTable, PK: pk, Streams: db, Now: func() time.Time { return demo.DemoEnd }})
}

// TestChangesTab: 5 opens the partition's changes from the table's
// stream, newest first, with what the selected one changed; reading it
// costs no Query and no RCU.
func TestChangesTab(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := changesHarness(t, size[0], size[1], demo.StreamCustomer)
			before := h.rec.count("Query") + h.rec.count("Scan") + h.rec.count("GetItem")
			h.keys("5")
			h.contains(t, "c#001 · 9 changes in 24 h", "MODIFY", "2026-10-31 23:54:00", `~ Status  "SHIPPED" → "DELIVERED"`)
			if n := h.rec.count("Query") + h.rec.count("Scan") + h.rec.count("GetItem") - before; n != 0 {
				t.Errorf("the Changes tab read the table %d times", n)
			}
			if total, _ := h.m.cfg.Session.Totals(); total.Requests < 4 {
				t.Errorf("the status bar counts %d requests: the stream's calls are not counted", total.Requests)
			}
			h.golden(t)
		})
	}
}

// TestChangesTabOrderAndDiff: the newest change is first; stepping down
// shows each one's diff, an INSERT as added attributes.
func TestChangesTabOrderAndDiff(t *testing.T) {
	h := changesHarness(t, 120, 35, demo.StreamCustomer)
	h.keys("5")
	s := h.screen()
	first, last := strings.Index(s, "23:54:00"), strings.Index(s, "01:00:00")
	if first < 0 || last < 0 || first > last {
		t.Fatalf("not newest first:\n%s", s)
	}
	h.keys("G")
	h.contains(t, `+ Email  "c1@old.example.com"`)
}

// TestChangesTabMasked: --mask hides old and new values in the diff.
func TestChangesTabMasked(t *testing.T) {
	db := demoData(t)
	h := newHarness(t, 120, 35, Config{Table: demo.ShopTable, PK: demo.StreamCustomer, Streams: db, Mask: []string{"Email"},
		Now: func() time.Time { return demo.DemoEnd }})
	h.keys("5", "down")
	s := h.screen()
	if strings.Contains(s, "example.com") {
		t.Fatalf("a masked value shown:\n%s", s)
	}
	h.contains(t, "~ Email  \"‹m")
}

// TestChangesTabNoStream: a table without a stream dims the tab, and 5
// says why, reading nothing.
func TestChangesTabNoStream(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Table: "Locations", PK: "USA", Streams: demoData(t)})
	before := len(h.rec.calls)
	h.keys("5")
	h.contains(t, "No Changes mode here: the table has no stream")
	if len(h.rec.calls) != before {
		t.Errorf("pressing 5 on a table without a stream read %v", h.rec.calls)
	}
}

// TestTableChanges: 5 on the partitions list opens every partition's
// changes from the stream, newest first, with both key columns and the
// selected one's diff, reading no table item.
func TestTableChanges(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			db := demoData(t)
			h := newHarness(t, size[0], size[1], Config{Table: demo.StateTable, Streams: db, Now: func() time.Time { return demo.DemoEnd }})
			before := h.rec.count("Query") + h.rec.count("Scan") + h.rec.count("GetItem")
			h.keys("5")
			h.contains(t, "all partitions · 6 changes in 24 h", "DeviceID", demo.StateDevice, "+ Reading")
			if n := h.rec.count("Query") + h.rec.count("Scan") + h.rec.count("GetItem") - before; n != 0 {
				t.Errorf("the table's changes read the table %d times", n)
			}
			h.golden(t)
		})
	}
}

// TestTableChangesAcrossPartitions: the table-wide view holds every
// partition's changes, newest first; the mode keys of a partition say
// how to reach them, and a table without a stream says why, reading
// nothing.
func TestTableChangesAcrossPartitions(t *testing.T) {
	db := ordersTable(t)
	putOrder(t, db, "c1", "o1", "PLACED")
	putOrder(t, db, "c2", "o9", "PLACED")
	putOrder(t, db, "c1", "o1", "PAID")
	h := newHarness(t, 120, 35, Config{Client: db, Streams: db, Table: "Orders"})
	h.keys("5")
	h.contains(t, "all partitions · 3 changes in 24 h", `~ Status  "PLACED" → "PAID"`)
	s := h.screen()
	if i, j := strings.Index(s, "MODIFY"), strings.Index(s, "c2"); i < 0 || j < 0 || j < i {
		t.Fatalf("not every partition's, newest first:\n%s", s)
	}
	putOrder(t, db, "c3", "o5", "PLACED") // any partition's new write, followed
	d := h.driver()
	d.key("F")
	d.until(t, 10*time.Second, func(s string) bool { return strings.Contains(s, "following · 1 new") })
	h.contains(t, "c3", "o5")
	d.key("F")
	h.keys("1")
	h.said(t, "open one (esc, then enter)")
	h.keys("esc")
	h.contains(t, "c1", "c2")

	nostream := newHarness(t, 120, 35, Config{Table: "Locations", Streams: demoData(t)})
	before := len(nostream.rec.calls)
	nostream.keys("5")
	nostream.said(t, "No Changes here: the table has no stream")
	if len(nostream.rec.calls) != before {
		t.Errorf("5 on a table without a stream read %v", nostream.rec.calls)
	}
}

// TestTablesPreviewSaysStream: the table list's preview says, from the
// DescribeTable it already made, whether a table keeps a stream and of
// which view type.
func TestTablesPreviewSaysStream(t *testing.T) {
	h := newHarness(t, 200, 50, Config{})
	h.contains(t, "stream         none: no Changes") // the first table, AuditLog
	for range 30 {
		if strings.Contains(h.screen(), "stream         NEW_AND_OLD_IMAGES") {
			return
		}
		h.keys("down")
	}
	t.Fatalf("no table's preview names its stream:\n%s", h.screen())
}

// TestTableChangesFromTheTableList: 5 on a table of the list opens its
// changes as the partitions list does; on one without a stream it says
// why and reads nothing.
func TestTableChangesFromTheTableList(t *testing.T) {
	h := newHarness(t, 120, 35, Config{Streams: demoData(t), Now: func() time.Time { return demo.DemoEnd }})
	before := len(h.rec.calls)
	h.keys("5") // the first table, AuditLog, keeps no stream
	h.said(t, "No Changes here: the table has no stream")
	if len(h.rec.calls) != before {
		t.Errorf("5 on a table without a stream read %v", h.rec.calls)
	}
	for range 20 { // down to the first table with a stream: Shop
		if h.keys("down", "5"); strings.Contains(h.screen(), "all partitions · ") {
			break
		}
	}
	h.contains(t, "Tables › Shop › changes", "all partitions · 9 changes in 24 h")
}
