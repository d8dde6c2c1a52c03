package cli

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
)

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestEnvironmentLabels: a connection that matches a configured
// environment says its label on stderr in every headless command, and
// tables shows it; one that matches none says nothing.
func TestEnvironmentLabels(t *testing.T) {
	isolateAWS(t)
	dl := dynalitetest.Shared(t)
	table := diffServerTable(t, dl.Client(), diffLeftItems)
	conn := []string{"--endpoint-url", dl.Endpoint, "--region", "us-east-1"}
	byEndpoint := writeConfig(t, `
[[environments]]
label = "STAGING"
profile = "staging"

[[environments]]
label = "LOCAL"
color = "green"
endpoint_url = "`+strings.ToUpper(dl.Endpoint)+`/"
`)
	byAccount := writeConfig(t, `
[[environments]]
label = "PROD"
account = "000000000000"
`)
	want := "environment LOCAL: us-east-1 · " + dl.Endpoint + "\n"

	t.Run("items", func(t *testing.T) {
		_, errs := mustRun(t, append([]string{"items", "--config", byEndpoint, "--table", table, "--pk", "p"}, conn...)...)
		if !strings.HasPrefix(errs, want) {
			t.Errorf("stderr does not begin with %q:\n%s", want, errs)
		}
	})
	t.Run("tables", func(t *testing.T) {
		out, errs := mustRun(t, append([]string{"tables", "--config", byEndpoint}, conn...)...)
		if !strings.HasPrefix(out, "LOCAL: us-east-1 · "+dl.Endpoint+"\nTABLE") || !strings.Contains(errs, want) {
			t.Errorf("stdout:\n%s\nstderr:\n%s", out, errs)
		}
		out, _ = mustRun(t, append([]string{"tables", "--config", byEndpoint, "--output", "json"}, conn...)...)
		var doc struct{ Environment map[string]string }
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Environment["label"] != "LOCAL" || doc.Environment["color"] != "#00af5f" {
			t.Errorf("environment: %v", doc.Environment)
		}
	})
	t.Run("by account, once a table names it", func(t *testing.T) {
		out, errs := mustRun(t, append([]string{"tables", "--config", byAccount}, conn...)...)
		if !strings.HasPrefix(out, "PROD: ") || strings.Count(errs, "environment PROD: ") != 1 {
			t.Errorf("stdout:\n%s\nstderr:\n%s", out, errs)
		}
		_, errs = mustRun(t, append([]string{"items", "--config", byAccount, "--table", table, "--pk", "p"}, conn...)...)
		if !strings.HasPrefix(errs, "environment PROD: us-east-1 · "+dl.Endpoint+"\n") {
			t.Errorf("items: stderr:\n%s", errs)
		}
	})
	t.Run("diff names both sides", func(t *testing.T) {
		data := diffDataFile(t, table, diffRightItems)
		_, errs, _ := cli(t, append([]string{"diff", "--config", byEndpoint, "--table", table, "--pk", "p", "--against-data", data}, conn...)...)
		if !strings.HasPrefix(errs, want) || strings.Count(errs, "environment ") != 1 {
			t.Errorf("stderr:\n%s", errs)
		}
		// The left side named by its environment, as the explorer's =
		// names it: the label set, then the connection.
		if !strings.Contains(errs, " · left: LOCAL: us-east-1 · "+dl.Endpoint+" · right: DATA: ") {
			t.Errorf("the sides are not named as set:\n%s", errs)
		}
	})
	t.Run("none matches", func(t *testing.T) {
		other := writeConfig(t, "[[environments]]\nlabel = \"PROD\"\nregion = \"eu-west-1\"\n")
		out, errs := mustRun(t, append([]string{"tables", "--config", other}, conn...)...)
		if strings.Contains(errs+out, "PROD") {
			t.Errorf("a label where none matches:\n%s\n%s", out, errs)
		}
	})
	t.Run("a bad environment", func(t *testing.T) {
		bad := writeConfig(t, "[[environments]]\nlabel = \"PROD\"\ncolor = \"ultraviolet\"\nprofile = \"p\"\n")
		checkBadInput(t, append([]string{"tables", "--config", bad}, conn...), exitUsage, `color "ultraviolet"`)
	})
}

// TestExplorerEnvironment: the explorer's connection hands it the
// environment matched, by endpoint at once, and by account once the
// preflight's DescribeTable has named the account.
func TestExplorerEnvironment(t *testing.T) {
	isolateAWS(t)
	dl := dynalitetest.Shared(t)
	table := diffServerTable(t, dl.Client(), diffLeftItems)
	for _, tc := range []struct{ name, conf, want string }{
		{"by endpoint", "[[environments]]\nlabel = \"LOCAL\"\ncolor = \"green\"\nendpoint_url = \"" + dl.Endpoint + "\"\n", "LOCAL"},
		{"by account", "[[environments]]\nlabel = \"PROD\"\naccount = \"000000000000\"\n", "PROD"},
		{"none", "[[environments]]\nlabel = \"PROD\"\nregion = \"eu-west-1\"\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &globals{endpoint: dl.Endpoint, region: "us-east-1", configFile: writeConfig(t, tc.conf), stderr: io.Discard, session: &dynamo.Session{}}
			conn, err := g.connectExplorer(nil, table, "", nil)(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if conn.Environment != nil && conn.Environment() != nil {
				got = conn.Environment().Label
			}
			if got != tc.want {
				t.Errorf("environment %q, want %q", got, tc.want)
			}
		})
	}
}

// TestExplorerCommandsReadWhereItRead: a connection whose profile,
// region and endpoint come from the AWS settings (AWS_PROFILE, the
// profile's region, AWS_ENDPOINT_URL_DYNAMODB), no flag, hands them to
// the explorer for the aws commands y copies and the command ? prints:
// pasted in a shell without those settings, each reads the same table.
func TestExplorerCommandsReadWhereItRead(t *testing.T) {
	isolateAWS(t)
	dl := dynalitetest.Shared(t)
	table := diffServerTable(t, dl.Client(), diffLeftItems)
	if err := os.WriteFile(os.Getenv("AWS_CONFIG_FILE"), []byte("[profile dev]\nregion = eu-west-2\naws_access_key_id = x\naws_secret_access_key = x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_PROFILE", "dev")
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", dl.Endpoint)
	g := &globals{stderr: io.Discard, session: &dynamo.Session{}, configFile: writeConfig(t, "")}
	conn, err := g.connectExplorer(nil, table, "", nil)(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if conn.Region != "eu-west-2" || conn.Endpoint != dl.Endpoint || conn.Profile != "dev" {
		t.Errorf("the explorer's aws commands read region %q, endpoint %q, profile %q", conn.Region, conn.Endpoint, conn.Profile)
	}
	if r := conn.Reopen; r == nil || r.Region != "eu-west-2" || r.Endpoint != dl.Endpoint || r.Profile != "dev" {
		t.Errorf("the reopen command reads elsewhere: %+v", r)
	}
}
