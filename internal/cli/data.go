package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/spf13/pflag"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/dynamo/dataload"
	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/export"
	"github.com/dynascope/dynascope/internal/files"
)

// dataFlags open data without a server: --data and what it needs.
type dataFlags struct {
	paths   []string
	keys    string
	schemas []string
	skipBad bool
	max     string // --data-max, as given ("": the default)
}

func (d *dataFlags) register(pf *pflag.FlagSet) {
	pf.StringArrayVar(&d.paths, "data", nil, "open data at `PATH` without a server: a DynamoDB export (folder or .json.gz), a NoSQL Workbench\nmodel, or aws dynamodb scan --output json output (repeatable)")
	pf.StringVar(&d.keys, "keys", "", "--data: the key schema `NAME:TYPE[,NAME:TYPE]` of tables that have none of their own, e.g. PK:S,SK:N")
	pf.StringArrayVar(&d.schemas, "schema", nil, "--data: a `FILE` of aws dynamodb describe-table output: a table's key and indexes (repeatable)")
	pf.BoolVar(&d.skipBad, "skip-bad", false, "--data: skip malformed lines and items without their key, counting them, instead of stopping")
	pf.StringVar(&d.max, "data-max", "", "--data: the most memory the data may take, e.g. 2GiB (default: half this machine's memory);\na load bigger is refused, from the export's manifest where it says, else as it grows")
}

func (d *dataFlags) given() bool { return len(d.paths) > 0 }

// validate checks the data flags before anything is read.
func (g *globals) validateData() error {
	d := &g.data
	if !d.given() {
		if d.keys != "" || len(d.schemas) > 0 || d.skipBad || d.max != "" {
			return usage("add --data PATH", "--keys, --schema, --skip-bad and --data-max describe --data")
		}
		return nil
	}
	if d.max != "" {
		if _, err := parseSize(d.max); err != nil {
			return usage("give a size such as 512MiB or 4GiB", "--data-max %v", err)
		}
	}
	switch {
	case g.demo:
		return usage("give --demo or --data, not both", "--demo and --data each open their own embedded database")
	case g.endpoint != "" || g.profile != "":
		return usage("drop --endpoint-url and --profile, or drop --data", "--data opens files without a server")
	}
	return nil
}

// dataOptions turns --keys and --schema into the loader's options.
func (d *dataFlags) options() (dataload.Options, error) {
	var opt dataload.Options
	opt.SkipBad = d.skipBad
	opt.MaxMemory, opt.MaxMemoryFrom = dataMaxDefault()
	if d.max != "" {
		n, err := parseSize(d.max)
		if err != nil {
			return opt, usage("give a size such as 512MiB or 4GiB", "--data-max %v", err)
		}
		opt.MaxMemory, opt.MaxMemoryFrom = n, ""
	}
	if d.keys != "" {
		sc, err := dataload.ParseKeys(d.keys)
		if err != nil {
			return opt, usage("write it as PK:S or PK:S,SK:N (types S, N or B)", "--keys %v", err)
		}
		opt.Keys = &sc
	}
	for _, p := range d.schemas {
		b, err := files.Read(p, files.Schema)
		if err != nil {
			return opt, usage("give the file `aws dynamodb describe-table --table-name NAME` wrote", "--schema %s: %v", p, errText(err))
		}
		sc, err := dataload.ParseSchema(b)
		if err != nil {
			return opt, usage("give the output of aws dynamodb describe-table", "--schema %s: %v", p, err)
		}
		opt.Schemas = append(opt.Schemas, sc)
	}
	return opt, nil
}

func errText(err error) string {
	var pe *os.PathError
	var fe *files.Error
	switch {
	case errors.As(err, &pe):
		return pe.Err.Error()
	case errors.As(err, &fe):
		return fe.Problem
	}
	return err.Error()
}

// dataLabel is the connection label: DATA: and the paths.
func (d *dataFlags) label() string {
	return export.OneLine("DATA: " + strings.Join(d.paths, ", "))
}

// args are the flags that reopen the same data, for the explorer's
// "command that reopens this view".
func (d *dataFlags) args() []string {
	var a []string
	for _, p := range d.paths {
		a = append(a, "--data", p)
	}
	if d.keys != "" {
		a = append(a, "--keys", d.keys)
	}
	for _, s := range d.schemas {
		a = append(a, "--schema", s)
	}
	if d.skipBad {
		a = append(a, "--skip-bad")
	}
	if d.max != "" {
		a = append(a, "--data-max", d.max)
	}
	return a
}

// connectData loads --data into a new embedded database. A headless
// command waits for the whole load, with a progress line on stderr when it
// is a terminal and one summary line after, which also says that the
// capacity shown is an estimate. The explorer (g.dataInBackground) opens at
// once instead: the load runs on, its progress in the status bar, and each
// table is read as soon as its own items are in.
func (g *globals) connectData(ctx context.Context) (*connection, error) {
	opt, err := g.data.options()
	if err != nil {
		return nil, err
	}
	db := memory.New()
	// --debug-log logs the reads of loaded data as it does a server's.
	metered := &dynamo.Metered{Client: db, Session: g.newSession()}
	if err := g.debug(metered.Session); err != nil {
		return nil, err
	}
	if g.dataInBackground {
		if err := dataload.Check(g.data.paths); err != nil {
			return nil, err
		}
		bg := dataload.Start(ctx, db, g.data.paths, opt)
		return &connection{client: metered, label: g.data.label(), estimated: true, load: bg}, nil
	}
	w := g.stderr
	if w == nil {
		w = io.Discard
	}
	live := export.IsTerminal(w)
	if live {
		opt.Progress = func(p dataload.Progress) {
			if !p.Done {
				fmt.Fprintf(w, "\r\x1b[Kloading %s · files %d/%d · %s items · %.1f MB · Ctrl+C stops", export.OneLine(p.Table), p.Files, max(p.Files, p.FilesTotal), thousands(p.Items), float64(p.Bytes)/1e6)
			}
		}
	}
	res, err := dataload.Load(ctx, db, g.data.paths, opt)
	if live {
		fmt.Fprint(w, "\r\x1b[K")
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("loading --data stopped after %s items: nothing is shown half-loaded: %w", thousands(res.Items), ctx.Err())
		}
		return nil, err
	}
	skipped := ""
	if res.Skipped > 0 {
		skipped = fmt.Sprintf(", %s bad skipped", thousands(res.Skipped))
	}
	fmt.Fprintf(w, "DATA: %s%s in %s from %s (%.1f MB) in %s · read-only · consumed RCU are estimates: what DynamoDB would charge for the same reads\n",
		counted(res.Items, "item", "items"), skipped, counted(len(res.Tables), "table", "tables"), counted(res.Files, "file", "files"), float64(res.Bytes)/1e6, res.Elapsed.Round(1e6))
	label := g.data.label()
	if res.Skipped > 0 {
		label += fmt.Sprintf(" · %s bad skipped", thousands(res.Skipped)) // the explorer keeps saying it
	}
	metered.Client = dataTables{DB: db, names: res.Tables}
	return &connection{client: metered, label: label, estimated: true}, nil
}

// dataTables is loaded data that says, for a table it does not hold,
// which it does: the server's hint ("check the name and --region") is
// no help where the tables are a file's.
type dataTables struct {
	*memory.DB
	names []string
}

func (d dataTables) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	out, err := d.DB.DescribeTable(ctx, in, opts...)
	var notFound *types.ResourceNotFoundException
	if err != nil && errors.As(err, &notFound) && len(d.names) > 0 {
		names := d.names
		if len(names) > 5 {
			names = append(names[:5:5], "…")
		}
		hint := fmt.Sprintf("the data holds %s (%s): give --table %s", counted(len(d.names), "table", "tables"), export.OneLine(strings.Join(names, ", ")), export.OneLine(d.names[0]))
		return nil, &dynamo.Error{Op: "describe table " + aws.ToString(in.TableName), Kind: dynamo.KindNotFound, Msg: "no such table in --data", Hint: hint, Err: err}
	}
	return out, err
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
