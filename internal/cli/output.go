package cli

import (
	"context"
	"errors"
	"io"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/export"
)

// csvNull is what --output's help says of CSV's cells: NULL and an
// absent value are two cells, as they are two in JSON (export.CSVNull).
const csvNull = "; csv writes NULL as \\N, an empty string as \"\" and a value absent as an empty cell (a text \\N as \\\\N)"

// outputErr names --output in a target the export package refuses: on the
// command line that is a malformed flag (exit 2).
func outputErr(err error) error {
	var te *export.TargetError
	switch {
	case !errors.As(err, &te):
		return err
	case te.Err != nil:
		return usage(te.Hint, "--output: %v", te.Err)
	}
	return usage("use --output jsonl, json or csv, or a file ending .jsonl, .json or .csv", "--output %q is not a format or a file to export to", te.Target)
}

// writeItems writes a query's items to stdout, or exports them to a file.
func writeItems(ctx context.Context, c dynamo.Client, q domain.KeyQuery, limit int, output string, stdout, stderr io.Writer, opt *readOpts) (items, pages int, err error) {
	eo := export.Options{Budget: &opt.Budget, Start: opt.Start, Show: opt.Masked.Shower(q.Table), Each: opt.Each}
	if opt.Sift != nil {
		eo.Sift = opt.Sift
	}
	defer func() {
		if err == nil {
			noteUnseen(stderr, opt.Masked, q.Table, q.Filter != nil)
		}
	}()
	items, err = export.To(output, "items", stdout, stderr, func(w io.Writer, format string, terminal bool) (n int, err error) {
		n, pages, err = export.Items(ctx, c, q, limit, format, w, terminal, eo)
		return n, err
	})
	return items, pages, outputErr(err)
}

// writeRows writes rows already read (children, versions) to stdout, or
// exports them to a file, as writeItems does items.
func writeRows(rows dynamo.Rows, output string, stdout, stderr io.Writer) (int, error) {
	n, err := export.To(output, rows.Noun, stdout, stderr, func(w io.Writer, format string, terminal bool) (int, error) {
		return len(rows.Rows), export.Rows(w, format, rows, terminal)
	})
	return n, outputErr(err)
}
