package pages

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
	"github.com/dynascope/dynascope/internal/ui/list"
)

// timeMaxJumpPages bounds how far a jump-to-time reads on to find its row.
const timeMaxJumpPages = 5

// Time is a partition's Time mode: the sort key read as time, with
// readable times beside the keys, and a range bar (t) that takes what
// people type (last 15m, 2018-08, A..B, < X), compiles it to one key
// condition in the key's own format and runs it newest first, a page at a
// time. A bad range is explained under the bar; what is loaded stays.
type Time struct {
	c          *common.Common
	id         int
	info       dynamo.TableInfo
	base       domain.KeyQuery // the partition (or index), no sort-key condition
	pg         list.Pager      // what is listed
	get        list.Request    // reading an item whole from the base table (on an index)
	stats      attrStats
	filter     filterBar
	picker     *columnPicker
	sort       list.Sort // s/S: the loaded rows' order on screen
	follow     following // F: new items as they are written
	enc        domain.TimeEncoding
	phase      timePhase
	configured bool                 // the encoding comes from the configuration file
	template   *domain.TimeEncoding // a configured {time} template, its layout read from the first keys
	noTime     string               // why this partition has no time mode (timeRefused)
	skipped    string               // the keys detection left out ("1 of 40 keys sampled is not a time: Metadata")
	ambiguous  string               // the reading detection doubts, and how to read otherwise (domain.TimeDetection.Ambiguous)
	prefixes   []string             // the prefixes before the time, once found
	waiting    *pendingRange        // a range typed without a prefix: merged across them all
	find       list.Request         // the search for the prefixes
	sampling   list.Request         // the read of the keys the format is detected from
	sampled    *dynamo.TimeSample   // those keys, once read (nil: the first page's)
	rangeTxt   string               // the range being listed ("" for all)
	times      []time.Time          // items' key times, parsed once (zero: not a time)
	spark      sparkCache
	local      bool // show local times instead of UTC
	now        func() time.Time
	input      components.TextInput
	inputErr   string
	jumpTo     *time.Time        // a jump waiting for more pages
	initial    string            // a range to run once the format is known (--range)
	returned   bool              // opened again after being left: the range bar stays closed
	pending    domain.FilterNode // a filter to apply once the format is known
	jumpLeft   int
	grid       components.Grid
	w, h       int
	// under is the prefix drilled to in the tree, kept: the listing and
	// every range stay beneath it ("" for the whole partition).
	under      string
	rangeUnder bool // the range listed runs under it
	// mergedUnder: the range listed is merged across the prefixes under
	// it (ORDER# of ORDER#{iso}#{ulid}: a prefix varies before the time).
	mergedUnder bool
	// splitUnder: the sampled keys under the prefix hold more before
	// their time than it (ORDER#2026-03-05T14:19:42+00:00# of
	// ORDER#{iso}#{ulid} under ORDER#), so the prefix is not the time's,
	// and key order under it is no time order.
	splitUnder bool
	// offsets: the keys are written in several UTC offsets, so their
	// key order is not their time order (domain.TimeDetection.Offsets);
	// spread is how far apart those are, which a range is widened by.
	offsets bool
	spread  time.Duration
	// seen stands for every sort key of the partition where the first
	// page, newest first and unfiltered, shows none can be a revision
	// key (place.seen): its first key is the greatest, so all are below
	// it. nil: unknown.
	seen []domain.Child
	// empty: the partition read whole holds no item, so it does not
	// exist (DynamoDB has no empty partition): said as the tree says
	// it, not as keys that hold no time.
	empty bool
}

// timePhase is how far the Time mode knows its keys' format: the first
// page is read to detect it, or a configured format waits to be checked
// against that page (ranges already run), then it is ready, or the keys
// are refused as time (noTime says why).
type timePhase int

const (
	timeDetecting timePhase = iota
	timeChecking
	timeReady
	timeRefused
)

// ready reports whether the format is known: ranges, jumps and the time
// column work.
func (t *Time) ready() bool { return t.phase == timeChecking || t.phase == timeReady }

// refuse ends the Time mode here, saying why.
func (t *Time) refuse(why string) { t.phase, t.noTime = timeRefused, why }

// NewTime returns the Time mode of a partition, on the base table or an
// index. now is the clock "last 15m" counts back from.
func NewTime(c *common.Common, info dynamo.TableInfo, pk domain.KeyValue, index string, now func() time.Time) *Time {
	key, _ := info.KeyFor(index)
	q := domain.KeyQuery{Table: info.Name, Index: index, PKName: key.PK.Name, PK: pk, Reverse: true}
	if key.SK != nil {
		q.SKName = key.SK.Name
	}
	id := c.NextID()
	t := &Time{c: c, id: id, info: info, base: q, pg: list.NewPager(c, id, q), now: now, filter: newFilterBar(), grid: components.NewGrid(c)}
	t.pg.TableKeys = t.tableKeys()
	t.pg.MinFirst = dynamo.TimeSampleKeys // the first page is the sample's newest keys, whatever the screen
	t.stats = newAttrStats(info.Key.PK.Name, q.PKName, q.SKName)
	if info.Key.SK != nil {
		t.stats.keys[info.Key.SK.Name] = true
	}
	t.input = components.NewTextInput("range › ")
	t.input.Placeholder = "last 24h · today · 2018-08 · between 2018-08-29 and 2018-09-04 · since, after, before, until X · @ 2018-08-29T12:00 jumps"
	t.setColumns()
	return t
}

// Under keeps the list beneath a prefix drilled to in the tree (from
// portland › amsg#, 4 lists amsg's messages, not everyone's): the keys
// are listed under it, and a range typed without a prefix runs under it
// where the time follows the prefix.
func (t *Time) Under(prefix string) {
	if prefix == "" || t.base.SKName == "" {
		return
	}
	a := domain.S(prefix)
	if key, err := t.info.KeyFor(t.base.Index); err == nil && key.SK != nil && key.SK.Type == domain.TypeB {
		a = domain.B([]byte(prefix))
	}
	t.under = prefix
	t.base.SK = domain.SKCondition{Op: domain.SKBeginsWith, A: a}
	t.pg.Query.SK = t.base.SK
}

// underNotes say the list keeps the tree's prefix, for the bar's line,
// longest first: the line takes the longest that leaves the key's time
// format whole after it.
func (t *Time) underNotes() []string {
	u := common.Sanitize(t.under)
	switch {
	case t.under == "":
		return nil
	case t.rangeTxt != "" && !t.rangeUnder && !t.mergedUnder:
		return []string{"the range reads the whole partition, not only " + u + " (the time leads the key)",
			"the range reads the whole partition, not only " + u, "whole partition read, not only " + u}
	}
	return []string{"under " + u + ", drilled in the tree (esc, then 4 at the top: the whole partition)",
		"under " + u + ", drilled in the tree", "under " + u}
}

// underTitle is the prefix kept, for the title beside the partition.
func (t *Time) underTitle() string {
	if t.under == "" || (t.rangeTxt != "" && !t.rangeUnder && !t.mergedUnder) {
		return ""
	}
	return " › " + common.Sanitize(t.under)
}

func (t *Time) tableKeys() *dynamo.KeySchema {
	if t.base.Index == "" {
		return nil
	}
	return &t.info.Key
}

func (t *Time) Init() tea.Cmd {
	if t.base.SKName == "" {
		t.refuse("this table has no sort key to read as time")
		return nil
	}
	if f := t.c.Tables[t.info.Name].TimeFormat; f != "" {
		enc, err := domain.ParseTimeFormat(f)
		if err == nil {
			enc, err = enc.ForKey(t.skNumber())
		}
		if err != nil { // a format the key's type cannot hold (the file was checked as it was read)
			t.refuse("the table's time_format " + strconv.Quote(f) + " does not fit this key:\n" + err.Error())
			return nil
		}
		if !enc.Resolved() {
			t.template = &enc // a {time} template: its layout is read from the first keys
		} else {
			t.phase, t.enc, t.configured = timeChecking, enc, true
			t.pg.Query.Filter, t.pending = t.pending, nil
			t.setColumns()
			if t.initial != "" {
				return t.afterDetect()
			}
			if t.returned {
				return t.pg.Next()
			}
			return tea.Batch(t.pg.Next(), t.input.Focus())
		}
	}
	// The first page, newest first, is the sample the format is detected
	// from when it holds the whole partition; else the sample headless
	// detection reads follows it (timesample.go).
	return t.pg.Next()
}

// skNumber reports a number sort key.
func (t *Time) skNumber() bool {
	key, _ := t.info.KeyFor(t.base.Index)
	return key.SK != nil && key.SK.Type == domain.TypeN
}

// StartWith runs a range as soon as the time format is known (a deep
// link: --range 'last 24h').
func (t *Time) StartWith(text string) { t.initial = text }

// Back lists the range the Time mode listed when it was left ("": all),
// with the range bar closed: the next key is a key, not text.
func (t *Time) Back(text string) {
	t.initial, t.returned = text, true
}

// Filter applies a filter once the time format is known: the first page
// is read unfiltered, as the sample the format is detected from.
func (t *Time) Filter(n domain.FilterNode) {
	t.pending = dynamo.TypedFilter(t.c.Client, t.base.Table, n)
}

// afterDetect focuses the bar, or runs the deep link's range, with the
// filter waiting for the format.
func (t *Time) afterDetect() tea.Cmd {
	if t.pending != nil {
		t.pg.Query.Filter, t.pending = t.pending, nil
		if t.initial == "" {
			return tea.Batch(t.run(t.pg.Query, t.rangeTxt), t.input.Focus())
		}
	}
	if t.initial == "" && t.returned {
		return nil
	}
	if t.initial == "" {
		return t.input.Focus()
	}
	t.input.SetValue(t.initial)
	t.initial = ""
	return t.submit()
}

// explorerTimeExamples are domain.NoTimeHint's examples of formats: inside
// the explorer the hint names the configuration, never a flag.
var explorerTimeExamples = func() string { _, ex, _ := strings.Cut(domain.NoTimeHint, "such as "); return ex }()

// detect reads the time format from the sample of keys (the first page's
// when it held the whole partition, or the sample read failed).
func (t *Time) detect() tea.Cmd {
	sample, number := t.sampleKeys(), t.skNumber()
	if len(sample) == 0 && t.sampled != nil {
		// Read whole, unfiltered, and no key: before a template or a
		// sample could be judged, there is nothing to judge.
		t.empty = true
		t.refuse("no item has the partition key " + common.KeyCell(t.base.PK) + t.inIndex() + ": there is no such partition")
		return nil
	}
	if t.template != nil {
		enc, ok := t.template.Resolve(sample)
		if !ok {
			t.refuse(fmt.Sprintf("no key here has the shape of the table's time_format %q;\ncompare it with a key, or remove it to detect the format", t.c.Tables[t.info.Name].TimeFormat))
			return nil
		}
		t.phase, t.enc, t.configured, t.template = timeReady, enc, true, nil
		t.checkConfigured()
		t.parseTimes()
		t.refresh()
		return t.afterDetect()
	}
	d := domain.ReadSnowflakes(domain.DetectTimeSample(sample, number), sample, t.now())
	enc, ok := d.Enc, d.OK
	if !ok {
		why := "the sort keys here do not read as time\n(epoch numbers, ISO-8601, dates, 2006-01-02:15:04:05, or prefix#time);\n" +
			"set time_format for the table in the configuration,\nsuch as " + explorerTimeExamples
		if forms, timed := domain.TimeForms(sample); len(forms) == 1 && timed >= 2 {
			why = fmt.Sprintf("only %d of %d sort keys sampled hold a time\n(%s): too few to take it unasked;\n"+
				"set time_format = %q\nfor the table in the configuration to read by it", timed, len(sample), forms[0], forms[0])
		}
		if c, ok := domain.DetectCountdown(sample); ok && !number {
			why = fmt.Sprintf("the sort keys here count time backwards, newest first\n(%s):\nthe Time mode reads keys in their time's order only;\nItems lists these newest first", common.Sanitize(c.Describe()))
		}
		t.refuse(why)
		return nil
	}
	t.phase = timeReady
	t.skipped = d.SampledNote() // the newest and oldest keys, not the partition's all
	if note := d.TimelessNote(); note != "" {
		t.skipped = note // taken by its prefixes: those holding no time, as range names them
	}
	t.ambiguous = d.Ambiguous
	t.enc = enc
	t.splitUnder = splitUnder(enc, t.under, sample)
	t.offsets, t.spread = d.Offsets, d.Spread
	t.parseTimes()
	t.refresh()
	return t.afterDetect()
}

// splitUnder reports whether the keys sampled under prefix hold more
// than it before their time: the time is located past its end in any.
func splitUnder(enc domain.TimeEncoding, prefix string, sample []string) bool {
	if prefix == "" || !enc.NeedsPrefix() {
		return false
	}
	for _, k := range sample {
		if i, _, _, ok := enc.Locate(k); ok && i > len(prefix) && strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

// checkConfigured refuses a configured format (time_format or
// --time-format) that none of the first keys read as.
func (t *Time) checkConfigured() {
	var keys []string
	for _, it := range t.pg.Head.First(20) {
		if kv, ok := dynamo.KeyValueOf(it[t.base.SKName]); ok {
			keys = append(keys, kv.Text)
		}
	}
	if len(keys) > 0 && t.enc.Matches(keys) == 0 {
		t.refuse(fmt.Sprintf("no key here is a time in the format %q\nof the table's time_format (such as %s):\ncompare it with a key, or remove it to detect the format",
			t.c.Tables[t.info.Name].TimeFormat, strconv.QuoteToGraphic(keys[0])))
	}
}

// run lists a new condition from the start, keeping nothing of the old;
// a merged range is merged again, in q's order and with q's filter.
func (t *Time) run(q domain.KeyQuery, text string) tea.Cmd {
	if t.waiting != nil && t.prefixes != nil {
		return t.runMerged(q)
	}
	t.rangeTxt = text
	if text == "" {
		t.pg.Sift = nil // the whole partition: nothing read is outside it
	}
	t.times, t.spark = nil, sparkCache{} // the sparkline counts the new rows, however many
	t.stats.reset()
	t.grid.SetCursor(0)
	cmd := t.pg.Restart(q)
	t.refresh()
	return cmd
}

func (t *Time) zone() *time.Location {
	if t.local {
		return time.Local
	}
	return time.UTC
}

// submit reads the range bar: a range to run, or @ TIME to jump to.
func (t *Time) submit() tea.Cmd {
	text := strings.TrimSpace(t.input.Value())
	if at, ok := strings.CutPrefix(text, "@"); ok {
		start, _, err := domain.ParseInstant(strings.TrimSpace(at), t.zone())
		if err != nil {
			t.inputErr = err.Error()
			return nil
		}
		t.input.Blur()
		t.inputErr = ""
		return t.jump(start, timeMaxJumpPages)
	}
	prefix, rest := t.splitPrefix(text)
	if _, err := domain.ParseRange(text, t.now(), t.zone()); err == nil && t.under != "" && t.enc.NeedsPrefix() && !t.splitUnder {
		prefix, rest = t.under, text // the tree's prefix: the range runs under it
	}
	r, err := domain.ParseRange(rest, t.now(), t.zone())
	if err != nil {
		t.inputErr = err.Error()
		return nil
	}
	// Keys in several UTC offsets compare as their local times: the
	// condition, written in one offset, is widened by how far apart they
	// are, so that it misses none, and lists only the keys in the range.
	asked := r
	r = r.Widen(t.spread)
	// Snowflake ids of 18 digits (before mid-2018) and 19 sort apart as
	// text: the bounds are written as wide as the ids the range holds,
	// and ids of the other width the condition's text holds are read and
	// left out (domain.FitSnowflakes, as range does).
	enc, mixed, err := t.enc.FitSnowflakes(t.sampleKeys(), r)
	var widths domain.SnowflakeWidthsError
	if errors.As(err, &widths) {
		// One line the bar shows whole at 80 columns.
		t.inputErr = fmt.Sprintf("%d- and %d-digit ids sort apart at %s: range one side", widths.Narrow, widths.Wide, widths.Meet.Format(time.RFC3339))
		return nil
	} else if err != nil {
		t.inputErr = err.Error()
		return nil
	}
	if t.enc.NeedsPrefix() && prefix == "" {
		t.inputErr = ""
		t.input.Blur()
		t.pg.Sift = nil
		keep := t.inRange(asked)
		if mixed {
			keep = keepIn(enc, t.base.SKName, asked)
		}
		return t.findPrefixes(r, enc, text, keep) // every prefix, merged by time
	}
	sk, err := domain.CompileRange(r, enc, prefix)
	if err != nil {
		t.inputErr = err.Error()
		return nil
	}
	t.inputErr = ""
	t.input.Blur()
	t.waiting = nil
	q := t.base
	q.SK, q.Reverse, q.Filter = sk, t.pg.Query.Reverse, t.pg.Query.Filter
	t.rangeUnder, t.mergedUnder = t.under != "" && prefix == t.under, false
	t.pg.Sift = t.inRange(asked)
	if mixed {
		t.pg.Sift = keepIn(enc, t.base.SKName, asked)
	}
	return t.run(q, text)
}

// inRange keeps, of a range read wider than asked (keys in several UTC
// offsets, or whose fractions of a second vary, read whole seconds at its
// ends), the rows whose instant is in the range asked; nil where the read
// is the range.
func (t *Time) inRange(asked domain.TimeRange) func(dynamo.Item) bool {
	if t.spread <= 0 && !t.enc.ReadsWholeSeconds() {
		return nil
	}
	return keepIn(t.enc, t.base.SKName, asked) // read by the page's command, off the model
}

// keepIn keeps the rows whose key enc reads as an instant in the range
// asked: of a range read wider (keys in several UTC offsets), its own;
// of Snowflake ids of two widths, those of the width the bounds were
// written in (enc's: another width reads as no time).
func keepIn(enc domain.TimeEncoding, sk string, asked domain.TimeRange) func(dynamo.Item) bool {
	return func(it dynamo.Item) bool {
		kv, ok := dynamo.KeyValueOf(it[sk])
		if !ok {
			return false
		}
		at, ok := enc.KeyTime(kv.Text)
		return ok && asked.Holds(at)
	}
}

// splitPrefix takes a leading sort-key prefix off composite-key input:
// "amsg# last 24h" or "amsg last 24h".
func (t *Time) splitPrefix(text string) (prefix, rest string) {
	if !t.enc.NeedsPrefix() {
		return "", text
	}
	if _, err := domain.ParseRange(text, t.now(), t.zone()); err == nil {
		return "", text // a range in words (last 24h, since X): no prefix typed
	}
	first, after, ok := strings.Cut(text, " ")
	if !ok {
		return "", text
	}
	return first, strings.TrimSpace(after)
}

// jump moves the cursor to the first loaded row at the time (or the
// nearest past it in the listing's order), reading on a few pages if the
// loaded rows end before it.
func (t *Time) jump(at time.Time, pages int) tea.Cmd {
	when := at.In(t.zone()).Format("2006-01-02 15:04:05 MST")
	first := true
	for i, tm := range t.times {
		if tm.IsZero() {
			continue
		}
		if (t.pg.Query.Reverse && !tm.After(at)) || (!t.pg.Query.Reverse && !tm.Before(at)) {
			t.grid.SetCursor(i)
			t.jumpTo = nil
			if first && !tm.Equal(at) { // before the listing's first row: outside what is listed
				return notice("@ " + when + " is past the first row listed: it is selected; t changes the range")
			}
			return nil
		}
		first = false
	}
	if !t.pg.Done() && pages > 0 {
		t.jumpTo, t.jumpLeft = &at, pages
		return t.pg.Next()
	}
	t.jumpTo = nil
	t.grid.SetCursor(max(0, t.pg.Head.Len()-1))
	if t.pg.Done() {
		return notice("@ " + when + " is beyond the last row of this range: it is selected; t changes the range")
	}
	return notice(fmt.Sprintf("@ %s is not in the %s read so far: the last is selected; ↓ reads on", when, common.Plural(t.pg.Head.Len(), "row", "rows")))
}

// sparkCache is the sparkline last drawn, kept while nothing it counts
// changes: drawing a frame must not re-read every loaded key.
type sparkCache struct {
	n, width int
	line     string
	lo, hi   time.Time
}

// parseTimes reads the key times of the items loaded since the last call,
// once each (the grid, the sparkline and jumps use them every frame).
func (t *Time) parseTimes() {
	if !t.ready() {
		return
	}
	for i := len(t.times); i < t.pg.Head.Len(); i++ {
		var tm time.Time
		if it, ok := t.pg.Head.At(i); ok { // a row let go is parsed when read again
			tm, _ = t.keyTime(it)
		}
		t.times = append(t.times, tm)
	}
}

func (t *Time) keyTime(it dynamo.Item) (time.Time, bool) {
	if kv, ok := dynamo.KeyValueOf(it[t.base.SKName]); ok {
		return t.enc.KeyTime(kv.Text)
	}
	return time.Time{}, false
}

func (t *Time) Update(msg tea.Msg) (common.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case common.RetryMsg:
		return t, t.pg.Retry()
	case followedMsg:
		return t, t.followed(msg)
	case prefixesFoundMsg:
		return t, t.prefixesFound(msg)
	case list.PageLoadedMsg:
		return t, t.pageLoaded(msg)
	case list.ReadOnMsg:
		if t.pg.ReadOn(msg) {
			return t, t.prefetch(false)
		}
		return t, nil
	case timeSampledMsg:
		if !t.sampling.Done(msg.req) || t.phase != timeDetecting {
			return t, nil
		}
		if msg.err != nil {
			// The first page's keys stand in for the sample that failed.
			return t, tea.Batch(common.Report(msg.err, false, t.id), t.detect())
		}
		t.sampled = &msg.sample
		return t, t.detect()
	case itemReadMsg:
		if !t.get.Done(msg.req) {
			return t, nil
		}
		if msg.err != nil || msg.item == nil {
			return t, common.Report(msg.err, false, t.id)
		}
		return t, open(NewReadItem(t.c, t.info, msg.item))
	case tea.KeyPressMsg:
		return t, t.key(msg)
	}
	return t, nil
}

// pageLoaded takes a page of the range: its rows and times, then the
// next step of the phase the view is in (detecting the time format,
// checking the configured one, jumping to a time, reading ahead).
func (t *Time) pageLoaded(msg list.PageLoadedMsg) tea.Cmd {
	fromEnd, gap := t.rowsFromEnd(), t.pg.GapOpen()
	ok, cmd := t.pg.Loaded(msg)
	if !ok {
		return cmd
	}
	if !t.pg.Reread {
		t.stats.add(msg.Result.Items)
	}
	if (gap && !t.pg.GapOpen()) || t.pg.Moved {
		t.times = nil // head and tail joined, or a page re-read moved rows: parsed again, in order
	}
	t.parseTimes()
	if t.pg.Reread {
		t.refresh()
		return tea.Batch(cmd, t.prefetch(false))
	}
	t.refresh()
	t.keepFromEnd(fromEnd)
	switch t.phase {
	case timeDetecting:
		return t.detectFrom(msg.Result.More())
	case timeChecking:
		t.phase = timeReady
		t.checkConfigured()
	}
	if t.jumpTo != nil {
		return t.jump(*t.jumpTo, t.jumpLeft-1)
	}
	return t.prefetch(false)
}

// detectFrom goes on detecting the time format once the first page is in
// (more: the partition goes on past it).
func (t *Time) detectFrom(more bool) tea.Cmd {
	t.noteGreatestKey()
	if t.sampled == nil && !t.sampling.InFlight() {
		// The format is detected from the sample headless reads:
		// the first page's newest keys, then (when the page is
		// not the whole partition) the oldest keys, and the
		// prefixes between them when those do not settle it.
		first := t.firstKeys(more)
		if first.More {
			return t.readSample(first)
		}
		s := dynamo.WholeTimeSample(t.base, first.Keys, first.Number)
		t.sampled = &s
	}
	return t.detect()
}

// prefetch reads on until the screen past the cursor is full; user says
// a key asked for it (a new filter budget).
func (t *Time) prefetch(user bool) tea.Cmd {
	if !t.ready() {
		return nil
	}
	return t.pg.Fill(t.grid.Cursor(), t.grid.Visible(), user)
}

// timeKeys are the Time mode's key handlers, asked in turn: what is
// typed or picked (the filter bar, the column picker, the range bar),
// following, stopping and leaving; the rest need the keys' format known.
var timeKeys = []func(*Time, tea.KeyPressMsg) (tea.Cmd, bool){
	(*Time).editKey,
	(*Time).followKey,
	(*Time).stopKey,
	(*Time).notReadyKey,
	(*Time).toolKey,
	(*Time).openKey,
}

func (t *Time) key(msg tea.KeyPressMsg) tea.Cmd {
	for _, h := range timeKeys {
		if cmd, took := h(t, msg); took {
			return cmd
		}
	}
	from := t.grid.Cursor()
	if t.grid.Update(msg) {
		if t.sort.Attr == "" {
			t.pg.StopAtGap(&t.grid, from, key.Matches(msg, t.c.Keys.Top, t.c.Keys.Bottom))
		}
		return t.prefetch(true)
	}
	return nil
}

// editKey gives every key to the filter bar, the column picker or the
// range bar while one is open.
func (t *Time) editKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := t.c.Keys
	switch {
	case t.filter.editing():
		res, cmd := t.filter.key(msg, k, t.stats.loaded())
		if !res.done {
			return cmd, true
		}
		q := t.pg.Query
		q.Filter = dynamo.TypedFilter(t.c.Client, q.Table, res.filter)
		return t.run(q, t.rangeTxt), true
	case t.picker != nil:
		return pickColumns(&t.picker, t.c, t.info.Name, msg, t.refresh), true
	case !t.input.Focused():
		return nil, false
	case key.Matches(msg, k.Submit):
		return t.submit(), true
	case key.Matches(msg, k.Cancel):
		t.input.Blur()
		t.inputErr = ""
		return nil, true
	}
	var cmd tea.Cmd
	t.input, cmd = t.input.Update(msg)
	return cmd, true
}

// followKey: F follows new items, F or esc stops.
func (t *Time) followKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := t.c.Keys
	switch {
	case t.follow.on() && (key.Matches(msg, k.Back) || key.Matches(msg, k.Follow)):
		t.stopFollow()
		return nil, true
	case key.Matches(msg, k.Follow):
		return t.startFollow(), true
	}
	return nil, false
}

// stopKey: esc stops what is being read, or leaves; r after a failure
// goes on from where it stopped.
func (t *Time) stopKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := t.c.Keys
	switch {
	case key.Matches(msg, k.Back) && t.find.InFlight():
		t.pg.Cancel()
		t.find.Stop()
	case key.Matches(msg, k.Back) && t.pg.Req.InFlight():
		t.pg.Cancel()
	case key.Matches(msg, k.Refresh) && t.pg.Fail.Stopped() && t.waiting != nil && t.prefixes == nil:
		t.pg.Fail.Clear()
		return t.findPrefixes(t.waiting.r, t.waiting.enc, t.waiting.text, t.waiting.keep), true // finding the prefixes failed: again
	case key.Matches(msg, k.Refresh) && t.pg.Fail.Stopped():
		return t.pg.Retry(), true // on from where it stopped, keeping the rows
	case key.Matches(msg, k.Back), key.Matches(msg, k.TimeMode):
		t.stopFollow() // leaving: nothing polls behind the user's back
		return back, true
	default:
		return nil, false
	}
	return nil, true
}

// notReadyKey takes every other key while the format is not known; t,
// which the range bar offers once it is, says why it does not act where
// the Time mode is refused.
func (t *Time) notReadyKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if t.phase == timeRefused && key.Matches(msg, t.c.Keys.Range) {
		return notice("t: no Time mode here; ? says why"), true
	}
	return nil, !t.ready()
}

// inIndex names the index the partition is read through ("" on the
// table).
func (t *Time) inIndex() string {
	if t.base.Index == "" {
		return ""
	}
	return " in index " + common.Sanitize(t.base.Index)
}

// toolKey: the range bar, the zone, the filter, columns, order, sort, and
// reading again.
func (t *Time) toolKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := t.c.Keys
	switch {
	case key.Matches(msg, k.Range):
		t.input.SetValue(t.rangeTxt)
		t.input.CursorEnd()
		return t.input.Focus(), true
	case key.Matches(msg, k.Zone):
		t.local = !t.local
		t.refresh()
	case key.Matches(msg, k.Filter):
		return t.filter.open(t.pg.Query.Filter), true
	case key.Matches(msg, k.Columns):
		t.picker = newColumnPicker(t.c, &t.stats, t.stats.columns(t.c, t.info.Name, timeAttrs))
	case key.Matches(msg, k.Flip):
		q := t.pg.Query
		q.Reverse = !q.Reverse
		return t.run(q, t.rangeTxt), true
	case key.Matches(msg, k.Sort), key.Matches(msg, k.SortFlip):
		t.sortKey(msg)
	case key.Matches(msg, k.Refresh):
		return t.rerun(), true
	default:
		return nil, false
	}
	return nil, true
}

// rerun reads the range again from its text, so that a span counted back
// from now ("last 15m") is counted back from the new now: its compiled
// bounds were anchored to when it was typed.
func (t *Time) rerun() tea.Cmd {
	if t.rangeTxt == "" {
		return t.run(t.pg.Query, "")
	}
	t.input.SetValue(t.rangeTxt)
	return t.submit()
}

// openKey: G jumps to the end, enter opens the row.
func (t *Time) openKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := t.c.Keys
	switch {
	case key.Matches(msg, k.Bottom) && t.canJumpEnd():
		return t.jumpEnd(), true
	case key.Matches(msg, k.Open):
		it, ok := t.pg.Row(t.sort.Row(t.grid.Cursor()))
		if !ok {
			return nil, true
		}
		if _, partial := partialProjection(t.info, t.base.Index); partial {
			ctx, req := t.get.Start(t.c)
			return getItem(ctx, t.c.Client, t.id, req, t.info.Name, baseKey(t.info, it)), true
		}
		return open(NewItem(t.c, t.info, it)), true
	}
	return nil, false
}

// timeAttrs are the attribute columns after the time and the sort key.
const timeAttrs = 5

// localZone names the local zone as it stands at the clock's now ("CET",
// "+0530"): "local" alone would not say which.
func (t *Time) localZone() string {
	name, off := t.now().In(time.Local).Zone()
	if name == "" {
		name = fmt.Sprintf("%+03d%02d", off/3600, abs(off%3600)/60)
	}
	return name
}

func abs(n int) int { return max(n, -n) }

func (t *Time) setColumns() {
	cols := []components.Column{{Title: "Time (UTC)", Width: 20, Keep: true}, {Title: t.base.SKName, Keep: true}}
	if t.local {
		cols[0].Title = "Time (" + t.localZone() + ")"
	}
	t.grid.SetColumns(cols)
}

func (t *Time) refresh() {
	t.setColumns()
	// On an index, the base table's keys come next: which item each is.
	var baseKeys []string
	if t.base.Index != "" {
		for _, n := range []string{t.info.Key.PK.Name, skName(t.info.Key)} {
			if n != "" && n != t.base.SKName && n != t.base.PKName {
				baseKeys = append(baseKeys, n)
			}
		}
	}
	var attrs []string
	for _, a := range t.stats.columns(t.c, t.info.Name, timeAttrs) {
		if !slices.Contains(baseKeys, a) {
			attrs = append(attrs, a)
		}
	}
	cols := t.grid.Columns()
	for _, a := range append(append([]string{}, baseKeys...), attrs...) {
		cols = append(cols, components.Column{Title: common.Sanitize(a)})
	}
	t.grid.SetColumns(cols)
	zone := t.zone()
	t.pg.Keep = t.sort.Attr != ""
	t.sort.ApplyRows(t.pg.RowCount(), t.pg.Row, t.pg.LetGoRow)
	t.grid.SetRows(t.sort.Lines(t.pg.RowCount()), func(r, col int) string {
		r = t.sort.Row(r)
		it, ok := t.pg.Row(r)
		if !ok {
			if col == 0 {
				return t.pg.CellNote(r)
			}
			return ""
		}
		switch {
		case col == 0:
			if tm := t.timeAt(r, it); !tm.IsZero() {
				return tm.In(zone).Format("2006-01-02 15:04:05")
			}
			return "?"
		case col == 1:
			return common.Cell(it[t.base.SKName])
		case col-2 < len(baseKeys):
			return common.Cell(it[baseKeys[col-2]])
		}
		return common.Cell(it[attrs[col-2-len(baseKeys)]])
	})
}

// sparkline is the loaded items counted in width buckets over their span.
func (t *Time) sparkline(width int) (string, time.Time, time.Time) {
	n := len(t.times) + t.pg.Tail.Rows.Len()
	if c := t.spark; c.n == n && c.width == width {
		return c.line, c.lo, c.hi
	}
	line, lo, hi := drawSparkline(t.loadedTimes(), width)
	t.spark = sparkCache{n: n, width: width, line: line, lo: lo, hi: hi}
	return line, lo, hi
}

func drawSparkline(all []time.Time, width int) (string, time.Time, time.Time) {
	var times []time.Time
	for _, tm := range all {
		if !tm.IsZero() {
			times = append(times, tm)
		}
	}
	if len(times) < 2 || width < 4 {
		return "", time.Time{}, time.Time{}
	}
	lo, hi := times[0], times[0]
	for _, tm := range times {
		if tm.Before(lo) {
			lo = tm
		}
		if tm.After(hi) {
			hi = tm
		}
	}
	span := hi.Sub(lo)
	buckets := make([]int, width)
	peak := 0
	for _, tm := range times {
		i := width - 1
		if span > 0 {
			i = min(width-1, int(float64(tm.Sub(lo))/float64(span)*float64(width)))
		}
		buckets[i]++
		peak = max(peak, buckets[i])
	}
	bars := []rune(" ▁▂▃▄▅▆▇█")
	var b strings.Builder
	for _, n := range buckets {
		level := 0
		if n > 0 {
			level = 1 + (n*(len(bars)-2))/peak
		}
		b.WriteRune(bars[min(level, len(bars)-1)])
	}
	return b.String(), lo, hi
}

func (t *Time) SetSize(w, h int) {
	t.w, t.h = w, h
	// The range bar is as wide as the frame leaves it, so that a long
	// range scrolls as the f and : boxes do, its hidden text marked "…",
	// where the frame had cut its end (and the cursor) off; scrolled
	// again to the new width.
	t.input.SetWidth(max(1, w-4-ansi.StringWidth(t.input.Prompt)-1))
	t.input.SetCursor(t.input.Position())
	t.pg.SizeTo(h - 8) // the frame, the range bar and its notes, the header
	// The sparkline is computed here, and drawn from the cache it fills.
	spark, _, _ := t.sparkline(max(8, t.w-4-44))
	gridH := t.gridHeight(spark != "")
	t.grid.SetSize(t.w-4, max(2, gridH-t.pg.Fail.LineBelow(t.pg.Head.Len())))
	if t.picker != nil {
		t.picker.layout(t.w-4, max(2, gridH))
	}
}

// rangeBox is the range bar being typed: as wide as its text, with its
// keys after it, where both fit; else the box as wide as the frame,
// scrolled to the cursor (the keys are on the help line).
func (t *Time) rangeBox() string {
	in, keys := t.input, ""
	if in.Focused() && in.Value() != "" {
		keys = t.c.Styles.Dim.Render("   enter runs · ctrl+u clears · esc cancels")
	}
	if components.ShownWidth(in.Value())+1+ansi.StringWidth(keys) > in.Width() {
		return in.View()
	}
	in.SetWidth(0) // a box given no width is as wide as its text, or its placeholder
	return in.View() + keys
}

// gridHeight is the rows' height below the range bar, its notes, the
// filter bar and the sparkline (spark: one is drawn).
func (t *Time) gridHeight(spark bool) int {
	gridH := t.h - 2 - 3 - len(t.filterLines())
	if spark {
		gridH--
	}
	return gridH
}

func (t *Time) View() string {
	st := t.c.Styles
	bar := t.rangeBox()
	if !t.input.Focused() {
		shown, note := t.rangeTxt, "   (t to change)"
		switch {
		case shown == "" && t.initial != "" && t.phase == timeDetecting:
			// A deep link's range waits for the time format: "all" said
			// the partition was what the view lists.
			shown, note = t.initial, "   runs once the keys tell the time format"
		case t.phase == timeRefused:
			// Nothing is listed, and t does not act: "all (t to change)"
			// said both were otherwise.
			shown, note = "–", ""
		case shown == "":
			shown = "all"
		}
		bar = st.Dim.Render("range › ") + common.Sanitize(shown) + st.Dim.Render(note)
	}
	info, leftOut := "", ""
	if t.ready() {
		how := "detected"
		if t.configured {
			how = "set by the table's time_format"
		}
		format := fmt.Sprintf("%s holds %s (%s)", domain.NameText(t.base.SKName), t.enc.Spoken(), how)
		text := fmt.Sprintf("%s · times in %s (z toggles)", format, map[bool]string{false: "UTC", true: "local time, " + t.localZone()}[t.local])
		if t.offsets {
			text += " · UTC offsets up to " + spanText(t.spread) + " apart: key order is not time order, ranges read ±" + spanText(t.spread)
		}
		// The prefix kept goes first, the format right after it: the
		// note's longest form that leaves the format whole (at 80
		// columns the whole note pushed it out); then whole phrases.
		head := ""
		if notes := t.underNotes(); len(notes) > 0 {
			note := notes[len(notes)-1]
			for _, n := range notes {
				if ansi.StringWidth(n+" · "+format) <= t.w-4 {
					note = n
					break
				}
			}
			text, head = note+" · "+text, note
		}
		if t.skipped != "" {
			// What the ranges leave out is said whole beside the format
			// where it fits, else on the line below it, its count and
			// "left out" first: at 80 columns its end was cut off, and
			// with it that some items are not in the range.
			if whole := text + " · " + common.Sanitize(t.skipped) + ", left out of ranges"; ansi.StringWidth(whole) <= t.w-4 {
				text = whole
			} else {
				what, list, _ := strings.Cut(common.Sanitize(t.skipped), ": ")
				leftOut = st.Dim.Render(common.CutWords(what+", not in ranges: "+list, t.w-4))
			}
		}
		if t.ambiguous != "" {
			// Said whole on the line below where it is free, for it
			// tells how to read the keys otherwise: after the format at
			// 80 columns its hint was never on screen.
			if note := t.ambiguous; leftOut == "" {
				note = fitAmbiguous(note, t.w-4)
				leftOut = st.Dim.Render(common.CutWords(note, t.w-4))
			} else {
				text += " · " + t.ambiguous
			}
		}
		lead := format
		if head != "" {
			lead = head + " · " + format
		}
		if ansi.StringWidth(text) > t.w-4 && ansi.StringWidth(lead+" · …") > t.w-4 && ansi.StringWidth(lead) <= t.w-4 {
			text = lead // the rest is the grid's header's (Time (UTC)) or ?'s
		}
		info = st.Dim.Render(common.CutWords(text, t.w-4))
	}
	if t.inputErr != "" {
		info = st.ErrorTitle.Render("✗ " + common.Guard(t.inputErr)) // the text typed, quoted as Go quotes
	}
	head := components.Fit(bar, t.w-4) + "\n" + components.Fit(info, t.w-4)
	if f := t.filterLines(); len(f) > 0 {
		head += "\n" + strings.Join(f, "\n")
	}
	spark, lo, hi := t.spark.line, t.spark.lo, t.spark.hi // as laid out
	sparkLine := ""
	if spark != "" {
		zone := t.zone()
		sparkLine = st.Dim.Render(lo.In(zone).Format("2006-01-02 15:04")+" ") + st.Key.Render(spark) + st.Dim.Render(" "+hi.In(zone).Format("2006-01-02 15:04"))
	}
	gridH := t.gridHeight(sparkLine != "")
	body := t.grid.View()
	switch {
	case t.empty: // the reason the tab gives (detect), as a sentence
		body = st.Dim.Render(strings.ToUpper(t.noTime[:1]) + t.noTime[1:] + ".\nesc goes back.")
	case t.phase == timeRefused:
		body = st.Dim.Render("No Time mode here: " + t.noTime + ".\nesc goes back.")
	case t.pg.Fail.Stopped() && t.pg.Head.Len() == 0:
		body = t.pg.Failed(st, t.w-4)
	case t.pg.Fail.Stopped():
		body = t.grid.View() + "\n" + t.pg.Failed(st, t.w-4)
	case t.phase == timeDetecting:
		body = st.Dim.Render("Reading the newest items; their keys tell the time format…")
	case t.pg.Empty("this range") != "":
		body = st.Dim.Render(t.pg.Empty("this range"))
	}
	if t.picker != nil {
		body = t.picker.view(t.c, t.w-4, max(2, gridH))
	}
	parts := []string{head, leftOut} // what ranges leave out, else a blank line
	if sparkLine != "" {
		parts = append(parts, components.Fit(sparkLine, t.w-4))
	}
	parts = append(parts, body)
	order := t.order()
	if t.sort.Attr != "" {
		order = "read " + order // the rows shown are in the sort's order
	}
	state := t.pg.State()
	if t.phase == timeDetecting && !t.pg.Fail.Stopped() {
		// The first page is held, not shown, while the sample the time
		// format is read from is read: "27 items loaded" stood over
		// "Reading the newest items…" and no row.
		state = "reading…"
	}
	title := fmt.Sprintf("%s%s · %s · %s", common.KeyCell(t.base.PK), t.underTitle(), state, order)
	if common.Width(title) > t.w-6 && !t.pg.Fail.Stopped() {
		// The order before the count where the title is cut: at 80
		// columns "newest first across 2 prefixes, to the second" was
		// cut off whole, and with it what the rows' order is. A failed
		// read stays first: that is what the title must say.
		title = fmt.Sprintf("%s%s · %s · %s", common.KeyCell(t.base.PK), t.underTitle(), order, state)
	}
	if t.phase == timeRefused {
		// The sample's items were read, and none is listed: the title
		// says what the body does, not "20 items loaded · more as you
		// scroll" over no row.
		title = fmt.Sprintf("%s%s · no Time mode here", common.KeyCell(t.base.PK), t.underTitle())
		if t.empty {
			title = common.KeyCell(t.base.PK) + " · does not exist" // as the tree titles it
		}
	}
	if ix := t.base.Index; ix != "" {
		title += " · index " + common.Sanitize(ix) // which index is read, not only on the request line
	}
	if sorted := t.sort.Title(t.pg.HeldRows(), t.pg.ListedRows()); sorted != "" {
		title = sorted + " · " + title // first: a narrow frame cuts the end
	}
	if f := t.followTitle(); f != "" {
		title = f + " · " + title
	}
	return common.Frame(st, title, strings.Join(parts, "\n"), t.w, t.h)
}

// order is what the title says of the listing's order: by time only
// where key order is time order (not across several prefixes before it).
func (t *Time) order() string {
	// Keys that hold no time (or not yet known to) are in key order only.
	// So are keys under a prefix that is not the whole one before their
	// time (ORDER# of ORDER#{iso}#{ulid}), with no range run.
	unpinned := t.pg.Query.SK.Op == domain.SKNone || t.splitUnder && t.rangeTxt == ""
	byKey := (t.ready() && t.enc.NeedsPrefix() && unpinned && t.pg.Merge == nil) || !t.ready()
	switch {
	case t.offsets && t.pg.Merge != nil:
		return "across " + common.Plural(len(t.prefixes), "prefix", "prefixes") + ": UTC offsets differ, not time order" + t.widened()
	case t.offsets && t.pg.Query.Reverse:
		return "key order, descending: UTC offsets differ" + t.widened()
	case t.offsets:
		return "key order: UTC offsets differ" + t.widened()
	case byKey && t.pg.Query.Reverse:
		return "key order, descending"
	case byKey:
		return "key order"
	}
	return t.timeOrder() + t.toTheSecond()
}

// toTheSecond says where key order is time order only to the second:
// within one, …:00Z sorts after …:00.5Z.
func (t *Time) toTheSecond() string {
	if t.ready() && t.enc.ReadsWholeSeconds() {
		return ", to the second"
	}
	return ""
}

// timeOrder is the listing's time order, newest or oldest first.
func (t *Time) timeOrder() string {
	switch {
	case t.pg.Merge != nil && t.pg.Query.Reverse:
		return "newest first across " + common.Plural(len(t.prefixes), "prefix", "prefixes")
	case t.pg.Merge != nil:
		return "oldest first across " + common.Plural(len(t.prefixes), "prefix", "prefixes")
	case t.pg.Query.Reverse:
		return "newest first"
	}
	return "oldest first"
}

// spanText is a span of whole minutes as people write it: 10h30m, 7h.
func spanText(d time.Duration) string {
	s := strings.TrimSuffix(d.String(), "0s")
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// widened says, for the title, that the range listed was read wider
// than typed: keys in offsets spread apart (a Time column beside each).
func (t *Time) widened() string {
	if t.rangeTxt == "" || t.spread <= 0 {
		return ""
	}
	return " · range read ±" + spanText(t.spread)
}

func (t *Time) Shows() (table, index string) { return t.info.Name, t.base.Index }

func (t *Time) Crumbs() []string {
	crumbs := partitionSteps(t.info.Name, t.base.Index, common.KeyCell(t.base.PK))
	if t.under != "" {
		crumbs = append(crumbs, common.Sanitize(t.under)+"…")
	}
	crumbs = append(crumbs, "time")
	if t.rangeTxt != "" {
		crumbs = append(crumbs, t.rangeTxt)
	}
	return crumbs
}
func (t *Time) ID() int         { return t.id }
func (t *Time) Mode() string    { return "Time" }
func (t *Time) Loading() bool   { return t.pg.Req.InFlight() || t.find.InFlight() }
func (t *Time) Capturing() bool { return t.input.Focused() || t.filter.editing() }

// list.Request is the query with, beside its raw key values, the times they
// stand for.
func (t *Time) Request() string {
	s := t.pg.Request()
	if span := t.span(); span != "" {
		s += " · " + span
	}
	return s
}

// span is the sort-key condition as readable times ("" when it has none
// or the keys are not read as time).
func (t *Time) span() string {
	if !t.ready() {
		return ""
	}
	// In the range grammar's own words, so that what is read here can
	// be typed back into the bar.
	return domain.DescribeCondition(t.pg.Query.SK, t.enc, t.zone())
}

// filterLines are the filter bar (and its error or note while typed).
func (t *Time) filterLines() []string {
	return t.filter.lines(t.c.Styles, t.w-4, t.pg.Query.Filter)
}

func (t *Time) ShortHelp() []key.Binding {
	k := t.c.Keys
	switch {
	case t.input.Focused(), t.filter.editing():
		return []key.Binding{k.Submit, k.Cancel}
	case t.picker != nil:
		return t.picker.help(k)
	}
	return t.keys().ShortHelp()
}

func (t *Time) HelpKeys() common.Keys { return t.keys() }
func (t *Time) FullHelp() [][]key.Binding {
	if t.picker != nil {
		return t.picker.fullHelp(t.c.Keys)
	}
	return t.keys().FullHelp()
}

// keys are the Time mode's keys, each where it acts: those that need the
// keys' time format (the range bar, the filter, the zone, following…)
// once it is known, those on rows where some are listed.
func (t *Time) keys() common.Keys {
	k := t.c.Keys
	ready := t.ready()
	rows := ready && t.pg.RowCount() > 0
	follow, back := followingKeys(k, t.follow.on(), "")
	if !t.follow.on() { // esc stops the prefixes' search as a read of the range
		back = list.BackKey(back, &t.pg.Req, &t.find)
	}
	_, query := t.Query()
	ks := moveKeys(k, rows)
	ks = append(ks, common.Line(1, common.On(k.Range, ready)))
	ks = append(ks, searchKeys(1, k, rows)...)
	ks = append(ks, common.Line(1, common.On(k.Filter, ready)), common.More(1, common.On(k.Columns, ready)),
		common.More(1, common.On(k.Flip, ready)), common.More(1, common.On(k.Sort, rows)), common.More(1, common.On(k.SortFlip, rows)),
		common.Key{Binding: common.On(follow, ready), Short: t.follow.on(), Group: 1}, common.Line(1, common.On(k.Zone, ready)))
	ks = append(ks, modeKeys(2, k, t.Modes(), t.Mode())...)
	again := t.pg.Fail.AgainKey(3, k.Refresh)
	again.Binding = common.On(again.Binding, ready || t.pg.Fail.Stopped())
	ks = append(ks, again, common.More(3, common.On(k.Copy, query)),
		common.More(3, common.On(k.CopyKey, query)), common.More(3, common.On(k.Export, query)),
		common.More(4, common.On(k.Open, rows)), common.Line(4, back))
	return append(ks, endKeys(4, k)...)
}

// Query is what the page lists.
// A range merged across prefixes is several queries, none of them the
// view: copy and export have no one query to take.
func (t *Time) Query() (domain.KeyQuery, bool) {
	return t.pg.Query, t.ready() && t.pg.Merge == nil
}

// NotOneQuery says why e, y and Y do nothing on a range merged across
// prefixes ("" where the view is one query, or not yet known).
func (t *Time) NotOneQuery() string {
	if !t.ready() || t.pg.Merge == nil {
		return ""
	}
	return "this range is read across " + common.Plural(len(t.prefixes), "prefix", "prefixes") +
		", not as one query: enter one prefix in Tree (1) to export or copy it"
}

// DeepLink reopens this range from the command line.
func (t *Time) DeepLink() []string {
	args := []string{"--table", t.info.Name, "--pk", keyArg(t.base.PK)}
	if t.base.Index != "" {
		args = append(args, "--index", t.base.Index)
	}
	if t.under != "" {
		args = append(args, "--prefix", t.under)
	}
	if t.rangeTxt != "" {
		args = append(args, "--range", t.rangeTxt)
	}
	if f := t.c.Tables[t.info.Name].TimeFormat; f != "" {
		// The format the keys were read by, not detected: the command
		// works without the configuration that gave it.
		args = append(args, "--time-format", f)
	}
	if t.pg.Query.Filter != nil {
		args = append(args, "--filter", domain.FormatFilter(t.pg.Query.Filter))
	}
	return args
}

// LinkNote: with no range, no flag opens Time (--range takes one): the
// command opens the partition as OpenPartition does (the Tree where the
// sort key is a string or binary, Items where it is a number or
// --filter lists), and the Time key lists it by time from there.
func (t *Time) LinkNote() string {
	if t.rangeTxt != "" {
		return ""
	}
	mode := ModeItems
	if key, err := t.info.KeyFor(t.base.Index); err == nil && key.SK != nil && key.SK.Type != domain.TypeN && t.pg.Query.Filter == nil {
		mode = ModeTree
	}
	return "it opens in " + mode + " mode; " + t.c.Keys.TimeMode.Help().Key + " lists it by time"
}

// Click selects the clicked row, or asks to open it when already selected:
// the grid sits below the frame border, the range bar, its note, a blank
// line and the sparkline when there is one.
func (t *Time) Click(y int) bool {
	if t.picker != nil {
		return false
	}
	top := 4 + len(t.filterLines())
	if spark, _, _ := t.sparkline(8); spark != "" {
		top++
	}
	return t.grid.Click(y - top)
}

// TableSize is the table's size in bytes, as DescribeTable gives it.
func (t *Time) TableSize() int64 { return t.info.SizeBytes }

// idHint is one other reading an ambiguous note names
// (domain.TimeDetection.Ambiguous): "if these are X (Twitter) ids
// (2021-11…2022-03), use --time-format snowflake".
var (
	idHint = regexp.MustCompile(`if these are (.+?) ids (\([^)]*\)), use (--time-format \S+)`)
	idSpan = regexp.MustCompile(` \(\d{4}-\d\d[^)]*\)`)
)

// fitAmbiguous is the note said in width where it fits, else without the
// reading's span (the format line names the reading), else its hints in
// short (X (Twitter) ids (…): --time-format snowflake), else without
// their spans: X's and Discord's hints side by side are 146 columns, and
// at 80 and 120 the second was cut off.
func fitAmbiguous(note string, width int) string {
	if ansi.StringWidth(note) <= width {
		return note
	}
	_, note, _ = strings.Cut(note, "; ")
	if ansi.StringWidth(note) <= width {
		return note
	}
	note = idHint.ReplaceAllString(note, "$1 ids $2: $3")
	if ansi.StringWidth(note) <= width {
		return note
	}
	return idSpan.ReplaceAllString(note, "")
}
