package dynamo_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// A table of bare versions (ID / Version) whose GSIs are keyed Team /
// Version: three parts of one team share each index partition, so their
// v0, v1… share index keys.
const ixvTable = "IndexVersions"

var (
	ixvKeys  = dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "ID", Type: "S"}, SK: &dynamo.KeyAttr{Name: "Version", Type: "S"}}
	ixvIndex = map[string]dynamo.Index{
		"ByTeam":     {Name: "ByTeam", Kind: "GSI", Projection: "ALL", Key: dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "Team", Type: "S"}, SK: ixvKeys.SK}},
		"ByTeamKeys": {Name: "ByTeamKeys", Kind: "GSI", Projection: "INCLUDE", NonKeyAttributes: []string{"State"}, Key: dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "Team", Type: "S"}, SK: ixvKeys.SK}},
	}
)

func ixvItems() []dynamo.Item {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	it := func(id, ver, state string, extra ...string) dynamo.Item {
		m := dynamo.Item{"ID": s(id), "Version": s(ver), "Team": s("t1"), "State": s(state)}
		if len(extra) == 1 {
			m["Latest"] = &types.AttributeValueMemberN{Value: extra[0]}
		}
		return m
	}
	return []dynamo.Item{
		it("Part#1", "v0", "B", "2"), it("Part#1", "v1", "A"), it("Part#1", "v2", "B"), // healthy, with its pointer
		it("Part#2", "v0", "X"), it("Part#2", "v1", "Y"), // v0 differs from v1
		it("Part#3", "v0", "C"), it("Part#3", "v2", "C"), // no v1
	}
}

func createIxvTable(ctx context.Context, w dynamo.Writer) error {
	def := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	ks := func(pk, sk string) []types.KeySchemaElement {
		return []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}, {AttributeName: aws.String(sk), KeyType: types.KeyTypeRange}}
	}
	_, err := w.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String(ixvTable), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{def("ID"), def("Version"), def("Team")},
		KeySchema:            ks("ID", "Version"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("ByTeam"), KeySchema: ks("Team", "Version"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
			{IndexName: aws.String("ByTeamKeys"), KeySchema: ks("Team", "Version"),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"State"}}},
		},
	})
	if err != nil {
		return err
	}
	if err := demo.WaitActive(ctx, w, ixvTable); err != nil {
		return err
	}
	var reqs []types.WriteRequest
	for _, it := range ixvItems() {
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
	}
	_, err = w.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{ixvTable: reqs}})
	return err
}

var ixvSeeded seededTable

func ixvBackends(t *testing.T) map[string]dynamo.Client {
	return seededBackends(t, &ixvSeeded, createIxvTable)
}

func ixvReq(index string) dynamo.VersionsRequest {
	ix := ixvIndex[index]
	return dynamo.VersionsRequest{Table: ixvTable, Key: ix.Key, PK: domain.S("t1"), Index: &ix, TableKeys: &ixvKeys}
}

// TestVersionsOnIndex: Versions reads an index whose sort key holds
// revision keys; base items sharing index keys are separate histories,
// not "v0 appears 3 times"; an index holding part of each item judges
// only what keys tell, and says so.
func TestVersionsOnIndex(t *testing.T) {
	want := map[string][]string{
		"ByTeam": {
			`Part#1: (vN) current=v0 revisions=2 latest=v2 drift=[]`,
			`Part#2: (vN) current=v0 revisions=1 latest=v1 drift=["v0 differs from v1: State"]`,
			`Part#3: (vN) current=v0 revisions=1 latest=v2 drift=["gap: no v1 before v2"]`,
		},
		"ByTeamKeys": {
			`Part#1: (vN) current=v0 revisions=2 latest=v2 drift=[]`,
			`Part#2: (vN) current=v0 revisions=1 latest=v1 drift=[]`,
			`Part#3: (vN) current=v0 revisions=1 latest=v2 drift=["gap: no v1 before v2"]`,
		},
	}
	notes := map[string]string{"ByTeam": "", "ByTeamKeys": "index ByTeamKeys holds keys + State: drift not judged; enter reads each revision whole from the table"}
	for name, c := range ixvBackends(t) {
		for _, index := range []string{"ByTeam", "ByTeamKeys"} {
			r := ixvReq(index)
			r.PageLimit = 2 // pages cut between base items sharing an index key
			res, err := dynamo.Versions(context.Background(), c, r, nil)
			if err != nil {
				t.Fatalf("%s %s: %v", name, index, err)
			}
			var got []string
			for _, h := range res.Histories {
				got = append(got, h.Owner+": "+strings.Replace(summary(h), " current", "(vN) current", 1))
			}
			if strings.Join(got, "\n") != strings.Join(want[index], "\n") {
				t.Errorf("%s %s:\n got %s\nwant %s", name, index, strings.Join(got, "\n     "), strings.Join(want[index], "\n     "))
			}
			if res.Level.Index != index {
				t.Errorf("%s %s: the history query reads %q", name, index, res.Level.Index)
			}
			if n := r.ProjectionNote(); n != notes[index] {
				t.Errorf("%s %s: note %q, want %q", name, index, n, notes[index])
			}
			if len(res.Raw) != len(ixvItems()) {
				t.Errorf("%s %s: %d raw revisions kept, want %d (one per base item)", name, index, len(res.Raw), len(ixvItems()))
			}
			if it := res.Raw[dynamo.RawKey("Part#2", "v1")]; it == nil || sText(it["ID"]) != "Part#2" {
				t.Errorf("%s %s: Part#2's v1 is kept as %v", name, index, it)
			}
		}
	}
}

// TestItemHistoryOnIndex: one base item's history from an index, its
// current copy from the history query (an index has no GetItem), others
// sharing its index keys left out.
func TestItemHistoryOnIndex(t *testing.T) {
	for name, c := range ixvBackends(t) {
		r := ixvReq("ByTeam")
		r.Owner = "Part#2"
		m := dynamo.NewMetered(c)
		h, res, err := dynamo.ItemHistory(context.Background(), m, r, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, want := h.Owner+": "+summary(h), `Part#2:  current=v0 revisions=1 latest=v1 drift=["v0 differs from v1: State"]`; got != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
		if res.Cost.Requests != 1 {
			t.Errorf("%s: %d requests, want 1 Query", name, res.Cost.Requests)
		}
	}
}
