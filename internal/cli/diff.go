package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dynascope/dynascope/internal/config"
	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/export"
)

// againstFlags name the other side of a comparison: what differs from the
// main connection (the rest is the main one's).
type againstFlags struct {
	endpoint, profile, region, table, data string
	// described is --keys, --schema, --skip-bad and --data-max when
	// --against-data is the only data named: they describe it.
	described *dataFlags
}

func (a againstFlags) given() bool {
	return a.endpoint != "" || a.profile != "" || a.region != "" || a.table != "" || a.data != ""
}

// sameConnection: only another table, read through the main connection.
func (a againstFlags) sameConnection() bool {
	return a.endpoint == "" && a.profile == "" && a.region == "" && a.data == ""
}

type diffOptions struct {
	commandIO
	table, pk, prefix, sk, output string
	against                       againstFlags
	all                           bool
	maxRCU                        float64
}

func newDiffCmd(ctx context.Context, g *globals) *cobra.Command {
	var o diffOptions
	cmd := &cobra.Command{
		Use:   "diff",
		Short: "Compare a partition, prefix or item with another environment or table",
		Long: `diff reads the same partition (or its --prefix, or one --sk item) on two
sides — the main connection and the one the --against-* flags name — in
parallel, page by page, with the same key condition, and prints each key
that differs: "differs" (with every changed path and both values),
"only-left" or "only-right". --all prints the keys that are the same too.

The other side is connected as the main one is (credentials, SSO,
configuration, masking), changing only what the --against-* flags name:
--against-table alone reads another table through the same connection.

Exit codes: 0 the sides are identical, 1 they differ (as diff does), 2 a
malformed command line, 3 stopped at --max-rcu (split evenly between the
sides; what was printed is true as far as both sides were read), and the
usual codes when a read fails. The cost of each side goes to stderr.`,
		Example: `  dynascope diff --demo --table Locations --pk USA --prefix 'NY#NEWYORKCITY#' --against-table Geography
  dynascope diff --profile staging --table Orders --pk 'c#42' --against-profile prod --output jsonl
  dynascope diff --endpoint-url http://localhost:8000 --region us-east-1 --table Orders --pk 'c#42' --sk 'ORDER#7' --against-region us-west-2`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.bind(cmd, g)
			return runDiff(ctx, &o)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.table, "table", "", "table to compare (required)")
	fl.StringVar(&o.pk, "pk", "", "partition key value (required); typed by the key: 123 for N, b64:AP4A (base64) for B")
	fl.StringVar(&o.prefix, "prefix", "", "compare only the sort keys beginning with this (begins_with)")
	fl.StringVar(&o.sk, "sk", "", "compare only the item with this sort key")
	fl.StringVar(&o.against.endpoint, "against-endpoint-url", "", "the other side's endpoint `URL`")
	fl.StringVar(&o.against.profile, "against-profile", "", "the other side's AWS `profile`")
	fl.StringVar(&o.against.region, "against-region", "", "the other side's `region`")
	fl.StringVar(&o.against.table, "against-table", "", "the other side's `table` (default: --table)")
	fl.StringVar(&o.against.data, "against-data", "", "the other side is data at `PATH` without a server, as --data opens it (keyed as --table, unless --keys or --schema say otherwise)")
	fl.StringVarP(&o.output, "output", "o", "text", "text (the keys that differ and how), jsonl (one key a line), json (one array of them) or csv (one change a row: left and right as JSON, null for a NULL, an empty cell for a side without the path)")
	fl.BoolVar(&o.all, "all", false, "print the keys that are the same too")
	budgetVar(fl, &o.maxRCU, "max-rcu", 0, true, "read no more than this many `RCU`, half on each side; stopped there, exit 3")
	return cmd
}

func (o *diffOptions) validate() error {
	switch {
	case o.table == "":
		return usage(o.g.tablesHint(), "--table is required")
	case o.pk == "":
		return usage("add --pk VALUE, the partition key value to compare", "--pk is required")
	case o.prefix != "" && o.sk != "":
		return usage("give --prefix for a part of the partition or --sk for one item", "--prefix and --sk both narrow the keys compared")
	case !o.against.given():
		return usage("add --against-endpoint-url, --against-profile, --against-region, --against-table or --against-data", "diff compares with another side, and none is named")
	case o.against.data != "" && (o.against.endpoint != "" || o.against.profile != "" || o.against.region != ""):
		return usage("drop --against-data, or the other --against-* connection flags", "--against-data opens files without a server")
	case !slices.Contains([]string{"text", "jsonl", "json", "csv"}, o.output):
		return usage("use --output text, jsonl, json or csv", "--output %q is not a format of diff", o.output)
	case o.against.sameConnection() && o.against.table == o.table:
		return usage("name another side: --against-table OTHER, or another connection", "--against-table %s compares the table with itself", o.table)
	case o.maxRCU > 0 && o.maxRCU < 2*config.MinBudget:
		// Half on each side, and each side's least read is 0.5 RCU: under
		// 1 RCU it read nothing and said it stopped.
		return usage(fmt.Sprintf("the smallest useful budget for diff is %.0f RCU (half on each side, a read costs at least %.1f)", 2*config.MinBudget, config.MinBudget),
			"--max-rcu %v reads nothing", o.maxRCU)
	}
	return checkBudget("--max-rcu", o.maxRCU, true)
}

// againstGlobals is the other side's connection flags: the main one's,
// with what the --against-* flags name changed. --against-data opens
// files; any other flag leaves --demo and --data behind.
func (g *globals) againstGlobals(a againstFlags) *globals {
	// The explorer's session (nil headless) counts the other side's reads
	// in its status bar, and keeps its environment off stderr.
	o := &globals{stderr: g.stderr, configFile: g.configFile, mask: g.mask, timeout: g.timeout,
		profile: g.profile, region: g.region, endpoint: g.endpoint, session: g.session}
	if a.data != "" {
		o.profile, o.region, o.endpoint = "", "", ""
		o.data = dataFlags{paths: []string{a.data}, keys: g.data.keys, schemas: g.data.schemas, skipBad: g.data.skipBad}
		if d := a.described; d != nil {
			o.data = dataFlags{paths: []string{a.data}, keys: d.keys, schemas: d.schemas, skipBad: d.skipBad, max: d.max}
		}
		return o
	}
	if a.endpoint != "" {
		o.endpoint = a.endpoint
	}
	if a.profile != "" {
		o.profile = a.profile
	}
	if a.region != "" {
		o.region = a.region
	}
	return o
}

// checkAgainst checks the other side's connection flags, before anything
// connects, and returns them.
func (g *globals) checkAgainst(a againstFlags) (*globals, error) {
	other := g.againstGlobals(a)
	if err := other.validate(); err != nil {
		return nil, againstUsage(err)
	}
	if err := other.validateData(); err != nil {
		return nil, againstUsage(err)
	}
	return other, nil
}

// describeAgainstData hands --keys, --schema, --skip-bad and --data-max
// to the other side when it is the only one that opens data: there they
// describe --against-data, as its help says, where the main side, a
// server, would refuse them.
func (o *diffOptions) describeAgainstData() {
	if o.against.data == "" || o.g.data.given() {
		return
	}
	d := o.g.data
	o.against.described = &d
	o.g.data = dataFlags{}
}

// connectAgainst connects the other side of a comparison as the main
// connection is connected: files given by --against-data are keyed as the
// table compared (key) unless --keys or --schema say otherwise. The
// explorer's = is to connect its other side through it too.
func (g *globals) connectAgainst(ctx context.Context, a againstFlags, key dynamo.KeySchema) (*connection, error) {
	other, err := g.checkAgainst(a)
	if err != nil {
		return nil, err
	}
	if a.data != "" && other.data.keys == "" && len(other.data.schemas) == 0 {
		other.data.keys = keysFlag(key)
	}
	return other.connect(ctx)
}

func runDiff(ctx context.Context, o *diffOptions) error {
	if err := o.validate(); err != nil {
		return err
	}
	o.describeAgainstData()
	if _, err := o.g.checkAgainst(o.against); err != nil {
		return err
	}
	mask, err := o.g.tableMask(o.table)
	if err != nil {
		return err
	}
	left, err := o.g.connect(ctx)
	if err != nil {
		return err
	}
	lq, info, err := o.query(ctx, left.client, o.table, mask)
	if err != nil {
		return err
	}
	right := left
	if !o.against.sameConnection() {
		if right, err = o.g.connectAgainst(ctx, o.against, info.Key); err != nil {
			return err
		}
	}
	rtable := o.table
	if o.against.table != "" {
		rtable = o.against.table
	}
	rinfo, _, err := dynamo.DescribeTable(ctx, right.client, rtable)
	if err != nil {
		var de *dynamo.Error
		if errors.As(err, &de) && o.against.data != "" {
			de.Hint = strings.Replace(de.Hint, "--table", "--against-table", 1) // the data's tables, named on the other side
		}
		return fmt.Errorf("the other side: %w", err)
	}
	if !sameKey(info.Key, rinfo.Key) {
		return usage("compare tables with the same key schema", "%s and %s have different keys: %s against %s", o.table, rtable, keyWords(info.Key), keyWords(rinfo.Key))
	}
	rq := lq // the same key condition, typed by the same key schema
	rq.Table = rtable
	masked := masking(left.client, mask, info) // both sides shown through one mask: equal values, equal stand-ins
	show := func(it dynamo.Item) map[string]any { return dynamo.PlainItem(masked.ShownItem(o.table, it)) }
	shown := masked.ShownQuery(lq, "")
	fmt.Fprintf(o.stderr, "%s · left: %s · right: %s%s\n", export.OneLine(shown.Describe()), export.OneLine(left.named()), export.OneLine(right.named()), tableNote(o.table, rtable))
	keys := []string{lq.PKName}
	if lq.SKName != "" {
		keys = append(keys, lq.SKName)
	}
	var res dynamo.DiffResult
	err = o.write(func(each func(domain.KeyDiff) error) error {
		var err error
		res, err = dynamo.DiffItems(ctx, dynamo.DiffSide{Client: left.client, Query: lq}, dynamo.DiffSide{Client: right.client, Query: rq}, keys, o.maxRCU, show,
			func(d domain.KeyDiff) error {
				if d.Status == domain.Same && !o.all {
					return nil
				}
				return each(d)
			})
		return err
	})
	o.writeCosts(res, left, right)
	if err != nil {
		return err
	}
	n := res.Counts
	fmt.Fprintf(o.stderr, "%s compared: %d same, %d differ, %d only-left, %d only-right\n",
		counted(n[domain.Same]+n[domain.Differs]+n[domain.OnlyLeft]+n[domain.OnlyRight], "key", "keys"), n[domain.Same], n[domain.Differs], n[domain.OnlyLeft], n[domain.OnlyRight])
	if note := pastBudgetLine("read whole", res.Cost().Billed, "--max-rcu", o.maxRCU); note != "" && !res.Stopped() {
		fmt.Fprintln(o.stderr, note)
	}
	if res.Stopped() {
		return partialError{fmt.Sprintf("%s, the keys compared are those both sides read; a larger --max-rcu reads on", stoppedAt(res.Cost().Billed, o.maxRCU))}
	}
	if !res.Identical() {
		return silentExit{exitFailure}
	}
	return nil
}

// againstUsage names the --against-* flags in a usage error about the
// other side's connection flags.
func againstUsage(err error) error {
	if ue, ok := err.(usageError); ok {
		ue.what = strings.NewReplacer("--endpoint-url", "--against-endpoint-url", "--data", "--against-data", "--profile", "--against-profile").Replace(ue.what)
		return ue
	}
	return err
}

// query is the key condition on one side's table, typed by its schema.
func (o *diffOptions) query(ctx context.Context, c dynamo.Client, table string, mask *domain.Mask) (domain.KeyQuery, dynamo.TableInfo, error) {
	q, info, err := keyQuery(ctx, c, itemsFlags{table: table, pk: o.pk}, mask)
	if err != nil {
		return q, info, err
	}
	narrow, flag := o.prefix, "--prefix"
	if o.sk != "" {
		narrow, flag = o.sk, "--sk"
	}
	if narrow == "" {
		return q, info, nil
	}
	if info.Key.SK == nil {
		return q, info, usage("drop "+flag+": each partition of "+table+" is one item", "table %s has no sort key", table)
	}
	v, err := domain.ParseKeyValue(info.Key.SK.Type, narrow)
	if err != nil {
		return q, info, usage("type it as the sort key's type", "%s %s", flag, typedWords(err, narrow, mask.Whole(info.Key.SK.Name)))
	}
	if o.sk != "" {
		q.SK = domain.SKCondition{Op: domain.SKEq, A: v}
		return q, info, nil
	}
	if v.Type == domain.TypeN {
		return q, info, usage("use --sk for one number, or compare the whole partition", "--prefix: the sort key of %s is a number, which has no prefix", table)
	}
	q.SK = domain.SKCondition{Op: domain.SKBeginsWith, A: v}
	return q, info, nil
}

func keyWords(k dynamo.KeySchema) string {
	if k.SK == nil {
		return keyAttr(&k.PK) + " and no sort key" // keyAttr's — read as ", —"
	}
	return keyAttr(&k.PK) + ", " + keyAttr(k.SK)
}

func sameKey(a, b dynamo.KeySchema) bool {
	if a.PK != b.PK || (a.SK == nil) != (b.SK == nil) {
		return false
	}
	return a.SK == nil || *a.SK == *b.SK
}

// keysFlag is a key schema as --keys takes it: PK:S,SK:N.
func keysFlag(k dynamo.KeySchema) string {
	s := k.PK.Name + ":" + string(k.PK.Type)
	if k.SK != nil {
		s += "," + k.SK.Name + ":" + string(k.SK.Type)
	}
	return s
}

func tableNote(left, right string) string {
	if left == right {
		return ""
	}
	return " · right table: " + export.OneLine(right)
}

// writeCosts says on stderr what each side read and cost.
func (o *diffOptions) writeCosts(res dynamo.DiffResult, left, right *connection) {
	for _, s := range []struct {
		name string
		r    dynamo.SideRead
		conn *connection
	}{{"left", res.Left, left}, {"right", res.Right, right}} {
		stopped := ""
		if s.r.Stopped {
			stopped = " (stopped at its half of --max-rcu)"
		}
		fmt.Fprintf(o.stderr, "%s: %s, %s · requests=%d consumedRCU=%.1f (%s)%s\n", s.name, counted(s.r.Items, "item", "items"), counted(s.r.Pages, "page", "pages"),
			s.r.Cost.Requests, s.r.Cost.RCU, billedWords(s.r.Cost), stopped)
	}
}

// diffChange is one changed path as printed: the left value, the right;
// a side without the path has none (nil), as the text says (absent) and
// CSV leaves its cell empty, while null is a NULL. Both were null.
type diffChange struct {
	Path  string    `json:"path"`
	Left  *diffSide `json:"left,omitempty"`
	Right *diffSide `json:"right,omitempty"`
}

// diffSide is one side's value of a changed path.
type diffSide struct{ v any }

func (s diffSide) MarshalJSON() ([]byte, error) { return []byte(jsonText(s.v)), nil }

type diffKey struct {
	Key     map[string]any `json:"key"`
	Status  string         `json:"status"`
	Changes []diffChange   `json:"changes"`
}

func asDiffKey(d domain.KeyDiff) diffKey {
	k := diffKey{Key: d.Key, Status: string(d.Status), Changes: []diffChange{}}
	for _, c := range d.Changes {
		ch := diffChange{Path: c.Path}
		if c.Kind != domain.Added {
			ch.Left = &diffSide{c.Old}
		}
		if c.Kind != domain.Removed {
			ch.Right = &diffSide{c.New}
		}
		k.Changes = append(k.Changes, ch)
	}
	return k
}

// write prints the keys read hands it, each as it comes, in --output's
// format.
func (o *diffOptions) write(read func(each func(domain.KeyDiff) error) error) error {
	switch o.output {
	case "jsonl", "json":
		out := export.NewJSONRows(o.stdout, o.output)
		if err := read(func(d domain.KeyDiff) error { return out.Write(asDiffKey(d)) }); err != nil {
			out.Flush()
			return err
		}
		return out.Close()
	case "csv":
		cols := []string{"key", "status", "path", "left", "right"}
		return export.WriteCSV(o.stdout, cols, map[string]bool{"key": true, "status": true, "path": true, "left": true, "right": true}, func(row func(map[string]any) error) error {
			return read(func(d domain.KeyDiff) error {
				key := jsonText(d.Key)
				if len(d.Changes) == 0 {
					return row(map[string]any{"key": key, "status": string(d.Status)})
				}
				for _, c := range d.Changes {
					// A side without the path is an empty cell, as the
					// text says (absent); a NULL is its JSON, null.
					r := map[string]any{"key": key, "status": string(d.Status), "path": c.Path}
					if c.Kind != domain.Added {
						r["left"] = jsonText(c.Old)
					}
					if c.Kind != domain.Removed {
						r["right"] = jsonText(c.New)
					}
					if err := row(r); err != nil {
						return err
					}
				}
				return nil
			})
		}, export.IsTerminal(o.stdout))
	}
	w := bufio.NewWriter(o.stdout)
	err := read(func(d domain.KeyDiff) error { return writeDiffText(w, d) })
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return err
}

// writeDiffText prints a key with its status, and under a key that
// differs one line a changed path: left → right.
func writeDiffText(w io.Writer, d domain.KeyDiff) error {
	if _, err := fmt.Fprintf(w, "%-10s  %s\n", d.Status, jsonLine(d.Key)); err != nil {
		return err
	}
	for _, c := range d.Changes {
		if _, err := fmt.Fprintf(w, "    %s: %s → %s\n", export.OneLine(c.Path), sideText(c.Old, c.Kind == domain.Added), sideText(c.New, c.Kind == domain.Removed)); err != nil {
			return err
		}
	}
	return nil
}

func sideText(v any, absent bool) string {
	if absent {
		return "(absent)"
	}
	return jsonLine(v)
}

// jsonLine is v as one line of JSON that stays JSON: what the escaper
// shows escaped (format characters, C1 controls, DEL) as JSON's \u
// escapes. OneLine alone wrote U+00AD as \xad, which JSON has not and
// which reads as the byte 0xAD.
func jsonLine(v any) string {
	return export.OneLine(string(export.EscapeJSON([]byte(jsonText(v)))))
}

// jsonText is v as compact JSON, numbers exact, <, > and & as themselves.
func jsonText(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
