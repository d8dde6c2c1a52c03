package ui

import (
	"regexp"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/components"
)

// reqCount is the request count of a request line's cost ("· 1 req · 0.5
// RCU"), the part that can go when the line is one word too long.
var reqCount = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` · [0-9][0-9,]* reqs?\b`) })

// requestLines is the request behind the view, never cut at a value: on
// one line when it fits, wrapped onto a second when not, and only when two
// lines are not enough, shortened in its middle (? shows it whole).
func requestLines(text string, width int) []string {
	avail := width - 2 // "▸ "
	if avail < 10 {
		return []string{components.Fit(text, max(0, avail))}
	}
	if ansi.StringWidth(text) <= avail {
		return []string{text}
	}
	lines := wrapAtSpaces(text, avail)
	if len(lines) == 2 && len(units(lines[1])) == 1 {
		// One word over: the count of requests (the status bar keeps the
		// session's) gives way rather than a line for that word.
		if short := reqCount().ReplaceAllString(text, ""); ansi.StringWidth(short) <= avail {
			return []string{short}
		}
	}
	if len(lines) <= 2 {
		return lines
	}
	// The count of requests gives way before a value does.
	if short := reqCount().ReplaceAllString(text, ""); short != text {
		if lines := wrapAtSpaces(short, avail); len(lines) <= 2 {
			return lines
		}
	}
	// Something must go: whole words, from the middle. Also where the text
	// is narrower than two lines but its words wrap to three: a hard wrap
	// there cut a figure across the lines ("scanned 2" / "20 · matched").
	if head, tail, ok := elideUnits(units(text), avail); ok {
		return []string{head, tail}
	}
	return strings.Split(ansi.Hardwrap(components.FitMiddle(text, 2*avail), avail, true), "\n")[:2]
}

// elideUnits shortens a request too long for two lines of width in its
// middle between whole units: the first line as many units from the start
// as fit before "…", the second as many from the end as fit, so no value
// or figure is shown cut ("1 req" never turns into "q"). It reports false
// when a unit alone is wider than a line.
func elideUnits(us []string, width int) (head, tail string, ok bool) {
	i := 0
	for ; i < len(us); i++ {
		next := us[i]
		if head != "" {
			next = head + " " + us[i]
		}
		if ansi.StringWidth(next)+2 > width { // " …"
			break
		}
		head = next
	}
	j := len(us)
	for j > i && ansi.StringWidth(strings.Join(us[j-1:], " ")) <= width {
		j--
	}
	for j < len(us) && orphanFigure(us[j]) { // "read 24": the 24 without its word says nothing
		j++
	}
	// The line's clauses are joined by " · ": a cut inside one moves
	// back to its end, and forth to the next one's start, where that
	// keeps half a line, so that "…" stands for whole clauses ("filter
	// … read whole" hid the filter and read as one).
	if i < len(us) && us[i] != "·" {
		for k := i - 1; k > 0; k-- {
			if us[k] == "·" && ansi.StringWidth(strings.Join(us[:k], " ")) >= width/2 {
				head = strings.Join(us[:k], " ")
				break
			}
		}
	}
	if j > 0 && j < len(us) && us[j-1] != "·" {
		for k := j; k < len(us)-1; k++ {
			if us[k] == "·" {
				if ansi.StringWidth(strings.Join(us[k+1:], " ")) >= width/2 {
					j = k + 1
				}
				break
			}
		}
	}
	tail = strings.Join(us[j:], " ")
	if strings.TrimSpace(head) == "" || strings.TrimSpace(tail) == "" {
		return "", "", false
	}
	return strings.TrimRight(head, " ") + " …", strings.TrimLeft(tail, " "), true
}

// orphanFigure reports whether unit u is a figure whose word comes before
// it ("24 ·" of "read 24 · matched 24"), so that starting a line with it
// would show the number alone.
func orphanFigure(u string) bool {
	f := strings.Fields(u)
	return len(f) > 0 && figure().MatchString(f[0]) && (len(f) == 1 || f[1] == "·")
}

// rcuFigure is an RCU figure of a request line, marked est. or not.
var rcuFigure = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b([0-9][0-9,]*(?:\.[0-9]+)?) RCU(?: est\.)?`) })

// estimated is a request as the status bar counts its cost: where every
// figure is computed (--data: the data is not in DynamoDB), each RCU
// figure says est., as the status bar's does, not only those the page
// knew to mark.
func (m *Model) estimated(req string) string {
	if !m.cfg.CostEstimated {
		return req
	}
	var b strings.Builder
	last := 0
	for _, at := range rcuFigure().FindAllStringSubmatchIndex(req, -1) {
		if strings.HasSuffix(req[:at[0]], "budget ") || strings.HasSuffix(req[:at[0]], "budget of ") {
			continue // a budget is a limit, not a cost
		}
		b.WriteString(req[last:at[0]])
		b.WriteString(req[at[2]:at[3]] + " RCU est.")
		last = at[1]
	}
	return b.String() + req[last:]
}

// requestText is the request on top as the request line shows it.
func (m *Model) requestText() string { return common.Guard(m.estimated(m.top().Request())) }

// request renders the request line(s).
func (m *Model) request() string {
	st := &m.styles
	if line := m.exportLine(); line != "" {
		return components.Fit(line, m.w)
	}
	lines := requestLines(m.requestText(), m.w)
	for i, l := range lines {
		lead := st.RequestLabel.Render("▸ ")
		if i > 0 {
			lead = "  "
		}
		lines[i] = components.Fit(lead+st.Request.Render(l), m.w)
	}
	return strings.Join(lines, "\n")
}

// requestHeight is how many lines the request takes.
func (m *Model) requestHeight() int {
	if m.exportLine() != "" || m.tooSmall() {
		return 1
	}
	return len(requestLines(m.requestText(), m.w))
}

// wrapAtSpaces breaks text only at its spaces (ansi's wrapping also breaks
// at hyphens, inside a value such as "9999-12-31"), and never inside a
// unit (units): a number stays with its word; a unit wider than the line
// is cut hard.
func wrapAtSpaces(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range units(text) {
		switch {
		case line == "":
			line = word
		case ansi.StringWidth(line)+1+ansi.StringWidth(word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
		for ansi.StringWidth(line) > width {
			lines = append(lines, ansi.Truncate(line, width, ""))
			line = ansi.TruncateLeft(line, width, "")
		}
	}
	return append(lines, line)
}

// figure is a number as a request line writes it: "13", "1,024", "0.5".
var figure = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9][0-9,.]*$`) })

// label is a word that names the figure after it: "following:".
var label = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\pL+:$`) })

// units are text's words as a wrap may break between them: a number
// joined to the word it counts ("13 GetRecords", "0.5 RCU"), or to the
// word before it where it ends a clause ("matched 16 ·"), and a label
// to that ("following: 13 GetRecords"), since "13" ending a line with
// "GetRecords" starting the next reads as two things.
func units(text string) []string {
	words := strings.Split(text, " ")
	var out []string
	for i := 0; i < len(words); i++ {
		u := words[i]
		if label().MatchString(u) && i+2 < len(words) && figure().MatchString(words[i+1]) && words[i+2] != "" {
			u += " " + words[i+1]
			i++
		}
		if figure().MatchString(u) && len(out) > 0 && (i+1 == len(words) || words[i+1] == "·") {
			// "matched 16 ·": the figure's word is before it.
			out[len(out)-1] += " " + u
			continue
		}
		if figure().MatchString(words[i]) && i+1 < len(words) && words[i+1] != "" {
			u += " " + words[i+1]
			i++
		}
		out = append(out, u)
	}
	return out
}
