package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// SetTableColumns rewrites a configuration file's text so that table's
// columns are cols (none: the line goes, and the grid picks the most common
// attributes again). Only that one setting changes: comments, order and
// every other line stay as the person wrote them. The section is added at
// the end when the file has none. The result is read back, and an edit that
// would not give exactly cols (a section written in a form this does not
// edit, such as an inline table) is refused rather than written.
func SetTableColumns(text, table string, cols []string) (string, error) {
	before, err := ParseConfig(text)
	if err != nil {
		return "", err
	}
	lines := strings.Split(text, "\n")
	line := ""
	if len(cols) > 0 {
		quoted := make([]string, len(cols))
		for i, c := range cols {
			quoted[i] = tomlString(c)
		}
		line = "columns = [" + strings.Join(quoted, ", ") + "]"
	}
	start, end, ok := tableSection(lines, table)
	switch {
	case ok:
		lines = setInSection(lines, start, end, line)
	case line != "":
		for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
			lines = lines[:len(lines)-1]
		}
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, "[tables."+tomlKey(table)+"]", line, "")
	}
	out := strings.Join(lines, "\n")
	after, err := ParseConfig(out)
	if err != nil || !slices.Equal(after.Table(table).Columns, cols) || !sameBesidesColumns(before, after, table) {
		return "", fmt.Errorf("the file's [tables.%s] is written in a form dynascope does not edit: add columns = [...] under it by hand", tomlKey(table))
	}
	return out, nil
}

// sameBesidesColumns reports whether the edit changed nothing but the
// table's columns.
func sameBesidesColumns(a, b Config, table string) bool {
	ta, tb := a.Table(table), b.Table(table)
	ta.Columns, tb.Columns = nil, nil
	ta.Shards, tb.Shards = nil, nil
	if fmt.Sprint(ta) != fmt.Sprint(tb) || fmt.Sprint(a.Table(table).Shards) != fmt.Sprint(b.Table(table).Shards) {
		return false
	}
	a.Tables, b.Tables = nil, nil
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// setInSection replaces the columns setting in lines[start:end] (the
// section's body) with line, removes it when line is empty, or adds it
// after the section's last setting.
func setInSection(lines []string, start, end int, line string) []string {
	for i := start; i < end; i++ {
		key, _, ok := strings.Cut(lines[i], "=")
		if !ok || strings.TrimSpace(key) != "columns" {
			continue
		}
		last := i
		for depth := arrayDepth(lines[i]); depth > 0 && last+1 < end; depth += arrayDepth(lines[last]) {
			last++ // a multi-line array
		}
		repl := []string{}
		if line != "" {
			repl = append(repl, line)
		}
		return slices.Concat(lines[:i], repl, lines[last+1:])
	}
	if line == "" {
		return lines
	}
	at := end
	for at > start && strings.TrimSpace(lines[at-1]) == "" {
		at--
	}
	return slices.Concat(lines[:at], []string{line}, lines[at:])
}

// arrayDepth is how many more [ than ] a line opens, outside strings and
// comments.
func arrayDepth(line string) int {
	depth := 0
	var quote rune
	escaped := false
	for _, r := range line {
		switch {
		case quote != 0:
			switch {
			case escaped:
				escaped = false
			case r == '\\' && quote == '"':
				escaped = true
			case r == quote:
				quote = 0
			}
		case r == '"' || r == '\'':
			quote = r
		case r == '#':
			return depth
		case r == '[':
			depth++
		case r == ']':
			depth--
		}
	}
	return depth
}

// tableSection finds [tables.NAME]: the lines of its body are
// lines[start:end].
func tableSection(lines []string, table string) (start, end int, ok bool) {
	for i, l := range lines {
		name, isHeader := headerKey(l)
		if !isHeader || !ok && !slices.Equal(name, []string{"tables", table}) {
			continue
		}
		if ok {
			return start, i, true
		}
		start, ok = i+1, true
	}
	return start, len(lines), ok
}

// headerKey reads a [table] header line's dotted key; array-of-tables
// headers ([[x]]) and other lines are not headers here.
func headerKey(line string) ([]string, bool) {
	l := strings.TrimSpace(line)
	if !strings.HasPrefix(l, "[") || strings.HasPrefix(l, "[[") {
		return nil, false
	}
	parts, rest, ok := dottedKey(l[1:])
	rest = strings.TrimSpace(rest)
	if !ok || !strings.HasPrefix(rest, "]") {
		return nil, true // a header all the same: it ends the section
	}
	if after := strings.TrimSpace(rest[1:]); after != "" && !strings.HasPrefix(after, "#") {
		return nil, true
	}
	return parts, true
}

// dottedKey reads a TOML dotted key (bare, "basic" and 'literal' parts)
// from the start of s.
func dottedKey(s string) (parts []string, rest string, ok bool) {
	for {
		s = strings.TrimLeft(s, " \t")
		var part string
		switch {
		case strings.HasPrefix(s, `"`):
			end := closingQuote(s)
			if end < 0 {
				return nil, s, false
			}
			p, err := unquoteBasic(s[1:end])
			if err != nil {
				return nil, s, false
			}
			part, s = p, s[end+1:]
		case strings.HasPrefix(s, "'"):
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return nil, s, false
			}
			part, s = s[1:end+1], s[end+2:]
		default:
			n := 0
			for n < len(s) && isBareKeyByte(s[n]) {
				n++
			}
			if n == 0 {
				return nil, s, false
			}
			part, s = s[:n], s[n:]
		}
		parts = append(parts, part)
		s = strings.TrimLeft(s, " \t")
		if !strings.HasPrefix(s, ".") {
			return parts, s, true
		}
		s = s[1:]
	}
}

// closingQuote is the index of the " that closes a basic string opened at
// s[0], or -1.
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

func unquoteBasic(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 >= len(s) {
			return "", fmt.Errorf("dangling escape")
		}
		i++
		switch s[i] {
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case '"', '\\':
			b.WriteByte(s[i])
		case 'u', 'U':
			n := map[byte]int{'u': 4, 'U': 8}[s[i]]
			if i+1+n > len(s) {
				return "", fmt.Errorf("short escape")
			}
			r, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
			if err != nil {
				return "", err
			}
			b.WriteRune(rune(r))
			i += n
		default:
			return "", fmt.Errorf("bad escape")
		}
	}
	return b.String(), nil
}

func isBareKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// tomlKey writes a key part: bare when it can be, else a basic string.
func tomlKey(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool { return r > 0x7f || !isBareKeyByte(byte(r)) }) < 0 {
		return s
	}
	return tomlString(s)
}

// tomlString writes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
