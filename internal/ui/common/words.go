package common

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// flagWords are the explorer's words for what an error or hint written for
// the command line calls a flag: inside the explorer there is no flag to
// pass, so a message says what the flag stands for.
var flagWords = map[string]string{
	"--endpoint-url":    "the endpoint",
	"--region":          "the region",
	"--profile":         "the profile",
	"--demo":            "the demo",
	"--output":          "the file",
	"--version-pattern": "version_pattern in the configuration",
	"--time-format":     "time_format in the configuration",
	"--max-rcu":         "max_rcu in the configuration",
	"--count-budget":    "count_budget in the configuration",
	"--delimiter":       "the delimiter (D)",
	"--index":           "the index (i)",
	"--versions":        "versions",
	"--pk":              "the partition key",
	"--table":           "the table",
	"--filter":          "the filter",
	"--range":           "the range",
	"--prefix":          "the prefix",
}

var flagPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`--[a-z][a-z0-9-]*`) })

// ExplorerWords rewrites the command-line flags a message names into what
// they stand for ("check --endpoint-url and --region" → "check the
// endpoint and the region"); a flag it does not know loses its dashes.
func ExplorerWords(s string) string {
	if !strings.Contains(s, "--") {
		return s
	}
	return flagPattern().ReplaceAllStringFunc(s, func(f string) string {
		if w, ok := flagWords[f]; ok {
			return w
		}
		return strings.ReplaceAll(strings.TrimPrefix(f, "--"), "-", " ")
	})
}

// MiddleCut fits s (which may be styled) into width cells by cutting its
// middle, so that both how a message starts and how it ends (the hint,
// what to press) stay readable.
func MiddleCut(s string, width int) string {
	if ansi.StringWidth(s) <= width {
		return s
	}
	if width <= 1 {
		return ansi.Truncate(s, width, "")
	}
	head := (width - 1) / 2
	tail := width - 1 - head
	return ansi.Truncate(s, head, "") + "…" + ansi.TruncateLeft(s, ansi.StringWidth(s)-tail, "")
}

// ClauseCut fits s to width cells at its clauses (parts after "; "):
// its last (what to do, "c counts on") kept whole and the words before it
// cut, whole clauses first, then after a whole word; where the last
// clause does not fit beside them, the end from a clause's or a word's
// start; s with no clause, the same at its words. Where no whole word
// fits, MiddleCut. A middle cut had read "count: stopped …RCU; c counts
// on", "those marke…tial", and "no attribute of t… partition of".
func ClauseCut(s string, width int) string {
	if cut, ok := ClauseCutWords(s, width); ok {
		return cut
	}
	if cut, ok := middleWords(s, width); ok {
		return cut
	}
	return MiddleCut(s, width)
}

// ClauseCutWords is ClauseCut, false where it cannot cut s at its
// clauses and whole words (no clause, or no word fits).
func ClauseCutWords(s string, width int) (string, bool) {
	if cut, ok := LastClauseKept(s, width); ok {
		return cut, true
	}
	if strings.LastIndex(s, "; ") <= 0 {
		return "", false
	}
	return middleWords(s, width)
}

// LastClauseKept is s in width cells with its last clause whole and the
// clauses before it whole, or cut after a whole word from their start
// ("— 2.0 RCU spent…; each c reads on"); false where that does not fit:
// the status bar then leaves a hint out rather than cut it in its
// middle ("— 2.0 RCU spent…reading nothing twice").
func LastClauseKept(s string, width int) (string, bool) {
	if ansi.StringWidth(s) <= width {
		return s, true
	}
	i := strings.LastIndex(s, "; ")
	if i <= 0 {
		return "", false
	}
	if tail := s[i:]; width-ansi.StringWidth(tail) >= 8 {
		if head := leadingClauses(s[:i], width-ansi.StringWidth(tail)); head != "" {
			return head + tail, true
		}
	}
	return "", false
}

// middleWords is MiddleCut at words: the end from a word's start (a
// clause's where one fits), the start cut after a whole word
// ("DynamoDB…a moment and retry"); false where neither has a word.
func middleWords(s string, width int) (string, bool) {
	const more = "…"
	room := (width - ansi.StringWidth(more)) * 3 / 5 // the end says what to do
	// The longest end that fits, from a clause's start where one does.
	tail, clause := "", false
	for j := len(s) - 1; j > 1; j-- {
		if s[j-1] != ' ' || ansi.StringWidth(s[j:]) > room {
			continue
		}
		if starts := s[j-2] == ',' || s[j-2] == ';'; starts || !clause {
			tail, clause = s[j:], starts
		}
	}
	head := wordsHead(s[:len(s)-len(tail)], width-ansi.StringWidth(tail)-ansi.StringWidth(more))
	if tail == "" || head == "" {
		return "", false
	}
	return head + more + tail, true
}

// leadingClauses is s cut to width cells, "…" ending it: after its last
// whole clause that fits, else after a whole word ("" where none fits).
func leadingClauses(s string, width int) string {
	const more = "…"
	for i := strings.LastIndex(s, "; "); i > 0; i = strings.LastIndex(s[:i], "; ") {
		if ansi.StringWidth(s[:i])+ansi.StringWidth(more) <= width {
			return s[:i] + more
		}
	}
	if head := wordsHead(s, width-ansi.StringWidth(more)); head != "" {
		return head + more
	}
	return ""
}

// wordsHead is CutWords' start of s within width cells where it ends
// after a whole word, without its "…"; "" where no word fits (CutWords
// then cuts a word).
func wordsHead(s string, width int) string {
	if width <= 0 {
		return ""
	}
	head := strings.TrimSuffix(CutWords(s, width), "…")
	if head == "" || len(head) >= len(s) || !strings.ContainsRune(" ·,;:", rune(s[len(head)])) {
		return ""
	}
	return strings.TrimRight(head, " ")
}

// CutPath fits s to width cells as MiddleCut does, but where s ends in
// a file's path the file's name stays whole and the folders before it
// give way ("to /tmp…/partiql.jsonl", never "/…ql.jsonl": the name is
// what tells one export from another); a name too wide alone loses its
// start, the folders all gone ("to …USA-NY-children.jsonl").
func CutPath(s string, width int) string {
	if ansi.StringWidth(s) <= width {
		return s
	}
	i := strings.LastIndexAny(s, `/\`)
	if i < 0 || strings.ContainsAny(s[i:], " ") {
		return MiddleCut(s, width)
	}
	name := s[i:]
	if room := width - ansi.StringWidth(name) - 1; room >= 1 {
		return ansi.Truncate(s[:i], room, "") + "…" + name
	}
	// The name alone too wide: the words before the path, and as much
	// of the name's end as fits (its extension, what ends it).
	lead := s[:strings.LastIndex(s[:i], " ")+1]
	room := width - ansi.StringWidth(lead) - 1
	if room < 8 {
		return MiddleCut(s, width)
	}
	return lead + "…" + ansi.TruncateLeft(s[i+1:], ansi.StringWidth(s[i+1:])-room, "")
}

// Wrap breaks text at its spaces into lines of at most width cells, a
// word wider than a line cut where the line ends. Not ansi.Wrap: that
// also breaks after every hyphen, so that a command shown to be copied
// ("--table") or a key (us-east-1, 2026-03-05) is split in two words, and
// keeps the space after a word that ends exactly at width, one cell too
// wide, which a frame then cuts with "…" inside the word.
func Wrap(text string, width int) string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		out = append(out, wrapAtSpaces(para, max(1, width))...)
	}
	return strings.Join(out, "\n")
}

func wrapAtSpaces(s string, width int) []string {
	if ansi.StringWidth(s) <= width {
		return []string{strings.TrimRight(s, " ")}
	}
	var lines []string
	cur, open := "", false
	start := func(w string) {
		for ansi.StringWidth(w) > width {
			lines = append(lines, ansi.Truncate(w, width, ""))
			w = ansi.TruncateLeft(w, width, "")
		}
		cur, open = w, true
	}
	for _, w := range strings.Split(s, " ") {
		switch {
		case !open && w == "" && len(lines) > 0: // the spaces a line was broken at
		case !open:
			start(w)
		case ansi.StringWidth(cur)+1+ansi.StringWidth(w) <= width:
			cur += " " + w
		default:
			lines = append(lines, strings.TrimRight(cur, " "))
			open = false
			if w != "" {
				start(w)
			}
		}
	}
	if open {
		lines = append(lines, strings.TrimRight(cur, " "))
	}
	return lines
}

// CutWords fits plain text s into width cells, cutting after its last
// whole phrase (between " · ") that fits, or the next one's last whole
// clause (before ": ", ", " or "; "), or where the first does not fit,
// after its last whole word, and marking the cut with "…": a phrase is
// never cut mid-clause ("v0_ differs from v3_: Findings…" named half a
// difference), nor a figure ("20.0 RCU" drawn "20.…" reads as another number). A
// first word wider than width is cut inside; a figure is kept with the
// word after it ("20.0 RCU"), and a key with what it does ("r retries").
func CutWords(s string, width int) string {
	if ansi.StringWidth(s) <= width {
		return s
	}
	if cut, ok := cutPhrases(s, width); ok {
		return cut
	}
	cut := ""
	for i, r := range s {
		if r != ' ' {
			continue
		}
		head := strings.TrimRight(s[:i], " ·,;:")
		if ansi.StringWidth(head)+1 > width {
			break
		}
		if last := head[strings.LastIndex(head, " ")+1:]; head != "" && !figureWord(last) && utf8.RuneCountInString(last) > 1 {
			cut = head // a figure stays with the word it counts, a key ("r") with what it does
		}
	}
	if cut == "" {
		return ansi.Truncate(s, width, "…")
	}
	return cut + "…"
}

// phraseSep parts the phrases of a title or a message.
const phraseSep = " · "

// cutPhrases is s's whole phrases that fit in width cells with "…"
// after them, and the next one's whole clauses where they fit too; ok is
// false where its first phrase alone does not.
func cutPhrases(s string, width int) (string, bool) {
	parts := strings.Split(s, phraseSep)
	more := ansi.StringWidth("…")
	if len(parts) < 2 || ansi.StringWidth(parts[0])+more > width {
		return "", false
	}
	head, k := parts[0], 1
	for ; k < len(parts); k++ {
		next := head + phraseSep + parts[k]
		if ansi.StringWidth(next)+more > width {
			break
		}
		head = next
	}
	if k < len(parts) {
		// The next phrase up to the end of a clause, where one fits:
		// "the middle not read yet…" of "the middle not read yet: scroll
		// into the gap to read it" says the fact, and drops the how.
		p := parts[k]
		for i := len(p) - 2; i > 0; i-- {
			if (p[i] == ':' || p[i] == ',' || p[i] == ';') && p[i+1] == ' ' {
				if cut := head + phraseSep + p[:i] + "…"; ansi.StringWidth(cut) <= width {
					return cut, true
				}
			}
		}
	}
	return head + "…", true
}

// figureWord reports whether w is a number as the explorer writes one
// ("20.0", "1,271").
func figureWord(w string) bool {
	return w != "" && strings.Trim(w, "0123456789.,") == ""
}
