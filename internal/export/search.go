package export

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/dynascope/dynascope/internal/dynamo"
)

// SearchStats are what a search read and what it cost: `scan` and
// `partiql` print them, and --output json carries them as "stats".
type SearchStats struct {
	// Requests counts the Scan and Query calls DynamoDB answered, each
	// billed: not the table's description (billed nothing), nor a read
	// that failed or an attempt retried.
	Requests    int     `json:"requests"`
	ConsumedRCU float64 `json:"consumedRCU"` // as the server reported
	BilledRCU   float64 `json:"billedRCU"`   // as DynamoDB bills it
	Scanned     int     `json:"scanned"`
	Matched     int     `json:"matched"`
	Stopped     bool    `json:"stopped"`          // at the budget, with more to read
	Resume      string  `json:"resume,omitempty"` // the token that goes on, when stopped (or a read failed)
	// LeastRCU, when stopped, is what the next read needs at the least:
	// one item of the largest size read (dynamo.SearchState.LeastRCU).
	LeastRCU float64 `json:"-"`
	// Estimated: some read's BilledRCU was more than the server reported.
	Estimated bool `json:"-"`
}

func (s *SearchStats) add(step dynamo.SearchStep) {
	s.Requests += step.Answered
	s.ConsumedRCU += step.Cost.RCU
	s.BilledRCU += step.Cost.Billed
	s.Estimated = s.Estimated || step.Cost.Estimated
	s.Scanned += step.Scanned
	s.Matched += len(step.Items)
}

// SearchOptions shape what Search writes.
type SearchOptions struct {
	Options
	// Token is the resume token of a search stopped in state s.
	Token func(s dynamo.SearchState) string
	// First lists these columns first in CSV (the keys).
	First []string
	// Step, when not nil, is told the figures so far after each step.
	Step func(SearchStats)
}

// Search reads s step by step to its end or its budget and writes the
// matches as they come: JSON lines, CSV (spooled: its columns are known
// at the end), or one JSON document {"items": […], "stats": {…}}.
func Search(ctx context.Context, c dynamo.Client, s dynamo.SearchState, format string, w io.Writer, terminal bool, opt SearchOptions) (SearchStats, error) {
	switch format {
	case "csv":
		return searchCSV(ctx, c, s, w, terminal, opt)
	case "json":
		return searchDoc(ctx, c, s, w, opt)
	}
	out := NewJSONRows(w, format)
	stats, err := eachMatch(ctx, c, s, opt, func(it dynamo.Item) error { return out.Write(opt.Plain(it)) }, out.Flush)
	if err != nil {
		out.Flush()
		return stats, err
	}
	return stats, out.Close()
}

// eachMatch reads s to its end or budget, calling item for each match and
// step after each step.
func eachMatch(ctx context.Context, c dynamo.Client, s dynamo.SearchState, opt SearchOptions, item func(dynamo.Item) error, step func() error) (SearchStats, error) {
	var stats SearchStats
	for s.More() {
		st, err := dynamo.ReadSearch(ctx, c, s)
		stats.add(st)
		for _, it := range st.Items {
			if err := item(it); err != nil {
				return stats, err
			}
		}
		s = st.Next
		if err != nil {
			if opt.Token != nil && stats.Requests > 0 && !dynamo.Refused(err) {
				// What answered is written: go on from there. A read
				// refused is refused again, resumed: no token for it.
				stats.Resume = opt.Token(s)
			}
			return stats, err
		}
		if err := step(); err != nil {
			return stats, err
		}
		if opt.Step != nil {
			opt.Step(stats)
		}
		if st.Stopped {
			stats.Stopped = true
			stats.LeastRCU = s.LeastRCU()
			if opt.Token != nil {
				stats.Resume = opt.Token(s)
			}
			break
		}
	}
	return stats, nil
}

// searchDoc writes {"items": […], "stats": {…}}, the items as they come.
func searchDoc(ctx context.Context, c dynamo.Client, s dynamo.SearchState, w io.Writer, opt SearchOptions) (SearchStats, error) {
	out := bufio.NewWriterSize(w, 64<<10)
	out.WriteString(`{"items": [`)
	n := 0
	stats, err := eachMatch(ctx, c, s, opt, func(it dynamo.Item) error {
		if n > 0 {
			out.WriteByte(',')
		}
		n++
		out.WriteString("\n  ")
		_, err := out.Write(EscapeJSON(compactJSON(opt.Plain(it))))
		return err
	}, out.Flush)
	if err != nil {
		out.Flush()
		return stats, err
	}
	b, _ := json.Marshal(stats)
	fmt.Fprintf(out, "\n], \"stats\": %s}\n", EscapeJSON(b))
	if err := out.Flush(); err != nil {
		return stats, fmt.Errorf("writing: %w", err)
	}
	return stats, nil
}

// searchCSV spools the matches, then writes them with the union of their
// attributes as columns, opt.First first.
func searchCSV(ctx context.Context, c dynamo.Client, s dynamo.SearchState, w io.Writer, terminal bool, opt SearchOptions) (SearchStats, error) {
	tmp, done, err := createSpool(spoolDir(w))
	if err != nil {
		return SearchStats{}, err
	}
	defer done()
	buf := bufio.NewWriter(tmp)
	enc := json.NewEncoder(buf)
	cols := map[string]bool{}
	stats, err := eachMatch(ctx, c, s, opt, func(it dynamo.Item) error {
		for name := range it {
			cols[name] = true
		}
		return enc.Encode(opt.Plain(it))
	}, func() error { return nil })
	if err != nil {
		return stats, err
	}
	if err := buf.Flush(); err != nil {
		return stats, err
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return stats, err
	}
	sc := bufio.NewScanner(tmp)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	each := func(row func(map[string]any) error) error {
		for sc.Scan() {
			it, err := decodePlain(sc.Bytes())
			if err != nil {
				return err
			}
			if err := row(it); err != nil {
				return err
			}
		}
		return sc.Err()
	}
	return stats, WriteCSV(w, opt.First, cols, each, terminal)
}
