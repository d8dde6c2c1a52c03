package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dynascope/dynascope/internal/dynamo/demo"
)

// Values typed on the command line against masked attributes are as
// secret as the attributes' values: no headless surface (stdout in every
// format, stderr, errors, --debug-log) prints them, nor the masked key.
func TestTypedValuesNeverLeakPastTheMask(t *testing.T) {
	isolateAWS(t)
	const typed = "typed-secret-42"
	planted := []string{demo.LongHistoryPiece, typed}
	dir := t.TempDir()
	for _, args := range [][]string{
		{"items", "--table", "Equipment", "--pk", demo.LongHistoryPiece, "--mask", "PK,SK", "--filter", `SK = "` + typed + `"`},
		{"items", "--table", "Equipment", "--pk", demo.LongHistoryPiece, "--mask", "PK,SK", "--filter", `SK <> "` + typed + `"`, "--output", "json"},
		{"items", "--table", "Equipment", "--pk", demo.LongHistoryPiece, "--mask", "PK,SK", "--filter", `begins_with(SK, "` + typed + `")`, "--output", "csv"},
		{"versions", "--table", "Equipment", "--pk", demo.LongHistoryPiece, "--item", typed, "--mask", "PK,SK"},
		{"versions", "--table", "Equipment", "--pk", demo.LongHistoryPiece, "--item", "Nope", "--mask", "PK,SK"},
	} {
		logPath := filepath.Join(dir, "debug.log")
		_ = os.Remove(logPath)
		out, stderr, _ := cli(t, append([]string{"--demo", "--debug-log", logPath}, args...)...)
		logText, _ := os.ReadFile(logPath)
		for _, v := range planted {
			for where, text := range map[string]string{"stdout": out, "stderr": stderr, "--debug-log": string(logText)} {
				if strings.Contains(text, v) {
					t.Errorf("%v: %s shows %q:\n%s", args, where, v, text)
				}
			}
		}
	}
}
