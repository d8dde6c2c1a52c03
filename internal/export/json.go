package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// JSONDoc prints one indented JSON document, terminal-safe, with <, > and
// & as themselves.
func JSONDoc(w io.Writer, doc any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := w.Write(EscapeJSON(buf.Bytes()))
	return err
}

// JSONRows writes values as JSON lines, or as one JSON array, each
// terminal-safe and with <, > and & as themselves.
type JSONRows struct {
	out   *bufio.Writer
	array bool
	n     int
	line  bytes.Buffer
	enc   *json.Encoder
}

// NewJSONRows starts JSON lines (format jsonl) or an array (json).
func NewJSONRows(w io.Writer, format string) *JSONRows {
	j := &JSONRows{out: bufio.NewWriterSize(w, 64<<10), array: format == "json"}
	j.enc = json.NewEncoder(&j.line)
	j.enc.SetEscapeHTML(false)
	if j.array {
		j.out.WriteByte('[')
	}
	return j
}

// Write adds one value.
func (j *JSONRows) Write(v any) error {
	j.line.Reset()
	if err := j.enc.Encode(v); err != nil {
		return err
	}
	b := EscapeJSON(j.line.Bytes())
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

// Flush hands the reader what is written so far.
func (j *JSONRows) Flush() error {
	if err := j.out.Flush(); err != nil {
		return fmt.Errorf("writing: %w", err)
	}
	return nil
}

// Close ends the array, if any, and flushes.
func (j *JSONRows) Close() error {
	if j.array {
		j.out.WriteString("]\n")
	}
	return j.Flush()
}

// compactJSON is v as one line of JSON, with <, > and & as themselves.
func compactJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// decodePlain reads one JSON object, numbers exact.
func decodePlain(b []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	err := dec.Decode(&m)
	return m, err
}
