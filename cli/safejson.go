package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"
)

// unsafeRune reports the characters encoding/json leaves raw but a
// terminal may obey or that reorder what it shows: DEL, the C1 controls
// U+0080–U+009F (U+009B alone starts an escape sequence), and the
// bidirectional marks, embeddings, overrides and isolates.
func unsafeRune(r rune) bool {
	return r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x200e || r == 0x200f || r == 0x061c ||
		(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// escapeTerminalControls rewrites those characters in JSON text as \uXXXX.
// Outside strings JSON has none of them, so the rewrite keeps the
// document's meaning.
func escapeTerminalControls(js []byte) []byte {
	dirty := false
	for i := 0; i < len(js); {
		r, n := utf8.DecodeRune(js[i:])
		if unsafeRune(r) {
			dirty = true
			break
		}
		i += n
	}
	if !dirty {
		return js
	}
	out := make([]byte, 0, len(js)+32)
	for i := 0; i < len(js); {
		r, n := utf8.DecodeRune(js[i:])
		if unsafeRune(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, js[i:i+n]...)
		}
		i += n
	}
	return out
}

// writeJSONDoc prints one indented JSON document, terminal-safe, with
// <, > and & as themselves.
func writeJSONDoc(w io.Writer, doc any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := w.Write(escapeTerminalControls(buf.Bytes()))
	return err
}

// jsonRows writes values as JSON lines, or as one JSON array, each
// terminal-safe and with <, > and & as themselves.
type jsonRows struct {
	out   *bufio.Writer
	array bool
	n     int
	line  bytes.Buffer
	enc   *json.Encoder
}

// newJSONRows starts JSON lines (format jsonl) or an array (json).
func newJSONRows(w io.Writer, format string) *jsonRows {
	j := &jsonRows{out: bufio.NewWriterSize(w, 64<<10), array: format == "json"}
	j.enc = json.NewEncoder(&j.line)
	j.enc.SetEscapeHTML(false)
	if j.array {
		j.out.WriteByte('[')
	}
	return j
}

func (j *jsonRows) write(v any) error {
	j.line.Reset()
	if err := j.enc.Encode(v); err != nil {
		return err
	}
	b := escapeTerminalControls(j.line.Bytes())
	if j.array {
		if j.n > 0 {
			j.out.WriteByte(',')
		}
		b = bytes.TrimSuffix(b, []byte("\n"))
	}
	j.n++
	if _, err := j.out.Write(b); err != nil {
		return fmt.Errorf("writing: %w", err)
	}
	return nil
}

// flush hands the reader what is written so far.
func (j *jsonRows) flush() error {
	if err := j.out.Flush(); err != nil {
		return fmt.Errorf("writing: %w", err)
	}
	return nil
}

// close ends the array, if any, and flushes.
func (j *jsonRows) close() error {
	if j.array {
		j.out.WriteString("]\n")
	}
	return j.flush()
}
