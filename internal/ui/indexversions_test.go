package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// indexVersionsDB is bare versions (ID / Version) of three parts of one
// team, with GSIs keyed Team / Version: ByTeam holds everything,
// ByTeamKeys keys + State.
func indexVersionsDB(t *testing.T) *memory.DB {
	t.Helper()
	ctx := context.Background()
	db := memory.New()
	def := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	ks := func(pk, sk string) []types.KeySchemaElement {
		return []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}, {AttributeName: aws.String(sk), KeyType: types.KeyTypeRange}}
	}
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("IndexVersions"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{def("ID"), def("Version"), def("Team")},
		KeySchema:            ks("ID", "Version"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("ByTeam"), KeySchema: ks("Team", "Version"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
			{IndexName: aws.String("ByTeamKeys"), KeySchema: ks("Team", "Version"),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"State"}}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	for _, k := range [][3]string{{"Part#1", "v0", "B"}, {"Part#1", "v1", "A"}, {"Part#1", "v2", "B"}, {"Part#2", "v0", "X"}, {"Part#2", "v1", "Y"}} {
		it := map[string]types.AttributeValue{"ID": s(k[0]), "Version": s(k[1]), "Team": s("t1"), "State": s(k[2]), "Owner": s("ops")}
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("IndexVersions"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// TestVersionsOnIndex: 3 on an index's partition lists its versioned
// items by the base table's key (two parts share the index's v0, v1); an
// index holding keys + State says drift is not judged, and enter on a
// revision reads it whole from the table.
func TestVersionsOnIndex(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Client: indexVersionsDB(t), Table: "IndexVersions", Index: "ByTeamKeys", PK: "t1"})
	openVersionsMode(t, h)
	h.contains(t, "index ByTeamKeys · t1 · 2 versioned items", "ID", "Part#1", "Part#2",
		"index ByTeamKeys holds keys + State: drift not judged", "Query IndexVersions index ByTeamKeys: Team = :pk")
	h.golden(t)
	if got := h.m.commandLine(); got != "dynascope --demo --table IndexVersions --pk t1 --index ByTeamKeys --versions" {
		t.Errorf("? shows %q", got)
	}
	h.keys("down", "enter") // Part#2's timeline, from what was read
	h.contains(t, "ID Part#2 · (vN) · 1 revision", "ID Part#2 from index ByTeamKeys's versions", "v1")
	if got := h.m.commandLine(); got != "dynascope --demo --table IndexVersions --pk t1 --index ByTeamKeys --versions" {
		t.Errorf("the timeline's ? shows %q: a name is not one history on an index", got)
	}
	gets := h.rec.count("GetItem")
	h.keys("enter") // v1, whole from the table
	if n := h.rec.count("GetItem") - gets; n != 1 {
		t.Fatalf("opening a revision of a KEYS+ index sent %d GetItem, want 1", n)
	}
	h.contains(t, `"Owner": "ops"`, `GetItem IndexVersions  Key: ID="Part#2" Version="v1"`)
	h.keys("esc", "esc", "esc") // the item, the timeline, the versions: the index's partition
	h.contains(t, "index ByTeamKeys")

	h = newHarness(t, 100, 30, Config{Client: indexVersionsDB(t), Table: "IndexVersions", Index: "ByTeam", PK: "t1"})
	openVersionsMode(t, h)
	h.contains(t, "index ByTeam · t1 · 2 versioned items · 1 drifted", "v0 differs from v1: State")
	h.keys("down", "enter", "enter") // an index holding everything: no GetItem
	if n := h.rec.count("GetItem"); n != 0 {
		t.Fatalf("opening a revision of an ALL index sent %d GetItem", n)
	}
	h.contains(t, `"Owner": "ops"`)
}

// TestVersionsOnIndexFits: the index's versions list and a timeline fit
// 80×24, 120×35 and 200×50, with the projection's note on screen.
func TestVersionsOnIndexFits(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		h := newHarness(t, size[0], size[1], Config{Client: indexVersionsDB(t), Table: "IndexVersions", Index: "ByTeamKeys", PK: "t1"})
		for _, keys := range [][]string{{"3"}, {"down", "enter"}} {
			h.keys(keys...)
			h.contains(t, "Part#")
			lines := strings.Split(h.screen(), "\n")
			if len(lines) != size[1] {
				t.Errorf("%v at %dx%d: %d lines", keys, size[0], size[1], len(lines))
			}
			for _, l := range lines {
				if w := ansi.StringWidth(l); w > size[0] {
					t.Errorf("%v at %dx%d: a line of %d cells: %q", keys, size[0], size[1], w, l)
				}
			}
		}
	}
}

// TestVersionsOnIndexDeepLink: --index with --versions opens the index's
// versions, as its ? line prints them.
func TestVersionsOnIndexDeepLink(t *testing.T) {
	h := newHarness(t, 100, 30, Config{Client: indexVersionsDB(t), Table: "IndexVersions", Index: "ByTeamKeys", PK: "t1", Versions: "*"})
	h.contains(t, "index ByTeamKeys · t1 · 2 versioned items", "Part#2")
	h.keys("esc") // the index's partition beneath
	h.contains(t, "index ByTeamKeys")
}
