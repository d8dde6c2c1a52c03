package domain

import (
	"go/parser"
	"go/token"
	"os/exec"
	"testing"
	"time"
)

func TestAWSCLICommand(t *testing.T) {
	// The seed's query, as the range grammar compiles it: the copied
	// command sends < as itself, as the request line says.
	r, _ := ParseRange("< 1536019200", demoNow, time.UTC)
	seed, err := CompileRange(r, TimeEncoding{Kind: EpochSeconds}, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		q    KeyQuery
		want string
	}{
		{KeyQuery{Table: "DeviceLogs", PKName: "DeviceID", PK: N("123"), SKName: "Timestamp", SK: seed, Reverse: true},
			`aws dynamodb query --table-name DeviceLogs --key-condition-expression '#pk = :pk AND #sk < :sk' --expression-attribute-names '{"#pk":"DeviceID","#sk":"Timestamp"}' --expression-attribute-values '{":pk":{"N":"123"},":sk":{"N":"1536019200"}}' --no-scan-index-forward --return-consumed-capacity TOTAL`},
		{KeyQuery{Table: "Locations", PKName: "PK", PK: S("USA"), SKName: "SK", SK: SKCondition{Op: SKBeginsWith, A: S("NY#O'NEIL")}},
			`aws dynamodb query --table-name Locations --key-condition-expression '#pk = :pk AND begins_with(#sk, :prefix)' --expression-attribute-names '{"#pk":"PK","#sk":"SK"}' --expression-attribute-values '{":pk":{"S":"USA"},":prefix":{"S":"NY#O'\''NEIL"}}' --return-consumed-capacity TOTAL`},
		{KeyQuery{Table: "ChatMessages", Index: "ByTime", PKName: "ChatRoomID", PK: S("a b"), SKName: "TimeUser", SK: SKCondition{Op: SKBetween, A: S("x"), B: S("y")}},
			`aws dynamodb query --table-name ChatMessages --index-name ByTime --key-condition-expression '#pk = :pk AND #sk BETWEEN :lo AND :hi' --expression-attribute-names '{"#pk":"ChatRoomID","#sk":"TimeUser"}' --expression-attribute-values '{":hi":{"S":"y"},":lo":{"S":"x"},":pk":{"S":"a b"}}' --return-consumed-capacity TOTAL`},
	} {
		if got := AWSCLICommand(tc.q, "", "", 0); got != tc.want {
			t.Errorf("got\n%s\nwant\n%s", got, tc.want)
		}
	}
}

// TestAWSScanCommand: the copied scan sends the filter through
// placeholders, names and values both, as the search reads it.
func TestAWSScanCommand(t *testing.T) {
	f, err := ParseFilter(`Status = "FAIL" and attribute_exists(note)`)
	if err != nil {
		t.Fatal(err)
	}
	want := `aws dynamodb scan --table-name Orders --index-name ByStatus --filter-expression '#f0 = :f0 AND attribute_exists(#f1)' --expression-attribute-names '{"#f0":"Status","#f1":"note"}' --expression-attribute-values '{":f0":{"S":"FAIL"}}' --return-consumed-capacity TOTAL --region eu-west-1`
	if got := AWSScanCommand("Orders", "ByStatus", f, "eu-west-1", ""); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := AWSScanCommand("O'Brien", "", nil, "", ""); got != `aws dynamodb scan --table-name 'O'\''Brien' --return-consumed-capacity TOTAL` {
		t.Errorf("no filter: %s", got)
	}
}

// TestShellQuoteRoundTrip: what the shell reads back is what was quoted.
func TestShellQuoteRoundTrip(t *testing.T) {
	for _, s := range []string{"", "plain", "it's", `a"b`, "$HOME `x` \\ \n\t", "NY#O'NEIL", "東京"} {
		out, err := exec.Command("sh", "-c", "printf %s "+ShellQuote(s)).Output()
		if err != nil || string(out) != s {
			t.Errorf("%q: shell read %q (%v)", s, out, err)
		}
	}
}

// TestGoSnippetParses: the snippet is valid Go for every operator.
func TestGoSnippetParses(t *testing.T) {
	for _, sk := range []SKCondition{{}, {Op: SKEq, A: N("1")}, {Op: SKLt, A: S("a")}, {Op: SKLe, A: S("a")}, {Op: SKGt, A: S("a")},
		{Op: SKGe, A: S("a")}, {Op: SKBetween, A: S("a"), B: S("b")}, {Op: SKBeginsWith, A: S(`NY#"x"`)}, {Op: SKBeginsWith, A: B([]byte{1, 0xff, '#'})}} {
		q := KeyQuery{Table: "T", Index: "I", PKName: "PK", PK: B([]byte{0, 1}), SKName: "SK", SK: sk, Reverse: true}
		src := "package p\nfunc f() error {\n" + GoSnippet(q) + "return nil\n}\n"
		if _, err := parser.ParseFile(token.NewFileSet(), "snippet.go", src, 0); err != nil {
			t.Errorf("%v: %v\n%s", sk.Op, err, src)
		}
	}
}
