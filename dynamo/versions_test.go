package dynamo_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/dynascope/dynascope/dynamo"
	"github.com/dynascope/dynascope/dynamo/demo"
	"github.com/dynascope/dynascope/model"
)

var equipmentKey = dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}

func versionsReq(pk, name string) dynamo.VersionsRequest {
	return dynamo.VersionsRequest{Table: "Equipment", Key: equipmentKey, PK: model.S(pk), Name: name}
}

// summary is a history in one comparable line.
func summary(h model.History) string {
	cur := "none"
	if h.Current != nil {
		cur = h.Current.Key
	}
	latest := "none"
	if l := h.Latest(); l != nil {
		latest = l.Key
	}
	return fmt.Sprintf("%s current=%s revisions=%d latest=%s drift=%q", h.Name, cur, len(h.Revisions), latest, h.Drift)
}

// TestVersionsDemoAnomalies: each of the demo's version anomalies is found,
// the same on both backends, at the same cost.
func TestVersionsDemoAnomalies(t *testing.T) {
	ctx := context.Background()
	want := map[string][]string{
		demo.DriftedPiece: {`Audit current=v0_Audit revisions=3 latest=v3_Audit drift=[]`,
			`Audit#PART-7 current=v0_Audit#PART-7 revisions=3 latest=v3_Audit#PART-7 drift=["v0_ differs from v3_: Findings, Status"]`},
		demo.GapPiece:            {`Audit current=v0_Audit revisions=5 latest=v6_Audit drift=["gap: no v4_ between v3_ and v5_"]`},
		demo.MissingCurrentPiece: {`Audit current=none revisions=4 latest=v4_Audit drift=["v0_ is missing: no current copy of 4 revisions"]`},
		demo.DuplicatePiece:      {`Audit current=v0_Audit revisions=4 latest=v3_Audit drift=["v1_ appears 2 times: v001_Audit, v1_Audit"]`},
		demo.PaddedPiece:         {`Audit current=v000_Audit revisions=12 latest=v012_Audit drift=[]`},
		demo.LongHistoryPiece:    {`Audit current=v0000_Audit revisions=1000 latest=v1000_Audit drift=[]`},
	}
	costs := map[string]string{}
	for name, c := range backends(t) {
		var b strings.Builder
		for _, pk := range slices.Sorted(maps.Keys(want)) {
			lines := want[pk]
			m := dynamo.NewMetered(c)
			res, err := dynamo.Versions(ctx, m, versionsReq(pk, ""), nil)
			if err != nil {
				t.Fatalf("%s %s: %v", name, pk, err)
			}
			var got []string
			for _, h := range res.Histories {
				got = append(got, summary(h))
			}
			if strings.Join(got, "\n") != strings.Join(lines, "\n") {
				t.Errorf("%s %s:\n got %s\nwant %s", name, pk, strings.Join(got, "\n     "), strings.Join(lines, "\n     "))
			}
			total, _ := m.Session.Totals()
			fmt.Fprintf(&b, "%s %d req %.1f RCU\n", pk, total.Requests, total.RCU)
		}
		costs[name] = b.String()
	}
	if costs["memory"] != costs["dynalite"] {
		t.Errorf("costs differ:\n%s\n%s", costs["memory"], costs["dynalite"])
	}
}

// TestItemHistoryLong opens the 1,000-revision history: one GetItem and
// the history's pages, the same on both backends.
func TestItemHistoryLong(t *testing.T) {
	ctx := context.Background()
	for name, c := range backends(t) {
		m := dynamo.NewMetered(c)
		var events int
		h, res, err := dynamo.ItemHistory(ctx, m, versionsReq(demo.LongHistoryPiece, "Audit"), func(dynamo.HistoryEvent) { events++ })
		if err != nil {
			t.Fatal(err)
		}
		total, _ := m.Session.Totals()
		if summary(h) != `Audit current=v0000_Audit revisions=1000 latest=v1000_Audit drift=[]` {
			t.Errorf("%s: %s", name, summary(h))
		}
		// The GetItem of v0_Audit misses (the copy is v0000_Audit, found in
		// the history); the history is the partition's pages.
		if total.Requests != 1+res.Pages || events == 0 {
			t.Errorf("%s: %d requests for %d pages, %d events", name, total.Requests, res.Pages, events)
		}
		t.Logf("%s: 1,000 revisions: %d requests (%d pages), %.1f RCU", name, total.Requests, res.Pages, total.RCU)
	}
}

// TestItemHistoryNewestEarly: with small pages, a padded history's newest
// revision comes from one reverse Query with Limit 1 after the first page,
// and the current copy from the GetItem before any page.
func TestItemHistoryNewestEarly(t *testing.T) {
	ctx := context.Background()
	for name, c := range backends(t) {
		r := versionsReq(demo.PaddedPiece, "Audit")
		r.PageLimit = 5
		var first *dynamo.HistoryEvent
		h, _, err := dynamo.ItemHistory(ctx, c, r, func(e dynamo.HistoryEvent) {
			if first == nil && e.Latest != nil {
				first = &e
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil || first.Done || first.Latest.Key != "v012_Audit" || len(h.Revisions) != 12 {
			t.Fatalf("%s: newest not early: %+v", name, first)
		}
		// Newest on its own: a name sorting after Audit at the same number
		// must not be taken for Audit's newest.
		m := dynamo.NewMetered(c)
		rev, _, err := dynamo.Newest(ctx, m, versionsReq(demo.PaddedPiece, "Audi"), 3)
		if err != nil || rev != nil {
			t.Errorf("%s: Audi has no revisions, got %+v %v", name, rev, err)
		}
	}
}

func TestItemHistoryBlogAndDrifted(t *testing.T) {
	ctx := context.Background()
	for name, c := range backends(t) {
		r := dynamo.VersionsRequest{Table: "Documents", Key: dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "DocumentID", Type: "S"},
			SK: &dynamo.KeyAttr{Name: "DocumentInfo", Type: "S"}}, PK: model.S("doc-0001"), Blog: true}
		m := dynamo.NewMetered(c)
		h, res, err := dynamo.ItemHistory(ctx, m, r, nil)
		total, _ := m.Session.Totals()
		if err != nil || h.Current == nil || h.Current.Key != "v_0" || len(h.Revisions) == 0 || h.Drifted() || total.Requests != 1+res.Pages {
			t.Errorf("%s doc-0001: %s, %d requests, %v", name, summary(h), total.Requests, err)
		}
		h, _, err = dynamo.ItemHistory(ctx, c, versionsReq(demo.DriftedPiece, demo.DriftedItem), nil)
		if err != nil || len(h.Drift) != 1 || !strings.Contains(h.Drift[0], "Status") {
			t.Errorf("%s drifted: %s %v", name, summary(h), err)
		}
	}
}

// TestVersionsResume: a read cut off by an error goes on from where it
// stopped and ends with exactly what one uninterrupted read gives.
func TestVersionsResume(t *testing.T) {
	ctx := context.Background()
	for name, c := range backends(t) {
		r := versionsReq(demo.LongHistoryPiece, "")
		r.PageLimit = 100
		whole, err := dynamo.Versions(ctx, c, r, nil)
		if err != nil {
			t.Fatal(err)
		}
		cctx, cancel := context.WithCancel(ctx)
		pages := 0
		cut, err := dynamo.Versions(cctx, c, r, func(dynamo.VersionsResult) {
			if pages++; pages == 3 {
				cancel() // the fourth page fails
			}
		})
		if err == nil || cut.Stopped == nil || cut.Pages != 3 {
			t.Fatalf("%s: not cut off: %v, %d pages", name, err, cut.Pages)
		}
		r.Resume = &cut
		m := dynamo.NewMetered(c)
		rest, err := dynamo.Versions(ctx, m, r, nil)
		if err != nil {
			t.Fatal(err)
		}
		total, _ := m.Session.Totals()
		if summary(rest.Histories[0]) != summary(whole.Histories[0]) || rest.Pages != whole.Pages || total.Requests != whole.Pages-3 {
			t.Fatalf("%s: resumed %s in %d requests, want %s in %d", name, summary(rest.Histories[0]), total.Requests, summary(whole.Histories[0]), whole.Pages-3)
		}
	}
}
