package ui

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// binDB holds a table keyed by two binaries, the sort keys split at '#'
// into a small hierarchy: b64:AP4= is the partition 00 fe.
func binDB(t *testing.T) *memory.DB {
	db := memory.New()
	ctx := context.Background()
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("Bin"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "B"}, {AttributeName: aws.String("SK"), AttributeType: "B"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		BillingMode:          types.BillingModePayPerRequest}); err != nil {
		t.Fatal(err)
	}
	for _, sk := range []string{"\x01\xff#\x02", "\x01\xff#\x03", "\x05#\x00\x10", "\x07"} {
		it := dynamo.Item{"PK": &types.AttributeValueMemberB{Value: []byte{0, 0xfe}}, "SK": &types.AttributeValueMemberB{Value: []byte(sk)},
			"Blob": &types.AttributeValueMemberB{Value: []byte{0xde, 0xad}}}
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Bin"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// TestBinaryKeysOneForm walks a table keyed by binaries through every
// page: partitions, tree, a drilled level, items, the item, the request
// line, the help's reopen command and the tree's export rows. A binary is
// shown one way, b64: and its base64 (what --pk and --prefix accept),
// never as escaped bytes or bare base64; the reopen command opens the
// same view again.
func TestBinaryKeysOneForm(t *testing.T) {
	escaped := regexp.MustCompile(`\\x[0-9a-f]{2}|\\u00|"AP4="|"3q0="`)
	check := func(h *harness, page string, want ...string) {
		t.Helper()
		s := h.screen()
		if m := escaped.FindString(s); m != "" {
			t.Fatalf("%s shows a binary as %q, not b64:…:\n%s", page, m, s)
		}
		h.contains(t, want...)
	}
	h := newHarness(t, 120, 35, Config{Client: binDB(t), Table: "Bin"})
	check(h, "partitions", "b64:AP4=")
	h.keys("enter")
	check(h, "tree", "Bin › b64:AP4=", "▸ b64:Af8=", "▸ b64:BQ==", "• b64:Bw==", `:pk=b64:AP4=`)
	if got := h.m.commandLine(); got != "dynascope --demo --table Bin --pk b64:AP4= --delimiter '#'" {
		t.Fatalf("tree reopens with %q", got)
	}
	h.keys("enter")
	check(h, "drilled tree", "Bin › b64:AP4= › b64:Af8=", "b64:Af8j · 2 items", "• b64:Ag==", `:prefix=b64:Af8j`)
	if got := h.m.commandLine(); !strings.Contains(got, "--pk b64:AP4= --prefix b64:Af8j") {
		t.Fatalf("drilled tree reopens with %q", got)
	}
	h.keys("2")
	check(h, "items", "b64:Af8jAg==", "b64:3q0=")
	h.keys("enter")
	check(h, "item", `"SK": "b64:Af8jAg=="`, `"Blob": "b64:3q0="`, "Key: PK=b64:AP4= SK=b64:Af8jAg==")
	h.keys("?")
	check(h, "help", "b64:AP4=")

	// The reopen command's values read back as the same keys.
	for _, arg := range []string{"b64:AP4=", "AP4="} {
		v, err := domain.ParseKeyValue(domain.TypeB, arg)
		if err != nil || string(v.Bytes) != "\x00\xfe" {
			t.Fatalf("--pk %s reads as %v, %v", arg, v, err)
		}
	}
	h = newHarness(t, 120, 35, Config{Client: binDB(t), Table: "Bin", PK: "b64:AP4=", Prefix: "b64:Af8j", Delimiter: "#"})
	check(h, "deep link", "Bin › b64:AP4= › b64:Af8=", "b64:Af8j · 2 items", "• b64:Ag==", "• b64:Aw==")
}
