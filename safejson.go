package main

// escapeTerminalControls rewrites, in JSON text, the characters
// encoding/json leaves raw but a terminal may obey: DEL and the C1 controls
// U+0080–U+009F (U+009B alone starts an escape sequence). Outside strings
// JSON has no such bytes, so the rewrite keeps the document's meaning.
func escapeTerminalControls(js []byte) []byte {
	dirty := false
	for i := 0; i < len(js); i++ {
		if js[i] == 0x7f || (js[i] == 0xc2 && i+1 < len(js) && js[i+1] >= 0x80 && js[i+1] <= 0x9f) {
			dirty = true
			break
		}
	}
	if !dirty {
		return js
	}
	const hex = "0123456789abcdef"
	out := make([]byte, 0, len(js)+32)
	for i := 0; i < len(js); i++ {
		switch {
		case js[i] == 0x7f:
			out = append(out, `\u007f`...)
		case js[i] == 0xc2 && i+1 < len(js) && js[i+1] >= 0x80 && js[i+1] <= 0x9f:
			c := js[i+1]
			out = append(out, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			i++
		default:
			out = append(out, js[i])
		}
	}
	return out
}
