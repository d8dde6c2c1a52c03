package dynamo_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

var equipmentKey = dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}

func versionsReq(pk, name string) dynamo.VersionsRequest {
	return dynamo.VersionsRequest{Table: "Equipment", Key: equipmentKey, PK: domain.S(pk), Name: name}
}

// summary is a history in one comparable line.
func summary(h domain.History) string {
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
	want := map[string][]string{
		demo.DriftedPiece: {`Audit current=v0_Audit revisions=3 latest=v3_Audit drift=[]`,
			`Audit#PART-7 current=v0_Audit#PART-7 revisions=3 latest=v3_Audit#PART-7 drift=["v0_ differs from v3_: Findings, Status"]`},
		demo.GapPiece:            {`Audit current=v0_Audit revisions=5 latest=v6_Audit drift=["gap: no v4_ between v3_ and v5_"]`},
		demo.MissingCurrentPiece: {`Audit current=none revisions=4 latest=v4_Audit drift=["v0_ is missing: no current copy of 4 revisions"]`},
		demo.DuplicatePiece:      {`Audit current=v0_Audit revisions=4 latest=v3_Audit drift=["v1_ appears 2 times: v001_Audit, v1_Audit"]`},
		demo.PaddedPiece:         {`Audit current=v000_Audit revisions=12 latest=v012_Audit drift=[]`},
		demo.LongHistoryPiece:    {`Audit current=v0000_Audit revisions=1000 latest=v1000_Audit drift=[]`},
	}
	sameOnBothBackends(t, want, func(pk string) dynamo.VersionsRequest { return versionsReq(pk, "") }, nil)
}

// sameOnBothBackends lists each partition's versions on both backends and
// requires the histories want names, at the same cost on both; check, if
// not nil, sees each result too.
func sameOnBothBackends(t *testing.T, want map[string][]string, req func(pk string) dynamo.VersionsRequest, check func(backend, pk string, res dynamo.VersionsResult)) {
	t.Helper()
	costs := map[string]string{}
	for name, c := range backends(t) {
		var b strings.Builder
		for _, pk := range slices.Sorted(maps.Keys(want)) {
			lines := want[pk]
			m := dynamo.NewMetered(c)
			res, err := dynamo.Versions(context.Background(), m, req(pk), nil)
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
			if check != nil {
				check(name, pk, res)
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
			SK: &dynamo.KeyAttr{Name: "DocumentInfo", Type: "S"}}, PK: domain.S("doc-0001"), Blog: true}
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

func pattern(t *testing.T, template string) *domain.VersionPattern {
	t.Helper()
	p, err := domain.ParseVersionPattern(template)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestVersionsPolicyPattern: the demo's Policies spell revisions
// rev#<n>#<clause>. Told the pattern, the list reads begins_with(SK,
// "rev#"), finds the drift and the gap in that spelling, and opening one
// clause is a GetItem of rev#0#<clause> and its pages; the same on both
// backends, at the same cost.
func TestVersionsPolicyPattern(t *testing.T) {
	ctx := context.Background()
	p := pattern(t, demo.PolicyPattern)
	req := func(pk, name string) dynamo.VersionsRequest {
		return dynamo.VersionsRequest{Table: demo.PolicyTable, Key: equipmentKey, PK: domain.S(pk), Name: name, Pattern: p}
	}
	want := map[string][]string{
		demo.PolicyDrifted: {`Coverage current=rev#0#Coverage revisions=2 latest=rev#2#Coverage drift=["rev#0 differs from rev#2: Limit"]`,
			`Terms current=rev#0#Terms revisions=3 latest=rev#3#Terms drift=[]`},
		demo.PolicyGap:    {`Terms current=rev#0#Terms revisions=3 latest=rev#4#Terms drift=["gap: no rev#3 between rev#2 and rev#4"]`},
		demo.PolicyPadded: {`Terms current=rev#000#Terms revisions=12 latest=rev#012#Terms drift=[]`},
	}
	sameOnBothBackends(t, want, func(pk string) dynamo.VersionsRequest { return req(pk, "") }, func(backend, pk string, res dynamo.VersionsResult) {
		if res.Level.Values() != fmt.Sprintf(`:pk=%q :prefix="rev#"`, pk) {
			t.Errorf("%s %s: %s", backend, pk, res.Level.Describe())
		}
	})
	for name, c := range backends(t) {
		m := dynamo.NewMetered(c)
		h, res, err := dynamo.ItemHistory(ctx, m, req(demo.PolicyDrifted, demo.PolicyDriftedItem), nil)
		total, _ := m.Session.Totals()
		if err != nil || h.Current == nil || h.Current.Key != "rev#0#Coverage" || len(h.Drift) != 1 || total.Requests != 1+res.Pages {
			t.Errorf("%s item: %s in %d requests, %v", name, summary(h), total.Requests, err)
		}
		// A padded history past a page: the newest comes early, from one
		// reverse Query between rev#001#Terms and rev#999#Terms.
		r := req(demo.PolicyPadded, "Terms")
		r.PageLimit = 5
		var early *dynamo.HistoryEvent
		if _, _, err := dynamo.ItemHistory(ctx, c, r, func(e dynamo.HistoryEvent) {
			if early == nil && e.Latest != nil && !e.Done {
				early = &e
			}
		}); err != nil || early == nil || early.Latest.Key != "rev#012#Terms" {
			t.Errorf("%s: newest not early: %+v %v", name, early, err)
		}
	}
}

// TestVersionsPatternWithoutPrefix: {name}#v{n} starts with a placeholder,
// so the list reads the whole partition (no sort-key condition) and keeps
// only the keys the pattern reads; one item's history still narrows to
// begins_with(SK, "<name>#v").
func TestVersionsPatternWithoutPrefix(t *testing.T) {
	ctx := context.Background()
	s := func(v string) *types.AttributeValueMemberS { return &types.AttributeValueMemberS{Value: v} }
	var items []dynamo.Item
	for _, k := range []string{"Terms#v0", "Terms#v1", "Terms#v2", "Terms#v10", "Claims#v1", "Claims#v0", "metadata", "Terms#vx", "Terms#draft"} {
		items = append(items, dynamo.Item{"PK": s("P"), "SK": s(k), "Status": s("OK")})
	}
	items = append(items, dynamo.Item{"PK": s("Q"), "SK": s("V0-Terms"), "Status": s("OK")}, dynamo.Item{"PK": s("Q"), "SK": s("V1-Terms"), "Status": s("NEW")})
	mem := memory.New()
	dl := dynalitetest.Shared(t).Client()
	for _, w := range []dynamo.Writer{mem, dl} {
		if err := demo.CreateKeyTable(ctx, w, "NamedFirst", "S", items); err != nil {
			t.Fatal(err)
		}
	}
	for name, c := range map[string]dynamo.Client{"memory": mem, "dynalite": dl} {
		r := dynamo.VersionsRequest{Table: "NamedFirst", Key: equipmentKey, PK: domain.S("P"), Pattern: pattern(t, "{name}#v{n}")}
		res, err := dynamo.Versions(ctx, c, r, nil)
		if err != nil || len(res.Histories) != 2 || res.Level.SK.Op != domain.SKNone {
			t.Fatalf("%s: %+v %v", name, res.Histories, err)
		}
		if got := summary(res.Histories[1]); got != `Terms current=Terms#v0 revisions=3 latest=Terms#v10 drift=["gap: no v3…v9 between v2 and v10"]` {
			t.Errorf("%s: %s", name, got)
		}
		r.Name = "Terms"
		m := dynamo.NewMetered(c)
		h, res, err := dynamo.ItemHistory(ctx, m, r, nil)
		total, _ := m.Session.Totals()
		if err != nil || summary(h) != summary(res.Histories[0]) || len(h.Revisions) != 3 ||
			res.Level.Values() != `:pk="P" :prefix="Terms#v"` || total.Requests != 2 {
			t.Errorf("%s item: %s (%s) in %d requests, %v", name, summary(h), res.Level.Values(), total.Requests, err)
		}
		r = dynamo.VersionsRequest{Table: "NamedFirst", Key: equipmentKey, PK: domain.S("Q"), Pattern: pattern(t, "V{n}-{name}")}
		res, err = dynamo.Versions(ctx, c, r, nil)
		if err != nil || len(res.Histories) != 1 || summary(res.Histories[0]) != `Terms current=V0-Terms revisions=1 latest=V1-Terms drift=["V0 differs from V1: Status"]` {
			t.Errorf("%s V{n}-{name}: %+v %v", name, res.Histories, err)
		}
	}
}

// TestVersionsSpeltByTheGrammar: revisions spelt v00001.profile under a
// historical. partition are found with no pattern named: the key grammar
// reads the spelling from the keys the usual query read (no extra
// request), the list and one item's history alike, and a partition of
// past revisions alone misses no current copy; software versions (v1.2.3)
// stay no revisions. The same on both backends.
func TestVersionsSpeltByTheGrammar(t *testing.T) {
	ctx := context.Background()
	s := func(v string) *types.AttributeValueMemberS { return &types.AttributeValueMemberS{Value: v} }
	var items []dynamo.Item
	for i, name := range []string{"Ada L", "Ada L.", "Ada"} {
		items = append(items, dynamo.Item{"PK": s("historical.u1"), "SK": s(fmt.Sprintf("v%05d.profile", i+1)), "name": s(name)})
	}
	for i := range 7 {
		items = append(items, dynamo.Item{"PK": s("historical.u2"), "SK": s(fmt.Sprintf("v%05d.settings", i+1)), "name": s("x")})
	}
	items = append(items, dynamo.Item{"PK": s("current.u1"), "SK": s("profile"), "name": s("Ada")},
		dynamo.Item{"PK": s("releases"), "SK": s("v1.2.3")}, dynamo.Item{"PK": s("releases"), "SK": s("v1.2.4")})
	mem := memory.New()
	dl := dynalitetest.Shared(t).Client()
	for _, w := range []dynamo.Writer{mem, dl} {
		if err := demo.CreateKeyTable(ctx, w, "HistoricalProfiles", "S", items); err != nil {
			t.Fatal(err)
		}
	}
	for name, c := range map[string]dynamo.Client{"memory": mem, "dynalite": dl} {
		r := dynamo.VersionsRequest{Table: "HistoricalProfiles", Key: equipmentKey, PK: domain.S("historical.u1")}
		m := dynamo.NewMetered(c)
		res, err := dynamo.Versions(ctx, m, r, nil)
		total, _ := m.Session.Totals()
		if err != nil || len(res.Histories) != 1 || res.Pattern == nil || res.Pattern.String() != "v{n}.{name}" || total.Requests != 1 || res.SkippedN != 0 {
			t.Fatalf("%s: %+v %v %v in %d requests", name, res.Histories, res.Pattern, err, total.Requests)
		}
		if got := summary(res.Histories[0]); got != `profile current=none revisions=3 latest=v00003.profile drift=[]` {
			t.Errorf("%s: %s", name, got)
		}
		if len(res.Raw) != 3 || res.Histories[0].Latest().Label() != "v00003" {
			t.Errorf("%s: raw %d, label %s", name, len(res.Raw), res.Histories[0].Latest().Label())
		}
		// Pages of two: the spelling is read on the first, and holds for the rest.
		r.PK, r.PageLimit = domain.S("historical.u2"), 2
		if res, err := dynamo.Versions(ctx, c, r, nil); err != nil || len(res.Histories) != 1 || len(res.Histories[0].Revisions) != 7 {
			t.Errorf("%s paged: %+v %v", name, res.Histories, err)
		}
		r.PK, r.PageLimit, r.Name = domain.S("historical.u1"), 0, "profile"
		h, res, err := dynamo.ItemHistory(ctx, c, r, nil)
		if err != nil || len(h.Revisions) != 3 || res.Pattern == nil || h.Latest().Key != "v00003.profile" {
			t.Errorf("%s item: %s %v %v", name, summary(h), res.Pattern, err)
		}
		r = dynamo.VersionsRequest{Table: "HistoricalProfiles", Key: equipmentKey, PK: domain.S("releases")}
		if res, err := dynamo.Versions(ctx, c, r, nil); err != nil || len(res.Histories) != 0 || res.Pattern != nil {
			t.Errorf("%s releases: %+v %v %v", name, res.Histories, res.Pattern, err)
		}
	}
}

// TestVersionsCurrentWordLeading: a current copy whose word leads the key
// (LATEST_Audit beside v1_Audit, LATEST#DOC#d1 beside v1#DOC#d1) is read
// apart, one Query for each spelling read, only where an item has no v0,
// in the list and one item's history alike; it was left unread and v0
// said missing. Where v0 is there nothing more is read. The same on both
// backends, at the same count of requests.
func TestVersionsCurrentWordLeading(t *testing.T) {
	ctx := context.Background()
	s := func(v string) *types.AttributeValueMemberS { return &types.AttributeValueMemberS{Value: v} }
	var items []dynamo.Item
	for _, k := range [][3]string{
		{"lead#1", "v1#DOC#d1", "a"}, {"lead#1", "v2#DOC#d1", "b"}, {"lead#1", "LATEST#DOC#d1", "b"}, {"lead#1", "LATEST#DOC#solo", "x"},
		{"lead#2", "v1_Audit", "a"}, {"lead#2", "v2_Audit", "b"}, {"lead#2", "current_Audit", "c"}, {"lead#2", "LATEST_NEWS", "n"},
		{"lead#3", "v0_Audit", "b"}, {"lead#3", "v1_Audit", "b"}, {"lead#3", "LATEST_Audit", "z"},
		{"lead#4", "v1", "a"}, {"lead#4", "v2", "b"}, {"lead#4", "Latest", "b"},
	} {
		items = append(items, dynamo.Item{"PK": s(k[0]), "SK": s(k[1]), "title": s(k[2])})
	}
	mem := memory.New()
	dl := dynalitetest.Shared(t).Client()
	for _, w := range []dynamo.Writer{mem, dl} {
		if err := demo.CreateKeyTable(ctx, w, "LeadingWord", "S", items); err != nil {
			t.Fatal(err)
		}
	}
	for name, c := range map[string]dynamo.Client{"memory": mem, "dynalite": dl} {
		for _, tc := range []struct {
			pk, pattern, item string
			want              string
			requests          int
		}{
			{"lead#1", "v{n}#{name}", "", `DOC#d1 current=LATEST#DOC#d1 revisions=2 latest=v2#DOC#d1 drift=[]`, 7},
			{"lead#1", "v{n}#{name}", "DOC#d1", `DOC#d1 current=LATEST#DOC#d1 revisions=2 latest=v2#DOC#d1 drift=[]`, 8},
			{"lead#2", "", "", `Audit current=current_Audit revisions=2 latest=v2_Audit drift=["current_Audit differs from v2_: title"]`, 7},
			{"lead#2", "", "Audit", `Audit current=current_Audit revisions=2 latest=v2_Audit drift=["current_Audit differs from v2_: title"]`, 8},
			{"lead#3", "", "", `Audit current=v0_Audit revisions=1 latest=v1_Audit drift=[]`, 1},
			{"lead#3", "", "Audit", `Audit current=v0_Audit revisions=1 latest=v1_Audit drift=[]`, 2},
			{"lead#4", "", "", ` current=Latest revisions=2 latest=v2 drift=[]`, 7},
		} {
			r := dynamo.VersionsRequest{Table: "LeadingWord", Key: equipmentKey, PK: domain.S(tc.pk), Name: tc.item}
			if tc.pattern != "" {
				r.Pattern = pattern(t, tc.pattern)
			}
			m := dynamo.NewMetered(c)
			var got []string
			if tc.item == "" {
				res, err := dynamo.Versions(ctx, m, r, nil)
				if err != nil {
					t.Fatalf("%s %s: %v", name, tc.pk, err)
				}
				for _, h := range res.Histories {
					got = append(got, summary(h))
				}
				if h := res.Histories; len(h) == 1 && h[0].Current != nil && res.Raw[h[0].Current.Key] == nil {
					t.Errorf("%s %s: the current copy %s is not held for the item view", name, tc.pk, h[0].Current.Key)
				}
			} else {
				h, _, err := dynamo.ItemHistory(ctx, m, r, nil)
				if err != nil {
					t.Fatalf("%s %s %s: %v", name, tc.pk, tc.item, err)
				}
				got = []string{summary(h)}
			}
			total, _ := m.Session.Totals()
			if strings.Join(got, "\n") != tc.want || total.Requests != tc.requests {
				t.Errorf("%s %s %q: %q in %d requests, want %q in %d", name, tc.pk, tc.item, got, total.Requests, tc.want, tc.requests)
			}
		}
	}
}

// TestVersionsFindsNameFirstFamily: with no pattern named, a partition
// whose keys under v hold no revision is looked at once more (one page of
// its keys): where two names or more hold two revisions or more spelt
// {name}#v{n}, it is read by that pattern and the pattern said; it was
// only suggested. An order's items (ORDER#o1#ITEM#1) and one name's v1,
// v2 are not read as versions. The same on both backends, at the same
// count of requests.
func TestVersionsFindsNameFirstFamily(t *testing.T) {
	ctx := context.Background()
	s := func(v string) *types.AttributeValueMemberS { return &types.AttributeValueMemberS{Value: v} }
	var items []dynamo.Item
	for _, k := range [][2]string{
		{"docs", "DOC#d1#v0"}, {"docs", "DOC#d1#v1"}, {"docs", "DOC#d1#v2"}, {"docs", "DOC#d2#v1"}, {"docs", "DOC#d2#v2"}, {"docs", "META"},
		{"orders", "ORDER#o1#ITEM#1"}, {"orders", "ORDER#o1#ITEM#2"}, {"orders", "ORDER#o2#ITEM#1"}, {"orders", "ORDER#o2#ITEM#2"},
		{"device", "DEVICE#d1#v1"}, {"device", "DEVICE#d1#v2"}, {"device", "DEVICE#d2#v1"},
		{"under", "memo_v0"}, {"under", "memo_v1"}, {"under", "memo_v2"}, {"under", "report_v1"}, {"under", "report_v2"},
		{"word", "a#VERSION#0000"}, {"word", "a#VERSION#0001"}, {"word", "a#VERSION#0002"}, {"word", "b#VERSION#0000"}, {"word", "b#VERSION#0001"}, {"word", "metadata"},
	} {
		items = append(items, dynamo.Item{"PK": s(k[0]), "SK": s(k[1]), "title": s("x")})
	}
	// A family that sorts after more than a page of other keys (onetable's
	// Policy#terms_v2 after an account's events), and none after them.
	for i := range 130 {
		items = append(items, dynamo.Item{"PK": s("late"), "SK": s(fmt.Sprintf("Event#%04d", i))}, dynamo.Item{"PK": s("none"), "SK": s(fmt.Sprintf("Event#%04d", i))})
	}
	for _, k := range []string{"Policy#privacy_v0", "Policy#privacy_v1", "Policy#terms_v0", "Policy#terms_v1", "Policy#terms_v2", "User#u0"} {
		items = append(items, dynamo.Item{"PK": s("late"), "SK": s(k)}, dynamo.Item{"PK": s("none"), "SK": s(strings.Replace(k, "_v", "_", 1))})
	}
	mem := memory.New()
	dl := dynalitetest.Shared(t).Client()
	for _, w := range []dynamo.Writer{mem, dl} {
		if err := demo.CreateKeyTable(ctx, w, "NameFirstFamily", "S", items); err != nil {
			t.Fatal(err)
		}
	}
	for name, c := range map[string]dynamo.Client{"memory": mem, "dynalite": dl} {
		for _, tc := range []struct {
			pk, want, found string
			requests        int
		}{
			{"docs", "DOC#d1 current=DOC#d1#v0 revisions=2 latest=DOC#d1#v2 drift=[]\nDOC#d2 current=none revisions=2 latest=DOC#d2#v2 drift=[\"v0 is missing: no current copy of 2 revisions\"]",
				"no revision key begins with v; in the partition's 6 keys, 2 items hold revisions spelt {name}#v{n}: read by it", 3},
			{"orders", "", "looked in the partition's 4 keys for {name}#v{n}, {name}_v{n} or {name}#VERSION#{n} (DOC#d1#v1, report_v2, a#VERSION#0001): none", 2},
			{"device", "", "looked in the partition's 3 keys for {name}#v{n}, {name}_v{n} or {name}#VERSION#{n} (DOC#d1#v1, report_v2, a#VERSION#0001): none", 2},
			// _v suffixes and a revision word of its own (VERSION#0001)
			// were not looked for: "none".
			{"under", "memo current=memo_v0 revisions=2 latest=memo_v2 drift=[]\nreport current=none revisions=2 latest=report_v2 drift=[\"v0 is missing: no current copy of 2 revisions\"]",
				"no revision key begins with v; in the partition's 5 keys, 2 items hold revisions spelt {name}_v{n}: read by it", 3},
			{"word", "a current=a#VERSION#0000 revisions=2 latest=a#VERSION#0002 drift=[]\nb current=b#VERSION#0000 revisions=1 latest=b#VERSION#0001 drift=[]",
				"no revision key begins with v; in the partition's 6 keys, 2 items hold revisions spelt {name}#VERSION#{n}: read by it", 3},
			// past the first page's level (Event#): it looked in the first
			// 100 keys alone, and said none
			{"late", "Policy#privacy current=Policy#privacy_v0 revisions=1 latest=Policy#privacy_v1 drift=[]\nPolicy#terms current=Policy#terms_v0 revisions=2 latest=Policy#terms_v2 drift=[]",
				"no revision key begins with v; in 106 of the partition's keys (a page, and one past Event#), 2 items hold revisions spelt {name}_v{n}: read by it", 4},
			{"none", "", "looked in 106 of the partition's keys (a page, and one past Event#) for {name}#v{n}, {name}_v{n} or {name}#VERSION#{n} (DOC#d1#v1, report_v2, a#VERSION#0001): none", 3},
		} {
			m := dynamo.NewMetered(c)
			res, err := dynamo.Versions(ctx, m, dynamo.VersionsRequest{Table: "NameFirstFamily", Key: equipmentKey, PK: domain.S(tc.pk)}, nil)
			var got []string
			for _, h := range res.Histories {
				got = append(got, summary(h))
			}
			total, _ := m.Session.Totals()
			if err != nil || strings.Join(got, "\n") != tc.want || res.Found != tc.found || total.Requests != tc.requests || (res.Pattern != nil) != (tc.want != "") {
				t.Errorf("%s %s: %q %q %v in %d requests, want %q %q in %d", name, tc.pk, got, res.Found, err, total.Requests, tc.want, tc.found, tc.requests)
			}
			if tc.want == "" && len(res.Sample) != 4-map[string]int{"device": 1, "none": -102}[tc.pk] {
				t.Errorf("%s %s: the keys looked at are not kept for a hint: %q", name, tc.pk, res.Sample)
			}
		}
	}
	// One item's history (--item, the timeline) found nothing where the
	// partition's list found the family: it now reads the same sample.
	for name, c := range map[string]dynamo.Client{"memory": mem, "dynalite": dl} {
		for _, tc := range []struct{ pk, item, want string }{
			{"docs", "DOC#d1", "DOC#d1 current=DOC#d1#v0 revisions=2 latest=DOC#d1#v2 drift=[]"},
			{"under", "memo", "memo current=memo_v0 revisions=2 latest=memo_v2 drift=[]"},
			{"word", "b", "b current=b#VERSION#0000 revisions=1 latest=b#VERSION#0001 drift=[]"},
			{"orders", "ORDER#o1", "ORDER#o1 current=none revisions=0 latest=none drift=[]"},
		} {
			h, res, err := dynamo.ItemHistory(ctx, c, dynamo.VersionsRequest{Table: "NameFirstFamily", Key: equipmentKey, PK: domain.S(tc.pk), Name: tc.item}, nil)
			if got := summary(h); err != nil || got != tc.want || (res.Pattern != nil) != (tc.pk != "orders") {
				t.Errorf("%s %s --item %s: %q %v (pattern %v), want %q", name, tc.pk, tc.item, got, err, res.Pattern, tc.want)
			}
		}
	}
}

var numberVersionsSeeded seededTable

// numberVersionsTable is written as its sources write it: the
// storage-service multi-version store (id, version N: every version kept,
// 0 the first), and AWS's audit history under a number key (0 a copy of
// the newest that names it in Latest, here drifted).
func numberVersionsTable(ctx context.Context, w dynamo.Writer) error {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v int) types.AttributeValue { return &types.AttributeValueMemberN{Value: fmt.Sprint(v)} }
	var items []dynamo.Item
	for v := range 3 {
		items = append(items, dynamo.Item{"PK": s("digitised/b1"), "SK": n(v), "payload": s(string(rune('a' + v)))})
	}
	for v := 10; v < 20; v++ { // one width of digits: no padded shortcut on a number
		items = append(items, dynamo.Item{"PK": s("digitised/b2"), "SK": n(v), "payload": s(string(rune('a' + v)))})
	}
	for ts := 1536019200; ts < 1536019205; ts++ { // a device log: times, no versions
		items = append(items, dynamo.Item{"PK": s("device-1"), "SK": n(ts)})
	}
	for _, score := range []int{17, 512, 980} { // a leaderboard: scores, no versions
		items = append(items, dynamo.Item{"PK": s("game-1"), "SK": n(score)})
	}
	items = append(items,
		dynamo.Item{"PK": s("Equipment#1"), "SK": n(0), "State": s("STALE"), "Latest": n(2)},
		dynamo.Item{"PK": s("Equipment#1"), "SK": n(1), "State": s("S1")},
		dynamo.Item{"PK": s("Equipment#1"), "SK": n(2), "State": s("S2")})
	return demo.CreateKeyTable(ctx, w, "NumberVersions", "N", items)
}

// TestVersionsNumberSortKey: a number sort key is the version itself:
// every version kept with the highest the newest, or 0 the current copy
// where it is kept as one (drift said as for v0_); the list reads the
// whole partition, one item's history a GetItem of 0 by number and the
// paged Query; a number of ten digits is a time, never read, and scattered
// numbers (scores) are no versions. The same on both backends.
func TestVersionsNumberSortKey(t *testing.T) {
	ctx := context.Background()
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "N"}}
	want := map[string]string{
		"digitised/b1": ` current=none revisions=3 latest=2 drift=[]`,
		"digitised/b2": ` current=none revisions=10 latest=19 drift=["gap: no 1…9 before 10"]`,
		"Equipment#1":  ` current=0 revisions=2 latest=2 drift=["0 differs from 2: State"]`,
	}
	for name, c := range seededBackends(t, &numberVersionsSeeded, numberVersionsTable) {
		for _, pk := range slices.Sorted(maps.Keys(want)) {
			r := dynamo.VersionsRequest{Table: "NumberVersions", Key: key, PK: domain.S(pk), PageLimit: 4}
			res, err := dynamo.Versions(ctx, c, r, nil)
			if err != nil || len(res.Histories) != 1 || res.Level.SK.Op != domain.SKBetween {
				t.Fatalf("%s %s: %+v %v", name, pk, res.Histories, err)
			}
			if got := summary(res.Histories[0]); got != want[pk] {
				t.Errorf("%s %s: %s, want %s", name, pk, got, want[pk])
			}
			h, _, err := dynamo.ItemHistory(ctx, c, r, nil)
			if err != nil || summary(h) != summary(res.Histories[0]) {
				t.Errorf("%s %s item: %s %v", name, pk, summary(h), err)
			}
		}
		m := dynamo.NewMetered(c)
		res, err := dynamo.Versions(ctx, m, dynamo.VersionsRequest{Table: "NumberVersions", Key: key, PK: domain.S("device-1")}, nil)
		if total, _ := m.Session.Totals(); err != nil || len(res.Histories) != 0 || total.RCU != 0 {
			t.Errorf("%s device-1: times read as versions %+v (%.1f RCU), %v", name, res.Histories, total.RCU, err)
		}
		res, err = dynamo.Versions(ctx, c, dynamo.VersionsRequest{Table: "NumberVersions", Key: key, PK: domain.S("game-1")}, nil)
		if err != nil || len(res.Histories) != 0 {
			t.Errorf("%s game-1: scores read as versions %+v, %v", name, res.Histories, err)
		}
	}
}
