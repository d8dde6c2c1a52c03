package common

import "github.com/dynascope/dynascope/internal/export"

// Sanitize makes item data safe to print: the one escaper every output
// uses (see export.Sanitize), so the screen, files and pipes agree.
func Sanitize(s string) string { return export.Sanitize(s) }
