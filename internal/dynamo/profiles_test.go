package dynamo_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/dynascope/dynascope/internal/dynamo"
)

func TestProfiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config")
	t.Setenv("AWS_CONFIG_FILE", path)
	if ps, err := dynamo.Profiles(); err != nil || ps != nil {
		t.Errorf("no file: %v %v", ps, err)
	}
	conf := `[default]
region = us-east-1

[profile prod]
sso_start_url = https://example.awsapps.com/start
region=eu-west-1
  # a comment
[sso-session corp]
region = us-west-2
[profile staging]
output = json
`
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	ps, err := dynamo.Profiles()
	if got := fmt.Sprint(ps); err != nil || got != "[{default us-east-1} {prod eu-west-1} {staging }]" {
		t.Errorf("got %s, %v", got, err)
	}
}
