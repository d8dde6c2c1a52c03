package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo/memory"
)

// TestHostileNamesNeverRaw: bidi controls and line separators in table and
// key attribute names, and in a typed key value, reach neither stdout nor
// stderr raw: not the `tables` text, not the key condition on stderr.
func TestHostileNamesNeverRaw(t *testing.T) {
	const pk, sk = "P\u202eK", "S\u2028K\x1b[2J"
	db := memory.New()
	_, err := db.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName: aws.String("T\u2066able"),
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}, {AttributeName: aws.String(sk), KeyType: types.KeyTypeRange}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String(pk), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(sk), AttributeType: types.ScalarAttributeTypeS}},
		BillingMode: types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
	saved := loadDemo
	loadDemo = func(context.Context) (*memory.DB, error) { return db, nil }
	defer func() { loadDemo = saved }()
	for _, args := range [][]string{
		{"tables", "--demo", "--output", "text"},
		{"tables", "--demo", "--output", "json"},
		{"items", "--demo", "--table", "T\u2066able", "--pk", "v\u202e\u2029"},
		{"items", "--demo", "--table", "T\u2066able", "--pk", "v", "--output", "csv"},
	} {
		out, errs, code := cli(t, args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", args, code, errs)
		}
		for name, text := range map[string]string{"stdout": out, "stderr": errs} {
			if i := strings.IndexFunc(text, func(r rune) bool {
				return (r < 0x20 && r != '\n') || (r >= 0x7f && r < 0xa0) || r == '\u202e' || r == '\u2066' || r == '\u2028' || r == '\u2029'
			}); i >= 0 {
				t.Errorf("%q: %s holds a raw control at %d: %q", args, name, i, text)
			}
		}
		if !strings.Contains(out+errs, `\u202e`) {
			t.Errorf("%q: the escaped name is missing:\n%s%s", args, out, errs)
		}
	}
}

// TestKeysOnStderrAndInDiffTextStayJSON: a key holding a soft hyphen
// (U+00AD), a C1 control (U+0085) and DEL is shown, on items' largestItem
// line and in diff's text, as JSON that decodes to the key itself: the
// characters as \u escapes. They were written \xad, \x85 and \x7f, which
// JSON has not and which read as bytes. On dynalite and the embedded
// backend.
func TestKeysOnStderrAndInDiffTextStayJSON(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	const sk = "soft\u00adhyphen\u0085nel\x7fdel"
	items := []map[string]types.AttributeValue{av("PK", "p", "SK", sk, "v", "1")}
	table, backends := bothBackends(t, items)
	decodes := func(what, text string) {
		t.Helper()
		var key map[string]string
		if err := json.Unmarshal([]byte(text), &key); err != nil || key["SK"] != sk {
			t.Errorf("%s: %q is not the key as JSON: %v", what, text, err)
		}
	}
	for name, conn := range backends {
		t.Run(name, func(t *testing.T) {
			_, stderr := mustRun(t, append([]string{"items", "--table", table, "--pk", "p"}, conn...)...)
			_, after, ok := strings.Cut(stderr, "largestItem=")
			if !ok {
				t.Fatalf("no largestItem: %s", stderr)
			}
			decodes("largestItem", strings.TrimSpace(after))
		})
	}
	other := diffDataFile(t, table, []map[string]types.AttributeValue{av("PK", "p", "SK", sk, "v", "2")})
	out, stderr, code := cli(t, append([]string{"diff", "--table", table, "--pk", "p", "--against-data", other}, backends["dynalite"]...)...)
	if code != 1 {
		t.Fatalf("diff: exit %d: %s", code, stderr)
	}
	line, _, _ := strings.Cut(out, "\n")
	decodes("diff", strings.TrimSpace(strings.TrimPrefix(line, "differs")))
}
