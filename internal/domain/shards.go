package domain

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxShards bounds a partition pattern's expansion: each shard costs at
// least one request per level.
const MaxShards = 1000

// ExpandPartitions expands a sharded partition-key pattern: `seattle-{1..4}`
// is seattle-1 … seattle-4, `{01..12}` keeps the zero padding, `{a,b,c}`
// lists values, and several braces multiply. Text without braces is one
// partition. `\{` is a literal brace.
func ExpandPartitions(pattern string) ([]string, error) {
	out := []string{""}
	for i := 0; i < len(pattern); {
		c := pattern[i]
		switch {
		case c == '\\' && i+1 < len(pattern) && (pattern[i+1] == '{' || pattern[i+1] == '}'):
			out = appendAll(out, []string{pattern[i+1 : i+2]})
			i += 2
		case c == '{':
			end := strings.IndexByte(pattern[i:], '}')
			if end < 0 {
				return nil, fmt.Errorf("pattern %q: the { at column %d is never closed; write {1..4} or {a,b}", pattern, i+1)
			}
			alts, err := braceValues(pattern[i+1:i+end], i+1)
			if err != nil {
				return nil, fmt.Errorf("pattern %q: %v", pattern, err)
			}
			if len(out)*len(alts) > MaxShards {
				return nil, fmt.Errorf("pattern %q expands to more than %d partitions; narrow the ranges", pattern, MaxShards)
			}
			out = appendAll(out, alts)
			i += end + 1
		case c == '}':
			return nil, fmt.Errorf("pattern %q: a } at column %d closes nothing; escape it as \\}", pattern, i+1)
		default:
			j := i
			for j < len(pattern) && pattern[j] != '{' && pattern[j] != '}' && pattern[j] != '\\' {
				j++
			}
			if j == i {
				j++ // a lone backslash is literal
			}
			out = appendAll(out, []string{pattern[i:j]})
			i = j
		}
	}
	return out, nil
}

// IsPattern reports whether s holds an unescaped brace, so is a pattern.
func IsPattern(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == '{' {
			return true
		}
	}
	return false
}

func appendAll(prefixes, alts []string) []string {
	out := make([]string, 0, len(prefixes)*len(alts))
	for _, p := range prefixes {
		for _, a := range alts {
			out = append(out, p+a)
		}
	}
	return out
}

// braceValues reads the inside of {…}: a numeric range lo..hi (keeping the
// width of zero-padded bounds) or a comma list.
func braceValues(body string, col int) ([]string, error) {
	if lo, hi, ok := strings.Cut(body, ".."); ok {
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || a < 0 || b < 0 {
			return nil, fmt.Errorf("{%s} at column %d is not a range of whole numbers like {1..4}", body, col)
		}
		if b < a {
			return nil, fmt.Errorf("{%s} at column %d runs backwards; write {%d..%d}", body, col, b, a)
		}
		if b-a >= MaxShards {
			return nil, fmt.Errorf("{%s} at column %d has more than %d values", body, col, MaxShards)
		}
		width := 0
		if len(lo) > 1 && lo[0] == '0' || len(hi) > 1 && hi[0] == '0' {
			width = max(len(lo), len(hi))
		}
		var out []string
		for n := a; n <= b; n++ {
			out = append(out, fmt.Sprintf("%0*d", width, n))
		}
		return out, nil
	}
	if body == "" {
		return nil, fmt.Errorf("{} at column %d is empty; write {1..4} or {a,b}", col)
	}
	return strings.Split(body, ","), nil
}
