package dynamo_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

var entitiesTables seededTable

// entityItems are two layouts as single-table libraries write them: one
// whose items carry a discriminator (ElectroDB's __edb_e__), one told by
// its keys alone (USER#{id} / #METADATA#{id}, GAME#{id} / USER#{id}).
func entityItems(discriminator bool) []dynamo.Item {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v int) types.AttributeValue { return &types.AttributeValueMemberN{Value: fmt.Sprint(v)} }
	var items []dynamo.Item
	for i := range 40 {
		if discriminator {
			items = append(items, dynamo.Item{"PK": s(fmt.Sprintf("$store#employee_e%03d", i)), "SK": s("$employees_1"), "__edb_e__": s("employee"), "__edb_v__": s("1"), "name": s("x"), "age": n(i)})
			if i%4 == 0 {
				items = append(items, dynamo.Item{"PK": s(fmt.Sprintf("$store#office_o%03d", i)), "SK": s("$offices_1"), "__edb_e__": s("office"), "__edb_v__": s("1"), "city": s("y")})
			}
			continue
		}
		u := fmt.Sprintf("user%03d", i)
		items = append(items, dynamo.Item{"PK": s("USER#" + u), "SK": s("#METADATA#" + u), "name": s(u)})
		if i%2 == 0 {
			items = append(items, dynamo.Item{"PK": s(fmt.Sprintf("GAME#g%03d", i)), "SK": s("USER#" + u), "score": n(i)})
		}
	}
	return items
}

// scoreItems are two games' leaderboards under a number sort key: golf's
// scores below and above par, a speedrun's in fractions of a second.
func scoreItems() []dynamo.Item {
	var items []dynamo.Item
	for _, sc := range []struct{ game, score string }{{"golf", "-3"}, {"golf", "0"}, {"golf", "2"}, {"golf", "17"}, {"speedrun", "-0.5"}, {"speedrun", "1.25"}, {"speedrun", "38.125"}} {
		items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: sc.game}, "SK": &types.AttributeValueMemberN{Value: sc.score}})
	}
	return items
}

// bigAndSmall is Geography's layout: one big partition of places (PLACE,
// 1,000 items of 1 KB) beside one small one (CAPITALS, 10 items).
func bigAndSmall() []dynamo.Item {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var items []dynamo.Item
	for i := range 1000 {
		items = append(items, dynamo.Item{"PK": s("PLACE"), "SK": s(fmt.Sprintf("PLACE#%04d", i)), "Name": s(strings.Repeat("p", 1000))})
	}
	for i := range 10 {
		items = append(items, dynamo.Item{"PK": s("CAPITALS"), "SK": s(fmt.Sprintf("C%02d", i)), "Capital": s("c")})
	}
	return items
}

// TestEntitiesOnBothBackends: the types of a table come from its
// discriminator, or its keys; a whole read under the budget counts
// exactly, a budget below the table's size samples and says so.
func TestEntitiesOnBothBackends(t *testing.T) {
	backends := seededBackends(t, &entitiesTables, func(ctx context.Context, w dynamo.Writer) error {
		if err := demo.CreateKeyTable(ctx, w, "EntitiesEDB", "S", entityItems(true)); err != nil {
			return err
		}
		if err := demo.CreateKeyTable(ctx, w, "EntitiesKeys", "S", entityItems(false)); err != nil {
			return err
		}
		var big []dynamo.Item
		for i := range 50 {
			big = append(big, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "P"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("ITEM#%03d", i)},
				"body": &types.AttributeValueMemberS{Value: strings.Repeat("x", 2000)}})
		}
		if err := demo.CreateKeyTable(ctx, w, "EntitiesBigPartition", "S", big); err != nil {
			return err
		}
		if err := demo.CreateKeyTable(ctx, w, "EntitiesScores", "N", scoreItems()); err != nil {
			return err
		}
		return demo.CreateKeyTable(ctx, w, "EntitiesBigAndSmall", "S", bigAndSmall())
	})
	key := dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: "SK", Type: domain.TypeS}}
	for name, c := range backends {
		ctx := context.Background()
		for _, tc := range []struct {
			table string
			want  string
		}{
			{"EntitiesEDB", "employee=40 $store#employee_{id} / $employees_{n} by __edb_e__, office=10 $store#office_{id} / $offices_{n} by __edb_e__"},
			{"EntitiesKeys", "USER·METADATA=40 USER#{id} / #METADATA#{id} by keys, GAME·USER=20 GAME#{id} / USER#{id} by keys"},
		} {
			res, err := dynamo.ReadEntities(ctx, c, dynamo.EntitiesRequest{Table: tc.table, Key: key, MaxRCU: 100})
			if err != nil {
				t.Fatalf("%s %s: %v", name, tc.table, err)
			}
			var got []string
			for _, e := range res.Entities {
				by := e.Discriminator
				if by == "" {
					by = "keys"
				}
				got = append(got, fmt.Sprintf("%s=%d %s / %s by %s", e.Name, e.Count, e.KeyTemplates["pk"], e.KeyTemplates["sk"], by))
			}
			if strings.Join(got, ", ") != tc.want || res.Sampled || res.Read != len(entityItems(tc.table == "EntitiesEDB")) {
				t.Errorf("%s %s: %s (sampled %v, read %d)\nwant %s", name, tc.table, strings.Join(got, ", "), res.Sampled, res.Read, tc.want)
			}
			// A whole read holds its items, and a type's filter matched
			// against them finds what a search of the table finds.
			if len(res.Items) != res.Read {
				t.Errorf("%s %s: %d items held of %d read whole", name, tc.table, len(res.Items), res.Read)
			}
			f, _ := domain.ParseFilter(`begins_with(PK, "USER#") or __edb_e__ = "office"`)
			held, ok := dynamo.MatchHeld(c, tc.table, res.Items, f)
			st, _ := dynamo.StartSearch(dynamo.SearchRequest{Table: tc.table, Filter: f}, nil)
			var searched []dynamo.Item
			for st.More() {
				step, err := dynamo.ReadSearch(ctx, c, st)
				if err != nil {
					t.Fatal(err)
				}
				searched, st = append(searched, step.Items...), step.Next
			}
			if !ok || len(held) == 0 || fmt.Sprint(keysOf(held)) != fmt.Sprint(keysOf(searched)) {
				t.Errorf("%s %s: matched here %v (%v), searched %v", name, tc.table, keysOf(held), ok, keysOf(searched))
			}
			// A table DynamoDB says is larger than the budget is sampled in
			// parallel segments, each read to its share, and said so: no
			// more segments than the budget pays two reads of (the four
			// asked for had billed 4 RCU of 2), within half an RCU of it.
			res, err = dynamo.ReadEntities(ctx, c, dynamo.EntitiesRequest{Table: tc.table, Key: key, MaxRCU: 2, SizeBytes: 1 << 30, ItemCount: 1000, Segments: 4})
			if err != nil || !res.Sampled || res.Segments != 2 || res.Cost.Requests < 2 || res.Cost.Billed > 2+0.5 || len(res.Entities) == 0 || res.Items != nil {
				t.Errorf("%s %s sampled: %v sampled %v segments %d cost %+v types %d", name, tc.table, err, res.Sampled, res.Segments, res.Cost, len(res.Entities))
			}
			// Types of many partitions ({id} in the partition key) are
			// estimated even when each partition was read whole: the
			// items unread hold more of them.
			for _, e := range res.Entities {
				if e.CountExact {
					t.Errorf("%s %s sampled: %s=%d counted exact", name, tc.table, e.Name, e.Count)
				}
			}
		}
		// A number sort key (a leaderboard's scores, negative and
		// fractional) is a number whatever its sign or fraction: its
		// template is {n}, not the {id} the text -3 or 2.5 reads as.
		nkey := dynamo.KeySchema{PK: key.PK, SK: &dynamo.KeyAttr{Name: "SK", Type: domain.TypeN}}
		res, err := dynamo.ReadEntities(ctx, c, dynamo.EntitiesRequest{Table: "EntitiesScores", Key: nkey, MaxRCU: 100})
		if err != nil || len(res.Entities) == 0 {
			t.Fatalf("%s scores: %v %+v", name, err, res.Entities)
		}
		total := 0
		for _, e := range res.Entities {
			total += e.Count
			if e.KeyTemplates["sk"] != "{n}" {
				t.Errorf("%s scores: %s=%d sort key %q, want {n}", name, e.Name, e.Count, e.KeyTemplates["sk"])
			}
		}
		if total != len(scoreItems()) {
			t.Errorf("%s scores: %d items typed of %d", name, total, len(scoreItems()))
		}
		// A sample counts exactly the type of a partition it read to its
		// end (CAPITALS: the next item its segment read was another
		// partition's, or the segment ended) and scales only the rest, by
		// the items not counted exactly: scaling every type by the table's
		// items over those read had multiplied the small partition's 10
		// by ~10.
		big, small := 0, 0
		for _, it := range bigAndSmall() {
			if it["PK"].(*types.AttributeValueMemberS).Value == "PLACE" {
				big++
			} else {
				small++
			}
		}
		res, err = dynamo.ReadEntities(ctx, c, dynamo.EntitiesRequest{Table: "EntitiesBigAndSmall", Key: key, MaxRCU: 16, SizeBytes: int64(big)*1100 + int64(small)*40, ItemCount: int64(big + small)})
		if err != nil || !res.Sampled || res.Read >= big {
			t.Fatalf("%s big and small: %v sampled %v read %d", name, err, res.Sampled, res.Read)
		}
		counts := map[string]domain.Entity{}
		for _, e := range res.Entities {
			counts[e.Name] = e
		}
		if e := counts["CAPITALS"]; e.Count != small || !e.CountExact {
			t.Errorf("%s big and small: CAPITALS=%d exact %v, want %d exact (%d items read)", name, e.Count, e.CountExact, small, res.Read)
		}
		// The big partition's estimate: within 5%% of its items (all the
		// table's items not counted exactly are its), and said estimated.
		if e := counts["PLACE"]; e.CountExact || e.Count < big*95/100 || e.Count > big*105/100 {
			t.Errorf("%s big and small: PLACE=%d exact %v, want %d ±5%% estimated", name, e.Count, e.CountExact, big)
		}
		// One partition: its types only.
		pk := domain.S("USER#user001")
		res, err = dynamo.ReadEntities(ctx, c, dynamo.EntitiesRequest{Table: "EntitiesKeys", Key: key, PK: &pk, MaxRCU: 100})
		if err != nil || len(res.Entities) != 1 || res.Entities[0].Count != 1 || !res.Entities[0].CountExact {
			t.Errorf("%s one partition: %v %+v", name, err, res.Entities)
		}
		// A partition read to the budget counts the items it read: the
		// table's item count says nothing of one partition's.
		pk = domain.S("P")
		res, err = dynamo.ReadEntities(ctx, c, dynamo.EntitiesRequest{Table: "EntitiesBigPartition", Key: key, PK: &pk, MaxRCU: 1, SizeBytes: 100000 * 2048, ItemCount: 100000})
		if err != nil || !res.Sampled || res.Read >= 50 || len(res.Entities) != 1 || res.Entities[0].Count != res.Read || res.Entities[0].CountExact {
			t.Errorf("%s partition past the budget: %v sampled %v read %d %+v", name, err, res.Sampled, res.Read, res.Entities)
		}
		// A partition whose size is not known is read in growing reads
		// (one item, then as many as those read): its cost counts every
		// request sent, not the one Query the budget split (USER#2 of a
		// dynamodb-toolbox table: "1 req · 4.5 RCU" said of 5 Queries).
		for _, max := range []float64{1, 100} {
			sent := &countingClient{Client: c}
			res, err = dynamo.ReadEntities(ctx, sent, dynamo.EntitiesRequest{Table: "EntitiesBigPartition", Key: key, PK: &pk, MaxRCU: max})
			if err != nil || sent.sent < 2 || res.Cost.Requests != sent.sent {
				t.Errorf("%s partition, budget %g: %v, %d requests said of %d sent", name, max, err, res.Cost.Requests, sent.sent)
			}
		}
	}
}

var heavyRunTables seededTable

// heavyRun is one partition read in its sort keys' order: 50 items of 100
// bytes, then every tenth of 30 KB among them.
func heavyRun() []dynamo.Item {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var items []dynamo.Item
	for i := range 200 {
		size := 100
		if i >= 50 && i%10 == 0 {
			size = 30 << 10
		}
		items = append(items, dynamo.Item{"PK": s("P"), "SK": s(fmt.Sprintf("I%03d", i)), "Data": s(strings.Repeat("h", size))})
	}
	return items
}

// TestEntitiesBudgetHoldsOnHeavyTails: a whole read the table's size did
// not rule out (dynalite reports none) reads small items, then 30 KB ones
// among them, within its budget and half a read unit, and says it
// stopped. Its reads grow only as the items read before them (as a
// search's steps do): sized by the first small item alone, the second
// read had asked for 156 items and spent 44 RCU of 20. The heavy items
// scattered through a table (HeavyTenth, in hash order) are held too.
func TestEntitiesBudgetHoldsOnHeavyTails(t *testing.T) {
	run := seededBackends(t, &heavyRunTables, func(ctx context.Context, w dynamo.Writer) error {
		return demo.CreateKeyTable(ctx, w, "EntitiesHeavyRun", "S", heavyRun())
	})
	scattered := heavyBackends(t)
	for name, c := range run {
		for _, tc := range []struct {
			c     dynamo.Client
			table string
			key   dynamo.KeySchema
		}{
			{c, "EntitiesHeavyRun", dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: domain.TypeS}, SK: &dynamo.KeyAttr{Name: "SK", Type: domain.TypeS}}},
			{scattered[name], "HeavyTenth", dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: domain.TypeS}}},
		} {
			for _, budget := range []float64{5, 20} {
				m := dynamo.NewMetered(tc.c)
				res, err := dynamo.ReadEntities(context.Background(), m, dynamo.EntitiesRequest{Table: tc.table, Key: tc.key, MaxRCU: budget})
				total, _ := m.Session.Totals()
				t.Logf("%-8s %-16s budget %2g: %2d requests, %4.1f RCU, %3d items read", name, tc.table, budget, total.Requests, total.RCU, res.Read)
				if err != nil || !res.Stopped || !res.Sampled || res.Read == 0 || res.Read >= 200 {
					t.Errorf("%s %s budget %g: %v stopped %v sampled %v read %d", name, tc.table, budget, err, res.Stopped, res.Sampled, res.Read)
				}
				if total.RCU > budget+0.5 || res.Cost.Billed > budget+0.5 {
					t.Errorf("%s %s budget %g: spent %.1f RCU (billed %.1f) in %d requests", name, tc.table, budget, total.RCU, res.Cost.Billed, total.Requests)
				}
			}
		}
	}
}
