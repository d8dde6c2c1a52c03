package dynalitetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Fault is one kind of failure the proxy injects.
type Fault string

const (
	FaultPTEE         Fault = "ProvisionedThroughputExceededException"
	FaultThrottling   Fault = "ThrottlingException"
	FaultRequestLimit Fault = "RequestLimitExceeded"
	FaultHTTP500      Fault = "HTTP 500"
	FaultHTTP503      Fault = "HTTP 503"
	FaultSlow         Fault = "slow response"
	FaultReset        Fault = "connection reset"
	FaultTruncated    Fault = "truncated body"
	FaultExpired      Fault = "ExpiredTokenException"
	// FaultHuge answers with a body of SetHugeBytes's size (no Content-Length, sent
	// as it is made): no DynamoDB page is that big.
	FaultHuge Fault = "huge"
	// FaultRepeatCursor answers a read as if it were the first page, with
	// the same cursor every time (the first answer's last item, table
	// name or shard; for GetRecords, the iterator it was sent): a cursor
	// that never advances, on the table and the Streams API alike.
	FaultRepeatCursor Fault = "repeat-cursor"
	// FaultBadCRC changes one byte of the body and keeps the server's
	// X-Amz-Crc32, as a body damaged in transit.
	FaultBadCRC Fault = "bad-crc"
	// FaultRewrite hands a successful answer to the proxy's Rewrite and
	// sends what it returns, with a matching X-Amz-Crc32: values a
	// server should never send (an unknown type, an empty number, an
	// item of another partition), written by the test.
	FaultRewrite Fault = "rewrite"
	// FaultLostAnswer lets the server apply the request, then hangs up
	// without its answer: the client sends it again, to a server that
	// has already done it (a CreateTable retried meets its own table).
	FaultLostAnswer Fault = "lost answer"
)

// allFaults is the order in which a request's fault is drawn.
var allFaults = []Fault{FaultPTEE, FaultThrottling, FaultRequestLimit, FaultHTTP500, FaultHTTP503, FaultSlow, FaultReset,
	FaultTruncated, FaultExpired, FaultHuge, FaultRepeatCursor, FaultBadCRC, FaultRewrite, FaultLostAnswer}

// errorTypes are the __type DynamoDB puts in each error body.
var errorTypes = map[Fault]string{
	FaultPTEE:         "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
	FaultThrottling:   "com.amazon.coral.availability#ThrottlingException",
	FaultRequestLimit: "com.amazonaws.dynamodb.v20120810#RequestLimitExceeded",
	FaultHTTP500:      "com.amazonaws.dynamodb.v20120810#InternalServerError",
	FaultHTTP503:      "com.amazon.coral.availability#ServiceUnavailableException",
	FaultExpired:      "com.amazon.coral.service#ExpiredTokenException",
}

// FaultProxy stands in front of a DynamoDB endpoint and fails requests at
// set rates, deterministically (seeded). It records every operation it
// sees, so a test can also prove a flow only reads.
type FaultProxy struct {
	URL  string
	Slow time.Duration // how long a slow response waits (default 300 ms)
	// hugeBytes is the size of a huge answer (default 64 MB; SetHugeBytes).
	hugeBytes int64
	// Rewrite is FaultRewrite's change to an answer of op (GetItem,
	// Query…): the answer's JSON decoded, to change in place.
	Rewrite func(op string, answer map[string]any)
	srv     *httptest.Server
	mu      sync.Mutex
	rates   map[Fault]float64
	rng     *rand.Rand
	seen    map[Fault]int
	ops     map[string]int
	// after, when failing is set, is how many more requests pass before
	// every request fails with failing.
	after   int
	failing Fault
	// next requests fail with nextFault, before any other rule.
	next      int
	nextFault Fault
	cursor    map[string]json.RawMessage // each operation's one cursor under FaultRepeatCursor
	only      map[string]bool            // operations faults are injected into (none: all)
}

// OnlyOn injects faults into these operations only (GetRecords,
// DescribeStream, ListTables…), until Clear: the others pass untouched.
func (p *FaultProxy) OnlyOn(ops ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.only = map[string]bool{}
	for _, op := range ops {
		p.only[op] = true
	}
}

// FailAfter lets n more requests through, then fails every request with f
// until Clear.
func (p *FaultProxy) FailAfter(n int, f Fault) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.after, p.failing = n, f
}

// FailNext fails the next n requests with f, then lets them through: a
// storm that ends.
func (p *FaultProxy) FailNext(n int, f Fault) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.next, p.nextFault = n, f
}

// NewFaultProxy starts a proxy to target (a server's endpoint URL).
func NewFaultProxy(target string, seed uint64) *FaultProxy {
	p := &FaultProxy{Slow: 300 * time.Millisecond, hugeBytes: 64 << 20, rates: map[Fault]float64{}, rng: rand.New(rand.NewPCG(seed, 1)),
		seen: map[Fault]int{}, ops: map[string]int{}, cursor: map[string]json.RawMessage{}}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { p.serve(w, r, target) }))
	p.URL = p.srv.URL
	return p
}

// Close stops the proxy.
func (p *FaultProxy) Close() { p.srv.Close() }

// SetHugeBytes sets the size of FaultHuge's answer; a huge answer still
// being sent to a client that hung up keeps the size it began with.
func (p *FaultProxy) SetHugeBytes(n int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hugeBytes = n
}

// Set sets the rate (0 to 1) at which a fault is injected.
func (p *FaultProxy) Set(f Fault, rate float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rates[f] = rate
}

// Clear stops injecting faults.
func (p *FaultProxy) Clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rates = map[Fault]float64{}
	p.failing = ""
	p.next = 0
	p.only = nil
	p.cursor = map[string]json.RawMessage{}
}

// Injected returns how many times each fault was injected.
func (p *FaultProxy) Injected() map[Fault]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[Fault]int{}
	for k, v := range p.seen {
		out[k] = v
	}
	return out
}

// Operations returns how many requests of each operation (GetItem, Query…)
// reached the proxy, failed or not.
func (p *FaultProxy) Operations() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[string]int{}
	for k, v := range p.ops {
		out[k] = v
	}
	return out
}

// pick draws at most one fault for a request.
func (p *FaultProxy) pick(op string) (Fault, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ops[op]++
	if len(p.only) > 0 && !p.only[op] {
		return "", false
	}
	if p.next > 0 {
		p.next--
		p.seen[p.nextFault]++
		return p.nextFault, true
	}
	if p.failing != "" {
		if p.after <= 0 {
			p.seen[p.failing]++
			return p.failing, true
		}
		p.after--
	}
	x := p.rng.Float64()
	for _, f := range allFaults {
		if x < p.rates[f] {
			p.seen[f]++
			return f, true
		}
		x -= p.rates[f]
	}
	return "", false
}

func (p *FaultProxy) serve(w http.ResponseWriter, r *http.Request, target string) {
	op := r.Header.Get("X-Amz-Target")
	if i := strings.LastIndexByte(op, '.'); i >= 0 {
		op = op[i+1:]
	}
	fault, _ := p.pick(op)
	body, _ := io.ReadAll(r.Body)
	if p.answerInstead(w, r, fault) {
		return
	}
	sent := body
	if fault == FaultRepeatCursor {
		body = withoutStartKey(body)
	}
	resp, out, err := forward(r, target, body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	switch {
	case fault == FaultRepeatCursor && resp.StatusCode == http.StatusOK:
		out = p.repeatCursor(op, sent, out)
		resp.Header.Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE(out)), 10))
		resp.Header.Del("Content-Length")
	case fault == FaultBadCRC && len(out) > 0:
		out = damaged(out)
	case fault == FaultRewrite && resp.StatusCode == http.StatusOK && p.Rewrite != nil:
		var answer map[string]any
		if json.Unmarshal(out, &answer) == nil {
			p.Rewrite(op, answer)
			out, _ = json.Marshal(answer)
			resp.Header.Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE(out)), 10))
			resp.Header.Del("Content-Length")
		}
	}
	if fault == FaultLostAnswer && hangUp(w) {
		return
	}
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	if fault == FaultTruncated && len(out) > 1 && truncate(w, resp, out) {
		return
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(out)
}

// answerInstead answers a request whose fault needs no server (an error,
// a reset, a huge body) and reports whether it did; a slow one waits
// first, then goes on to the server.
func (p *FaultProxy) answerInstead(w http.ResponseWriter, r *http.Request, fault Fault) bool {
	switch fault {
	case "", FaultRepeatCursor, FaultTruncated, FaultBadCRC, FaultRewrite, FaultLostAnswer:
		return false
	case FaultReset:
		return hangUp(w)
	case FaultSlow:
		select {
		case <-time.After(p.Slow):
			return false
		case <-r.Context().Done():
			return true
		}
	case FaultHuge:
		p.huge(w)
		return true
	}
	status := http.StatusBadRequest
	switch fault {
	case FaultHTTP500:
		status = http.StatusInternalServerError
	case FaultHTTP503:
		status = http.StatusServiceUnavailable
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"__type":%q,"message":"injected by the test proxy"}`, errorTypes[fault])
	return true
}

// forward sends the request on to the server and reads its whole answer.
func forward(r *http.Request, target string, body []byte) (*http.Response, []byte, error) {
	req, err := http.NewRequestWithContext(r.Context(), r.Method, target+r.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.Header = r.Header.Clone()
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp, out, nil
}

// damaged flips the case of the body's last letter: the JSON still
// parses, the text is not what the server sent.
func damaged(out []byte) []byte {
	out = bytes.Clone(out)
	for i := len(out) - 1; i >= 0; i-- {
		if c := out[i]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			out[i] ^= 0x20
			break
		}
	}
	return out
}

// hangUp closes the connection with no answer at all; false when the
// connection cannot be taken over.
func hangUp(w http.ResponseWriter) bool {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			_ = conn.Close()
			return true
		}
	}
	return false
}

// truncate promises the whole body, sends half and hangs up; false when
// the connection cannot be taken over.
func truncate(w http.ResponseWriter, resp *http.Response, out []byte) bool {
	hj, ok := w.(http.Hijacker)
	if !ok {
		return false
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		return false
	}
	fmt.Fprintf(buf, "HTTP/1.1 %d %s\r\n", resp.StatusCode, http.StatusText(resp.StatusCode))
	for k, vs := range resp.Header {
		if k != "Content-Length" {
			for _, v := range vs {
				fmt.Fprintf(buf, "%s: %s\r\n", k, v)
			}
		}
	}
	fmt.Fprintf(buf, "Content-Length: %d\r\n\r\n", len(out))
	_, _ = buf.Write(out[:len(out)/2])
	_ = buf.Flush()
	_ = conn.Close()
	return true
}

// huge streams a body of hugeBytes that starts as a Query answer would,
// without a Content-Length, never holding more than a chunk.
func (p *FaultProxy) huge(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.WriteHeader(http.StatusOK)
	item := []byte(`{"PK":{"S":"` + strings.Repeat("x", 1000) + `"}},`)
	chunk := bytes.Repeat(item, 64)
	p.mu.Lock()
	size := p.hugeBytes
	p.mu.Unlock()
	_, _ = io.WriteString(w, `{"Count":1,"Items":[`)
	for sent := int64(0); sent < size; sent += int64(len(chunk)) {
		if _, err := w.Write(chunk); err != nil {
			return // the client hung up, as it should
		}
	}
	_, _ = io.WriteString(w, `{"PK":{"S":"x"}}],"ScannedCount":1}`)
}

// startKeys are where each read says to go on from, in its request.
var startKeys = []string{"ExclusiveStartKey", "ExclusiveStartTableName", "ExclusiveStartShardId"}

// withoutStartKey is a request body read from its first page again.
func withoutStartKey(body []byte) []byte {
	var in map[string]json.RawMessage
	if json.Unmarshal(body, &in) != nil {
		return body
	}
	for _, k := range startKeys {
		delete(in, k)
	}
	out, _ := json.Marshal(in)
	return out
}

// repeatCursor makes an answer's cursor one that never moves on: a Query
// or Scan's LastEvaluatedKey and ListTables' LastEvaluatedTableName the
// first answer's last item or name, DescribeStream's
// LastEvaluatedShardId its first answer's last shard, and GetRecords'
// NextShardIterator the iterator it was sent.
func (p *FaultProxy) repeatCursor(op string, sent, body []byte) []byte {
	var out map[string]json.RawMessage
	if json.Unmarshal(body, &out) != nil {
		return body
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch op {
	case "GetRecords":
		var in map[string]json.RawMessage
		_ = json.Unmarshal(sent, &in)
		out["NextShardIterator"] = in["ShardIterator"]
	case "DescribeStream":
		var d map[string]json.RawMessage
		_ = json.Unmarshal(out["StreamDescription"], &d)
		if d == nil || !p.firstCursor(op, d["Shards"], "ShardId") {
			return body
		}
		d["LastEvaluatedShardId"] = p.cursor[op]
		out["StreamDescription"], _ = json.Marshal(d)
	case "ListTables":
		if !p.firstCursor(op, out["TableNames"], "") {
			return body
		}
		out["LastEvaluatedTableName"] = p.cursor[op]
	default:
		if !p.firstCursor(op, out["Items"], "") {
			return body
		}
		out["LastEvaluatedKey"] = p.cursor[op]
	}
	b, _ := json.Marshal(out)
	return b
}

// firstCursor keeps op's one cursor, from the first answer's list: its
// last element (or that element's field); false while none is known.
func (p *FaultProxy) firstCursor(op string, list json.RawMessage, field string) bool {
	if p.cursor[op] != nil {
		return true
	}
	var elems []json.RawMessage
	_ = json.Unmarshal(list, &elems)
	if len(elems) == 0 {
		return false
	}
	last := elems[len(elems)-1]
	if field != "" {
		var m map[string]json.RawMessage
		_ = json.Unmarshal(last, &m)
		last = m[field]
	}
	p.cursor[op] = last
	return last != nil
}
