package domain

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// timeFormatHelp is what a refused format is told to write instead.
const timeFormatHelp = "write epoch-s, epoch-ms, epoch-us, ulid, uuidv7, ksuid, snowflake, discord, objectid, a layout such as yyyy-MM-dd'T'HH:mm:ss'Z', yyyyMMdd or 2006-01-02T15:04:05Z07:00, " +
	"or the key around it: prefix#LAYOUT, comm#{time}#{any}, {any}#{yyyy-MM-dd}#{any}, PHOTO#{ulid}"

// ParseTimeFormat reads a time format as configured or given by
// --time-format:
//
//	epoch-s | epoch-ms | epoch-us | ulid | uuidv7 | ksuid | snowflake | discord | objectid
//	a layout, as people write them (yyyyMMdd, yyyy-MM-dd'T'HH:mm:ss.SSS'Z')
//	  or as Go does (2006-01-02T15:04:05Z07:00)
//	prefix#LAYOUT (the time after a prefix that varies), LAYOUT#suffix
//	a template of the whole key: comm#{time}#{any}, {any}#{time:yyyyMMdd},
//	  PHOTO#{ulid}, where {time} is any layout detection knows (read from
//	  the keys: see Resolve) and {any} is text that varies
func ParseTimeFormat(s string) (TimeEncoding, error) {
	if e, ok := namedFormat(s); ok {
		e.anywhere = true
		return e, nil
	}
	bad := fmt.Errorf("%q is not a time format: %s", s, timeFormatHelp)
	if strings.Contains(s, "{") {
		return parseTemplate(s)
	}
	e := TimeEncoding{Kind: TimeText, Layout: s, Zone: time.UTC}
	if i := strings.LastIndexAny(s, timeSeps); i > 0 && i < len(s)-1 {
		if named, ok := namedFormat(s[i+1:]); ok && s[:i] != "prefix" { // admission#epoch-ms
			named = named.inText()
			named.Place, named.Sep, named.Lead = TimeAfter, s[i:i+1], s[:i+1]
			return named, nil
		}
	}
	if rest, ok := strings.CutPrefix(s, "prefix"); ok && len(rest) > 1 && isTimeSep(rest[0]) {
		if id, ok := namedFormat(rest[1:]); ok && id.IsID() { // prefix#ulid
			id.Place, id.Sep = TimeAfter, rest[:1]
			return id, nil
		}
		e.Place, e.Sep, e.Layout = TimeAfter, rest[:1], rest[1:]
	} else if i := strings.LastIndexAny(s, timeSeps); i > 0 && strings.HasSuffix(s, "suffix") {
		e.Place, e.Sep, e.Layout = TimeLeading, s[i:i+1], s[:i]
	}
	layout, err := goLayout(e.Layout)
	if err != nil {
		return TimeEncoding{}, fmt.Errorf("%q: %v", s, err)
	}
	e.Layout = layout
	if err := e.checkLayout(s); err != nil {
		return TimeEncoding{}, err
	}
	if !strings.Contains(e.Layout, "2006") {
		return TimeEncoding{}, bad
	}
	e.anywhere = e.Place == TimeWhole
	return e, nil
}

// namedFormat reads the formats that are a name, not a layout.
func namedFormat(s string) (TimeEncoding, bool) {
	switch strings.ToLower(s) {
	case "epoch-s":
		return TimeEncoding{Kind: EpochSeconds}, true
	case "epoch-ms":
		return TimeEncoding{Kind: EpochMillis}, true
	case "epoch-us", "epoch-µs":
		return TimeEncoding{Kind: EpochMicros}, true
	case "epoch-ns":
		return TimeEncoding{Kind: EpochNanos}, true
	case "ulid":
		return TimeEncoding{Kind: TimeULID}, true
	case "uuidv7", "uuid7":
		return TimeEncoding{Kind: TimeUUIDv7, Lower: true}, true
	case "ksuid":
		return TimeEncoding{Kind: TimeKSUID}, true
	case "snowflake":
		return TimeEncoding{Kind: TimeSnowflake}, true
	case "discord":
		return TimeEncoding{Kind: TimeSnowflake, Epoch: discordEpoch}, true
	case "objectid":
		return TimeEncoding{Kind: TimeObjectID, Lower: true}, true
	}
	return TimeEncoding{}, false
}

// checkLayout refuses a layout that holds its own separators (the time
// could not be found in a key) or cannot write and read back a time.
func (e TimeEncoding) checkLayout(s string) error {
	seps := []string{e.Sep, e.Tail}
	if e.Place == TimeAfter {
		seps[0] = "" // found after each separator in turn (Locate): event:2024-…T10:00:00Z
	}
	for _, sep := range seps {
		if sep != "" && strings.Contains(e.Layout, sep) {
			return fmt.Errorf("%q: the time's layout holds its separator %q, so the time cannot be found in a key", s, sep)
		}
	}
	ref := time.Date(2018, 8, 29, 12, 0, 0, 0, time.UTC)
	if back, err := time.Parse(e.Layout, ref.Format(e.Layout)); err != nil || back.Year() != 2018 {
		return fmt.Errorf("%q is not a time format: %s", s, timeFormatHelp)
	}
	return nil
}

// parseTemplate reads a template of the whole key: fixed text, one time
// placeholder ({time}, {time:LAYOUT}, {time:epoch-ms}, {ulid}, {uuidv7},
// {ksuid}), and {any} for text that varies — before the time (a fixed
// start, {any}, then one separator: P#{any}#{time}) and after it (a
// separator and {any}: {time}#{any}; or {any} alone, any text right after
// the time: {time}{any}, {time}-{any}).
func parseTemplate(s string) (TimeEncoding, error) {
	before, ph, after, err := cutTimePlaceholder(s)
	if err != nil {
		return TimeEncoding{}, err
	}
	e, err := placeholderEncoding(s, ph)
	if err != nil {
		return TimeEncoding{}, err
	}
	if e, err = e.placeBefore(s, before); err != nil {
		return TimeEncoding{}, err
	}
	if e, err = e.placeAfter(s, after); err != nil {
		return TimeEncoding{}, err
	}
	if e.Kind == TimeText && e.Layout != "" {
		if err := e.checkLayout(s); err != nil {
			return TimeEncoding{}, err
		}
	}
	return e, nil
}

// cutTimePlaceholder finds the one placeholder that is not {any}.
func cutTimePlaceholder(s string) (before, ph, after string, err error) {
	for i := 0; i < len(s); i++ {
		if s[i] != '{' || strings.HasPrefix(s[i:], anyPlaceholder) {
			continue
		}
		closing := strings.IndexByte(s[i:], '}')
		if closing < 0 {
			return "", "", "", fmt.Errorf("%q: a { without its }: write {time}, {time:yyyyMMdd}, {ulid} or {any}", s)
		}
		return s[:i], s[i+1 : i+closing], s[i+closing+1:], nil
	}
	return "", "", "", fmt.Errorf("%q has no {time}: write where the time stands, such as comm#{time}#{any}", s)
}

const anyPlaceholder = "{any}"

// placeholderEncoding reads {time}, {time:LAYOUT}, {time:epoch-ms} and the
// named ids.
func placeholderEncoding(s, ph string) (TimeEncoding, error) {
	name, format, _ := strings.Cut(ph, ":")
	switch {
	case name == "time" && format == "":
		return TimeEncoding{Kind: TimeText, Zone: time.UTC}, nil // the form is read from the keys (Resolve)
	case name == "time":
		if named, ok := namedFormat(format); ok {
			return named.inText(), nil
		}
		l, err := goLayout(format)
		if err != nil {
			return TimeEncoding{}, fmt.Errorf("%q: %v", s, err)
		}
		return TimeEncoding{Kind: TimeText, Layout: l, Zone: time.UTC}, nil
	}
	if named, ok := namedFormat(name); ok && format == "" {
		return named.inText(), nil
	}
	return TimeEncoding{}, fmt.Errorf("%q: {%s} is not a placeholder: write {time}, {time:LAYOUT}, {time:epoch-ms}, {ulid}, {uuidv7}, {ksuid}, {snowflake}, {discord}, {objectid} or {any}", s, ph)
}

// inText is the encoding written inside a text key: an epoch as its
// digits.
func (e TimeEncoding) inText() TimeEncoding {
	if e.isEpoch() && e.Width == 0 {
		e.Width = epochWidth(e.Kind)
	}
	return e
}

// placeBefore reads what a template puts before the time: nothing, fixed
// text (comm#), or {any} and one separator after a fixed start (P#{any}#).
func (e TimeEncoding) placeBefore(s, before string) (TimeEncoding, error) {
	i := strings.Index(before, anyPlaceholder)
	switch {
	case before == "":
		return e, nil
	case i < 0:
		_, n := utf8.DecodeLastRuneInString(before)
		e.Place, e.Sep, e.Lead = TimeAfter, before[len(before)-n:], before
		return e, nil
	}
	begins, rest := before[:i], before[i+len(anyPlaceholder):]
	if !(len(rest) == 1 && isPlaceSep(rest[0]) || rest != "" && markLen(rest) == len(rest)) || strings.Contains(begins, "{") {
		return e, fmt.Errorf("%q: put one separator (one of %s) between {any} and the time, such as {any}#{time} or P#{any}#{time}", s, timeSeps)
	}
	e.Place, e.Sep, e.Begins = TimeAfter, rest, begins
	return e, nil
}

// placeAfter reads what a template puts after the time: nothing, a
// separator and {any}, or {any} (with any fixed text first: -{any}).
func (e TimeEncoding) placeAfter(s, after string) (TimeEncoding, error) {
	i := strings.Index(after, anyPlaceholder)
	switch {
	case after == "":
		return e, nil
	case i < 0 || strings.Contains(after[:i], "{"):
		return e, fmt.Errorf("%q: after the time write nothing, a separator and {any} (#{any}), or {any} for text right after it", s)
	case i == 1 && isTimeSep(after[0]) && e.Place == TimeWhole:
		e.Place, e.Sep = TimeLeading, after[:1]
	case i == 1 && isTimeSep(after[0]):
		e.Tail = after[:1]
	default:
		e.Rest = true
	}
	return e, nil
}

// TimeFormat writes the encoding as a --time-format template that reads
// back as it: admission#{time:epoch-ms}#{any}, {any}#{time:2006-01-02}.
func (e TimeEncoding) TimeFormat() string {
	var format string
	switch {
	case e.Kind == TimeText && e.Number:
		return e.Layout // 20060102 on a number key
	case e.Kind == TimeText:
		format = "{time:" + e.Layout + "}"
	case e.isEpoch() && e.Width == 0:
		return map[TimeKind]string{EpochSeconds: "epoch-s", EpochMillis: "epoch-ms", EpochMicros: "epoch-us", EpochNanos: "epoch-ns"}[e.Kind]
	case e.isEpoch():
		format = "{time:" + map[TimeKind]string{EpochSeconds: "epoch-s", EpochMillis: "epoch-ms", EpochMicros: "epoch-us", EpochNanos: "epoch-ns"}[e.Kind] + "}"
	case e.IsID():
		format = "{" + map[TimeKind]string{TimeULID: "ulid", TimeUUIDv7: "uuidv7", TimeKSUID: "ksuid", TimeSnowflake: "snowflake", TimeObjectID: "objectid"}[e.Kind] + "}"
		if e.Kind == TimeSnowflake && e.Epoch == discordEpoch {
			format = "{discord}"
		}
	default:
		return ""
	}
	switch {
	case e.Lead != "":
		format = e.Lead + format
	case e.Place == TimeAfter:
		format = e.Begins + anyPlaceholder + e.Sep + format
	case e.Place == TimeLeading:
		format += e.Sep + anyPlaceholder
	}
	switch {
	case e.Tail != "":
		format += e.Tail + anyPlaceholder
	case e.Rest:
		format += anyPlaceholder
	}
	return format
}

// Resolved reports an encoding ready to read keys: a template's {time}
// needs its form read from keys first (Resolve).
func (e TimeEncoding) Resolved() bool { return !e.anywhere && (e.Kind != TimeText || e.Layout != "") }

// Resolve reads a {time} template's form from the keys: the form
// detection finds in the first key that has the template's shape, be it
// a layout, epoch digits or an id. ok is false when none has.
func (e TimeEncoding) Resolve(keys []string) (TimeEncoding, bool) {
	if e.IsID() && e.Matches(keys) == 0 {
		// ids are written in one case, which the format does not say
		flipped := e
		flipped.Lower = !e.Lower
		if flipped.Matches(keys) > 0 {
			e = flipped
		}
	}
	if e.isEpoch() && e.Width > 0 && !e.anywhere && e.Matches(keys) == 0 {
		// counts written wider, zeros first (LOG#%020d), which the
		// format does not say
		for _, k := range keys {
			w := e
			w.Width = 0
			if got, ok := w.inText().formIn(k); ok && got.Kind == e.Kind && got.padded() {
				w.Width = got.Width
				if w.Matches(keys) > 0 {
					e = w
					break
				}
			}
		}
	}
	if e.Resolved() {
		return e, true
	}
	if e.anywhere {
		return e.placeIn(keys)
	}
	for _, k := range keys {
		got, ok := e.formIn(k)
		if ok {
			got.Place, got.Sep, got.Tail, got.Lead, got.Rest, got.Begins = e.Place, e.Sep, e.Tail, e.Lead, e.Rest, e.Begins
			if _, _, _, fits := got.Locate(k); fits {
				return got, true
			}
		}
	}
	return e, false
}

// placeIn finds where a form given alone stands in the keys: the whole
// key where some key is that, else the first place (see DetectTimeText)
// a key holds it.
func (e TimeEncoding) placeIn(keys []string) (TimeEncoding, bool) {
	e.anywhere = false
	if e.Matches(keys) > 0 {
		return e, true
	}
	for _, k := range keys {
		if got, ok := detectWith(k, e.partAt); ok {
			return got, true
		}
	}
	return e, false
}

// formIn is the time form detection reads where the template puts the
// time in key.
func (e TimeEncoding) formIn(k string) (TimeEncoding, bool) {
	if e.Lead != "" {
		rest, has := strings.CutPrefix(k, e.Lead)
		if !has {
			return TimeEncoding{}, false
		}
		p, ok := timeAt(rest)
		return p.enc, ok
	}
	got, ok := DetectTimeText(k)
	return got, ok && got.Place == e.Place && got.Sep == e.Sep
}

// javaLetters are the pattern letters of layouts as people write them
// (Java's DateTimeFormatter, date-fns, moment), with Go's spelling.
var javaLetters = []struct{ pattern, layout string }{
	{"yyyy", "2006"}, {"uuuu", "2006"}, {"yy", "06"},
	{"MMMM", "January"}, {"MMM", "Jan"}, {"MM", "01"},
	{"dd", "02"}, {"HH", "15"}, {"hh", "03"}, {"mm", "04"}, {"ss", "05"},
	{"SSSSSSSSS", "000000000"}, {"SSSSSS", "000000"}, {"SSS", "000"}, {"SS", "00"}, {"S", "0"},
	{"XXX", "Z07:00"}, {"XX", "Z0700"}, {"X", "Z07"}, {"xxx", "-07:00"}, {"Z", "-0700"}, {"a", "PM"},
}

// goLayout turns a layout people write (yyyy-MM-dd'T'HH:mm:ss.SSS'Z') into
// Go's; a Go layout (it holds 2006, and no pattern letter) is kept.
func goLayout(s string) (string, error) {
	if strings.Contains(s, "2006") || !strings.ContainsAny(s, "yu") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return "", fmt.Errorf("a quote ' without its closing one")
			}
			if end == 0 {
				b.WriteByte('\'') // '' is a quote
			} else {
				b.WriteString(s[i+1 : i+1+end])
			}
			i += end + 2
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			found := false
			for _, l := range javaLetters {
				if strings.HasPrefix(s[i:], l.pattern) {
					b.WriteString(l.layout)
					i += len(l.pattern)
					found = true
					break
				}
			}
			if !found {
				j := i
				for j < len(s) && s[j] == c {
					j++
				}
				return "", fmt.Errorf("%q in the layout is not a pattern letter: write yyyy, MM, dd, HH, mm, ss, SSS or XXX, and put literal text in quotes ('T')", s[i:j])
			}
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), nil
}
