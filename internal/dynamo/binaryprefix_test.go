package dynamo_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

var binPrefixSeeded seededTable

// TestBinaryBeginsWith: a binary sort key's prefix is sent as a binary
// (the expression builder takes begins_with's operand as a string), and
// both backends answer the keys under it, the bytes ff and 00 included.
func TestBinaryBeginsWith(t *testing.T) {
	keys := []string{"\x01\xff#\x02", "\x01\xff#\x03", "\x01\xff$", "\x01\xfe", "\x05#\x00", "\x00\x01\xff#"}
	backends := seededBackends(t, &binPrefixSeeded, func(ctx context.Context, w dynamo.Writer) error {
		var items []dynamo.Item
		for _, k := range keys {
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberB{Value: []byte(k)}})
		}
		return demo.CreateKeyTable(ctx, w, "BinPrefix", "B", items)
	})
	cases := []struct {
		prefix string
		want   []string
	}{
		{"\x01\xff#", []string{"\x01\xff#\x02", "\x01\xff#\x03"}},
		{"\x01\xff", []string{"\x01\xff#\x02", "\x01\xff#\x03", "\x01\xff$"}},
		{"\x00", []string{"\x00\x01\xff#"}},
		{"\x09", nil},
	}
	for name, c := range backends {
		for _, tc := range cases {
			q := domain.KeyQuery{Table: "BinPrefix", PKName: "PK", PK: domain.S("p"), SKName: "SK",
				SK: domain.SKCondition{Op: domain.SKBeginsWith, A: domain.B([]byte(tc.prefix))}}
			page, err := dynamo.QueryPage(context.Background(), c, dynamo.PageRequest{Query: q})
			if err != nil {
				t.Fatalf("%s %q: %v", name, tc.prefix, err)
			}
			var got []string
			for _, it := range page.Items {
				got = append(got, string(it["SK"].(*types.AttributeValueMemberB).Value))
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%s %q: %q, want %q", name, tc.prefix, got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("%s %q: %q, want %q", name, tc.prefix, got, tc.want)
				}
			}
		}
	}
}
