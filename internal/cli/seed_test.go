package cli

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
)

// TestSeedRefusesExistingTables: seed writes nothing into a table that is
// already there unless --replace, which says what it deletes; a seed cut
// off half way counts only the items the server holds, and its error
// names the table.
func TestSeedRefusesExistingTables(t *testing.T) {
	isolateAWS(t)
	srv := dynalitetest.Start(t)
	seed := func(args ...string) (string, string, int) {
		return cli(t, append([]string{"seed", "--endpoint-url", srv.Endpoint, "--region", "us-east-1", "--tables", "Locations"}, args...)...)
	}
	if _, errs, code := seed(); code != 0 {
		t.Fatalf("first seed: %d %s", code, errs)
	}
	out, errs, code := seed()
	want := "seed: table Locations already exists in us-east-1 · " + srv.Endpoint + "; nothing was written — add --replace to delete and rewrite them, or seed other --tables"
	if code != exitFailure || !strings.Contains(errs, want) || out != "" {
		t.Fatalf("second seed: exit %d, stdout %q, stderr %q; want %q", code, out, errs, want)
	}
	out, errs, code = seed("--replace")
	if code != 0 || !regexp.MustCompile(`deleting table Locations \([\d,]+ items as DynamoDB last counted\) to replace it`).MatchString(out) {
		t.Fatalf("--replace: exit %d\n%s%s", code, out, errs)
	}

	// Cut off after the table and a few batches: the count is what is there.
	proxy := dynalitetest.NewFaultProxy(srv.Endpoint, 1)
	defer proxy.Close()
	proxy.FailAfter(20, dynalitetest.FaultExpired)
	out, errs, code = cli(t, "seed", "--endpoint-url", proxy.URL, "--region", "us-east-1", "--tables", "Locations", "--replace")
	if code != exitFailure || !strings.Contains(errs, "write table Locations") {
		t.Fatalf("cut off: exit %d\n%s%s", code, out, errs)
	}
	m := regexp.MustCompile(`Locations\s+(\d+) items`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no count for Locations:\n%s", out)
	}
	printed, _ := strconv.Atoi(m[1])
	held := 0
	c := srv.Client()
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String("Locations"), Select: "COUNT"})
	for p.HasMorePages() {
		page, err := p.NextPage(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		held += int(page.Count)
	}
	if printed != held || held == 0 {
		t.Fatalf("seed printed %d items for Locations; the table holds %d", printed, held)
	}
	t.Logf("cut off after %d items: %s", held, strings.TrimSpace(errs))
}
