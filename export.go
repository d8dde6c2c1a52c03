package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynascope/dynascope/dynamo"
	"github.com/dynascope/dynascope/model"
)

// outputFormats are what --output takes besides a file name.
var outputFormats = []string{"jsonl", "json", "csv"}

// outputTarget reads --output: a format written to stdout, or a file whose
// extension (.jsonl, .json, .csv) names the format.
func outputTarget(output string) (format, path string, err error) {
	for _, f := range outputFormats {
		if output == f {
			return f, "", nil
		}
	}
	switch ext := strings.ToLower(filepath.Ext(output)); ext {
	case ".jsonl", ".json", ".csv":
		return ext[1:], output, nil
	}
	return "", "", usage("use --output jsonl, json or csv, or a file ending .jsonl, .json or .csv", "--output %q is not a format or a file to export to", output)
}

// writeItems writes a query's items to stdout, or exports them to a file
// (created 0600: item data is nobody else's business; removed if the
// export fails half way).
func writeItems(ctx context.Context, c dynamo.Client, q model.KeyQuery, limit int, output string, stdout, stderr io.Writer, opt *readOpts) (items, pages int, err error) {
	format, path, err := outputTarget(output)
	if err != nil {
		return 0, 0, err
	}
	w := stdout
	var f *os.File
	if path != "" {
		f, err = os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return 0, 0, usage("choose a new file name (dynascope never overwrites)", "--output: %v", err)
		}
		w = f
	}
	if format == "csv" {
		items, pages, err = exportCSV(ctx, c, q, limit, w, path == "" && isTerminal(stdout), opt)
	} else {
		items, pages, err = streamItems(ctx, c, q, limit, format, w, opt)
	}
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(path)
			return items, pages, err
		}
		fmt.Fprintf(stderr, "wrote %d items to %s (%s)\n", items, path, format)
	}
	return items, pages, err
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// exportCSV reads the items once into a temporary file (the columns are
// the union of every item's attributes, known only at the end), then
// writes the CSV: key attributes first, the rest in name order, nested
// values and sets as JSON, NULL as an empty cell. On a terminal, control
// characters are shown escaped.
func exportCSV(ctx context.Context, c dynamo.Client, q model.KeyQuery, limit int, w io.Writer, terminal bool, opt *readOpts) (items, pages int, err error) {
	tmp, err := os.CreateTemp("", "dynascope-export-*.jsonl")
	if err != nil {
		return 0, 0, err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	buf := bufio.NewWriter(tmp)
	enc := json.NewEncoder(buf)
	cols := map[string]bool{}
	var start dynamo.Item
	for {
		req := dynamo.PageRequest{Query: q, Start: start}
		if limit > 0 && q.Filter == nil {
			req.Limit = int32(limit - items)
		}
		page, err := dynamo.QueryPage(ctx, c, req)
		pages++
		if err != nil {
			return items, pages, err
		}
		if limit > 0 && len(page.Items) > limit-items {
			page.Items = page.Items[:limit-items]
		}
		for _, it := range page.Items {
			for name := range it {
				cols[name] = true
			}
			if err := enc.Encode(dynamo.PlainItem(it)); err != nil {
				return items, pages, err
			}
			items++
		}
		spent := opt.spent(page) // counts the page, always
		if !page.More() || (limit > 0 && items >= limit) || spent {
			break
		}
		start = page.LastKey
	}
	if err := buf.Flush(); err != nil {
		return items, pages, err
	}
	header := []string{}
	for _, k := range []string{q.PKName, q.SKName} {
		if k != "" && cols[k] {
			header = append(header, k)
			delete(cols, k)
		}
	}
	rest := make([]string, 0, len(cols))
	for k := range cols {
		rest = append(rest, k)
	}
	sort.Strings(rest)
	header = append(header, rest...)

	out := csv.NewWriter(w)
	clean := func(s string) string { return s }
	if terminal {
		clean = func(s string) string { return strings.Trim(string(escapeTerminalControls(mustJSON(s))), `"`) }
	}
	row := make([]string, len(header))
	for i, h := range header {
		row[i] = clean(h)
	}
	if err := out.Write(row); err != nil {
		return items, pages, err
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return items, pages, err
	}
	sc := bufio.NewScanner(tmp)
	sc.Buffer(make([]byte, 1<<20), 8<<20) // an item is at most 400 KB
	for sc.Scan() {
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.UseNumber()
		var it map[string]any
		if err := dec.Decode(&it); err != nil {
			return items, pages, err
		}
		for i, h := range header {
			row[i] = clean(csvCell(it[h]))
		}
		if err := out.Write(row); err != nil {
			return items, pages, err
		}
	}
	if err := sc.Err(); err != nil {
		return items, pages, err
	}
	out.Flush()
	return items, pages, out.Error()
}

// csvCell is one value in a CSV cell: text as it is, numbers exactly,
// everything nested as compact JSON, NULL or absent as empty.
func csvCell(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		if x {
			return "true"
		}
		return "false"
	}
	return string(mustJSON(v))
}

func mustJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// progressClient tells fn after each Query page how far an export is.
type progressClient struct {
	dynamo.Client
	items, pages int
	rcu          float64
	fn           func(items, pages int, rcu float64)
}

func (p *progressClient) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	out, err := p.Client.Query(ctx, in, o...)
	if err == nil && out != nil {
		p.items += int(out.Count)
		p.pages++
		if out.ConsumedCapacity != nil && out.ConsumedCapacity.CapacityUnits != nil {
			p.rcu += *out.ConsumedCapacity.CapacityUnits
		}
		if p.fn != nil {
			p.fn(p.items, p.pages, p.rcu)
		}
	}
	return out, err
}

// exportFunc is the explorer's export (e): the same writer as --output FILE.
func exportFunc(c dynamo.Client) func(ctx context.Context, q model.KeyQuery, path string, progress func(items, pages int, rcu float64)) (int, error) {
	return func(ctx context.Context, q model.KeyQuery, path string, progress func(items, pages int, rcu float64)) (int, error) {
		if _, p, err := outputTarget(path); err != nil || p == "" {
			return 0, dynamo.Errorf("export", dynamo.KindValidation, "name a file ending .jsonl, .json or .csv", "%q is not a file to export to", path)
		}
		pc := &progressClient{Client: c, fn: progress}
		n, _, err := writeItems(ctx, pc, q, 0, path, io.Discard, io.Discard, nil)
		if err != nil {
			return n, dynamo.Explain("export to "+path, err)
		}
		return n, nil
	}
}
