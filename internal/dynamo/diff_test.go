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

var diffSeeded seededTable

// diffItem is an item of the comparison tables: PK "p" unless pk is given.
func diffItem(sk string, attrs ...any) dynamo.Item {
	it := dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberS{Value: sk}}
	for i := 0; i < len(attrs); i += 2 {
		it[attrs[i].(string)] = attrs[i+1].(types.AttributeValue)
	}
	return it
}

func sv(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// diffTables are two tables with known differences under PK "p": a#1 the
// same (its set in another order), a#2 differs in a nested value and an
// attribute only the right has, a#3 only on the left, b#1 only on the
// right; the partition "q" differs too and is never read.
func diffTables(ctx context.Context, w dynamo.Writer) error {
	left := []dynamo.Item{
		diffItem("a#1", "Status", sv("OPEN"), "Tags", &types.AttributeValueMemberSS{Value: []string{"x", "y", "z"}}),
		diffItem("a#2", "Status", sv("OPEN"), "Info", &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"n": &types.AttributeValueMemberN{Value: "1"}}}),
		diffItem("a#3", "Status", sv("OPEN")),
		{"PK": sv("q"), "SK": sv("a#1")},
	}
	right := []dynamo.Item{
		diffItem("a#1", "Status", sv("OPEN"), "Tags", &types.AttributeValueMemberSS{Value: []string{"z", "x", "y"}}),
		diffItem("a#2", "Status", sv("OPEN"), "Info", &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"n": &types.AttributeValueMemberN{Value: "2"}}}, "Note", sv("new")),
		diffItem("b#1", "Status", sv("OPEN")),
	}
	if err := demo.CreateKeyTable(ctx, w, "DiffLeft", types.ScalarAttributeTypeS, left); err != nil {
		return err
	}
	return demo.CreateKeyTable(ctx, w, "DiffRight", types.ScalarAttributeTypeS, right)
}

func diffQuery(table string, sk domain.SKCondition) domain.KeyQuery {
	return domain.KeyQuery{Table: table, PKName: "PK", PK: domain.S("p"), SKName: "SK", SK: sk}
}

func collect(into *[]domain.KeyDiff) func(domain.KeyDiff) error {
	return func(d domain.KeyDiff) error {
		*into = append(*into, d)
		return nil
	}
}

// diffLines is a comparison in comparable lines: status, sort key, paths.
func diffLines(ds []domain.KeyDiff) []string {
	var out []string
	for _, d := range ds {
		var paths []string
		for _, c := range d.Changes {
			paths = append(paths, fmt.Sprintf("%s %s", c.Kind, c.Path))
		}
		out = append(out, fmt.Sprintf("%s %s [%s]", d.Status, d.Key["SK"], strings.Join(paths, ", ")))
	}
	return out
}

// TestDiffAcrossBackends compares a partition, a prefix and an item held
// differently on two sides: on one backend (two tables) and across the
// embedded backend and dynalite, which must agree.
func TestDiffAcrossBackends(t *testing.T) {
	ctx := context.Background()
	bs := seededBackends(t, &diffSeeded, diffTables)
	keys := []string{"PK", "SK"}
	for _, tc := range []struct {
		name string
		sk   domain.SKCondition
		want []string
	}{
		{"partition", domain.SKCondition{}, []string{
			"same a#1 []", "differs a#2 [changed Info.n, added Note]", "only-left a#3 []", "only-right b#1 []"}},
		{"prefix", domain.SKCondition{Op: domain.SKBeginsWith, A: domain.S("a#")}, []string{
			"same a#1 []", "differs a#2 [changed Info.n, added Note]", "only-left a#3 []"}},
		{"item", domain.SKCondition{Op: domain.SKEq, A: domain.S("a#1")}, []string{"same a#1 []"}},
	} {
		for _, pair := range [][2]string{{"memory", "memory"}, {"dynalite", "dynalite"}, {"memory", "dynalite"}, {"dynalite", "memory"}} {
			t.Run(tc.name+"/"+pair[0]+"-"+pair[1], func(t *testing.T) {
				l := dynamo.DiffSide{Client: bs[pair[0]], Query: diffQuery("DiffLeft", tc.sk)}
				r := dynamo.DiffSide{Client: bs[pair[1]], Query: diffQuery("DiffRight", tc.sk)}
				var got []domain.KeyDiff
				res, err := dynamo.DiffItems(ctx, l, r, keys, 0, nil, collect(&got))
				if err != nil {
					t.Fatal(err)
				}
				if got := diffLines(got); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
					t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
				}
				if res.Stopped() || res.Left.Pages != 1 || res.Right.Pages != 1 {
					t.Errorf("read %+v and %+v, want one whole page a side", res.Left, res.Right)
				}
				if res.Cost().Billed < 1 {
					t.Errorf("both sides cost %.1f RCU billed, want at least 0.5 each", res.Cost().Billed)
				}
			})
		}
	}
}

// TestDiffBudget: a budget is split between the sides, and a comparison
// stopped by it says nothing of the keys past what both sides read.
func TestDiffBudget(t *testing.T) {
	ctx := context.Background()
	for name, c := range seededBackends(t, &diffSeeded, diffTables) {
		t.Run(name, func(t *testing.T) {
			l := dynamo.DiffSide{Client: c, Query: diffQuery("DiffLeft", domain.SKCondition{})}
			r := dynamo.DiffSide{Client: c, Query: diffQuery("DiffRight", domain.SKCondition{})}
			var got []domain.KeyDiff
			res, err := dynamo.DiffItems(ctx, l, r, []string{"PK", "SK"}, 1, nil, collect(&got))
			if err != nil {
				t.Fatal(err)
			}
			if !res.Stopped() || res.Cost().Billed > 1 {
				t.Fatalf("a budget of 1 RCU: stopped=%v, spent %.1f", res.Stopped(), res.Cost().Billed)
			}
			if got := strings.Join(diffLines(got), "\n"); got != "same a#1 []" || res.Counts[domain.Same] != 1 || res.Identical() != true {
				t.Errorf("keys compared within the budget:\n%s\nwant only a#1, the one both sides read", got)
			}
		})
	}
}

// TestDiffPagesAndFailures: keys paired across page boundaries compare as
// in one page; a side that fails fails the comparison (the other side's
// read is stopped), and so does the writer.
func TestDiffPagesAndFailures(t *testing.T) {
	ctx := context.Background()
	for name, c := range seededBackends(t, &diffSeeded, diffTables) {
		t.Run(name, func(t *testing.T) {
			l := dynamo.DiffSide{Client: c, Query: diffQuery("DiffLeft", domain.SKCondition{})}
			r := dynamo.DiffSide{Client: c, Query: diffQuery("DiffRight", domain.SKCondition{})}
			var got []domain.KeyDiff
			// 20 RCU: the first read of each side asks for one item (no
			// size is known yet), the next for the rest.
			res, err := dynamo.DiffItems(ctx, l, r, []string{"PK", "SK"}, 20, nil, collect(&got))
			if err != nil {
				t.Fatal(err)
			}
			want := "same a#1 []\ndiffers a#2 [changed Info.n, added Note]\nonly-left a#3 []\nonly-right b#1 []"
			if s := strings.Join(diffLines(got), "\n"); s != want || res.Left.Pages < 2 || res.Right.Pages < 2 || res.Stopped() {
				t.Errorf("in pages (%d and %d):\n%s\nwant\n%s", res.Left.Pages, res.Right.Pages, s, want)
			}
			missing := dynamo.DiffSide{Client: c, Query: diffQuery("DiffNope", domain.SKCondition{})}
			if _, err := dynamo.DiffItems(ctx, l, missing, []string{"PK", "SK"}, 0, nil, collect(&got)); dynamo.KindOf(err) != dynamo.KindNotFound {
				t.Errorf("a missing table on the right: %v", err)
			}
			stop := fmt.Errorf("the writer failed")
			if _, err := dynamo.DiffItems(ctx, l, r, []string{"PK", "SK"}, 0, nil, func(domain.KeyDiff) error { return stop }); err != stop {
				t.Errorf("a failing writer: %v", err)
			}
		})
	}
}
