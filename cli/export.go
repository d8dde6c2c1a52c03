package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
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

// toOutput sends an export to stdout, or to the file output names:
// created 0600 (item data is nobody else's business), never over an
// existing file, and removed if the export fails half way. write gets the
// format and whether it writes to a terminal, and returns how many noun it
// wrote.
func toOutput(output, noun string, stdout, stderr io.Writer, write func(w io.Writer, format string, terminal bool) (int, error)) (int, error) {
	format, path, err := outputTarget(output)
	if err != nil {
		return 0, err
	}
	if path == "" {
		return write(stdout, format, isTerminal(stdout))
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return 0, usage("choose a new file name (dynascope never overwrites)", "--output: %v", err)
	}
	n, err := write(f, format, false)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return n, err
	}
	fmt.Fprintf(stderr, "wrote %d %s to %s (%s)\n", n, noun, path, format)
	return n, nil
}

// writeItems writes a query's items to stdout, or exports them to a file.
func writeItems(ctx context.Context, c dynamo.Client, q model.KeyQuery, limit int, output string, stdout, stderr io.Writer, opt *readOpts) (items, pages int, err error) {
	items, err = toOutput(output, "items", stdout, stderr, func(w io.Writer, format string, terminal bool) (n int, err error) {
		if format == "csv" {
			n, pages, err = exportCSV(ctx, c, q, limit, w, terminal, opt)
		} else {
			n, pages, err = streamItems(ctx, c, q, limit, format, w, opt)
		}
		return n, err
	})
	return items, pages, err
}

// writeRows writes rows already read (children, versions) to stdout, or
// exports them to a file, as writeItems does items.
func writeRows(rows dynamo.Rows, output string, stdout, stderr io.Writer) (int, error) {
	return toOutput(output, rows.Noun, stdout, stderr, func(w io.Writer, format string, terminal bool) (int, error) {
		return len(rows.Rows), encodeRows(w, format, rows, terminal)
	})
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
// writes the CSV with the key attributes first.
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
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return items, pages, err
	}
	sc := bufio.NewScanner(tmp)
	sc.Buffer(make([]byte, 1<<20), 8<<20) // an item is at most 400 KB
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
	return items, pages, writeCSV(w, []string{q.PKName, q.SKName}, cols, each, terminal)
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

// exportFunc is the explorer's export (e) of a query's items: the same
// writer as --output FILE.
func exportFunc(c dynamo.Client) func(ctx context.Context, q model.KeyQuery, path string, progress func(items, pages int, rcu float64)) (int, error) {
	return func(ctx context.Context, q model.KeyQuery, path string, progress func(items, pages int, rcu float64)) (int, error) {
		if err := exportPath(path); err != nil {
			return 0, err
		}
		pc := &progressClient{Client: c, fn: progress}
		n, _, err := writeItems(ctx, pc, q, 0, path, io.Discard, io.Discard, nil)
		return n, explainExport(path, err)
	}
}

// exportRows is the explorer's export (e) of what a page has loaded
// (children, versions, revisions): the same writer as their --output FILE.
func exportRows(rows dynamo.Rows, path string) (int, error) {
	if err := exportPath(path); err != nil {
		return 0, err
	}
	n, err := writeRows(rows, path, io.Discard, io.Discard)
	return n, explainExport(path, err)
}

// exportPath refuses a name that says no format.
func exportPath(path string) error {
	if _, p, err := outputTarget(path); err != nil || p == "" {
		return dynamo.Errorf("export", dynamo.KindValidation, "name a file ending .jsonl, .json or .csv", "%q is not a file to export to", path)
	}
	return nil
}

func explainExport(path string, err error) error {
	if err != nil {
		return dynamo.Explain("export to "+path, err)
	}
	return nil
}
