package cli

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/export"
)

type versionsFlags struct {
	itemsFlags
	item, pattern string
}

type versionJSON struct {
	Version int            `json:"version"`
	SK      string         `json:"sk"`
	Item    map[string]any `json:"item"`
}

type historyJSON struct {
	Name     string         `json:"name"`
	Form     string         `json:"form"`
	Current  map[string]any `json:"current"`
	Latest   *int           `json:"latest"`
	Versions []versionJSON  `json:"versions"`
	Drift    []string       `json:"drift"`
}

func historyDoc(h domain.History) historyJSON {
	j := historyJSON{Name: h.Name, Form: h.FormName(), Versions: []versionJSON{}, Drift: h.Drift}
	if j.Drift == nil {
		j.Drift = []string{}
	}
	if h.Current != nil {
		j.Current = h.Current.Item
	}
	if l := h.Latest(); l != nil {
		n := l.Num
		j.Latest = &n
	}
	for _, r := range h.Revisions {
		j.Versions = append(j.Versions, versionJSON{Version: r.Num, SK: r.Key, Item: r.Item})
	}
	return j
}

func newVersionsCmd(ctx context.Context, g *globals) *cobra.Command {
	var f versionsFlags
	cmd := &cobra.Command{
		Use:   "versions",
		Short: "List the versioned items of a partition (v0_Audit, v1_Audit, v001_, v_1, v0…vN) with their revisions and drift",
		Long: `versions reads the revisions of a partition's versioned items, the pattern
where v0_<name> is the current copy and v1_<name>, v2_<name>… (or v001_,
the v_0, v_1 form, or AWS's bare v0, v1 … vN) are its history, and prints
one JSON document:
each logical item with its current copy (null when missing), its newest
revision number, every revision in numeric order, and its drift: the v0_
copy differing from the newest revision, a missing v0_, gaps in the
numbers, or one number stored twice (v1_ and v001_). A number on the
current copy that names the newest revision (AWS's Latest, whatever its
name) is the version pointer: not drift, but checked, so "v0 says
Latest=2 but v2 does not exist" is. An attribute every revision holds
its own number in, 0 on the current copy (dynamodb-toolbox's version of
v${version}), is the key written again: neither drift nor a pointer.
A key that says LATEST or CURRENT (any case, the whole word) where the
revision stands, read with the revisions (DOC#d1#LATEST beside
DOC#d1#v1…v7, v_latest), is the current copy of an item with no v0; beside
a v0 it is said only where it differs from it. Where the word leads the key
(LATEST_Audit beside v1_Audit, LATEST#DOC#d1 beside v1#DOC#d1) and an item
has no v0, it is read apart: one Query for each of LATEST, latest, Latest,
CURRENT, current and Current, said on stderr.
A number sort key is the version itself (id, version 0, 1, 2…, every
version kept, the highest the newest), read BETWEEN 0 AND 999999999: ten
digits are a time, not a version. Its 0 is the current copy, with drift,
only where it names the newest (Latest) or holds what the newest holds.
drift_ignore = ["UpdatedAt"] in the table's configuration leaves
attributes out of the comparison.

Without --item it reads every revision key in the partition (a paged
begins_with(SK, "v") Query). With --item it opens that one item: the
current copy is one GetItem, the history the same paged Query.

A table with its own convention names it with --version-pattern (or
version_pattern in the configuration): a template where {n} is the number
(0 the current copy) and {name} the item, such as rev#{n}#{name} or
{name}#v{n}. The list then reads begins_with(SK, <what comes before the
first placeholder>), or the whole partition when the template starts with
one. With none named, where no key under v is a revision, one keys-only
page of the partition (100 keys) is looked at for a family spelt with the
name first (DOC#d1#v1, DOC#d1#v2, DOC#d2#v1…; report_v1, a#VERSION#0001):
where two names or more each hold two numbers or more, it is read by
{name}#v{n} ({name}_v{n}, {name}#VERSION#{n}…), said on stderr.

--max-rcu bounds every read (the revisions' Query pages, the GetItem of
--item), as billed, within half an RCU; stopped there, nothing is
printed (a part of an item's revisions would show drift that is not
there) and it exits 3 saying what it spent.`,
		Example: `  dynascope versions --demo --table Equipment --pk Equipment_1 --output json
  dynascope versions --demo --table Equipment --pk Equipment_1 --item 'Audit#PART-7'
  dynascope versions --demo --table Documents --pk doc-0001
  dynascope versions --demo --table VersionNums --pk 'Part#3'
  dynascope versions --demo --table Policies --pk POL-1001 --version-pattern 'rev#{n}#{name}'
  dynascope versions --demo --table Equipment --pk Equipment_1 --max-rcu 10`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.bind(cmd, g)
			return runVersions(ctx, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.table, "table", "", "table to read (required)")
	fl.StringVar(&f.pk, "pk", "", "partition key value (required)")
	fl.StringVar(&f.item, "item", "", "one logical item: Audit for v0_Audit, v1_Audit…")
	fl.StringVar(&f.pattern, "version-pattern", "", "the table's own revision keys, e.g. 'rev#{n}#{name}' or '{name}#v{n}' (default: the configuration's, else v0_Name, v001_Name, v_0)")
	budgetVar(fl, &f.maxRCU, "max-rcu", 0, true, "read no more than this many `RCU` in all; stopped there, nothing printed, exit 3")
	fl.StringVarP(&f.output, "output", "o", "json", "json (one document), or rows: jsonl, csv, or a file versions.jsonl, versions.json (an array), versions.csv; with --item the rows are the revisions as items, the current copy first"+csvNull)
	return cmd
}

// runVersions prints a partition's versioned items, or one item's
// history; every flag is checked before it connects.
func runVersions(ctx context.Context, f *versionsFlags) error {
	if err := f.validate(); err != nil {
		return err
	}
	if _, err := f.onePartition(); err != nil {
		return err
	}
	pattern, err := f.versionPattern(f.g, f.given("version-pattern"))
	if err != nil {
		return err
	}
	if err := checkBudget("--max-rcu", f.maxRCU, true); err != nil {
		return err
	}
	conf, err := f.g.loadConfig()
	if err != nil {
		return err
	}
	mask, err := f.g.tableMask(f.table)
	if err != nil {
		return err
	}
	conn, err := f.g.connect(ctx)
	if err != nil {
		return err
	}
	f.g.readUnder("--max-rcu", f.maxRCU, conn.client.Session)
	q, info, err := keyQuery(ctx, conn.client, f.itemsFlags, mask)
	if err != nil {
		return err
	}
	if err := f.versionsShape(info.Key); err != nil {
		return err
	}
	req := dynamo.VersionsRequest{Table: f.table, Key: info.Key, PK: q.PK, Name: f.item, Pattern: pattern, Ignore: conf.Table(f.table).DriftIgnore}
	// The revisions are grouped by their real keys; what is shown of them
	// passes through the masked layer.
	masked := masking(conn.client, mask, info)
	delim := conf.Table(f.table).Delimiter
	start := time.Now()
	var c dynamo.Client = conn.client
	var budget *dynamo.Budgeted
	if f.maxRCU > 0 {
		budget = &dynamo.Budgeted{Client: conn.client, Max: f.maxRCU}
		c = budget
	}
	res, item, err := f.read(ctx, c, req, info, pattern, masked)
	if stopped(budget, err) {
		rcu, _ := budget.Spent()
		total, _ := conn.client.Session.Totals()
		return partialError{fmt.Sprintf("%s in %d requests; nothing printed, as part of an item's revisions would show drift that is not there — run again with a larger --max-rcu",
			stoppedAt(rcu, f.maxRCU), total.Requests)}
	}
	if err != nil {
		return err
	}
	level := masked.ShownQuery(res.Level, delim) // first: the partition is ‹m1› wherever it shows
	rows, histories := f.rows(res, item, info, masked, delim)
	if len(res.Histories) == 0 {
		// What these keys suggest first, then what was looked for: the
		// generic example came first, and the pattern that fits after it.
		suggested := false
		shownPK := masked.ShownKey(f.table, info.Key.PK.Name, f.pk, delim)
		if pattern == nil && info.Key.SK.Type == domain.TypeN {
			// A number key is the version itself: none here is one, as a
			// key of ten digits or more is a time (1536019200).
			fmt.Fprintf(f.stderr, "no versioned items: the numbers of %s here are no run of versions (0, 1, 2…); a number of ten digits is a time, read by time with %s (read %s  %s)\n",
				export.OneLine(info.Key.SK.Name), f.g.command("range", "--table", f.table, "--pk", shownPK, "--last", "30d"), level.Expression(), level.Values())
		} else if pattern == nil && !masked.Hides(f.table, info.Key.SK.Name) {
			suggested = suggestVersionPattern(ctx, conn.client, f, res, cmp.Or(delim, "#"), shownPK)
		}
		if pattern != nil || info.Key.SK.Type != domain.TypeN {
			if err := nothingFound(f, pattern, level, shownPK, suggested); err != nil {
				return err
			}
		}
	}
	items := make([]historyJSON, 0, len(res.Histories))
	drifted := 0
	for _, h := range histories {
		items = append(items, historyDoc(h))
		if h.Drifted() {
			drifted++
		}
	}
	total, _ := conn.client.Session.Totals()
	summary := func() {
		apart := ""
		if note := res.ApartNote(); note != "" {
			apart = " · " + note
		}
		fmt.Fprintf(f.stderr, "%s%s · %s, %d drifted · requests=%d consumedRCU=%.1f%s\n",
			export.OneLine(level.Describe()), apart, counted(len(items), "versioned item", "versioned items"), drifted, total.Requests, total.RCU, billedNote(conn.client.Session))
		if res.Found != "" {
			fmt.Fprintf(f.stderr, "%s\n", res.Found) // a pattern and counts: nothing masked
		}
		if res.SkippedN > 0 && len(items) > 0 { // keys that look like revisions in a versioned partition: say why they are not
			f.saySkipped(res, func(k string) string { return masked.ShownKey(f.table, info.Key.SK.Name, k, delim) })
		}
	}
	if f.output != "json" {
		_, err := writeRows(rows, f.output, f.stdout, f.stderr)
		summary()
		return err
	}
	doc := map[string]any{
		"table": f.table, "partitionKey": masked.ShownKey(f.table, info.Key.PK.Name, q.PK.Text, delim),
		"keyCondition": level.Expression(), "values": level.Values(),
		"items": items,
		"stats": map[string]any{"requests": total.Requests, "consumedRCU": total.RCU, "pages": res.Pages,
			"elapsedMs": time.Since(start).Milliseconds()},
	}
	if err := export.JSONDoc(f.stdout, billedStats(doc, conn.client.Session)); err != nil {
		return err
	}
	summary()
	return nil
}

// saySkipped names, on stderr, the keys that look like revisions in a
// versioned partition but are not read as one, and why; shown is how a
// key may be shown.
func (f *versionsFlags) saySkipped(res dynamo.VersionsResult, shown func(string) string) {
	keys := make([]string, len(res.Skipped))
	for i, s := range res.Skipped {
		keys[i] = strconv.QuoteToGraphic(shown(s.Key)) + " (" + s.Why + ")"
	}
	more := ""
	if res.SkippedN > len(keys) {
		more = ", …"
	}
	what := "keys look like revisions but are not read as one"
	if res.SkippedN == 1 {
		what = "key looks like a revision but is not read as one"
	}
	fmt.Fprintf(f.stderr, "%d %s: %s%s\n", res.SkippedN, what, strings.Join(keys, ", "), more)
}

// rows are what read found as rows to print, and res's histories as they
// may be shown: names and copies in stand-ins, the version markers
// readable (v1_‹m2›).
func (f *versionsFlags) rows(res dynamo.VersionsResult, item *domain.History, info dynamo.TableInfo, masked *dynamo.Masked, delim string) (dynamo.Rows, []domain.History) {
	var sk string
	if info.Key.SK != nil {
		sk = info.Key.SK.Name
	}
	shown := make([]domain.History, len(res.Histories))
	for i, h := range res.Histories {
		shown[i] = masked.ShownHistory(f.table, sk, h, delim)
	}
	if item == nil {
		return dynamo.HistoryRows(shown), shown
	}
	return dynamo.RevisionRows(masked.ShownHistory(f.table, sk, *item, delim), info.Key), shown
}

// read reads the partition's versioned items, or with --item that one
// item's history (trying the blog's v_0_<name> form when v0_<name> finds
// nothing), by their real keys.
func (f *versionsFlags) read(ctx context.Context, c dynamo.Client, req dynamo.VersionsRequest, info dynamo.TableInfo, pattern *domain.VersionPattern, masked *dynamo.Masked) (dynamo.VersionsResult, *domain.History, error) {
	if !f.given("item") && f.item == "" {
		res, err := dynamo.Versions(ctx, c, req, nil)
		return res, nil, err
	}
	h, res, err := dynamo.ItemHistory(ctx, c, req, nil)
	if err == nil && h.Current == nil && len(h.Revisions) == 0 && pattern == nil {
		// Not v0_<name>: perhaps the blog's v_0_<name>.
		req.Blog = true
		var blog dynamo.VersionsResult
		h, blog, err = dynamo.ItemHistory(ctx, c, req, nil)
		res.Cost, res.Pages = res.Cost.Add(blog.Cost), res.Pages+blog.Pages
		res.Histories = blog.Histories
	}
	if err != nil {
		return res, nil, err
	}
	if h.Current == nil && len(h.Revisions) == 0 {
		// The error shows the values as everything else does: masked.
		var sk string
		if info.Key.SK != nil {
			sk = info.Key.SK.Name
		}
		return res, nil, dynamo.Errorf("versions", dynamo.KindNotFound, "run without --item to list the partition's versioned items",
			"no revisions of %q in partition %s", masked.ShownKey(f.table, sk, f.item, "#"), masked.ShownKey(f.table, info.Key.PK.Name, f.pk, "#"))
	}
	return res, &h, nil
}

// versionPattern is --version-pattern, else the configuration's, else nil
// (the usual forms, detected).
func (f versionsFlags) versionPattern(g *globals, flagged bool) (*domain.VersionPattern, error) {
	conf, err := g.loadConfig()
	if err == nil {
		conf, err = withVersionPattern(conf, f.table, f.pattern, flagged)
	}
	return conf.Table(f.table).Versions(), err
}

// suggestVersionPattern says what a page of the partition's keys read
// as, and the --version-pattern they suggest (reporting whether it
// suggested one): the keys the read sampled for a name-first family
// (res.Sample), else one page read for it, its cost said.
func suggestVersionPattern(ctx context.Context, c dynamo.Client, f *versionsFlags, res dynamo.VersionsResult, delim, shownPK string) (suggested bool) {
	keys, cost := res.Sample, ""
	if keys == nil {
		q := res.Level
		q.SK, q.Filter, q.Reverse = domain.SKCondition{}, nil, false
		page, err := dynamo.QueryPage(ctx, c, dynamo.PageRequest{Query: q, Limit: 100, KeysOnly: true})
		if err != nil {
			return false
		}
		for _, it := range page.Items {
			if kv, ok := dynamo.KeyValueOf(it[q.SKName]); ok && kv.Type == domain.TypeS {
				keys = append(keys, kv.Text)
			}
		}
		cost = fmt.Sprintf(" (one more request to read them: %.1f RCU)", page.Cost.Billed)
	}
	if len(keys) == 0 {
		return false
	}
	if delim == "" {
		delim = domain.GuessDelimiter(keys)
	}
	seen := domain.InferTemplates(keys, delim)
	if len(seen) == 0 {
		return false
	}
	fmt.Fprintf(f.stderr, "the sort keys read as %s", export.OneLine(strings.Join(seen, ", ")))
	if p := domain.SuggestVersionPattern(keys, delim); p != "" {
		fmt.Fprintf(f.stderr, ": try --version-pattern %s (or version_pattern in the configuration)", domain.ShellQuote(export.OneLine(p)))
		suggested = true
	} else if _, timed := domain.TimeForms(keys); timed == len(keys) {
		// Revisions kept by the time they were written (ver_20231018120000)
		// are a time range, newest first, not a counter's history.
		fmt.Fprintf(f.stderr, ": each a time, read by time with %s (or --at, --before, --after)", f.g.command("range", "--table", f.table, "--pk", shownPK, "--last", "30d"))
		suggested = true
	}
	fmt.Fprintf(f.stderr, "%s\n", cost)
	return suggested
}

// nothingFound explains an empty result: a pattern that matches nothing is
// a mistake (exit 2); with the usual forms, stderr says which were looked
// for and how to name another. level and pk are as they may be shown:
// masked where the mask covers the key.
func nothingFound(f *versionsFlags, pattern *domain.VersionPattern, level domain.KeyQuery, pk string, suggested bool) error {
	if pattern != nil {
		where := "version_pattern " + strconv.Quote(pattern.String()) + " in the configuration"
		if f.given("version-pattern") {
			where = "--version-pattern " + strconv.Quote(pattern.String())
		}
		return usage("compare it with the keys ("+f.g.command("items", "--table", f.table, "--pk", pk)+"), or drop it to look for v0_Name, v001_Name, v_0 and v0…vN",
			"%s matches no sort key of partition %s (read %s  %s)", where, strconv.QuoteToGraphic(pk), level.Expression(), level.Values())
	}
	advice := "; where revisions are spelt another way, give --version-pattern 'rev#{n}#{name}' (or version_pattern in the configuration)"
	if suggested {
		advice = "" // the keys' own pattern is said above
	}
	fmt.Fprintf(f.stderr, "no versioned items: looked for v0_Name, v1_Name, v001_Name, v_0, v0…vN and v00001.Name (read %s  %s)%s\n",
		level.Expression(), level.Values(), advice)
	return nil
}
