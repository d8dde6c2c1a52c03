package pages

import (
	"encoding/json"
	"regexp"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/domain"
	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui/common"
)

var jsonLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*)("(?:[^"\\]|\\.)*")(:\s*)(.*)$`) })

// renderJSON renders an item as indented JSON, attribute names sorted,
// plain or in DynamoDB's own form, with each top-level attribute's type
// beside it. Every line is sanitized: JSON escapes C0 controls but not C1
// controls or bidirectional overrides.
func renderJSON(st *common.Styles, item dynamo.Item, wire bool, width int) string {
	out, _ := renderJSONLines(st, item, wire, width, false)
	return out
}

// renderJSONLines is renderJSON, its long lines wrapped rather than cut
// where wrap is set; cut reports whether a line was cut (or, wrapped,
// would have been): whether wrapping shows more.
func renderJSONLines(st *common.Styles, item dynamo.Item, wire bool, width int, wrap bool) (out string, cut bool) {
	lines := []string{st.JSONPunct.Render("{")}
	names := dynamo.SortedNames(item)
	for i, name := range names {
		var v any = binaryTagged(dynamo.Plain(item[name]))
		if wire {
			v = dynamo.Wire(item[name])
		}
		b, err := json.MarshalIndent(map[string]any{name: v}, "", "  ")
		if err != nil {
			continue
		}
		body := strings.Split(string(b), "\n")
		body = body[1 : len(body)-1] // drop the wrapping braces
		if i < len(names)-1 {
			body[len(body)-1] += ","
		}
		for j, l := range body {
			l = colorLine(st, common.SanitizeJSON(l))
			tag := ""
			if j == 0 && !wire {
				tag = "  " + st.TypeTag.Render(dynamo.TypeOf(item[name]))
			}
			long := width > 0 && common.Width(l)+common.Width(tag) > width
			cut = cut || long
			if long && wrap {
				lines = append(lines, wrapLine(l+tag, width)...)
				continue
			}
			lines = append(lines, fitLine(l, tag, width))
		}
	}
	lines = append(lines, st.JSONPunct.Render("}"))
	return strings.Join(lines, "\n"), cut
}

// wrapLine is a line of an item in rows of width cells, every row after
// the first indented under the attribute's name by two more cells, so
// that the value reads as one (the line is escaped already; a wide
// character is never split).
func wrapLine(l string, width int) []string {
	plain := ansi.Strip(l)
	indent := len(plain) - len(strings.TrimLeft(plain, " ")) + 2
	if indent >= width/2 {
		indent = 0
	}
	rows := []string{common.Cut(l, 0, width)}
	for at, w := common.Width(rows[0]), common.Width(l); at < w; {
		row := common.Cut(l, at, at+width-indent)
		if common.Width(row) == 0 {
			break
		}
		rows = append(rows, strings.Repeat(" ", indent)+row)
		at += common.Width(row)
	}
	return rows
}

// fitLine is a line of an item within width: a value cut at the edge ends
// in "…" and keeps its type tag after it, so that a cut value never reads
// as whole (width <= 0: no limit).
func fitLine(l, tag string, width int) string {
	if width <= 0 || common.Width(l)+common.Width(tag) <= width {
		return l + tag
	}
	room := max(1, width-common.Width(tag))
	return common.Truncate(l, room, "…") + tag
}

// binaryTagged writes the binaries of a plain value as b64:…, the one form
// binary values take on screen (plain JSON would show bare base64, which
// reads as a string). DynamoDB JSON (d) keeps AWS's {"B": base64}.
func binaryTagged(v any) any {
	switch x := v.(type) {
	case []byte:
		return domain.KeyText(domain.TypeB, string(x))
	case [][]byte:
		out := make([]any, len(x))
		for i, b := range x {
			out[i] = binaryTagged(b)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = binaryTagged(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = binaryTagged(e)
		}
		return out
	}
	return v
}

func colorLine(st *common.Styles, l string) string {
	if m := jsonLine().FindStringSubmatch(l); m != nil {
		return m[1] + st.JSONKey.Render(m[2]) + st.JSONPunct.Render(m[3]) + colorValue(st, m[4])
	}
	indent := len(l) - len(strings.TrimLeft(l, " "))
	return l[:indent] + colorValue(st, l[indent:])
}

func colorValue(st *common.Styles, v string) string {
	trimmed := strings.TrimSuffix(v, ",")
	tail := v[len(trimmed):]
	switch {
	case trimmed == "":
		return v
	case trimmed[0] == '"':
		return st.JSONString.Render(trimmed) + st.JSONPunct.Render(tail)
	case trimmed == "true" || trimmed == "false" || trimmed == "null":
		return st.JSONLiteral.Render(trimmed) + st.JSONPunct.Render(tail)
	case trimmed[0] == '-' || trimmed[0] >= '0' && trimmed[0] <= '9':
		return st.JSONNumber.Render(trimmed) + st.JSONPunct.Render(tail)
	}
	return st.JSONPunct.Render(v)
}
