package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/list"
)

// With -trace, each burst's run notes when each of its Queries went out,
// when its answer's headers and last byte came, when the SDK handed it
// back decoded, when the model took it and was done with it, and when the
// keys were posted and their read's turn (list.ReadOnMsg) came: the
// medians of the steps between say where a burst's time goes. The
// bursts' Queries go one at a time, so each answer is the last Query's.

// timeline is the run's notes (nil: no -trace).
var timeline *steps

type steps struct {
	mu   sync.Mutex
	t0   time.Time
	what []string
	at   []time.Duration
}

func (s *steps) start() {
	s.mu.Lock()
	s.t0, s.what, s.at = time.Now(), nil, nil
	s.mu.Unlock()
}

func (s *steps) note(what string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.what, s.at = append(s.what, what), append(s.at, time.Since(s.t0))
	s.mu.Unlock()
}

// noteMsg notes the model taking a page or a read's turn (done: and
// being done with it).
func (s *steps) noteMsg(msg tea.Msg, done bool) {
	switch msg.(type) {
	case list.PageLoadedMsg:
		s.note(map[bool]string{false: "model", true: "model done"}[done])
	case list.ReadOnMsg:
		if !done {
			s.note("read's turn")
		}
	}
}

// phases are a run's steps in milliseconds, by name, in order.
func (s *steps) phases() (names []string, ms map[string]float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ms = map[string]float64{}
	add := func(name string, d time.Duration) {
		if _, ok := ms[name]; !ok {
			names = append(names, name)
		}
		ms[name] += float64(d.Microseconds()) / 1000
	}
	q, last := 0, map[string]time.Duration{}
	for i, w := range s.what {
		at := s.at[i]
		qn := fmt.Sprintf("Query %d: ", q)
		switch {
		case w == "read's turn" && last["keys"] > 0:
			add("the keys: posted → their read's turn (list.ReadOnMsg)", at-last["keys"])
		case strings.HasPrefix(w, "sent"):
			if q > 0 {
				add(fmt.Sprintf("Query %d: the model done with it → Query %d sent", q-1, q), at-last["model done"])
			}
			w = "sent"
		case w == "headers":
			add(qn+"sent → its answer's headers ("+s.limit(q)+")", at-last["sent"])
		case w == "body read":
			add(qn+"headers → its last byte read", at-last["headers"])
		case w == "decoded":
			add(qn+"last byte → decoded by the SDK", at-last["body read"])
		case w == "model":
			add(qn+"decoded → taken by the model (checks, billing, the message)", at-last["decoded"])
		case w == "model done":
			add(qn+"the model's update", at-last["model"])
			q++
		}
		last[w] = at
	}
	return names, ms
}

// limit is the Limit Query q was sent with.
func (s *steps) limit(q int) string {
	n := -1
	for _, w := range s.what {
		if strings.HasPrefix(w, "sent") {
			n++
		}
		if n == q && strings.HasPrefix(w, "sent ") {
			return strings.TrimPrefix(w, "sent ")
		}
	}
	return ""
}

// traceQueries notes each Query's going out and its decoded answer.
type traceQueries struct{ dynamo.Client }

func (t traceQueries) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	limit := "limit none"
	if in.Limit != nil {
		limit = fmt.Sprintf("limit %d", *in.Limit)
	}
	timeline.note("sent " + limit)
	out, err := t.Client.Query(ctx, in, o...)
	timeline.note("decoded")
	return out, err
}

// tracedClient is client(endpoint) noting when each Query's answer's
// headers come (DynamoDB has answered) and when its last byte is read.
func tracedClient(endpoint string) *dynamodb.Client {
	c := client(endpoint)
	return dynamodb.New(c.Options(), func(o *dynamodb.Options) { o.HTTPClient = traceHTTP{awshttp.NewBuildableClient()} })
}

type traceHTTP struct{ dynamodb.HTTPClient }

func (t traceHTTP) Do(r *http.Request) (*http.Response, error) {
	res, err := t.HTTPClient.Do(r)
	if err != nil || !strings.HasSuffix(r.Header.Get("X-Amz-Target"), ".Query") {
		return res, err
	}
	timeline.note("headers")
	res.Body = &tracedBody{ReadCloser: res.Body}
	return res, err
}

type tracedBody struct {
	io.ReadCloser
	read bool
}

func (b *tracedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.read {
		b.read = true
		timeline.note("body read")
	}
	return n, err
}

// tracedRuns gathers each run's phases for the medians.
type tracedRuns struct {
	names []string
	runs  map[string][]float64
}

func (r *tracedRuns) add() {
	names, ms := timeline.phases()
	if r.runs == nil {
		r.runs = map[string][]float64{}
	}
	for _, n := range names {
		if _, ok := r.runs[n]; !ok {
			r.names = append(r.names, n)
		}
		r.runs[n] = append(r.runs[n], ms[n])
	}
}

// median is the median of phase name across runs (0 when none).
func (r *tracedRuns) median(name string) float64 {
	v := append([]float64(nil), r.runs[name]...)
	if len(v) == 0 {
		return 0
	}
	sort.Float64s(v)
	return v[len(v)/2]
}

// print writes each phase's median, in the order first met.
func (r *tracedRuns) print(what string) {
	fmt.Printf("  where the time goes, %s (medians of %d runs):\n", what, len(r.runs[r.names[0]]))
	for _, n := range r.names {
		fmt.Printf("    %-70s %7.2f ms\n", n, r.median(n))
	}
}

// screenQuery is the median of the screen's Query, sent to decoded: the
// round trip a screen-first build adds before a burst past its first page.
func (r *tracedRuns) screenQuery() float64 {
	var total float64
	for _, n := range r.names {
		if strings.HasPrefix(n, "Query 0: ") && !strings.Contains(n, "model") {
			total += r.median(n)
		}
	}
	return total
}
