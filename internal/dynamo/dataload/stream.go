package dataload

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"runtime"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynascope/dynascope/internal/dynamo/memory"
	"github.com/dynascope/dynascope/internal/files"
)

type kind int

const (
	kindLines     kind = iota // {"Item": {…}} per line, as exports write
	kindScan                  // {"Items": […]} documents, as `aws dynamodb scan` prints
	kindWorkbench             // a NoSQL Workbench model
)

// batchSize is how many items travel together between the reader, the
// decoders and the store: large enough to amortise channel traffic, small
// enough that progress and cancellation stay prompt.
const batchSize = 2000

// flushItems is how many decoded items wait before they are stored: the
// store merges each chunk into its sorted partitions.
const flushItems = 16 * batchSize

// opened is a data file being read: its text (gunzipped when it is gzip)
// and, for checksums, the hash of its bytes as stored.
type opened struct {
	f   io.Closer
	r   *bufio.Reader
	sum hash.Hash
	gz  bool
}

func (o *opened) Close() error { return o.f.Close() }

func (l *loader) open(path string) (*opened, error) {
	openFile := l.opt.Open
	if openFile == nil {
		openFile = func(path string) (io.ReadCloser, error) { return files.Open(path, files.Data) }
	}
	f, err := openFile(path)
	if err != nil {
		return nil, &Error{File: path, Msg: "cannot open: " + errText(err), Hint: "give the path of an export folder or a data file"}
	}
	o := &opened{f: f, sum: md5.New()}
	raw := bufio.NewReaderSize(io.TeeReader(f, o.sum), 1<<16)
	if magic, _ := raw.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(raw)
		if err != nil {
			f.Close()
			return nil, &Error{File: path, Msg: "gzip: " + err.Error(), Hint: "the file is damaged or not gzip; download it again"}
		}
		o.gz = true
		o.r = bufio.NewReaderSize(zr, 1<<16)
		return o, nil
	}
	o.r = raw
	return o, nil
}

// sniffKind tells the formats apart by the first key of the first object.
func sniffKind(path string, r *bufio.Reader) (kind, error) {
	head, _ := r.Peek(4096)
	head = bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(head) == 0 {
		return kindLines, nil // an empty export part: an empty partition
	}
	dec := json.NewDecoder(bytes.NewReader(head))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0, &Error{File: path, Line: 1, Msg: "not DynamoDB JSON: it does not start with an object", Hint: Supported}
	}
	t, _ := dec.Token()
	key, _ := t.(string)
	switch key {
	case "Item":
		return kindLines, nil
	case "Items", "Count", "ScannedCount", "ConsumedCapacity", "LastEvaluatedKey", "NextToken":
		return kindScan, nil
	case "ModelName", "ModelMetadata", "DataModel":
		return kindWorkbench, nil
	case "Keys", "NewImage", "OldImage", "Metadata":
		return 0, refuseIncremental(path)
	case "":
		return 0, &Error{File: path, Line: 1, Msg: "not DynamoDB JSON", Hint: Supported}
	}
	return 0, &Error{File: path, Line: 1, Msg: fmt.Sprintf("not a format dynascope opens: its first key is %q", key), Hint: Supported}
}

func refuseIncremental(file string) error {
	return &Error{File: file, Msg: "incremental exports are not supported", Hint: Supported + "; request a FULL_EXPORT"}
}

func (l *loader) sniff(path string) (kind, error) {
	o, err := l.open(path)
	if err != nil {
		return 0, err
	}
	defer o.Close()
	return sniffKind(path, o.r)
}

type batch struct {
	lines   []int // where each item starts: a line number, or a byte offset for scan output
	raws    [][]byte
	items   []map[string]types.AttributeValue
	errs    []error
	bytes   int64
	readErr error // the reading stopped here
	done    chan struct{}
}

// stream loads one file into table. wantMD5 and wantItems, when given
// (from an export's manifest), are checked once the file has been read.
func (l *loader) stream(ctx context.Context, table, path, wantMD5 string, wantItems int) error {
	o, k, err := l.openData(ctx, path)
	if err != nil {
		return err
	}
	defer o.Close()
	sc, err := l.schemaOf(ctx, table)
	if err != nil {
		return err
	}
	l.file, l.table = path, table
	l.res.Files++
	l.report(false)

	stopped := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	st := &storing{l: l, table: table, path: path, k: k, sc: sc}
	defer func() {
		// Stopped (esc in the explorer): the items already decoded and
		// checked are kept, so the partial table holds what was counted.
		if stopped.Err() != nil && len(st.pending) > 0 {
			l.db.PutItems(context.Background(), table, st.pending)
		}
	}()
	order, wait := l.decodeInParallel(ctx, path, k, o, wantMD5)
	defer wait()
	defer cancel() // runs before wait: stops the reader when we return early
	for b := range order {
		select {
		case <-b.done:
		case <-ctx.Done():
			return ctx.Err()
		}
		if err := st.take(ctx, b); err != nil {
			return err
		}
		l.report(false)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := st.flush(ctx); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return st.check(o, wantItems, wantMD5)
}

// openData opens a data file and tells its format; a Workbench model
// among an export's data files is refused.
func (l *loader) openData(ctx context.Context, path string) (*opened, kind, error) {
	o, err := l.open(path)
	if err != nil {
		return nil, 0, err
	}
	fail := func(err error) (*opened, kind, error) {
		o.Close()
		return nil, 0, err
	}
	if err := ctx.Err(); err != nil {
		return fail(err) // stopped while the file was being opened
	}
	k, err := sniffKind(path, o.r)
	if err != nil {
		return fail(err)
	}
	if k == kindWorkbench {
		return fail(&Error{File: path, Msg: "is a NoSQL Workbench model inside a folder of data files", Hint: "give the model as its own --data"})
	}
	return o, k, nil
}

// schemaOf is table's key schema, the table created on first sight; nil
// while none is known (the items then suggest one).
func (l *loader) schemaOf(ctx context.Context, table string) (*Schema, error) {
	if sc := l.tables[table]; sc != nil {
		return sc, nil
	}
	sc := l.schemaFor(table)
	if sc == nil {
		return nil, nil
	}
	return l.ensure(ctx, table, sc)
}

// decodeInParallel starts reading the file (one goroutine) and decoding
// its batches (one a core); order hands the batches on in the file's
// order, each ready once its done is closed. wait returns once every
// goroutine has ended.
func (l *loader) decodeInParallel(ctx context.Context, path string, k kind, o *opened, wantMD5 string) (order chan *batch, wait func()) {
	order = make(chan *batch, 8)
	jobs := make(chan *batch, 8)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(jobs)
		defer close(order)
		l.produce(ctx, path, k, o, wantMD5, order, jobs)
	}()
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := newParser()
			for b := range jobs {
				decode(p, k, b)
				close(b.done)
			}
		}()
	}
	return order, wg.Wait
}

// storing is one file's decoded items on their way into the store: held
// in chunks, so that only a chunk of decoded items (maps of SDK values,
// several times their stored size) is held at once, never a whole file.
type storing struct {
	l            *loader
	table, path  string
	k            kind
	sc           *Schema // nil: no key schema yet, the items only suggest one
	cand         candidates
	pending      []map[string]types.AttributeValue
	pendingLines []int
	n            int // items read
}

// take checks a decoded batch's items and holds the good ones, storing
// them once a chunk is held.
func (st *storing) take(ctx context.Context, b *batch) error {
	l := st.l
	for i, it := range b.items {
		st.n++
		if b.errs[i] == nil && st.sc != nil {
			b.errs[i] = st.sc.checkKeys(it)
		}
		if b.errs[i] != nil {
			if err := l.bad(st.path, st.k, b.lines[i], b.errs[i]); err != nil {
				return err
			}
			continue
		}
		if st.sc == nil {
			st.cand.add(it)
			continue
		}
		st.pending = append(st.pending, it)
		st.pendingLines = append(st.pendingLines, b.lines[i])
		l.res.Items++
	}
	l.res.Bytes += b.bytes
	if b.readErr != nil {
		return b.readErr
	}
	if len(st.pending) >= flushItems {
		if err := st.flush(ctx); err != nil {
			return err
		}
	}
	return l.ceiling.during(st.path, st.n, l.res.Bytes)
}

// flush stores what is held; an item the store refuses is bad input.
func (st *storing) flush(ctx context.Context) error {
	l := st.l
	for len(st.pending) > 0 {
		at, err := l.db.PutItems(ctx, st.table, st.pending)
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		l.res.Items--
		if err := l.bad(st.path, st.k, st.pendingLines[at], err); err != nil {
			return err
		}
		st.pending = append(st.pending[:at:at], st.pending[at+1:]...)
		st.pendingLines = append(st.pendingLines[:at:at], st.pendingLines[at+1:]...)
	}
	clear(st.pending)
	st.pending, st.pendingLines = st.pending[:0], st.pendingLines[:0]
	return nil
}

// check holds a file read to its end to its manifest: its item count
// and checksum, and a key schema known.
func (st *storing) check(o *opened, wantItems int, wantMD5 string) error {
	if st.sc == nil {
		return &Error{File: st.path, Msg: "table " + st.table + " has no key schema", Hint: "give --keys NAME:TYPE[,NAME:TYPE] or --schema FILE (aws dynamodb describe-table output); " + st.cand.String()}
	}
	if wantItems >= 0 && st.n != wantItems {
		return &Error{File: st.path, Msg: fmt.Sprintf("holds %d items, manifest-files.json says %d", st.n, wantItems), Hint: "the file is incomplete or from another export; download it again"}
	}
	if wantMD5 != "" {
		got := o.sum.Sum(nil)
		if base64.StdEncoding.EncodeToString(got) != wantMD5 && !strings.EqualFold(hex.EncodeToString(got), wantMD5) {
			return &Error{File: st.path, Msg: fmt.Sprintf("checksum mismatch: md5 %s, manifest-files.json says %s", base64.StdEncoding.EncodeToString(got), wantMD5), Hint: "the file is damaged or from another export; download it again"}
		}
	}
	return nil
}

// bad handles one bad item: skipped and counted under --skip-bad, else the
// end of the load, naming where the item is.
func (l *loader) bad(path string, k kind, at int, err error) error {
	if l.opt.SkipBad {
		l.res.Skipped++
		return nil
	}
	line := at
	if k == kindScan {
		line = l.lineAt(path, int64(at))
	}
	var e *Error
	if errors.As(err, &e) {
		if e.File == "" {
			e.File, e.Line = path, line
		}
		return e
	}
	return &Error{File: path, Line: line, Msg: errLine(err), Hint: "fix or remove the item, or add --skip-bad to load the rest"}
}

func errLine(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return "malformed JSON: " + se.Error()
	}
	var ue *json.UnmarshalTypeError
	if errors.As(err, &ue) {
		return "not DynamoDB JSON: " + jsonErr(err)
	}
	return err.Error()
}

func jsonErr(err error) string {
	var ue *json.UnmarshalTypeError
	if errors.As(err, &ue) {
		where := ue.Field
		if where == "" {
			where = "the value"
		}
		return fmt.Sprintf("%s is a JSON %s where %s was expected", where, ue.Value, ue.Type)
	}
	return err.Error()
}

// lineAt is the line of a byte offset in a file's text, for messages about
// scan output, which is not one item per line.
func (l *loader) lineAt(path string, offset int64) int {
	o, err := l.open(path)
	if err != nil {
		return 0
	}
	defer o.Close()
	line := 1
	buf := make([]byte, 1<<16)
	for offset > 0 {
		n, err := o.r.Read(buf[:min(int64(len(buf)), offset)])
		line += bytes.Count(buf[:n], []byte{'\n'})
		offset -= int64(n)
		if err != nil {
			return line
		}
	}
	// The decoder's offset is before the comma and the spaces that
	// precede a value: the value is on the line of its first character.
	for {
		c, err := o.r.ReadByte()
		if err != nil || !bytes.ContainsRune([]byte(" \t\r\n,"), rune(c)) {
			return line
		}
		if c == '\n' {
			line++
		}
	}
}

// produce reads raw items from the file, in batches, until it ends, fails
// or ctx is cancelled.
func (l *loader) produce(ctx context.Context, path string, k kind, o *opened, wantMD5 string, order, jobs chan<- *batch) {
	b := &batch{done: make(chan struct{})}
	send := func() bool {
		if ctx.Err() != nil {
			return false // stopped: nothing more is read, whatever is ready
		}
		for _, ch := range []chan<- *batch{order, jobs} {
			select {
			case ch <- b:
			case <-ctx.Done():
				return false
			}
		}
		b = &batch{done: make(chan struct{})}
		return true
	}
	add := func(at int, raw []byte) bool {
		b.lines = append(b.lines, at)
		b.raws = append(b.raws, raw)
		b.bytes += int64(len(raw)) + 1
		return len(b.raws) < batchSize || send()
	}
	var err error
	if k == kindScan {
		err = l.readScan(path, o.r, add)
	} else {
		err = readLines(path, o.r, add)
	}
	if err == nil && wantMD5 != "" {
		_, err = io.Copy(io.Discard, o.r) // the checksum covers the whole file
		if err != nil {
			err = &Error{File: path, Msg: "gzip: " + err.Error(), Hint: "the file is damaged; download it again"}
		}
	}
	b.readErr = err
	send()
}

// readLines reads one item per line. It returns nil or an *Error.
func readLines(path string, r *bufio.Reader, add func(int, []byte) bool) error {
	line := 0
	for {
		text, err := readLine(r)
		if errors.Is(err, errLongLine) {
			return &Error{File: path, Line: line + 1, Msg: fmt.Sprintf("the line is longer than %d MB: no DynamoDB item is", MaxLineBytes>>20),
				Hint: "an item holds at most 400 KB; is this a DynamoDB export?"}
		}
		if err != nil && err != io.EOF {
			// A damaged or cut gzip stream: the line read so far is a
			// fragment, and the gzip error is what went wrong.
			return readErr(path, line+1, err)
		}
		if len(text) > 0 {
			line++
			if t := bytes.TrimSpace(text); len(t) > 0 {
				if !add(line, t) {
					return nil
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return readErr(path, line, err)
		}
	}
}

// MaxLineBytes bounds one line of an export: an item holds at most 400
// KB, which DynamoDB JSON's type tags and escapes make a few MB at worst.
// Reading stops there, whatever the line (or a gzip bomb) goes on to.
const MaxLineBytes = 8 << 20

var errLongLine = errors.New("line too long")

// readLine is the next line with its newline, never holding more than
// MaxLineBytes of it.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := r.ReadSlice('\n')
		if len(line)+len(part) > MaxLineBytes {
			return nil, errLongLine
		}
		line = append(line, part...)
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}

func readErr(path string, line int, err error) error {
	if errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.Is(err, io.ErrUnexpectedEOF) || strings.HasPrefix(err.Error(), "flate") {
		return &Error{File: path, Line: line, Msg: "gzip: " + err.Error(), Hint: "the file is damaged or cut short; download it again"}
	}
	return &Error{File: path, Line: line, Msg: "read: " + errText(err)}
}

// readScan reads `aws dynamodb scan` output: one or more {"Items": […]}
// documents. Items are located by byte offset; lineAt turns it into a line.
func (l *loader) readScan(path string, r *bufio.Reader, add func(int, []byte) bool) error {
	// The decoder holds the whole value it decodes: the window lets it
	// read at most MaxLineBytes past where the value starts, so one
	// item of gigabytes (or a gzip bomb) stops there.
	w := &window{r: r}
	dec := json.NewDecoder(w)
	mark := func() { w.limit = dec.InputOffset() + MaxLineBytes }
	var start int64 // where the value being read starts
	fail := func(err error) error {
		if errors.Is(err, errLongLine) {
			return &Error{File: path, Line: l.lineAt(path, start), Msg: fmt.Sprintf("an item is longer than %d MB: no DynamoDB item is", MaxLineBytes>>20),
				Hint: "an item holds at most 400 KB; is this `aws dynamodb scan` output?"}
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) || strings.HasPrefix(err.Error(), "flate") {
			return readErr(path, l.lineAt(path, dec.InputOffset()), err)
		}
		return &Error{File: path, Line: l.lineAt(path, dec.InputOffset()), Msg: errLine(err), Hint: "the scan output is malformed; run the scan again"}
	}
	for {
		start = dec.InputOffset()
		mark()
		t, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fail(err)
		}
		if t != json.Delim('{') {
			return fail(fmt.Errorf("expected a {\"Items\": […]} document"))
		}
		for mark(); dec.More(); mark() {
			start = dec.InputOffset()
			t, err := dec.Token()
			if err != nil {
				return fail(err)
			}
			if t != "Items" {
				mark()
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					return fail(err)
				}
				continue
			}
			if t, err := dec.Token(); err != nil || t != json.Delim('[') {
				if err == nil {
					err = fmt.Errorf("the Items field is not a list")
				}
				return fail(err)
			}
			for mark(); dec.More(); mark() {
				at := int(dec.InputOffset())
				start = int64(at)
				var raw json.RawMessage
				if err := dec.Decode(&raw); err != nil {
					return fail(err)
				}
				if !add(at, raw) {
					return nil
				}
			}
			if _, err := dec.Token(); err != nil {
				return fail(err)
			}
		}
		if _, err := dec.Token(); err != nil {
			return fail(err)
		}
	}
}

// window is a reader that refuses to be read past limit (errLongLine).
type window struct {
	r     io.Reader
	read  int64
	limit int64
}

func (w *window) Read(p []byte) (int, error) {
	if w.read >= w.limit {
		return 0, errLongLine
	}
	if int64(len(p)) > w.limit-w.read {
		p = p[:w.limit-w.read]
	}
	n, err := w.r.Read(p)
	w.read += int64(n)
	return n, err
}

// decode parses a batch's raw items; it runs on several goroutines, each
// with its own parser.
func decode(p *parser, k kind, b *batch) {
	b.items = make([]map[string]types.AttributeValue, len(b.raws))
	b.errs = make([]error, len(b.raws))
	for i, raw := range b.raws {
		if k == kindLines {
			b.items[i], b.errs[i] = p.exportLine(raw)
		} else {
			b.items[i], b.errs[i] = p.bareItem(raw)
		}
		// What DynamoDB would refuse is refused here too: the embedded
		// backend must never hold an item DynamoDB cannot.
		if b.errs[i] == nil {
			if msg := memory.CheckItem(b.items[i]); msg != "" {
				b.items[i], b.errs[i] = nil, errors.New(msg)
			}
		}
	}
	b.raws = nil
}
