package domain

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Delimiters are the separators dynascope recognises in hierarchical sort
// keys, strongest first: `-`, `_`, `:` and `.` also occur inside names and
// dates, so they win only when nothing else structures the keys.
var Delimiters = []string{"#", "|", "/", ":", ".", "-", "_"}

// timeMasked is a key with the colons of the times the key grammar reads
// in it (TimeSpans), and the point of their seconds' fraction, hidden:
// they are the time's (13:17:58, 2018-08-29:12:00:00.5), not a
// hierarchy's, so the tree never chooses them to split at. The dashes of
// a date stay: a table of dates is a year, month and day tree.
func timeMasked(k string) string {
	if !strings.Contains(k, ":") {
		return k
	}
	b := []byte(k)
	for _, sp := range TimeSpans(k) {
		for i := sp[0]; i < sp[1]; i++ {
			if b[i] == ':' || b[i] == '.' && i >= 3 && k[i-3] == ':' {
				b[i] = 'T'
			}
		}
	}
	return string(b)
}

// MaxDelimiter is the most characters a delimiter setting may hold: a
// mark (#, §, →) or a short run of them (::, __, ->). Counted in
// characters, not bytes, so § and → are one each.
const MaxDelimiter = 3

// DelimiterTooLong reports a delimiter setting longer than MaxDelimiter
// characters (NoDelimiter aside), which is more likely a value typed into
// the wrong flag than the text between two levels.
func DelimiterTooLong(d string) bool {
	return d != NoDelimiter && utf8.RuneCountInString(d) > MaxDelimiter
}

// NoDelimiter is how a delimiter setting (--delimiter, the tree's
// options) says to split nothing: every sort key is one segment, a leaf.
// It is longer than one character, so it is never a delimiter itself.
const NoDelimiter = "none"

// DetectDelimiter picks the delimiter that best structures a sample of sort
// keys: the one present in most keys, preferring the stronger on ties and
// never one that appears in fewer than half of them or in fewer than two
// (a delimiter repeats, or nothing structures the keys: binary keys with
// one byte 0x23, names with one '-'). ok is false when none does: the
// keys are not split.
func DetectDelimiter(sample []string) (string, bool) {
	best, bestScore := "", 0.0
	masked := make([]string, len(sample))
	for i, k := range sample {
		masked[i] = timeMasked(k)
	}
	for i, d := range Delimiters {
		n := held(masked, d)
		if n < 2 || n*2 < len(sample) {
			continue
		}
		// Coverage first; a small preference for the stronger delimiter
		// breaks ties (ILE-DE-FRANCE#PARIS#75001 is '#', not '-').
		score := float64(n)/float64(len(sample)) - float64(i)*0.01
		if score > bestScore {
			best, bestScore = d, score
		}
	}
	if m := dateMark(sample); m != "" && m != best && (best == "" || weakDelimiter(best) || ownMark(m) && held(masked, m) >= held(masked, best)) {
		return m, true
	}
	if best == "" {
		best = otherDelimiter(masked)
	} else if doubled(masked, best) {
		best += best
	}
	return best, best != ""
}

// held is how many keys hold d.
func held(keys []string, d string) int {
	n := 0
	for _, k := range keys {
		if strings.Contains(k, d) {
			n++
		}
	}
	return n
}

// ownMark reports a mark none of Delimiters is part of (§, →): before a
// date it beats even # where as many keys hold it (evt§2018-08-29T…#a1
// is a level evt, its times below; SITE§s0's dev§d0 beside
// evt§2026-08-01T00:00:00Z#d0 a level dev and a level evt, not a child
// for each time): a mark outside the usual ones was chosen to cut. A run
// of Delimiters (::, __) is already theirs.
func ownMark(m string) bool {
	for _, d := range Delimiters {
		if strings.Contains(m, d) {
			return false
		}
	}
	return true
}

// weakDelimiter reports the delimiters names and the dates themselves
// hold (ILE-DE-FRANCE, 2018-08-29, v1.2): they win only where no mark
// ends a level before a date (dateMark).
func weakDelimiter(d string) bool { return d == "-" || d == "_" || d == "." }

// dateMark is the mark most keys end a level with just before a dated
// time (evt§2018-08-29T12:00:00Z, log->2018-08-29, day_2018-08-29): the
// run of punctuation or symbols, at most MaxDelimiter, before the time,
// so held by at least half the keys and two, as DetectDelimiter asks. The
// date's own dashes are in every such key, and chose '-', which cut the
// time into year, month and day under a level named "evt§2018". "" where
// no mark is so held, or where it is the date's own '-' (evt-2018-08-29
// is cut at '-' anyway); among several, the one most keys hold, then the
// one that sorts first.
func dateMark(keys []string) string {
	held := map[string]int{}
	for _, k := range keys {
		seen := map[string]bool{}
		for _, sp := range TimeSpans(k) {
			if m := markBefore(k[:sp[0]]); m != "" && m != "-" && dashedYear(k[sp[0]:]) && !seen[m] {
				seen[m] = true
				held[m]++
			}
		}
	}
	best, bestN := "", 0
	for m, n := range held {
		if n < 2 || n*2 < len(keys) {
			continue
		}
		if n > bestN || n == bestN && m < best {
			best, bestN = m, n
		}
	}
	return best
}

// markBefore is the run of punctuation and symbols (quotes aside) that s
// ends with, if it is at most MaxDelimiter characters and follows a name
// (a key that begins with a mark and then a date has no level before it).
func markBefore(s string) string {
	end := len(s)
	for n := 0; n <= MaxDelimiter; n++ {
		r, size := utf8.DecodeLastRuneInString(s[:end])
		if size == 0 || !isMark(r) {
			if n == 0 || size == 0 {
				return ""
			}
			return s[end:]
		}
		end -= size
	}
	return ""
}

// doubled reports a delimiter that every key holding it holds only
// twice in a row (Mod::A::f, user__1__profile): the pair is the
// delimiter, so no level is an empty name between its halves. Only : and
// _ pair so (Rust's and C++'s paths, Django's lookups); A##B is an empty
// level between A and B.
func doubled(keys []string, d string) bool {
	if d != ":" && d != "_" {
		return false
	}
	pair := d + d
	for _, k := range keys {
		if strings.Contains(k, d) && strings.ReplaceAll(k, pair, "") != strings.ReplaceAll(k, d, "") ||
			strings.Contains(k, pair+d) {
			return false
		}
	}
	return true
}

// otherDelimiter is a punctuation or symbol character outside Delimiters
// (§, →, ~, +) that structures the keys where none of those does: held
// by at least half the keys and two of them, as DetectDelimiter asks,
// and twice in one key at least, since one mark in each key (a price's €,
// an e-mail's @) is part of a name more often than a level's end. ""
// where none does; among several, the one most keys hold, then the one
// that sorts first.
func otherDelimiter(keys []string) string {
	held := map[rune]int{}
	twice := map[rune]bool{}
	for _, k := range keys {
		seen := map[rune]bool{}
		for _, r := range k {
			if !isMark(r) || slices.Contains(Delimiters, string(r)) {
				continue
			}
			if seen[r] {
				twice[r] = true
				continue
			}
			seen[r] = true
			held[r]++
		}
	}
	best, bestN := "", 0
	for r, n := range held {
		if n < 2 || n*2 < len(keys) || !twice[r] {
			continue
		}
		if n > bestN || n == bestN && string(r) < best {
			best, bestN = string(r), n
		}
	}
	return best
}

// isMark reports a punctuation or symbol character that can end a level:
// quotes are a value's, not a level's.
func isMark(r rune) bool {
	return r != utf8.RuneError && (unicode.IsPunct(r) || unicode.IsSymbol(r)) && (r >= 0x80 || !strings.ContainsRune("\"'`", r))
}

// TemplateDelimiter is the strongest delimiter in one string written by
// hand (a level-name template STATE#CITY#ZIP, a --prefix NY#): there is
// no sample to repeat in, so present is enough.
func TemplateDelimiter(s string) (string, bool) {
	for _, d := range Delimiters {
		if strings.Contains(timeMasked(s), d) {
			return d, true
		}
	}
	return "", false
}

// PrefixDelimiter is the delimiter a prefix typed by hand ends a level
// with (NY#, Mod::, Alpha§): TemplateDelimiter's, but the pair where the
// prefix holds it only doubled (Mod:: is cut at ::, as DetectDelimiter
// cuts the keys it was listed from), and where none of Delimiters is held
// a mark the prefix ends with (Alpha§).
func PrefixDelimiter(prefix string) (string, bool) {
	if d, ok := TemplateDelimiter(prefix); ok {
		if strings.HasSuffix(prefix, d+d) && doubled([]string{timeMasked(prefix)}, d) {
			return d + d, true
		}
		return d, true
	}
	r, n := utf8.DecodeLastRuneInString(prefix)
	if n == 0 || !isMark(r) {
		return "", false
	}
	return string(r), true
}

// Child is one next segment under a prefix.
type Child struct {
	Name        string // the segment, possibly empty (A##B)
	Prefix      string // prefix + name + delimiter: drilling in goes here
	IsItem      bool   // a key ends here exactly (prefix + name)
	HasChildren bool   // keys continue below (prefix + name + delimiter …)
	// Flat: the keys a walk read below it (two or more) were items one
	// level down, none deeper: its own level is likely a leaf level, read
	// in plain pages from the start (dynamo.ChildrenRequest.Flat).
	Flat bool
}

// ChildOf splits key under prefix: the next segment's name, and whether
// the key ends there (a leaf). ok is false when key is not under prefix or
// is the prefix itself. With no delimiter ("") nothing is split: the rest
// of the key is the name, a leaf.
func ChildOf(prefix, key, delim string) (name string, leaf bool, ok bool) {
	if !strings.HasPrefix(key, prefix) || len(key) == len(prefix) {
		return "", false, false
	}
	rest := key[len(prefix):]
	if delim == "" {
		return rest, true, true
	}
	if i := segmentEnd(key, len(prefix), delim); i >= 0 {
		return key[len(prefix):i], false, true
	}
	return rest, true, true
}

// segmentEnd is where the segment of key that starts at from ends: the
// first delim at or after from that is no time's own, or -1. A time's own
// are the characters timeMasked hides from the delimiter's choice — the
// colons of a time the key grammar reads (2023-11-01T00:00:00Z,
// 2018-08-29:12:00:00, +05:30) and the point of its seconds' fraction —
// so a level's child is the whole time, never a piece of it cut at its
// own colon. The dashes and slashes of a date stay cuts: a table of dates
// is a year, month and day tree. A time of day with no date (12:34) is
// not kept whole: partition:offset keys 12:34 and 12:3456 are one
// partition's.
func segmentEnd(key string, from int, delim string) int {
	i := strings.Index(key[from:], delim)
	if i < 0 {
		return -1
	}
	i += from
	if !strings.ContainsAny(delim, ":.") || !utf8.ValidString(key) {
		return i
	}
	next, spanStart, spanEnd := 0, 0, 0 // the next place to read a time at; the last time read
	for {
		for next < i {
			if (next == 0 || !isAlnumByte(key[next-1])) && i-next < maxTimeText && dashedYear(key[next:]) {
				if p, ok := timeAt(key[next:]); ok {
					spanStart, spanEnd = next, next+p.n
					next += p.n
					continue
				}
			}
			next++
		}
		if i >= spanEnd || !timeOwn(key, i, len(delim), spanStart) {
			return i
		}
		j := strings.Index(key[i+1:], delim)
		if j < 0 {
			return -1
		}
		i += 1 + j
	}
}

// dashedYear reports s beginning 2023-: every time whose own characters
// are a colon or a fraction's point begins so (ISO 8601 extended, the
// blog's 2018-08-29:12:00:00), and reading one nowhere else spares the
// grammar's many layouts on the other places of a key.
func dashedYear(s string) bool {
	return len(s) > 4 && digitsOnly(s[:4]) && s[4] == '-'
}

// timeOwn reports a character of key[i:i+n], inside a time that starts
// at start, that belongs to the time (timeMasked's rule).
func timeOwn(key string, i, n, start int) bool {
	for j := i; j < i+n && j < len(key); j++ {
		if key[j] == ':' || key[j] == '.' && j-3 >= start && key[j-3] == ':' {
			return true
		}
	}
	return false
}

// timeGoesOn reports that a time ending key could go on past a delim
// after it (2023-11-01T00 then :00, 2018-08-29 then :12:00:00, :05 then
// .5): keys beginning key+delim are then not all one child's, since those
// whose text after it continues the time are children of their own.
func timeGoesOn(key, delim string) bool {
	n := len(key)
	if n == 0 || !isDigit(key[n-1]) || !strings.ContainsAny(delim, ":.") {
		return false
	}
	for s := max(0, n-maxTimeText); s < n; s++ {
		if s > 0 && isAlnumByte(key[s-1]) || !isDigit(key[s]) {
			continue
		}
		for _, more := range []string{"0", "00", "00:00", "00:00:00"} {
			if p, ok := timeAt(key[s:] + delim + more); ok && s+p.n > n {
				return true
			}
		}
	}
	return false
}

// TimeGoesOn reports a child, prefix+name, whose name ends in a time that
// could go on past the delimiter (2023-11-01T00 beside
// 2023-11-01T00:00:00Z): keys beginning its Prefix are then not all its
// own, and begins_with reads others' too.
func TimeGoesOn(prefix, name, delim string) bool {
	return timeGoesOn(prefix+name, delim)
}

// maxTimeText is longer than any text time the grammar reads.
const maxTimeText = 48

// PrefixEnd is the smallest string greater than every string that begins
// with p, in DynamoDB's order (UTF-8 bytes). It increments the last code
// point, so the result is valid UTF-8 when p is; ok is false when no such
// string exists (p is empty or all U+10FFFF).
func PrefixEnd(p string) (string, bool) {
	if !utf8.ValidString(p) {
		return bytesEnd(p) // not text: order by bytes
	}
	for len(p) > 0 {
		r, size := utf8.DecodeLastRuneInString(p)
		p = p[:len(p)-size]
		next := r + 1
		if next == 0xD800 {
			next = 0xE000 // skip the surrogates, which UTF-8 cannot hold
		}
		if next <= utf8.MaxRune {
			return p + string(next), true
		}
	}
	return "", false
}

// BytesEnd is PrefixEnd for binary keys: drop trailing 0xFF bytes and
// increment the last.
func BytesEnd(p []byte) ([]byte, bool) {
	s, ok := bytesEnd(string(p))
	return []byte(s), ok
}

func bytesEnd(p string) (string, bool) {
	b := []byte(p)
	for len(b) > 0 && b[len(b)-1] == 0xff {
		b = b[:len(b)-1]
	}
	if len(b) == 0 {
		return "", false
	}
	b[len(b)-1]++
	return string(b), true
}

// After is the smallest string greater than k: k followed by U+0000.
func After(k string) string { return k + "\x00" }

// SkipPast is where the next search starts once child has been seen under
// prefix. A leaf (prefix+child exactly) is passed by one key, since
// siblings such as NY! sort between NY and NY#. A child with descendants is
// passed with its whole subtree: every key beginning prefix+child+delim.
func SkipPast(prefix, child, delim string, leaf bool) string {
	if leaf {
		return After(prefix + child)
	}
	end, _ := PrefixEnd(prefix + child + delim) // never fails: delim is ASCII
	return end
}

// skipPastKey is where the next search starts once key, of child name,
// has been read: SkipPast, unless the child's name ends in a time that
// could go on past the delimiter (timeGoesOn: 2023-11-01T00:summary
// beside 2023-11-01T00:00:00Z). Then the keys after prefix+name+delim
// that could continue the time (a digit next) are children of their own,
// and are not skipped: those before them are passed, those among them
// read on one after another, and past them the rest of the subtree is
// skipped.
func skipPastKey(prefix, name, delim, key string, leaf bool) string {
	if leaf || !timeGoesOn(prefix+name, delim) {
		return SkipPast(prefix, name, delim, leaf)
	}
	sub := prefix + name + delim
	switch rest := key[min(len(sub), len(key)):]; {
	case rest == "" || rest[0] < '0':
		return sub + "0"
	case delim == ":" && len(rest) >= 3 && digitsOnly(rest[:3]):
		// After a colon a time goes on with two digits and no third
		// (:00, :00:00Z): neither 1234 nor any key of 12 then a digit
		// continues one, so the walk passes them all; 12: may.
		return sub + rest[:2] + ":"
	case rest[0] <= '9':
		return After(key)
	}
	return SkipPast(prefix, name, delim, false)
}

// LevelNames reads a level-name template such as STATE#CITY#ZIP or
// [country]#[region]#[state] into its names.
func LevelNames(template, delim string) []string {
	if template == "" || delim == "" {
		return nil
	}
	parts := strings.Split(template, delim)
	for i, p := range parts {
		parts[i] = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(p), "["), "]")
	}
	return parts
}

// Segments splits a prefix that ends with delim into its segments, as
// ChildOf cut them: a time is one segment, never cut at its own colons
// (event › 2023-11-01T00:00:00Z, not event › 2023-11-01T00 › 00 › 00Z).
func Segments(prefix, delim string) []string {
	if prefix == "" || delim == "" {
		return nil
	}
	p := strings.TrimSuffix(prefix, delim)
	var out []string
	for from := 0; ; {
		i := segmentEnd(p, from, delim)
		if i < 0 {
			return append(out, p[from:])
		}
		out = append(out, p[from:i])
		from = i + len(delim)
	}
}

// ChildWalk finds the children of a prefix from sorted keys read in
// stretches: the caller reads keys >= Start() under the prefix, in order,
// and feeds them; the walk records each child and moves Start past the
// child's whole subtree, so the next read skips it. Keys fed that fall in a
// skipped stretch (a bulk read) are passed over. With no delimiter ("")
// every key is a child of its own, a leaf.
type ChildWalk struct {
	Prefix, Delim string
	// SelfItem reports a key equal to the prefix itself (a trailing
	// delimiter one level up: GU#HAGATNA#).
	SelfItem bool
	children []Child
	index    map[string]int
	start    string
}

// NewChildWalk starts a walk under prefix.
func NewChildWalk(prefix, delim string) *ChildWalk {
	return &ChildWalk{Prefix: prefix, Delim: delim, index: map[string]int{}, start: prefix}
}

// Start is the smallest key the next read must return.
func (w *ChildWalk) Start() string { return w.start }

// From starts the walk at key instead of at the prefix: a walk of one
// stretch of a level, from where another walk's stretch ends.
func (w *ChildWalk) From(key string) *ChildWalk {
	w.start = key
	return w
}

// Children are the children found so far, in key order of first sight.
func (w *ChildWalk) Children() []Child { return w.children }

// Feed takes keys read in order from Start(); it returns the indexes of the
// children it added or changed.
func (w *ChildWalk) Feed(keys []string) []int {
	var changed []int
	for _, k := range keys {
		if k < w.start || !strings.HasPrefix(k, w.Prefix) {
			continue
		}
		name, leaf, ok := ChildOf(w.Prefix, k, w.Delim)
		if !ok {
			w.SelfItem = true
			w.start = After(k)
			continue
		}
		i, seen := w.index[name]
		if !seen {
			i = len(w.children)
			w.index[name] = i
			w.children = append(w.children, Child{Name: name, Prefix: w.Prefix + name + w.Delim})
		}
		c := &w.children[i]
		if leaf {
			c.IsItem = true
		} else {
			c.HasChildren = true
		}
		changed = append(changed, i)
		w.start = skipPastKey(w.Prefix, name, w.Delim, k, leaf)
	}
	return changed
}
