package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/demo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
)

// TestCopyAsCommandMatchesTheCLI runs the `aws dynamodb query` command
// dynascope gives for a view against dynalite and requires the same items,
// in the same order, as dynascope read.
func TestCopyAsCommandMatchesTheCLI(t *testing.T) {
	if _, err := exec.LookPath("aws"); err != nil {
		t.Skip("the AWS CLI is not installed: copy-as-command is checked where it is")
	}
	ctx := context.Background()
	srv := dynalitetest.Start(t)
	if _, err := demo.Seed(ctx, srv.Client(), demo.Options{Tables: []string{"Locations", "AuditLog", "ChatMessages"}}); err != nil {
		t.Fatal(err)
	}
	rng, _ := domain.ParseRange("2026-10-31", time.Now(), time.UTC)
	iso, _ := domain.DetectTime([]string{"2026-10-31T23:59:59Z"}, false)
	day, _ := domain.CompileRange(rng, iso, "")
	mustFilter := func(s string) domain.FilterNode {
		n, err := domain.ParseFilter(s)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, q := range []domain.KeyQuery{
		{Table: "Locations", PKName: "PK", PK: domain.S("USA"), SKName: "SK", SK: domain.SKCondition{Op: domain.SKBeginsWith, A: domain.S("NY#")},
			Filter: mustFilter(`(begins_with(City, "NEW") or SquareFeet > 2400) and DriveThru = true`)},
		{Table: "AuditLog", PKName: "Stream", PK: domain.S(demo.AuditStream), SKName: "At", Reverse: true,
			Filter: mustFilter(`Action in ("deploy", "rollback") and not attribute_exists(Missing) and size(Actor) >= 3`)},
		{Table: "Locations", PKName: "PK", PK: domain.S("USA"), SKName: "SK", SK: domain.SKCondition{Op: domain.SKBeginsWith, A: domain.S("NY#")}},
		{Table: "AuditLog", PKName: "Stream", PK: domain.S(demo.AuditStream), SKName: "At", SK: day, Reverse: true},
		{Table: "ChatMessages", Index: "ByTime", PKName: "ChatRoomID", PK: domain.S("seattle-1"), SKName: "TimeUser",
			SK: domain.SKCondition{Op: domain.SKBetween, A: domain.S("2018-08-02"), B: domain.S("2018-08-03")}},
	} {
		var want []string
		var start dynamo.Item
		for {
			p, err := dynamo.QueryPage(ctx, srv.Client(), dynamo.PageRequest{Query: q, Start: start})
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range p.Items {
				b, _ := json.Marshal(dynamo.PlainItem(it))
				want = append(want, string(b))
			}
			if !p.More() {
				break
			}
			start = p.LastKey
		}
		cmdline := domain.AWSCLICommand(q, "us-east-1", srv.Endpoint, 0)
		cmd := exec.Command("sh", "-c", cmdline)
		cmd.Env = append(os.Environ(), "AWS_ACCESS_KEY_ID=test", "AWS_SECRET_ACCESS_KEY=test", "AWS_PAGER=")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", cmdline, err)
		}
		var resp struct {
			Items []map[string]json.RawMessage
		}
		if err := json.Unmarshal(out, &resp); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, raw := range resp.Items {
			it := dynamo.Item{}
			for k, v := range raw {
				av, err := wireToAV(v)
				if err != nil {
					t.Fatal(err)
				}
				it[k] = av
			}
			b, _ := json.Marshal(dynamo.PlainItem(it))
			got = append(got, string(b))
		}
		if len(want) == 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s\nthe CLI returned %d items, dynascope %d", cmdline, len(got), len(want))
		}
	}
}

// wireToAV reads the DynamoDB JSON the CLI prints (scalars, maps, lists).
func wireToAV(raw json.RawMessage) (types.AttributeValue, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	for k, v := range m {
		switch k {
		case "S", "N":
			var s string
			_ = json.Unmarshal(v, &s)
			if k == "S" {
				return &types.AttributeValueMemberS{Value: s}, nil
			}
			return &types.AttributeValueMemberN{Value: s}, nil
		case "BOOL":
			var b bool
			_ = json.Unmarshal(v, &b)
			return &types.AttributeValueMemberBOOL{Value: b}, nil
		case "SS", "NS":
			var ss []string
			_ = json.Unmarshal(v, &ss)
			if k == "SS" {
				return &types.AttributeValueMemberSS{Value: ss}, nil
			}
			return &types.AttributeValueMemberNS{Value: ss}, nil
		case "M":
			var mm map[string]json.RawMessage
			_ = json.Unmarshal(v, &mm)
			out := map[string]types.AttributeValue{}
			for kk, vv := range mm {
				av, err := wireToAV(vv)
				if err != nil {
					return nil, err
				}
				out[kk] = av
			}
			return &types.AttributeValueMemberM{Value: out}, nil
		case "L":
			var ll []json.RawMessage
			_ = json.Unmarshal(v, &ll)
			var out []types.AttributeValue
			for _, vv := range ll {
				av, err := wireToAV(vv)
				if err != nil {
					return nil, err
				}
				out = append(out, av)
			}
			return &types.AttributeValueMemberL{Value: out}, nil
		}
	}
	return &types.AttributeValueMemberNULL{Value: true}, nil
}

// TestGoSnippetCompiles builds the Go snippet against the SDK versions this
// module pins, for a view with every kind of key condition.
func TestGoSnippetCompiles(t *testing.T) {
	// A module of its own outside the source tree, pinned to this
	// module's versions (its go.mod and go.sum, renamed): the check
	// writes nothing into the package while it runs.
	dir := t.TempDir()
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile("../../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	mod = regexp.MustCompile(`(?m)^module .*$`).ReplaceAll(mod, []byte("module snippetcheck"))
	for name, data := range map[string][]byte{"go.mod": mod, "go.sum": sum} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var src strings.Builder
	src.WriteString("package snippet\n\nimport (\n\t\"context\"\n\n\t\"github.com/aws/aws-sdk-go-v2/aws\"\n\t\"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression\"\n\t\"github.com/aws/aws-sdk-go-v2/service/dynamodb\"\n\t\"github.com/aws/aws-sdk-go-v2/service/dynamodb/types\"\n)\n\nvar _ = types.AttributeValueMemberS{}\n")
	every, err := domain.ParseFilter(domain.EveryFilterKind)
	if err != nil {
		t.Fatal(err)
	}
	for i, sk := range []domain.SKCondition{{}, {Op: domain.SKLt, A: domain.N("1536019200")}, {Op: domain.SKBetween, A: domain.S("a"), B: domain.S("b")},
		{Op: domain.SKBeginsWith, A: domain.S("NY#")}, {Op: domain.SKBeginsWith, A: domain.B([]byte{1, 0xff, '#'})}} {
		q := domain.KeyQuery{Table: "T", Index: "I", PKName: "PK", PK: domain.S("p"), SKName: "SK", SK: sk, Reverse: true}
		if i == 0 {
			q.Filter = every // every operator and function, built against the SDK
		}
		fmt.Fprintf(&src, "\nfunc f%d(ctx context.Context, client *dynamodb.Client) error {\n%sreturn nil\n}\n", i, domain.GoSnippet(q))
	}
	if err := os.WriteFile(filepath.Join(dir, "snippet.go"), []byte(src.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", ".")
	build.Dir = dir
	// The developer's Go settings, not the sealed home; no workspace, and
	// nothing fetched: every module it needs is this module's.
	build.Env = append(developerEnv, "GOWORK=off", "GOFLAGS=-mod=readonly", "GOPROXY=off")
	out, err := build.CombinedOutput()
	if err != nil {
		t.Fatalf("the snippet does not build: %v\n%s\n%s", err, out, src.String())
	}
}

// TestCopiedStatementMatchesTheCLI: y on a statement's results copies the
// aws commands of its plan (Queries, IN's several, or the Scan) with its
// projection; run against dynalite they return what `partiql` prints,
// attribute for attribute. A WHERE naming a key beyond the key condition
// stays out of the Queries' filter, which DynamoDB refuses there, and a
// # line above them says it is applied to what they read.
func TestCopiedStatementMatchesTheCLI(t *testing.T) {
	if _, err := exec.LookPath("aws"); err != nil {
		t.Skip("the AWS CLI is not installed: copy-as-command is checked where it is")
	}
	b := searchBackends(t)["dynalite"]
	endpoint := b.args[1]
	pk, sk := domain.KeyDef{Name: "PK", Type: domain.TypeS}, domain.KeyDef{Name: "SK", Type: domain.TypeS}
	for _, tc := range []struct {
		statement string
		superset  bool // the Queries read more than the WHERE keeps
	}{
		{statement: `SELECT City, SK FROM Locations WHERE PK = 'USA' AND begins_with(SK, 'NY#') AND DriveThru = true`},
		{statement: `SELECT SK, City FROM Locations WHERE PK IN ('USA', 'CAN') AND SquareFeet > 2400`},
		{statement: `SELECT PK, SK, City FROM Locations WHERE City = 'CEDARVILLE'`},
		{statement: `SELECT * FROM Locations WHERE PK = 'USA' AND SK <> 'NY#MAPLEVIEW#62991'`, superset: true},
	} {
		st, err := domain.ParsePartiQL(tc.statement)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := st.Plan(pk, &sk)
		if err != nil {
			t.Fatal(err)
		}
		if plan.FilterNamesKeys != tc.superset {
			t.Fatalf("%s: FilterNamesKeys %v", tc.statement, plan.FilterNamesKeys)
		}
		out, stderr, code := cli(t, append([]string{"partiql", tc.statement, "--max-rcu", "none"}, b.args...)...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", tc.statement, code, stderr)
		}
		want := map[string]bool{}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			want[line] = true
		}
		copied := domain.AWSPlanCommand(plan, "us-east-1", endpoint)
		lines := strings.Split(copied, "\n")
		if tc.superset != strings.HasPrefix(lines[0], "# ") {
			t.Errorf("%s: the copied commands open with %q", tc.statement, lines[0])
		}
		got := map[string]bool{}
		for _, cmdline := range lines {
			if strings.HasPrefix(cmdline, "# ") {
				continue
			}
			cmd := exec.Command("sh", "-c", cmdline)
			cmd.Env = append(os.Environ(), "AWS_PAGER=")
			raw, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s: %v", cmdline, err)
			}
			var resp struct{ Items []map[string]json.RawMessage }
			if err := json.Unmarshal(raw, &resp); err != nil {
				t.Fatal(err)
			}
			for _, wire := range resp.Items {
				it := dynamo.Item{}
				for k, v := range wire {
					if it[k], err = wireToAV(v); err != nil {
						t.Fatal(err)
					}
				}
				line, _ := json.Marshal(dynamo.PlainItem(it))
				got[string(line)] = true
			}
		}
		missing, extra := 0, 0
		for line := range want {
			if !got[line] {
				missing++
			}
		}
		for line := range got {
			if !want[line] {
				extra++
			}
		}
		if len(want) == 0 || missing > 0 || extra > 0 && !tc.superset || tc.superset && extra == 0 {
			t.Errorf("%s\n%s\nthe CLI returned %d items (%d not printed by partiql), partiql %d (%d not returned)", tc.statement, copied, len(got), extra, len(want), missing)
		}
	}
}
