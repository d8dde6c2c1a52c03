package cli

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/dynalitetest"
	"github.com/dynascope/dynascope/internal/dynamo/mototest"
)

var ttlFixedNow = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)

// ttlTestItems are one item of each kind under PK "p" (two live).
func ttlTestItems() []map[string]types.AttributeValue {
	secs := func(d time.Duration) string { return "#" + strconv.FormatInt(ttlFixedNow.Add(d).Unix(), 10) }
	return []map[string]types.AttributeValue{
		av("PK", "p", "SK", "live", "ExpiresAt", secs(time.Hour)),
		av("PK", "p", "SK", "live2", "ExpiresAt", secs(3*time.Hour)),
		av("PK", "p", "SK", "expired", "ExpiresAt", secs(-49*time.Hour)),
		av("PK", "p", "SK", "millis", "ExpiresAt", "#"+strconv.FormatInt(ttlFixedNow.Add(time.Hour).UnixMilli(), 10)),
		av("PK", "p", "SK", "string", "ExpiresAt", strconv.FormatInt(ttlFixedNow.Add(time.Hour).Unix(), 10)),
		av("PK", "p", "SK", "missing"),
		av("PK", "q", "SK", "other", "ExpiresAt", secs(time.Hour)),
	}
}

type ttlDoc struct {
	Attribute string
	Status    string
	Counts    map[string]int
	Examples  map[string]struct {
		Key   map[string]any
		Value any
		Means string
	}
	Sampled bool
	Stats   struct{ Requests, Items int }
}

func runTTLDoc(t *testing.T, args ...string) (ttlDoc, string) {
	t.Helper()
	out, errs := mustRun(t, args...)
	var d ttlDoc
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return d, errs
}

const wantTTLCounts = "map[expired:1 live:2 milliseconds:1 missing:1 tooOld:0 wrongType:1]"

// TestTTLIgnoresTimesOverFiveYearsBack: DynamoDB's TTL never deletes an
// item whose time is more than five years in the past; ttl counted such
// items (a 0, a 2018 value) as "expired (not yet deleted)". On dynalite
// and the embedded backend.
func TestTTLIgnoresTimesOverFiveYearsBack(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	saved := ttlNow
	ttlNow = func() time.Time { return ttlFixedNow }
	defer func() { ttlNow = saved }()
	secs := func(at time.Time) string { return "#" + strconv.FormatInt(at.Unix(), 10) }
	table, backends := bothBackends(t, []map[string]types.AttributeValue{
		av("PK", "p", "SK", "recent", "ExpiresAt", secs(ttlFixedNow.Add(-49*time.Hour))),
		av("PK", "p", "SK", "old", "ExpiresAt", secs(ttlFixedNow.AddDate(-8, 0, 0))),
		av("PK", "p", "SK", "zero", "ExpiresAt", "#0"),
	})
	for name, conn := range backends {
		d, errs := runTTLDoc(t, append([]string{"ttl", "--table", table, "--pk", "p", "--attribute", "ExpiresAt"}, conn...)...)
		if d.Counts["expired"] != 1 || d.Counts["tooOld"] != 2 {
			t.Errorf("%s: counts %v, want 1 expired and 2 tooOld", name, d.Counts)
		}
		if ex := d.Examples["tooOld"]; ex.Key["SK"] != "old" || !strings.HasPrefix(ex.Means, "never: 8y ") || !strings.Contains(ex.Means, "TTL ignores a time more than five years back") {
			t.Errorf("%s: the tooOld example %+v", name, ex)
		}
		if !strings.Contains(errs, "1 expired (not yet deleted), 2 never (over five years past)") {
			t.Errorf("%s: stderr %s", name, errs)
		}
		// ttl --help says what each kind the counts name means (tooOld
		// was missing from it).
		help, _ := mustRun(t, "ttl", "--help")
		for kind := range d.Counts {
			if !strings.Contains(help, "\n  "+kind+" ") {
				t.Errorf("ttl --help does not say what %s means:\n%s", kind, help)
			}
		}
	}
}

// TestTTLCommand: ttl and tables say a table's Time to Live on moto (where
// it is on), and ttl counts the same items the same way on moto and on
// the embedded backend (--data, where TTL is off: the counts say what
// the attribute would mean).
func TestTTLCommand(t *testing.T) {
	isolateAWS(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	saved := ttlNow
	ttlNow = func() time.Time { return ttlFixedNow }
	defer func() { ttlNow = saved }()

	mt := mototest.Shared(t)
	table := diffServerTable(t, mt.Client(), ttlTestItems())
	if _, err := mt.Client().UpdateTimeToLive(context.Background(), &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(table),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("ExpiresAt"), Enabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	moto := []string{"--endpoint-url", mt.Endpoint, "--region", "us-east-1"}

	t.Run("on moto", func(t *testing.T) {
		d, errs := runTTLDoc(t, append([]string{"ttl", "--table", table, "--pk", "p"}, moto...)...)
		if d.Attribute != "ExpiresAt" || d.Status != "ENABLED" || d.Sampled || fmtCounts(d.Counts) != wantTTLCounts {
			t.Errorf("got %+v, want ExpiresAt ENABLED %s", d, wantTTLCounts)
		}
		if ex := d.Examples["expired"]; ex.Key["SK"] != "expired" || ex.Means != "expired 2d 1h ago, not yet deleted" {
			t.Errorf("the expired example: %+v", ex)
		}
		if ex := d.Examples["milliseconds"]; !strings.HasPrefix(ex.Means, "never: milliseconds") {
			t.Errorf("the milliseconds example: %+v", ex)
		}
		if ex := d.Examples["wrongType"]; !strings.HasPrefix(ex.Means, "never: a String") {
			t.Errorf("the String example: %+v", ex)
		}
		if !strings.Contains(errs, "6 items read · 2 live, 1 expired (not yet deleted)") {
			t.Errorf("stderr: %s", errs)
		}
		d, _ = runTTLDoc(t, append([]string{"ttl", "--table", table}, moto...)...)
		if d.Counts["live"] != 3 || d.Stats.Items != 7 {
			t.Errorf("the whole table: %+v", d)
		}
	})
	t.Run("tables on moto", func(t *testing.T) {
		out, _ := mustRun(t, append([]string{"tables", "--output", "json"}, moto...)...)
		var got struct{ Tables []dynamo.TableInfo }
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		for _, ti := range got.Tables {
			if ti.Name == table && (ti.TTL == nil || *ti.TTL != (dynamo.TTLInfo{Attribute: "ExpiresAt", Status: "ENABLED"})) {
				t.Errorf("%s's ttl: %+v", table, ti.TTL)
			}
		}
		out, _ = mustRun(t, append([]string{"tables"}, moto...)...)
		if !strings.Contains(out, "  TTL  ") || !regexpLine(out, table, "ExpiresAt (ENABLED)") {
			t.Errorf("the TTL column:\n%s", out)
		}
	})
	t.Run("on the embedded backend", func(t *testing.T) {
		data := diffDataFile(t, "Sessions", ttlTestItems())
		d, errs := runTTLDoc(t, "ttl", "--data", data, "--keys", "PK:S,SK:S", "--table", "Sessions", "--pk", "p", "--attribute", "ExpiresAt")
		if d.Status != "DISABLED" || fmtCounts(d.Counts) != wantTTLCounts || !strings.HasSuffix(d.Examples["expired"].Means, "if TTL were on; it is DISABLED") {
			t.Errorf("got %+v", d)
		}
		if !strings.Contains(errs, "TTL is DISABLED on Sessions") {
			t.Errorf("stderr: %s", errs)
		}
		d, errs = runTTLDoc(t, "ttl", "--data", data, "--keys", "PK:S,SK:S", "--table", "Sessions")
		if d.Attribute != "" || d.Stats.Items != 0 || !strings.Contains(errs, "names no attribute") {
			t.Errorf("no attribute: %+v %s", d, errs)
		}
	})
	t.Run("dynalite says disabled", func(t *testing.T) {
		dl := dynalitetest.Shared(t)
		name := diffServerTable(t, dl.Client(), ttlTestItems())
		conn := []string{"--endpoint-url", dl.Endpoint, "--region", "us-east-1"}
		d, _ := runTTLDoc(t, append([]string{"ttl", "--table", name, "--pk", "p", "--attribute", "ExpiresAt"}, conn...)...)
		if d.Status != "DISABLED" || fmtCounts(d.Counts) != wantTTLCounts {
			t.Errorf("got %+v", d)
		}
		out, _ := mustRun(t, append([]string{"tables", "--output", "json"}, conn...)...)
		if !strings.Contains(out, `"ttl": {`+"\n"+`        "status": "DISABLED"`) {
			t.Errorf("tables on dynalite:\n%s", out)
		}
	})
	t.Run("a role that may not read the TTL", func(t *testing.T) {
		dl := dynalitetest.Shared(t)
		name := diffServerTable(t, dl.Client(), ttlTestItems())
		target, _ := url.Parse(dl.Endpoint)
		forward := httputil.NewSingleHostReverseProxy(target)
		proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.Header.Get("X-Amz-Target"), ".DescribeTimeToLive") {
				w.Header().Set("Content-Type", "application/x-amz-json-1.0")
				w.WriteHeader(http.StatusBadRequest)
				io.WriteString(w, `{"__type":"com.amazon.coral.service#AccessDeniedException","message":"not authorized to perform: dynamodb:DescribeTimeToLive"}`)
				return
			}
			forward.ServeHTTP(w, r)
		}))
		defer proxy.Close()
		conn := []string{"--endpoint-url", proxy.URL, "--region", "us-east-1"}
		out, errs := mustRun(t, append([]string{"tables"}, conn...)...)
		if !regexpLine(out, name, "UNKNOWN") || !strings.Contains(errs, "TTL unknown: ") {
			t.Errorf("tables:\n%s\n%s", out, errs)
		}
		d, errs := runTTLDoc(t, append([]string{"ttl", "--table", name, "--pk", "p", "--attribute", "ExpiresAt"}, conn...)...)
		if d.Status != "UNKNOWN" || fmtCounts(d.Counts) != wantTTLCounts || !strings.Contains(errs, "TTL status unknown: ") {
			t.Errorf("ttl --attribute: %+v\n%s", d, errs)
		}
		_, errs, code := cli(t, append([]string{"ttl", "--table", name}, conn...)...)
		if code != exitFailure || !strings.Contains(errs, "DescribeTimeToLive") {
			t.Errorf("ttl without --attribute: exit %d: %s", code, errs)
		}
	})
	t.Run("a budget makes a sample", func(t *testing.T) {
		d, errs := runTTLDoc(t, append([]string{"ttl", "--table", table, "--max-rcu", "1"}, moto...)...)
		if !d.Sampled || d.Stats.Items >= 7 || !strings.Contains(errs, "a sample: stopped at --max-rcu 1") {
			t.Errorf("got %+v: %s", d, errs)
		}
	})
	t.Run("bad input", func(t *testing.T) {
		checkBadInput(t, []string{"ttl", "--demo"}, exitUsage, "--table is required")
		checkBadInput(t, []string{"ttl", "--demo", "--table", "AuditLog", "--output", "csv"}, exitUsage, "--output")
		checkBadInput(t, []string{"ttl", "--demo", "--table", "AuditLog", "--max-rcu", "0"}, exitUsage, "--max-rcu")
		checkBadInput(t, []string{"ttl", "--demo", "--table", "DeviceLogs", "--pk", "abc"}, exitUsage, "--pk")
	})
}

func fmtCounts(m map[string]int) string {
	b, _ := json.Marshal(m)
	s := strings.NewReplacer(`"`, "", "{", "map[", "}", "]", ",", " ").Replace(string(b))
	return s
}

// regexpLine reports whether a line of out holds all of words.
func regexpLine(out string, words ...string) bool {
	for _, l := range strings.Split(out, "\n") {
		all := true
		for _, w := range words {
			all = all && strings.Contains(l, w)
		}
		if all {
			return true
		}
	}
	return false
}
