package main

import (
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
