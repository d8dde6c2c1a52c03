package domain

import (
	"fmt"
	"strings"
	"time"
)

// timeFormatHelp is what a refused format is told to write instead.
const timeFormatHelp = "write epoch-s, epoch-ms, epoch-us, ulid, uuidv7, ksuid, a layout such as yyyy-MM-dd'T'HH:mm:ss'Z', yyyyMMdd or 2006-01-02T15:04:05Z07:00, " +
	"or the key around it: prefix#LAYOUT, comm#{time}#{any}, {any}#{yyyy-MM-dd}#{any}, PHOTO#{ulid}"

// ParseTimeFormat reads a time format as configured or given by
// --time-format:
//
//	epoch-s | epoch-ms | epoch-us | ulid | uuidv7 | ksuid
//	a layout, as people write them (yyyyMMdd, yyyy-MM-dd'T'HH:mm:ss.SSS'Z')
//	  or as Go does (2006-01-02T15:04:05Z07:00)
//	prefix#LAYOUT (the time after a prefix that varies), LAYOUT#suffix
//	a template of the whole key: comm#{time}#{any}, {any}#{time:yyyyMMdd},
//	  PHOTO#{ulid}, where {time} is any layout detection knows (read from
//	  the keys: see Resolve) and {any} is text that varies
func ParseTimeFormat(s string) (TimeEncoding, error) {
	if e, ok := namedFormat(s); ok {
		return e, nil
	}
	bad := fmt.Errorf("%q is not a time format: %s", s, timeFormatHelp)
	if strings.Contains(s, "{") {
		return parseTemplate(s)
	}
	e := TimeEncoding{Kind: TimeText, Layout: s, Zone: time.UTC}
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
	return e, nil
}

// namedFormat reads the formats that are a name, not a layout.
func namedFormat(s string) (TimeEncoding, bool) {
	switch strings.ToLower(s) {
	case "epoch-s":
		return TimeEncoding{Kind: EpochSeconds}, true
	case "epoch-ms":
		return TimeEncoding{Kind: EpochMillis}, true
	case "epoch-us":
		return TimeEncoding{Kind: EpochMicros}, true
	case "ulid":
		return TimeEncoding{Kind: TimeULID}, true
	case "uuidv7", "uuid7":
		return TimeEncoding{Kind: TimeUUIDv7, Lower: true}, true
	case "ksuid":
		return TimeEncoding{Kind: TimeKSUID}, true
	}
	return TimeEncoding{}, false
}

// checkLayout refuses a layout that holds its own separators (the time
// could not be found in a key) or cannot write and read back a time.
func (e TimeEncoding) checkLayout(s string) error {
	for _, sep := range []string{e.Sep, e.Tail} {
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

// parseTemplate reads a template of the whole key: literal text, one time
// placeholder ({time}, {time:LAYOUT}, {ulid}, {uuidv7}, {ksuid}), and
// {any} for text that varies, before the time (ending with a separator)
// or after it (after a separator).
func parseTemplate(s string) (TimeEncoding, error) {
	open := strings.Index(s, "{")
	for open >= 0 && strings.HasPrefix(s[open:], "{any}") {
		next := strings.Index(s[open+1:], "{")
		if next < 0 {
			open = -1
			break
		}
		open += 1 + next
	}
	if open < 0 {
		return TimeEncoding{}, fmt.Errorf("%q has no {time}: write where the time stands, such as comm#{time}#{any}", s)
	}
	closing := strings.Index(s[open:], "}")
	if closing < 0 {
		return TimeEncoding{}, fmt.Errorf("%q: a { without its }: write {time}, {time:yyyyMMdd}, {ulid} or {any}", s)
	}
	ph, before, after := s[open+1:open+closing], s[:open], s[open+closing+1:]
	var e TimeEncoding
	switch name, layout, _ := strings.Cut(ph, ":"); {
	case name == "time" && layout == "":
		e = TimeEncoding{Kind: TimeText, Zone: time.UTC} // the layout is read from the keys (Resolve)
	case name == "time":
		l, err := goLayout(layout)
		if err != nil {
			return TimeEncoding{}, fmt.Errorf("%q: %v", s, err)
		}
		e = TimeEncoding{Kind: TimeText, Layout: l, Zone: time.UTC}
	default:
		named, ok := namedFormat(name)
		if !ok || !named.IsID() {
			return TimeEncoding{}, fmt.Errorf("%q: {%s} is not a placeholder: write {time}, {time:LAYOUT}, {ulid}, {uuidv7}, {ksuid} or {any}", s, ph)
		}
		e = named
	}
	switch {
	case before == "":
	case strings.HasPrefix(before, "{any}"):
		rest := before[len("{any}"):]
		if len(rest) != 1 || !isTimeSep(rest[0]) {
			return TimeEncoding{}, fmt.Errorf("%q: put one separator (one of %s) between {any} and the time, such as {any}#{time}", s, timeSeps)
		}
		e.Place, e.Sep = TimeAfter, rest
	case strings.Contains(before, "{"):
		return TimeEncoding{}, fmt.Errorf("%q: before the time write fixed text (comm#) or {any} and a separator, not both", s)
	default:
		e.Place, e.Sep, e.Lead = TimeAfter, before[len(before)-1:], before
	}
	switch {
	case after == "":
	case len(after) == 1+len("{any}") && isTimeSep(after[0]) && after[1:] == "{any}":
		if e.Place == TimeWhole {
			e.Place, e.Sep = TimeLeading, after[:1]
		} else {
			e.Tail = after[:1]
		}
	default:
		return TimeEncoding{}, fmt.Errorf("%q: after the time write nothing, or a separator and {any} (#{any})", s)
	}
	if e.Kind == TimeText && e.Layout != "" {
		if err := e.checkLayout(s); err != nil {
			return TimeEncoding{}, err
		}
	}
	return e, nil
}

// Resolved reports an encoding ready to read keys: a template's {time}
// needs its layout read from keys first (Resolve).
func (e TimeEncoding) Resolved() bool { return e.Kind != TimeText || e.Layout != "" }

// Resolve reads a {time} template's layout from the keys: the form
// detection finds in the first key that has the template's shape. ok is
// false when none has.
func (e TimeEncoding) Resolve(keys []string) (TimeEncoding, bool) {
	if e.Resolved() {
		return e, true
	}
	for _, k := range keys {
		var got TimeEncoding
		var ok bool
		if e.Lead != "" {
			rest, has := strings.CutPrefix(k, e.Lead)
			if !has {
				continue
			}
			if e.Tail != "" {
				rest, _, _ = strings.Cut(rest, e.Tail)
			}
			got, ok = matchLayout(rest)
		} else {
			got, ok = DetectTimeText(k)
			ok = ok && got.Place == e.Place && got.Sep == e.Sep && got.Tail == e.Tail
		}
		if ok && got.Kind == TimeText {
			e.Layout, e.Zone = got.Layout, got.Zone
			return e, true
		}
	}
	return e, false
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
