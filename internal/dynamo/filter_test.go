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

// TestFiltersBothBackends runs each operator and function, nested paths and
// odd names, on both backends: the same matches, and for simple ones the
// matches a plain read selects in Go.
func TestFiltersBothBackends(t *testing.T) {
	ctx := context.Background()
	q := domain.KeyQuery{Table: "Equipment", PKName: "PK", PK: domain.S(demo.LongHistoryPiece), SKName: "SK"}
	cases := []struct {
		filter string
		want   func(dynamo.Item) bool // nil: backends must agree, and match something
	}{
		{`Status = "FAIL"`, func(it dynamo.Item) bool { return str(it, "Status") == "FAIL" }},
		// As in DynamoDB, a missing attribute is not equal to anything.
		{`Status <> "PASS"`, func(it dynamo.Item) bool { return str(it, "Status") != "PASS" }},
		{`Score >= 90`, nil},
		{`Score < 60 and Status = "PASS"`, nil},
		{`Score between 70 and 75`, nil},
		{`Status in ("FAIL", "PENDING")`, nil},
		{`not attribute_exists(Score)`, func(it dynamo.Item) bool { _, ok := it["Score"]; return !ok }},
		{`attribute_not_exists(Model) and attribute_exists(Checks)`, nil},
		{`attribute_type(Score, "N")`, nil},
		{`begins_with(Auditor, "Auditor-A")`, func(it dynamo.Item) bool { return strings.HasPrefix(str(it, "Auditor"), "Auditor-A") }},
		{`contains(Findings, "worn belt")`, nil},
		{`contains(Notes, "revision 99")`, nil},
		{`size(Notes) > 30`, nil},
		{`Checks.brakes.status = "PASS"`, nil},
		{`Checks.brakes.pressure > 105 or Checks.wiring.status = "FAIL"`, nil},
		{`Findings[0] = "loose bolt"`, nil},
		{"`Checks`.`firmware` = \"v2.0\"", nil},
	}
	results := map[string][]string{}
	for name, c := range backends(t) {
		for _, tc := range cases {
			f, err := domain.ParseFilter(tc.filter)
			if err != nil {
				t.Fatalf("%s: %v", tc.filter, err)
			}
			var got []string
			scanned := 0
			var start dynamo.Item
			fq := q
			fq.Filter = f
			for {
				p, err := dynamo.QueryPage(ctx, c, dynamo.PageRequest{Query: fq, Start: start})
				if err != nil {
					t.Fatalf("%s %s: %v", name, tc.filter, err)
				}
				scanned += p.Scanned
				for _, it := range p.Items {
					got = append(got, sk(it))
				}
				if !p.More() {
					break
				}
				start = p.LastKey
			}
			if scanned < 1000 {
				t.Fatalf("%s %s: scanned %d", name, tc.filter, scanned)
			}
			if len(got) == 0 {
				t.Errorf("%s %s matched nothing", name, tc.filter)
			}
			if tc.want != nil {
				var want []string
				var start dynamo.Item
				for {
					p, _ := dynamo.QueryPage(ctx, c, dynamo.PageRequest{Query: q, Start: start})
					for _, it := range p.Items {
						if tc.want(it) {
							want = append(want, sk(it))
						}
					}
					if !p.More() {
						break
					}
					start = p.LastKey
				}
				if strings.Join(got, ",") != strings.Join(want, ",") {
					t.Errorf("%s %s: %d matches, a plain read selects %d", name, tc.filter, len(got), len(want))
				}
			}
			results[tc.filter] = append(results[tc.filter], strings.Join(got, ","))
		}
	}
	for f, r := range results {
		if len(r) != 2 || r[0] != r[1] {
			t.Errorf("%s: the backends differ", f)
		}
	}
}

func str(it dynamo.Item, name string) string {
	if s, ok := it[name].(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

var filterEscapesSeeded seededTable

// A value holding control, invisible or right-to-left characters is shown
// escaped everywhere (\x1b, \u200b, \U0001f600, a backslash doubled), and
// a filter written with the text shown finds it, on both backends: the
// filter reads those escapes, where it used to drop the backslash and
// match nothing.
func TestFilterFindsValuesByTheirShownText(t *testing.T) {
	values := map[string]string{ // as stored: as shown
		"ctl\x01\x1b[31m":  `ctl\x01\x1b[31m`,
		"zw\u200bsp":       `zw\u200bsp`,
		"rtl\u202eevil":    `rtl\u202eevil`,
		"emoji\U0001F600!": `emoji\U0001f600!`,
		`plain\x01`:        `plain\\x01`,
		"tab\there":        `tab\there`,
	}
	backends := seededBackends(t, &filterEscapesSeeded, func(ctx context.Context, w dynamo.Writer) error {
		var items []dynamo.Item
		i := 0
		for v := range values {
			items = append(items, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprint(i)}, "Name": &types.AttributeValueMemberS{Value: v}})
			i++
		}
		return demo.CreateKeyTable(ctx, w, "FilterEscapes", "S", items)
	})
	q := domain.KeyQuery{Table: "FilterEscapes", PKName: "PK", PK: domain.S("p"), SKName: "SK"}
	for name, c := range backends {
		for stored, shown := range values {
			f, err := domain.ParseFilter(`Name = "` + shown + `"`)
			if err != nil {
				t.Fatalf("%s: %v", shown, err)
			}
			fq := q
			fq.Filter = f
			p, err := dynamo.QueryPage(context.Background(), c, dynamo.PageRequest{Query: fq})
			if err != nil {
				t.Fatalf("%s %s: %v", name, shown, err)
			}
			if len(p.Items) != 1 || str(p.Items[0], "Name") != stored {
				t.Errorf("%s: Name = %q matched %d items, want the one holding %q", name, shown, len(p.Items), stored)
			}
		}
	}
}
