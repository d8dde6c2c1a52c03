package common

import "github.com/dynascope/dynascope/internal/export"

// Sanitize makes item data safe to print: the one escaper every output
// uses (see export.Sanitize), so the screen, files and pipes agree.
func Sanitize(s string) string { return export.Sanitize(s) }

// SanitizeJSON makes JSON text safe to print: JSON escapes its own
// controls and backslashes, so only what it leaves raw (C1 controls, bidi
// and format characters) is escaped; Sanitize would double its escapes.
func SanitizeJSON(s string) string { return string(export.EscapeJSON([]byte(s))) }

// Guard shows text already escaped piece by piece (a breadcrumb, a request
// line) safely without escaping its escapes again: see export.Guard.
func Guard(s string) string { return export.Guard(s) }
