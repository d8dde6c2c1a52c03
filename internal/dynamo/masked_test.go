package dynamo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
)

// TestMaskedShowsStandInsAsksReal: through a Masked client nothing read
// holds a masked value (keys segment by segment, nested paths, numbers),
// and requests built from what was shown (the stand-in partition, a
// stand-in prefix, the stand-in start key, GetItem of a shown key) read
// what the real values read, on both backends.
func TestMaskedShowsStandInsAsksReal(t *testing.T) {
	ctx := context.Background()
	for name, raw := range backends(t) {
		t.Run(name, func(t *testing.T) {
			mask, err := domain.ParseMask([]string{"PK", "Auditor", "Checks.brakes.pressure", "Score", "Notes"})
			if err != nil {
				t.Fatal(err)
			}
			mc := dynamo.NewMasked(raw, func(table string) *domain.Mask {
				if table == "Equipment" {
					return mask
				}
				return nil
			}, nil)
			info, _, err := dynamo.DescribeTable(ctx, mc, "Equipment")
			if err != nil {
				t.Fatal(err)
			}
			pk := domain.S("Equipment_1")
			realQ := domain.KeyQuery{Table: "Equipment", PKName: "PK", PK: pk, SKName: "SK"}
			want, err := dynamo.QueryPage(ctx, raw, dynamo.PageRequest{Query: realQ, Limit: 2})
			if err != nil {
				t.Fatal(err)
			}
			shownPK := mc.KeyText("Equipment", "PK", "Equipment_1")
			if shownPK == "Equipment_1" || !strings.HasPrefix(shownPK, "‹m") {
				t.Fatalf("the partition key shows as %q", shownPK)
			}
			q := realQ
			q.PK = domain.S(shownPK)
			var all []dynamo.Item
			var start dynamo.Item
			for {
				pg, err := dynamo.QueryPage(ctx, mc, dynamo.PageRequest{Query: q, Limit: 2, Start: start})
				if err != nil {
					t.Fatal(err)
				}
				all = append(all, pg.Items...)
				if !pg.More() {
					break
				}
				start = pg.LastKey
			}
			everything, err := dynamo.QueryPage(ctx, raw, dynamo.PageRequest{Query: realQ})
			if err != nil {
				t.Fatal(err)
			}
			if len(all) != len(everything.Items) || len(want.Items) != 2 {
				t.Fatalf("read %d items through the mask, %d without", len(all), len(everything.Items))
			}
			for i, it := range all {
				b, _ := json.Marshal(dynamo.PlainItem(it))
				for _, real := range []string{"Equipment_1", "Auditor-", `"pressure":9`, `"pressure":1`} {
					if strings.Contains(string(b), real) {
						t.Fatalf("item %d shows %q: %s", i, real, b)
					}
				}
				if got, want := dynamo.PlainItem(it)["SK"], dynamo.PlainItem(everything.Items[i])["SK"]; got != want {
					t.Fatalf("an unmasked attribute changed: %v, want %v", got, want)
				}
				if _, had := everything.Items[i]["Score"]; had {
					if s, _ := dynamo.PlainItem(it)["Score"].(string); !strings.HasPrefix(s, "‹m") {
						t.Fatalf("the number Score shows as %v", dynamo.PlainItem(it)["Score"])
					}
				}
			}
			// GetItem of a key as shown reads the real item.
			got, _, err := dynamo.GetItem(ctx, mc, "Equipment", dynamo.Item{"PK": all[0]["PK"], "SK": all[0]["SK"]})
			if err != nil || got == nil {
				t.Fatalf("GetItem of a shown key: %v, %v", got, err)
			}
			// A shown value reads the same on the next read: stable stand-ins.
			if dynamo.PlainItem(got)["Auditor"] != dynamo.PlainItem(all[0])["Auditor"] {
				t.Fatal("stand-ins are not stable")
			}
			if mc.Unseen("Equipment") != nil || mc.Text(shownPK) != "Equipment_1" {
				t.Fatalf("unseen %v, text %q", mc.Unseen("Equipment"), mc.Text(shownPK))
			}
			_ = info
		})
	}
}

// TestMaskedUnseen: a masked attribute no item has is reported, once
// items were read.
func TestMaskedUnseen(t *testing.T) {
	raw := backends(t)["memory"]
	mask, _ := domain.ParseMask([]string{"Emial", "PK"})
	mc := dynamo.NewMasked(raw, func(string) *domain.Mask { return mask }, nil)
	if mc.Unseen("Equipment") != nil {
		t.Fatal("unseen before any read")
	}
	if _, err := dynamo.QueryPage(context.Background(), mc, dynamo.PageRequest{Query: domain.KeyQuery{Table: "Equipment", PKName: "PK", PK: domain.S("Equipment_1"), SKName: "SK"}, Limit: 1}); err != nil {
		t.Fatal(err)
	}
	if got := mc.Unseen("Equipment"); len(got) != 1 || got[0] != "Emial" {
		t.Fatalf("unseen %v", got)
	}
}

var standInOnly = regexp.MustCompile(`^‹m[0-9]+›$`)

// FuzzMaskedRoundTrip: a key value shown under the mask holds none of its
// segments, keeps its delimiters, and asks for the value itself again.
func FuzzMaskedRoundTrip(f *testing.F) {
	for _, s := range []string{"NY#NEWYORKCITY#10001", "##", "a", "", "x#‹m1›#y", "ÎLE-DE-FRANCE#PARIS#"} {
		f.Add(s)
	}
	mask, _ := domain.ParseMask([]string{"SK"})
	f.Fuzz(func(t *testing.T, s string) {
		if strings.Contains(s, "‹m") {
			t.Skip("real values that spell a stand-in are ambiguous by design")
		}
		mc := dynamo.NewMasked(nil, func(string) *domain.Mask { return mask }, nil)
		shown := mc.KeyText("T", "SK", s)
		if strings.Count(shown, "#") != strings.Count(s, "#") {
			t.Fatalf("%q shows as %q: the shape changed", s, shown)
		}
		for _, part := range strings.Split(shown, "#") {
			if part != "" && !standInOnly.MatchString(part) {
				t.Fatalf("%q shows as %q: %q is not a stand-in", s, shown, part)
			}
		}
		if back := mc.Text(shown); back != s {
			t.Fatalf("%q shows as %q, which asks for %q", s, shown, back)
		}
	})
}

// TestMaskedWalkShowsStandInsWalksReal: a walk through a Masked client
// (WalkChildren) reads the real keys, so it finds what the walk without
// the mask finds, child for child, and hands on every name and prefix as
// stand-ins segment by segment around the delimiter; a shown prefix
// drills the real one. On both backends.
func TestMaskedWalkShowsStandInsWalksReal(t *testing.T) {
	ctx := context.Background()
	for name, raw := range backends(t) {
		t.Run(name, func(t *testing.T) {
			mask, err := domain.ParseMask([]string{"PK", "SK"})
			if err != nil {
				t.Fatal(err)
			}
			mc := dynamo.NewMasked(raw, func(string) *domain.Mask { return mask }, nil)
			info, _, err := dynamo.DescribeTable(ctx, mc, "Equipment")
			if err != nil {
				t.Fatal(err)
			}
			realReq := dynamo.ChildrenRequest{Table: "Equipment", Key: info.Key, PK: domain.S("Equipment_1"), Delim: "_"}
			want, _, err := dynamo.WalkChildren(ctx, raw, realReq, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			shown := realReq
			shown.PK = domain.S(mc.KeyText("Equipment", "PK", "Equipment_1"))
			var emitted int
			got, _, err := dynamo.WalkChildren(ctx, mc, shown, nil, func(c dynamo.ShardChild, _ dynamo.Cost) {
				emitted++
				if !strings.HasPrefix(c.Name, "‹m") {
					t.Errorf("a child found shows %q", c.Name)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) || len(want) < 3 || emitted == 0 {
				t.Fatalf("%d children through the mask (%d handed on), %d without", len(got), emitted, len(want))
			}
			for i, c := range got {
				if c.Name == want[i].Name || !strings.HasPrefix(c.Name, "‹m") || !strings.HasSuffix(c.Prefix, "_") && want[i].HasChildren {
					t.Fatalf("child %d shows %q (%q), the real one is %q", i, c.Name, c.Prefix, want[i].Name)
				}
				if mc.Text(c.Name) != want[i].Name {
					t.Fatalf("child %d: %q stands for %q, want %q", i, c.Name, mc.Text(c.Name), want[i].Name)
				}
			}
			// Drilling a shown prefix walks the real one.
			var k int
			for k = range want {
				if want[k].HasChildren {
					break
				}
			}
			below := realReq
			below.Prefix = want[k].Prefix
			wantBelow, _, err := dynamo.WalkChildren(ctx, raw, below, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			shownBelow := shown
			shownBelow.Prefix = got[k].Prefix
			gotBelow, _, err := dynamo.WalkChildren(ctx, mc, shownBelow, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(gotBelow) != len(wantBelow) || len(wantBelow) == 0 {
				t.Fatalf("under %q: %d children through the mask, %d without", got[k].Prefix, len(gotBelow), len(wantBelow))
			}
			for i, c := range gotBelow {
				if strings.Contains(c.Name, wantBelow[i].Name) {
					t.Fatalf("under the prefix, child %d shows the real %q", i, wantBelow[i].Name)
				}
			}
		})
	}
}

// TestMaskedShowsWhatARealReaderRead: a reader that decides by the real
// values (a command grouping revisions, detecting time) reads below the
// mask and shows through it: its items read as the masked client answers
// them, its key condition shown turns back into the one it sent, and a
// history shows its name and copies in stand-ins with the version
// markers readable, on both backends.
func TestMaskedShowsWhatARealReaderRead(t *testing.T) {
	ctx := context.Background()
	for name, raw := range backends(t) {
		t.Run(name, func(t *testing.T) {
			mask, err := domain.ParseMask([]string{"PK", "SK", "Auditor", "Notes"})
			if err != nil {
				t.Fatal(err)
			}
			mc := dynamo.NewMasked(raw, func(string) *domain.Mask { return mask }, nil)
			info, _, err := dynamo.DescribeTable(ctx, raw, "Equipment")
			if err != nil {
				t.Fatal(err)
			}
			mc.Learn(info)
			real := domain.KeyQuery{Table: "Equipment", PKName: "PK", PK: domain.S("Equipment_1"), SKName: "SK",
				SK: domain.SKCondition{Op: domain.SKBeginsWith, A: domain.S("v1_Audit#")}}
			shownQ := mc.ShownQuery(real, "")
			if d := shownQ.Describe(); strings.Contains(d, "Equipment_1") || strings.Contains(d, "Audit") || !strings.Contains(d, `:pk="‹m`) {
				t.Fatalf("the key condition shows %s", d)
			}
			if back := mc.RealQuery(shownQ); back.Describe() != real.Describe() {
				t.Fatalf("shown and back: %s, want %s", back.Describe(), real.Describe())
			}
			below, err := dynamo.QueryPage(ctx, raw, dynamo.PageRequest{Query: real, Limit: 3})
			if err != nil {
				t.Fatal(err)
			}
			through, err := dynamo.QueryPage(ctx, mc, dynamo.PageRequest{Query: shownQ, Limit: 3})
			if err != nil {
				t.Fatal(err)
			}
			if len(below.Items) == 0 || len(below.Items) != len(through.Items) {
				t.Fatalf("%d items below, %d through the mask", len(below.Items), len(through.Items))
			}
			for i, it := range below.Items {
				got, _ := json.Marshal(dynamo.PlainItem(mc.ShownItem("Equipment", it)))
				want, _ := json.Marshal(dynamo.PlainItem(through.Items[i]))
				if string(got) != string(want) {
					t.Fatalf("item %d shown as\n%s\nthe masked client answers\n%s", i, got, want)
				}
			}
			h, _, err := dynamo.ItemHistory(ctx, raw, dynamo.VersionsRequest{Table: "Equipment", Key: info.Key, PK: real.PK, Name: "Audit#PART-7"}, nil)
			if err != nil || h.Current == nil || len(h.Revisions) == 0 {
				t.Fatalf("history: %+v, %v", h, err)
			}
			shown := mc.ShownHistory("Equipment", "SK", h, "")
			text, _ := json.Marshal(shown)
			for _, secret := range []string{"Equipment_1", "Audit#", "PART-7", h.Current.Item["Auditor"].(string)} {
				if strings.Contains(string(text), secret) {
					t.Fatalf("the history shows %q:\n%s", secret, text)
				}
			}
			if !strings.HasPrefix(shown.Current.Key, "v0_‹m") || !strings.HasPrefix(shown.Revisions[0].Key, "v1_‹m") ||
				!strings.HasSuffix(shown.Revisions[0].Key, shown.Name) {
				t.Fatalf("the version markers: name %q, current %q, v1 %q", shown.Name, shown.Current.Key, shown.Revisions[0].Key)
			}
			if h.Name != "Audit#PART-7" || h.Current.Item["PK"] != "Equipment_1" {
				t.Fatalf("the real history was changed: %q %v", h.Name, h.Current.Item["PK"])
			}
		})
	}
}

// TestMaskedTypedFilterFindsTheRealItems: what the explorer's pages ask
// of the client they hold (TypedFilter, TypedKey, Masks,
// MaskedAttributes). A filter typed in real values against masked
// attributes is shown in stand-ins only, and a search or a PartiQL
// statement (a Scan, and a Query on a typed masked key) built from it
// through the masked client finds what the typed filter finds without
// the mask, on both backends; a client without a mask hands everything
// back as it was given.
func TestMaskedTypedFilterFindsTheRealItems(t *testing.T) {
	ctx := context.Background()
	for name, raw := range backends(t) {
		t.Run(name, func(t *testing.T) {
			mask, err := domain.ParseMask([]string{"PK", "Auditor"})
			if err != nil {
				t.Fatal(err)
			}
			mc := dynamo.NewMasked(raw, func(table string) *domain.Mask {
				if table == "Equipment" {
					return mask
				}
				return nil
			}, nil)
			info, _, err := dynamo.DescribeTable(ctx, mc, "Equipment")
			if err != nil {
				t.Fatal(err)
			}
			if !dynamo.Masks(mc, "Equipment") || dynamo.Masks(mc, "Documents") || dynamo.Masks(raw, "Equipment") ||
				strings.Join(dynamo.MaskedAttributes(mc, "Equipment"), ",") != "Auditor,PK" || dynamo.MaskedAttributes(raw, "Equipment") != nil {
				t.Fatalf("masks: %v %v", dynamo.MaskedAttributes(mc, "Equipment"), dynamo.MaskedAttributes(raw, "Equipment"))
			}
			pg, err := dynamo.QueryPage(ctx, raw, dynamo.PageRequest{Query: domain.KeyQuery{Table: "Equipment", PKName: "PK", PK: domain.S("Equipment_1"), SKName: "SK"}})
			if err != nil {
				t.Fatal(err)
			}
			var auditor string
			for _, it := range pg.Items {
				if a, ok := dynamo.PlainItem(it)["Auditor"].(string); ok {
					auditor = a
					break
				}
			}
			if auditor == "" {
				t.Fatal("no item of Equipment_1 has an Auditor")
			}
			typed, err := domain.ParseFilter(`Auditor = "` + auditor + `"`)
			if err != nil {
				t.Fatal(err)
			}
			if got := dynamo.TypedFilter(raw, "Equipment", typed); fmt.Sprint(got) != fmt.Sprint(typed) {
				t.Fatalf("a client without a mask changed the filter: %v", got)
			}
			shown := dynamo.TypedFilter(mc, "Equipment", typed)
			if text := fmt.Sprint(shown); strings.Contains(text, auditor) || !strings.Contains(text, "‹m") {
				t.Fatalf("the typed filter shows as %s", text)
			}
			want, _ := searchToEnd(t, raw, dynamo.SearchRequest{Table: "Equipment", Filter: typed, Segments: 1})
			got, _ := searchToEnd(t, mc, dynamo.SearchRequest{Table: "Equipment", Filter: shown, Segments: 2})
			if len(want) == 0 || len(got) != len(want) {
				t.Fatalf("the search found %d items through the mask, %d without", len(got), len(want))
			}
			for _, it := range got {
				if b, _ := json.Marshal(dynamo.PlainItem(it)); strings.Contains(string(b), `"`+auditor+`"`) || strings.Contains(string(b), `"Equipment_1"`) {
					t.Fatalf("a found item shows a real value: %s", b)
				}
			}
			for _, where := range []string{
				`Auditor = '` + auditor + `'`,                        // a Scan
				`PK = 'Equipment_1' AND Auditor = '` + auditor + `'`, // a Query on the typed key
			} {
				st, err := domain.ParsePartiQL(`SELECT * FROM "Equipment" WHERE ` + where)
				if err != nil {
					t.Fatal(err)
				}
				realSt := st
				st.Where = dynamo.TypedFilter(mc, "Equipment", st.Where)
				if text := fmt.Sprint(st.Where); strings.Contains(text, auditor) || strings.Contains(text, "Equipment_1") {
					t.Fatalf("the statement's WHERE shows as %s", text)
				}
				_, r, err := dynamo.StatementSearch(info, st, 0)
				if err != nil {
					t.Fatal(err)
				}
				_, realR, err := dynamo.StatementSearch(info, realSt, 0)
				if err != nil {
					t.Fatal(err)
				}
				if (len(r.Queries) == 0) != (len(realR.Queries) == 0) {
					t.Fatalf("%s: planned %d queries through the mask, %d without", where, len(r.Queries), len(realR.Queries))
				}
				want, _ := searchToEnd(t, raw, realR)
				got, _ := searchToEnd(t, mc, r)
				if len(want) == 0 || len(got) != len(want) {
					t.Fatalf("%s: %d items through the mask, %d without", where, len(got), len(want))
				}
			}
			key := dynamo.TypedKey(mc, "Equipment", "PK", "Equipment_1")
			if key != mc.KeyText("Equipment", "PK", "Equipment_1") || dynamo.TypedKey(raw, "Equipment", "PK", "Equipment_1") != "Equipment_1" ||
				dynamo.TypedKey(mc, "Documents", "PK", "Equipment_1") != "Equipment_1" {
				t.Fatalf("the typed key shows as %q", key)
			}
		})
	}
}
