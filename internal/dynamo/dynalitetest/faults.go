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
	// FaultHuge answers with a body of HugeBytes (no Content-Length, sent
	// as it is made): no DynamoDB page is that big.
	FaultHuge Fault = "huge"
	// FaultRepeatCursor answers a read as if it were the first page, with
	// the same LastEvaluatedKey every time (the first answer's last item):
	// a cursor that never advances.
	FaultRepeatCursor Fault = "repeat-cursor"
	// FaultBadCRC changes one byte of the body and keeps the server's
	// X-Amz-Crc32, as a body damaged in transit.
	FaultBadCRC Fault = "bad-crc"
)

// allFaults is the order in which a request's fault is drawn.
var allFaults = []Fault{FaultPTEE, FaultThrottling, FaultRequestLimit, FaultHTTP500, FaultHTTP503, FaultSlow, FaultReset,
	FaultTruncated, FaultExpired, FaultHuge, FaultRepeatCursor, FaultBadCRC}

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
	// HugeBytes is the size of a huge answer (default 64 MB).
	HugeBytes int64
	srv       *httptest.Server
	mu        sync.Mutex
	rates     map[Fault]float64
	rng       *rand.Rand
	seen      map[Fault]int
	ops       map[string]int
	// after, when failing is set, is how many more requests pass before
	// every request fails with failing.
	after   int
	failing Fault
	// next requests fail with nextFault, before any other rule.
	next      int
	nextFault Fault
	cursor    json.RawMessage // the one LastEvaluatedKey of FaultRepeatCursor
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
	p := &FaultProxy{Slow: 300 * time.Millisecond, HugeBytes: 64 << 20, rates: map[Fault]float64{}, rng: rand.New(rand.NewPCG(seed, 1)),
		seen: map[Fault]int{}, ops: map[string]int{}}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { p.serve(w, r, target) }))
	p.URL = p.srv.URL
	return p
}

// Close stops the proxy.
func (p *FaultProxy) Close() { p.srv.Close() }

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
	fault, ok := p.pick(op)
	body, _ := io.ReadAll(r.Body)
	if ok {
		switch fault {
		case FaultReset:
			if hj, ok := w.(http.Hijacker); ok {
				if conn, _, err := hj.Hijack(); err == nil {
					_ = conn.Close() // no answer at all
					return
				}
			}
		case FaultSlow:
			select {
			case <-time.After(p.Slow):
			case <-r.Context().Done():
				return
			}
		case FaultHuge:
			p.huge(w)
			return
		case FaultRepeatCursor:
			body = withoutStartKey(body)
		case FaultTruncated, FaultBadCRC:
		default:
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
			return
		}
	}
	req, err := http.NewRequestWithContext(r.Context(), r.Method, target+r.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	req.Header = r.Header.Clone()
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	switch {
	case fault == FaultRepeatCursor && resp.StatusCode == http.StatusOK:
		out = p.repeatCursor(out)
		resp.Header.Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE(out)), 10))
		resp.Header.Del("Content-Length")
	case fault == FaultBadCRC && len(out) > 0:
		// Flip the case of the last letter: the JSON still parses, the
		// text is not what the server sent.
		out = bytes.Clone(out)
		for i := len(out) - 1; i >= 0; i-- {
			if c := out[i]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
				out[i] ^= 0x20
				break
			}
		}
	}
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	if fault == FaultTruncated && len(out) > 1 {
		// Promise the whole body, send half, hang up.
		if hj, ok := w.(http.Hijacker); ok {
			if conn, buf, err := hj.Hijack(); err == nil {
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
				return
			}
		}
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(out)
}

// huge streams a body of HugeBytes that starts as a Query answer would,
// without a Content-Length, never holding more than a chunk.
func (p *FaultProxy) huge(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.WriteHeader(http.StatusOK)
	item := []byte(`{"PK":{"S":"` + strings.Repeat("x", 1000) + `"}},`)
	chunk := bytes.Repeat(item, 64)
	_, _ = io.WriteString(w, `{"Count":1,"Items":[`)
	for sent := int64(0); sent < p.HugeBytes; sent += int64(len(chunk)) {
		if _, err := w.Write(chunk); err != nil {
			return // the client hung up, as it should
		}
	}
	_, _ = io.WriteString(w, `{"PK":{"S":"x"}}],"ScannedCount":1}`)
}

// withoutStartKey is a request body read from its first page again.
func withoutStartKey(body []byte) []byte {
	var in map[string]json.RawMessage
	if json.Unmarshal(body, &in) != nil {
		return body
	}
	delete(in, "ExclusiveStartKey")
	out, _ := json.Marshal(in)
	return out
}

// repeatCursor sets an answer's LastEvaluatedKey to the one the first
// answer was given (its last item), so reading on asks for it again.
func (p *FaultProxy) repeatCursor(body []byte) []byte {
	var out map[string]json.RawMessage
	if json.Unmarshal(body, &out) != nil {
		return body
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cursor == nil {
		var items []json.RawMessage
		_ = json.Unmarshal(out["Items"], &items)
		if len(items) == 0 {
			return body
		}
		p.cursor = items[len(items)-1]
	}
	out["LastEvaluatedKey"] = p.cursor
	b, _ := json.Marshal(out)
	return b
}
